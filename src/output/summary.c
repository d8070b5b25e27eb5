/* summary.c - how each headline figure the modules declare
 * (engine/headline.h) is picked from a document's records; the anomalies of a
 * document. summary.h says how to read the result. */
#include "output/summary.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/units.h"
#include "engine/module.h"
#include "stats/resolution.h"
#include "stats/stats.h"
#include "util/nearest.h"
#include "util/numfmt.h"
#include "util/sizes.h"
#include "util/text.h"
#include "util/util.h"

/* ---- picking a headline's record ------------------------------------------ */

enum term_kind { T_EQ, T_MAX, T_MIN, T_GT, T_GPU };

struct term {
	char name[32];
	enum term_kind kind;
	char text[64];   /* T_EQ */
	double num;      /* T_EQ where a number, T_GT */
	int is_num;
};

/* "size=max,gpus>1": the terms of a headline's params. */
static int parse_terms(const char *spec, struct term *t, int max)
{
	int n = 0;

	while (spec && *spec && n < max) {
		size_t len = strcspn(spec, ","), k = strcspn(spec, "=>");
		struct term *x = &t[n++];
		char *end;
		memset(x, 0, sizeof(*x));
		snprintf(x->name, sizeof(x->name), "%.*s", (int)(k < len ? k : len), spec);
		snprintf(x->text, sizeof(x->text), "%.*s", (int)(k < len ? len - k - 1 : 0),
			 spec + k + 1);
		x->num = strtod(x->text, &end);
		x->is_num = *x->text && !*end;
		x->kind = spec[k] == '>' ? T_GT : !strcmp(x->text, "max") ? T_MAX :
			  !strcmp(x->text, "min") ? T_MIN : !strcmp(x->text, "$gpu") ? T_GPU : T_EQ;
		spec += len + (spec[len] == ',');
	}
	return n;
}

static int param_num(const struct hmb_record *r, const char *name, double *v)
{
	const struct hmb_kv *kv = hmb_kv_find(&r->params, name);

	if (!kv || kv->type == HMB_KV_STR)
		return -1;
	*v = kv->num;
	return 0;
}

/* Does r meet the terms that select by value (not max or min)? */
static int meets(const struct hmb_record *r, const struct term *t, int nt, int gpu)
{
	for (int i = 0; i < nt; i++) {
		const struct hmb_kv *kv = hmb_kv_find(&r->params, t[i].name);
		double v;
		switch (t[i].kind) {
		case T_EQ:
			if (!kv || (kv->type == HMB_KV_STR ? t[i].is_num || strcmp(kv->str, t[i].text)
							     : !t[i].is_num || kv->num != t[i].num))
				return 0;
			break;
		case T_GT:
			if (param_num(r, t[i].name, &v) || !(v > t[i].num))
				return 0;
			break;
		case T_GPU:
			if (param_num(r, t[i].name, &v) || v != gpu)
				return 0;
			break;
		case T_MAX:
		case T_MIN:
			if (param_num(r, t[i].name, &v))
				return 0;
			break;
		}
	}
	return 1;
}

/* The figure of a record in the headline's terms: 0, or -1 where it has none. */
static int figure_of(const struct hmb_record *r, const char *figure, double *v, const char **unit)
{
	struct hmb_summary s;
	const struct hmb_kv *m;

	if (!strcmp(figure, "GB/s") || !strcmp(figure, "time")) {
		hmb_record_summarize(r, &s);
		*unit = !strcmp(figure, "GB/s") ? "GB/s" : "us";
		*v = !strcmp(figure, "GB/s") ? s.gbps_median : s.stats.median * 1e6;
		return s.has_stats && *v > 0 ? 0 : -1;
	}
	m = hmb_kv_find(&r->metrics, figure);
	if (!m || !isfinite(m->num))
		return -1;
	*v = m->num;
	*unit = m->unit ? m->unit : "";
	return 0;
}

/* The record of a module, case pattern and terms, on GPU gpu (or any GPU's
 * where a record names none), that has the figure; NULL where none. */
static const struct hmb_record *pick(const struct hmb_sum_doc *d, const char *module,
				     const char *kase, const struct term *t, int nt,
				     const char *figure, int gpu)
{
	const struct hmb_record *best = NULL;
	double bestv[8] = { 0 };

	for (const struct hmb_record *r = d->rep.head; r; r = r->next) {
		int g = hmb_record_gpu(r), better = 0, k = 0;
		double v;
		const char *unit;
		if (r->status != HMB_OK || strcmp(r->module, module) || fnmatch(kase, r->name, 0) ||
		    (gpu >= 0 && g >= 0 && g != gpu) || !meets(r, t, nt, gpu) ||
		    figure_of(r, figure, &v, &unit))
			continue;
		/* max and min terms in order: the first that differs decides */
		for (int i = 0; i < nt && k < 8; i++) {
			double x = 0;
			if (t[i].kind != T_MAX && t[i].kind != T_MIN)
				continue;
			param_num(r, t[i].name, &x);
			if (best && !better && x != bestv[k]) {
				better = t[i].kind == T_MAX ? x > bestv[k] : x < bestv[k];
				if (!better)
					break;
			}
			k++;
		}
		if (best && !better)
			continue;
		best = r;
		for (int i = 0, j = 0; i < nt && j < 8; i++)
			if (t[i].kind == T_MAX || t[i].kind == T_MIN)
				param_num(r, t[i].name, &bestv[j++]);
	}
	return best;
}

/* The tables' marks (table.c): stability, then "S" where another process
 * used the GPU around the record's module. */
static void marks_of(const struct hmb_record *r, char *buf, size_t len)
{
	struct hmb_summary s;
	size_t used;

	buf[0] = '\0';
	hmb_record_summarize(r, &s);
	if (s.has_stats)
		hmb_stability_mark(&s.stability, buf, len);
	used = strlen(buf);
	if (hmb_kv_find(&r->observed, "gpu_shared_with") && used + 1 < len)
		snprintf(buf + used, len - used, "S");
}

/* What was picked, for people: the size, and the other parameters the
 * headline selects by (streams=4 chunks=16, src=0 dst=1). */
static void at_text(const struct hmb_record *r, const struct term *t, int nt, char *buf,
		    size_t len)
{
	size_t used = 0;
	double v;

	buf[0] = '\0';
	if (param_num(r, "size", &v) == 0 && v >= 1 && v < 9e15 && v == floor(v)) {
		char s[32];
		used += (size_t)snprintf(buf, len, "%s", hmb_bytes_text(v, s, sizeof(s)));
	}
	for (int i = 0; i < nt && used < len; i++) {
		const struct hmb_kv *kv = hmb_kv_find(&r->params, t[i].name);
		char num[32];
		if (!kv || !strcmp(t[i].name, "size"))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
					 t[i].name, kv->type == HMB_KV_STR ? kv->str :
					 hmb_number_text(kv->num, num, sizeof(num)));
		if (!strcmp(t[i].name, "src") && param_num(r, "dst", &v) == 0 && used < len)
			used += (size_t)snprintf(buf + used, len - used, " dst=%s",
						 hmb_number_text(v, num, sizeof(num)));
	}
}

static const struct hmb_sum_device *device_of(const struct hmb_sum_doc *d, int gpu)
{
	for (int i = 0; i < d->ndev; i++)
		if (d->dev[i].ordinal == gpu)
			return &d->dev[i];
	return d->ndev ? &d->dev[0] : NULL;
}

double hmb_figure_peak_gbps(const struct hmb_bench *const *benches, const struct hmb_record *r,
			    double link, double hbm)
{
	enum hmb_peak kind = hmb_case_peak(benches, r->module, r->name);
	double gpus = 0;

	switch (kind) {
	case HMB_PEAK_RECORD: return r->peak_gbps > 0 ? r->peak_gbps : 0;
	case HMB_PEAK_LINK: return link;
	case HMB_PEAK_LINK_BOTH: return 2 * link;
	case HMB_PEAK_LINK_GPUS:
	case HMB_PEAK_LINK_GPUS_BOTH:
		if (param_num(r, "gpus", &gpus) || !(gpus >= 1))
			return 0;
		return (kind == HMB_PEAK_LINK_GPUS_BOTH ? 2 : 1) * gpus * link;
	case HMB_PEAK_HBM_COPY: /* a copy reads and writes each byte it counts */
		return hbm / 2;
	case HMB_PEAK_NONE: break;
	}
	return 0;
}

/* The record of d (on GPU gpu) that is like's identity: its module and case,
 * and what the headline picks it by (size and terms: at_text); NULL: none. */
static const struct hmb_record *pick_like(const struct hmb_sum_doc *d, const struct hmb_record *like,
					  const struct term *t, int nt, const char *figure, int gpu)
{
	char want[64], at[64];
	double v;
	const char *unit;

	at_text(like, t, nt, want, sizeof(want));
	for (const struct hmb_record *r = d->rep.head; r; r = r->next) {
		int g = hmb_record_gpu(r);
		if (r->status != HMB_OK || strcmp(r->module, like->module) ||
		    strcmp(r->name, like->name) || (gpu >= 0 && g >= 0 && g != gpu) ||
		    figure_of(r, figure, &v, &unit))
			continue;
		at_text(r, t, nt, at, sizeof(at));
		if (!strcmp(at, want))
			return r;
	}
	return NULL;
}

/* A headline's cell: like NULL, the document's own pick (the largest size, ...);
 * else the base's identity (like, and its `over` record like_over), so that every
 * column of a summary holds the same figure, or says which it lacks. */
static void fill_cell(const struct hmb_sum *s, const struct hmb_module_headline *mh,
		      const struct hmb_sum_doc *d, int gpu, const struct hmb_sum_col *col,
		      const struct hmb_sum_cell *like, struct hmb_sum_cell *c)
{
	const struct hmb_headline *h = mh->h;
	struct term t[8];
	int nt = parse_terms(h->params, t, 8);
	const struct hmb_record *r, *b = NULL;
	const char *unit;
	double v, bv;

	memset(c, 0, sizeof(*c));
	c->h = h;
	if (like && like->found) {
		r = pick_like(d, like->rec, t, nt, h->figure, gpu);
		if (!r)
			snprintf(c->missing, sizeof(c->missing), "%s", like->at);
	} else {
		r = pick(d, mh->module, h->kase, t, nt, h->figure, gpu);
	}
	if (!r || figure_of(r, h->figure, &v, &unit))
		return;
	if (h->over) {
		const char *bu;
		b = like && like->found ? pick_like(d, like->base, t, nt, h->figure, gpu)
					: pick(d, mh->module, h->over, t, nt, h->figure, gpu);
		if (!b || figure_of(b, h->figure, &bv, &bu) || !(v > 0) || !(bv > 0)) {
			if (like && like->found)
				snprintf(c->missing, sizeof(c->missing), "%s", like->at);
			return;
		}
		v = hmb_unit_direction(unit) < 0 ? bv / v : v / bv;
		unit = "x";
	}
	c->found = 1;
	c->rec = r;
	c->base = b;
	c->value = v;
	snprintf(c->unit, sizeof(c->unit), "%s", unit);
	c->direction = hmb_unit_direction(c->unit);
	if (!strcmp(c->unit, "GB/s")) {
		c->peak_gbps = hmb_figure_peak_gbps(s->benches, r, col->link_peak_gbps,
						    col->hbm_peak_gbps);
		c->fraction = c->peak_gbps > 0 ? v / c->peak_gbps : 0;
	}
	marks_of(r, c->mark, sizeof(c->mark));
	if (b) {
		char bm[8];
		marks_of(b, bm, sizeof(bm));
		for (char *m = bm; *m; m++) {
			size_t n = strlen(c->mark);
			if (!strchr(c->mark, *m) && n + 1 < sizeof(c->mark)) {
				c->mark[n] = *m;
				c->mark[n + 1] = '\0';
			}
		}
	}
	at_text(r, t, nt, c->at, sizeof(c->at));
}

/* ---- ratios and numbers for people ------------------------------------- */

double hmb_sum_ratio(const struct hmb_sum_cell *base, const struct hmb_sum_cell *c)
{
	if (!base->found || !c->found || !(base->value > 0) || !(c->value > 0))
		return NAN;
	return c->direction < 0 ? base->value / c->value : c->value / base->value;
}

const char *hmb_sum_ratio_text(const struct hmb_sum_cell *base, const struct hmb_sum_cell *c,
			       int wide, char *buf, size_t len)
{
	double r = hmb_sum_ratio(base, c);

	if (!isfinite(r) || !c->direction)
		snprintf(buf, len, "%s", "");
	else if (!wide && r >= 99.5) /* the screen's 5 columns */
		snprintf(buf, len, ">99x");
	else if (!wide && r < 0.005)
		snprintf(buf, len, "<0.01");
	else
		hmb_fmt_ratio(buf, len, r);
	return buf;
}

const char *hmb_sum_value_text(double v, int wide, char *buf, size_t len)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (wide)
		snprintf(buf, len, a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 1 ? "%.2f" :
			 a >= 0.001 || a == 0 ? "%.3f" : "%.2g", v);
	else if (v < 0)
		snprintf(buf, len, a >= 1 ? "%.0f" : "%.1f", v);
	else if (a >= 999.5e3)
		snprintf(buf, len, "%.0fM", v / 1e6);
	else if (a >= 9999.5)
		snprintf(buf, len, "%.0fk", v / 1e3);
	else
		snprintf(buf, len, a >= 99.95 ? "%.0f" : a >= 9.995 ? "%.1f" : "%.2f", v);
	return buf;
}

/* ---- anomalies -------------------------------------------------------- */

static int status_rank(enum hmb_status s)
{
	return s == HMB_FAILED ? 0 : s == HMB_SKIPPED ? 1 : 2;
}

static int same_reason(const struct hmb_record *a, const struct hmb_record *b)
{
	return a->status == b->status && !strcmp(a->module, b->module) &&
	       !strcmp(a->reason ? a->reason : "", b->reason ? b->reason : "");
}

/* A module's name added to a list of names ("memcpy (power), node"), once. */
static void add_once(char *list, size_t len, char seen[][32], int *nseen, const char *name,
		     const char *why)
{
	size_t used = strlen(list);

	for (int i = 0; i < *nseen; i++)
		if (!strcmp(seen[i], name))
			return;
	if (*nseen < 32)
		snprintf(seen[(*nseen)++], 32, "%s", name);
	if (used + strlen(name) + 4 < len &&
	    snprintf(list + used, len - used, "%s%s%s%s%s", used ? ", " : "", name,
		     why && *why ? " (" : "", why && *why ? why : "", why && *why ? ")" : "") >=
	    (int)(len - used))
		hmb_utf8_trim(list);
}

/* The resolution of the document's figures of several runs (their records'
 * runs.res): how many can show 5% and 10%, and the modules whose median
 * resolution is above 10%, the noisiest first, with what their noise was
 * measured over: their runs, or documents (a merge). */
struct module_res {
	const char *name;
	double *res;
	size_t n, documents;
};

static int by_resolution(const void *a, const void *b)
{
	const struct hmb_sum_noisy *x = a, *y = b;
	return (x->resolution < y->resolution) - (x->resolution > y->resolution);
}

static void resolution(const struct hmb_sum_doc *d, struct hmb_sum_col *col)
{
	struct module_res mod[32];
	size_t nmod = 0;

	for (const struct hmb_record *r = d->rep.head; r; r = r->next) {
		const struct hmb_noise_out *x;
		size_t k;
		if (r->status != HMB_OK || !r->runs || !r->runs->judged)
			continue;
		x = &r->runs->res;
		col->resolved++;
		col->within5 += x->resolution <= 0.05;
		col->within10 += x->resolution <= 0.10;
		for (k = 0; k < nmod && strcmp(mod[k].name, r->module); k++)
			;
		if (k == nmod) {
			if (nmod == sizeof(mod) / sizeof(mod[0]))
				continue;
			mod[nmod++] = (struct module_res){ r->module, NULL, 0, 0 };
		}
		mod[k].res = hmb_xrealloc(mod[k].res, (mod[k].n + 1) * sizeof(double));
		mod[k].res[mod[k].n++] = x->resolution;
		mod[k].documents += x->docs >= 2;
	}
	for (size_t k = 0; k < nmod; k++) {
		struct hmb_stats st;
		if (hmb_stats_compute(mod[k].res, mod[k].n, &st) == 0 && st.median > 0.10 &&
		    col->nnoisy < (int)(sizeof(col->noisy) / sizeof(col->noisy[0])))
			col->noisy[col->nnoisy++] = (struct hmb_sum_noisy){
				mod[k].name, st.median, 2 * mod[k].documents > mod[k].n };
		free(mod[k].res);
	}
	qsort(col->noisy, (size_t)col->nnoisy, sizeof(col->noisy[0]), by_resolution);
}

/* Who ran beside the summarised GPU's records (summary.h). */
static void company(const struct hmb_record *r, struct hmb_sum_col *col)
{
	const struct hmb_kv *beside = hmb_kv_find(&r->observed, "ran_beside_gpus");
	const struct hmb_kv *host = hmb_kv_find(&r->observed, "host_link_shared_with_gpus");

	if (!beside || hmb_record_gpu(r) != col->gpu)
		return;
	col->beside++;
	col->host_shared += host != NULL;
	if (!col->beside_gpus[0])
		snprintf(col->beside_gpus, sizeof(col->beside_gpus), "%s", beside->str ? beside->str : "?");
}

static void anomalies(const struct hmb_sum *s, const struct hmb_sum_doc *d, struct hmb_sum_col *col)
{
	const struct hmb_telemetry *t = &d->rep.telemetry;
	struct hmb_sum_not_ok *all = NULL;
	size_t nall = 0;
	char hot[32][32], slow[32][32];
	int nhot = 0, nslow = 0;

	resolution(d, col);
	col->nfindings = 0;
	for (int i = 0; s->benches && s->benches[i]; i++) {
		const struct hmb_bench *b = s->benches[i];
		int n = b->findings ? b->findings(d->rep.head, col->link_peak_gbps,
						  col->findings + col->nfindings,
						  HMB_SUM_FINDINGS - col->nfindings) : 0;
		while (n-- > 0)
			col->finding_module[col->nfindings++] = b->name;
	}
	for (const struct hmb_record *r = d->rep.head; r; r = r->next) {
		struct hmb_summary s;
		size_t k;
		col->records++;
		if (r->status == HMB_OK) {
			hmb_record_summarize(r, &s);
			col->shared += hmb_kv_find(&r->observed, "gpu_shared_with") != NULL;
			company(r, col);
			if (!s.has_stats)
				continue;
			col->judged += s.stability.stable >= 0;
			col->unstable += s.stability.stable == 0;
			col->drift += s.stability.shape == HMB_SHAPE_DRIFT;
			col->bimodal += s.stability.shape == HMB_SHAPE_BIMODAL;
			col->outliers += s.stability.shape == HMB_SHAPE_STEADY && s.stability.outliers;
			continue;
		}
		col->unsupported += r->status == HMB_UNSUPPORTED;
		col->failed += r->status == HMB_FAILED;
		col->skipped += r->status == HMB_SKIPPED;
		for (k = 0; k < nall && !same_reason(all[k].first, r); k++)
			;
		if (k == nall) {
			all = hmb_xrealloc(all, (nall + 1) * sizeof(*all));
			all[nall++] = (struct hmb_sum_not_ok){ r, 0 };
		}
		all[k].count++;
	}
	/* failed first, then skipped, then unsupported; each in document order */
	col->not_ok_reasons = nall;
	for (int rank = 0; rank < 3; rank++)
		for (size_t k = 0; k < nall && col->nnot_ok < HMB_SUM_NOT_OK; k++)
			if (status_rank(all[k].first->status) == rank)
				col->not_ok[col->nnot_ok++] = all[k];
	free(all);
	col->telemetry_samples = t->n;
	for (int i = 0; i < t->n; i++) {
		const struct hmb_gpu_sample *s = &t->s[i];
		if (strcmp(s->when, "after") != 0)
			continue;
		if (s->throttled == 1)
			add_once(col->throttled, sizeof(col->throttled), hot, &nhot, s->module,
				 s->throttle);
		if (hmb_telemetry_link_below_max(s) == 1)
			add_once(col->link_below, sizeof(col->link_below), slow, &nslow, s->module, NULL);
	}
}

/* ---- names ------------------------------------------------------------ */

/* "NVIDIA H100 80GB HBM3" -> "H100", "AMD Instinct MI250X" -> "MI250X"; with
 * the number of GPUs where several ("H200x2"). */
static void short_name(const struct hmb_sum_doc *d, int ngpus, char *buf, size_t len)
{
	static const char *const drop[] = { "NVIDIA", "AMD", "Instinct", "Radeon", "Tesla", NULL };
	const char *name = d->ndev ? d->dev[0].name : "";
	char word[16] = "";

	while (*name) {
		size_t n;
		int skip = 0;
		name += strspn(name, " ");
		n = strcspn(name, " ");
		for (int i = 0; drop[i]; i++)
			skip |= n == strlen(drop[i]) && !strncmp(name, drop[i], n);
		if (n && !skip) {
			snprintf(word, sizeof(word), "%.*s", (int)(n < 6 ? n : 6), name);
			break;
		}
		name += n;
	}
	if (!*word)
		snprintf(word, sizeof(word), "%.6s", *d->hostname ? d->hostname : "doc");
	if (ngpus > 1)
		snprintf(buf, len, "%.6sx%d", word, ngpus > 99 ? 99 : ngpus);
	else
		snprintf(buf, len, "%.6s", word);
}

/* GPUs the document's records ran on: how many, the lowest, and whether gpu
 * is among them. */
static int gpus_of(const struct hmb_sum_doc *d, int *lowest, int gpu, int *has)
{
	char seen[1024] = { 0 };
	int n = 0;

	*lowest = -1;
	*has = 0;
	for (const struct hmb_record *r = d->rep.head; r; r = r->next) {
		int g = hmb_record_gpu(r);
		if (g < 0)
			continue;
		*has |= g == gpu;
		if (*lowest < 0 || g < *lowest)
			*lowest = g;
		if (g >= (int)sizeof(seen)) {
			n += 2; /* beyond any node: counted as several */
		} else if (!seen[g]) {
			seen[g] = 1;
			n++;
		}
	}
	return n > d->ndev ? n : d->ndev;
}

/* --gpu asks for a GPU of each document of several: 0, or -1 with err where
 * one lacks it (naming the GPUs it holds) or none holds several. */
static int gpu_check(const struct hmb_sum_doc *docs, int n, int gpu, char *err, size_t errlen)
{
	int lowest, has, any_multi = 0;

	for (int i = 0; i < n && gpu >= 0; i++) {
		char there[1024] = { 0 }, text[256];
		if (gpus_of(&docs[i], &lowest, gpu, &has) < 2)
			continue;
		any_multi = 1;
		if (has)
			continue;
		for (const struct hmb_record *r = docs[i].rep.head; r; r = r->next)
			if (hmb_record_gpu(r) >= 0 && hmb_record_gpu(r) < (int)sizeof(there))
				there[hmb_record_gpu(r)] = 1;
		snprintf(err, errlen, "%s: no results of GPU %d (--gpu; its GPUs: %s)",
			 hmb_shown(docs[i].path), gpu,
			 hmb_numbers_text(there, (int)sizeof(there), text, sizeof(text)));
		return -1;
	}
	if (gpu >= 0 && !any_multi) {
		snprintf(err, errlen, "--gpu %d: none of the documents holds results of several GPUs",
			 gpu);
		return -1;
	}
	return 0;
}

/* Which documents differ from the first in what, and what that may explain,
 * in one line (s->differs): their names after each kind of difference. */
static void differences(struct hmb_sum *s)
{
	static const char *const what[HMB_DIFFERENCES] = {
		[HMB_DIFFERS_BUILD] = "another build", [HMB_DIFFERS_SCHEMA] = "another schema",
		[HMB_DIFFERS_SETTINGS] = "other settings", [HMB_DIFFERS_XNACK] = "another XNACK mode",
	};
	size_t used = 0;

	s->differs[0] = '\0';
	for (int k = 0; k < HMB_DIFFERENCES; k++) {
		int any = 0;
		for (int i = 1; i < s->n && used < sizeof(s->differs); i++) {
			if (!hmb_doc_differs(&s->col[0].doc->about, &s->col[i].doc->about, k))
				continue;
			used += (size_t)snprintf(s->differs + used, sizeof(s->differs) - used, "%s%s",
						 any++ ? ", " : used ? "; " : "", s->col[i].name);
		}
		if (any && used < sizeof(s->differs))
			used += (size_t)snprintf(s->differs + used, sizeof(s->differs) - used,
						 " of %s (%s)", what[k], hmb_doc_difference_meaning[k]);
	}
	if (used >= sizeof(s->differs))
		hmb_utf8_trim(s->differs);
}

int hmb_summary_build(const struct hmb_sum_doc *docs, int n,
		      const struct hmb_bench *const *benches, int gpu, struct hmb_sum *s,
		      char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->threshold = -1;
	if (gpu_check(docs, n, gpu, err, errlen))
		return -1;
	s->benches = benches;
	s->nheadlines = hmb_headlines_of(benches, s->headline, HMB_MAX_HEADLINES);
	s->n = n;
	s->col = hmb_xcalloc((size_t)(n > 0 ? n : 1), sizeof(*s->col));
	for (int i = 0; i < n; i++) {
		const struct hmb_sum_doc *d = &docs[i];
		struct hmb_sum_col *c = &s->col[i];
		const struct hmb_sum_device *dev;
		int lowest, has, ngpus = gpus_of(d, &lowest, gpu, &has), sel;
		c->doc = d;
		c->ngpus = ngpus;
		sel = gpu >= 0 && has ? gpu : lowest >= 0 ? lowest : 0;
		c->gpu = ngpus > 1 ? sel : -1;
		if ((dev = device_of(d, sel))) {
			c->link_peak_gbps = dev->link_peak_gbps;
			snprintf(c->link, sizeof(c->link), "%s", dev->link);
			c->hbm_peak_gbps = dev->hbm_peak_gbps;
		}
		for (size_t h = 0; h < s->nheadlines; h++)
			fill_cell(s, &s->headline[h], d, ngpus > 1 ? sel : -1, c,
				  i ? &s->col[0].cell[h] : NULL, &c->cell[h]);
		anomalies(s, d, c);
		short_name(d, ngpus, c->name, sizeof(c->name));
		if (snprintf(c->system, sizeof(c->system), "%s: %s%s%s%s",
			     *d->hostname ? d->hostname : "?", dev && *dev->name ? dev->name : "no device",
			     dev && *dev->arch ? " (" : "", dev ? dev->arch : "",
			     dev && *dev->arch ? ")" : "") >= (int)sizeof(c->system))
			hmb_utf8_trim(c->system);
	}
	/* the same short name twice: the later ones numbered by their column */
	for (int i = 1; i < n; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(s->col[i].name, s->col[j].name)) {
				char num[8];
				int k = snprintf(num, sizeof(num), "#%d", i + 1);
				s->col[i].name[9 - k] = '\0';
				strcat(s->col[i].name, num);
				break;
			}
	differences(s);
	return 0;
}

void hmb_summary_free(struct hmb_sum *s)
{
	free(s->col);
	memset(s, 0, sizeof(*s));
}

void hmb_sum_doc_free(struct hmb_sum_doc *d)
{
	hmb_report_free(&d->rep);
	free(d->path);
	memset(d, 0, sizeof(*d));
}
