/*
 * memcpy_hugepages.c - the memcpy module's huge-page cases (on request):
 * h2d and d2h hipMemcpyAsync with host memory on huge pages, pageable and
 * registered (hipHostRegister of that memory), named DIR/BACKING/async and
 * DIR/BACKING-registered/async. BACKING is
 *  - thp: a 2 MiB-aligned anonymous mapping with madvise(MADV_HUGEPAGE),
 *    touched; the kernel may or may not give huge pages
 *    (observed.anon_huge_bytes from /proc/self/smaps says how many it did);
 *  - hugetlb-2M, hugetlb-1G: mmap(MAP_HUGETLB | MAP_HUGE_2MB / _1GB) from
 *    the pages the administrator reserved (observed.page_size_bytes is the
 *    mapping's KernelPageSize).
 * One buffer of the largest size (rounded up to whole huge pages) serves
 * every size. Timed like DIR/pageable/async (events around each copy) and
 * DIR/registered/async (behind the latch); set beside those records at the
 * same size, the difference is what huge pages change: fewer pages for the
 * runtime's staging to walk and to pin, fewer translations for the device.
 * Where a backing is not to be had, one record says why: BACKING/unsupported
 * (the kernel lacks it, or none are reserved: the sysfs value is named) or
 * BACKING/skipped (too few free for the largest size).
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_HUGETLB, madvise */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench/memcpy/memcpy.h"
#include "engine/report.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

#define MIB ((size_t)1 << 20)
#define GIB ((size_t)1 << 30)
#define THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"

struct backing {
	const char *name;
	size_t page;     /* the huge page size */
	int hugetlb;     /* log2 of the hugetlb page size; 0: transparent huge pages */
};

static const struct backing backings[] = {
	{ "thp", 2 * MIB, 0 }, { "hugetlb-2M", 2 * MIB, 21 }, { "hugetlb-1G", GIB, 30 },
};

static const char *page_words(size_t page, char *buf, size_t len)
{
	if (page >= GIB)
		snprintf(buf, len, "%zu GiB", page / GIB);
	else
		snprintf(buf, len, "%zu MiB", page / MIB);
	return buf;
}

int mc_smaps_parse(const char *text, uintptr_t start, uintptr_t end, struct mc_smaps *out)
{
	int found = 0, in = 0;

	memset(out, 0, sizeof(*out));
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		unsigned long lo, hi, kb;
		char perms[8], key[40];

		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3) {
			in = lo < end && hi > start;
			found += in;
		} else if (in && sscanf(line, "%39[^:]: %lu kB", key, &kb) == 2) {
			size_t bytes = (size_t)kb << 10;
			if (strcmp(key, "Rss") == 0)
				out->rss += bytes;
			else if (strcmp(key, "AnonHugePages") == 0)
				out->anon_huge += bytes;
			else if (strcmp(key, "Private_Hugetlb") == 0 ||
				 strcmp(key, "Shared_Hugetlb") == 0)
				out->hugetlb += bytes;
			else if (strcmp(key, "KernelPageSize") == 0 && found == 1)
				out->page_size = bytes;
		}
		line = nl ? nl + 1 : NULL;
	}
	return found;
}

int mc_smaps_range(uintptr_t start, uintptr_t end, struct mc_smaps *out)
{
	FILE *in = fopen("/proc/self/smaps", "r"), *mem;
	char *text = NULL, chunk[4096];
	size_t len = 0, n;
	int found = 0;

	memset(out, 0, sizeof(*out));
	if (!in)
		return 0;
	if ((mem = open_memstream(&text, &len))) {
		while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
			fwrite(chunk, 1, n, mem);
		fclose(mem);
	}
	fclose(in);
	if (text)
		found = mc_smaps_parse(text, start, end, out);
	free(text);
	return found;
}

int mc_hugetlb_available(size_t page_size, long nr, long free_pages, size_t need, char *why,
			 size_t len)
{
	char words[32];
	size_t pages = (need + page_size - 1) / page_size;
	const char *what = page_words(page_size, words, sizeof(words));
	char dir[96];

	snprintf(dir, sizeof(dir), "/sys/kernel/mm/hugepages/hugepages-%zukB", page_size >> 10);
	if (nr < 0) {
		snprintf(why, len, "no %s huge pages in this kernel: %s/nr_hugepages cannot be "
			 "read", what, dir);
		return HMB_UNSUPPORTED;
	}
	if (nr == 0) {
		snprintf(why, len, "no %s huge pages reserved: %s/nr_hugepages is 0", what, dir);
		return HMB_UNSUPPORTED;
	}
	if (free_pages < 0 || (size_t)free_pages < pages) {
		snprintf(why, len, "needs %zu free %s huge pages for %s (the largest size): "
			 "%s/free_hugepages is %ld (nr_hugepages %ld); smaller --sizes need "
			 "fewer", pages, what, hmb_sz(need), dir, free_pages, nr);
		return HMB_SKIPPED;
	}
	return HMB_OK;
}

void mc_thp_mode(const char *text, char *mode, size_t len)
{
	const char *a = strchr(text, '['), *b = a ? strchr(a, ']') : NULL;
	int n = a && b ? (int)(b - a - 1) : 0;

	snprintf(mode, len, "%.*s", n, a ? a + 1 : "");
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f && fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

/* What the host offers of backing b for `need` bytes: HMB_OK, or another
 * status with the reason. */
static int available(const struct backing *b, size_t need, char *thp, size_t thp_len, long *nr,
		     long *free_pages, char *why, size_t len)
{
	char path[128], text[128] = "";
	FILE *f;

	if (b->hugetlb) {
		snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%zukB/nr_hugepages",
			 b->page >> 10);
		*nr = read_long(path);
		snprintf(path, sizeof(path),
			 "/sys/kernel/mm/hugepages/hugepages-%zukB/free_hugepages", b->page >> 10);
		*free_pages = read_long(path);
		return mc_hugetlb_available(b->page, *nr, *free_pages, need, why, len);
	}
	if (!(f = fopen(THP_ENABLED, "r"))) {
		snprintf(why, len, "no transparent huge pages in this kernel: %s cannot be read",
			 THP_ENABLED);
		return HMB_UNSUPPORTED;
	}
	if (!fgets(text, sizeof(text), f))
		text[0] = '\0';
	fclose(f);
	mc_thp_mode(text, thp, thp_len);
	if (strcmp(thp, "never") == 0) {
		snprintf(why, len, "transparent huge pages are off: %s is never", THP_ENABLED);
		return HMB_UNSUPPORTED;
	}
	return HMB_OK;
}

/* len bytes on b's pages, touched, or NULL with the reason. */
static uint8_t *map_huge(const struct backing *b, size_t len, char *why, size_t wlen)
{
	uint8_t *p, *q;
	size_t head;

	if (b->hugetlb) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (b->hugetlb << MAP_HUGE_SHIFT),
			 -1, 0);
		if (p == MAP_FAILED) {
			snprintf(why, wlen, "mmap(MAP_HUGETLB | MAP_HUGE_%s) of %s failed: %s",
				 b->hugetlb == 30 ? "1GB" : "2MB", hmb_sz(len), strerror(errno));
			return NULL;
		}
	} else {
		/* one huge page more, then trimmed to a 2 MiB-aligned start */
		q = mmap(NULL, len + b->page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		if (q == MAP_FAILED) {
			snprintf(why, wlen, "mmap of %s failed: %s", hmb_sz(len + b->page),
				 strerror(errno));
			return NULL;
		}
		head = (b->page - (uintptr_t)q % b->page) % b->page;
		p = q + head;
		if (head)
			munmap(q, head);
		munmap(p + len, b->page - head);
		if (madvise(p, len, MADV_HUGEPAGE) != 0) {
			snprintf(why, wlen, "madvise(MADV_HUGEPAGE) of %s failed: %s", hmb_sz(len),
				 strerror(errno));
			munmap(p, len);
			return NULL;
		}
	}
	memset(p, 0, len); /* every page faulted in now, not during a copy */
	return p;
}

struct huge {
	const struct backing *b;
	const char *mem;        /* host_memory: backing name, -registered where pinned */
	int registered;
	uint8_t *p;
	size_t len;
	struct mc_smaps sm;     /* what the mapping held after it was touched */
	const char *thp;        /* transparent huge page mode */
	long nr, free_pages;    /* hugetlb: the sysfs values before mapping */
};

static void huge_case(struct hmb_ctx *ctx, const struct mc_regions *g, const struct huge *h,
		      int d2h, size_t size)
{
	struct hmb_record *r = hmb_case_record(ctx, "%s/%s/async", d2h ? "d2h" : "h2d", h->mem);
	struct mc_copy k = {
		.src = d2h ? g->dev_a : h->p, .dst = d2h ? h->p : g->dev_a,
		.src_dev = d2h, .dst_dev = !d2h, .size = size, .sets = 1,
		.kind = d2h ? hipMemcpyDeviceToHost : hipMemcpyHostToDevice, .api = MC_ASYNC,
		.latch = h->registered,
	};
	char words[32], text[160];

	if (!hmb_keep_selected(ctx, r))
		return;
	hmb_param_str(r, "host_memory", h->mem);
	hmb_param_bool(r, "registered", h->registered);
	if (h->b->hugetlb)
		snprintf(text, sizeof(text), "hugetlb: mmap(MAP_HUGETLB | MAP_HUGE_%s), %s pages",
			 h->b->hugetlb == 30 ? "1GB" : "2MB", page_words(h->b->page, words,
									  sizeof(words)));
	else
		snprintf(text, sizeof(text), "transparent: 2 MiB-aligned anonymous mmap + "
			 "madvise(MADV_HUGEPAGE), touched");
	hmb_param_str(r, "huge_pages", text);
	hmb_param_str(r, "compare_with", h->registered ? (d2h ? "d2h/registered/async"
							      : "h2d/registered/async")
						       : (d2h ? "d2h/pageable/async"
							      : "h2d/pageable/async"));
	hmb_observe_num(r, "buffer_bytes", (double)h->len);
	hmb_observe_num(r, "page_size_bytes", (double)h->sm.page_size);
	hmb_observe_num(r, "anon_huge_bytes", (double)h->sm.anon_huge);
	hmb_observe_num(r, "hugetlb_bytes", (double)h->sm.hugetlb);
	/* at most 1: a neighbouring mapping that merged with this one adds its own */
	hmb_observe_num(r, "huge_fraction", fmin(1.0, (double)(h->sm.anon_huge + h->sm.hugetlb) /
						      (double)h->len));
	if (h->b->hugetlb) {
		hmb_observe_num(r, "nr_hugepages", (double)h->nr);
		hmb_observe_num(r, "free_hugepages_before", (double)h->free_pages);
	} else {
		hmb_observe_str(r, "transparent_hugepages", h->thp);
	}
	mc_measure(ctx, r, &k, NULL, NULL);
}

/* Every size, both directions, on one buffer of b (registered or not). */
static void run_buffer(struct hmb_ctx *ctx, const struct mc_regions *g, struct huge *h)
{
	char fam[96], name[96], why[512];
	hipError_t e;

	snprintf(fam, sizeof(fam), "*/%s/*", h->mem);
	if (!mc_family_selected(ctx, fam))
		return;
	if (!(h->p = map_huge(h->b, h->len, why, sizeof(why)))) {
		snprintf(name, sizeof(name), "%s/skipped", h->b->name);
		mc_unavailable(ctx, name, fam, HMB_SKIPPED, h->len, "%s", why);
		return;
	}
	mc_smaps_range((uintptr_t)h->p, (uintptr_t)h->p + h->len, &h->sm);
	if (h->registered && (e = hipHostRegister(h->p, h->len, hipHostRegisterDefault))) {
		hmb_hip_error("hipHostRegister(huge-page memory)", e, __FILE__, __LINE__);
		mc_alloc_failed(ctx, h->mem, h->len);
	} else {
		for (int d = 0; d < 2; d++)
			for (size_t i = 0; i < g->sizes->n && !hmb_interrupted(); i++)
				huge_case(ctx, g, h, d, g->sizes->v[i]);
		if (h->registered && hipHostUnregister(h->p) != hipSuccess)
			(void)hipGetLastError();
	}
	munmap(h->p, h->len);
	h->p = NULL;
}

void mc_hugepages(struct hmb_ctx *ctx, const struct mc_regions *g)
{
	size_t max = hmb_sizes_max(g->sizes);

	for (size_t i = 0; i < sizeof(backings) / sizeof(backings[0]); i++) {
		const struct backing *b = &backings[i];
		char fam[64], mem[32], why[512], thp[32] = "", name[64];
		struct huge h = { .b = b, .mem = mem, .thp = thp, .nr = -1, .free_pages = -1 };
		int st;

		snprintf(fam, sizeof(fam), "*/%s*/*", b->name);
		snprintf(name, sizeof(name), "%s/*", b->name); /* its unsupported or skipped record */
		if (hmb_interrupted() || !(mc_family_selected(ctx, fam) ||
					   mc_family_selected(ctx, name)))
			continue;
		h.len = (max + b->page - 1) / b->page * b->page;
		st = available(b, h.len, thp, sizeof(thp), &h.nr, &h.free_pages, why, sizeof(why));
		if (st != HMB_OK) {
			snprintf(name, sizeof(name), "%s/%s", b->name,
				 st == HMB_SKIPPED ? "skipped" : "unsupported");
			mc_unavailable(ctx, name, fam, (enum hmb_status)st, max, "%s", why);
			continue;
		}
		for (int reg = 0; reg < 2; reg++) {
			snprintf(mem, sizeof(mem), "%s%s", b->name, reg ? "-registered" : "");
			h.registered = reg;
			run_buffer(ctx, g, &h);
		}
	}
}
