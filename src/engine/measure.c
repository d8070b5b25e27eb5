/* measure.c - the measurement engine: warm-up, repetitions, clocks, latch, samples. */
#include "engine/measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fault.h"
#include "engine/latch.h"
#include "engine/report.h"
#include "engine/slow_samples.h"
#include "kernels/kernels.h"
#include "stats/stability.h"
#include "stats/stats.h"
#include "util/timing.h"
#include "util/util.h"

struct hmb_engine {
	hipEvent_t ev[HMB_LATCH_MAX_OPS + 1];
	struct hmb_latch latch;
};

/* The GPU's state after the samples of the case being measured. */
static struct hmb_gpu_trail trail;

static struct hmb_telemetry *telemetry_of(struct hmb_ctx *ctx)
{
	return ctx->report ? &ctx->report->telemetry : NULL;
}

/* The engine's events and latch, made once per module. Where that fails,
 * what was made goes at once, and the next case tries again. */
static int engine_ready(struct hmb_ctx *ctx)
{
	struct hmb_engine *e;
	size_t mark;

	if (ctx->engine)
		return 0;
	mark = hmb_owned_mark(ctx);
	e = hmb_xcalloc(1, sizeof(*e));
	for (int i = 0; i <= HMB_LATCH_MAX_OPS; i++)
		if (!(e->ev[i] = hmb_event_new(ctx)))
			goto fail;
	HMB_CHECK(hmb_latch_create(&e->latch));
	ctx->engine = e;
	return 0;
fail:
	hmb_latch_destroy(&e->latch);
	free(e);
	hmb_owned_release(ctx, mark);
	return -1;
}

/* Called by the runner when the module ends (events go with the context). */
void hmb_engine_free(struct hmb_ctx *ctx)
{
	hmb_gpu_trail_free(&trail);
	if (!ctx->engine)
		return;
	hmb_latch_destroy(&ctx->engine->latch);
	free(ctx->engine);
	ctx->engine = NULL;
}

/* HMB_CLOCK_REPORTED: what op() reported for the sample being measured. */
static double reported_s;
static int reported_n;

void hmb_op_seconds(double seconds)
{
	reported_s += seconds;
	reported_n++;
}

/* One operation; with HMB_FAULT (fault.h), it may fail after it was issued. */
static int call_op(struct hmb_ctx *ctx, const struct hmb_case *c, const struct hmb_record *r,
		   long i)
{
	if (c->ops.op(ctx, c->state, ctx->stream, i))
		return -1;
	return HMB_FAULT_HERE(HMB_FAULT_OP, r->name) ? -1 : 0;
}

static int ops_per_sample(const struct hmb_timing *t)
{
	return t->ops_per_sample > 0 ? t->ops_per_sample : 1;
}

/* The text written as params.timed. */
static void timed_text(const struct hmb_case *c, char *buf, size_t len)
{
	const struct hmb_timing *t = &c->timing;
	int n = ops_per_sample(t);
	size_t used;

	if (n > 1)
		used = (size_t)snprintf(buf, len, "%d x (%s)", n, c->what);
	else
		used = (size_t)snprintf(buf, len, "%s", c->what);
	if (used < len && t->sync == HMB_SYNC_PER_OP)
		used += (size_t)snprintf(buf + used, len - used, ", hipStreamSynchronize after each");
	else if (used < len && t->sync == HMB_SYNC_PER_SAMPLE && t->clock == HMB_CLOCK_HOST)
		used += (size_t)snprintf(buf + used, len - used,
					 ", one hipStreamSynchronize at the end");
	if (used < len && t->clock == HMB_CLOCK_REPORTED)
		used += (size_t)snprintf(buf + used, len - used, "; timed where it ran, reported back");
	else if (used < len && t->clock == HMB_CLOCK_EVENTS)
		used += (size_t)snprintf(buf + used, len - used, "; HIP events around %s%s",
					 n > 1 ? "them" : "it",
					 t->latch ? ", queued behind a host-released latch kernel "
						    "(no enqueue cost)" : "");
	else if (used < len)
		used += (size_t)snprintf(buf + used, len - used, "; host clock");
	if (used < len && t->buffer_sets > 1)
		snprintf(buf + used, len - used, "; cycles through %d buffer sets", t->buffer_sets);
}

static void describe(struct hmb_record *r, const struct hmb_case *c, int warmup)
{
	static const char *const sync_name[] = { "per-sample", "per-op", "none" };
	const struct hmb_timing *t = &c->timing;
	char text[512];

	timed_text(c, text, sizeof(text));
	hmb_context_str(r, "timed", text);
	hmb_context_str(r, "clock", t->clock == HMB_CLOCK_EVENTS ? "hip-events" :
				    t->clock == HMB_CLOCK_HOST ? "host-monotonic" : "reported-by-op");
	hmb_context_str(r, "sync", sync_name[t->sync]);
	hmb_param_num(r, "ops_per_sample", ops_per_sample(t));
	if (t->clock == HMB_CLOCK_EVENTS)
		hmb_context_bool(r, "latch", t->latch);
	if (t->buffer_sets > 1)
		hmb_context_num(r, "buffer_sets", t->buffer_sets);
	hmb_observe_num(r, "warmup", warmup);
	if (r->ops <= 0 && ops_per_sample(t) > 1)
		hmb_record_ops(r, ops_per_sample(t));
}

/* Samples timed on the host clock, or reported by op(), one at a time. */
static int run_host(struct hmb_ctx *ctx, struct hmb_record *r, const struct hmb_case *c,
		    int warmup, int first, int last, long *opi)
{
	const struct hmb_timing *t = &c->timing;
	int n = ops_per_sample(t);

	for (int s = first; s < last; s++) {
		double t0;
		if (c->ops.prepare && (c->ops.prepare(ctx, c->state, s) ||
				       HMB_FAULT_HERE(HMB_FAULT_PREPARE, r->name)))
			return -1;
		reported_s = 0;
		reported_n = 0;
		t0 = hmb_now();
		for (int k = 0; k < n; k++) {
			if (call_op(ctx, c, r, (*opi)++))
				return -1;
			if (t->sync == HMB_SYNC_PER_OP)
				HMB_CHECK(hipStreamSynchronize(ctx->stream));
		}
		if (t->sync == HMB_SYNC_PER_SAMPLE)
			HMB_CHECK(hipStreamSynchronize(ctx->stream));
		if (t->clock == HMB_CLOCK_REPORTED && reported_n != n) {
			hmb_set_error("%s: op() reported a time %d times for %d operations", r->name,
				      reported_n, n);
			return -1;
		}
		if (s >= warmup) {
			double took = hmb_now() - t0;
			hmb_sample(r, t->clock == HMB_CLOCK_REPORTED ? reported_s : took);
			hmb_gpu_trail_note(&trail, telemetry_of(ctx), r, r->nsamples - 1, took);
		}
	}
	return 0;
fail:
	return -1;
}

/* Samples timed with events, in batches: behind one latch where asked (a
 * batch of one where prepare() must run before each sample). */
static int run_events(struct hmb_ctx *ctx, struct hmb_record *r, const struct hmb_case *c,
		      int warmup, int first, int last, long *opi)
{
	const struct hmb_timing *t = &c->timing;
	struct hmb_engine *e;
	int n = ops_per_sample(t), expired = 0;
	int max_batch = c->ops.prepare || !t->latch ? 1 : HMB_LATCH_MAX_OPS;

	e = ctx->engine;
	for (int s = first; s < last;) {
		int batch = last - s < max_batch ? last - s : max_batch;
		if (c->ops.prepare && (c->ops.prepare(ctx, c->state, s) ||
				       HMB_FAULT_HERE(HMB_FAULT_PREPARE, r->name)))
			return -1;
		if (t->latch)
			HMB_CHECK(hmb_latch_hold(&e->latch, ctx->stream));
		HMB_CHECK(hipEventRecord(e->ev[0], ctx->stream));
		for (int b = 0; b < batch; b++) {
			for (int k = 0; k < n; k++) {
				if (call_op(ctx, c, r, (*opi)++))
					goto fail;
			}
			HMB_CHECK(hipEventRecord(e->ev[b + 1], ctx->stream));
		}
		if (t->latch)
			hmb_latch_release(&e->latch);
		HMB_CHECK(hipEventSynchronize(e->ev[batch]));
		if (t->latch && hmb_latch_expired(&e->latch))
			expired++;
		size_t from = r->nsamples;
		float ms = 0;
		for (int b = 0; b < batch; b++, s++) {
			HMB_CHECK(hipEventElapsedTime(&ms, e->ev[b], e->ev[b + 1]));
			if (s >= warmup)
				hmb_sample(r, ms * 1e-3);
		}
		HMB_CHECK(hipEventElapsedTime(&ms, e->ev[0], e->ev[batch]));
		hmb_gpu_trail_note(&trail, telemetry_of(ctx), r, from, ms * 1e-3);
	}
	if (t->latch) {
		/* batches whose latch ran out before the host let go: samples not
		 * free of the host's enqueue (or of whatever held it up) */
		const struct hmb_kv *before = hmb_kv_find(&r->observed, "latch_expired_batches");
		hmb_observe_num(r, "latch_expired_batches", expired + (before ? before->num : 0));
	}
	return 0;
fail:
	if (t->latch)
		hmb_latch_release(&e->latch);
	return -1;
}

/* Settling (.settle): the warm-ups go on past the count, one at a time and
 * timed like samples, until the last HMB_SETTLE_WINDOW_S of them (their own
 * times summed; HMB_SETTLE_LEAST at least) hold none more than
 * HMB_SETTLE_GAIN faster than the fastest before them, or HMB_SETTLE_MAX_S
 * have passed. A fresh host-device copy can start 20-25% slow and climb over
 * tens of milliseconds, or hold slow for many copies (results/nvidia-h100-pcie/
 * five-all/README.md): a count of warm-ups does not cover that, a window of
 * time does. Returns how many warm-ups were taken (-1: failed); their times
 * are kept nowhere. */
#define HMB_SETTLE_WINDOW_S 0.02
#define HMB_SETTLE_LEAST 2
#define HMB_SETTLE_GAIN 0.01
#define HMB_SETTLE_MAX_S 0.25
#define HMB_SETTLE_MAX 1024

static int settled(const double *took, const double *at, int n)
{
	int from = n - 1;
	double before = took[0], recent;

	while (from > 0 && at[n - 1] - at[from - 1] <= HMB_SETTLE_WINDOW_S)
		from--;
	if (from > n - HMB_SETTLE_LEAST)
		from = n - HMB_SETTLE_LEAST;
	if (from < 1)
		return 0;
	for (int i = 1; i < from; i++)
		before = took[i] < before ? took[i] : before;
	recent = took[from];
	for (int i = from + 1; i < n; i++)
		recent = took[i] < recent ? took[i] : recent;
	return recent >= before * (1 - HMB_SETTLE_GAIN);
}

static int settle(struct hmb_ctx *ctx, struct hmb_record *r, const struct hmb_case *c,
		  int least, long *opi)
{
	/* each warm-up's time, and the warm-ups' times summed up to it */
	static double took[HMB_SETTLE_MAX], at[HMB_SETTLE_MAX];
	const struct hmb_timing *t = &c->timing;
	const double t0 = hmb_now();
	int n = 0;

	while (n < HMB_SETTLE_MAX && (n < least || !settled(took, at, n)) &&
	       hmb_now() - t0 < HMB_SETTLE_MAX_S) {
		if (t->clock != HMB_CLOCK_EVENTS ? run_host(ctx, r, c, 0, n, n + 1, opi)
						 : run_events(ctx, r, c, 0, n, n + 1, opi))
			return -1;
		took[n] = r->samples[--r->nsamples];
		at[n] = (n > 0 ? at[n - 1] : 0) + took[n];
		n++;
	}
	trail.n = 0;
	if (t->latch)
		hmb_observe_num(r, "latch_expired_batches", 0);
	return n;
}

static void describe_settling(struct hmb_record *r, int warmup)
{
	char text[160];

	snprintf(text, sizeof(text), "on until %g ms of them (%d at least) held none %g%% faster "
		 "than the fastest before; %g s at most", 1e3 * HMB_SETTLE_WINDOW_S,
		 HMB_SETTLE_LEAST, 1e2 * HMB_SETTLE_GAIN, HMB_SETTLE_MAX_S);
	hmb_observe_num(r, "warmup", warmup);
	hmb_observe_str(r, "warmup_rule", text);
}

/* How many samples a case takes. Fixed where the case says so, where --reps
 * gives the count and under --quick; else adaptive: at least min, then one
 * more (a few more behind a latch) until the median's 95% interval (order
 * statistics, stability.h) is within +-HMB_STABLE_TARGET_REL, max samples
 * are taken, or the sampling has taken what the module's own count would
 * have (and at least HMB_SAMPLING_BUDGET_S): a steady figure costs fewer
 * samples than before, a noisy one more, and no case takes much longer.
 * Where the module runs as one of N runs (--runs, `all`), the least and the
 * most samples and the time are 1/N of that: the N runs pooled take about
 * what one did (a median of three a run at least). */
struct sampling {
	int warmup, reps;          /* reps: the module's count (or the fixed one) */
	int adaptive, min, max;
	int share;                 /* one of this many runs */
};

#define HMB_SAMPLING_BUDGET_S 0.1
/* A module's count below HMB_STABLE_MIN_SAMPLES (slow cases) still gets that
 * many where they take no longer than this: a figure too few samples cannot
 * judge, and a median of 3 from a long-tailed case (first touch, migration),
 * moves from run to run with its slowest sample. */
#define HMB_JUDGE_BUDGET_S 0.5
/* The fewest samples a run of several takes: its median of three. */
#define HMB_RUN_LEAST 3

static struct sampling sampling_plan(const struct hmb_ctx *ctx, const struct hmb_timing *t)
{
	struct sampling p;

	p.reps = t->fixed ? t->reps : hmb_reps(ctx, t->reps > 0 ? t->reps : 10);
	p.warmup = t->fixed ? t->warmup : hmb_warmup(ctx, t->warmup);
	p.adaptive = !t->fixed && ctx->opt->reps <= 0 && !ctx->opt->quick;
	p.min = p.max = p.reps;
	p.share = ctx->opt->run_share > 1 ? ctx->opt->run_share : 1;
	if (p.adaptive) {
		/* one of several runs: its share of the least a figure needs, the
		 * runs together as many as one run alone (HMB_RUN_LEAST at least) */
		int least = (HMB_STABLE_MIN_SAMPLES + p.share - 1) / p.share;
		if (least < HMB_RUN_LEAST)
			least = HMB_RUN_LEAST;
		p.min = p.reps < least ? p.reps : least;
		p.max = (2 * p.reps + p.share - 1) / p.share;
		if (p.max < p.min)
			p.max = p.min;
	}
	return p;
}

/* Why sampling may stop now (NULL: go on); elapsed is the sampling so far. */
static const char *enough(const struct hmb_record *r, const struct sampling *p, double elapsed)
{
	struct hmb_stability st;
	int n = (int)r->nsamples;
	double per_sample = n > 0 ? elapsed / n : 0;
	double budget = per_sample * p->reps / p->share;

	if (!p->adaptive || n >= p->max)
		return !p->adaptive ? "fixed count"
				    : p->share > 1 ? "the most samples (its share of twice the module's count)"
						   : "the most samples (twice the module's count)";
	if (n < p->min)
		return NULL;
	if (n < HMB_STABLE_MIN_SAMPLES &&
	    per_sample * HMB_STABLE_MIN_SAMPLES <= HMB_JUDGE_BUDGET_S / p->share)
		return NULL;
	if (hmb_stability_compute(r->samples, r->nsamples, &st) == 0 && st.has_ci &&
	    st.half_width_rel <= HMB_STABLE_TARGET_REL)
		return "the median's 95% interval within +-1%";
	if (budget < HMB_SAMPLING_BUDGET_S / p->share)
		budget = HMB_SAMPLING_BUDGET_S / p->share;
	if (elapsed + per_sample > budget)
		return p->share > 1 ? "its share of the time the module's count would take"
				    : "the time the module's count would take";
	return NULL;
}

static void describe_sampling(struct hmb_record *r, const struct sampling *p, const char *why)
{
	char text[160];

	if (p->adaptive && p->share > 1)
		snprintf(text, sizeof(text), "adaptive (%d to %d samples, one run of %d): stopped at "
			 "%zu, %s", p->min, p->max, p->share, r->nsamples, why);
	else if (p->adaptive)
		snprintf(text, sizeof(text), "adaptive (%d to %d samples): stopped at %zu, %s", p->min,
			 p->max, r->nsamples, why);
	else
		snprintf(text, sizeof(text), "fixed: %d samples", p->reps);
	hmb_observe_str(r, "sampling", text);
}

int hmb_measure(struct hmb_ctx *ctx, struct hmb_record *r, const struct hmb_case *c)
{
	const struct hmb_timing *t = &c->timing;
	const struct sampling plan = sampling_plan(ctx, t);
	int warmup = plan.warmup;
	int done = 0, next;
	const char *stop = NULL;
	size_t mark;
	long opi = 0;
	int rc = -1;
	char why[1024];
	double t0 = hmb_now(), phase, samples_from;

	describe(r, c, warmup);
	if (hmb_process_t0 > 0)
		hmb_observe_num(r, "started_s", t0 - hmb_process_t0);
	hmb_clear_error(); /* this case's failure is this case's reason */
	trail.n = 0;
	/* The engine's own events outlive the case: made before the mark. */
	if (t->clock == HMB_CLOCK_EVENTS && engine_ready(ctx)) {
		hmb_record_status(r, HMB_FAILED, "%s", hmb_take_error(why, sizeof(why)));
		return -1;
	}
	mark = hmb_owned_mark(ctx);
	if (c->ops.setup && (c->ops.setup(ctx, c->state) ||
			     HMB_FAULT_HERE(HMB_FAULT_SETUP, r->name)))
		goto out;
	phase = hmb_now();
	hmb_observe_num(r, "setup_s", phase - t0);
	if (t->settle && warmup > 0 && ctx->opt->warmup < 0 && !ctx->opt->quick) {
		if ((warmup = settle(ctx, r, c, warmup, &opi)) < 0)
			goto out;
		describe_settling(r, warmup);
		done = warmup;
	}
	/* warm-ups and the first samples, then more while the plan asks; the
	 * samples' time budget counts from here, without settling's warm-ups */
	samples_from = hmb_now();
	for (next = warmup + plan.min; !stop; next = done + (t->latch ? 2 : 1)) {
		if (next > warmup + plan.max)
			next = warmup + plan.max;
		if (t->clock != HMB_CLOCK_EVENTS ? run_host(ctx, r, c, warmup, done, next, &opi)
						 : run_events(ctx, r, c, warmup, done, next, &opi))
			goto out;
		done = next;
		stop = enough(r, &plan, hmb_now() - samples_from);
	}
	describe_sampling(r, &plan, stop);
	hmb_gpu_trail_observe(&trail, r);
	/* warm-ups, samples and their untimed preparation */
	hmb_observe_num(r, "sampling_s", hmb_now() - phase);
	phase = hmb_now();
	if (c->ops.verify && (c->ops.verify(ctx, c->state) ||
			      HMB_FAULT_HERE(HMB_FAULT_VERIFY, r->name)))
		goto out;
	hmb_observe_num(r, "verify_s", hmb_now() - phase);
	hmb_observe_bool(r, "verified", c->ops.verify != NULL);
	rc = 0;
out:
	if (rc != 0) {
		(void)hipDeviceSynchronize();
		hmb_record_status(r, HMB_FAILED, "%s", hmb_take_error(why, sizeof(why)));
		r->nsamples = 0; /* a failed case keeps no figures */
	}
	if (c->ops.teardown)
		c->ops.teardown(ctx, c->state);
	hmb_owned_release(ctx, mark);
	/* the whole case, set-up, untimed preparation and checks included */
	hmb_observe_num(r, "case_wall_s", hmb_now() - t0);
	return rc;
}

double hmb_median(const struct hmb_record *r)
{
	struct hmb_stats st;
	if (r->status != HMB_OK || hmb_stats_compute(r->samples, r->nsamples, &st) != 0)
		return -1;
	return st.median;
}

void hmb_param_geometry(struct hmb_record *r, size_t items, int grid)
{
	struct hmb_geometry g = hmb_kernel_geometry(items, (enum hmb_grid)grid);
	hmb_context_str(r, "grid", grid == HMB_GRID_PER_ELEMENT ? "one element per thread"
								: "capped, grid-stride");
	hmb_context_num(r, "grid_blocks", g.blocks);
	hmb_context_num(r, "block_threads", g.threads);
	hmb_context_num(r, "elements_per_thread", (double)g.elements_per_thread);
	hmb_context_bool(r, "grid_stride", g.grid_stride);
}

int hmb_measure_steps(struct hmb_ctx *ctx, struct hmb_record *r, struct hmb_case *c, int steps)
{
	double total = 0;

	c->timing.reps = steps;
	c->timing.warmup = 0;
	c->timing.fixed = 1;
	if (hmb_measure(ctx, r, c) != 0)
		return -1;
	for (size_t k = 0; k < r->nsamples; k++)
		total += r->samples[k];
	hmb_metric(r, "total_s", total, "s");
	hmb_observe_num(r, "steps", (double)r->nsamples);
	return 0;
}
