/*
 * overlap - do copies really overlap with kernels?
 *
 * A pipeline moves N bytes host to device, runs a kernel on them and moves
 * them back. It runs once serially on one stream (the baseline), then split
 * into C chunks over S streams (chunk k on stream k mod S), with pinned and
 * with pageable host memory. The kernel's cost is tunable (LCG steps per
 * word, --iters); by default it is calibrated so that one load is copy-bound
 * (1 step), one balanced (kernel time = copy time) and one compute-bound (4x).
 *
 * Reading the numbers: "copy-only" and "kernel-only" are the parts measured
 * alone. For each pipeline, speedup = serial time / pipeline time, and
 * overlap_efficiency = (serial - pipeline) / (serial - ideal), where ideal =
 * max(copy, kernel): 1 means the shorter part is hidden completely, 0 means
 * nothing overlapped (above 1: h2d and d2h also overlapped each other). It
 * is left out where the shorter part is under 10% of the serial time.
 * hipMemcpyAsync from pageable memory is staged by the host and does not
 * overlap: its efficiency stays near 0. "bidirectional" runs an h2d and a
 * d2h copy at once on two streams versus one after the other: a speedup near
 * 2 means separate copy engines (see async_engine_count).
 * Every pipeline's output is checked on the host against the closed form of
 * the kernel's LCG steps.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/kernels.h"
#include "../kernels/pattern.h"
#include "../src/bench.h"
#include "../src/verify.h"

#define MAX_STREAMS 16
#define MAX_LIST 8

enum host_kind { PINNED, PAGEABLE };
static const char *const kind_name[] = { "pinned", "pageable" };

struct overlap {
	struct hmb_ctx *ctx;
	size_t size;
	enum host_kind kind;
	uint32_t *in, *out;        /* host buffers */
	uint32_t *dev, *dev2;      /* device buffers (dev2: bidirectional) */
	hipStream_t streams[MAX_STREAMS];
	hipEvent_t start, stop, done[MAX_STREAMS];
	int reps, warmup;
	uint32_t seed;
};

/* The affine map x -> a*x + c applied `iters` times, in closed form. */
static void lcg_power(int iters, uint32_t *a_out, uint32_t *c_out)
{
	uint32_t a = 1, c = 0, sa = HMB_LCG_A, sc = HMB_LCG_C;
	for (unsigned n = (unsigned)iters; n; n >>= 1) {
		if (n & 1) {
			c = sa * c + sc;
			a = sa * a;
		}
		sc = sa * sc + sc;
		sa = sa * sa;
	}
	*a_out = a;
	*c_out = c;
}

static size_t check_output(const struct overlap *o, int iters)
{
	uint32_t a, c;
	size_t bad = 0;

	lcg_power(iters, &a, &c);
	for (size_t i = 0; i < o->size / 4; i++)
		bad += o->out[i] != a * hmb_pattern(i, o->seed) + c;
	return bad;
}

static double elapsed(hipEvent_t a, hipEvent_t b)
{
	float ms = 0;
	return hipEventElapsedTime(&ms, a, b) == hipSuccess ? ms * 1e-3 : -1;
}

/* One pass of the pipeline: C chunks over S streams. S = C = 1 is serial. */
static int pipeline_once(struct overlap *o, int iters, int streams, int chunks, double *seconds)
{
	size_t words = o->size / 4, per = (words + (size_t)chunks - 1) / (size_t)chunks;

	HMB_CHECK(hipEventRecord(o->start, o->streams[0]));
	for (int s = 1; s < streams; s++)
		HMB_CHECK(hipStreamWaitEvent(o->streams[s], o->start, 0));
	for (int k = 0; k < chunks; k++) {
		size_t first = (size_t)k * per, n = first >= words ? 0 : words - first;
		hipStream_t st = o->streams[k % streams];
		if (n > per)
			n = per;
		if (!n)
			break;
		HMB_CHECK(hipMemcpyAsync(o->dev + first, o->in + first, n * 4, hipMemcpyHostToDevice,
					 st));
		HMB_CHECK(hmb_launch_lcg(o->dev + first, n, iters, st));
		HMB_CHECK(hipMemcpyAsync(o->out + first, o->dev + first, n * 4,
					 hipMemcpyDeviceToHost, st));
	}
	for (int s = 1; s < streams; s++) {
		HMB_CHECK(hipEventRecord(o->done[s], o->streams[s]));
		HMB_CHECK(hipStreamWaitEvent(o->streams[0], o->done[s], 0));
	}
	HMB_CHECK(hipEventRecord(o->stop, o->streams[0]));
	HMB_CHECK(hipEventSynchronize(o->stop));
	*seconds = elapsed(o->start, o->stop);
	return 0;
fail:
	return -1;
}

/* Time the pipeline into r; returns its median, or -1. */
static double measure_pipeline(struct overlap *o, struct hmb_record *r, int iters, int streams,
			       int chunks)
{
	struct hmb_stats st;
	double t;

	for (int i = 0; i < o->warmup; i++)
		if (pipeline_once(o, iters, streams, chunks, &t))
			return -1;
	for (int i = 0; i < o->reps; i++) {
		if (pipeline_once(o, iters, streams, chunks, &t))
			return -1;
		hmb_sample(r, t);
	}
	memset(o->out, 0, o->size);
	if (pipeline_once(o, iters, streams, chunks, &t))
		return -1;
	if (check_output(o, iters)) {
		hmb_set_error("verification failed: pipeline output differs from %d LCG steps of "
			      "the input", iters);
		return -1;
	}
	hmb_observe_bool(r, "verified", 1);
	hmb_stats_compute(r->samples, r->nsamples, &st);
	return st.median;
}

/* One part alone (copies h2d + d2h, or the kernel): its median time. */
static double measure_part(struct overlap *o, struct hmb_record *r, int iters)
{
	struct hmb_stats st;
	hipStream_t s = o->streams[0];

	for (int i = 0; i < o->warmup + o->reps; i++) {
		HMB_CHECK(hipEventRecord(o->start, s));
		if (iters > 0) {
			HMB_CHECK(hmb_launch_lcg(o->dev, o->size / 4, iters, s));
		} else {
			HMB_CHECK(hipMemcpyAsync(o->dev, o->in, o->size, hipMemcpyHostToDevice, s));
			HMB_CHECK(hipMemcpyAsync(o->out, o->dev, o->size, hipMemcpyDeviceToHost, s));
		}
		HMB_CHECK(hipEventRecord(o->stop, s));
		HMB_CHECK(hipEventSynchronize(o->stop));
		if (i >= o->warmup)
			hmb_sample(r, elapsed(o->start, o->stop));
	}
	hmb_stats_compute(r->samples, r->nsamples, &st);
	return st.median;
fail:
	return -1;
}

static void common_params(struct overlap *o, struct hmb_record *r, int iters, const char *load)
{
	hmb_param_num(r, "size", (double)o->size);
	hmb_param_str(r, "host_memory", kind_name[o->kind]);
	hmb_param_num(r, "iters", iters);
	if (load)
		hmb_param_str(r, "load", load);
}

static void run_load(struct overlap *o, int iters, const char *load, const int *streams,
		     int nstreams, const int *chunks, int nchunks)
{
	struct hmb_ctx *ctx = o->ctx;
	struct hmb_record *r;
	double copy, kernel, serial, ideal;
	char tag[32];

	/* Calibrated loads are named by what they are, so that systems whose
	 * calibration differs still compare case by case. */
	if (load)
		snprintf(tag, sizeof(tag), "%s", load);
	else
		snprintf(tag, sizeof(tag), "iters=%d", iters);

	r = hmb_case(ctx, "copy-only/%s", kind_name[o->kind]);
	common_params(o, r, 0, NULL);
	hmb_record_bytes(r, 2.0 * (double)o->size);
	copy = measure_part(o, r, 0);
	if (copy < 0)
		hmb_case_failed(r);
	hmb_commit(ctx, r);

	r = hmb_case(ctx, "kernel-only/%s", tag);
	common_params(o, r, iters, load);
	kernel = measure_part(o, r, iters);
	if (kernel < 0)
		hmb_case_failed(r);
	hmb_commit(ctx, r);
	if (copy < 0 || kernel < 0)
		return;
	ideal = copy > kernel ? copy : kernel;

	r = hmb_case(ctx, "serial/%s/%s", kind_name[o->kind], tag);
	common_params(o, r, iters, load);
	hmb_param_num(r, "streams", 1);
	hmb_param_num(r, "chunks", 1);
	hmb_record_bytes(r, 2.0 * (double)o->size);
	serial = measure_pipeline(o, r, iters, 1, 1);
	if (serial < 0)
		hmb_case_failed(r);
	hmb_metric(r, "copy_s", copy, "s");
	hmb_metric(r, "kernel_s", kernel, "s");
	hmb_commit(ctx, r);
	if (serial < 0)
		return;

	for (int si = 0; si < nstreams; si++)
		for (int ci = 0; ci < nchunks && !hmb_interrupted(); ci++) {
			double t;
			if (chunks[ci] < streams[si])
				continue; /* some streams would stay idle */
			r = hmb_case(ctx, "pipeline/%s/%s", kind_name[o->kind], tag);
			common_params(o, r, iters, load);
			hmb_param_num(r, "streams", streams[si]);
			hmb_param_num(r, "chunks", chunks[ci]);
			hmb_record_bytes(r, 2.0 * (double)o->size);
			t = measure_pipeline(o, r, iters, streams[si], chunks[ci]);
			if (t < 0) {
				hmb_case_failed(r);
			} else {
				hmb_metric(r, "speedup", serial / t, "x");
				hmb_metric(r, "ideal_speedup", serial / ideal, "x");
				/* Only where there is something to hide: with a part under
				 * 10% of the serial time the ratio is noise over a tiny
				 * denominator. */
				if (serial - ideal > 0.1 * serial)
					hmb_metric(r, "overlap_efficiency",
						   (serial - t) / (serial - ideal), "ratio");
			}
			hmb_commit(ctx, r);
		}
}

/* h2d and d2h at the same time on two streams, versus one after the other. */
static void run_bidirectional(struct overlap *o)
{
	struct hmb_ctx *ctx = o->ctx;
	struct hmb_record *serial = hmb_case(ctx, "bidirectional/one-after-other");
	struct hmb_record *both = hmb_case(ctx, "bidirectional/concurrent");
	struct hmb_record *r = serial;
	struct hmb_stats a, b;
	unsigned long long bad = 0;
	hipStream_t s0 = o->streams[0], s1 = o->streams[1];

	hmb_fill_host(o->in, o->size, o->seed + 1);
	HMB_CHECK(hmb_launch_fill(o->dev2, 0, o->size / 4, o->seed + 2, s0));
	HMB_CHECK(hipStreamSynchronize(s0));
	for (int mode = 0; mode < 2; mode++) {
		r = mode ? both : serial;
		hmb_param_num(r, "size", (double)o->size);
		hmb_param_str(r, "host_memory", kind_name[o->kind]);
		hmb_param_num(r, "async_engine_count", ctx->dev->async_engines);
		hmb_record_bytes(r, 2.0 * (double)o->size);
		for (int i = 0; i < o->warmup + o->reps; i++) {
			hipStream_t second = mode ? s1 : s0;
			HMB_CHECK(hipEventRecord(o->start, s0));
			HMB_CHECK(hipStreamWaitEvent(s1, o->start, 0));
			HMB_CHECK(hipMemcpyAsync(o->dev, o->in, o->size, hipMemcpyHostToDevice, s0));
			HMB_CHECK(hipMemcpyAsync(o->out, o->dev2, o->size, hipMemcpyDeviceToHost,
						 second));
			HMB_CHECK(hipEventRecord(o->done[1], s1));
			HMB_CHECK(hipStreamWaitEvent(s0, o->done[1], 0));
			HMB_CHECK(hipEventRecord(o->stop, s0));
			HMB_CHECK(hipEventSynchronize(o->stop));
			if (i >= o->warmup)
				hmb_sample(r, elapsed(o->start, o->stop));
		}
	}
	HMB_CHECK(hmb_check_device(o->dev, 0, o->size, o->seed + 1, 0, &bad));
	if (bad || hmb_check_host(o->out, o->size, o->seed + 2, 0)) {
		hmb_set_error("verification failed: a bidirectional copy delivered wrong data");
		goto fail;
	}
	hmb_observe_bool(serial, "verified", 1);
	hmb_observe_bool(both, "verified", 1);
	hmb_stats_compute(serial->samples, serial->nsamples, &a);
	hmb_stats_compute(both->samples, both->nsamples, &b);
	hmb_metric(both, "speedup", a.median / b.median, "x");
	hmb_commit(ctx, serial);
	hmb_commit(ctx, both);
	return;
fail:
	hmb_case_failed(r);
	hmb_commit(ctx, serial);
	hmb_commit(ctx, both);
}

/* Kernel steps per word that make the kernel take as long as the copies. */
static int balanced_iters(struct overlap *o)
{
	const int probe = 256;
	struct hmb_record *tmp = hmb_record_new("overlap", "calibration");
	double copy = measure_part(o, tmp, 0), kernel;
	double iters;

	tmp->nsamples = 0;
	kernel = measure_part(o, tmp, probe);
	hmb_record_free(tmp);
	if (copy <= 0 || kernel <= 0)
		return -1;
	iters = probe * copy / kernel;
	return iters < 1 ? 1 : iters > 1e6 ? 1000000 : (int)iters;
}

static int alloc_host(struct overlap *o)
{
	if (o->kind == PINNED) {
		HMB_CHECK(hipHostMalloc((void **)&o->in, o->size, hipHostMallocDefault));
		HMB_CHECK(hipHostMalloc((void **)&o->out, o->size, hipHostMallocDefault));
	} else {
		o->in = aligned_alloc(4096, o->size);
		o->out = aligned_alloc(4096, o->size);
		if (!o->in || !o->out) {
			hmb_set_error("cannot allocate %s of pageable host memory", hmb_sz(o->size));
			return -1;
		}
		memset(o->out, 0, o->size);
	}
	return 0;
fail:
	return -1;
}

static void free_host(struct overlap *o)
{
	if (o->kind == PINNED) {
		if (o->in)
			hipHostFree(o->in);
		if (o->out)
			hipHostFree(o->out);
	} else {
		free(o->in);
		free(o->out);
	}
	o->in = o->out = NULL;
}

static int run(struct hmb_ctx *ctx)
{
	struct overlap o;
	struct hmb_sizes sizes;
	int streams[MAX_LIST], chunks[MAX_LIST], iters[MAX_LIST];
	int nstreams = hmb_opt_ints(ctx, "streams", "1,2,4", streams, MAX_LIST);
	int nchunks = hmb_opt_ints(ctx, "chunks", "2,4,8,16", chunks, MAX_LIST);
	int niters = hmb_opt_ints(ctx, "iters", "0", iters, MAX_LIST);
	int rc = -1;

	memset(&o, 0, sizeof(o));
	o.ctx = ctx;
	o.reps = hmb_reps(ctx, 5);
	o.warmup = hmb_warmup(ctx, 1);
	o.seed = 77;
	for (int i = 0; i < nstreams; i++)
		if (streams[i] > MAX_STREAMS)
			streams[i] = MAX_STREAMS;
	hmb_sizes_or(ctx, &sizes, "256M", "32M");
	for (int s = 0; s < MAX_STREAMS; s++) {
		HMB_CHECK(hipStreamCreateWithFlags(&o.streams[s], hipStreamNonBlocking));
		HMB_CHECK(hipEventCreate(&o.done[s]));
	}
	HMB_CHECK(hipEventCreate(&o.start));
	HMB_CHECK(hipEventCreate(&o.stop));

	for (size_t si = 0; si < sizes.n && !hmb_interrupted(); si++) {
		o.size = sizes.v[si];
		if (3 * o.size + (256u << 20) > hmb_device_free_mem()) {
			hmb_skip(ctx, "all", o.size, "needs 2 device buffers of %s; too little "
				 "free device memory", hmb_sz(o.size));
			continue;
		}
		HMB_CHECK(hipMalloc((void **)&o.dev, o.size));
		HMB_CHECK(hipMalloc((void **)&o.dev2, o.size));
		int calibrated = 0; /* balanced load: calibrated on pinned memory, reused for pageable */
		for (int k = PINNED; k <= PAGEABLE && !hmb_interrupted(); k++) {
			int loads[3], nloads = 0;
			const char *names[3];
			o.kind = (enum host_kind)k;
			if (alloc_host(&o))
				goto fail;
			hmb_fill_host(o.in, o.size, o.seed);
			if (niters == 1 && iters[0] == 0) {
				if (k == PINNED && (calibrated = balanced_iters(&o)) < 0)
					goto fail;
				loads[0] = 1, names[0] = "copy-bound";
				loads[1] = calibrated, names[1] = "balanced";
				loads[2] = 4 * calibrated, names[2] = "compute-bound";
				nloads = 3;
			} else {
				for (int i = 0; i < niters && i < 3; i++)
					loads[i] = iters[i], names[i] = NULL, nloads++;
			}
			for (int l = 0; l < nloads && !hmb_interrupted(); l++)
				run_load(&o, loads[l], names[l], streams, nstreams, chunks, nchunks);
			if (k == PINNED && !hmb_interrupted())
				run_bidirectional(&o);
			free_host(&o);
		}
		hipFree(o.dev);
		hipFree(o.dev2);
		o.dev = o.dev2 = NULL;
	}
	rc = 0;
fail:
	free_host(&o);
	hipFree(o.dev);
	hipFree(o.dev2);
	for (int s = 0; s < MAX_STREAMS; s++) {
		if (o.streams[s])
			hipStreamDestroy(o.streams[s]);
		if (o.done[s])
			hipEventDestroy(o.done[s]);
	}
	if (o.start)
		hipEventDestroy(o.start);
	if (o.stop)
		hipEventDestroy(o.stop);
	return rc;
}

static const struct hmb_opt_decl options[] = {
	{ "streams", HMB_OPT_INTS, "LIST", "stream counts of the pipeline (default 1,2,4; max 16)",
	  1, MAX_STREAMS, MAX_LIST },
	{ "chunks", HMB_OPT_INTS, "LIST", "chunk counts of the pipeline (default 2,4,8,16)",
	  1, 1024, MAX_LIST },
	{ "iters", HMB_OPT_INTS, "LIST",
	  "kernel LCG steps per word, up to 3 values (default: calibrated copy-bound, "
	  "balanced and compute-bound loads)", 1, 1000000, 3 },
	{ NULL, 0, NULL, NULL, 0, 0, 0 },
};

const struct hmb_bench hmb_bench_overlap = {
	.name = "overlap",
	.summary = "async copies overlapping kernels across streams: pinned vs pageable, "
		   "bidirectional copies",
	.needs = 0,
	.options = options,
	.help = "--sizes: bytes moved through the pipeline (default 256M; --quick 32M).\n"
		"speedup = serial / pipelined time; overlap_efficiency = (serial - pipelined) /\n"
		"(serial - max(copy, kernel)): 1 hides the shorter part completely. Pageable\n"
		"memory does not overlap. bidirectional/concurrent's speedup near 2 means\n"
		"separate copy engines. Every pipeline's output is verified on the host.",
	.run = run,
};
