/*
 * test_stability.c - does a figure repeat: the median's interval by order
 * statistics (ranks and coverage against the binomial worked out by hand),
 * the stable rule and its threshold, drift (Mann-Kendall) and bimodality
 * (the widest gap) on synthetic sample sets: steady, noisy, drifting,
 * bimodal, one outlier, too few; and the other processes on the GPU from a
 * faked NVML process list.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/record.h"
#include "engine/report.h"
#include "engine/slow_samples.h"
#include "harness.h"
#include "output/table.h"
#include "stats/resolution.h"
#include "stats/stability.h"
#include "telemetry/telemetry.h"
#include "telemetry/telemetry_nvml.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A small deterministic jitter in [-1, 1], not ordered in time. */
static double jitter(int i)
{
	static const double j[] = { 0.3, -0.8, 0.9, -0.1, 0.5, -0.6, 0.0, 0.7, -0.4, -0.9,
				    0.2, 0.8, -0.3, -0.7, 0.6, 0.1, -0.5, 0.4, -0.2, 1.0 };
	return j[i % 20];
}

static void test_interval(void)
{
	double cov;
	struct hmb_stability st;
	double s[20];

	/* ranks k: the largest with P(Binomial(n, 1/2) < k) <= 2.5% */
	CHECK(hmb_median_ci_rank(5, &cov) == 0);
	CHECK(hmb_median_ci_rank(6, &cov) == 1);
	CHECK_NEAR(cov, 0.96875, 1e-12);
	CHECK(hmb_median_ci_rank(10, &cov) == 2);
	CHECK_NEAR(cov, 0.978515625, 1e-12);
	CHECK(hmb_median_ci_rank(20, &cov) == 6);
	CHECK_NEAR(cov, 0.9586105346679688, 1e-12);
	CHECK(hmb_median_ci_rank(100, &cov) == 40);
	CHECK_NEAR(cov, 0.9647997997822952, 1e-9);

	/* steady: +-0.5% jitter, 20 samples: stable, within the target too */
	for (int i = 0; i < 20; i++)
		s[i] = 1.0 + 0.005 * jitter(i);
	CHECK(hmb_stability_compute(s, 20, &st) == 0);
	CHECK(st.has_ci && st.lo_rank == 6 && st.hi_rank == 15);
	CHECK(st.ci_low < st.median && st.median < st.ci_high);
	CHECK(st.stable == 1 && st.meets_target == 1);
	CHECK(st.half_width_rel < 0.005);
	CHECK(strstr(st.reason, "within") != NULL);

	/* the interval's ends are the order statistics x(2) and x(9) of 10 */
	{
		const double t[] = { 1.10, 1.00, 1.04, 0.96, 1.02, 0.98, 1.01, 0.99, 0.90, 1.03 };
		CHECK(hmb_stability_compute(t, N(t), &st) == 0);
		CHECK(st.ci_low == 0.96 && st.ci_high == 1.04);
		CHECK_NEAR(st.half_width_rel, 0.04 / st.median, 1e-12);
		CHECK(st.stable == 0 && st.meets_target == 0);
		CHECK(strstr(st.reason, "above +-1%") != NULL);
	}

	/* just outside the +-1% target: not stable (the +-2% of old would have
	 * let it through) */
	for (int i = 0; i < 10; i++)
		s[i] = 1.0 + 0.015 * jitter(i);
	CHECK(hmb_stability_compute(s, 10, &st) == 0);
	CHECK(st.half_width_rel > HMB_STABLE_TARGET_REL && st.half_width_rel <= 0.02);
	CHECK(st.stable == 0 && st.meets_target == 0);

	/* noisy: +-10%: unstable */
	for (int i = 0; i < 10; i++)
		s[i] = 1.0 + 0.10 * jitter(i);
	CHECK(hmb_stability_compute(s, 10, &st) == 0);
	CHECK(st.stable == 0 && st.shape == HMB_SHAPE_STEADY);

	/* too few for an interval: not judged, and said so */
	CHECK(hmb_stability_compute(s, 5, &st) == 0);
	CHECK(!st.has_ci && st.stable == -1 && st.shape == HMB_SHAPE_UNJUDGED);
	CHECK(strstr(st.reason, "too few") != NULL);
	CHECK(hmb_stability_compute(s, 0, &st) == -1);
	{
		char mark[8];
		hmb_stability_mark(&st, mark, sizeof(mark));
		CHECK(strcmp(mark, "?") == 0);
	}
}

static void test_shape(void)
{
	struct hmb_stability st;
	double s[20];
	char mark[8];

	/* a clock ramp: +1% a sample, with jitter */
	for (int i = 0; i < 10; i++)
		s[i] = 1.0 + 0.01 * i + 0.001 * jitter(i);
	CHECK(hmb_stability_compute(s, 10, &st) == 0);
	CHECK(st.mk_s == 45);
	CHECK_NEAR(st.mk_p, 8.303070332644999e-05, 1e-9);
	CHECK(st.shape == HMB_SHAPE_DRIFT);
	CHECK(st.half_change_rel > 0.04);
	hmb_stability_mark(&st, mark, sizeof(mark));
	CHECK(strcmp(mark, "~D") == 0);

	/* a slow first half: a step, not a ramp */
	for (int i = 0; i < 12; i++)
		s[i] = (i < 6 ? 1.2 : 1.0) + 0.002 * jitter(i);
	CHECK(hmb_stability_compute(s, 12, &st) == 0);
	CHECK(st.shape == HMB_SHAPE_DRIFT && st.half_change_rel < -0.1);

	/* a trend too small to matter (0.01% a sample) is steady */
	for (int i = 0; i < 20; i++)
		s[i] = 1.0 + 0.0001 * i;
	CHECK(hmb_stability_compute(s, 20, &st) == 0);
	CHECK(st.mk_p < HMB_DRIFT_P && st.shape == HMB_SHAPE_STEADY);

	/* ties: 10 equal samples have no trend and no spread */
	for (int i = 0; i < 10; i++)
		s[i] = 2.0;
	CHECK(hmb_stability_compute(s, 10, &st) == 0);
	CHECK(st.mk_s == 0 && st.mk_p == 1 && st.shape == HMB_SHAPE_STEADY && st.stable == 1);

	/* bimodal: a neighbour's load every other sample (no trend in time) */
	for (int i = 0; i < 10; i++)
		s[i] = (i % 2 ? 1.8 : 1.0) + 0.002 * jitter(i);
	CHECK(hmb_stability_compute(s, 10, &st) == 0);
	CHECK(st.shape == HMB_SHAPE_BIMODAL);
	CHECK(st.gap_below == 5 && st.gap_rel > 0.5);
	hmb_stability_mark(&st, mark, sizeof(mark));
	CHECK(strcmp(mark, "~B") == 0);

	/* a gap of 6% of the median, but not wider than twice the groups'
	 * spread (8%): one wide spread, not two groups */
	{
		const double t[] = { 1.00, 1.21, 1.04, 1.15, 1.08, 1.23, 1.02, 1.17, 1.06, 1.19 };
		CHECK(hmb_stability_compute(t, N(t), &st) == 0);
		CHECK(st.gap_rel > HMB_BIMODAL_GAP_REL && st.gap_below == 5);
		CHECK(st.shape == HMB_SHAPE_STEADY);
	}

	/* one outlier (28.6 GB/s among 50.8): counted, neither bimodal nor unstable */
	for (int i = 0; i < 10; i++)
		s[i] = (i == 4 ? 50.8 / 28.6 : 1.0) + 0.001 * jitter(i);
	CHECK(hmb_stability_compute(s, 10, &st) == 0);
	CHECK(st.outliers == 1 && st.shape == HMB_SHAPE_STEADY && st.stable == 1);
	hmb_stability_mark(&st, mark, sizeof(mark));
	CHECK(strcmp(mark, "o") == 0);
	/* without it: stable, steady, no mark */
	CHECK(hmb_stability_compute(s, 4, &st) == 0 && st.stable == -1);
	s[4] = 1.0;
	CHECK(hmb_stability_compute(s, 10, &st) == 0 && st.outliers == 0);
	hmb_stability_mark(&st, mark, sizeof(mark));
	CHECK(strcmp(mark, "") == 0);
}

/* A fake nvmlDeviceGetComputeRunningProcesses_v3: three processes, then a
 * fourth that appears between the calls (the list grew). */
static int fake_calls, fake_grow;
static int fake_procs(void *dev, unsigned *count, void *infos)
{
	static const struct {
		unsigned pid;
		unsigned long long used;
	} list[] = { { 4242, 1ULL << 30 }, { 777, 512ULL << 20 }, { 555, ~0ULL }, { 999, 1 } };
	unsigned n = fake_grow && fake_calls > 0 ? 4 : 3;

	(void)dev;
	fake_calls++;
	if (*count < n || (fake_grow && fake_calls == 1)) {
		*count = fake_grow && fake_calls == 1 ? 200 : n;
		return HMB_NVML_ERROR_INSUFFICIENT_SIZE;
	}
	*count = n;
	for (unsigned i = 0; i < n; i++) {
		unsigned char *rec = (unsigned char *)infos + i * HMB_NVML_PROC_STRIDE_V2;
		memset(rec, 0xab, HMB_NVML_PROC_STRIDE_V2); /* instance ids, padding */
		memcpy(rec, &list[i].pid, sizeof(list[i].pid));
		memcpy(rec + 8, &list[i].used, sizeof(list[i].used));
	}
	return 0;
}

static int fake_denied(void *dev, unsigned *count, void *infos)
{
	(void)dev, (void)count, (void)infos;
	return 4; /* NVML_ERROR_NO_PERMISSION */
}

static void test_neighbours(void)
{
	struct hmb_telemetry t;
	struct hmb_gpu_sample *s;
	long own[2] = { 4242, 777 }, pids[8];
	long long bytes[8];
	int unsure;

	memset(&t, 0, sizeof(t));
	/* the list read through the fake, record by record */
	s = hmb_telemetry_add(&t);
	snprintf(s->module, sizeof(s->module), "memcpy");
	snprintf(s->when, sizeof(s->when), "before");
	fake_calls = fake_grow = 0;
	CHECK(hmb_nvml_processes(fake_procs, HMB_NVML_PROC_STRIDE_V2, NULL, s) == 0);
	CHECK(s->nprocs == 3 && s->procs[0].pid == 4242 && s->procs[1].pid == 777);
	CHECK(s->procs[0].used_bytes == 1LL << 30 && s->procs[2].used_bytes == -1);
	/* the standalone run is 4242: 777 and 555 are others */
	hmb_gpu_procs_mark_own(s, own, 1);
	CHECK(s->own_seen == 1 && s->procs[0].own && !s->procs[1].own);
	s = hmb_telemetry_add(&t);
	snprintf(s->module, sizeof(s->module), "memcpy");
	snprintf(s->when, sizeof(s->when), "after");
	fake_calls = 0;
	fake_grow = 1;
	CHECK(hmb_nvml_processes(fake_procs, HMB_NVML_PROC_STRIDE_V2, NULL, s) == 0);
	CHECK(s->nprocs == 4 && fake_calls == 2);
	/* a module child of `all`: 4242 and its parent 777 are this run */
	hmb_gpu_procs_mark_own(s, own, 2);
	CHECK(s->procs[0].own && s->procs[1].own && !s->procs[2].own && !s->procs[3].own);
	CHECK(hmb_telemetry_others(&t, "memcpy", pids, bytes, 8, &unsure) >= 0);
	CHECK(!unsure);
	/* others over before and after, each once: 777 (before), 555, 999 */
	{
		long want[] = { 777, 555, 999 };
		int n = hmb_telemetry_others(&t, "memcpy", pids, bytes, 8, &unsure);
		CHECK(n == 3);
		for (int i = 0; i < 3 && i < n; i++)
			CHECK(pids[i] == want[i]);
		CHECK(bytes[0] == 512LL << 20 && bytes[1] == -1);
		/* at most max */
		CHECK(hmb_telemetry_others(&t, "memcpy", pids, NULL, 2, &unsure) == 2);
	}
	/* a third sample that lists 777, the first other, again: still once */
	s = hmb_telemetry_add(&t);
	snprintf(s->module, sizeof(s->module), "memcpy");
	s->nprocs = 2;
	s->procs[0].pid = 4242;
	s->procs[1].pid = 777;
	hmb_gpu_procs_mark_own(s, own, 1);
	CHECK(hmb_telemetry_others(&t, "memcpy", pids, NULL, 8, &unsure) == 3 && pids[0] == 777);
	/* a module no sample listed processes for */
	CHECK(hmb_telemetry_others(&t, "pool", pids, NULL, 8, &unsure) == -1);

	/* alone on the GPU: nobody else */
	s = hmb_telemetry_add(&t);
	snprintf(s->module, sizeof(s->module), "vmm");
	s->nprocs = 1;
	s->procs[0].pid = 4242;
	hmb_gpu_procs_mark_own(s, own, 1);
	CHECK(hmb_telemetry_others(&t, "vmm", pids, NULL, 8, &unsure) == 0);

	/* another PID namespace: our pid is not in the list; one process is us,
	 * two mean someone else (every pid returned, said to be unsure) */
	s = hmb_telemetry_add(&t);
	snprintf(s->module, sizeof(s->module), "managed");
	s->nprocs = 1;
	s->procs[0].pid = 31337;
	hmb_gpu_procs_mark_own(s, own, 1);
	CHECK(s->own_seen == 0);
	CHECK(hmb_telemetry_others(&t, "managed", pids, NULL, 8, &unsure) == 0);
	s->nprocs = 3;
	s->procs[1].pid = 31338;
	s->procs[2].pid = 31339;
	hmb_gpu_procs_mark_own(s, own, 1);
	CHECK(hmb_telemetry_others(&t, "managed", pids, NULL, 8, &unsure) == 3 && unsure);

	/* this run's pids: the process, and in a module child of `all` its parent */
	{
		long mine[2];
		unsetenv("HMB_CHILD_OUTPUT");
		CHECK(hmb_own_pids(mine) == 1 && mine[0] == (long)getpid());
		setenv("HMB_CHILD_OUTPUT", "777:/tmp/hmb-child.json", 1);
		CHECK(hmb_own_pids(mine) == 2 && mine[0] == (long)getpid() && mine[1] == 777);
		setenv("HMB_CHILD_OUTPUT", "/tmp/no-pid.json", 1);
		CHECK(hmb_own_pids(mine) == 1);
		unsetenv("HMB_CHILD_OUTPUT");
	}

	/* NVML refuses: not read */
	s = hmb_telemetry_add(&t);
	CHECK(hmb_nvml_processes(fake_denied, HMB_NVML_PROC_STRIDE_V2, NULL, s) == 4);
	CHECK(s->nprocs == -1);
	hmb_telemetry_free(&t);
}

/* The marks where people read them: the table's mark column, the progress line. */
static void test_marks_shown(void)
{
	struct hmb_record *a = hmb_record_new("memcpy", "h2d/pinned/async");
	struct hmb_record *b = hmb_record_new("memcpy", "d2h/pinned/async");
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	hmb_record_bytes(a, 1 << 30);
	hmb_record_bytes(b, 1 << 30);
	for (int i = 0; i < 10; i++) {
		hmb_sample(a, 0.02 * (1.0 + 0.10 * jitter(i)));     /* +-10%: unstable */
		hmb_sample(b, 0.02 * (1.0 + 0.001 * jitter(i)));    /* stable */
	}
	hmb_observe_str(b, "gpu_shared_with", "777");
	a->next = b;
	f = open_memstream(&text, &len);
	hmb_table_print(f, NULL, a, 0);
	hmb_progress_print(f, a);
	hmb_progress_print(f, b);
	fclose(f);
	/* the table: the mark column, a row per case (two cases of one record
	 * each side by side), the mark ending each row */
	CHECK(text && strstr(text, "  mark\n"));
	CHECK(text && strstr(text, "\n  h2d/pinned/async ") &&
	      strstr(strstr(text, "\n  h2d/pinned/async "), "  ~\n"));
	CHECK(text && strstr(text, "\n  d2h/pinned/async ") &&
	      strstr(strstr(text, "\n  d2h/pinned/async "), "  S\n"));
	CHECK(text && strstr(text, ", unstable)"));
	CHECK(text && strstr(text, "(CI +-0.0"));
	free(text);
	hmb_record_free(a);
	hmb_record_free(b);
}

/* The GPU at the slow samples: which samples are slow, the medians of the
 * readings after them and after the others, and when a record says so. */
static void test_slow_samples(void)
{
	double s[12], clk[12], tmp[12];
	struct hmb_slow_split sp;
	struct hmb_gpu_trail g = { 0 };
	struct hmb_record *r = hmb_record_new("memcpy", "h2d/pinned/async");
	struct hmb_record *steady = hmb_record_new("memcpy", "d2h/pinned/async");
	const struct hmb_kv *kv;

	for (int i = 0; i < 12; i++) {
		int slow = i == 3 || i == 7 || i == 10;   /* 20% slower, at a low clock, hot */
		s[i] = 0.010 * (slow ? 1.2 : 1.0 + 0.002 * jitter(i));
		clk[i] = slow ? 1200 : 1980;
		tmp[i] = slow ? 80 : 50 + i;
	}
	CHECK(hmb_slow_split(s, clk, tmp, 12, &sp) == 3);
	CHECK_NEAR(sp.slow_clock, 1200, 1e-9);
	CHECK_NEAR(sp.other_clock, 1980, 1e-9);
	CHECK_NEAR(sp.slow_temp, 80, 1e-9);
	CHECK_NEAR(sp.other_temp, 55, 1e-9); /* 50..61 without 53, 57, 60: median of 9 */
	clk[3] = clk[7] = clk[10] = NAN;            /* no reading after a slow sample */
	CHECK(hmb_slow_split(s, clk, tmp, 12, &sp) == 3 && isnan(sp.slow_clock));
	s[3] = s[7] = s[10] = 0.0104;               /* 4% slower: not slow */
	CHECK(hmb_slow_split(s, clk, tmp, 12, &sp) == 0);

	/* a record with outliers says it; a steady one without outliers says
	 * nothing, though one sample is 7% slow (slow, not an outlier) */
	for (int i = 0; i < 12; i++) {
		hmb_sample(r, i % 4 == 3 ? 0.012 : 0.010 * (1.0 + 0.002 * jitter(i)));
		hmb_sample(steady, i == 3 ? 0.0107 : 0.010 * (1.0 + 0.002 * jitter(i)));
		clk[i] = i % 4 == 3 ? 1400 : 1980;
	}
	g.clock_mhz = clk;
	g.temperature_c = tmp;
	g.n = g.cap = 12;
	hmb_gpu_trail_observe(&g, r);
	hmb_gpu_trail_observe(&g, steady);
	CHECK((kv = hmb_kv_find(&r->observed, "slow_samples")) && kv->num == 3);
	CHECK((kv = hmb_kv_find(&r->observed, "slow_sm_clock_mhz")) && kv->num == 1400);
	CHECK((kv = hmb_kv_find(&r->observed, "other_sm_clock_mhz")) && kv->num == 1980);
	CHECK(hmb_slow_split(steady->samples, clk, tmp, 12, &sp) == 1);
	CHECK(!hmb_kv_find(&steady->observed, "slow_samples"));
	hmb_record_free(r);
	hmb_record_free(steady);
}

/* --runs: the resolution decides a figure of several runs; one of one run, or
 * none, keeps its samples' rule. */
static void test_across_runs(void)
{
	double s[10];
	struct hmb_stability st, kept;
	struct hmb_noise_out res = { .runs = 2, .docs = 1,
				     .run = { .own = 0.01, .own_df = 1, .prior = 0.02, .prior_df = 1.5,
					      .sigma = 0.017, .df = 2.5 },
				     .sigma = 0.012, .df = 2.5, .resolution = 0.047, .stable = 1 };

	for (int i = 0; i < 10; i++)
		s[i] = 0.01 * (1.0 + 0.001 * jitter(i));
	CHECK(hmb_stability_compute(s, 10, &st) == 0 && st.stable == 1);
	kept = st;
	hmb_stability_resolution(&kept, NULL);
	CHECK(kept.stable == 1 && !strcmp(kept.reason, st.reason));
	res.resolution = NAN; /* one run: no resolution, the samples' rule stands */
	hmb_stability_resolution(&kept, &res);
	CHECK(kept.stable == 1 && !strcmp(kept.reason, st.reason));
	res.resolution = 0.047;
	hmb_stability_resolution(&kept, &res);
	CHECK(kept.stable == 1 && strstr(kept.reason, "resolution +-4.7%, within +-5%: 2 runs") &&
	      strstr(kept.reason, "its own 1%, 1 df; alike 2%, worth 1.5 runs"));
	res.stable = 0;
	res.resolution = 0.12;
	kept = st;
	hmb_stability_resolution(&kept, &res);
	CHECK(kept.stable == 0 && strstr(kept.reason, "resolution +-12%, above +-5%"));
	/* samples too few to judge stay so */
	kept = st;
	kept.stable = -1;
	hmb_stability_resolution(&kept, &res);
	CHECK(kept.stable == -1);

	/* two steady runs 3% apart: pooled, a step (drift); judged within the
	 * runs, steady, and the runs' disagreement says it instead */
	double two_runs[20];
	size_t counts[2] = { 10, 10 }, uneven[2] = { 10, 9 };
	for (int i = 0; i < 20; i++)
		two_runs[i] = 0.01 * (i < 10 ? 1.0 : 1.03) * (1.0 + 0.001 * jitter(i));
	CHECK(hmb_stability_compute(two_runs, 20, &st) == 0 && st.shape == HMB_SHAPE_DRIFT);
	hmb_stability_shape_within_runs(&st, two_runs, uneven, 2); /* counts that do not add up */
	CHECK(st.shape == HMB_SHAPE_DRIFT);
	hmb_stability_shape_within_runs(&st, two_runs, counts, 2);
	CHECK(st.shape == HMB_SHAPE_STEADY && fabs(st.half_change_rel) < 0.01);
	for (int i = 10; i < 20; i++)  /* the second run ramps: its drift is the record's */
		two_runs[i] = 0.01 * (1.0 + 0.01 * (i - 10));
	CHECK(hmb_stability_compute(two_runs, 20, &st) == 0);
	hmb_stability_shape_within_runs(&st, two_runs, counts, 2);
	CHECK(st.shape == HMB_SHAPE_DRIFT && st.half_change_rel > 0.03);

	/* a record's resolution judges it where its figures are made (tables, JSON) */
	struct hmb_record *r = hmb_record_new("memcpy", "h2d/pinned/async");
	struct hmb_run_figures runs = { .count = 3, .median = (double[]){ 1, 1, 1 },
					.judged = 1, .res = res };
	struct hmb_summary sum;
	for (int i = 0; i < 10; i++)
		hmb_sample(r, s[i]);
	hmb_record_summarize(r, &sum);
	CHECK(sum.stability.stable == 1);
	r->runs = &runs;
	hmb_record_summarize(r, &sum);
	CHECK(sum.stability.stable == 0);
	r->runs = NULL;
	hmb_record_free(r);

	/* and the shape of a record of two runs is judged within them */
	r = hmb_record_new("memcpy", "h2d/pinned/async");
	for (int i = 0; i < 20; i++)
		hmb_sample(r, 0.01 * (i < 10 ? 1.0 : 1.03) * (1.0 + 0.001 * jitter(i)));
	struct hmb_run_figures halves = { .count = 2, .samples = counts,
					  .median = (double[]){ 0.01, 0.0103 } };
	r->runs = &halves;
	hmb_record_summarize(r, &sum);
	CHECK(sum.stability.shape == HMB_SHAPE_STEADY);
	r->runs = NULL;
	hmb_record_free(r);
}

void hmb_test_stability_interval(void)
{
	test_interval();
}

void hmb_test_stability_shape(void)
{
	test_shape();
	test_marks_shown();
	test_slow_samples();
	test_across_runs();
}

void hmb_test_neighbours(void)
{
	test_neighbours();
}
