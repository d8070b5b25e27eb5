/*
 * overlap - do copies really overlap with kernels?
 *
 * A pipeline moves N bytes host to device, runs a kernel on them and moves
 * them back. It runs once serially on one stream (the baseline), then split
 * into C chunks over S streams (chunk k on stream k mod S; by default 2 and 4
 * streams, 2 to 16 chunks; --streams 1,2,4 adds the one-stream pipeline,
 * which chunks the work but cannot overlap it) with pinned host memory; with
 * pageable host memory only the most streams and chunks asked for, and of
 * the calibrated loads only the balanced one: pageable copies are staged by
 * the host and overlap nothing, whatever the shape. The kernel's cost is
 * tunable (LCG steps per word, --iters); by default it is calibrated so that
 * one load is copy-bound (1 step), one balanced (kernel time = h2d + d2h
 * time, within a factor sqrt(2): the steps are a power of two, so that the
 * copies' noise from one process to the next seldom changes the work and
 * runs and documents of one machine time the same kernel) and one
 * compute-bound (4x the balanced steps). params.iters says the steps;
 * kernel-only/balanced against h2d-only + d2h-only says how near balance is.
 *
 * Every timed region is one pass of the work between HIP events on the
 * first stream (the other streams wait for its start and join it at the
 * end): "h2d-only", "d2h-only" and "kernel-only/<load>" are the three
 * stages alone; "serial" is all three on one stream; "pipeline" the chunked
 * version.
 *
 * Reading the numbers: speedup = serial / pipeline. The ideal is the
 * pipeline's bound: with two or more copy engines h2d, kernel and d2h can
 * all run at once, so ideal = max(h2d, kernel, d2h); with one copy engine
 * the copies share it: ideal = max(h2d + d2h, kernel) (params.ideal_bound
 * says which). The engine count comes from the memory model (src/system/memmodel.h:
 * asyncEngineCount on NVIDIA, the KFD topology's SDMA engines on AMD, where
 * asyncEngineCount counts queues); where it is unknown the one-engine bound
 * is used and ideal_bound says so. On AMD streams share GPU_MAX_HW_QUEUES
 * hardware queues (params.hw_queues): a pipeline with more streams than
 * queues cannot run them all at once, and says so on stderr and in
 * observed.queue_warning. overlap_efficiency = (serial - pipeline) / (serial - ideal):
 * 1 hides everything the bound allows, 0 nothing; it is left out where
 * less than 10% of the serial time can be hidden. hipMemcpyAsync from
 * pageable memory is staged by the host and does not overlap.
 * "bidirectional" runs an h2d and a d2h copy at once on two streams versus
 * one after the other: a speedup near 2 means separate copy engines.
 * Every output is checked after timing against the closed form of the
 * kernel's LCG steps.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/overlap/overlap.h"
#include "engine/measure.h"
#include "engine/parallel.h"
#include "engine/verify.h"
#include "kernels/kernels.h"
#include "kernels/pattern.h"

#define MAX_STREAMS 16
#define MAX_LIST 8
#define SEED 77u
#define SEED2 78u

enum stage { H2D_ONLY, D2H_ONLY, KERNEL_ONLY, PIPELINE, BIDIR_SERIAL, BIDIR_CONCURRENT };

struct overlap {
	size_t size;
	enum hmb_mem_kind kind;   /* pinned or pageable */
	uint32_t *in, *out;       /* host buffers */
	uint32_t *dev, *dev2;     /* device buffers (dev2: bidirectional) */
	hipEvent_t fork;
	struct hmb_lane lane[MAX_STREAMS - 1]; /* streams 1, 2, ...; stream 0 is the engine's */
};

struct overlap_case {
	struct overlap *o;
	enum stage stage;
	int iters, streams, chunks;
	long ops_done;            /* kernel-only: LCG passes applied to dev */
};

/* The affine map x -> a*x + c applied `iters` times, in closed form. */
static void lcg_power(uint64_t iters, uint32_t *a_out, uint32_t *c_out)
{
	uint32_t a = 1, c = 0, sa = HMB_LCG_A, sc = HMB_LCG_C;
	for (uint64_t n = iters; n; n >>= 1) {
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

static size_t check_lcg(const uint32_t *p, size_t words, uint32_t seed, uint64_t steps)
{
	uint32_t a, c;
	lcg_power(steps, &a, &c);
	return hmb_check_host_affine(p, words * 4, seed, a, c);
}

/* Stream s of a pipeline: 0 is the engine's, which the others fork from and join. */
static hipStream_t stream_of(const struct overlap *o, hipStream_t s0, int s)
{
	return s == 0 ? s0 : o->lane[s - 1].stream;
}

static int pipeline(struct overlap *o, hipStream_t s0, int iters, int streams, int chunks)
{
	size_t words = o->size / 4, per = (words + (size_t)chunks - 1) / (size_t)chunks;

	if (hmb_fork(s0, o->fork, o->lane, streams - 1))
		return -1;
	for (int k = 0; k < chunks; k++) {
		size_t first = (size_t)k * per, n = first >= words ? 0 : words - first;
		hipStream_t st = stream_of(o, s0, k % streams);
		if (n > per)
			n = per;
		if (!n)
			break;
		HMB_TRY(hipMemcpyAsync(o->dev + first, o->in + first, n * 4, hipMemcpyHostToDevice,
				       st));
		HMB_TRY(hmb_launch_lcg(o->dev + first, n, iters, st));
		HMB_TRY(hipMemcpyAsync(o->out + first, o->dev + first, n * 4,
				       hipMemcpyDeviceToHost, st));
	}
	return hmb_join(s0, -1, o->lane, streams - 1);
}

static int op(struct hmb_ctx *ctx, void *st, hipStream_t s0, long i)
{
	struct overlap_case *k = st;
	struct overlap *o = k->o;

	(void)ctx;
	(void)i;
	switch (k->stage) {
	case H2D_ONLY:
		HMB_TRY(hipMemcpyAsync(o->dev, o->in, o->size, hipMemcpyHostToDevice, s0));
		break;
	case D2H_ONLY:
		HMB_TRY(hipMemcpyAsync(o->out, o->dev, o->size, hipMemcpyDeviceToHost, s0));
		break;
	case KERNEL_ONLY:
		HMB_TRY(hmb_launch_lcg(o->dev, o->size / 4, k->iters, s0));
		k->ops_done++;
		break;
	case PIPELINE:
		return pipeline(o, s0, k->iters, k->streams, k->chunks);
	case BIDIR_SERIAL:
	case BIDIR_CONCURRENT: {
		hipStream_t second = stream_of(o, s0, k->stage == BIDIR_CONCURRENT);
		if (hmb_fork(s0, o->fork, o->lane, 1))
			return -1;
		HMB_TRY(hipMemcpyAsync(o->dev, o->in, o->size, hipMemcpyHostToDevice, s0));
		HMB_TRY(hipMemcpyAsync(o->out, o->dev2, o->size, hipMemcpyDeviceToHost, second));
		return hmb_join(s0, -1, o->lane, 1);
	}
	}
	return 0;
}

/* Inputs carry the pattern (filled once per host buffer, and never
 * written by the timed work), outputs are poisoned. */
static int setup(struct hmb_ctx *ctx, void *st)
{
	struct overlap_case *k = st;
	struct overlap *o = k->o;

	(void)ctx;
	hmb_poison_host(o->out, o->size, 0xA5);
	HMB_TRY(hipMemset(o->dev, 0xA5, o->size));
	if (k->stage == D2H_ONLY || k->stage == KERNEL_ONLY)
		HMB_TRY(hmb_launch_fill(o->dev, 0, o->size / 4, SEED, 0));
	if (k->stage == BIDIR_SERIAL || k->stage == BIDIR_CONCURRENT)
		HMB_TRY(hmb_launch_fill(o->dev2, 0, o->size / 4, SEED2, 0));
	HMB_TRY(hipDeviceSynchronize());
	k->ops_done = 0;
	return 0;
}

static int verify(struct hmb_ctx *ctx, void *st)
{
	struct overlap_case *k = st;
	struct overlap *o = k->o;
	size_t words = o->size / 4, bad = 0;
	unsigned long long dbad = 0;

	(void)ctx;
	switch (k->stage) {
	case H2D_ONLY:
		HMB_TRY(hmb_check_device(o->dev, 0, o->size, SEED, 0, &dbad));
		bad = dbad;
		break;
	case D2H_ONLY:
		bad = hmb_check_host(o->out, o->size, SEED, 0);
		break;
	case KERNEL_ONLY:
		HMB_TRY(hipMemcpy(o->out, o->dev, o->size, hipMemcpyDeviceToHost));
		bad = check_lcg(o->out, words, SEED, (uint64_t)k->ops_done * (uint64_t)k->iters);
		break;
	case PIPELINE:
		bad = check_lcg(o->out, words, SEED, (uint64_t)k->iters);
		break;
	case BIDIR_SERIAL:
	case BIDIR_CONCURRENT:
		HMB_TRY(hmb_check_device(o->dev, 0, o->size, SEED, 0, &dbad));
		bad = dbad + hmb_check_host(o->out, o->size, SEED2, 0);
		break;
	}
	return hmb_verify_result(bad, "words differ from what the timed work should have produced");
}

static const char *kind_name(const struct overlap *o)
{
	return hmb_kind_name(o->kind);
}

/* Measure one stage into r; returns its median seconds, or -1. */
static double measure(struct hmb_ctx *ctx, struct overlap_case *k, struct hmb_record *r,
		      const char *what)
{
	int pageable = k->o->kind == HMB_KIND_PAGEABLE;
	struct hmb_case c = {
		.what = what,
		/* pageable pipelines vary more from run to run: more samples */
		.timing = { .clock = HMB_CLOCK_EVENTS, .reps = pageable ? 15 : 5, .warmup = 1 },
		.ops = { setup, NULL, op, verify, NULL },
		.state = k,
	};

	hmb_param_num(r, "size", (double)k->o->size);
	if (k->stage != KERNEL_ONLY)
		hmb_param_str(r, "host_memory", kind_name(k->o));
	if (k->stage == KERNEL_ONLY || k->stage == PIPELINE)
		hmb_param_geometry(r, k->o->size / 4 / (size_t)k->chunks, HMB_GRID_CAPPED);
	hmb_measure(ctx, r, &c);
	return hmb_median(r);
}

/* A baseline (a stage alone, the serial run): measured even where --case
 * leaves it out, since the pipelines' figures are relative to it; kept
 * only where selected. Its median, or -1. */
static double measure_case(struct hmb_ctx *ctx, struct overlap_case *k, struct hmb_record *r,
			   const char *what)
{
	double median = measure(ctx, k, r, what);
	hmb_commit(ctx, r);
	return median;
}

struct parts {
	double h2d, d2h, kernel, serial;
	int engines;
};

static double ideal_of(const struct parts *p, const char **bound)
{
	double copies = p->engines >= 2 ? (p->h2d > p->d2h ? p->h2d : p->d2h) : p->h2d + p->d2h;
	*bound = p->engines >= 2 ? "max(h2d, kernel, d2h): separate copy engines"
		 : p->engines < 0 ? "max(h2d + d2h, kernel): copy engine count unknown, one "
				    "engine assumed"
				  : "max(h2d + d2h, kernel): one copy engine";
	return copies > p->kernel ? copies : p->kernel;
}

/* The copy engines and hardware queues the figures depend on (memmodel.h). */
static void engine_params(const struct hmb_ctx *ctx, struct hmb_record *r)
{
	const struct hmb_memmodel *m = &ctx->dev->model;

	if (m->copy_engines >= 0)
		hmb_context_num(r, "copy_engines", m->copy_engines);
	else
		hmb_context_str(r, "copy_engines", "unknown");
	hmb_context_str(r, "copy_engines_source", m->copy_engines_source);
	if (m->hw_queues > 0)
		hmb_context_num(r, "hw_queues", m->hw_queues);
	else
		hmb_context_str(r, "hw_queues", m->hw_queues_source);
}

/* Streams beyond the hardware queues: warned once per stream count on
 * stderr (warned[] remembers), and on every record it concerns. */
static void queue_warning(const struct hmb_ctx *ctx, struct hmb_record *r, int streams,
			  int *warned)
{
	char msg[320];

	if (!hmb_queue_warning(&ctx->dev->model, streams, msg, sizeof(msg)))
		return;
	if (!*warned) {
		fprintf(stderr, "[overlap] warning: %s\n", msg);
		*warned = 1;
	}
	hmb_observe_str(r, "queue_warning", msg);
}

/* A named load's steps are calibrated to the GPU: context; a load given as
 * steps (--iters) is the workload. */
static void load_params(struct hmb_record *r, int iters, const char *load)
{
	(load ? hmb_context_num : hmb_param_num)(r, "iters", iters);
	if (load)
		hmb_param_str(r, "load", load);
}

/* The kernel alone (measured once per load, in the pinned pass), the serial
 * baseline and every pipeline shape of one load. */
static void run_load(struct hmb_ctx *ctx, struct overlap *o, struct parts *p, int iters,
		     const char *load, const int *streams, int nstreams, const int *chunks,
		     int nchunks)
{
	struct overlap_case k = { o, KERNEL_ONLY, iters, 1, 1, 0 };
	struct hmb_record *r;
	char tag[32], what[160];
	const char *bound;
	double ideal;
	static int warned[MAX_STREAMS + 1];

	/* Calibrated loads are named by what they are, so that systems whose
	 * calibration differs still compare case by case. */
	if (load)
		snprintf(tag, sizeof(tag), "%s", load);
	else
		snprintf(tag, sizeof(tag), "iters=%d", iters);

	if (o->kind == HMB_KIND_PINNED) {
		r = hmb_case_record(ctx, "kernel-only/%s", tag);
		load_params(r, iters, load);
		snprintf(what, sizeof(what), "LCG kernel, %d steps per word", iters);
		p->kernel = measure_case(ctx, &k, r, what);
	}

	k.stage = PIPELINE;
	r = hmb_case_record(ctx, "serial/%s/%s", kind_name(o), tag);
	load_params(r, iters, load);
	hmb_param_num(r, "streams", 1);
	hmb_param_num(r, "chunks", 1);
	hmb_record_bytes(r, 2.0 * (double)o->size);
	p->serial = measure_case(ctx, &k, r, "hipMemcpyAsync h2d, LCG kernel, hipMemcpyAsync "
				 "d2h on one stream");
	if (p->serial <= 0 || p->kernel <= 0 || p->h2d <= 0 || p->d2h <= 0)
		return;
	ideal = ideal_of(p, &bound);

	for (int si = 0; si < nstreams; si++)
		for (int ci = 0; ci < nchunks && !hmb_interrupted(); ci++) {
			double t;
			if (chunks[ci] < streams[si])
				continue; /* some streams would stay idle */
			k.streams = streams[si];
			k.chunks = chunks[ci];
			r = hmb_case_record(ctx, "pipeline/%s/%s", kind_name(o), tag);
			load_params(r, iters, load);
			hmb_param_num(r, "streams", streams[si]);
			hmb_param_num(r, "chunks", chunks[ci]);
			hmb_context_str(r, "ideal_bound", bound);
			engine_params(ctx, r);
			hmb_record_bytes(r, 2.0 * (double)o->size);
			snprintf(what, sizeof(what), "%d chunks of (hipMemcpyAsync h2d, LCG kernel, "
				 "hipMemcpyAsync d2h) over %d streams", chunks[ci], streams[si]);
			if (!hmb_keep_selected(ctx, r))
				continue;
			queue_warning(ctx, r, streams[si], &warned[streams[si]]);
			t = measure(ctx, &k, r, what);
			if (t > 0) {
				hmb_metric(r, "speedup", p->serial / t, "x");
				hmb_metric(r, "ideal_speedup", p->serial / ideal, "x");
				hmb_metric(r, "serial_s", p->serial, "s");
				hmb_metric(r, "ideal_s", ideal, "s");
				/* Only where there is something to hide: under 10% of the
				 * serial time the ratio is noise over a tiny denominator. */
				if (p->serial - ideal > 0.1 * p->serial)
					hmb_metric(r, "overlap_efficiency",
						   (p->serial - t) / (p->serial - ideal), "ratio");
			}
			hmb_commit(ctx, r);
		}
}

/* h2d and d2h at the same time on two streams, versus one after the other. */
static void run_bidirectional(struct hmb_ctx *ctx, struct overlap *o)
{
	struct overlap_case k = { o, BIDIR_SERIAL, 0, 2, 1, 0 };
	struct hmb_record *r = hmb_case_record(ctx, "bidirectional/one-after-other");
	double serial, both;

	hmb_context_num(r, "async_engine_count", ctx->dev->async_engines);
	engine_params(ctx, r);
	hmb_record_bytes(r, 2.0 * (double)o->size);
	serial = measure_case(ctx, &k, r, "hipMemcpyAsync h2d then hipMemcpyAsync d2h, one "
			      "stream");
	k.stage = BIDIR_CONCURRENT;
	r = hmb_case_record(ctx, "bidirectional/concurrent");
	hmb_context_num(r, "async_engine_count", ctx->dev->async_engines);
	engine_params(ctx, r);
	hmb_record_bytes(r, 2.0 * (double)o->size);
	if (!hmb_keep_selected(ctx, r))
		return;
	both = measure(ctx, &k, r, "hipMemcpyAsync h2d and hipMemcpyAsync d2h on two streams");
	if (serial > 0 && both > 0)
		hmb_metric(r, "speedup", serial / both, "x");
	hmb_commit(ctx, r);
}

static void run_copies(struct hmb_ctx *ctx, struct overlap *o, struct parts *p)
{
	struct overlap_case k = { o, H2D_ONLY, 0, 1, 1, 0 };
	struct hmb_record *r = hmb_case_record(ctx, "h2d-only/%s", kind_name(o));

	hmb_record_bytes(r, (double)o->size);
	p->h2d = measure_case(ctx, &k, r, "hipMemcpyAsync h2d");
	k.stage = D2H_ONLY;
	r = hmb_case_record(ctx, "d2h-only/%s", kind_name(o));
	hmb_record_bytes(r, (double)o->size);
	p->d2h = measure_case(ctx, &k, r, "hipMemcpyAsync d2h");
}

int overlap_balanced_steps(int probe, double copies_s, double kernel_s)
{
	double ratio = (double)probe * copies_s / kernel_s;
	int e = ratio > 1 ? (int)lround(log2(ratio)) : 0;

	return 1 << (e > OVERLAP_MAX_STEPS_LOG2 ? OVERLAP_MAX_STEPS_LOG2 : e);
}

/* The balanced load's steps per word, from a probe of the kernel against this
 * process's h2d + d2h medians (overlap_balanced_steps). */
static int balanced_iters(struct hmb_ctx *ctx, struct overlap *o, const struct parts *p)
{
	const int probe = 256;
	struct overlap_case k = { o, KERNEL_ONLY, probe, 1, 1, 0 };
	struct hmb_record *r = hmb_record_new("overlap", "calibration");
	double kernel = measure(ctx, &k, r, "LCG kernel (calibration)");
	int failed = kernel <= 0 && r->reason;

	if (kernel <= 0 || p->h2d <= 0 || p->d2h <= 0) {
		hmb_set_error("calibration of the balanced load failed%s%s", failed ? ": " : "",
			      failed ? r->reason : "");
		hmb_record_free(r);
		return -1;
	}
	hmb_record_free(r);
	return overlap_balanced_steps(probe, p->h2d + p->d2h, kernel);
}

static int largest(const int *v, int n)
{
	int most = v[0];
	for (int i = 1; i < n; i++)
		if (v[i] > most)
			most = v[i];
	return most;
}

static int run(struct hmb_ctx *ctx)
{
	struct overlap o;
	struct hmb_sizes sizes;
	int streams[MAX_LIST], chunks[MAX_LIST], iters[MAX_LIST];
	int nstreams = hmb_opt_ints(ctx, "streams", "2,4", streams, MAX_LIST);
	int nchunks = hmb_opt_ints(ctx, "chunks", "2,4,8,16", chunks, MAX_LIST);
	int niters = hmb_opt_ints(ctx, "iters", "0", iters, MAX_LIST);
	int calibrated = 0; /* balanced load: calibrated on pinned memory, reused for pageable */
	/* pageable memory: one pipeline, the most streams and chunks asked for */
	int most_streams = largest(streams, nstreams), most_chunks = largest(chunks, nchunks);

	memset(&o, 0, sizeof(o));
	for (int i = 0; i < nstreams; i++)
		if (streams[i] > MAX_STREAMS)
			streams[i] = MAX_STREAMS;
	hmb_sizes_or(ctx, &sizes, "256M", "32M");
	for (int s = 0; s < MAX_STREAMS - 1; s++) {
		o.lane[s].device = -1;
		if (!(o.lane[s].stream = hmb_stream_new(ctx)) ||
		    !(o.lane[s].join = hmb_event_new(ctx)))
			return -1;
	}
	if (!(o.fork = hmb_event_new(ctx)))
		return -1;

	for (size_t si = 0; si < sizes.n && !hmb_interrupted(); si++) {
		o.size = sizes.v[si];
		if (3 * o.size + (256u << 20) > hmb_device_free_mem()) {
			hmb_skip(ctx, "all", o.size, "needs 2 device buffers of %s; too little "
				 "free device memory", hmb_sz(o.size));
			continue;
		}
		if (!(o.dev = hmb_alloc(ctx, HMB_KIND_DEVICE, o.size)) ||
		    !(o.dev2 = hmb_alloc(ctx, HMB_KIND_DEVICE, o.size)))
			return -1;
		double kernel_median[3] = { -1, -1, -1 }; /* per load, from the pinned pass */
		for (int kk = 0; kk < 2 && !hmb_interrupted(); kk++) {
			struct parts p = { 0, 0, 0, 0, ctx->dev->model.copy_engines };
			int loads[3], nloads = 0;
			const char *names[3];

			o.kind = kk == 0 ? HMB_KIND_PINNED : HMB_KIND_PAGEABLE;
			if (!(o.in = hmb_alloc(ctx, o.kind, o.size)) ||
			    !(o.out = hmb_alloc(ctx, o.kind, o.size)))
				return -1;
			hmb_fill_host(o.in, o.size, SEED);
			run_copies(ctx, &o, &p);
			if (niters == 1 && iters[0] == 0) {
				if (kk == 0 && (calibrated = balanced_iters(ctx, &o, &p)) < 0)
					return -1;
				loads[0] = 1, names[0] = "copy-bound";
				loads[1] = calibrated, names[1] = "balanced";
				loads[2] = 4 * calibrated, names[2] = "compute-bound";
				nloads = 3;
			} else {
				for (int i = 0; i < niters && i < 3; i++)
					loads[i] = iters[i], names[i] = NULL, nloads++;
			}
			for (int l = 0; l < nloads && !hmb_interrupted(); l++) {
				/* pageable copies do not overlap: one load shows it */
				if (kk == 1 && nloads == 3 && l != 1)
					continue;
				p.kernel = kernel_median[l];
				if (kk == 0)
					run_load(ctx, &o, &p, loads[l], names[l], streams, nstreams,
						 chunks, nchunks);
				else
					run_load(ctx, &o, &p, loads[l], names[l], &most_streams, 1,
						 &most_chunks, 1);
				kernel_median[l] = p.kernel;
			}
			if (kk == 0 && !hmb_interrupted())
				run_bidirectional(ctx, &o);
			hmb_free(ctx, o.in);
			hmb_free(ctx, o.out);
		}
		hmb_free(ctx, o.dev);
		hmb_free(ctx, o.dev2);
	}
	return 0;
}

static const struct hmb_opt_decl options[] = {
	{ "streams", HMB_OPT_INTS, "LIST", "stream counts of the pipeline (default 2,4; max 16)",
	  1, MAX_STREAMS, MAX_LIST },
	{ "chunks", HMB_OPT_INTS, "LIST", "chunk counts of the pipeline (default 2,4,8,16)",
	  1, 1024, MAX_LIST },
	{ "iters", HMB_OPT_INTS, "LIST",
	  "kernel LCG steps per word, up to 3 values (default: calibrated copy-bound, "
	  "balanced and compute-bound loads)", 1, 1000000, 3 },
	{ NULL, 0, NULL, NULL, 0, 0, 0 },
};

static const char *const cases[] = {
	"h2d-only/pinned", "d2h-only/pinned", "h2d-only/pageable", "d2h-only/pageable",
	"kernel-only/copy-bound", "kernel-only/balanced", "kernel-only/compute-bound",
	"serial/pinned/copy-bound", "serial/pinned/balanced", "serial/pinned/compute-bound",
	"serial/pageable/balanced",
	"pipeline/pinned/copy-bound", "pipeline/pinned/balanced", "pipeline/pinned/compute-bound",
	"pipeline/pageable/balanced", "bidirectional/one-after-other",
	"bidirectional/concurrent", NULL,
};

/* Its figures on the summary's screen (its pinned copies both ways beside
 * memcpy's one way), and their peaks (engine/headline.h). */
static const struct hmb_headline headlines[] = {
	{ "pinned bidir", "bidirectional/concurrent", "size=max", "GB/s", NULL,
	  "h2d and d2h at once, pinned", .after = "pinned d2h" },
	{ "overlap efficiency", "pipeline/pinned/balanced", "streams=max,chunks=max",
	  "overlap_efficiency", NULL, "copies hidden (1: all)", NULL },
	{ .name = NULL },
};

static const struct hmb_case_peak peaks[] = {
	{ "bidirectional/concurrent", HMB_PEAK_LINK_BOTH },
	{ .kase = NULL },
};

/* Its headline's chart in the report (engine/chart.h). */
static const struct hmb_chart charts[] = {
	{ .kase = "pipeline/*", .figure = "overlap_efficiency", .x = "chunks", .xcount = "chunks",
	  .xlabel = "chunks (log2)", .line = "streams", .chart_parts = -1,
	  .what = "copies hidden against chunks", .ylabel = "overlap efficiency", .ylinear = 1,
	  .ref = 1, .ref_label = "1: every copy hidden behind the kernels" },
	{ .kase = NULL },
};

const struct hmb_bench hmb_bench_overlap = {
	.name = "overlap",
	.headlines = headlines,
	.peaks = peaks,
	.charts = charts,
	.charts_about = "overlap's efficiency against chunks, a line per streams",
	.summary = "async copies overlapping kernels across streams: pinned vs pageable, "
		   "bidirectional copies",
	.host_link = 1,
	.needs = 0,
	.options = options,
	.help = "--sizes: bytes moved through the pipeline (default 256M; --quick 32M).\n"
		"speedup = serial / pipelined time; overlap_efficiency = (serial - pipelined) /\n"
		"(serial - ideal), ideal = max(h2d, kernel, d2h) with two or more copy engines,\n"
		"else max(h2d + d2h, kernel) (also where the engine count is unknown): 1\n"
		"hides all the bound allows. params.copy_engines and hw_queues come from the\n"
		"memory model; more streams than hardware queues (AMD) are warned about on\n"
		"stderr and in observed.queue_warning. Pageable memory\n"
		"does not overlap. bidirectional/concurrent's speedup near 2 means separate\n"
		"copy engines. Every output is verified after timing.",
	.cases = cases,
	.run = run,
};
