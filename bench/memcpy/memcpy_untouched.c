/*
 * memcpy_untouched.c - the memcpy module's DIR/untouched-pageable/API cases
 * (on request): what the first copy from, or into, freshly allocated
 * pageable memory costs.
 *
 * Before every sample (warm-ups too, untimed) the last buffer is unmapped
 * and a fresh one mapped (mmap anonymous, private: its pages are guaranteed
 * never touched and read as zero). The timed copy therefore includes the
 * host's first touch of every page: for h2d read faults (the kernel maps
 * its shared zero page; nothing is allocated), for d2h write faults (a page
 * allocated and zeroed for each one, during the copy). Set beside
 * DIR/pageable/API at the same size (pages touched long before), the
 * difference is the first-touch cost. Timed like the pageable cases: async
 * between events without the latch, sync on the host clock.
 *
 * Checked after timing: h2d left zeros on the device (poisoned before each
 * sample), d2h left the pattern in the last fresh buffer. Observed: the
 * buffer's pages resident before the copy (mincore; 0 for a fresh mapping)
 * and after it, and its resident and transparent-huge-page bytes from
 * /proc/self/smaps after the copy.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, mincore */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/memcpy/memcpy.h"
#include "engine/report.h"
#include "engine/verify.h"
#include "kernels/kernels.h"

struct fresh {
	struct mc_copy k;          /* first: the engine's state is a struct mc_copy */
	struct hmb_record *r;
	uint8_t *dev;
	uint8_t *buf;              /* this sample's fresh mapping, or NULL */
	size_t len;                /* its bytes: the size in whole pages */
	long resident_before;      /* its pages resident when it was mapped */
};

/* Pages of [p, p + len) that mincore says are resident, or -1. */
static long resident_pages(void *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (len + page - 1) / page;
	unsigned char *vec = malloc(n ? n : 1);
	long count = 0;

	if (!vec || mincore(p, len, vec) != 0) {
		free(vec);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		count += vec[i] & 1;
	free(vec);
	return count;
}

static void unmap(struct fresh *f)
{
	if (f->buf)
		munmap(f->buf, f->len);
	f->buf = NULL;
}

/* d2h: the device source carries the pattern; h2d: nothing yet. */
static int setup(struct hmb_ctx *ctx, void *st)
{
	struct fresh *f = st;

	(void)ctx;
	if (f->k.src_dev) {
		HMB_TRY(hmb_launch_fill(f->dev, 0, f->k.size / 4, MC_SEED, 0));
		HMB_TRY(hipDeviceSynchronize());
	}
	return 0;
}

/* A fresh mapping for this sample; h2d poisons the device again, so the
 * check sees what the last copy wrote. */
static int prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct fresh *f = st;
	void *p;

	(void)ctx;
	(void)sample;
	unmap(f);
	p = mmap(NULL, f->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		hmb_set_error("mmap(MAP_PRIVATE | MAP_ANONYMOUS) of %s failed: %s",
			      hmb_sz(f->len), strerror(errno));
		return -1;
	}
	f->buf = p;
	f->resident_before = resident_pages(p, f->len);
	if (f->k.src_dev) {
		f->k.dst = f->buf;
	} else {
		f->k.src = f->buf;
		HMB_TRY(hipMemset(f->dev, MC_POISON, f->k.size));
		HMB_TRY(hipDeviceSynchronize());
	}
	return 0;
}

/* The zero words of a device buffer, counted on the host. */
static hipError_t device_nonzero(const uint8_t *dev, size_t bytes, size_t *bad)
{
	uint32_t *h = malloc(bytes);
	hipError_t e = hmb_corrupt_point((void *)dev, "a device check");

	*bad = 0;
	if (!h)
		return hipErrorOutOfMemory;
	if (e == hipSuccess)
		e = hipMemcpy(h, dev, bytes, hipMemcpyDeviceToHost);
	for (size_t i = 0; e == hipSuccess && i < bytes / 4; i++)
		*bad += h[i] != 0;
	free(h);
	return e;
}

/* h2d: the device holds the fresh buffer's zeros; d2h: the fresh buffer
 * holds the pattern. Then what the last buffer's pages are now. */
static int verify(struct hmb_ctx *ctx, void *st)
{
	struct fresh *f = st;
	size_t bad = 0;
	struct mc_smaps sm;

	(void)ctx;
	if (!f->buf) {
		hmb_set_error("no fresh buffer to check (no sample ran)");
		return -1;
	}
	if (f->k.src_dev)
		bad = hmb_check_host(f->buf, f->k.size, MC_SEED, 0);
	else
		HMB_TRY(device_nonzero(f->dev, f->k.size, &bad));
	if (hmb_verify_result(bad, "words differ after the timed copies"))
		return -1;
	mc_record_endpoints(f->r, f->k.src, f->k.dst);
	hmb_observe_num(f->r, "pages", (double)(f->len / (size_t)sysconf(_SC_PAGESIZE)));
	hmb_observe_num(f->r, "pages_resident_before_copy", (double)f->resident_before);
	hmb_observe_num(f->r, "pages_resident_after_copy",
			(double)resident_pages(f->buf, f->len));
	if (mc_smaps_range((uintptr_t)f->buf, (uintptr_t)f->buf + f->len, &sm)) {
		hmb_observe_num(f->r, "rss_bytes_after_copy", (double)sm.rss);
		hmb_observe_num(f->r, "anon_huge_bytes_after_copy", (double)sm.anon_huge);
	}
	return 0;
}

static void teardown(struct hmb_ctx *ctx, void *st)
{
	(void)ctx;
	unmap(st);
}

static void untouched_case(struct hmb_ctx *ctx, const struct mc_regions *g, int d2h,
			   enum mc_api api, size_t size)
{
	static const struct hmb_case_ops ops = { setup, prepare, mc_op, verify, teardown };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct hmb_record *r = hmb_case_record(ctx, "%s/untouched-pageable/%s", d2h ? "d2h" : "h2d",
					api == MC_SYNC ? "sync" : "async");
	struct fresh f = {
		.k = {
			.src = d2h ? g->dev_a : NULL, .dst = d2h ? NULL : g->dev_a,
			.src_dev = d2h, .dst_dev = !d2h, .size = size, .sets = 1,
			.kind = d2h ? hipMemcpyDeviceToHost : hipMemcpyHostToDevice, .api = api,
		},
		.r = r, .dev = g->dev_a, .len = (size + page - 1) / page * page,
		.resident_before = -1,
	};
	char what[320];

	if (!hmb_keep_selected(ctx, r))
		return;
	snprintf(what, sizeof(what), "%s %s %s a fresh mmap'd buffer never touched%s, "
		 "including the host's first touch of every page (%s)",
		 api == MC_SYNC ? "hipMemcpy" : "hipMemcpyAsync", d2h ? "d2h" : "h2d",
		 d2h ? "into" : "from", api == MC_SYNC ? " + hipDeviceSynchronize" : "",
		 d2h ? "write faults: each page allocated and zeroed during the copy"
		     : "read faults: the kernel maps its zero page");
	hmb_param_str(r, "host_memory", "untouched-pageable");
	hmb_param_str(r, "allocation", "mmap(MAP_PRIVATE | MAP_ANONYMOUS) before every sample "
		      "(untimed), never touched; munmap after it");
	hmb_param_str(r, "compare_with", d2h ? (api == MC_SYNC ? "d2h/pageable/sync"
							       : "d2h/pageable/async")
					     : (api == MC_SYNC ? "h2d/pageable/sync"
							       : "h2d/pageable/async"));
	hmb_observe_num(r, "page_size", (double)page);
	hmb_observe_str(r, "transparent_hugepages", ctx->report->host.thp);
	mc_measure(ctx, r, &f.k, &ops, what);
}

void mc_untouched(struct hmb_ctx *ctx, const struct mc_regions *g)
{
	for (int d = 0; d < 2; d++)
		for (int a = 0; a < 2; a++)
			for (size_t i = 0; i < g->sizes->n && !hmb_interrupted(); i++)
				untouched_case(ctx, g, d, a ? MC_SYNC : MC_ASYNC, g->sizes->v[i]);
}
