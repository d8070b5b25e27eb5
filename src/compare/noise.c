/*
 * noise.c - the noise of a change between two documents, from the documents
 * themselves: each figure's runs (a run is one process: two processes doing
 * the same work differ by more than the samples of either spread) and, where
 * a side merges several documents, the spread between them, each weighed
 * against the figures alike in its document (stats/resolution.h).
 *
 * Two documents of one machine share its noise: the change is judged against
 * both sides' runs weighed together (their own variances and their priors,
 * as many degrees of freedom as both give), so a figure whose runs agree on
 * both sides is judged as quiet as it is. Documents of two machines: each
 * side its own noise, the degrees of freedom of their sum by
 * Welch-Satterthwaite. A side of one run has no noise of its own: the other
 * side's stands for both where the machine is one, else the change is not
 * judged. The p-value is Student's t with those degrees of freedom, so a
 * noise known from few runs judges with heavy tails. Samples of one process
 * are never replicates.
 */
#include "compare/noise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/significance.h"
#include "util/util.h"

/* A result's size in bytes (0: none). */
static double size_of(const struct hmb_compare_result *r)
{
	const struct hmb_kv *size = hmb_kv_find(&r->rec->params, "size");

	return size && size->type == HMB_KV_NUM ? size->num : 0;
}

struct hmb_noise_doc *hmb_noise_of(const struct hmb_compare_doc *l)
{
	struct hmb_noise_doc *d = hmb_xcalloc(1, sizeof(*d));

	d->n = l->n;
	d->in = hmb_xcalloc(l->n + 1, sizeof(*d->in));
	d->out = hmb_xcalloc(l->n + 1, sizeof(*d->out));
	for (size_t i = 0; i < l->n; i++) {
		const struct hmb_compare_figure *f = &l->fig[i];
		const struct hmb_compare_result *r = &l->res[f->result];
		d->in[i] = (struct hmb_noise_in){ r->module, r->kase, f->main ? NULL : f->name,
						  r->gpu, size_of(r), f->runs, f->run_doc,
						  f->runs ? f->nruns : 0, f->main ? r->within : NAN };
	}
	hmb_noise_model(d->in, d->n, d->out);
	return d;
}

void hmb_noise_doc_free(struct hmb_noise_doc *d)
{
	if (!d)
		return;
	free(d->in);
	free(d->out);
	free(d);
}

/* A side's level: its documents' means where it merges several, else its
 * runs (NULL: no noise known); *count, how many its figure is the mean of. */
static const struct hmb_noise_level *level_of(const struct hmb_noise_out *o, double *count)
{
	if (o->docs >= 2 && o->doc.sigma > 0) {
		*count = (double)o->docs;
		return &o->doc;
	}
	if (o->docs == 1 && o->run.sigma > 0) {
		*count = (double)o->runs;
		return &o->run;
	}
	return NULL;
}

/* Both sides of one machine at one level: their own variances weighed
 * together with their priors, the priors' weight the two sides' mean. */
static void pooled(const struct hmb_noise_level *a, const struct hmb_noise_level *b, double ca,
		   double cb, struct hmb_noise *out)
{
	double d0 = a->prior_df > 0 && b->prior_df > 0 ? 0.5 * (a->prior_df + b->prior_df) : 0;
	double prior = d0 > 0 ? a->prior * b->prior : 0, v, df;
	double na = a->own_df >= 1 ? a->own_df : 0, nb = b->own_df >= 1 ? b->own_df : 0;

	if (isinf(d0)) {
		v = prior;
		df = INFINITY;
	} else {
		df = d0 + na + nb;
		v = (d0 * prior + (na ? na * a->own * a->own : 0) + (nb ? nb * b->own * b->own : 0)) / df;
	}
	/* never below what either side's runs say of a document */
	if (v < a->sigma * a->sigma && v < b->sigma * b->sigma)
		v = a->sigma < b->sigma ? a->sigma * a->sigma : b->sigma * b->sigma;
	out->noise_rel = sqrt(v * (1 / ca + 1 / cb));
	out->df = df;
	out->pooled = 1;
}

void hmb_noise_judge(const struct hmb_compare_doc *da, const struct hmb_noise_doc *na, size_t ia,
		     const struct hmb_compare_doc *db, const struct hmb_noise_doc *nb, size_t ib,
		     int same_machine, struct hmb_noise *out)
{
	const struct hmb_compare_figure *fa = &da->fig[ia], *fb = &db->fig[ib];
	const struct hmb_noise_out *a = &na->out[ia], *b = &nb->out[ib];
	const struct hmb_noise_level *xa, *xb;
	double ca = 0, cb = 0;

	memset(out, 0, sizeof(*out));
	out->a = a;
	out->b = b;
	out->p = out->change = out->noise_rel = out->resolution = out->df = NAN;
	if (!(fa->value > 0) || !(fb->value > 0) || !isfinite(fa->value) || !isfinite(fb->value))
		return;
	xa = level_of(a, &ca);
	xb = level_of(b, &cb);
	/* the runs' means where both sides have runs, else the figures as written */
	out->change = xa && xb && isfinite(a->mean) && isfinite(b->mean) ? b->mean - a->mean
									 : log(fb->value / fa->value);
	if (xa && xb) {
		out->model = a->docs >= 2 || b->docs >= 2 ? HMB_NOISE_DOCUMENTS : HMB_NOISE_RUNS;
		if (same_machine && (a->docs >= 2) == (b->docs >= 2)) {
			pooled(xa, xb, ca, cb, out);
		} else {
			double qa = a->sigma * a->sigma, qb = b->sigma * b->sigma;
			out->noise_rel = sqrt(qa + qb);
			out->df = (qa + qb) * (qa + qb) / (qa * qa / a->df + qb * qb / b->df);
		}
	} else if (same_machine && (xa || xb)) {
		/* one side of one run: the other's noise of one run for both */
		const struct hmb_noise_out *o = xa ? a : b;
		out->model = HMB_NOISE_ONE_SIDE;
		out->noise_rel = sqrt(o->sigma * o->sigma + (xa ? xa : xb)->sigma * (xa ? xa : xb)->sigma);
		out->df = o->df;
	} else {
		return;
	}
	if (!(out->noise_rel > 0)) {
		out->model = HMB_NOISE_NONE;
		return;
	}
	out->resolution = hmb_student_t_quantile(1 - HMB_RESOLUTION_CONFIDENCE, out->df) *
			  out->noise_rel;
	out->p = isinf(out->df) || out->df > 1e7
			 ? erfc(fabs(out->change) / out->noise_rel / sqrt(2.0))
			 : hmb_student_t_p(out->change / out->noise_rel, out->df);
}

const char *hmb_noise_text(const struct hmb_noise *n, char *buf, size_t len)
{
	char df[16];

	if (n->model == HMB_NOISE_NONE) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (!(n->df < 1000))
		snprintf(df, sizeof(df), "many");
	else
		snprintf(df, sizeof(df), "%.3g", n->df);
	if (n->model == HMB_NOISE_DOCUMENTS)
		snprintf(buf, len, "documents %zu+%zu%s, %s df, +-%.2g%%", n->a->docs, n->b->docs,
			 n->pooled ? " pooled" : "", df, 100.0 * n->noise_rel);
	else if (n->model == HMB_NOISE_ONE_SIDE)
		snprintf(buf, len, "runs %zu+%zu (one side's), %s df, +-%.2g%%", n->a->runs,
			 n->b->runs, df, 100.0 * n->noise_rel);
	else
		snprintf(buf, len, "runs %zu+%zu%s, %s df, +-%.2g%%", n->a->runs, n->b->runs,
			 n->pooled ? " pooled" : "", df, 100.0 * n->noise_rel);
	return buf;
}
