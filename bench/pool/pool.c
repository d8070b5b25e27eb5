/*
 * pool - what does a stream-ordered memory pool save?
 *
 * The loop of many GPU programs, as the HIP course writes it: N times
 * { allocate, launch a kernel that writes the memory, free } on one stream,
 * one hipStreamSynchronize at the end (shape "course", the main figure).
 * The same loop with a hipStreamSynchronize after every iteration is the
 * second shape ("sync-each"): there a pool whose release threshold is 0
 * hands its memory back to the device at every synchronisation.
 * Allocators:
 *   hipMalloc             hipMalloc / hipFree, with another allocation of the
 *                         same size alive (a program's heap is rarely empty)
 *   hipMalloc-empty-heap  the same with nothing else allocated: each free may
 *                         unmap the memory and the next allocation map it again
 *   default-pool          hipMallocAsync / hipFreeAsync from the device's
 *                         default pool at its default release threshold
 *   default-pool-retain   the same pool with release threshold = unlimited
 *   created-pool          a pool from hipMemPoolCreate, threshold unlimited,
 *                         hipMallocFromPoolAsync
 *   kernel-only           the kernel alone on memory allocated once: the
 *                         floor no allocator can beat
 * "alloc-free/..." is the course shape without the kernel: allocation and
 * free alone. "trim/..." times hipMemPoolTrimTo(pool, 0) on a pool that
 * holds memory from earlier allocations.
 *
 * Reading the numbers: us/op is microseconds per iteration (host clock
 * around the N iterations and the synchronisation, divided by N);
 * speedup_over_hipMalloc is hipMalloc's (live heap) median over this
 * allocator's, same shape and size. Memory from every allocator is written
 * by a kernel and read back by a check kernel after timing. The default
 * pool's release threshold is put back after every case.
 *
 * grow/default-pool, grow/created-pool (on request: only a --case pattern
 * that names them runs them): a working set growing out of a pool in blocks
 * that stay alive, a sample per step, with the pool's reserved and used
 * bytes after each step; pool_growth.c's top comment says how to read them.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/pool/pool.h"
#include "engine/measure.h"
#include "engine/verify.h"
#include "kernels/kernels.h"

enum allocator { MALLOC, MALLOC_EMPTY, DEFAULT_POOL, DEFAULT_RETAIN, CREATED_POOL, NONE };
static const char *const alloc_name[] = { "hipMalloc", "hipMalloc-empty-heap", "default-pool",
					  "default-pool-retain", "created-pool", "kernel-only" };
static const char *const alloc_what[] = { "hipMalloc, %s hipFree", "hipMalloc, %s hipFree",
					  "hipMallocAsync, %s hipFreeAsync",
					  "hipMallocAsync, %s hipFreeAsync",
					  "hipMallocFromPoolAsync, %s hipFreeAsync",
					  "%s on memory allocated once" };

enum shape { COURSE, SYNC_EACH, ALLOC_FREE };
static const char *const shape_name[] = { "course", "sync-each", "alloc-free" };

#define SEED 0x9001u

struct pool_case {
	enum allocator a;
	int kernel;
	size_t size;
	hipMemPool_t default_pool, created;
	uint64_t default_threshold;
	void *fixed;       /* kernel-only: allocated once */
	void *other;       /* hipMalloc: another allocation alive */
	struct hmb_record *r;
};

static hipError_t alloc(struct pool_case *p, void **ptr, hipStream_t s)
{
	switch (p->a) {
	case MALLOC:
	case MALLOC_EMPTY: return hipMalloc(ptr, p->size);
	case DEFAULT_POOL:
	case DEFAULT_RETAIN: return hipMallocAsync(ptr, p->size, s);
	case CREATED_POOL: return hipMallocFromPoolAsync(ptr, p->size, p->created, s);
	case NONE: *ptr = p->fixed; return hipSuccess;
	}
	return hipErrorInvalidValue;
}

static hipError_t release(struct pool_case *p, void *ptr, hipStream_t s)
{
	switch (p->a) {
	case MALLOC:
	case MALLOC_EMPTY: return hipFree(ptr);
	case DEFAULT_POOL:
	case DEFAULT_RETAIN:
	case CREATED_POOL: return hipFreeAsync(ptr, s);
	case NONE: return hipSuccess;
	}
	return hipErrorInvalidValue;
}

static int set_threshold(hipMemPool_t pool, uint64_t v)
{
	HMB_TRY(hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &v));
	return 0;
}

static int setup(struct hmb_ctx *ctx, void *st)
{
	struct pool_case *p = st;

	if (p->a == DEFAULT_RETAIN && set_threshold(p->default_pool, UINT64_MAX))
		return -1;
	if (p->a == NONE && !(p->fixed = hmb_alloc(ctx, HMB_KIND_DEVICE, p->size)))
		return -1;
	if (p->a == MALLOC && !(p->other = hmb_alloc(ctx, HMB_KIND_DEVICE, p->size)))
		return -1;
	return 0;
}

/* One iteration: allocate, (kernel,) free; all on the case's stream. */
static int iteration(struct hmb_ctx *ctx, void *st, hipStream_t s, long i)
{
	struct pool_case *p = st;
	void *ptr = NULL;

	(void)ctx;
	(void)i;
	HMB_TRY(alloc(p, &ptr, s));
	if (p->kernel)
		HMB_TRY(hmb_launch_fill(ptr, 0, p->size / 4, SEED, s));
	HMB_TRY(release(p, ptr, s));
	return 0;
}

static void observe_pool(struct hmb_record *r, hipMemPool_t pool)
{
	uint64_t v;
	if (hipMemPoolGetAttribute(pool, hipMemPoolAttrReservedMemCurrent, &v) == hipSuccess)
		hmb_observe_num(r, "pool_reserved_bytes", (double)v);
	if (hipMemPoolGetAttribute(pool, hipMemPoolAttrReservedMemHigh, &v) == hipSuccess)
		hmb_observe_num(r, "pool_reserved_high_bytes", (double)v);
}

/* Memory from the allocator is usable: a kernel writes it, a check reads it. */
static int verify(struct hmb_ctx *ctx, void *st)
{
	struct pool_case *p = st;
	hipStream_t s = ctx->stream;
	void *ptr = NULL;
	unsigned long long bad = 1;

	if (p->a == DEFAULT_POOL || p->a == DEFAULT_RETAIN)
		observe_pool(p->r, p->default_pool);
	if (p->a == CREATED_POOL)
		observe_pool(p->r, p->created);
	HMB_TRY(alloc(p, &ptr, s));
	HMB_TRY(hmb_launch_fill(ptr, 0, p->size / 4, SEED + 1, s));
	HMB_TRY(hipStreamSynchronize(s));
	HMB_TRY(hmb_check_device(ptr, 0, p->size, SEED + 1, 0, &bad));
	HMB_TRY(release(p, ptr, s));
	HMB_TRY(hipStreamSynchronize(s));
	return hmb_verify_result(bad, "words of %s memory read back wrong", alloc_name[p->a]);
}

static void teardown(struct hmb_ctx *ctx, void *st)
{
	struct pool_case *p = st;
	(void)ctx;
	(void)hipStreamSynchronize(ctx->stream);
	if (p->default_pool)
		(void)set_threshold(p->default_pool, p->default_threshold);
}

/* One case; returns its median seconds per sample, or -1. */
static double run_case(struct hmb_ctx *ctx, struct pool_case *base, enum shape sh,
		       enum allocator a, int loop, double malloc_median)
{
	struct pool_case p = *base;
	struct hmb_record *r = hmb_case_record(ctx, "%s/%s", shape_name[sh], alloc_name[a]);
	char what[128];
	struct hmb_case c = {
		.what = what,
		.timing = {
			.clock = HMB_CLOCK_HOST,
			.sync = sh == SYNC_EACH ? HMB_SYNC_PER_OP : HMB_SYNC_PER_SAMPLE,
			.ops_per_sample = loop,
			/* a sample is up to 1000 iterations: 3 to 6 samples, 3 a run
			 * where `all` runs the module twice */
			.reps = 3,
			.warmup = 1,
		},
		.ops = { setup, NULL, iteration, verify, teardown },
		.state = &p,
	};
	double median;

	if (!hmb_keep_selected(ctx, r))
		return -1;
	p.a = a;
	p.kernel = sh != ALLOC_FREE;
	p.r = r;
	snprintf(what, sizeof(what), alloc_what[a], p.kernel ? "fill kernel," : "");
	if (a == NONE)
		snprintf(what, sizeof(what), "fill kernel on memory allocated once");
	hmb_param_num(r, "size", (double)p.size);
	hmb_param_str(r, "shape", shape_name[sh]);
	hmb_param_str(r, "allocator", alloc_name[a]);
	hmb_param_bool(r, "kernel", p.kernel);
	if (p.kernel)
		hmb_param_geometry(r, p.size / 4, HMB_GRID_CAPPED);
	if (a == DEFAULT_POOL)
		hmb_observe_num(r, "release_threshold_bytes", (double)p.default_threshold);
	hmb_measure(ctx, r, &c);
	median = hmb_median(r);
	if (median > 0 && malloc_median > 0 && a != MALLOC && a != NONE)
		hmb_metric(r, "speedup_over_hipMalloc", malloc_median / median, "x");
	hmb_commit(ctx, r);
	return median;
}

/* hipMemPoolTrimTo(pool, 0) on a pool holding 4 freed allocations. */
static int trim_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct pool_case *p = st;
	void *ptr[4] = { 0 };
	uint64_t reserved = 0;

	(void)sample;
	for (int k = 0; k < 4; k++)
		HMB_TRY(hipMallocFromPoolAsync(&ptr[k], p->size, p->created, ctx->stream));
	HMB_TRY(hmb_launch_fill(ptr[3], 0, p->size / 4, SEED, ctx->stream));
	for (int k = 0; k < 4; k++)
		HMB_TRY(hipFreeAsync(ptr[k], ctx->stream));
	HMB_TRY(hipStreamSynchronize(ctx->stream));
	HMB_TRY(hipMemPoolGetAttribute(p->created, hipMemPoolAttrReservedMemCurrent, &reserved));
	hmb_observe_num(p->r, "reserved_bytes_before_trim", (double)reserved);
	return 0;
}

static int trim_op(struct hmb_ctx *ctx, void *st, hipStream_t s, long i)
{
	struct pool_case *p = st;
	(void)ctx, (void)s, (void)i;
	HMB_TRY(hipMemPoolTrimTo(p->created, 0));
	return 0;
}

static int trim_verify(struct hmb_ctx *ctx, void *st)
{
	struct pool_case *p = st;
	uint64_t reserved = 1;
	(void)ctx;
	HMB_TRY(hipMemPoolGetAttribute(p->created, hipMemPoolAttrReservedMemCurrent, &reserved));
	hmb_observe_num(p->r, "reserved_bytes_after_trim", (double)reserved);
	if (reserved) {
		hmb_set_error("hipMemPoolTrimTo(pool, 0) left %llu bytes reserved",
			      (unsigned long long)reserved);
		return -1;
	}
	p->a = CREATED_POOL;
	return verify(ctx, st);
}

static void run_trim(struct hmb_ctx *ctx, struct pool_case *base)
{
	struct pool_case p = *base;
	struct hmb_record *r = hmb_case_record(ctx, "trim/created-pool");
	struct hmb_case c = {
		.what = "hipMemPoolTrimTo(pool, 0) releasing 4 freed allocations",
		.timing = { .clock = HMB_CLOCK_HOST, .sync = HMB_SYNC_NONE, .reps = 5 },
		.ops = { NULL, trim_prepare, trim_op, trim_verify, NULL },
		.state = &p,
	};
	if (!hmb_keep_selected(ctx, r))
		return;
	p.r = r;
	hmb_param_num(r, "size", (double)p.size);
	hmb_measure(ctx, r, &c);
	hmb_commit(ctx, r);
}

static int run(struct hmb_ctx *ctx)
{
	struct pool_case base;
	struct hmb_sizes sizes;
	hipMemPoolProps props;
	long loop_opt = hmb_opt_int(ctx, "loop", ctx->opt->quick ? 100 : 1000);

	memset(&base, 0, sizeof(base));
	hmb_sizes_or(ctx, &sizes, "4K,64K,1M,16M,64M,256M", "4K,1M,64M");
	HMB_TRY(hipDeviceGetDefaultMemPool(&base.default_pool, ctx->dev->ordinal));
	HMB_TRY(hipMemPoolGetAttribute(base.default_pool, hipMemPoolAttrReleaseThreshold,
				       &base.default_threshold));
	memset(&props, 0, sizeof(props));
	props.allocType = hipMemAllocationTypePinned;
	props.location.type = hipMemLocationTypeDevice;
	props.location.id = ctx->dev->ordinal;
	HMB_TRY(hipMemPoolCreate(&base.created, &props));
	hmb_own_pool(ctx, base.created);
	if (set_threshold(base.created, UINT64_MAX))
		return -1;

	for (size_t s = 0; s < sizes.n && !hmb_interrupted(); s++) {
		/* Keep a sample short for large sizes: about 4 MiB per iteration of
		 * the full loop count, never fewer than 20 iterations. */
		long scaled = sizes.v[s] <= (4u << 20) ? loop_opt
						       : loop_opt * (long)(4u << 20) / (long)sizes.v[s];
		int loop = (int)(scaled < 20 ? (loop_opt < 20 ? loop_opt : 20) : scaled);

		base.size = sizes.v[s];
		if (3 * base.size + (256u << 20) > hmb_device_free_mem()) {
			hmb_skip_module(ctx, base.size, "too little free device memory for %s",
				 hmb_sz(base.size));
			continue;
		}
		for (int sh = COURSE; sh <= ALLOC_FREE && !hmb_interrupted(); sh++) {
			double malloc_median = run_case(ctx, &base, (enum shape)sh, MALLOC, loop, 0);
			for (int a = MALLOC_EMPTY; a <= NONE && !hmb_interrupted(); a++)
				if (sh != ALLOC_FREE || a != NONE)
					run_case(ctx, &base, (enum shape)sh, (enum allocator)a, loop,
						 malloc_median);
		}
		if (!hmb_interrupted())
			run_trim(ctx, &base);
	}
	if (!hmb_interrupted())
		pool_growth(ctx);
	return 0;
}

static const struct hmb_opt_decl options[] = {
	{ "loop", HMB_OPT_INT, "N",
	  "iterations per sample up to 4M (default 1000; --quick 100); scaled down "
	  "for larger sizes, at least 20", 1, 4L << 20, 0 },
	{ "grow-step", HMB_OPT_SIZE, "SIZE", "grow/*: the block each step allocates (default 64M)",
	  0, 0, 0 },
	{ "grow-limit", HMB_OPT_SIZE, "SIZE",
	  "grow/*: the working set at the end (default 8G; --quick 1G), capped to free memory "
	  "less 1 GiB", 0, 0, 0 },
	{ NULL, 0, NULL, NULL, 0, 0, 0 },
};

static const char *const cases[] = {
	"course/hipMalloc", "course/hipMalloc-empty-heap", "course/default-pool",
	"course/default-pool-retain", "course/created-pool", "course/kernel-only",
	"sync-each/hipMalloc", "sync-each/hipMalloc-empty-heap", "sync-each/default-pool",
	"sync-each/default-pool-retain", "sync-each/created-pool", "sync-each/kernel-only",
	"alloc-free/hipMalloc", "alloc-free/hipMalloc-empty-heap", "alloc-free/default-pool",
	"alloc-free/default-pool-retain", "alloc-free/created-pool", "trim/created-pool",
	"grow/default-pool", "grow/created-pool", NULL,
};

/* A growth fills device memory step by step (seconds): only when asked for. */
static const char *const on_request[] = { "grow/*", NULL };

/* Its figure on the summary's screen (engine/headline.h). */
static const struct hmb_headline headlines[] = {
	{ "pool vs hipMalloc", "course/default-pool", "size=max", "speedup_over_hipMalloc", NULL,
	  "alloc, kernel, free loop: speedup", NULL },
	{ .name = NULL },
};

/* Its headline's chart in the report: a line per allocator (engine/chart.h). */
static const struct hmb_chart charts[] = {
	{ .kase = "*", .figure = "speedup_over_hipMalloc", .x = "size", .line_part = 1,
	  .chart_parts = 1, .what = "speedup over hipMalloc, per allocator",
	  .ylabel = "x hipMalloc", .ref = 1, .ref_label = "1: as fast as hipMalloc" },
	{ .kase = NULL },
};

const struct hmb_bench hmb_bench_pool = {
	.name = "pool",
	.headlines = headlines,
	.charts = charts,
	.charts_about = "pool's speedup over hipMalloc per allocator",
	.summary = "hipMallocAsync/hipFreeAsync from pools vs hipMalloc/hipFree in a loop",
	.needs = HMB_NEEDS_POOLS,
	.options = options,
	.help = "--sizes: allocation sizes (default 4K,64K,1M,16M,64M,256M; --quick 4K,1M,64M).\n"
		"course/*: N x (allocate, kernel, free) on one stream, one synchronisation at\n"
		"the end (the HIP course's loop); sync-each/*: a synchronisation after every\n"
		"iteration; alloc-free/*: the course loop without the kernel. us/op is the\n"
		"cost of one iteration; speedup_over_hipMalloc compares with hipMalloc (another\n"
		"allocation alive) in the same shape. Pool memory is verified after timing.\n"
		"grow/POOL (on request: --case 'grow/*'): blocks of --grow-step allocated one\n"
		"by one up to --grow-limit, all kept alive; a sample per step (allocation +\n"
		"synchronisation); the pool's reserved/used bytes and their high-water marks\n"
		"after each step (observed *_per_step); what the pool keeps after freeing\n"
		"all, before and after hipMemPoolTrimTo. Every block is checked at the end.",
	.cases = cases,
	.on_request = on_request,
	/* allocation calls run fast or slow by process (the host's state): three
	 * processes see it where two often land alike */
	.all_runs = 3,
	.run = run,
};
