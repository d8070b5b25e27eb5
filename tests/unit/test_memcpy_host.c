/*
 * test_memcpy_host.c - what the memcpy module's on-request families read
 * from the host, without a GPU: the mappings of /proc/self/smaps over a
 * range, the hugetlb pages sysfs offers, the transparent huge page mode;
 * which of the module's cases run only on request; buffer sets.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/memcpy/memcpy.h"
#include "engine/module.h"
#include "engine/options.h"
#include "harness.h"

extern const struct hmb_bench hmb_bench_memcpy;

/* Three mappings: one before the range, a THP one and a hugetlb one in it. */
static const char smaps[] =
	"7f0000000000-7f0000200000 rw-p 00000000 00:00 0 \n"
	"Size:               2048 kB\n"
	"KernelPageSize:        4 kB\n"
	"Rss:                2048 kB\n"
	"AnonHugePages:      2048 kB\n"
	"VmFlags: rd wr mr mw me ac sd\n"
	"7f0000200000-7f0000600000 rw-p 00000000 00:00 0 \n"
	"Size:               4096 kB\n"
	"KernelPageSize:        4 kB\n"
	"Rss:                4096 kB\n"
	"Anonymous:          4096 kB\n"
	"AnonHugePages:      2048 kB\n"
	"Private_Hugetlb:       0 kB\n"
	"VmFlags: rd wr mr mw me ac sd hg\n"
	"7f0000600000-7f0040600000 rw-p 00000000 00:0f 12345    /anon_hugepage (deleted)\n"
	"Size:            1048576 kB\n"
	"KernelPageSize:  1048576 kB\n"
	"Rss:                   0 kB\n"
	"AnonHugePages:         0 kB\n"
	"Shared_Hugetlb:        0 kB\n"
	"Private_Hugetlb: 1048576 kB\n"
	"VmFlags: rd wr mr mw me de ht sd\n";

void test_memcpy_smaps(void)
{
	struct mc_smaps s;

	/* the THP mapping alone: its own figures, not its neighbour's */
	CHECK(mc_smaps_parse(smaps, 0x7f0000200000u, 0x7f0000600000u, &s) == 1);
	CHECK(s.rss == 4096u << 10 && s.anon_huge == 2048u << 10 && s.hugetlb == 0);
	CHECK(s.page_size == 4096);
	/* the hugetlb mapping: page size and hugetlb bytes */
	CHECK(mc_smaps_parse(smaps, 0x7f0000600000u, 0x7f0000601000u, &s) == 1);
	CHECK(s.page_size == 1u << 30 && s.hugetlb == 1u << 30 && s.rss == 0);
	/* a range over two mappings adds them up; the first's page size */
	CHECK(mc_smaps_parse(smaps, 0x7f00001ff000u, 0x7f0000201000u, &s) == 2);
	CHECK(s.rss == 6144u << 10 && s.anon_huge == 4096u << 10 && s.page_size == 4096);
	/* nothing there */
	CHECK(mc_smaps_parse(smaps, 0x1000, 0x2000, &s) == 0 && s.rss == 0);
	CHECK(mc_smaps_parse("", 0x1000, 0x2000, &s) == 0);
}

/* This process's own smaps: a fresh mapping holds nothing, then what was touched. */
void test_memcpy_smaps_self(void)
{
	const size_t len = 4u << 20;
	uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct mc_smaps s;

	CHECK(p != MAP_FAILED);
	if (p == MAP_FAILED)
		return;
	CHECK(mc_smaps_range((uintptr_t)p, (uintptr_t)p + len, &s) >= 1);
	CHECK(s.page_size == (size_t)sysconf(_SC_PAGESIZE));
	memset(p, 1, len);
	CHECK(mc_smaps_range((uintptr_t)p, (uintptr_t)p + len, &s) >= 1);
	CHECK(s.rss >= len); /* a neighbouring mapping may have merged with it */
	munmap(p, len);
}

void test_memcpy_hugetlb_sysfs(void)
{
	char why[512];

	CHECK(mc_hugetlb_available(1u << 30, 0, 0, 1u << 30, why, sizeof(why)) ==
	      HMB_UNSUPPORTED);
	CHECK(strstr(why, "no 1 GiB huge pages reserved: "
		     "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages is 0"));
	CHECK(mc_hugetlb_available(2u << 20, -1, -1, 4096, why, sizeof(why)) == HMB_UNSUPPORTED);
	CHECK(strstr(why, "hugepages-2048kB/nr_hugepages cannot be read"));
	/* 64 MiB + 1 byte needs 33 pages of 2 MiB: 32 free is too few */
	CHECK(mc_hugetlb_available(2u << 20, 40, 32, (64u << 20) + 1, why, sizeof(why)) ==
	      HMB_SKIPPED);
	CHECK(strstr(why, "needs 33 free 2 MiB huge pages") &&
	      strstr(why, "hugepages-2048kB/free_hugepages is 32"));
	CHECK(mc_hugetlb_available(2u << 20, 40, 33, (64u << 20) + 1, why, sizeof(why)) ==
	      HMB_OK);
	CHECK(mc_hugetlb_available(1u << 30, 1, 1, 1u << 30, why, sizeof(why)) == HMB_OK);
}

void test_memcpy_thp_mode(void)
{
	char mode[32];

	mc_thp_mode("always [madvise] never\n", mode, sizeof(mode));
	CHECK(strcmp(mode, "madvise") == 0);
	mc_thp_mode("[always] madvise never\n", mode, sizeof(mode));
	CHECK(strcmp(mode, "always") == 0);
	mc_thp_mode("always madvise [never]\n", mode, sizeof(mode));
	CHECK(strcmp(mode, "never") == 0);
	mc_thp_mode("", mode, sizeof(mode));
	CHECK(strcmp(mode, "") == 0);
}

/* The new families run only when --case asks; the module's others as before. */
void test_memcpy_on_request(void)
{
	static const char *const asked[] = {
		"h2d/pinned/async-default-kind", "d2d/device/async-default-kind",
		"h2h/pinned/sync", "h2h/pageable/memcpy", "d2h/untouched-pageable/sync",
		"h2d/thp/async", "d2h/thp-registered/async", "thp/unsupported",
		"h2d/hugetlb-2M/async", "hugetlb-1G/skipped", "d2h/hugetlb-1G-registered/async",
	};
	static const char *const always[] = {
		"h2d/pageable/async", "d2h/pinned/sync", "d2d/device/async",
		"h2d/registered/async", "uncached/unsupported", "d2d/device-fine-grained/sync",
	};
	const struct hmb_bench *b = &hmb_bench_memcpy;
	struct hmb_options opt;
	struct hmb_ctx ctx = { .opt = &opt, .bench = b };
	int n = 0;

	for (size_t i = 0; i < sizeof(asked) / sizeof(asked[0]); i++)
		CHECK(hmb_on_request(b, asked[i]));
	for (size_t i = 0; i < sizeof(always) / sizeof(always[0]); i++)
		CHECK(!hmb_on_request(b, always[i]));
	for (int i = 0; b->cases[i]; i++)
		n += !hmb_on_request(b, b->cases[i]);
	CHECK(n == 56); /* the cases a plain run has always had, and the reference loop's two */
	CHECK(!hmb_on_request(b, "h2d/pinned/reference") && !hmb_on_request(b, "d2h/pinned/reference"));
	memset(&opt, 0, sizeof(opt));
	CHECK(!mc_family_selected(&ctx, "*/thp*/*"));      /* a plain run */
	CHECK(mc_family_selected(&ctx, "*/pinned/*"));
	opt.cases[opt.ncases++] = "h2d/thp-registered/*";
	CHECK(mc_family_selected(&ctx, "*/thp*/*"));
	CHECK(!mc_family_selected(&ctx, "*/thp/*"));
	CHECK(!mc_family_selected(&ctx, "*/hugetlb-2M*/*"));
}

/* The reference loop's copies per sample: 64 MiB at least, 1 to 1000. */
void test_memcpy_reference_copies(void)
{
	CHECK(mc_reference_copies(4096) == 1000);               /* 4 MB: the cap */
	CHECK(mc_reference_copies(64u << 10) == 1000);          /* exactly 64 MiB */
	CHECK(mc_reference_copies(1u << 20) == 64);
	CHECK(mc_reference_copies(16u << 20) == 4);
	CHECK(mc_reference_copies(3u << 20) == 22);             /* 66 MiB: rounded up */
	CHECK(mc_reference_copies(64u << 20) == 1);
	CHECK(mc_reference_copies((size_t)1 << 30) == 1);       /* one at least */
	CHECK(mc_reference_copies(0) == 1);
	for (size_t size = 4096; size <= ((size_t)1 << 30); size *= 2) {
		size_t n = (size_t)mc_reference_copies(size);
		CHECK(n == 1000 || n * size >= MC_REFERENCE_BYTES); /* moves 64 MiB */
	}
}

void test_memcpy_sets(void)
{
	/* twice a 64 MiB cache in 16 MiB copies: 8 pairs and one more */
	CHECK(mc_sets(64u << 20, 1u << 30, 16u << 20) == 9);
	CHECK(mc_sets(64u << 20, 64u << 20, 16u << 20) == 4); /* what fits */
	CHECK(mc_sets(64u << 20, 4096, 1u << 20) == 1);       /* at least one */
}
