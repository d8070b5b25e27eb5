/* figures.c - compare's index of a document's figures over its records
 * (figures.h): each result's parameters as compare matches and shows them,
 * its figures and their runs, and its identity. */
#include "compare/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/identity.h"
#include "doc/renames.h"
#include "doc/units.h"
#include "util/sizes.h"
#include "util/text.h"
#include "util/util.h"

/* prefix then text, in memory of its own. */
static char *joined(const char *prefix, const char *text)
{
	size_t n = strlen(prefix), m = strlen(text);
	char *s = hmb_xcalloc(n + m + 1, 1);

	memcpy(s, prefix, n);
	memcpy(s + n, text, m);
	return s;
}

/* A parameter as compare matches it (exact: its type and every digit) and
 * shows it (text: a byte count as typed, "64M"; whole numbers whole; yes/no). */
static void param_of(const struct hmb_kv *kv, const char *renamed_kind,
		     struct hmb_compare_param *p)
{
	char buf[64];

	p->name = joined("", hmb_shown(kv->key));
	if (renamed_kind || kv->type == HMB_KV_STR) {
		const char *s = renamed_kind ? renamed_kind : kv->str;
		p->is_text = 1;
		p->text = joined("", hmb_shown(s));
		p->exact = joined("s:", s);
	} else if (kv->type == HMB_KV_BOOL) {
		p->text = joined("", kv->num ? "yes" : "no");
		p->exact = joined("", kv->num ? "b:1" : "b:0");
	} else {
		double v = kv->num;
		if (v >= 1 && v == floor(v) && v <= 9007199254740992.0 && hmb_is_bytes_name(kv->key))
			hmb_bytes_text(v, buf, sizeof(buf));
		else
			hmb_number_text(v, buf, sizeof(buf));
		p->text = joined("", buf);
		snprintf(buf, sizeof(buf), "n:%.17g", v);
		p->exact = joined("", buf);
	}
}

/* The result of record r: its case under its current name, with the host
 * memory the new name says where it was renamed, every parameter as
 * written, who ran beside it. */
static void result_of(const struct hmb_record *r, struct hmb_compare_result *res)
{
	const struct hmb_kv *coherence = hmb_kv_find(&r->params, "coherence");
	const char *kind, *name;
	char now[256];

	memset(res, 0, sizeof(*res));
	res->rec = r;
	res->module = r->module;
	name = hmb_case_current_name(r->module, r->name, coherence && coherence->type == HMB_KV_STR
				     ? coherence->str : "?", now, sizeof(now), &kind);
	res->kase = joined("", name);
	res->gpu = hmb_record_gpu(r);
	res->p = hmb_xcalloc(r->params.n + 1, sizeof(*res->p));
	for (size_t k = 0; k < r->params.n; k++)
		param_of(&r->params.v[k], kind && !strcmp(r->params.v[k].key, "host_memory") ? kind
				 : NULL, &res->p[res->np++]);
	for (size_t k = 0; k < r->observed.n; k++) {
		const struct hmb_kv *o = &r->observed.v[k];
		if (o->type != HMB_KV_STR || !o->str[0])
			continue;
		if (!strcmp(o->key, "ran_beside_gpus"))
			res->beside = o->str;
		else if (!strcmp(o->key, "host_link_shared_with_gpus"))
			res->host_shared = o->str;
	}
	res->within = NAN;
	if (r->runs) {
		size_t total = 0;
		for (size_t k = 0; k < r->runs->count; k++)
			total += r->runs->samples[k];
		if (total == r->nsamples)
			res->within = hmb_noise_within_runs(r->samples, r->runs->samples, r->runs->count);
	}
}

static struct hmb_compare_figure *add_figure(struct hmb_compare_doc *d, size_t *cap,
					     const char *name, const char *unit, double value)
{
	struct hmb_compare_figure *f;

	if (d->n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		d->fig = hmb_xrealloc(d->fig, *cap * sizeof(*d->fig));
	}
	f = &d->fig[d->n++];
	memset(f, 0, sizeof(*f));
	f->result = d->nres - 1;
	f->name = joined("", hmb_shown(name));
	f->unit = joined("", hmb_shown(unit));
	f->value = value;
	f->direction = hmb_unit_direction(unit);
	return f;
}

/* f's value in each run of r (values[k], NAN where that run had none); the
 * result's own figure from each run's median, scaled as the pooled median
 * is to f's value (GB/s and us/op are the same samples in another unit). */
static void attach_runs(struct hmb_compare_figure *f, const struct hmb_record *r,
			const double *values, double pooled)
{
	int timed = !strcmp(f->unit, "s") || !strcmp(f->unit, "us");

	f->nruns = r->runs->count;
	f->run_doc = r->runs->doc;
	f->runs = hmb_xcalloc(f->nruns + 1, sizeof(*f->runs));
	for (size_t k = 0; k < f->nruns; k++) {
		double x = values[k];
		if (f->main)
			x = x > 0 ? f->value * (timed ? x / pooled : pooled / x) : NAN;
		f->runs[k] = x;
	}
}

/* The figures of result r: its own, then its metrics, each with its runs. */
static void figures_of(struct hmb_compare_doc *d, size_t *cap, const struct hmb_record *r)
{
	struct hmb_compare_figure *f = NULL;
	struct hmb_summary sum;

	hmb_record_summarize(r, &sum);
	if (sum.gbps_median > 0)
		f = add_figure(d, cap, "GB/s", "GB/s", sum.gbps_median);
	else if (sum.us_per_op_median > 0)
		f = add_figure(d, cap, "us/op", "us", sum.us_per_op_median);
	else if (sum.has_stats && sum.stats.median >= 0)
		f = add_figure(d, cap, "median", "s", sum.stats.median);
	if (f) {
		f->main = 1;
		if (r->runs && sum.stats.median > 0)
			attach_runs(f, r, r->runs->median, sum.stats.median);
	}
	for (size_t k = 0; k < r->metrics.n; k++) {
		const struct hmb_kv *m = &r->metrics.v[k];
		f = add_figure(d, cap, m->key, m->unit ? m->unit : "", m->num);
		for (size_t j = 0; r->runs && j < r->runs->nmetrics; j++)
			if (!strcmp(r->runs->metric[j].name, m->key)) {
				attach_runs(f, r, r->runs->metric[j].value, 0);
				break;
			}
	}
}

void hmb_compare_doc_of(struct hmb_compare_doc *d, const struct hmb_report *rep,
			const struct hmb_doc_about *about)
{
	size_t cap = 0, n = 0;

	memset(d, 0, sizeof(*d));
	d->about = about;
	for (const struct hmb_record *r = rep->head; r; r = r->next)
		n += r->status == HMB_OK;
	d->res = hmb_xcalloc(n + 1, sizeof(*d->res));
	for (const struct hmb_record *r = rep->head; r; r = r->next) {
		if (r->status != HMB_OK)
			continue;
		result_of(r, &d->res[d->nres++]);
		figures_of(d, &cap, r);
	}
}

void hmb_compare_doc_free(struct hmb_compare_doc *d)
{
	for (size_t i = 0; i < d->nres; i++) {
		struct hmb_compare_result *r = &d->res[i];
		for (size_t k = 0; k < r->np; k++) {
			free(r->p[k].name);
			free(r->p[k].text);
			free(r->p[k].exact);
		}
		free(r->p);
		free(r->kase);
		free(r->key);
		free(r->label);
	}
	for (size_t i = 0; i < d->n; i++) {
		free(d->fig[i].name);
		free(d->fig[i].unit);
		free(d->fig[i].runs);
	}
	free(d->res);
	free(d->fig);
	memset(d, 0, sizeof(*d));
}

/* ---- identity ------------------------------------------------------------- */

/* A text parameter whose value the case names (direction=h2d of
 * h2d/pinned/async) adds nothing to a label. */
static int named_by_case(const struct hmb_compare_result *r, const struct hmb_compare_param *p)
{
	return p->is_text && hmb_case_names(r->kase, p->text);
}

static int cmp_param(const void *x, const void *y)
{
	const struct hmb_compare_param *a = *(const struct hmb_compare_param *const *)x;
	const struct hmb_compare_param *b = *(const struct hmb_compare_param *const *)y;
	int c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->exact, b->exact);
}

/* s at *at, *at moved past it (without the NUL). */
static void put(char **at, const char *s)
{
	size_t n = strlen(s);
	memcpy(*at, s, n);
	*at += n;
}

/* The key of result r: module, case, identity parameters in name order, and
 * the GPU where GPUs are matched one to one. */
static char *result_key(const struct hmb_compare_result *r, int with_gpu)
{
	const struct hmb_compare_param **s = hmb_xcalloc(r->np + 1, sizeof(*s));
	size_t n = 0, len = strlen(r->module) + strlen(r->kase) + 32;
	char *key, *at, gpu[24];

	for (size_t k = 0; k < r->np; k++)
		if (!r->p[k].context) {
			s[n++] = &r->p[k];
			len += strlen(r->p[k].name) + strlen(r->p[k].exact) + 2;
		}
	qsort(s, n, sizeof(*s), cmp_param);
	at = key = hmb_xcalloc(len, 1);
	put(&at, r->module);
	put(&at, "\x1f");
	put(&at, r->kase);
	for (size_t k = 0; k < n; k++) {
		put(&at, "\x1f");
		put(&at, s[k]->name);
		put(&at, "=");
		put(&at, s[k]->exact);
	}
	if (with_gpu && r->gpu >= 0) {
		snprintf(gpu, sizeof(gpu), "\x1fGPU%d", r->gpu);
		put(&at, gpu);
	}
	free(s);
	return key;
}

/* module case params (and GPU where GPUs are matched one to one), for people. */
static char *result_label(const struct hmb_compare_result *r, int with_gpu)
{
	char *module = joined("", hmb_shown(r->module)), *kase = joined("", hmb_shown(r->kase));
	size_t len = strlen(module) + strlen(kase) + 32;
	char *label, *at, gpu[24];

	for (size_t k = 0; k < r->np; k++)
		len += strlen(r->p[k].name) + strlen(r->p[k].text) + 2;
	at = label = hmb_xcalloc(len, 1);
	put(&at, module);
	put(&at, " ");
	put(&at, kase);
	for (size_t k = 0; k < r->np; k++)
		if (r->p[k].labelled) {
			put(&at, " ");
			put(&at, r->p[k].name);
			put(&at, "=");
			put(&at, r->p[k].text);
		}
	if (with_gpu && r->gpu >= 0) {
		snprintf(gpu, sizeof(gpu), " GPU %d", r->gpu);
		put(&at, gpu);
	}
	free(module);
	free(kase);
	return label;
}

void hmb_compare_identify(struct hmb_compare_doc *d, int with_gpu)
{
	for (size_t i = 0; i < d->nres; i++) {
		struct hmb_compare_result *r = &d->res[i];
		/* shown in a label: identity parameters the case does not name already */
		for (size_t k = 0; k < r->np; k++) {
			r->p[k].context = r->rec->params.v[k].role != HMB_ROLE_IDENTITY;
			r->p[k].gpu = r->rec->params.v[k].role == HMB_ROLE_GPU;
			r->p[k].labelled = !r->p[k].context && !named_by_case(r, &r->p[k]);
		}
		free(r->key);
		free(r->label);
		r->key = result_key(r, with_gpu);
		r->label = result_label(r, with_gpu);
	}
	for (size_t i = 0; i < d->n; i++) {
		d->fig[i].key = d->res[d->fig[i].result].key;
		d->fig[i].label = d->res[d->fig[i].result].label;
	}
}
