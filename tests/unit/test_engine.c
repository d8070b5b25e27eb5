/*
 * test_engine.c - the measurement engine's failure paths, without a GPU:
 * a case timed on the host clock, with no synchronisation, whose setup
 * allocates pageable memory through the context, is made to fail at every
 * fault point HMB_FAULT can name (fault.h). Each time the record must be
 * failed with the injected reason and no samples, teardown must run once
 * when setup ran, and the context must own nothing afterwards (ASan and
 * valgrind, which run these tests in CI, see the host memory itself).
 */
#include <string.h>
#include <time.h>

#include "engine/fault.h"
#include "engine/measure.h"
#include "engine/verify.h"
#include "harness.h"
#include "stats/stability.h"

struct copy_case {
	unsigned char *src, *dst;
	int setups, teardowns, verifies;
};

enum { BYTES = 1 << 16, OPS = 4, REPS = 3, WARMUP = 1 };

static int copy_setup(struct hmb_ctx *ctx, void *st)
{
	struct copy_case *k = st;

	k->setups++;
	if (!(k->src = hmb_alloc(ctx, HMB_KIND_PAGEABLE, BYTES)) ||
	    !(k->dst = hmb_alloc(ctx, HMB_KIND_PAGEABLE, BYTES)))
		return -1;
	memset(k->src, 0x5a, BYTES);
	return 0;
}

static int copy_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct copy_case *k = st;
	(void)ctx;
	(void)sample;
	memset(k->dst, 0, BYTES);
	return 0;
}

static int copy_op(struct hmb_ctx *ctx, void *st, hipStream_t s, long i)
{
	struct copy_case *k = st;
	(void)ctx;
	(void)s;
	(void)i;
	memcpy(k->dst, k->src, BYTES);
	return 0;
}

static int copy_verify(struct hmb_ctx *ctx, void *st)
{
	struct copy_case *k = st;
	(void)ctx;
	k->verifies++;
	if (memcmp(k->dst, k->src, BYTES) != 0) {
		hmb_set_error("verification failed");
		return -1;
	}
	return 0;
}

static void copy_teardown(struct hmb_ctx *ctx, void *st)
{
	struct copy_case *k = st;
	(void)ctx;
	k->teardowns++;
}

/* Run the case once with spec armed (NULL: not armed); returns hmb_measure's result. */
static int run_case(const struct hmb_fault_spec *spec, struct copy_case *k,
		    struct hmb_record **out, size_t *owned_after)
{
	static struct hmb_options opt;
	struct hmb_ctx ctx = { .opt = &opt, .module = "unit" };
	struct hmb_case c = {
		.what = "memcpy of 64 KiB",
		.timing = { .clock = HMB_CLOCK_HOST, .sync = HMB_SYNC_NONE, .ops_per_sample = OPS,
			    .reps = REPS, .warmup = WARMUP },
		.ops = { copy_setup, copy_prepare, copy_op, copy_verify, copy_teardown },
		.state = k,
	};
	struct hmb_record *r = hmb_record_new("unit", "copy/pageable");
	int rc;

	opt.warmup = -1;
	opt.reps = REPS; /* a fixed count (adaptive sampling: test_adaptive_sampling) */
	memset(k, 0, sizeof(*k));
	hmb_fault_arm(spec);
	rc = hmb_measure(&ctx, r, &c);
	hmb_fault_arm(NULL);
	*owned_after = ctx.owned.n;
	hmb_owned_release(&ctx, 0);
	*out = r;
	return rc;
}

static void test_fault_parse(void)
{
	struct hmb_fault_spec s;
	char err[256];

	CHECK(hmb_fault_parse("op:7", &s, err, sizeof(err)) == 0 && s.kind == HMB_FAULT_OP &&
	      s.n == 7);
	CHECK(hmb_fault_parse("any:0", &s, err, sizeof(err)) == 0 && s.kind == HMB_FAULT_ANY &&
	      s.n == 0);
	CHECK(hmb_fault_parse("alloc:1", &s, err, sizeof(err)) == 0 && s.kind == HMB_FAULT_ALLOC);
	CHECK(hmb_fault_parse("verify:2", &s, err, sizeof(err)) == 0 &&
	      s.kind == HMB_FAULT_VERIFY);
	CHECK(hmb_fault_parse("op", &s, err, sizeof(err)) == -1 && strstr(err, "KIND:N"));
	CHECK(hmb_fault_parse("opx:1", &s, err, sizeof(err)) == -1 && strstr(err, "KIND:N"));
	CHECK(hmb_fault_parse("op:", &s, err, sizeof(err)) == -1 && strstr(err, "not a count"));
	CHECK(hmb_fault_parse("op:-1", &s, err, sizeof(err)) == -1 && strstr(err, "not a count"));
	CHECK(hmb_fault_parse("op:+1", &s, err, sizeof(err)) == -1);
	CHECK(hmb_fault_parse("op:1x", &s, err, sizeof(err)) == -1);
	CHECK(hmb_fault_parse("op:99999999999999999999", &s, err, sizeof(err)) == -1);
}

static void test_fault_counting(void)
{
	struct hmb_fault_spec op3 = { HMB_FAULT_OP, 3 }, any2 = { HMB_FAULT_ANY, 2 };
	char why[256];

	hmb_fault_arm(&op3);
	CHECK(!HMB_FAULT_HERE(HMB_FAULT_OP, "a"));
	CHECK(!HMB_FAULT_HERE(HMB_FAULT_ALLOC, "b")); /* another kind: not counted */
	CHECK(!HMB_FAULT_HERE(HMB_FAULT_OP, "c"));
	CHECK(HMB_FAULT_HERE(HMB_FAULT_OP, "d"));
	CHECK(strstr(hmb_take_error(why, sizeof(why)), "injected failure at op 3 of d") != NULL);
	CHECK(!HMB_FAULT_HERE(HMB_FAULT_OP, "e")); /* fails once */
	hmb_fault_arm(&any2);
	CHECK(!HMB_FAULT_HERE(HMB_FAULT_SETUP, "f"));
	CHECK(HMB_FAULT_HERE(HMB_FAULT_ALLOC, "g"));
	CHECK(strstr(hmb_take_error(why, sizeof(why)), "HMB_FAULT=any:2: injected failure at "
		     "alloc 2 of g") != NULL);
	hmb_fault_arm(NULL);
	CHECK(!HMB_FAULT_HERE(HMB_FAULT_OP, "h"));
}

/* Every point of every kind, one run each, until the count runs past the
 * points the case has. */
static void test_engine_failure_paths(void)
{
	static const struct {
		enum hmb_fault_kind kind;
		int points;  /* how many the case has */
	} kinds[] = {
		{ HMB_FAULT_ALLOC, 2 }, { HMB_FAULT_SETUP, 1 },
		{ HMB_FAULT_PREPARE, WARMUP + REPS }, { HMB_FAULT_OP, (WARMUP + REPS) * OPS },
		{ HMB_FAULT_VERIFY, 1 },
		{ HMB_FAULT_ANY, 2 + 1 + (WARMUP + REPS) * (1 + OPS) + 1 },
	};
	struct copy_case k;
	struct hmb_record *r;
	size_t owned;

	CHECK(run_case(NULL, &k, &r, &owned) == 0);
	CHECK(r->status == HMB_OK && r->nsamples == REPS && k.verifies == 1 && owned == 0);
	CHECK(hmb_kv_find(&r->params, "timed") &&
	      strcmp(hmb_kv_find(&r->params, "timed")->str, "4 x (memcpy of 64 KiB); host clock") == 0);
	CHECK(hmb_kv_find(&r->params, "sync") &&
	      strcmp(hmb_kv_find(&r->params, "sync")->str, "none") == 0);
	{
		/* the case's wall time, split into set-up, sampling and the check */
		const struct hmb_kv *w = hmb_kv_find(&r->observed, "case_wall_s"),
				    *a = hmb_kv_find(&r->observed, "setup_s"),
				    *b = hmb_kv_find(&r->observed, "sampling_s"),
				    *c = hmb_kv_find(&r->observed, "verify_s");
		CHECK(w && a && b && c);
		if (w && a && b && c)
			CHECK(a->num >= 0 && b->num > 0 && c->num >= 0 &&
			      a->num + b->num + c->num <= w->num);
	}
	hmb_record_free(r);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		for (long n = 1; n <= kinds[i].points + 1; n++) {
			struct hmb_fault_spec spec = { kinds[i].kind, n };
			int rc = run_case(&spec, &k, &r, &owned);
			int fires = n <= kinds[i].points;

			CHECK(rc == (fires ? -1 : 0));
			CHECK(owned == 0);                       /* nothing left to the context */
			CHECK(k.teardowns == k.setups);          /* teardown after every setup */
			if (fires) {
				CHECK(r->status == HMB_FAILED && r->nsamples == 0);
				CHECK(r->reason && strstr(r->reason, "injected failure at"));
			} else {
				CHECK(r->status == HMB_OK && r->nsamples == REPS);
			}
			hmb_record_free(r);
		}
	}
}

/* A case timed with events needs the engine's events first: when making
 * them fails (alloc:1 fails the first one, before any HIP call), the record
 * fails, nothing stays owned, and no half-made engine is left for the next
 * case to use. */
static void test_engine_events_failure(void)
{
	static struct hmb_options opt;
	struct hmb_ctx ctx = { .opt = &opt, .module = "unit" };
	struct hmb_fault_spec alloc1 = { HMB_FAULT_ALLOC, 1 };
	struct copy_case k;
	struct hmb_case c = {
		.what = "memcpy of 64 KiB",
		.timing = { .clock = HMB_CLOCK_EVENTS, .latch = 1, .reps = REPS },
		.ops = { copy_setup, NULL, copy_op, NULL, copy_teardown },
		.state = &k,
	};
	struct hmb_record *r = hmb_record_new("unit", "copy/events");

	memset(&k, 0, sizeof(k));
	opt.warmup = -1;
	opt.reps = REPS; /* a fixed count (adaptive sampling: test_adaptive_sampling) */
	hmb_fault_arm(&alloc1);
	CHECK(hmb_measure(&ctx, r, &c) == -1);
	hmb_fault_arm(NULL);
	CHECK(r->status == HMB_FAILED && r->reason &&
	      strstr(r->reason, "injected failure at alloc 1 of an event"));
	CHECK(ctx.engine == NULL && ctx.owned.n == 0);
	CHECK(k.setups == 0); /* the case's set-up never ran */
	hmb_record_free(r);
}

/* HMB_FAULT=corrupt:N: the N-th data check sees one word flipped, and the
 * case's own check must fail it with its own message; a check that checks
 * nothing lets the case pass (what the GPU tests catch, module by module). */
static int pattern_setup(struct hmb_ctx *ctx, void *st)
{
	struct copy_case *k = st;

	if (copy_setup(ctx, st))
		return -1;
	hmb_fill_host(k->src, BYTES, 7);
	return 0;
}

static int pattern_verify(struct hmb_ctx *ctx, void *st)
{
	struct copy_case *k = st;
	size_t bad = hmb_check_host(k->dst, BYTES, 7, 0);
	(void)ctx;

	k->verifies++;
	if (bad) {
		hmb_set_error("verification failed: %zu words differ", bad);
		return -1;
	}
	return 0;
}

static int lazy_verify(struct hmb_ctx *ctx, void *st)
{
	(void)ctx;
	((struct copy_case *)st)->verifies++;
	return 0;
}

static void test_corrupt_fault(void)
{
	static struct hmb_options opt;
	struct hmb_ctx ctx = { .opt = &opt, .module = "unit" };
	struct hmb_fault_spec corrupt1 = { HMB_FAULT_CORRUPT, 1 }, corrupt2 = { HMB_FAULT_CORRUPT, 2 },
			      any1 = { HMB_FAULT_ANY, 1 }, spec;
	struct copy_case k;
	struct hmb_case c = {
		.what = "memcpy of 64 KiB",
		.timing = { .clock = HMB_CLOCK_HOST, .sync = HMB_SYNC_NONE, .ops_per_sample = OPS,
			    .reps = REPS, .warmup = WARMUP },
		.ops = { pattern_setup, NULL, copy_op, pattern_verify, copy_teardown },
		.state = &k,
	};
	const struct { const struct hmb_fault_spec *spec; int lazy, fails; } runs[] = {
		{ &corrupt1, 0, 1 }, /* the one check sees a flipped word */
		{ &corrupt2, 0, 0 }, /* there is no second check */
		{ &corrupt1, 1, 0 }, /* a check that checks nothing misses it */
	};
	char err[128];

	opt.warmup = -1;
	opt.reps = REPS; /* a fixed count (adaptive sampling: test_adaptive_sampling) */
	CHECK(hmb_fault_parse("corrupt:3", &spec, err, sizeof(err)) == 0 &&
	      spec.kind == HMB_FAULT_CORRUPT && spec.n == 3);
	hmb_fault_arm(&any1); /* `any` fails points, never corrupts data */
	CHECK(!HMB_FAULT_HERE(HMB_FAULT_CORRUPT, "a check"));
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct hmb_record *r = hmb_record_new("unit", "copy/pattern");

		memset(&k, 0, sizeof(k));
		c.ops.verify = runs[i].lazy ? lazy_verify : pattern_verify;
		hmb_fault_arm(runs[i].spec);
		CHECK(hmb_measure(&ctx, r, &c) == (runs[i].fails ? -1 : 0));
		hmb_fault_arm(NULL);
		CHECK(k.verifies == 1 && ctx.owned.n == 0);
		if (runs[i].fails)
			CHECK(r->status == HMB_FAILED && r->nsamples == 0 && r->reason &&
			      strstr(r->reason, "verification failed: 1 words differ") &&
			      !strstr(r->reason, "injected"));
		else
			CHECK(r->status == HMB_OK && r->nsamples == REPS);
		hmb_record_free(r);
	}
}

/* A case fails with its own reason: an error left pending by something
 * before it (a failed optional call, another case's cleanup) is not taken for
 * its reason (the pending error is first-wins within a case). */
static int failing_verify(struct hmb_ctx *ctx, void *st)
{
	(void)ctx;
	((struct copy_case *)st)->verifies++;
	hmb_set_error("verification failed: this case's own reason");
	return -1;
}

static void test_case_error_is_the_cases_own(void)
{
	static struct hmb_options opt;
	struct hmb_ctx ctx = { .opt = &opt, .module = "unit" };
	struct copy_case k;
	struct hmb_case c = {
		.what = "memcpy of 64 KiB",
		.timing = { .clock = HMB_CLOCK_HOST, .sync = HMB_SYNC_NONE, .ops_per_sample = 1,
			    .reps = 2, .warmup = 0 },
		.ops = { copy_setup, copy_prepare, copy_op, failing_verify, copy_teardown },
		.state = &k,
	};
	struct hmb_record *r = hmb_record_new("unit", "copy/own-reason");

	memset(&k, 0, sizeof(k));
	opt.warmup = -1;
	opt.reps = 2; /* a fixed count (adaptive sampling: test_adaptive_sampling) */
	hmb_set_error("hipFoo failed: a stale error from before this case");
	CHECK(hmb_measure(&ctx, r, &c) == -1);
	CHECK(r->status == HMB_FAILED && r->reason &&
	      strcmp(r->reason, "verification failed: this case's own reason") == 0);
	hmb_record_free(r);
}

/* HMB_CLOCK_REPORTED: the sample is what op() reported for its operations
 * (the time of a call made in another process), not the time op() took; an
 * op() that reports nothing fails the case instead of recording a zero. */
static int reporting_op(struct hmb_ctx *ctx, void *st, hipStream_t s, long i)
{
	int *silent = st;
	(void)ctx;
	(void)s;
	if (!*silent)
		hmb_op_seconds(0.001 * (double)(i + 1));
	return 0;
}

/* Adaptive sampling, on the reported clock (samples exactly as op() says):
 * a steady figure stops at the least count; a noisy one goes on to twice the
 * module's count; --reps and --quick fix the count. */
struct synthetic {
	int noisy;
	long calls;
	int slow_ms; /* each op takes this long on the host's clock */
};

static int synthetic_op(struct hmb_ctx *ctx, void *st, hipStream_t s, long i)
{
	struct synthetic *k = st;
	(void)ctx, (void)s, (void)i;
	k->calls++;
	if (k->slow_ms)
		nanosleep(&(struct timespec){ 0, k->slow_ms * 1000000L }, NULL);
	/* steady: 1 ms +-0.1%; noisy: 1 or 1.5 ms in turn */
	hmb_op_seconds(k->noisy ? (k->calls % 2 ? 0.001 : 0.0015) : 0.001 + 1e-6 * (k->calls % 2));
	return 0;
}

static struct hmb_record *synthetic_count(struct hmb_options *opt, int noisy, int reps,
					  int slow_ms)
{
	struct hmb_ctx ctx = { .opt = opt, .module = "unit" };
	struct synthetic k = { noisy, 0, slow_ms };
	struct hmb_case c = {
		.what = "a synthetic call",
		.timing = { .clock = HMB_CLOCK_REPORTED, .sync = HMB_SYNC_NONE, .reps = reps,
			    .warmup = slow_ms ? 0 : 1 },
		.ops = { NULL, NULL, synthetic_op, NULL, NULL },
		.state = &k,
	};
	struct hmb_record *r = hmb_record_new("unit", noisy ? "noisy" : "steady");

	CHECK(hmb_measure(&ctx, r, &c) == 0);
	return r;
}

static struct hmb_record *synthetic_run(struct hmb_options *opt, int noisy)
{
	return synthetic_count(opt, noisy, 10, 0);
}

static int says(const struct hmb_record *r, const char *text)
{
	const struct hmb_kv *kv = hmb_kv_find(&r->observed, "sampling");
	return kv && kv->str && strstr(kv->str, text) != NULL;
}

static void test_adaptive_sampling(void)
{
	static struct hmb_options opt;
	struct hmb_record *r;

	memset(&opt, 0, sizeof(opt));
	opt.warmup = -1;
	r = synthetic_run(&opt, 0);   /* steady: the least count (stability.h's minimum) */
	CHECK(r->nsamples == HMB_STABLE_MIN_SAMPLES);
	CHECK(says(r, "adaptive (6 to 20 samples): stopped at 6, the median's 95% interval"));
	hmb_record_free(r);
	r = synthetic_run(&opt, 1);   /* noisy: on to twice the module's count */
	CHECK(r->nsamples == 20);
	CHECK(says(r, "stopped at 20, the most samples"));
	hmb_record_free(r);
	opt.reps = 7;                 /* --reps N: N samples, steady or not */
	r = synthetic_run(&opt, 0);
	CHECK(r->nsamples == 7 && says(r, "fixed: 7 samples"));
	hmb_record_free(r);
	r = synthetic_run(&opt, 1);
	CHECK(r->nsamples == 7);
	hmb_record_free(r);
	opt.reps = 0;
	opt.quick = 1;                /* --quick: the module's quick count */
	r = synthetic_run(&opt, 1);
	CHECK(r->nsamples == 3 && says(r, "fixed: 3 samples"));
	hmb_record_free(r);
	opt.quick = 0;                /* a count of 3: on to 6 where 6 take 0.5 s at most */
	r = synthetic_count(&opt, 1, 3, 50);  /* beyond the count's own time (0.15 s) */
	CHECK(r->nsamples == HMB_STABLE_MIN_SAMPLES && says(r, "adaptive (3 to 6 samples)"));
	hmb_record_free(r);
	r = synthetic_count(&opt, 1, 3, 100); /* 6 would take 0.6 s: the count's 3 */
	CHECK(r->nsamples == 3);
	hmb_record_free(r);
	opt.run_share = 2;            /* one run of two: half the least and the most */
	r = synthetic_run(&opt, 1);
	CHECK(r->nsamples == 10 && says(r, "adaptive (3 to 10 samples, one run of 2): stopped "
					   "at 10, the most samples (its share"));
	hmb_record_free(r);
	r = synthetic_run(&opt, 0);   /* a steady figure stops where it did */
	CHECK(r->nsamples == HMB_STABLE_MIN_SAMPLES);
	hmb_record_free(r);
	r = synthetic_count(&opt, 1, 3, 50); /* 6 of 50 ms: more than its share of 0.5 s */
	CHECK(r->nsamples == 3 && says(r, "adaptive (3 to 3 samples, one run of 2)"));
	hmb_record_free(r);
	opt.run_share = 0;
}

static void test_reported_clock(void)
{
	static struct hmb_options opt;
	struct hmb_ctx ctx = { .opt = &opt, .module = "unit" };
	int silent = 0;
	struct hmb_case c = {
		.what = "an import in another process",
		.timing = { .clock = HMB_CLOCK_REPORTED, .sync = HMB_SYNC_NONE,
			    .ops_per_sample = 2, .reps = 3, .warmup = 1 },
		.ops = { NULL, NULL, reporting_op, NULL, NULL },
		.state = &silent,
	};
	struct hmb_record *r = hmb_record_new("unit", "share/reported");
	const struct hmb_kv *clock, *timed;

	opt.warmup = -1;
	opt.reps = 3; /* a fixed count (adaptive sampling: test_adaptive_sampling) */
	CHECK(hmb_measure(&ctx, r, &c) == 0);
	/* ops 0,1 warm up; then (3+4), (5+6), (7+8) ms */
	CHECK(r->status == HMB_OK && r->nsamples == 3);
	CHECK(r->nsamples == 3 && r->samples[0] > 0.00699 && r->samples[0] < 0.00701 &&
	      r->samples[2] > 0.01499 && r->samples[2] < 0.01501);
	clock = hmb_kv_find(&r->params, "clock");
	timed = hmb_kv_find(&r->params, "timed");
	CHECK(clock && strcmp(clock->str, "reported-by-op") == 0);
	CHECK(timed && strstr(timed->str, "reported back"));
	hmb_record_free(r);

	silent = 1;
	r = hmb_record_new("unit", "share/silent");
	CHECK(hmb_measure(&ctx, r, &c) == -1);
	CHECK(r->status == HMB_FAILED && r->nsamples == 0 && r->reason &&
	      strstr(r->reason, "reported a time 0 times for 2 operations"));
	hmb_record_free(r);
}

/* Settling: a copy that starts 25% slow, holds there for 8 ms, then climbs
 * to its speed over 6 copies is warmed up past the plateau and the climb,
 * and every sample is at speed; a steady one is warmed up for the window
 * and one before it; --quick keeps the count, --warmup N is exactly N. */
struct ramp {
	long calls;
};

static int ramping_op(struct hmb_ctx *ctx, void *st, hipStream_t s, long i)
{
	struct ramp *k = st;
	long n = k->calls++;
	double slow = n < 8 ? 0.25 : n < 14 ? 0.25 * (double)(14 - n) / 6 : 0;
	(void)ctx, (void)s, (void)i;
	hmb_op_seconds(0.001 * (1 + slow) + 1e-7 * (double)(n % 3));
	return 0;
}

static int settle_count(struct hmb_options *opt, int ramps, long *calls,
			struct hmb_record **out)
{
	struct hmb_ctx ctx = { .opt = opt, .module = "unit" };
	struct ramp k = { ramps ? 0 : 100 }; /* from call 100 on, at speed */
	struct hmb_case c = {
		.what = "a copy that ramps up",
		.timing = { .clock = HMB_CLOCK_REPORTED, .sync = HMB_SYNC_NONE, .reps = 10,
			    .warmup = 1, .settle = 1 },
		.ops = { NULL, NULL, ramping_op, NULL, NULL },
		.state = &k,
	};
	struct hmb_record *r = hmb_record_new("unit", ramps ? "ramp" : "steady");
	const struct hmb_kv *w;

	CHECK(hmb_measure(&ctx, r, &c) == 0 && r->nsamples > 0);
	w = hmb_kv_find(&r->observed, "warmup");
	*calls = k.calls - (ramps ? 0 : 100);
	*out = r;
	return w ? (int)w->num : -1;
}

static void test_settling(void)
{
	static struct hmb_options opt;
	struct hmb_record *r;
	long calls;
	int w;

	memset(&opt, 0, sizeof(opt));
	opt.warmup = -1;
	w = settle_count(&opt, 1, &calls, &r);
	/* 14 slow copies, then 20 ms of copies at speed and one before them */
	CHECK(w >= 14 + 20 && w <= 14 + 22);
	CHECK(calls == w + (long)r->nsamples);
	for (size_t i = 0; i < r->nsamples; i++)
		CHECK(r->samples[i] < 0.0010003);
	CHECK(hmb_kv_find(&r->observed, "warmup_rule") != NULL);
	hmb_record_free(r);
	w = settle_count(&opt, 0, &calls, &r);  /* at speed from the start */
	CHECK(w == 21);
	hmb_record_free(r);
	opt.quick = 1;
	w = settle_count(&opt, 1, &calls, &r);
	CHECK(w == 1 && r->samples[0] > 0.00125 && !hmb_kv_find(&r->observed, "warmup_rule"));
	hmb_record_free(r);
	opt.quick = 0;
	opt.warmup = 3;
	w = settle_count(&opt, 1, &calls, &r);
	CHECK(w == 3 && calls == 3 + (long)r->nsamples && r->samples[0] > 0.00124);
	hmb_record_free(r);
}

/* A case of one-time steps: exactly one sample a step, no warm-up, whatever
 * --reps and --warmup say; their sum and count recorded. */
static void test_measure_steps(void)
{
	static struct hmb_options opt;
	struct hmb_ctx ctx = { .opt = &opt, .module = "unit" };
	int silent = 0;
	struct hmb_case c = {
		.what = "one more block",
		.timing = { .clock = HMB_CLOCK_REPORTED, .sync = HMB_SYNC_NONE, .reps = 9,
			    .warmup = 2 },
		.ops = { NULL, NULL, reporting_op, NULL, NULL },
		.state = &silent,
	};
	struct hmb_record *r = hmb_record_new("unit", "grow/steps");
	const struct hmb_kv *total, *steps;

	opt.reps = 7;
	opt.warmup = 3;
	CHECK(hmb_measure_steps(&ctx, r, &c, 4) == 0);
	/* no warm-up: the steps are ops 0..3, of 1, 2, 3 and 4 ms */
	CHECK(r->status == HMB_OK && r->nsamples == 4);
	CHECK(r->nsamples == 4 && r->samples[0] > 0.00099 && r->samples[0] < 0.00101);
	total = hmb_kv_find(&r->metrics, "total_s");
	steps = hmb_kv_find(&r->observed, "steps");
	CHECK(total && total->num > 0.00999 && total->num < 0.01001);
	CHECK(steps && steps->num == 4);
	hmb_record_free(r);
}

/* What a module owns is freed in any order: the list closes up behind it, also
 * when it is full (16, its first capacity; a move of one entry too many reads
 * past it: make sanitize). */
static void test_owned_list_closes_up(void)
{
	static struct hmb_options opt;
	struct hmb_ctx ctx = { .opt = &opt, .module = "unit" };
	void *p[16];
	int ok = 1;

	for (int i = 0; i < 16; i++)
		ok &= (p[i] = hmb_alloc(&ctx, HMB_KIND_PAGEABLE, 64)) != NULL;
	CHECK(ok && ctx.owned.n == 16);
	hmb_free(&ctx, p[0]);
	hmb_free(&ctx, p[8]);
	CHECK(ctx.owned.n == 14);
	for (int i = 0, k = 1; i < 14; i++, k += k == 7 ? 2 : 1)
		CHECK(ctx.owned.v[i].p == p[k]);
	hmb_owned_release(&ctx, 0);
	CHECK(ctx.owned.n == 0);
}

void test_engine(void)
{
	test_fault_parse();
	test_fault_counting();
	test_engine_failure_paths();
	test_engine_events_failure();
	test_corrupt_fault();
	test_case_error_is_the_cases_own();
	test_reported_clock();
	test_adaptive_sampling();
	test_measure_steps();
	test_settling();
	test_owned_list_closes_up();
}
