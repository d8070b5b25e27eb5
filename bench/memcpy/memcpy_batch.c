/*
 * memcpy_batch.c - many small copies: one hipMemcpyBatchAsync against a loop
 * of hipMemcpyAsync on one stream, for the memcpy module (memcpy.c). On
 * request only: they run where a --case pattern names them.
 *
 * batch/DIR/LAYOUT/WAY: 1024 copies of 4 KiB each, h2d or d2h between pinned
 * host memory and device memory; LAYOUT contiguous (copy j moves bytes
 * [4K j, 4K j + 4K) of both buffers: a runtime may merge them) or scattered
 * (each copy at its own pseudo-random 4 KiB slot of a 256 MiB buffer, at
 * another one on the other side); WAY loop (1024 hipMemcpyAsync calls) or
 * batched (one hipMemcpyBatchAsync call; cudaMemcpyBatchAsync on NVIDIA). A
 * sample is all 1024 copies between HIP events on one stream, without a
 * latch: the host's submission is part of the time, as it is in a program
 * (when the device copies faster than the host submits, the sample is the
 * submission). Reading it: us per copy (the "per op" column; ops = 1024) and
 * GB/s of the 4 MiB; the batched record's metric batched_over_loop is its
 * median over the loop record's (below 1: batching is faster), with
 * loop_median_s to recompute it. Each copy's source block carries its own
 * pattern; after timing, every destination block is checked against it, so
 * that a copy that went to the wrong place fails too.
 *
 * CUDA wants an attribute for every copy: one entry for all, srcAccessOrder
 * Stream (the source is read in stream order, as hipMemcpyAsync reads it) and
 * no flags. HIP documents its attributes as not supported and refuses any, so
 * there none is passed; the batch as a whole is in stream order. Where the
 * runtime lacks the call (HIP before 7.1, CUDA before 12.8) or returns
 * not-supported, one batch/unsupported record says why; the loop cases run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/memcpy/memcpy_batch.h"
#include "engine/measure.h"
#include "engine/verify.h"
#include "kernels/kernels.h"
#include "util/util.h"

#define COPIES 1024
#define BLOCK 4096
#define SCATTER_SPAN (256ull << 20)  /* the buffers the scattered copies come from and go to */
#define SEED 0x42415400u             /* + j: the pattern of copy j */
#define POISON 0xA5

enum dir { H2D, D2H };
enum layout { CONTIGUOUS, SCATTERED };
enum way { LOOP, BATCHED };

static const char *const dir_name[] = { "h2d", "d2h" };
static const char *const layout_name[] = { "contiguous", "scattered" };
static const char *const way_name[] = { "loop", "batched" };

struct batch {
	enum dir d;
	enum layout lay;
	enum way way;
	size_t span;                /* bytes of each buffer */
	uint8_t *host, *dev;        /* pinned host, device */
	size_t src_off[COPIES], dst_off[COPIES];
	void *src[COPIES], *dst[COPIES];
	size_t sizes[COPIES];
};

/* `n` distinct BLOCK slots of `slots`, in a pseudo-random order (a partial
 * Fisher-Yates shuffle driven by xorshift64 from `seed`), as byte offsets. */
static void scatter(size_t *off, size_t n, size_t slots, uint64_t seed)
{
	uint32_t *slot = hmb_xcalloc(slots, sizeof(*slot));
	uint64_t x = seed | 1;

	for (size_t i = 0; i < slots; i++)
		slot[i] = (uint32_t)i;
	for (size_t i = 0; i < n; i++) {
		size_t j;
		uint32_t t;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = i + (size_t)(x % (slots - i));
		t = slot[i];
		slot[i] = slot[j];
		slot[j] = t;
		off[i] = (size_t)slot[i] * BLOCK;
	}
	free(slot);
}

/* The buffers; each source block j carries pattern SEED + j, the destination
 * is poisoned. */
static int setup(struct hmb_ctx *ctx, void *st)
{
	struct batch *b = st;
	uint8_t *from, *to;

	if (!(b->host = hmb_alloc(ctx, HMB_KIND_PINNED, b->span)) ||
	    !(b->dev = hmb_alloc(ctx, HMB_KIND_DEVICE, b->span)))
		return -1;
	if (b->lay == CONTIGUOUS) {
		for (size_t j = 0; j < COPIES; j++)
			b->src_off[j] = b->dst_off[j] = j * BLOCK;
	} else {
		scatter(b->src_off, COPIES, b->span / BLOCK, 0x9e3779b97f4a7c15ull);
		scatter(b->dst_off, COPIES, b->span / BLOCK, 0xc2b2ae3d27d4eb4full);
	}
	from = b->d == H2D ? b->host : b->dev;
	to = b->d == H2D ? b->dev : b->host;
	for (size_t j = 0; j < COPIES; j++) {
		b->src[j] = from + b->src_off[j];
		b->dst[j] = to + b->dst_off[j];
		b->sizes[j] = BLOCK;
		if (b->d == H2D)
			hmb_fill_host(b->src[j], BLOCK, SEED + (uint32_t)j);
		else
			HMB_TRY(hmb_launch_fill(b->src[j], 0, BLOCK / 4, SEED + (uint32_t)j, 0));
	}
	if (b->d == H2D)
		HMB_TRY(hipMemset(b->dev, POISON, b->span));
	else
		memset(b->host, POISON, b->span);
	HMB_TRY(hipDeviceSynchronize());
	return 0;
}

#if HMB_HAVE_MEMCPY_BATCH
/* The batch call with the attributes this platform takes (see the top). */
static hipError_t batch_call(void **dst, void **src, size_t *sizes, size_t n, hipStream_t s)
{
	hipMemcpyAttributes attr;
	size_t attr_idx = 0, fail_idx = 0;

	memset(&attr, 0, sizeof(attr));
	attr.srcAccessOrder = hipMemcpySrcAccessOrderStream;
	attr.flags = hipMemcpyFlagDefault;
	return hipMemcpyBatchAsync(dst, src, sizes, n, HMB_MEMCPY_BATCH_ATTRS ? &attr : NULL,
				   HMB_MEMCPY_BATCH_ATTRS ? &attr_idx : NULL,
				   HMB_MEMCPY_BATCH_ATTRS, &fail_idx, s);
}
#endif

static int op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct batch *b = st;
	hipMemcpyKind kind = b->d == H2D ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost;

	(void)ctx;
	(void)i;
	if (b->way == LOOP) {
		for (size_t j = 0; j < COPIES; j++)
			HMB_TRY(hipMemcpyAsync(b->dst[j], b->src[j], BLOCK, kind, stream));
		return 0;
	}
#if HMB_HAVE_MEMCPY_BATCH
	HMB_TRY(batch_call(b->dst, b->src, b->sizes, COPIES, stream));
	return 0;
#else
	hmb_set_error("hipMemcpyBatchAsync is not in this build"); /* not reached: unsupported */
	return -1;
#endif
}

/* Every destination block holds its source block's pattern. */
static int verify(struct hmb_ctx *ctx, void *st)
{
	struct batch *b = st;
	unsigned long long bad = 0, blocks = 0;

	(void)ctx;
	for (size_t j = 0; j < COPIES; j++) {
		unsigned long long n = 0;

		if (b->d == H2D)
			HMB_TRY(hmb_check_device(b->dst[j], 0, BLOCK, SEED + (uint32_t)j, 0, &n));
		else
			n = hmb_check_host(b->dst[j], BLOCK, SEED + (uint32_t)j, 0);
		bad += n;
		blocks += n > 0;
	}
	return hmb_verify_result(bad, "words in %llu of the %d destination blocks differ "
				 "after the timed copies", blocks, COPIES);
}

/* One case; returns its median (s), or -1. loop_s > 0: the loop's median,
 * for the batched record's ratio. */
static double run_case(struct hmb_ctx *ctx, enum dir d, enum layout lay, enum way way,
		       double loop_s)
{
	struct hmb_record *r = hmb_case_record(ctx, "batch/%s/%s/%s", dir_name[d], layout_name[lay],
					way_name[way]);
	struct batch *b;
	char what[128];
	struct hmb_case c = {
		.what = what,
		.timing = { .clock = HMB_CLOCK_EVENTS, .sync = HMB_SYNC_PER_SAMPLE, .latch = 0,
			    .reps = 20, .warmup = 2 },
		.ops = { setup, NULL, op, verify, NULL },
	};
	double t;

	if (!hmb_keep_selected(ctx, r))
		return -1;
	b = hmb_xcalloc(1, sizeof(*b));
	b->d = d;
	b->lay = lay;
	b->way = way;
	b->span = lay == CONTIGUOUS ? (size_t)COPIES * BLOCK : SCATTER_SPAN;
	c.state = b;
	snprintf(what, sizeof(what), way == LOOP ? "%d x hipMemcpyAsync %s of %d B" :
		 "hipMemcpyBatchAsync of %d copies %s of %d B", COPIES, dir_name[d], BLOCK);
	hmb_param_num(r, "size", BLOCK);
	hmb_param_num(r, "copies", COPIES);
	hmb_param_str(r, "direction", dir_name[d]);
	hmb_param_str(r, "layout", layout_name[lay]);
	hmb_param_num(r, "span_bytes", (double)b->span);
	hmb_param_str(r, "host_memory", "pinned");
	hmb_param_str(r, "api", way == LOOP ? "hipMemcpyAsync" : "hipMemcpyBatchAsync");
	if (way == BATCHED)
		hmb_param_str(r, "attributes", HMB_MEMCPY_BATCH_ATTRS ?
			      "one for all copies: srcAccessOrder stream, flags default" :
			      "none (HIP documents them as not supported)");
	hmb_record_bytes(r, (double)COPIES * BLOCK);
	hmb_record_ops(r, COPIES);
	hmb_measure(ctx, r, &c);
	free(b);
	t = hmb_median(r);
	if (t > 0 && loop_s > 0) {
		hmb_metric(r, "loop_median_s", loop_s, "s");
		hmb_metric(r, "batched_over_loop", t / loop_s, "x-slower");
	}
	hmb_commit(ctx, r);
	return t;
}

static int batched_selected(struct hmb_ctx *ctx)
{
	char name[64];

	for (int d = 0; d < 2; d++)
		for (int l = 0; l < 2; l++) {
			snprintf(name, sizeof(name), "batch/%s/%s/batched", dir_name[d],
				 layout_name[l]);
			if (hmb_selected(ctx, name))
				return 1;
		}
	return 0;
}

/* Does the runtime take the call? 0, or 1 after a batch/unsupported record
 * with the reason (a build without it, or hipErrorNotSupported from a batch
 * of one copy). Any other error is left to the cases to report. */
static int unsupported(struct hmb_ctx *ctx)
{
	char why[320];
	struct hmb_record *r;
#if HMB_HAVE_MEMCPY_BATCH
	void *h = hmb_alloc(ctx, HMB_KIND_PINNED, BLOCK);
	void *dv = hmb_alloc(ctx, HMB_KIND_DEVICE, BLOCK);
	size_t size = BLOCK;
	hipError_t e = hipSuccess;

	if (h && dv) {
		e = batch_call(&dv, &h, &size, 1, ctx->stream);
		if (e == hipSuccess)
			e = hipStreamSynchronize(ctx->stream);
	}
	hmb_free(ctx, h);
	hmb_free(ctx, dv);
	(void)hipGetLastError();
	hmb_clear_error();
	if (e != hipErrorNotSupported)
		return 0;
	snprintf(why, sizeof(why), "hipMemcpyBatchAsync returned %s (%s) for a batch of one "
		 "copy", hipGetErrorName(e), hipGetErrorString(e));
#elif defined(HMB_PLATFORM_NVIDIA)
	snprintf(why, sizeof(why), "cudaMemcpyBatchAsync needs CUDA 12.8 or later; this "
		 "build's CUDA runtime is %d.%d", CUDART_VERSION / 1000,
		 CUDART_VERSION % 1000 / 10);
#else
	snprintf(why, sizeof(why), "hipMemcpyBatchAsync needs HIP 7.1 or later; this build's "
		 "HIP is %d.%d", HIP_VERSION_MAJOR, HIP_VERSION_MINOR);
#endif
	r = hmb_case_record(ctx, "batch/unsupported");
	hmb_param_str(r, "api", "hipMemcpyBatchAsync");
	hmb_record_status(r, HMB_UNSUPPORTED, "%s", why);
	hmb_commit(ctx, r);
	return 1;
}

void memcpy_batch(struct hmb_ctx *ctx)
{
	int batched = batched_selected(ctx) || hmb_selected(ctx, "batch/unsupported");

	if (batched && unsupported(ctx))
		batched = 0;
	for (int d = 0; d < 2; d++)
		for (int l = 0; l < 2 && !hmb_interrupted(); l++) {
			double loop_s = run_case(ctx, (enum dir)d, (enum layout)l, LOOP, 0);
			if (batched)
				run_case(ctx, (enum dir)d, (enum layout)l, BATCHED, loop_s);
		}
}
