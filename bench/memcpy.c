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
 * What each timed region contains (params.timed says it per record):
 *  - async, page-locked host memory and d2d: one hipMemcpyAsync between HIP
 *    events, samples queued behind a latch kernel so the host's enqueue
 *    cost stays out (the GPU's view; the one that reaches the link's peak);
 *  - async, pageable: one hipMemcpyAsync between events, no latch (the
 *    runtime stages pageable copies on the host, part of their real cost);
 *  - sync: hipMemcpy + hipDeviceSynchronize on the host clock (what a
 *    program that calls hipMemcpy waits, the API's own latency included).
 * d2d copies cycle through as many buffer pairs as it takes to cover twice
 * the device's last-level cache, so no copy reads what an earlier one left
 * in the cache (params.buffer_sets, observed.cache_footprint_bytes).
 *
 * Reading the numbers: small copies are latency (the "median" column, us),
 * large ones bandwidth (GB/s = 1e9 bytes/s, bytes counted once per copy; for
 * d2d too, although the device reads and writes each byte). "peak" is the
 * share of the host link's theoretical rate per direction; about 85-90% of
 * it is what a good PCIe system reaches. The data the timed copies moved is
 * checked word by word after timing: the destination is poisoned first, the
 * source carries a pattern.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/kernels.h"
#include "../src/measure.h"
#include "../src/report.h"
#include "../src/verify.h"

enum direction { H2D, D2H, D2D };
enum api { ASYNC, SYNC };

static const enum hmb_mem host_kinds[] = { HMB_MEM_PAGEABLE, HMB_MEM_PINNED,
					   HMB_MEM_REGISTERED, HMB_MEM_WRITE_COMBINED };
static const char *const dir_name[] = { "h2d", "d2h", "d2d" };
static const char *const api_name[] = { "async", "sync" };

#define SEED 0x4d43u
#define POISON 0xA5

/* Buffers of the whole module: the host kind's buffer, and two device
 * regions large enough for the largest copy and for cache-defeating d2d. */
struct copies {
	enum hmb_mem kind;          /* host memory kind (h2d, d2h) */
	uint8_t *host;
	uint8_t *dev_a, *dev_b;     /* region bytes each */
	size_t region;
	size_t cache;               /* last-level cache bytes of the device */
};

struct copy_case {
	struct copies *c;
	enum direction dir;
	enum api api;
	size_t size;
	int sets;                   /* buffer pairs cycled through (d2d) */
	long ops;                   /* copies made so far: which pairs hold data */
};

static hipMemcpyKind copy_kind(enum direction d)
{
	return d == H2D ? hipMemcpyHostToDevice : d == D2H ? hipMemcpyDeviceToHost
							   : hipMemcpyDeviceToDevice;
}

static void endpoints(const struct copy_case *k, long i, void **dst, const void **src)
{
	size_t off = (size_t)(i % k->sets) * k->size;
	*src = k->dir == H2D ? (void *)k->c->host : (void *)(k->c->dev_a + off);
	*dst = k->dir == H2D ? (void *)k->c->dev_a : k->dir == D2H ? (void *)k->c->host
								  : (void *)(k->c->dev_b + off);
}

/* The source carries the pattern, the destination is poisoned. */
static int setup(struct hmb_ctx *ctx, void *st)
{
	struct copy_case *k = st;
	size_t src_bytes = (size_t)k->sets * k->size;
	(void)ctx;

	if (k->dir == H2D) {
		hmb_fill_host(k->c->host, k->size, SEED);
		HMB_CHECK(hipMemset(k->c->dev_a, POISON, k->size));
	} else {
		HMB_CHECK(hmb_launch_fill(k->c->dev_a, 0, src_bytes / 4, SEED, 0));
		if (k->dir == D2H)
			memset(k->c->host, POISON, k->size);
		else
			HMB_CHECK(hipMemset(k->c->dev_b, POISON, src_bytes));
	}
	HMB_CHECK(hipDeviceSynchronize());
	return 0;
fail:
	return -1;
}

static int op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct copy_case *k = st;
	void *dst;
	const void *src;

	(void)ctx;
	endpoints(k, i, &dst, &src);
	k->ops = i + 1;
	if (k->api == ASYNC) {
		HMB_CHECK(hipMemcpyAsync(dst, src, k->size, copy_kind(k->dir), stream));
	} else {
		HMB_CHECK(hipMemcpy(dst, src, k->size, copy_kind(k->dir)));
		HMB_CHECK(hipDeviceSynchronize());
	}
	return 0;
fail:
	return -1;
}

/* What the timed copies delivered: every destination word they wrote. */
static int verify(struct hmb_ctx *ctx, void *st)
{
	struct copy_case *k = st;
	unsigned long long bad = 0;
	size_t used = (size_t)(k->ops < k->sets ? k->ops : k->sets) * k->size;

	(void)ctx;
	if (k->dir == H2D) {
		HMB_CHECK(hmb_check_device(k->c->dev_a, 0, k->size, SEED, 0, &bad));
	} else if (k->dir == D2D) {
		HMB_CHECK(hmb_check_device(k->c->dev_b, 0, used, SEED, 0, &bad));
	} else if (k->c->kind == HMB_MEM_WRITE_COMBINED) {
		/* host reads of write-combined memory are uncached and very slow:
		 * the device reads it back instead */
		HMB_CHECK(hipMemcpy(k->c->dev_b, k->c->host, k->size, hipMemcpyHostToDevice));
		HMB_CHECK(hmb_check_device(k->c->dev_b, 0, k->size, SEED, 0, &bad));
	} else {
		bad = hmb_check_host(k->c->host, k->size, SEED, 0);
	}
	if (bad) {
		hmb_set_error("verification failed: %llu words differ after the timed copies", bad);
		return -1;
	}
	return 0;
fail:
	return -1;
}

/* Buffer pairs for d2d: enough to cover twice the cache, within the region. */
static int d2d_sets(const struct copies *c, size_t size)
{
	size_t want = (2 * c->cache + size - 1) / size + 1, fit = c->region / size;
	if (want > fit)
		want = fit;
	return want < 1 ? 1 : want > 1000000 ? 1000000 : (int)want;
}

static void run_case(struct hmb_ctx *ctx, struct copies *c, enum direction dir, enum api api,
		     size_t size)
{
	const char *kind = dir == D2D ? "device" : hmb_mem_name(c->kind);
	struct hmb_record *r = hmb_case(ctx, "%s/%s/%s", dir_name[dir], kind, api_name[api]);
	struct copy_case k = { c, dir, api, size, dir == D2D ? d2d_sets(c, size) : 1, 0 };
	char what[96];
	struct hmb_case m = {
		.what = what,
		.timing = {
			.clock = api == SYNC ? HMB_CLOCK_HOST : HMB_CLOCK_EVENTS,
			.sync = api == SYNC ? HMB_SYNC_NONE : HMB_SYNC_PER_SAMPLE,
			.latch = api == ASYNC && c->kind != HMB_MEM_PAGEABLE,
			.buffer_sets = k.sets,
			/* 20 samples; 10 above 64 MiB, where each takes milliseconds */
			.reps = size > (64u << 20) ? 10 : 20,
			.warmup = 2,
		},
		.ops = { setup, NULL, op, verify, NULL },
		.state = &k,
	};

	if (dir == D2D)
		m.timing.latch = api == ASYNC;
	if (!hmb_selected(ctx, r->name)) {
		hmb_record_free(r);
		return;
	}
	snprintf(what, sizeof(what), api == SYNC ? "hipMemcpy %s + hipDeviceSynchronize"
						 : "hipMemcpyAsync %s", dir_name[dir]);
	hmb_param_num(r, "size", (double)size);
	hmb_param_str(r, "direction", dir_name[dir]);
	hmb_param_str(r, "host_memory", kind);
	hmb_param_str(r, "api", api == SYNC ? "hipMemcpy" : "hipMemcpyAsync");
	hmb_record_bytes(r, (double)size);
	if (dir == D2D) {
		hmb_param_str(r, "bytes_counted", "copied once (not read + written)");
		hmb_observe_num(r, "cache_bytes", (double)c->cache);
		hmb_observe_num(r, "cache_footprint_bytes", (double)k.sets * (double)size);
		hmb_observe_bool(r, "cache_resident", (double)k.sets * (double)size < 2.0 * c->cache);
	} else if (ctx->dev->link.peak_gbps > 0) {
		hmb_record_peak(r, ctx->dev->link.peak_gbps);
	}
	hmb_measure(ctx, r, &m);
	hmb_commit(ctx, r);
}

static int any_selected(struct hmb_ctx *ctx, const char *kind)
{
	char name[64];
	for (int d = 0; d < 3; d++)
		for (int a = 0; a < 2; a++) {
			snprintf(name, sizeof(name), "%s/%s/%s", dir_name[d], kind, api_name[a]);
			if (hmb_selected(ctx, name))
				return 1;
		}
	return 0;
}

static void run_sizes(struct hmb_ctx *ctx, struct copies *c, const struct hmb_sizes *sizes,
		      const enum direction *dirs, int ndirs)
{
	for (int d = 0; d < ndirs; d++)
		for (int a = 0; a < 2; a++)
			for (size_t i = 0; i < sizes->n && !hmb_interrupted(); i++)
				run_case(ctx, c, dirs[d], (enum api)a, sizes->v[i]);
}

static int run(struct hmb_ctx *ctx)
{
	static const enum direction host_dirs[] = { H2D, D2H }, device_dirs[] = { D2D };
	struct copies c;
	struct hmb_sizes sizes;
	size_t free_mem = hmb_device_free_mem(), max;

	memset(&c, 0, sizeof(c));
	hmb_sizes_or(ctx, &sizes, "4K:1G:x4", "4K,256K,16M");
	max = hmb_sizes_max(&sizes);
	c.cache = hmb_cache_bytes(ctx->dev);
	c.region = (max + 2 * c.cache + 4095) / 4096 * 4096;
	if (2 * c.region + (256u << 20) > free_mem) {
		hmb_skip(ctx, "all", max, "needs two device buffers of %s, %.1f GiB free "
			 "on the device", hmb_sz(c.region), (double)free_mem / (1 << 30));
		return 0;
	}
	if (!(c.dev_a = hmb_alloc(ctx, HMB_MEM_DEVICE, c.region)) ||
	    !(c.dev_b = hmb_alloc(ctx, HMB_MEM_DEVICE, c.region)))
		return -1;

	for (size_t k = 0; k < sizeof(host_kinds) / sizeof(host_kinds[0]); k++) {
		if (hmb_interrupted() || !any_selected(ctx, hmb_mem_name(host_kinds[k])))
			continue;
		c.kind = host_kinds[k];
		if (!(c.host = hmb_alloc(ctx, c.kind, max))) {
			char why[1024];
			struct hmb_record *r = hmb_case(ctx, "alloc/%s", hmb_mem_name(c.kind));
			hmb_param_num(r, "size", (double)max);
			hmb_record_status(r, HMB_FAILED, "%s", hmb_take_error(why, sizeof(why)));
			hmb_report_add(ctx->report, r);
			continue;
		}
		run_sizes(ctx, &c, &sizes, host_dirs, 2);
		hmb_free(ctx, c.host);
		c.host = NULL;
	}
	if (!hmb_interrupted())
		run_sizes(ctx, &c, &sizes, device_dirs, 1);
	return 0;
}

static const char *const cases[] = {
	"h2d/pageable/async", "h2d/pageable/sync", "d2h/pageable/async", "d2h/pageable/sync",
	"h2d/pinned/async", "h2d/pinned/sync", "d2h/pinned/async", "d2h/pinned/sync",
	"h2d/registered/async", "h2d/registered/sync", "d2h/registered/async",
	"d2h/registered/sync", "h2d/write-combined/async", "h2d/write-combined/sync",
	"d2h/write-combined/async", "d2h/write-combined/sync", "d2d/device/async",
	"d2d/device/sync", NULL,
};

const struct hmb_bench hmb_bench_memcpy = {
	.name = "memcpy",
	.summary = "copy bandwidth and latency: pageable, pinned, registered and "
		   "write-combined host memory; h2d, d2h, d2d; sync and async",
	.needs = 0,
	.options = NULL,
	.help = "--sizes: the copy sizes (default 4K:1G:x4; --quick 4K,256K,16M).\n"
		"Cases are named direction/host-memory/api, e.g. h2d/pinned/async.\n"
		"Async copies of page-locked memory are timed on the GPU (events, queued\n"
		"behind a latch); pageable async copies with events around each copy; sync\n"
		"copies with the host clock. d2d cycles through buffer pairs covering twice\n"
		"the last-level cache. GB/s counts each byte once, d2d included. The data\n"
		"the timed copies moved is verified after timing.",
	.cases = cases,
	.run = run,
};
