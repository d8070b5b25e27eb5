/*
 * test_runs.c - --runs N: three runs of a module merged into one record per
 * result (src/run/runs.c): the samples pooled, each run's median and metrics
 * kept, a record paired with the earlier run's that shares the most
 * parameters (a calibrated count may differ), one with no partner kept, a
 * failure in a later run taken over. Also `unit_tests --runs-json FILE`: that
 * report as a document, for the schema and compare tests.
 */
#include <math.h>
#include <string.h>

#include "doc/json_write.h"
#include "engine/record.h"
#include "engine/report.h"
#include "harness.h"
#include "engine/judge.h"
#include "run/runs.h"
#include "util/util.h"

static struct hmb_record *copy(const char *kase, int chunks, int iters, double t, int n,
			       double speedup)
{
	struct hmb_record *r = hmb_record_new("overlap", kase);

	hmb_param_num(r, "size", 1 << 20);
	hmb_param_num(r, "chunks", chunks);
	hmb_context_num(r, "iters", iters); /* calibrated in each run */
	hmb_param_str(r, "load", "balanced");
	hmb_record_bytes(r, 1 << 20);
	for (int i = 0; i < n; i++)
		hmb_sample(r, t * (1.0 + 0.01 * i));
	if (speedup > 0)
		hmb_metric(r, "speedup", speedup, "x");
	return r;
}

/* Run `number` of the module: the records from add[], merged. */
static void run(struct hmb_report *rep, struct hmb_record *before, int number,
		struct hmb_record **add, int n)
{
	struct hmb_record *last = rep->tail;

	for (int i = 0; i < n; i++)
		if (add[i])
			hmb_report_add(rep, add[i]);
	hmb_runs_merge(rep, before, last, number);
}

/* Three runs after one record of another module: run 2 lacks the first
 * pipeline record and brings one of its own; run 3 fails the serial case. */
static struct hmb_record *three_runs(struct hmb_report *rep, struct hmb_options *opt)
{
	struct hmb_record *other, *before;

	memset(opt, 0, sizeof(*opt));
	opt->warmup = -1;
	opt->runs = 3;
	hmb_report_init(rep, opt, "all");
	other = hmb_record_new("memcpy", "h2d/pinned/async");
	hmb_sample(other, 1e-3);
	hmb_report_add(rep, other);
	before = rep->tail;
	run(rep, before, 1, (struct hmb_record *[]){
		copy("serial", 1, 7, 1e-3, 3, 0), copy("pipeline", 2, 7, 2e-3, 3, 1.5),
		copy("pipeline", 4, 7, 3e-3, 3, 2.0) }, 3);
	run(rep, before, 2, (struct hmb_record *[]){
		copy("serial", 1, 8, 1.1e-3, 2, 0), copy("pipeline", 4, 8, 3.3e-3, 2, 3.0),
		copy("pipeline", 8, 8, 4e-3, 2, 2.5) }, 3);
	{
		struct hmb_record *failed = copy("serial", 1, 9, 1.2e-3, 1, 0);
		hmb_record_status(failed, HMB_FAILED, "hipMemcpyAsync(...) failed at x.c:1");
		run(rep, before, 3, (struct hmb_record *[]){
			failed, copy("pipeline", 2, 9, 2.2e-3, 1, 1.7),
			copy("pipeline", 4, 9, 3.6e-3, 1, 4.0) }, 3);
	}
	return before;
}

void hmb_test_runs_merge(void)
{
	struct hmb_report rep;
	struct hmb_options opt;
	struct hmb_record *r = three_runs(&rep, &opt)->next;
	const struct hmb_kv *m;

	CHECK(rep.count == 5); /* memcpy, serial, two pipelines, the one of run 2 */
	/* serial: all three runs, the third's failure taken over */
	CHECK(!strcmp(r->name, "serial") && r->runs && r->runs->count == 3);
	CHECK(r->nsamples == 6 && r->runs->samples[0] == 3 && r->runs->samples[1] == 2 &&
	      r->runs->samples[2] == 1);
	CHECK_NEAR(r->runs->median[0], 1.01e-3, 1e-12);
	CHECK_NEAR(r->runs->median[1], 1.1e-3 * 1.005, 1e-12);
	CHECK_NEAR(r->runs->median[2], 1.2e-3, 1e-12);
	CHECK(r->status == HMB_FAILED && r->reason && !strncmp(r->reason, "run 3: hipMemcpyAsync", 21));
	CHECK(hmb_kv_find(&r->params, "iters")->num == 7); /* the first run's */
	/* chunks=2: missing from run 2, so it holds runs 1 and 3 */
	r = r->next;
	CHECK(hmb_kv_find(&r->params, "chunks")->num == 2 && r->runs->count == 2);
	CHECK(r->nsamples == 4 && r->runs->samples[1] == 1);
	CHECK_NEAR(r->runs->median[1], 2.2e-3, 1e-12);
	m = hmb_kv_find(&r->metrics, "speedup");
	CHECK(m && fabs(m->num - 1.6) < 1e-12); /* the median of 1.5 and 1.7 */
	CHECK(r->runs->nmetrics == 1 && r->runs->metric[0].value[1] == 1.7);
	/* chunks=4: paired with run 2's chunks=4, not its first pipeline record */
	r = r->next;
	CHECK(hmb_kv_find(&r->params, "chunks")->num == 4 && r->runs->count == 3);
	CHECK_NEAR(r->runs->median[1], 3.3e-3 * 1.005, 1e-12);
	m = hmb_kv_find(&r->metrics, "speedup");
	CHECK(m && m->num == 3.0); /* the median of 2, 3 and 4 */
	/* chunks=8: run 2's alone */
	r = r->next;
	CHECK(r && hmb_kv_find(&r->params, "chunks")->num == 8 && r->runs->count == 1);
	CHECK(r == rep.tail && !r->next);
	/* the record before the module's runs is left alone */
	CHECK(rep.head->runs == NULL && rep.head->nsamples == 1);
	hmb_report_free(&rep);
}

/* A copy of `kase` in two runs whose medians are t1 and t2 (10 samples each,
 * tight), at `size`. */
static struct hmb_record *two_runs(struct hmb_report *rep, const char *kase, double size,
				   double t1, double t2)
{
	struct hmb_record *r = hmb_record_new("memcpy", kase);
	struct hmb_run_figures *f = hmb_xcalloc(1, sizeof(*f));

	hmb_param_num(r, "size", size);
	hmb_context_str(r, "clock", "host-monotonic");
	for (int i = 0; i < 20; i++)
		hmb_sample(r, (i < 10 ? t1 : t2) * (1.0 + 0.0001 * (i % 10)));
	f->count = f->cap = 2;
	f->samples = hmb_xcalloc(2, sizeof(*f->samples));
	f->median = hmb_xcalloc(2, sizeof(*f->median));
	f->samples[0] = f->samples[1] = 10;
	f->median[0] = t1 * 1.00045;
	f->median[1] = t2 * 1.00045;
	r->runs = f;
	hmb_report_add(rep, r);
	return r;
}

/* How small a change each figure of several runs can show: eight async
 * copies whose two runs are 0.4% apart (their samples 0.01% apart) are
 * stable; one whose runs are 20% apart is far noisier than those alike say:
 * its own runs stand, and it is unstable; four sizes of a copy whose runs are
 * 2.5% apart can show a change between 5% and 10% (about 7%): unstable, the
 * mark is at 5%; a failed record and one of one run are not judged, and failed
 * records' runs move no other figure. */
void hmb_test_runs_resolution(void)
{
	static const char *const kinds[] = { "h2d/pinned/async", "d2h/pinned/async",
					     "h2d/registered/async", "d2h/registered/async" };
	struct hmb_report rep;
	struct hmb_options opt;
	struct hmb_summary sum;
	struct hmb_record *quiet[8], *noisy, *middle[4], *failed[2], *one;
	double before[9];

	memset(&opt, 0, sizeof(opt));
	hmb_report_init(&rep, &opt, "all");
	for (int i = 0; i < 8; i++)
		quiet[i] = two_runs(&rep, kinds[i % 4], 262144 << (i / 4), 10e-6,
				    10e-6 * exp(0.004 * (i % 3 ? 1 : -1)));
	noisy = two_runs(&rep, "d2d/device/async", 262144, 10e-6, 10e-6 * exp(0.2));
	for (int i = 0; i < 4; i++)
		middle[i] = two_runs(&rep, "d2h/pageable/sync", 262144 << i, 10e-6,
				     10e-6 * exp(0.025 * (i % 2 ? 1 : -1)));
	/* two failed copies beside the pinned ones in size, their runs twice as far apart */
	for (int i = 0; i < 2; i++) {
		failed[i] = two_runs(&rep, "h2d/pinned/async", 1048576 << i, 10e-6,
				     10e-6 * exp(0.008));
		hmb_record_status(failed[i], HMB_FAILED, "it broke");
	}
	one = two_runs(&rep, "h2d/pinned/sync", 262144, 10e-6, 10e-6);
	one->runs->count = 1;
	hmb_report_judge_resolution(&rep);

	for (int i = 0; i < 8; i++) {
		const struct hmb_noise_out *x = &quiet[i]->runs->res;
		CHECK(quiet[i]->runs->judged && x->runs == 2 && x->run.own_df == 1);
		CHECK_NEAR(x->run.own, 0.004 / sqrt(2.0), 1e-6);
		CHECK(x->resolution < 0.05 && x->stable);
	}
	hmb_record_summarize(quiet[0], &sum);
	CHECK(sum.stability.stable == 1 && strstr(sum.stability.reason, "within +-5%: 2 runs"));

	CHECK(noisy->runs->judged && noisy->runs->res.resolution > 0.5);
	CHECK_NEAR(noisy->runs->res.run.sigma, 0.2 / sqrt(2.0), 1e-6);
	hmb_record_summarize(noisy, &sum);
	CHECK(sum.stability.stable == 0 && strstr(sum.stability.reason, "above +-5%"));
	for (int i = 0; i < 4; i++)
		CHECK(middle[i]->runs->judged && middle[i]->runs->res.resolution > 0.05 &&
		      middle[i]->runs->res.resolution < 0.10 && !middle[i]->runs->res.stable);

	CHECK(!failed[0]->runs->judged && !failed[1]->runs->judged && !one->runs->judged);
	hmb_record_summarize(one, &sum); /* its samples' rule stands */
	CHECK(sum.stability.stable == 1 && strstr(sum.stability.reason, "CI of the median"));

	/* the failed record's runs move no other figure: as if it had none */
	for (int i = 0; i < 8; i++)
		before[i] = quiet[i]->runs->res.resolution;
	before[8] = noisy->runs->res.resolution;
	failed[0]->runs->count = failed[1]->runs->count = 0;
	hmb_report_judge_resolution(&rep);
	for (int i = 0; i < 8; i++)
		CHECK(quiet[i]->runs->res.resolution == before[i]);
	CHECK(noisy->runs->res.resolution == before[8]);
	hmb_report_free(&rep);
}

/* merge: a second document's records join the first's of their identity,
 * their runs tagged with their document; one the first lacks is kept. */
void hmb_test_runs_merge_documents(void)
{
	struct hmb_report rep;
	struct hmb_options opt;
	struct hmb_record *a, *b, *last, *extra;

	memset(&opt, 0, sizeof(opt));
	hmb_report_init(&rep, &opt, "merge");
	a = two_runs(&rep, "h2d/pinned/async", 4096, 1e-5, 1.1e-5);
	two_runs(&rep, "d2h/pinned/async", 4096, 2e-5, 2.1e-5);
	hmb_runs_merge_document(&rep, NULL, 0);
	CHECK(a->runs->doc && a->runs->doc[0] == 0 && a->runs->doc[1] == 0);
	last = rep.tail;
	b = two_runs(&rep, "h2d/pinned/async", 4096, 1.2e-5, 1.3e-5);
	extra = two_runs(&rep, "h2d/pinned/sync", 4096, 3e-5, 3.1e-5);
	(void)b;
	hmb_runs_merge_document(&rep, last, 1);
	CHECK(rep.count == 3 && a->runs->count == 4 && a->nsamples == 40);
	CHECK(a->runs->doc[2] == 1 && a->runs->doc[3] == 1);
	CHECK_NEAR(a->runs->median[2], 1.2e-5 * 1.00045, 1e-15);
	CHECK(a->runs->samples[2] == 10 && a->samples[20] == 1.2e-5);
	CHECK(extra == rep.tail && extra->runs->doc[0] == 1 && extra->runs->doc[1] == 1);
	hmb_report_judge_resolution(&rep);
	CHECK(a->runs->judged && a->runs->res.docs == 2 && a->runs->res.doc.own_df == 1);
	hmb_report_free(&rep);
}

/* A module's run read back from its process's document says whether that run was
 * stable; merged into several runs, the record is judged over the runs, not as the
 * one run's document said. */
void hmb_test_runs_rejudged(void)
{
	struct hmb_report rep;
	struct hmb_options opt;
	struct hmb_record *before, *r, *again;
	struct hmb_summary sum;

	memset(&opt, 0, sizeof(opt));
	hmb_report_init(&rep, &opt, "all");
	before = rep.tail;
	r = copy("serial", 1, 7, 1e-3, 10, 0);
	r->written_stable = 1; /* its own process: tight samples */
	r->written_reason = hmb_xstrdup("95% CI of the median +-0.5%, within +-1%");
	run(&rep, before, 1, (struct hmb_record *[]){ r }, 1);
	again = copy("serial", 1, 8, 1.3e-3, 10, 0); /* the next process: 30% slower */
	again->written_stable = 1;
	run(&rep, before, 2, (struct hmb_record *[]){ again }, 1);
	hmb_report_judge_resolution(&rep);
	r = rep.head;
	CHECK(r->runs->count == 2 && r->written_stable == -1 && !r->written_reason);
	hmb_record_summarize(r, &sum);
	CHECK(sum.stability.stable == 0 && strstr(sum.stability.reason, "resolution"));
	hmb_report_free(&rep);
}

/* all's rounds: memcpy, pool, memcpy, pool; each module's second run merged
 * into its first, across the other module's records in between. */
void hmb_test_runs_interleaved(void)
{
	struct hmb_report rep;
	struct hmb_options opt;
	struct hmb_record *memcpy_before, *pool_before, *r;

	memset(&opt, 0, sizeof(opt));
	hmb_report_init(&rep, &opt, "all");
	memcpy_before = rep.tail;
	run(&rep, memcpy_before, 1, (struct hmb_record *[]){ copy("serial", 1, 7, 1e-3, 3, 0) }, 1);
	pool_before = rep.tail;
	run(&rep, pool_before, 1, (struct hmb_record *[]){ copy("pipeline", 2, 7, 2e-3, 3, 0) }, 1);
	run(&rep, memcpy_before, 2, (struct hmb_record *[]){ copy("serial", 1, 8, 1.1e-3, 2, 0) },
	    1);
	run(&rep, pool_before, 2, (struct hmb_record *[]){ copy("pipeline", 2, 8, 2.2e-3, 2, 0) },
	    1);
	CHECK(rep.count == 2);
	r = rep.head;
	CHECK(!strcmp(r->name, "serial") && r->runs->count == 2 && r->nsamples == 5);
	r = r->next;
	CHECK(!strcmp(r->name, "pipeline") && r->runs->count == 2 && r->nsamples == 5);
	CHECK(r == rep.tail && !r->next);
	hmb_report_free(&rep);
}

int hmb_test_write_runs_json(const char *path)
{
	struct hmb_report rep;
	struct hmb_options opt;
	char err[512];
	int rc;

	three_runs(&rep, &opt);
	rep.complete = 1;
	rc = hmb_json_write(&rep, path, err, sizeof(err));
	if (rc)
		fprintf(stderr, "%s\n", err);
	hmb_report_free(&rep);
	return rc ? 1 : 0;
}
