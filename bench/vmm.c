/*
 * vmm - growing a device buffer: virtual memory management vs realloc+copy.
 *
 * A buffer grows from --start (64M) by --step (64M), or by doubling, up to
 * --limit (8G, capped by free memory). Variants:
 *   realloc-copy         hipMalloc a larger buffer, copy, hipFree the old one
 *   vmm-reserve-upfront  one hipMemAddressReserve of the limit first; each step
 *                        hipMemCreate + hipMemMap + hipMemSetAccess of a chunk
 *   vmm-extend           reserve only what is needed; extend by asking for the
 *                        address right after the range; where the runtime gives
 *                        another address, remap the existing chunks into a new,
 *                        larger range (no copy). Observed: how often each path ran.
 * Samples are the steps (host clock, device synchronised); total_s is their
 * sum; peak_bytes the most device memory the buffer held at once (realloc
 * needs old + new). After every step the old contents are checked and the
 * new part written and checked.
 * "call/..." records time each VMM call for chunk sizes from --chunks (rounded
 * up to the granularity). "free-while-busy" measures how long the host is
 * blocked by hipFree, and by hipMemUnmap + hipMemRelease, while a long kernel
 * runs on another stream (kernel_s says how long that kernel ran).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/kernels.h"
#include "../src/bench.h"
#include "../src/timing.h"
#include "../src/verify.h"

#if HMB_HAVE_VMM

#define MAX_CHUNKS 4096
#define SEED 4242

enum variant { REALLOC_COPY, RESERVE_UPFRONT, EXTEND };
static const char *const variant_name[] = { "realloc-copy", "vmm-reserve-upfront",
					    "vmm-extend" };

struct range {
	char *base;
	size_t size;
};

struct buffer {
	enum variant v;
	char *base;                /* where the buffer starts now */
	size_t size;               /* bytes in use */
	size_t peak;
	hipMemGenericAllocationHandle_t handle[MAX_CHUNKS];
	size_t chunk_size[MAX_CHUNKS];
	int nchunks;
	struct range resv[MAX_CHUNKS];
	int nresv;
	int in_place, remapped;
};

struct vmm {
	struct hmb_ctx *ctx;
	hipMemAllocationProp prop;
	hipMemAccessDesc access;
	size_t gran;
};

static int map_chunk(struct vmm *m, struct buffer *b, char *at, size_t size, int create)
{
	if (create) {
		if (b->nchunks == MAX_CHUNKS) {
			hmb_set_error("more than %d chunks", MAX_CHUNKS);
			return -1;
		}
		HMB_CHECK(hipMemCreate(&b->handle[b->nchunks], size, &m->prop, 0));
		b->chunk_size[b->nchunks++] = size;
	}
	HMB_CHECK(hipMemMap(at, size, 0, b->handle[b->nchunks - 1], 0));
	HMB_CHECK(hipMemSetAccess(at, size, &m->access, 1));
	return 0;
fail:
	return -1;
}

/* Map every chunk again at a new, larger range: no data is copied. The last
 * chunk is the new one, mapped only in the new range. */
static int remap_into(struct vmm *m, struct buffer *b, size_t new_size)
{
	char *nb = NULL;
	size_t off = 0;

	HMB_CHECK(hipMemAddressReserve((void **)&nb, new_size, 0, NULL, 0));
	for (int i = 0; i < b->nchunks; i++) {
		HMB_CHECK(hipMemMap(nb + off, b->chunk_size[i], 0, b->handle[i], 0));
		off += b->chunk_size[i];
	}
	HMB_CHECK(hipMemSetAccess(nb, off, &m->access, 1));
	off = 0;
	for (int i = 0; i < b->nchunks - 1; i++) {
		HMB_CHECK(hipMemUnmap(b->base + off, b->chunk_size[i]));
		off += b->chunk_size[i];
	}
	for (int i = 0; i < b->nresv; i++)
		HMB_CHECK(hipMemAddressFree(b->resv[i].base, b->resv[i].size));
	b->resv[0] = (struct range){ nb, new_size };
	b->nresv = 1;
	b->base = nb;
	return 0;
fail:
	return -1;
}

static int grow(struct vmm *m, struct buffer *b, size_t add)
{
	char *want = b->base + b->size, *got = NULL;
	void *p = NULL;

	switch (b->v) {
	case REALLOC_COPY:
		HMB_CHECK(hipMalloc(&p, b->size + add));
		if (b->size + add + b->size > b->peak)
			b->peak = 2 * b->size + add;
		HMB_CHECK(hipMemcpy(p, b->base, b->size, hipMemcpyDeviceToDevice));
		HMB_CHECK(hipFree(b->base));
		b->base = p;
		break;
	case RESERVE_UPFRONT:
		if (map_chunk(m, b, want, add, 1))
			return -1;
		break;
	case EXTEND: {
		hipError_t e = hipMemAddressReserve((void **)&got, add, 0, want, 0);
		if (e == hipSuccess && got == want) {
			b->resv[b->nresv++] = (struct range){ got, add };
			if (map_chunk(m, b, want, add, 1))
				return -1;
			b->in_place++;
		} else {
			(void)hipGetLastError();
			if (e == hipSuccess) /* another address: give it back */
				HMB_CHECK(hipMemAddressFree(got, add));
			HMB_CHECK(hipMemCreate(&b->handle[b->nchunks], add, &m->prop, 0));
			b->chunk_size[b->nchunks++] = add;
			if (remap_into(m, b, b->size + add))
				return -1;
			b->remapped++;
		}
		break;
	}
	}
	HMB_CHECK(hipDeviceSynchronize());
	b->size += add;
	if (b->size > b->peak)
		b->peak = b->size;
	return 0;
fail:
	return -1;
}

static void release_buffer(struct buffer *b)
{
	size_t off = 0;
	if (b->v == REALLOC_COPY) {
		if (b->base)
			hipFree(b->base);
	} else {
		for (int i = 0; i < b->nchunks; i++) {
			if (b->base)
				hipMemUnmap(b->base + off, b->chunk_size[i]);
			off += b->chunk_size[i];
			hipMemRelease(b->handle[i]);
		}
		for (int i = 0; i < b->nresv; i++)
			hipMemAddressFree(b->resv[i].base, b->resv[i].size);
	}
	(void)hipGetLastError();
	memset(b, 0, sizeof(*b));
}

/* Old contents intact; the new part takes and returns the pattern. */
static int verify_step(struct buffer *b, size_t old_size)
{
	unsigned long long bad = 0;
	size_t add = b->size - old_size;

	HMB_CHECK(hmb_check_device(b->base, 0, old_size, SEED, 0, &bad));
	if (bad) {
		hmb_set_error("verification failed: %llu words of the old contents changed", bad);
		return -1;
	}
	HMB_CHECK(hmb_launch_fill(b->base + old_size, old_size / 4, add / 4, SEED, 0));
	HMB_CHECK(hmb_check_device(b->base + old_size, old_size / 4, add, SEED, 0, &bad));
	if (bad) {
		hmb_set_error("verification failed: the new part does not hold what was written");
		return -1;
	}
	return 0;
fail:
	return -1;
}

static void growth(struct vmm *m, enum variant v, int doubling, size_t start, size_t step,
		   size_t limit)
{
	struct buffer *b = calloc(1, sizeof(*b));
	struct hmb_record *r = hmb_case(m->ctx, "grow/%s/%s", variant_name[v],
					doubling ? "doubling" : "fixed-step");
	double total = 0, t0;

	hmb_param_num(r, "size", (double)limit);
	hmb_param_num(r, "start", (double)start);
	hmb_param_str(r, "policy", doubling ? "doubling" : "fixed step");
	if (!doubling)
		hmb_param_num(r, "step", (double)step);
	if (!b) {
		hmb_set_error("out of host memory");
		goto fail;
	}
	b->v = v;
	if (v == REALLOC_COPY) {
		HMB_CHECK(hipMalloc((void **)&b->base, start));
	} else {
		size_t reserve = v == RESERVE_UPFRONT ? limit : start;
		t0 = hmb_now();
		HMB_CHECK(hipMemAddressReserve((void **)&b->base, reserve, 0, NULL, 0));
		if (v == RESERVE_UPFRONT)
			hmb_metric(r, "reserve_upfront_s", hmb_now() - t0, "s");
		b->resv[b->nresv++] = (struct range){ b->base, reserve };
		if (map_chunk(m, b, b->base, start, 1))
			goto fail;
	}
	b->size = b->peak = start;
	HMB_CHECK(hmb_launch_fill(b->base, 0, start / 4, SEED, 0));
	HMB_CHECK(hipDeviceSynchronize());
	while (b->size < limit && !hmb_interrupted()) {
		size_t old = b->size, add = doubling ? b->size : step;
		if (old + add > limit)
			add = limit - old;
		t0 = hmb_now();
		if (grow(m, b, add))
			goto fail;
		hmb_sample(r, hmb_now() - t0);
		total += r->samples[r->nsamples - 1];
		if (verify_step(b, old))
			goto fail;
	}
	hmb_metric(r, "total_s", total, "s");
	hmb_metric(r, "peak_bytes", (double)b->peak, "bytes");
	hmb_observe_num(r, "steps", (double)r->nsamples);
	if (v == EXTEND) {
		hmb_observe_num(r, "extended_in_place", b->in_place);
		hmb_observe_num(r, "remapped_into_new_range", b->remapped);
	}
	hmb_observe_bool(r, "verified", 1);
	release_buffer(b);
	free(b);
	hmb_commit(m->ctx, r);
	return;
fail:
	hmb_case_failed(r);
	if (b)
		release_buffer(b);
	free(b);
	hmb_commit(m->ctx, r);
}

/* The cost of each VMM call, for one chunk size. */
static void call_costs(struct vmm *m, size_t size, int reps)
{
	static const char *const names[] = { "hipMemCreate", "hipMemAddressReserve", "hipMemMap",
					     "hipMemSetAccess", "hipMemUnmap", "hipMemRelease",
					     "hipMemAddressFree" };
	struct hmb_record *r[7];
	hipMemGenericAllocationHandle_t h;
	void *p = NULL;
	int ok = 1;

	for (int c = 0; c < 7; c++) {
		r[c] = hmb_case(m->ctx, "call/%s", names[c]);
		hmb_param_num(r[c], "size", (double)size);
		hmb_record_ops(r[c], 1);
	}
	for (int i = 0; i < reps + 1 && ok; i++) {
		unsigned long long bad = 1;
		double t[5], u[4];
		t[0] = hmb_now();
		ok = hipMemCreate(&h, size, &m->prop, 0) == hipSuccess;
		t[1] = hmb_now();
		ok = ok && hipMemAddressReserve(&p, size, 0, NULL, 0) == hipSuccess;
		t[2] = hmb_now();
		ok = ok && hipMemMap(p, size, 0, h, 0) == hipSuccess;
		t[3] = hmb_now();
		ok = ok && hipMemSetAccess(p, size, &m->access, 1) == hipSuccess;
		t[4] = hmb_now();
		/* untimed: the mapped memory takes and returns the pattern */
		ok = ok && hmb_launch_fill(p, 0, size / 4, SEED, 0) == hipSuccess &&
		     hmb_check_device(p, 0, size, SEED, 0, &bad) == hipSuccess && !bad;
		u[0] = hmb_now();
		ok = ok && hipMemUnmap(p, size) == hipSuccess;
		u[1] = hmb_now();
		ok = ok && hipMemRelease(h) == hipSuccess;
		u[2] = hmb_now();
		ok = ok && hipMemAddressFree(p, size) == hipSuccess;
		u[3] = hmb_now();
		if (ok && i > 0) /* the first round is a warm-up */
			for (int c = 0; c < 7; c++)
				hmb_sample(r[c], c < 4 ? t[c + 1] - t[c] : u[c - 3] - u[c - 4]);
	}
	if (!ok)
		hmb_set_error("a VMM call or the check of mapped memory failed: %s",
			      hipGetErrorString(hipGetLastError()));
	for (int c = 0; c < 7; c++) {
		if (!ok)
			hmb_case_failed(r[c]);
		else
			hmb_observe_bool(r[c], "mapped_memory_verified", 1);
		hmb_commit(m->ctx, r[c]);
	}
}

/* How long does freeing block the host while another stream runs a kernel? */
static void free_while_busy(struct vmm *m, size_t size, int reps)
{
	struct hmb_record *a = hmb_case(m->ctx, "free-while-busy/hipFree");
	struct hmb_record *b = hmb_case(m->ctx, "free-while-busy/vmm-unmap-release");
	hipStream_t busy = NULL;
	hipEvent_t e0 = NULL, e1 = NULL;
	unsigned long long *sink = NULL;
	long long iters = 1 << 20;
	float ms = 0;
	double kernel_s;

	HMB_CHECK(hipStreamCreateWithFlags(&busy, hipStreamNonBlocking));
	HMB_CHECK(hipEventCreate(&e0));
	HMB_CHECK(hipEventCreate(&e1));
	HMB_CHECK(hipMalloc((void **)&sink, sizeof(*sink)));
	/* Calibrate the spin kernel to about 200 ms. */
	HMB_CHECK(hipEventRecord(e0, busy));
	HMB_CHECK(hmb_launch_spin(iters, sink, busy));
	HMB_CHECK(hipEventRecord(e1, busy));
	HMB_CHECK(hipEventSynchronize(e1));
	HMB_CHECK(hipEventElapsedTime(&ms, e0, e1));
	iters = (long long)((double)iters * 200.0 / (ms > 0.01 ? ms : 0.01));
	for (int mode = 0; mode < 2; mode++) {
		struct hmb_record *r = mode ? b : a;
		hmb_param_num(r, "size", (double)size);
		for (int i = 0; i < reps; i++) {
			void *p = NULL;
			hipMemGenericAllocationHandle_t h = 0;
			double t0, blocked;
			if (mode == 0) {
				HMB_CHECK(hipMalloc(&p, size));
			} else {
				HMB_CHECK(hipMemCreate(&h, size, &m->prop, 0));
				HMB_CHECK(hipMemAddressReserve(&p, size, 0, NULL, 0));
				HMB_CHECK(hipMemMap(p, size, 0, h, 0));
				HMB_CHECK(hipMemSetAccess(p, size, &m->access, 1));
			}
			HMB_CHECK(hipDeviceSynchronize());
			HMB_CHECK(hipEventRecord(e0, busy));
			HMB_CHECK(hmb_launch_spin(iters, sink, busy));
			HMB_CHECK(hipEventRecord(e1, busy));
			t0 = hmb_now();
			if (mode == 0) {
				HMB_CHECK(hipFree(p));
			} else {
				HMB_CHECK(hipMemUnmap(p, size));
				HMB_CHECK(hipMemRelease(h));
				HMB_CHECK(hipMemAddressFree(p, size));
			}
			blocked = hmb_now() - t0;
			hmb_sample(r, blocked);
			HMB_CHECK(hipEventSynchronize(e1));
			HMB_CHECK(hipEventElapsedTime(&ms, e0, e1));
		}
		kernel_s = ms * 1e-3;
		hmb_metric(r, "kernel_s", kernel_s, "s");
		{
			struct hmb_stats st;
			hmb_stats_compute(r->samples, r->nsamples, &st);
			hmb_observe_bool(r, "waited_for_kernel", st.median > 0.5 * kernel_s);
		}
	}
	hmb_commit(m->ctx, a);
	hmb_commit(m->ctx, b);
	goto out;
fail:
	hmb_case_failed(a->nsamples < (size_t)reps ? a : b);
	hmb_commit(m->ctx, a);
	hmb_commit(m->ctx, b);
out:
	(void)hipDeviceSynchronize();
	if (sink)
		hipFree(sink);
	if (e0)
		hipEventDestroy(e0);
	if (e1)
		hipEventDestroy(e1);
	if (busy)
		hipStreamDestroy(busy);
}

static size_t round_up(size_t v, size_t g)
{
	return (v + g - 1) / g * g;
}

static int run(struct hmb_ctx *ctx)
{
	struct vmm m;
	struct hmb_sizes chunks;
	size_t start, step, limit, free_mem = hmb_device_free_mem();
	int reps = hmb_reps(ctx, 5);

	memset(&m, 0, sizeof(m));
	m.ctx = ctx;
	m.gran = ctx->dev->vmm_granularity_min;
	m.prop.type = hipMemAllocationTypePinned;
	m.prop.location.type = hipMemLocationTypeDevice;
	m.prop.location.id = ctx->dev->ordinal;
	m.access.location = m.prop.location;
	m.access.flags = hipMemAccessFlagsProtReadWrite;

	start = round_up(hmb_opt_size(ctx, "start", 64u << 20), m.gran);
	step = round_up(hmb_opt_size(ctx, "step", 64u << 20), m.gran);
	limit = round_up(hmb_opt_size(ctx, "limit", ctx->opt->quick ? 1u << 30 : 8ull << 30),
			 m.gran);
	/* realloc + copy holds old and new at once: keep both well inside free memory */
	if (2 * limit + (1ull << 30) > free_mem) {
		limit = (free_mem - (1ull << 30)) / 2 / m.gran * m.gran;
		fprintf(stderr, "[vmm] growth limit capped to %s by free device memory\n",
			hmb_sz(limit));
	}
	if (start > limit)
		start = limit;
	for (int v = REALLOC_COPY; v <= EXTEND && !hmb_interrupted(); v++)
		for (int d = 0; d < 2 && !hmb_interrupted(); d++)
			growth(&m, (enum variant)v, d, start, step, limit);

	{
		const char *spec = hmb_opt_value(ctx->opt, "call-sizes");
		char err[128];
		hmb_parse_sizes(spec ? spec : ctx->opt->quick ? "2M,64M" : "2M,64M,1G", &chunks,
				err, sizeof(err));
	}
	for (size_t i = 0; i < chunks.n && !hmb_interrupted(); i++)
		call_costs(&m, round_up(chunks.v[i], m.gran), reps);
	if (!hmb_interrupted())
		free_while_busy(&m, round_up(64u << 20, m.gran), hmb_reps(ctx, 3));
	return 0;
}

#else /* this HIP has no VMM API: the runner reports the module unsupported */

static int run(struct hmb_ctx *ctx)
{
	(void)ctx;
	hmb_set_error("virtual memory management is not in this build");
	return -1;
}

#endif

static const struct hmb_opt_decl options[] = {
	{ "start", HMB_OPT_SIZE, "SIZE", "initial buffer size (default 64M)", 0, 0, 0 },
	{ "step", HMB_OPT_SIZE, "SIZE", "fixed growth step (default 64M)", 0, 0, 0 },
	{ "limit", HMB_OPT_SIZE, "SIZE",
	  "final size (default 8G; --quick 1G), capped so that old + new fit in free memory",
	  0, 0, 0 },
	{ "call-sizes", HMB_OPT_SIZES, "LIST",
	  "chunk sizes for per-call costs (default 2M,64M,1G; --quick 2M,64M)", 0, 0, 0 },
	{ NULL, 0, NULL, NULL, 0, 0, 0 },
};

const struct hmb_bench hmb_bench_vmm = {
	.name = "vmm",
	.summary = "growing a buffer with hipMemCreate/AddressReserve/Map/SetAccess vs "
		   "realloc+copy",
	.needs = HMB_NEEDS_VMM,
	.options = options,
	.help = "Samples are growth steps (host clock); total_s their sum; peak_bytes the most\n"
		"device memory held at once. call/* records: one VMM call each, per chunk size.\n"
		"free-while-busy: host time blocked in hipFree vs unmap + release while a\n"
		"~200 ms kernel runs on another stream.",
	.run = run,
};
