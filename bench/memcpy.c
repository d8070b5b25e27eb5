/*
 * memcpy - host<->device and device<->device copy bandwidth and latency.
 *
 * Host memory comes in four kinds: pageable (aligned malloc, the driver
 * stages it through its own pinned buffers), pinned (hipHostMalloc),
 * registered (malloc then hipHostRegister: pinned after the fact) and
 * write-combined pinned (hipHostMalloc(WriteCombined): fast for the host to
 * write and the device to read, uncached for host reads). Each is copied
 * host-to-device (h2d) and device-to-host (d2h) with hipMemcpy (sync) and
 * hipMemcpyAsync (async); device-to-device (d2d) copies complete the set.
 *
 * How it is timed:
 *  - async, page-locked memory and d2d: HIP events around each copy, all
 *    queued behind a latch kernel so the host's enqueue cost stays out of the
 *    figure (the GPU's view; the one that reaches the link's peak);
 *  - async, pageable: events around each copy, no latch (the runtime stages
 *    pageable copies on the host side, which is part of their real cost);
 *  - sync: the host clock around hipMemcpy + hipDeviceSynchronize (what a
 *    program that calls hipMemcpy waits; includes the API's own latency).
 *
 * Reading the numbers: small copies are latency (the "median" column, us),
 * large ones bandwidth (GB/s = 1e9 bytes/s, bytes counted once per copy; for
 * d2d too, although the device reads and writes each byte). "peak" is the
 * share of the PCIe link's theoretical rate per direction after line
 * encoding; about 85-90% of it is what a good PCIe system reaches.
 * Every case is verified once after timing: a fresh pattern is copied with
 * the same API and checked word by word.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/kernels.h"
#include "../src/bench.h"
#include "../src/latch.h"
#include "../src/timing.h"
#include "../src/verify.h"

enum host_kind { PAGEABLE, PINNED, REGISTERED, WRITE_COMBINED, DEVICE_ONLY };
enum direction { H2D, D2H, D2D };
enum api { ASYNC, SYNC };

static const char *const kind_name[] = { "pageable", "pinned", "registered",
					 "write-combined", "device" };
static const char *const dir_name[] = { "h2d", "d2h", "d2d" };
static const char *const api_name[] = { "async", "sync" };

struct buffers {
	enum host_kind kind;
	void *host;              /* max_size bytes of the kind's host memory */
	void *dev_a, *dev_b;     /* max_size bytes each */
	size_t max_size;
	hipStream_t stream;
	hipEvent_t ev[HMB_LATCH_MAX_OPS + 1];
	struct hmb_latch latch;
};

struct copy_case {
	enum direction dir;
	enum api api;
	size_t size;
};

static hipError_t copy_once(struct buffers *b, const struct copy_case *c, void *dst,
			    const void *src)
{
	static const hipMemcpyKind kinds[] = { hipMemcpyHostToDevice, hipMemcpyDeviceToHost,
					       hipMemcpyDeviceToDevice };
	if (c->api == SYNC)
		return hipMemcpy(dst, src, c->size, kinds[c->dir]);
	return hipMemcpyAsync(dst, src, c->size, kinds[c->dir], b->stream);
}

static void endpoints(struct buffers *b, const struct copy_case *c, void **dst, const void **src)
{
	*src = c->dir == H2D ? b->host : b->dev_a;
	*dst = c->dir == H2D ? b->dev_a : c->dir == D2H ? b->host : b->dev_b;
}

static int uses_latch(const struct buffers *b, const struct copy_case *c)
{
	return c->api == ASYNC && b->kind != PAGEABLE;
}

static const char *timing_text(const struct buffers *b, const struct copy_case *c)
{
	if (c->api == SYNC)
		return "host clock around hipMemcpy + hipDeviceSynchronize";
	return uses_latch(b, c) ? "events, copies queued behind a latch"
				: "events around each copy";
}

static int time_case(struct hmb_ctx *ctx, struct buffers *b, const struct copy_case *c,
		     struct hmb_record *r)
{
	int reps = hmb_reps(ctx, 20), warmup = hmb_warmup(ctx, 2);
	void *dst;
	const void *src;

	endpoints(b, c, &dst, &src);
	for (int i = 0; i < warmup; i++)
		HMB_CHECK(copy_once(b, c, dst, src));
	HMB_CHECK(hipDeviceSynchronize());

	if (c->api == SYNC) {
		for (int i = 0; i < reps; i++) {
			double t0 = hmb_now();
			HMB_CHECK(copy_once(b, c, dst, src));
			HMB_CHECK(hipDeviceSynchronize());
			hmb_sample(r, hmb_now() - t0);
		}
		return 0;
	}
	for (int done = 0; done < reps;) {
		int batch = reps - done < HMB_LATCH_MAX_OPS ? reps - done : HMB_LATCH_MAX_OPS;
		int latched = uses_latch(b, c);

		if (latched)
			HMB_CHECK(hmb_latch_hold(&b->latch, b->stream));
		HMB_CHECK(hipEventRecord(b->ev[0], b->stream));
		for (int k = 0; k < batch; k++) {
			HMB_CHECK(copy_once(b, c, dst, src));
			HMB_CHECK(hipEventRecord(b->ev[k + 1], b->stream));
		}
		if (latched)
			hmb_latch_release(&b->latch);
		HMB_CHECK(hipEventSynchronize(b->ev[batch]));
		for (int k = 0; k < batch; k++) {
			float ms = 0;
			HMB_CHECK(hipEventElapsedTime(&ms, b->ev[k], b->ev[k + 1]));
			hmb_sample(r, ms * 1e-3);
		}
		done += batch;
	}
	return 0;
fail:
	hmb_latch_release(&b->latch);
	return -1;
}

/* Copy a fresh pattern with the case's own API and check every word. */
static int verify_case(struct buffers *b, const struct copy_case *c, uint32_t seed)
{
	unsigned long long bad = 0;
	void *dst;
	const void *src;

	endpoints(b, c, &dst, &src);
	if (c->dir == H2D)
		hmb_fill_host(b->host, c->size, seed);
	else
		HMB_CHECK(hmb_launch_fill(b->dev_a, 0, c->size / 4, seed, 0));
	HMB_CHECK(hipDeviceSynchronize());
	HMB_CHECK(copy_once(b, c, dst, src));
	HMB_CHECK(hipDeviceSynchronize());
	if (c->dir != D2H) {
		HMB_CHECK(hmb_check_device(dst, 0, c->size, seed, 0, &bad));
	} else if (b->kind == WRITE_COMBINED) {
		/* Host reads of write-combined memory are uncached and very slow:
		 * let the device read it back instead. */
		HMB_CHECK(hipMemcpy(b->dev_b, b->host, c->size, hipMemcpyHostToDevice));
		HMB_CHECK(hmb_check_device(b->dev_b, 0, c->size, seed, 0, &bad));
	} else {
		bad = hmb_check_host(b->host, c->size, seed, 0);
	}
	if (bad) {
		hmb_set_error("verification failed: %llu of %zu words differ after the copy", bad,
			      c->size / 4);
		return -1;
	}
	return 0;
fail:
	return -1;
}

static void run_case(struct hmb_ctx *ctx, struct buffers *b, const struct copy_case *c)
{
	static uint32_t seed = 1;
	struct hmb_record *r = hmb_case(ctx, "%s/%s/%s", dir_name[c->dir], kind_name[b->kind],
					api_name[c->api]);

	hmb_param_num(r, "size", (double)c->size);
	hmb_param_str(r, "direction", dir_name[c->dir]);
	hmb_param_str(r, "host_memory", kind_name[b->kind]);
	hmb_param_str(r, "api", c->api == SYNC ? "hipMemcpy" : "hipMemcpyAsync");
	hmb_param_str(r, "timing", timing_text(b, c));
	hmb_record_bytes(r, (double)c->size);
	if (c->dir == D2D)
		hmb_param_str(r, "bytes_counted", "copied once (not read + written)");
	else if (ctx->dev->link.peak_gbps > 0)
		hmb_record_peak(r, ctx->dev->link.peak_gbps);
	if (time_case(ctx, b, c, r) != 0 || verify_case(b, c, seed++) != 0)
		hmb_case_failed(r);
	else
		hmb_observe_bool(r, "verified", 1);
	hmb_commit(ctx, r);
}

static hipError_t alloc_host(struct buffers *b)
{
	hipError_t err;

	switch (b->kind) {
	case PINNED:
		return hipHostMalloc(&b->host, b->max_size, hipHostMallocDefault);
	case WRITE_COMBINED:
		return hipHostMalloc(&b->host, b->max_size, hipHostMallocWriteCombined);
	case PAGEABLE:
	case REGISTERED:
		b->host = aligned_alloc(4096, (b->max_size + 4095) / 4096 * 4096);
		if (!b->host)
			return hipErrorOutOfMemory;
		memset(b->host, 0, b->max_size); /* fault the pages in before any timing */
		if (b->kind == PAGEABLE)
			return hipSuccess;
		err = hipHostRegister(b->host, b->max_size, hipHostRegisterDefault);
		if (err != hipSuccess) {
			free(b->host);
			b->host = NULL;
		}
		return err;
	case DEVICE_ONLY:
		return hipSuccess;
	}
	return hipErrorInvalidValue;
}

static void free_host(struct buffers *b)
{
	if (!b->host)
		return;
	if (b->kind == PINNED || b->kind == WRITE_COMBINED)
		hipHostFree(b->host);
	else {
		if (b->kind == REGISTERED)
			hipHostUnregister(b->host);
		free(b->host);
	}
	b->host = NULL;
}

/* Every case of one host memory kind, sizes innermost so tables read well. */
static int run_kind(struct hmb_ctx *ctx, struct buffers *b, const struct hmb_sizes *sizes)
{
	static const enum direction host_dirs[] = { H2D, D2H }, device_dirs[] = { D2D };
	const enum direction *dirs = b->kind == DEVICE_ONLY ? device_dirs : host_dirs;
	int ndirs = b->kind == DEVICE_ONLY ? 1 : 2;

	HMB_CHECK(alloc_host(b));
	for (int d = 0; d < ndirs; d++)
		for (int a = 0; a < 2; a++)
			for (size_t i = 0; i < sizes->n && !hmb_interrupted(); i++) {
				struct copy_case c = { dirs[d], (enum api)a, sizes->v[i] };
				run_case(ctx, b, &c);
			}
	free_host(b);
	return 0;
fail:
	{
		char why[1024];
		struct hmb_record *r;
		snprintf(why, sizeof(why), "%s", hmb_last_error());
		r = hmb_case(ctx, "alloc/%s", kind_name[b->kind]);
		hmb_param_num(r, "size", (double)b->max_size);
		hmb_record_status(r, HMB_FAILED, "%s", why);
		hmb_commit(ctx, r);
	}
	return 0;
}

static int run(struct hmb_ctx *ctx)
{
	struct buffers b;
	struct hmb_sizes sizes;
	size_t free_mem = hmb_device_free_mem();
	int rc = -1;

	memset(&b, 0, sizeof(b));
	hmb_sizes_or(ctx, &sizes, "4K:1G:x4", "4K,256K,16M");
	b.max_size = hmb_sizes_max(&sizes);
	if (2 * b.max_size + (256u << 20) > free_mem) {
		hmb_skip(ctx, "all", b.max_size, "needs two device buffers of %s, %.1f GiB free "
			 "on the device", hmb_sz(b.max_size), (double)free_mem / (1 << 30));
		return 0;
	}
	HMB_CHECK(hipStreamCreateWithFlags(&b.stream, hipStreamNonBlocking));
	for (int i = 0; i <= HMB_LATCH_MAX_OPS; i++)
		HMB_CHECK(hipEventCreate(&b.ev[i]));
	HMB_CHECK(hmb_latch_create(&b.latch));
	HMB_CHECK(hipMalloc(&b.dev_a, b.max_size));
	HMB_CHECK(hipMalloc(&b.dev_b, b.max_size));

	for (int k = PAGEABLE; k <= DEVICE_ONLY && !hmb_interrupted(); k++) {
		b.kind = (enum host_kind)k;
		run_kind(ctx, &b, &sizes);
	}
	rc = 0;
fail:
	hipFree(b.dev_a);
	hipFree(b.dev_b);
	hmb_latch_destroy(&b.latch);
	for (int i = 0; i <= HMB_LATCH_MAX_OPS; i++)
		if (b.ev[i])
			hipEventDestroy(b.ev[i]);
	if (b.stream)
		hipStreamDestroy(b.stream);
	return rc;
}

const struct hmb_bench hmb_bench_memcpy = {
	.name = "memcpy",
	.summary = "copy bandwidth and latency: pageable, pinned, registered and "
		   "write-combined host memory; h2d, d2h, d2d; sync and async",
	.needs = 0,
	.options = NULL,
	.help = "--sizes: the copy sizes (default 4K:1G:x4; --quick 4K,256K,16M).\n"
		"Cases are named direction/host-memory/api, e.g. h2d/pinned/async.\n"
		"Async copies of page-locked memory are timed on the GPU (events, queued behind\n"
		"a latch); pageable async copies with events around each copy; sync copies\n"
		"with the host clock. GB/s counts each byte once, d2d included. Every case is\n"
		"verified after timing.",
	.run = run,
};
