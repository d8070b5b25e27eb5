/*
 * memcpy - host<->device and device<->device copy bandwidth and latency.
 *
 * Host memory comes in four kinds everywhere: pageable (aligned malloc, the
 * driver stages it through its own pinned buffers), pinned (hipHostMalloc),
 * registered (malloc then hipHostRegister: pinned after the fact) and
 * write-combined pinned (hipHostMalloc(WriteCombined): fast for the host to
 * write and the device to read, uncached for host reads). AMD adds
 * pinned-coherent, pinned-noncoherent and uncached host memory, and
 * fine-grained (and uncached) device memory; on AMD the write-combined flag
 * does nothing, so write-combined and write-combined-coherent are the
 * pinned-noncoherent and pinned-coherent copies and are not run twice. The
 * memory model (src/system/memmodel.h) says which kinds this platform has; each
 * kind it lacks is one `<kind>/unsupported` record with its reason (all the
 * AMD kinds on NVIDIA; compare matches older AMD documents' write-combined
 * cases under their new names, src/doc/json_read.c). Each host kind is copied
 * host-to-device (h2d) and device-to-host (d2h) with hipMemcpy (sync) and
 * hipMemcpyAsync (async); pinned memory also with the reference loop
 * (reference, below);
 * device-to-device (d2d) copies complete the set. A device kind is copied
 * h2d and d2h against pinned host memory, and d2d within itself. Every
 * record says the coherence of its memory on this platform (params
 * coherence; AMD: fine- or coarse-grained, and what decided it).
 *
 * What each timed region contains (params.timed says it per record):
 *  - async, page-locked host memory and d2d: one hipMemcpyAsync between HIP
 *    events, samples queued behind a latch kernel so the host's enqueue
 *    cost stays out (the GPU's view; the one that reaches the link's peak);
 *  - async, pageable: one hipMemcpyAsync between events, no latch (the
 *    runtime stages pageable copies on the host, part of their real cost);
 *  - sync: hipMemcpy + hipDeviceSynchronize on the host clock (what a
 *    program that calls hipMemcpy waits, the API's own latency included);
 *  - reference, pinned h2d and d2h only (h2d/pinned/reference,
 *    d2h/pinned/reference): the classic bandwidth-test loop, N
 *    hipMemcpyAsync back to back on one stream between two HIP events, no
 *    latch, one synchronisation per sample; a sample is the N copies
 *    (ops_per_sample = N, bytes = N x size), N enough to move 64 MiB (one
 *    at least, 1000 at most: mc_reference_copies). The same buffers, data
 *    and check as DIR/pinned/async, in the same process: set beside it, it
 *    tells this tool's noise from the machine's. Where the two agree from
 *    process to process, the spread is the machine's; where async spreads
 *    more than the reference, it is the method's (the latch, one copy a
 *    sample). Small sizes read per copy (us/op) with the enqueue cost of
 *    back-to-back copies in, so they are not async's latency.
 * Page-locked host-device copies of 16 MiB and more warm up until they stop
 * getting faster (observed.warmup, observed.warmup_rule), not a count: on a
 * lease of an H100 VM they started 20-25% slow in each process and climbed
 * for tens of milliseconds, the reference loop timed after them at speed.
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
 *
 * On request only (--case; each costs seconds at the default sizes; memcpy.h):
 *  - DIR/KIND/async-default-kind (memcpy_variants.c): h2d and d2h with pinned
 *    memory and d2d with hipMemcpyDefault, timed like DIR/KIND/async: set
 *    beside it, what letting the runtime infer the direction costs;
 *  - h2h/KIND/sync and h2h/KIND/memcpy (memcpy_variants.c): pinned and
 *    pageable host-to-host with hipMemcpy(HostToHost) and with memcpy(), host
 *    clock, beyond the host's cache: the runtime's host path against memcpy;
 *  - DIR/untouched-pageable/API (memcpy_untouched.c): a fresh mmap'd buffer
 *    each sample, never touched: the timed copy includes the host's first
 *    touch of its pages; set beside DIR/pageable/API, the first-touch cost;
 *  - DIR/BACKING[-registered]/async (memcpy_hugepages.c): host memory on
 *    transparent (thp) or hugetlb 2 MiB / 1 GiB pages, pageable and
 *    registered; what the kernel gave is observed, a backing not to be had
 *    is one BACKING/unsupported or BACKING/skipped record naming the sysfs
 *    value.
 * On request only (--case), each in a file of its own that says how to read
 * it: pin/cost/CALL, what hipHostMalloc, hipHostFree, hipHostRegister and
 * hipHostUnregister cost, and pin/break-even/DIR/METHOD, how many bytes one must
 * copy before pinning pays for itself (memcpy_pinning.c); batch/DIR/LAYOUT/WAY,
 * 1024 small copies in one hipMemcpyBatchAsync or a loop of hipMemcpyAsync
 * (memcpy_batch.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/memcpy/memcpy.h"
#include "bench/memcpy/memcpy_batch.h"
#include "bench/memcpy/memcpy_pinning.h"
#include "engine/measure.h"
#include "engine/report.h"
#include "engine/verify.h"
#include "kernels/kernels.h"
#include "system/memalloc.h"

enum direction { H2D, D2H, D2D };
/* REFERENCE: the reference loop, pinned host memory with hipMalloc's
 * device memory, h2d and d2h only (apis()). */
enum api { ASYNC, SYNC, REFERENCE };

/* Host kinds in the order they run. */
static const enum hmb_mem_kind host_kinds[] = {
	HMB_KIND_PAGEABLE, HMB_KIND_PINNED, HMB_KIND_REGISTERED, HMB_KIND_WRITE_COMBINED,
	HMB_KIND_PINNED_COHERENT, HMB_KIND_PINNED_NONCOHERENT, HMB_KIND_WRITE_COMBINED_COHERENT,
	HMB_KIND_HOST_UNCACHED,
};
/* Device kinds beyond hipMalloc's (d2d/device), after the host kinds. */
static const enum hmb_mem_kind device_kinds[] = { HMB_KIND_DEVICE_FINE_GRAINED,
						  HMB_KIND_DEVICE_UNCACHED };
static const char *const dir_name[] = { "h2d", "d2h", "d2d" };
static const char *const api_name[] = { "async", "sync", "reference" };

#define SEED 0x4d43u
#define POISON 0xA5

/* Buffers of the whole module: the host kind's buffer, and two device
 * regions large enough for the largest copy and for cache-defeating d2d. */
struct copies {
	enum hmb_mem_kind kind;     /* host memory kind (h2d, d2h) */
	enum hmb_mem_kind dkind;    /* device memory kind of dev_a, dev_b */
	uint8_t *host;
	size_t host_pattern;        /* host holds the pattern over its first bytes */
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

/* What the runtime says the timed copies read and write (the endpoints op
 * uses), so that a record shows the direction its name claims. */
static void record_endpoints(struct hmb_record *r, const struct copy_case *k)
{
	void *dst;
	const void *src;

	endpoints(k, 0, &dst, &src);
	hmb_observe_str(r, "src_memory", hmb_pointer_memory(src));
	hmb_observe_str(r, "dst_memory", hmb_pointer_memory(dst));
}

/* Host memory the host reads uncached (slowly): verified by the device. */
static int host_read_slow(enum hmb_mem_kind k)
{
	return k == HMB_KIND_WRITE_COMBINED || k == HMB_KIND_WRITE_COMBINED_COHERENT ||
	       k == HMB_KIND_HOST_UNCACHED;
}

/* What the model says of a kind's coherence here ("" on NVIDIA: one mode). */
static const char *coherence(const struct hmb_ctx *ctx, enum hmb_mem_kind k)
{
	const char *c = ctx->dev->model.kinds[k].coherence;
	return *c ? c : "one coherence mode on this platform (no coherence flags)";
}

/* The source carries the pattern, the destination is poisoned. An h2d
 * source is filled just before its copies below REFILL_BELOW (as fresh in
 * the host's caches as ever), and from there once for the apis after it
 * (the copies only read it; a d2h case poisons it). */
#define REFILL_BELOW (64u << 20)
static int setup(struct hmb_ctx *ctx, void *st)
{
	struct copy_case *k = st;
	struct copies *c = k->c;
	size_t src_bytes = (size_t)k->sets * k->size;
	(void)ctx;

	if (k->dir == H2D) {
		if (k->size < REFILL_BELOW || c->host_pattern < k->size) {
			hmb_fill_host(c->host, k->size, SEED);
			c->host_pattern = k->size > c->host_pattern ? k->size : c->host_pattern;
		}
		HMB_TRY(hipMemset(c->dev_a, POISON, k->size));
	} else {
		HMB_TRY(hmb_launch_fill(c->dev_a, 0, src_bytes / 4, SEED, 0));
		if (k->dir == D2H) {
			hmb_poison_host(c->host, k->size, POISON);
			c->host_pattern = 0;
		} else {
			HMB_TRY(hipMemset(c->dev_b, POISON, src_bytes));
		}
	}
	HMB_TRY(hipDeviceSynchronize());
	return 0;
}

static int op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct copy_case *k = st;
	void *dst;
	const void *src;

	(void)ctx;
	endpoints(k, i, &dst, &src);
	k->ops = i + 1;
	if (k->api != SYNC) {
		HMB_TRY(hipMemcpyAsync(dst, src, k->size, copy_kind(k->dir), stream));
	} else {
		HMB_TRY(hipMemcpy(dst, src, k->size, copy_kind(k->dir)));
		HMB_TRY(hipDeviceSynchronize());
	}
	return 0;
}

/* What the timed copies delivered: every destination word they wrote. */
static int verify(struct hmb_ctx *ctx, void *st)
{
	struct copy_case *k = st;
	unsigned long long bad = 0;

	(void)ctx;
	if (k->dir == H2D) {
		HMB_TRY(hmb_check_device(k->c->dev_a, 0, k->size, SEED, 0, &bad));
	} else if (k->dir == D2D) {
		HMB_TRY(hmb_check_device(k->c->dev_b, 0, mc_bytes_written(k->ops, k->sets, k->size),
				       SEED, 0, &bad));
	} else if (host_read_slow(k->c->kind)) {
		/* host reads of write-combined or uncached memory are uncached
		 * and very slow: the device reads it back instead */
		HMB_TRY(hipMemcpy(k->c->dev_b, k->c->host, k->size, hipMemcpyHostToDevice));
		HMB_TRY(hmb_check_device(k->c->dev_b, 0, k->size, SEED, 0, &bad));
	} else {
		bad = hmb_check_host(k->c->host, k->size, SEED, 0);
	}
	return hmb_verify_result(bad, "words differ after the timed copies");
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
	const int dev_kind = c->dkind != HMB_KIND_DEVICE;
	const char *kind = dev_kind || dir == D2D ? hmb_kind_name(c->dkind) : hmb_kind_name(c->kind);
	const double peak = ctx->dev->model.peak_gbps;
	/* the reference loop: copies back to back, one sample moving 64 MiB */
	const int n = api == REFERENCE ? mc_reference_copies(size) : 1;
	struct hmb_record *r = hmb_case_record(ctx, "%s/%s/%s", dir_name[dir], kind, api_name[api]);
	struct copy_case k = { c, dir, api, size, dir == D2D ? d2d_sets(c, size) : 1, 0 };
	char what[96];
	struct hmb_case m = {
		.what = what,
		.timing = {
			.clock = api == SYNC ? HMB_CLOCK_HOST : HMB_CLOCK_EVENTS,
			.sync = api == SYNC ? HMB_SYNC_NONE : HMB_SYNC_PER_SAMPLE,
			.latch = api == ASYNC && c->kind != HMB_KIND_PAGEABLE,
			.ops_per_sample = n,
			.buffer_sets = k.sets,
			/* 20 samples; 10 above 64 MiB, where each takes milliseconds;
			 * one warm-up from 64 MiB, where one copy is milliseconds */
			.reps = size > (64u << 20) ? 10 : 20,
			.warmup = size >= (64u << 20) ? 1 : 2,
			/* page-locked copies of 16 MiB and more can start slow and
			 * climb for tens of milliseconds: warm up until they stop */
			.settle = dir != D2D && c->kind != HMB_KIND_PAGEABLE &&
				  size >= (16u << 20),
		},
		.ops = { setup, NULL, op, verify, NULL },
		.state = &k,
	};

	if (dir == D2D)
		m.timing.latch = api == ASYNC;
	if (!hmb_keep_selected(ctx, r))
		return;
	snprintf(what, sizeof(what), api == SYNC ? "hipMemcpy %s + hipDeviceSynchronize"
						 : "hipMemcpyAsync %s", dir_name[dir]);
	hmb_param_num(r, "size", (double)size);
	hmb_param_str(r, "direction", dir_name[dir]);
	if (dir != D2D)
		hmb_param_str(r, "host_memory", hmb_kind_name(c->kind));
	else
		hmb_param_str(r, "host_memory", "device");
	if (dev_kind)
		hmb_param_str(r, "device_memory", kind);
	hmb_context_str(r, "coherence", coherence(ctx, dev_kind || dir == D2D ? c->dkind : c->kind));
	hmb_param_str(r, "api", api == SYNC ? "hipMemcpy" : "hipMemcpyAsync");
	/* per sample: n copies (the engine counts them as the record's ops) */
	hmb_record_bytes(r, (double)n * (double)size);
	if (dir == D2D) {
		hmb_context_str(r, "bytes_counted", "copied once (not read + written)");
		hmb_observe_num(r, "cache_bytes", (double)c->cache);
		hmb_observe_num(r, "cache_footprint_bytes", (double)k.sets * (double)size);
		hmb_observe_bool(r, "cache_resident", (double)k.sets * (double)size < 2.0 * c->cache);
	} else if (peak > 0) {
		hmb_record_peak(r, peak);
	}
	record_endpoints(r, &k);
	hmb_measure(ctx, r, &m);
	hmb_commit(ctx, r);
}

/* How many apis (enum api, in order) copies of this kind in direction d
 * run: the reference loop only with pinned host memory and hipMalloc's
 * device memory, h2d and d2h. */
static int apis(enum hmb_mem_kind host, enum hmb_mem_kind dev, enum direction d)
{
	return host == HMB_KIND_PINNED && dev == HMB_KIND_DEVICE && d != D2D ? 3 : 2;
}

/* Is any case of host kind `host` (or of device kind `dev`, where it is
 * not hipMalloc's) selected? */
static int any_selected(struct hmb_ctx *ctx, enum hmb_mem_kind host, enum hmb_mem_kind dev)
{
	const char *kind = hmb_kind_name(dev != HMB_KIND_DEVICE ? dev : host);
	char name[64];
	for (int d = 0; d < 3; d++)
		for (int a = 0; a < apis(host, dev, (enum direction)d); a++) {
			snprintf(name, sizeof(name), "%s/%s/%s", dir_name[d], kind, api_name[a]);
			if (hmb_selected(ctx, name))
				return 1;
		}
	return 0;
}

/* Size by size, each size's apis one after the other, the reference loop
 * right after async: the machine's slow spells (seconds long: a host link
 * reading host memory slower for a while) then fall on the copies set beside
 * each other alike, not on all of one api's sizes and none of the other's. */
static void run_sizes(struct hmb_ctx *ctx, struct copies *c, const struct hmb_sizes *sizes,
		      const enum direction *dirs, int ndirs)
{
	static const enum api order[] = { ASYNC, REFERENCE, SYNC };

	for (int d = 0; d < ndirs; d++)
		for (size_t i = 0; i < sizes->n && !hmb_interrupted(); i++)
			for (int a = 0; a < 3; a++)
				if ((int)order[a] < apis(c->kind, c->dkind, dirs[d]))
					run_case(ctx, c, dirs[d], order[a], sizes->v[i]);
}

/* A kind the model says this platform lacks: one record with the reason.
 * Returns 1 when the kind is unsupported (recorded if selected). */
static int unsupported(struct hmb_ctx *ctx, enum hmb_mem_kind k)
{
	const struct hmb_kind_info *info = &ctx->dev->model.kinds[k];
	struct hmb_record *r;

	if (info->supported)
		return 0;
	r = hmb_case_record(ctx, "%s/unsupported", hmb_kind_name(k));
	if (!hmb_keep_selected(ctx, r))
		return 1;
	hmb_param_str(r, info->host ? "host_memory" : "device_memory", hmb_kind_name(k));
	hmb_param_str(r, "api", info->api);
	hmb_record_status(r, HMB_UNSUPPORTED, "%s", info->reason);
	hmb_commit(ctx, r);
	return 1;
}

/* h2d, d2h and d2d with both device regions of kind k (pinned host memory),
 * in place of the hipMalloc regions, which are given back first. */
static void run_device_kind(struct hmb_ctx *ctx, struct copies *c, enum hmb_mem_kind k,
			    const struct hmb_sizes *sizes)
{
	static const enum direction all_dirs[] = { H2D, D2H, D2D };
	size_t max = hmb_sizes_max(sizes);

	if (unsupported(ctx, k) || !any_selected(ctx, HMB_KIND_PINNED, k))
		return;
	hmb_free(ctx, c->dev_a);
	hmb_free(ctx, c->dev_b);
	c->dev_a = c->dev_b = NULL;
	c->kind = HMB_KIND_PINNED;
	c->dkind = k;
	c->host_pattern = 0;
	if (!(c->dev_a = hmb_alloc(ctx, k, c->region)) ||
	    !(c->dev_b = hmb_alloc(ctx, k, c->region))) {
		mc_alloc_failed(ctx, hmb_kind_name(k), c->region);
	} else if (!(c->host = hmb_alloc(ctx, HMB_KIND_PINNED, max))) {
		mc_alloc_failed(ctx, hmb_kind_name(HMB_KIND_PINNED), max);
	} else {
		run_sizes(ctx, c, sizes, all_dirs, 3);
	}
	hmb_free(ctx, c->host);
	hmb_free(ctx, c->dev_a);
	hmb_free(ctx, c->dev_b);
	c->host = c->dev_a = c->dev_b = NULL;
}

/* The on-request families (memcpy.h), with the hipMalloc regions: before
 * the device kinds, which give those regions back. */
static void run_on_request(struct hmb_ctx *ctx, struct copies *c, const struct hmb_sizes *sizes)
{
	const struct mc_regions g = { c->dev_a, c->dev_b, c->region, c->cache, sizes };

	if (!hmb_interrupted())
		mc_default_kind(ctx, &g);
	if (!hmb_interrupted())
		mc_host_to_host(ctx, &g);
	if (!hmb_interrupted())
		mc_untouched(ctx, &g);
	if (!hmb_interrupted())
		mc_hugepages(ctx, &g);
}

static int run(struct hmb_ctx *ctx)
{
	static const enum direction host_dirs[] = { H2D, D2H }, device_dirs[] = { D2D };
	struct copies c;
	struct hmb_sizes sizes;
	size_t free_mem = hmb_device_free_mem(), max;

	memcpy_pinning(ctx);
	memcpy_batch(ctx);
	memset(&c, 0, sizeof(c));
	c.dkind = HMB_KIND_DEVICE;
	hmb_sizes_or(ctx, &sizes, "4K:1G:x4", "4K,256K,16M");
	max = hmb_sizes_max(&sizes);
	c.cache = hmb_cache_bytes(ctx->dev);
	c.region = (max + 2 * c.cache + 4095) / 4096 * 4096;
	if (2 * c.region + (256u << 20) > free_mem) {
		hmb_skip_module(ctx, max, "needs two device buffers of %s, %.1f GiB free "
			 "on the device", hmb_sz(c.region), (double)free_mem / (1 << 30));
		return 0;
	}
	if (!(c.dev_a = hmb_alloc(ctx, HMB_KIND_DEVICE, c.region)) ||
	    !(c.dev_b = hmb_alloc(ctx, HMB_KIND_DEVICE, c.region)))
		return -1;

	for (size_t k = 0; k < sizeof(host_kinds) / sizeof(host_kinds[0]); k++) {
		if (hmb_interrupted() || unsupported(ctx, host_kinds[k]) ||
		    !any_selected(ctx, host_kinds[k], HMB_KIND_DEVICE))
			continue;
		c.kind = host_kinds[k];
		c.host_pattern = 0;
		if (!(c.host = hmb_alloc(ctx, c.kind, max))) {
			mc_alloc_failed(ctx, hmb_kind_name(c.kind), max);
			continue;
		}
		run_sizes(ctx, &c, &sizes, host_dirs, 2);
		hmb_free(ctx, c.host);
		c.host = NULL;
	}
	if (!hmb_interrupted())
		run_sizes(ctx, &c, &sizes, device_dirs, 1);
	run_on_request(ctx, &c, &sizes);
	for (size_t k = 0; k < sizeof(device_kinds) / sizeof(device_kinds[0]); k++)
		if (!hmb_interrupted())
			run_device_kind(ctx, &c, device_kinds[k], &sizes);
	return 0;
}

#define KIND_CASES(k)                                                              \
	"h2d/" k "/async", "h2d/" k "/sync", "d2h/" k "/async", "d2h/" k "/sync"

#define HUGE_CASES(b)                                                              \
	"h2d/" b "/async", "d2h/" b "/async", "h2d/" b "-registered/async",       \
	"d2h/" b "-registered/async", b "/unsupported", b "/skipped"

static const char *const cases[] = {
	KIND_CASES("pageable"), KIND_CASES("pinned"), "h2d/pinned/reference",
	"d2h/pinned/reference", KIND_CASES("registered"),
	KIND_CASES("write-combined"), KIND_CASES("pinned-coherent"),
	KIND_CASES("pinned-noncoherent"), KIND_CASES("write-combined-coherent"),
	KIND_CASES("uncached"), "d2d/device/async", "d2d/device/sync",
	KIND_CASES("device-fine-grained"), "d2d/device-fine-grained/async",
	"d2d/device-fine-grained/sync", KIND_CASES("device-uncached"),
	"d2d/device-uncached/async", "d2d/device-uncached/sync",
	"registered/unsupported", "pinned-coherent/unsupported",
	"pinned-noncoherent/unsupported", "write-combined/unsupported",
	"write-combined-coherent/unsupported",
	"uncached/unsupported", "device-fine-grained/unsupported",
	"device-uncached/unsupported",
	/* on request (memcpy_variants.c, memcpy_untouched.c, memcpy_hugepages.c) */
	"h2d/pinned/async-default-kind", "d2h/pinned/async-default-kind",
	"d2d/device/async-default-kind", "h2h/pinned/sync", "h2h/pinned/memcpy",
	"h2h/pageable/sync", "h2h/pageable/memcpy", KIND_CASES("untouched-pageable"),
	HUGE_CASES("thp"), HUGE_CASES("hugetlb-2M"), HUGE_CASES("hugetlb-1G"),
	/* memcpy_pinning.c, memcpy_batch.c: on request */
	"pin/cost/hipHostMalloc", "pin/cost/hipHostFree", "pin/cost/hipHostRegister",
	"pin/cost/hipHostUnregister", "pin/break-even/h2d/hipHostMalloc",
	"pin/break-even/h2d/hipHostRegister", "pin/break-even/d2h/hipHostMalloc",
	"pin/break-even/d2h/hipHostRegister",
	"batch/h2d/contiguous/loop", "batch/h2d/contiguous/batched", "batch/h2d/scattered/loop",
	"batch/h2d/scattered/batched", "batch/d2h/contiguous/loop", "batch/d2h/contiguous/batched",
	"batch/d2h/scattered/loop", "batch/d2h/scattered/batched", "batch/unsupported", NULL,
};

/* Each costs seconds to minutes at the default sizes (pinning a gigabyte
 * many times over), or answers a narrower question: only where --case asks. */
static const char *const on_request[] = {
	"*/*/async-default-kind", "h2h/*", "*/untouched-pageable/*", "*/thp*/*", "thp/*",
	"*/hugetlb-*/*", "hugetlb-*/*", "pin/*", "batch/*", NULL,
};

/* Its figures on the summary's screen, and the peak of its device copies
 * (engine/headline.h): every other case's is its record's own, the host link. */
static const struct hmb_headline headlines[] = {
	{ "pinned h2d", "h2d/pinned/async", "size=max", "GB/s", NULL,
	  "hipMemcpyAsync from pinned host memory", NULL },
	{ "pinned d2h", "d2h/pinned/async", "size=max", "GB/s", NULL,
	  "hipMemcpyAsync to pinned host memory", NULL },
	{ "pageable h2d", "h2d/pageable/async", "size=max", "GB/s", NULL,
	  "hipMemcpyAsync from malloc'd memory", NULL },
	{ "pageable d2h", "d2h/pageable/async", "size=max", "GB/s", NULL,
	  "hipMemcpyAsync to malloc'd memory", NULL },
	{ "d2d copy", "d2d/device/async", "size=max", "GB/s", NULL,
	  "device to device; peak: HBM's, halved", NULL },
	{ "4K h2d latency", "h2d/pinned/async", "size=4096", "time", NULL,
	  "one small pinned copy, median", NULL },
	{ "4K d2h latency", "d2h/pinned/async", "size=4096", "time", NULL,
	  "one small pinned copy, median", NULL },
	{ .name = NULL },
};

static const struct hmb_case_peak peaks[] = {
	{ "d2d/*", HMB_PEAK_HBM_COPY },
	{ .kase = NULL },
};

/* Its charts against size in the report: every host memory kind of a
 * direction and API on one (engine/chart.h). */
static const struct hmb_chart_group chart_groups[] = {
	{ "d2d/*", "d2d", 1 },
	{ "*/*/sync", "%s, hipMemcpy", 1 },
	{ "*", "%s, hipMemcpyAsync", 1 },
	{ .kase = NULL },
};

const struct hmb_bench hmb_bench_memcpy = {
	.name = "memcpy",
	.headlines = headlines,
	.peaks = peaks,
	.chart_groups = chart_groups,
	.summary = "copy bandwidth and latency: pageable, pinned, registered and "
		   "write-combined host memory (AMD: coherent, non-coherent, uncached, "
		   "fine-grained device); h2d, d2h, d2d; sync and async; a reference loop",
	.host_link = 1,
	.needs = 0,
	.options = NULL,
	.help = "--sizes: the copy sizes (default 4K:1G:x4; --quick 4K,256K,16M).\n"
		"Cases are named direction/memory-kind/api, e.g. h2d/pinned/async; a\n"
		"device kind (device-fine-grained) is copied against pinned host memory\n"
		"and within itself (d2d). A kind this platform lacks is one record\n"
		"<kind>/unsupported with the reason (on AMD write-combined, whose flag does\n"
		"nothing there). params.coherence says each kind's coherence (AMD: fine- or\n"
		"coarse-grained).\n"
		"Async copies of page-locked memory are timed on the GPU (events, queued\n"
		"behind a latch); pageable async copies with events around each copy; sync\n"
		"copies with the host clock. d2d cycles through buffer pairs covering twice\n"
		"the last-level cache. GB/s counts each byte once, d2d included. The data\n"
		"the timed copies moved is verified after timing.\n"
		"h2d/pinned/reference, d2h/pinned/reference: the classic bandwidth-test\n"
		"loop as a yardstick for the tool's own noise: N hipMemcpyAsync back to back\n"
		"between two events on one stream, no latch, one sync per sample (N copies,\n"
		"64 MiB at least, 1 to 1000: ops_per_sample; GB/s counts all N), the same\n"
		"buffers and check as */pinned/async. Set it beside */pinned/async over runs\n"
		"(--runs, or several processes): where the two agree from process to process\n"
		"the spread is the machine's; where async spreads more, it is the method's.\n"
		"On request only (--case), at the same --sizes:\n"
		"  */*/async-default-kind  h2d, d2h (pinned), d2d with hipMemcpyDefault:\n"
		"                          compare with the explicit kind's async case\n"
		"  h2h/*                   host to host, pinned and pageable: hipMemcpy\n"
		"                          (sync) against memcpy() (memcpy), host clock\n"
		"  */untouched-pageable/*  h2d, d2h with a fresh, never touched mmap'd\n"
		"                          buffer each sample: includes first-touch faults\n"
		"  */thp*/*, */hugetlb-*/* h2d, d2h with host memory on transparent or\n"
		"                          hugetlb (2M, 1G) huge pages, pageable and\n"
		"                          -registered; thp/*, hugetlb-*/* say why not\n"
		"Also on request: pin/cost/{hipHostMalloc,hipHostFree,hipHostRegister,\n"
		"hipHostUnregister} (one call per sample, host clock) and\n"
		"pin/break-even/{h2d,d2h}/{hipHostMalloc,hipHostRegister}: the bytes to copy\n"
		"before pinning pays for itself (metrics break_even_bytes, copies_to_break_even\n"
		"and the medians they come from), over --sizes (default 4K,64K,1M,16M,256M,1G);\n"
		"batch/{h2d,d2h}/{contiguous,scattered}/{loop,batched}: 1024 x 4 KiB copies as\n"
		"hipMemcpyAsync calls or one hipMemcpyBatchAsync (us per copy, GB/s, metric\n"
		"batched_over_loop).",
	.cases = cases,
	.on_request = on_request,
	.run = run,
};
