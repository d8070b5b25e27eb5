/*
 * pool - what does a stream-ordered memory pool save?
 *
 * The loop of many GPU programs, measured per iteration: allocate, launch a
 * kernel that writes the memory, free, synchronise the stream; repeated
 * --loop times per sample (fewer for large sizes, see the "loop" param).
 * Allocators:
 *   hipMalloc        hipMalloc / hipFree
 *   default-pool     hipMallocAsync / hipFreeAsync, the device's default pool
 *                    with its default release threshold (0): a stream
 *                    synchronisation gives the memory back to the device
 *   default-retain   the same pool with release threshold = unlimited
 *   created-pool     a pool from hipMemPoolCreate, threshold unlimited,
 *                    hipMallocFromPoolAsync
 * Each allocator is measured with the kernel ("loop") and without it
 * ("alloc-free": allocation and free latency alone); "kernel-only" is the
 * same loop on memory allocated once: the floor no allocator can beat.
 *
 * Reading the numbers: us/op is microseconds per iteration (host clock).
 * speedup is hipMalloc's time per iteration over the allocator's, at the
 * same size. Observed: the pool's reserved and used bytes after the loop,
 * and what hipMemPoolTrimTo(0) released and how long it took. Memory from
 * every allocator is written by a kernel and read back by a check kernel.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../kernels/kernels.h"
#include "../src/bench.h"
#include "../src/timing.h"
#include "../src/verify.h"

enum allocator { MALLOC, DEFAULT_POOL, DEFAULT_RETAIN, CREATED_POOL, NONE };
static const char *const alloc_name[] = { "hipMalloc", "default-pool", "default-retain",
					  "created-pool", "kernel-only" };

struct pool_run {
	hipStream_t stream;
	hipMemPool_t default_pool, created;
	void *fixed;               /* kernel-only: allocated once */
	uint64_t default_threshold;
};

static hipError_t alloc(struct pool_run *p, enum allocator a, void **ptr, size_t size)
{
	switch (a) {
	case MALLOC: return hipMalloc(ptr, size);
	case DEFAULT_POOL:
	case DEFAULT_RETAIN: return hipMallocAsync(ptr, size, p->stream);
	case CREATED_POOL: return hipMallocFromPoolAsync(ptr, size, p->created, p->stream);
	case NONE: *ptr = p->fixed; return hipSuccess;
	}
	return hipErrorInvalidValue;
}

static hipError_t release(struct pool_run *p, enum allocator a, void *ptr)
{
	switch (a) {
	case MALLOC: return hipFree(ptr);
	case DEFAULT_POOL:
	case DEFAULT_RETAIN:
	case CREATED_POOL: return hipFreeAsync(ptr, p->stream);
	case NONE: return hipSuccess;
	}
	return hipErrorInvalidValue;
}

/* The release threshold that the allocator's pool runs with. */
static int configure(struct pool_run *p, enum allocator a)
{
	uint64_t unlimited = UINT64_MAX;
	if (a == DEFAULT_POOL)
		HMB_CHECK(hipMemPoolSetAttribute(p->default_pool, hipMemPoolAttrReleaseThreshold,
						 &p->default_threshold));
	if (a == DEFAULT_RETAIN)
		HMB_CHECK(hipMemPoolSetAttribute(p->default_pool, hipMemPoolAttrReleaseThreshold,
						 &unlimited));
	return 0;
fail:
	return -1;
}

static int one_iteration(struct pool_run *p, enum allocator a, size_t size, int kernel)
{
	void *ptr = NULL;
	HMB_CHECK(alloc(p, a, &ptr, size));
	if (kernel)
		HMB_CHECK(hmb_launch_fill(ptr, 0, size / 4, 3, p->stream));
	HMB_CHECK(release(p, a, ptr));
	HMB_CHECK(hipStreamSynchronize(p->stream));
	return 0;
fail:
	return -1;
}

/* Memory from the allocator is usable: a kernel writes it, a check reads it. */
static int verify(struct pool_run *p, enum allocator a, size_t size)
{
	void *ptr = NULL;
	unsigned long long bad = 1;

	HMB_CHECK(alloc(p, a, &ptr, size));
	HMB_CHECK(hmb_launch_fill(ptr, 0, size / 4, 99, p->stream));
	HMB_CHECK(hipStreamSynchronize(p->stream));
	HMB_CHECK(hmb_check_device(ptr, 0, size, 99, 0, &bad));
	HMB_CHECK(release(p, a, ptr));
	HMB_CHECK(hipStreamSynchronize(p->stream));
	if (bad) {
		hmb_set_error("verification failed: %llu words of %s memory read back wrong", bad,
			      alloc_name[a]);
		return -1;
	}
	return 0;
fail:
	return -1;
}

static void observe_pool(struct hmb_record *r, hipMemPool_t pool)
{
	uint64_t v;
	if (hipMemPoolGetAttribute(pool, hipMemPoolAttrReservedMemCurrent, &v) == hipSuccess)
		hmb_observe_num(r, "pool_reserved_bytes", (double)v);
	if (hipMemPoolGetAttribute(pool, hipMemPoolAttrUsedMemCurrent, &v) == hipSuccess)
		hmb_observe_num(r, "pool_used_bytes", (double)v);
	if (hipMemPoolGetAttribute(pool, hipMemPoolAttrReservedMemHigh, &v) == hipSuccess)
		hmb_observe_num(r, "pool_reserved_high_bytes", (double)v);
}

/* After a loop that keeps memory: how long trimming takes and what it frees. */
static int trim(struct hmb_record *r, hipMemPool_t pool)
{
	uint64_t before = 0, after = 0;
	double t0;

	HMB_CHECK(hipMemPoolGetAttribute(pool, hipMemPoolAttrReservedMemCurrent, &before));
	t0 = hmb_now();
	HMB_CHECK(hipMemPoolTrimTo(pool, 0));
	hmb_metric(r, "trim_to_0_us", (hmb_now() - t0) * 1e6, "us");
	HMB_CHECK(hipMemPoolGetAttribute(pool, hipMemPoolAttrReservedMemCurrent, &after));
	hmb_observe_num(r, "trim_released_bytes", (double)(before - after));
	return 0;
fail:
	return -1;
}

static double run_case(struct hmb_ctx *ctx, struct pool_run *p, enum allocator a, size_t size,
		       int kernel, int loop, double malloc_median)
{
	struct hmb_record *r = hmb_case(ctx, "%s/%s", alloc_name[a],
					kernel ? "loop" : "alloc-free");
	struct hmb_stats st = { 0 };
	int reps = hmb_reps(ctx, 3), warmup = hmb_warmup(ctx, 1);

	hmb_param_num(r, "size", (double)size);
	hmb_param_str(r, "allocator", alloc_name[a]);
	hmb_param_bool(r, "kernel", kernel);
	hmb_param_num(r, "loop", loop);
	hmb_record_ops(r, loop);
	if (configure(p, a))
		goto fail;
	for (int rep = 0; rep < warmup + reps; rep++) {
		double t0 = hmb_now();
		for (int i = 0; i < loop; i++)
			if (one_iteration(p, a, size, kernel))
				goto fail;
		if (rep >= warmup)
			hmb_sample(r, hmb_now() - t0);
	}
	if (a == DEFAULT_POOL || a == DEFAULT_RETAIN)
		observe_pool(r, p->default_pool);
	if (a == CREATED_POOL)
		observe_pool(r, p->created);
	if (kernel && a == DEFAULT_RETAIN && trim(r, p->default_pool))
		goto fail;
	if (kernel && a == CREATED_POOL && trim(r, p->created))
		goto fail;
	if (verify(p, a, size))
		goto fail;
	hmb_observe_bool(r, "verified", 1);
	hmb_stats_compute(r->samples, r->nsamples, &st);
	if (malloc_median > 0 && a != MALLOC && a != NONE)
		hmb_metric(r, "speedup", malloc_median / st.median, "x");
	hmb_commit(ctx, r);
	return st.median;
fail:
	hmb_case_failed(r);
	hmb_commit(ctx, r);
	configure(p, DEFAULT_POOL);
	return -1;
}

static int run(struct hmb_ctx *ctx)
{
	struct pool_run p;
	struct hmb_sizes sizes;
	hipMemPoolProps props;
	long loop_opt = hmb_opt_int(ctx, "loop", ctx->opt->quick ? 100 : 1000);
	int rc = -1;

	memset(&p, 0, sizeof(p));
	hmb_sizes_or(ctx, &sizes, "4K,64K,1M,16M,64M,256M", "4K,1M,64M");
	HMB_CHECK(hipStreamCreateWithFlags(&p.stream, hipStreamNonBlocking));
	HMB_CHECK(hipDeviceGetDefaultMemPool(&p.default_pool, ctx->dev->ordinal));
	HMB_CHECK(hipMemPoolGetAttribute(p.default_pool, hipMemPoolAttrReleaseThreshold,
					 &p.default_threshold));
	memset(&props, 0, sizeof(props));
	props.allocType = hipMemAllocationTypePinned;
	props.location.type = hipMemLocationTypeDevice;
	props.location.id = ctx->dev->ordinal;
	HMB_CHECK(hipMemPoolCreate(&p.created, &props));
	{
		uint64_t unlimited = UINT64_MAX;
		HMB_CHECK(hipMemPoolSetAttribute(p.created, hipMemPoolAttrReleaseThreshold,
						 &unlimited));
	}

	for (size_t s = 0; s < sizes.n && !hmb_interrupted(); s++) {
		size_t size = sizes.v[s];
		/* Keep each sample short for large sizes: at most ~4 MiB per iteration
		 * of hipMalloc's full loop count, and never fewer than 20 iterations. */
		long scaled = size <= (4u << 20) ? loop_opt : loop_opt * (long)(4u << 20) / (long)size;
		int loop = (int)(scaled < 20 ? (loop_opt < 20 ? loop_opt : 20) : scaled);
		double malloc_loop, malloc_alone;

		if (2 * size + (256u << 20) > hmb_device_free_mem()) {
			hmb_skip(ctx, "all", size, "too little free device memory for %s",
				 hmb_sz(size));
			continue;
		}
		HMB_CHECK(hipMalloc(&p.fixed, size));
		run_case(ctx, &p, NONE, size, 1, loop, 0);
		HMB_CHECK(hipFree(p.fixed));
		p.fixed = NULL;
		malloc_loop = run_case(ctx, &p, MALLOC, size, 1, loop, 0);
		malloc_alone = run_case(ctx, &p, MALLOC, size, 0, loop, 0);
		for (int a = DEFAULT_POOL; a <= CREATED_POOL && !hmb_interrupted(); a++) {
			run_case(ctx, &p, (enum allocator)a, size, 1, loop, malloc_loop);
			run_case(ctx, &p, (enum allocator)a, size, 0, loop, malloc_alone);
		}
	}
	rc = 0;
fail:
	if (p.default_pool)
		hipMemPoolSetAttribute(p.default_pool, hipMemPoolAttrReleaseThreshold,
				       &p.default_threshold);
	if (p.fixed)
		hipFree(p.fixed);
	if (p.created)
		hipMemPoolDestroy(p.created);
	if (p.stream)
		hipStreamDestroy(p.stream);
	return rc;
}

static const struct hmb_opt_decl options[] = {
	{ "loop", HMB_OPT_INT, "N",
	  "iterations per sample up to 4M (default 1000; --quick 100); scaled down "
	  "for larger sizes, at least 20", 1, 4L << 20, 0 },
	{ NULL, 0, NULL, NULL, 0, 0, 0 },
};

const struct hmb_bench hmb_bench_pool = {
	.name = "pool",
	.summary = "hipMallocAsync/hipFreeAsync from pools vs hipMalloc/hipFree in a loop",
	.needs = HMB_NEEDS_POOLS,
	.options = options,
	.help = "--sizes: allocation sizes (default 4K,64K,1M,16M,64M,256M; --quick 4K,1M,64M).\n"
		"us/op is the cost of one iteration (allocate, kernel, free, stream sync) on\n"
		"the host clock; alloc-free cases leave the kernel out; kernel-only is the\n"
		"floor. speedup is relative to hipMalloc at the same size. Pool memory is\n"
		"verified with a kernel write and a check read.",
	.run = run,
};
