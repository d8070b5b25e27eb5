/*
 * memcpy.h - what the parts of the memcpy module share: one copy between two
 * buffers, measured and verified (memcpy_case.c), and the on-request
 * families that memcpy.c's run() calls with its two device regions.
 */
#ifndef HMB_BENCH_MEMCPY_H
#define HMB_BENCH_MEMCPY_H

#include <stddef.h>
#include <stdint.h>

#include "engine/measure.h"

#define MC_SEED 0x4d43u
#define MC_POISON 0xA5

/* How a copy is made and timed. */
enum mc_api {
	MC_ASYNC,    /* hipMemcpyAsync between HIP events */
	MC_SYNC,     /* hipMemcpy + hipDeviceSynchronize, host clock */
	MC_BLOCKING, /* hipMemcpy alone, host clock (host to host: it returns when done) */
	MC_HOST,     /* memcpy() on the host, host clock */
};

/* One copy of `size` bytes from src to dst; op i uses set i % sets of each
 * (sets * size bytes a side: sets cycled through to defeat a cache). */
struct mc_copy {
	uint8_t *src, *dst;
	int src_dev, dst_dev;   /* device memory: filled and checked by kernels */
	size_t size;
	int sets;
	hipMemcpyKind kind;
	enum mc_api api;
	int latch;              /* events: samples queued behind the latch */
	long ops;               /* copies made so far */
};

/* The module's two device regions of `region` bytes each, and its sizes. */
struct mc_regions {
	uint8_t *dev_a, *dev_b;
	size_t region;
	size_t cache;           /* last-level cache bytes of the device */
	const struct hmb_sizes *sizes;
};

/* Measure k into r (which the caller made, checked as selected and gave its
 * family's params): the common params, bytes, peak, then commit. ops NULL:
 * the copy of mc_op, set up and verified by mc_setup and mc_verify, with
 * the endpoints observed before; what NULL: the API and kind in words.
 * Another family's state begins with its struct mc_copy. */
void mc_measure(struct hmb_ctx *ctx, struct hmb_record *r, struct mc_copy *k,
		const struct hmb_case_ops *ops, const char *what);
int mc_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i);
/* One failed record for memory that could not be had ("alloc/NAME"). */
void mc_alloc_failed(struct hmb_ctx *ctx, const char *name, size_t bytes);
/* Does --case (or a plain run) select any case of the module's list that
 * `family` (a shell pattern) matches? */
int mc_family_selected(const struct hmb_ctx *ctx, const char *family);
/* One record `name` with status s and the reason, for a family that cannot
 * run here: reported where the family or the record itself is selected, so
 * that asking for the family's cases by name shows why there are none. */
void mc_unavailable(struct hmb_ctx *ctx, const char *name, const char *family,
		    enum hmb_status s, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Bytes of destination that `ops` copies of `size`, cycling over `sets`
 * buffer sets, have written (the sets used so far). */
size_t mc_bytes_written(long ops, int sets, size_t size);
/* Buffer sets of `size` covering twice `cache`, within `room` bytes a side. */
int mc_sets(size_t cache, size_t room, size_t size);
/* The reference loop (memcpy.c, DIR/pinned/reference): how many copies of
 * `size` one sample makes back to back: enough to move MC_REFERENCE_BYTES
 * (rounded up; one at least), MC_REFERENCE_MAX_COPIES at most. */
#define MC_REFERENCE_BYTES ((size_t)64 << 20)
#define MC_REFERENCE_MAX_COPIES 1000
int mc_reference_copies(size_t size);
/* What the runtime says src and dst are (observed src_memory, dst_memory). */
void mc_record_endpoints(struct hmb_record *r, const void *src, const void *dst);

/* h2d, d2h and d2d with hipMemcpyDefault; h2h with hipMemcpy and memcpy()
 * (memcpy_variants.c). */
void mc_default_kind(struct hmb_ctx *ctx, const struct mc_regions *g);
void mc_host_to_host(struct hmb_ctx *ctx, const struct mc_regions *g);
/* h2d and d2h with a fresh, never touched pageable buffer each sample
 * (memcpy_untouched.c). */
void mc_untouched(struct hmb_ctx *ctx, const struct mc_regions *g);
/* h2d and d2h with host memory on huge pages, pageable and registered
 * (memcpy_hugepages.c). */
void mc_hugepages(struct hmb_ctx *ctx, const struct mc_regions *g);

/* From /proc/self/smaps text: what the mappings overlapping [start, end)
 * hold. Returns the number of mappings found (0: none). */
struct mc_smaps {
	size_t rss, anon_huge;  /* bytes: resident, and on transparent huge pages */
	size_t hugetlb;         /* bytes on hugetlbfs pages (Private_ + Shared_Hugetlb) */
	size_t page_size;       /* KernelPageSize of the first mapping (bytes) */
};
int mc_smaps_parse(const char *text, uintptr_t start, uintptr_t end, struct mc_smaps *out);
/* The same, read from this process's /proc/self/smaps (0: none found). */
int mc_smaps_range(uintptr_t start, uintptr_t end, struct mc_smaps *out);
/* Whether hugetlb pages of page_size can hold `need` bytes, given the sysfs
 * values nr_hugepages and free_hugepages (-1: could not be read). Returns
 * HMB_OK, or HMB_UNSUPPORTED / HMB_SKIPPED with why naming the sysfs value. */
int mc_hugetlb_available(size_t page_size, long nr, long free_pages, size_t need, char *why,
			 size_t len);
/* The mode of /sys/kernel/mm/transparent_hugepage/enabled text ("always
 * [madvise] never" -> "madvise"), "" where none is marked. */
void mc_thp_mode(const char *text, char *mode, size_t len);

#endif
