/*
 * runs.c - `--runs N`: each module runs N times, each time in a fresh
 * process (isolate.c), the way pyperf spawns worker processes, so that a
 * comparison can see how much a figure moves from one process to the next
 * and not only within one. Each run's records are merged into the first
 * run's as they come: the samples pooled (the record's figures are derived
 * from them as ever) and each run's own figures kept beside them (record.h:
 * struct hmb_run_figures; a result's `runs` in the document): how many
 * samples it gave, its median and every metric. A metric's value is the
 * median of its runs' values.
 *
 * A record of a later run pairs with the earlier runs' record of its
 * identity (module, case and the parameters whose role is identity,
 * engine/record.h: those that define the
 * workload; a calibrated step count, which is context, may differ from run
 * to run), in order where a run repeats one; a record with no partner is
 * kept as it is, holding the one run.
 */
#include "run/runs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "util/util.h"

static void grow(struct hmb_run_figures *f)
{
	size_t cap = f->cap ? 2 * f->cap : 4;

	f->samples = hmb_xrealloc(f->samples, cap * sizeof(*f->samples));
	f->median = hmb_xrealloc(f->median, cap * sizeof(*f->median));
	if (f->doc)
		f->doc = hmb_xrealloc(f->doc, cap * sizeof(*f->doc));
	for (size_t i = 0; i < f->nmetrics; i++)
		f->metric[i].value = hmb_xrealloc(f->metric[i].value, cap * sizeof(double));
	f->cap = cap;
}

static struct hmb_run_metric *run_metric(struct hmb_run_figures *f, const struct hmb_kv *m)
{
	struct hmb_run_metric *rm;

	for (size_t i = 0; i < f->nmetrics; i++)
		if (!strcmp(f->metric[i].name, m->key))
			return &f->metric[i];
	f->metric = hmb_xrealloc(f->metric, (f->nmetrics + 1) * sizeof(*f->metric));
	rm = &f->metric[f->nmetrics++];
	rm->name = hmb_xstrdup(m->key);
	rm->unit = hmb_xstrdup(m->unit ? m->unit : "");
	rm->value = hmb_xcalloc(f->cap, sizeof(double));
	for (size_t k = 0; k < f->count; k++)
		rm->value[k] = NAN; /* the runs before had none */
	return rm;
}

/* The figures of one run (of `run`), added to into's runs. */
static void add_run(struct hmb_record *into, const struct hmb_record *run)
{
	struct hmb_run_figures *f = into->runs;
	struct hmb_stats st;
	size_t k;

	if (!f)
		f = into->runs = hmb_xcalloc(1, sizeof(*f));
	/* several runs are judged over the report's pool (engine/judge.c), not as
	 * the document of one run said */
	into->written_stable = -1;
	free(into->written_reason);
	into->written_reason = NULL;
	if (f->count == f->cap)
		grow(f);
	k = f->count++;
	if (f->doc)
		f->doc[k] = 0;
	f->samples[k] = run->nsamples;
	f->median[k] = hmb_stats_compute(run->samples, run->nsamples, &st) == 0 ? st.median : NAN;
	for (size_t i = 0; i < f->nmetrics; i++)
		f->metric[i].value[k] = NAN;
	for (size_t i = 0; i < run->metrics.n; i++)
		run_metric(f, &run->metrics.v[i])->value[k] = run->metrics.v[i].num;
}

/* Each metric of r: the median of its runs' values. */
static void settle_metrics(struct hmb_record *r)
{
	const struct hmb_run_figures *f = r->runs;
	double *v = hmb_xcalloc(f->count, sizeof(double));

	for (size_t i = 0; i < f->nmetrics; i++) {
		struct hmb_stats st;
		size_t n = 0;
		for (size_t k = 0; k < f->count; k++)
			if (!isnan(f->metric[i].value[k]))
				v[n++] = f->metric[i].value[k];
		if (hmb_stats_compute(v, n, &st) == 0)
			hmb_metric(r, f->metric[i].name, st.median, f->metric[i].unit);
	}
	free(v);
}

/* run (of run `number`) into `into`: samples pooled, its figures kept, a
 * failure or a refusal taken over with the run it happened in. */
static void merge(struct hmb_record *into, const struct hmb_record *run, int number)
{
	for (size_t i = 0; i < run->nsamples; i++)
		hmb_sample(into, run->samples[i]);
	add_run(into, run);
	if (run->status != HMB_OK && into->status == HMB_OK)
		hmb_record_status(into, run->status, "run %d: %s", number,
				  run->reason ? run->reason : "");
	settle_metrics(into);
}

static int same_case(const struct hmb_record *a, const struct hmb_record *b)
{
	return !strcmp(a->module, b->module) && !strcmp(a->name, b->name);
}

/* Every parameter of a that identifies it (its role) is in b, the same. */
static int identity_in(const struct hmb_record *a, const struct hmb_record *b)
{
	for (size_t i = 0; i < a->params.n; i++) {
		const struct hmb_kv *x = &a->params.v[i], *y = hmb_kv_find(&b->params, x->key);
		if (hmb_record_param_is_context(a, x->key))
			continue;
		if (!y || x->type != y->type || x->num != y->num ||
		    (x->type == HMB_KV_STR && strcmp(x->str, y->str)))
			return 0;
	}
	return 1;
}

/* The record from first to last that r, of run `number`, pairs with: the
 * first of its identity not merged with this run yet; NULL: none. */
static struct hmb_record *partner(struct hmb_record *first, struct hmb_record *last,
				  const struct hmb_record *r, int number)
{
	for (struct hmb_record *p = first; p; p = p == last ? NULL : p->next)
		if (p->runs && p->runs->count < (size_t)number && same_case(p, r) &&
		    identity_in(p, r) && identity_in(r, p))
			return p;
	return NULL;
}

void hmb_runs_merge(struct hmb_report *rep, struct hmb_record *before, struct hmb_record *last,
		    int number)
{
	struct hmb_record *first = before ? before->next : rep->head, *r, *next;

	if (number <= 1 || last == before) {
		/* the first run, or the first with any record: each holds one run */
		for (r = last ? last->next : first; r; r = r->next)
			add_run(r, r);
		return;
	}
	r = last->next;
	last->next = NULL;
	rep->tail = last;
	for (; r; r = next) {
		struct hmb_record *p = partner(first, last, r, number);
		next = r->next;
		if (p) {
			merge(p, r, number);
			hmb_record_free(r);
			rep->count--;
			continue;
		}
		add_run(r, r);
		r->next = NULL;
		last->next = r;
		last = r;
		rep->tail = r;
	}
}

/* ---- merge: the runs of several documents ------------------------------ */

/* Each run of f from `from` on is of document first + the one it names
 * (a merged document's runs keep theirs apart). */
static void tag_runs(struct hmb_run_figures *f, size_t from, int first)
{
	if (!f->doc)
		f->doc = hmb_xcalloc(f->cap ? f->cap : 1, sizeof(*f->doc));
	for (size_t k = from; k < f->count; k++)
		f->doc[k] += first;
}

/* Every run that r holds (a record of one run: itself), appended to into's. */
static void append_runs(struct hmb_record *into, const struct hmb_record *r, int doc)
{
	const struct hmb_run_figures *g = r->runs;
	size_t from = 0;

	if (!g) {
		merge(into, r, doc + 1);
		into->runs->doc[into->runs->count - 1] = doc;
		return;
	}
	for (size_t k = 0; k < g->count; from += g->samples[k], k++) {
		struct hmb_run_figures *f = into->runs;
		size_t at;
		for (size_t i = 0; i < g->samples[k] && from + i < r->nsamples; i++)
			hmb_sample(into, r->samples[from + i]);
		if (f->count == f->cap)
			grow(f);
		at = f->count++;
		f->samples[at] = g->samples[k];
		f->median[at] = g->median[k];
		for (size_t i = 0; i < f->nmetrics; i++)
			f->metric[i].value[at] = NAN;
		for (size_t i = 0; i < g->nmetrics; i++) {
			struct hmb_kv m = { g->metric[i].name, HMB_KV_NUM, NULL, g->metric[i].value[k],
					    g->metric[i].unit, HMB_ROLE_IDENTITY };
			run_metric(f, &m)->value[at] = g->metric[i].value[k];
		}
		if (!f->doc)
			tag_runs(f, 0, 0);
		f->doc[at] = doc + (g->doc ? g->doc[k] : 0);
	}
	if (r->status != HMB_OK && into->status == HMB_OK)
		hmb_record_status(into, r->status, "document %d: %s", doc + 1,
				  r->reason ? r->reason : "");
	settle_metrics(into);
}

/* Does record p hold a run of document doc or a later one? */
static int holds_document(const struct hmb_record *p, int doc)
{
	for (size_t k = 0; p->runs && p->runs->doc && k < p->runs->count; k++)
		if (p->runs->doc[k] >= doc)
			return 1;
	return 0;
}

void hmb_runs_merge_document(struct hmb_report *rep, struct hmb_record *last, int doc)
{
	struct hmb_record *r, *next;

	if (!last) { /* the first document: each record's runs are of it */
		for (r = rep->head; r; r = r->next) {
			if (!r->runs)
				add_run(r, r);
			tag_runs(r->runs, 0, 0);
			r->written_stable = -1;
		}
		return;
	}
	r = last->next;
	last->next = NULL;
	rep->tail = last;
	for (; r; r = next) {
		struct hmb_record *p = rep->head;
		next = r->next;
		for (; p; p = p == last ? NULL : p->next)
			if (p->runs && !holds_document(p, doc) && same_case(p, r) &&
			    identity_in(p, r) && identity_in(r, p))
				break;
		if (p) {
			append_runs(p, r, doc);
			hmb_record_free(r);
			rep->count--;
			continue;
		}
		/* a result the earlier documents lack: kept, its runs of this one */
		if (!r->runs)
			add_run(r, r);
		tag_runs(r->runs, 0, doc);
		r->written_stable = -1;
		r->next = NULL;
		last->next = r;
		last = r;
		rep->tail = r;
	}
}
