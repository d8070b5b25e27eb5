/* resolution.c - a figure's noise from its runs and documents, weighed
 * against the figures alike in its document (resolution.h). */
#include "stats/resolution.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/significance.h"
#include "util/util.h"

/* ---- special functions ------------------------------------------------- */

double hmb_digamma(double x)
{
	double r = 0, f;

	for (; x < 6; x += 1)
		r -= 1 / x;
	f = 1 / (x * x);
	return r + log(x) - 0.5 / x -
	       f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

double hmb_trigamma(double x)
{
	double r = 0, f;

	for (; x < 6; x += 1)
		r += 1 / (x * x);
	f = 1 / (x * x);
	return r + 1 / x + f / 2 +
	       f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f * (1.0 / 30))));
}

/* x > 0 with trigamma(x) = y (decreasing: bisection on log x). */
static double trigamma_inverse(double y)
{
	double lo = -30, hi = 30;

	for (int i = 0; i < 200; i++) {
		double mid = 0.5 * (lo + hi);
		if (hmb_trigamma(exp(mid)) > y)
			lo = mid;
		else
			hi = mid;
	}
	return exp(0.5 * (lo + hi));
}

/* The median of chi-square with df degrees of freedom over df: what a
 * variance of df degrees of freedom reads at its median, relative. */
static double chi2_median_rel(double df)
{
	double c;

	if (df == 1)
		return 0.454936423119572;
	if (df == 2)
		return log(2.0);
	c = 1.0 - 2.0 / (9.0 * df); /* Wilson-Hilferty: within 1% from 3 on */
	return c * c * c;
}

/* ---- for people -------------------------------------------------------- */

/* A number of degrees of freedom: whole where it is, else one decimal;
 * "many" past a thousand. */
static const char *df_text(double df, char *buf, size_t len)
{
	if (!(df < 1000))
		snprintf(buf, len, "many");
	else if (df == floor(df))
		snprintf(buf, len, "%.0f", df);
	else
		snprintf(buf, len, "%.1f", df);
	return buf;
}

/* "+-0.71% (its own 0.80%, 1 df; alike 0.62%, worth 1.7 runs)" */
static void level_text(const struct hmb_noise_level *l, const char *unit, char *buf, size_t len)
{
	char a[16], b[16], own[64] = "", alike[80] = "";

	if (l->own_df >= 1)
		snprintf(own, sizeof(own), "its own %.2g%%, %s df", 100 * l->own,
			 df_text(l->own_df, a, sizeof(a)));
	if (l->prior_df > 0)
		snprintf(alike, sizeof(alike), "%salike %.2g%%, worth %s %s", *own ? "; " : "",
			 100 * l->prior, df_text(l->prior_df, b, sizeof(b)), unit);
	snprintf(buf, len, "+-%.2g%% (%s%s)", 100 * l->sigma, own, alike);
}

const char *hmb_noise_source_text(const struct hmb_noise_out *o, char *buf, size_t len)
{
	char a[16], level[160];

	if (o->docs >= 2) {
		level_text(&o->doc, "documents", level, sizeof(level));
		snprintf(buf, len, "%zu documents (%zu runs): a document %s, %s df", o->docs,
			 o->runs, level, df_text(o->df, a, sizeof(a)));
	} else {
		level_text(&o->run, "runs", level, sizeof(level));
		snprintf(buf, len, "%zu runs: one run %s, %s df", o->runs, level,
			 df_text(o->df, a, sizeof(a)));
	}
	return buf;
}

/* ---- within a run ------------------------------------------------------ */

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static double median_sorted(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double hmb_noise_within(const double *samples, size_t n)
{
	double *v, m, mad, step = INFINITY, rel;

	if (n < 3)
		return NAN;
	v = hmb_xcalloc(n, sizeof(*v));
	memcpy(v, samples, n * sizeof(*v));
	qsort(v, n, sizeof(*v), by_value);
	m = median_sorted(v, n);
	for (size_t i = 1; i < n; i++)
		if (v[i] > v[i - 1] && v[i] - v[i - 1] < step)
			step = v[i] - v[i - 1];
	for (size_t i = 0; i < n; i++)
		v[i] = fabs(v[i] - m);
	qsort(v, n, sizeof(*v), by_value);
	mad = median_sorted(v, n);
	free(v);
	if (mad == 0) /* most samples equal: the timer's tick is the noise */
		mad = isfinite(step) ? step / 2 : 0;
	/* the median's standard error: 1.2533 sigma / sqrt(n), sigma 1.4826 MAD */
	rel = m > 0 ? 1.2533 * 1.4826 * mad / m / sqrt((double)n) : NAN;
	return rel > 0 ? rel : NAN;
}

double hmb_noise_within_runs(const double *samples, const size_t *counts, size_t nruns)
{
	double sum = 0;
	size_t k, from = 0, used = 0;

	for (k = 0; k < nruns; from += counts[k], k++) {
		double w = hmb_noise_within(samples + from, counts[k]);
		if (isfinite(w)) {
			sum += w * w;
			used++;
		}
	}
	return used ? sqrt(sum / (double)used) : NAN;
}

/* ---- one level: runs within documents, or documents ------------------- */

struct level {
	double var, df;    /* own variance (log) and its degrees of freedom; df 0: none */
	double scale;      /* the variance the level's noise is a multiple of; NAN: none */
	double prior, d0;  /* the prior and its weight */
	double d0_most;    /* the most its prior can be worth: the degrees of freedom it rests on */
	int apart;         /* its own variance is past what its prior allows: its own alone */
	int above_scale;   /* its prior never below its scale (runs: never quieter than
			    * their samples); documents' may be (below) */
	double post, post_df;
};

/* The variance as it reads at its median (for medians over figures). */
static double at_median(const struct level *x)
{
	return x->var / chi2_median_rel(x->df);
}

static int has_var(const struct level *x)
{
	return x->df >= 1 && isfinite(x->var) && x->var >= 0;
}

static double median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), by_value);
	return median_sorted(v, n);
}

/* The figures in the order their neighbours are looked for in: grouped by
 * module, GPU and figure, then by case and size, so that a figure's
 * neighbours are about it (the case paths that share the most elements are
 * next to each other). */
struct place {
	const struct hmb_noise_in *f;
	size_t i;
};

static int figure_cmp(const struct hmb_noise_in *a, const struct hmb_noise_in *b)
{
	int c = strcmp(a->module, b->module);

	if (!c)
		c = (a->gpu > b->gpu) - (a->gpu < b->gpu);
	if (!c)
		c = strcmp(a->figure ? a->figure : "", b->figure ? b->figure : "");
	return c;
}

static int by_place(const void *x, const void *y)
{
	const struct place *a = x, *b = y;
	int c = figure_cmp(a->f, b->f);

	if (!c)
		c = strcmp(a->f->kase, b->f->kase);
	if (!c)
		c = (a->f->size > b->f->size) - (a->f->size < b->f->size);
	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* How many leading path elements the cases of a and b share. */
static int shared_path(const char *x, const char *y)
{
	int n = 0;

	for (;;) {
		size_t lx = strcspn(x, "/"), ly = strcspn(y, "/");
		if (lx != ly || strncmp(x, y, lx))
			return n;
		n++;
		if (!x[lx] || !y[ly])
			return n;
		x += lx + 1;
		y += ly + 1;
	}
}

static double size_apart(const struct hmb_noise_in *a, const struct hmb_noise_in *b)
{
	return fabs(log2((a->size > 0 ? a->size : 1) / (b->size > 0 ? b->size : 1)));
}

/* What a figure's prior is a median of, from figure x: its variance (as it
 * reads at its median) over its scale, or the variance itself. */
static double ratio_of(const struct level *x, int with_scale)
{
	return with_scale ? at_median(x) / x->scale : at_median(x);
}

static int usable(const struct level *x, int with_scale)
{
	return has_var(x) && (!with_scale || x->scale > 0);
}

/* How far from a figure its neighbours are looked for: the figures this many
 * places either side of it in their order (its case's sizes and siblings). */
#define LOOK 32

/* The median of ratio_of over the HMB_NOISE_NEIGHBOURS neighbours nearest to
 * the figure at place p of its group [from, to): those whose cases share the
 * most path elements with its own (at least the first), then the nearest in
 * size. NAN: fewer than two. */
static double neighbours_median(const struct place *pl, size_t from, size_t to, size_t p,
				const struct level *lv, int with_scale, double *vals, double *df)
{
	struct { int shared; double apart, ratio, df; } best[HMB_NOISE_NEIGHBOURS];
	size_t m = 0, lo = p > from + LOOK ? p - LOOK : from, hi = p + LOOK < to ? p + LOOK + 1 : to;
	const struct hmb_noise_in *me = pl[p].f;

	for (size_t q = lo; q < hi; q++) {
		int shared;
		double apart;
		size_t k;
		if (q == p || !usable(&lv[pl[q].i], with_scale) ||
		    (shared = shared_path(me->kase, pl[q].f->kase)) < 1)
			continue;
		apart = size_apart(me, pl[q].f);
		if (m == HMB_NOISE_NEIGHBOURS &&
		    (shared < best[m - 1].shared ||
		     (shared == best[m - 1].shared && apart >= best[m - 1].apart)))
			continue;
		/* kept best first: most shared, then nearest in size */
		for (k = m < HMB_NOISE_NEIGHBOURS ? m++ : m - 1;
		     k > 0 && (best[k - 1].shared < shared ||
			       (best[k - 1].shared == shared && best[k - 1].apart > apart)); k--)
			best[k] = best[k - 1];
		best[k].shared = shared;
		best[k].apart = apart;
		best[k].ratio = ratio_of(&lv[pl[q].i], with_scale);
		best[k].df = lv[pl[q].i].df;
	}
	*df = 0;
	for (size_t k = 0; k < m; k++) {
		vals[k] = best[k].ratio;
		*df += best[k].df;
	}
	return m >= 2 ? median_of(vals, m) : NAN;
}

/* Each figure's prior from the figures alike (those set apart too: a
 * neighbour that jumped says its neighbourhood jumps): the median ratio over
 * its neighbours (over its group where it has none) times its scale (where it
 * has one: never below it); else the variance's; and the degrees of freedom
 * it rests on, the most it can be worth. */
static void priors(const struct place *pl, size_t n, struct level *lv, double *vals)
{
	for (size_t from = 0, to; from < n; from = to) {
		double mod[2], mod_df[2] = { 0, 0 };
		for (to = from + 1; to < n && !figure_cmp(pl[from].f, pl[to].f); to++)
			;
		for (int w = 0; w < 2; w++) {
			size_t k = 0;
			for (size_t q = from; q < to; q++)
				if (usable(&lv[pl[q].i], w)) {
					vals[k++] = ratio_of(&lv[pl[q].i], w);
					mod_df[w] += lv[pl[q].i].df;
				}
			mod[w] = median_of(vals, k);
		}
		for (size_t p = from; p < to; p++) {
			struct level *x = &lv[pl[p].i];
			int w = x->scale > 0;
			double nb_df, nb = neighbours_median(pl, from, to, p, lv, w, vals, &nb_df);
			double k = isnan(nb) ? mod[w] : nb;
			x->prior = !w ? k : isnan(k) ? NAN : (k > 1 || !x->above_scale ? k : 1) * x->scale;
			/* worth at most the degrees of freedom it rests on */
			x->d0_most = isnan(k) ? 0 : isnan(nb) ? mod_df[w] : nb_df;
		}
	}
}

/* How many degrees of freedom the priors are worth (Smyth 2004, by moments):
 * the figures' log variances scatter around their priors by what their own
 * degrees of freedom explain (trigamma(df / 2)) and by the priors' error,
 * trigamma(d0 / 2); over the figures whose prior is of one kind (scaled by
 * their own within-run noise, or not). INFINITY: no scatter beyond the
 * own; NAN: too few figures. */
static double prior_weight(const struct level *lv, size_t n, int with_scale)
{
	double sum = 0, sum2 = 0, tri = 0, excess;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		double e;
		if (!has_var(&lv[i]) || !(lv[i].var > 0) || !(lv[i].prior > 0) ||
		    (lv[i].scale > 0) != with_scale || lv[i].apart)
			continue;
		e = log(lv[i].var / lv[i].prior) - hmb_digamma(lv[i].df / 2) + log(lv[i].df / 2);
		sum += e;
		sum2 += e * e;
		tri += hmb_trigamma(lv[i].df / 2);
		k++;
	}
	if (k < 3)
		return NAN;
	excess = (sum2 - sum * sum / (double)k) / (double)(k - 1) - tri / (double)k;
	return excess > 0 ? 2 * trigamma_inverse(excess) : INFINITY;
}

/* The figures whose own variance is beyond what their prior allows, even
 * counting each of the figures tried (Bonferroni at 5%): a run that jumped,
 * a document of another state. Such a figure is noisier than those alike,
 * and its own variance stands alone: its neighbours do not make it quieter,
 * nor does it count in what the priors are worth. */
static void set_apart(struct level *lv, size_t n)
{
	size_t tried = 0;

	for (size_t i = 0; i < n; i++)
		tried += has_var(&lv[i]) && lv[i].prior > 0;
	for (size_t i = 0; i < n; i++) {
		struct level *x = &lv[i];
		x->apart = has_var(x) && x->prior > 0 &&
			   hmb_chi2_upper_p(x->df * x->var / x->prior, x->df) * (double)tried < 0.05;
	}
}

/* Each figure's prior, the level's weight for it (learned without the
 * figures set apart), and the figure's moderated variance and degrees of
 * freedom. */
static void moderate(const struct place *pl, struct level *lv, size_t n)
{
	double *vals = hmb_xcalloc(n + 1, sizeof(*vals)), d0[2];

	priors(pl, n, lv, vals);
	set_apart(lv, n);
	d0[0] = prior_weight(lv, n, 0);
	d0[1] = prior_weight(lv, n, 1);
	for (size_t i = 0; i < n; i++) {
		struct level *x = &lv[i];
		double own = has_var(x) ? x->df : 0, w = d0[x->scale > 0];
		x->d0 = isnan(x->prior) || isnan(w) || x->apart ? 0 : w;
		/* never worth more than the runs it rests on */
		if (x->d0 > x->d0_most)
			x->d0 = x->d0_most;
		if (x->d0 == 0 && own == 0) {
			x->post = NAN;
			x->post_df = 0;
		} else if (isinf(x->d0)) {
			x->post = x->prior;
			x->post_df = INFINITY;
		} else {
			x->post = (x->d0 * (x->d0 > 0 ? x->prior : 0) + own * (own > 0 ? x->var : 0)) /
				  (x->d0 + own);
			x->post_df = x->d0 + own;
		}
	}
	free(vals);
}

/* ---- the model --------------------------------------------------------- */

/* A figure's runs: their logarithms' variance within documents, and their
 * documents' means (means[], *ndocs of them; sums[] and counts[] hold a slot
 * per document number up to the figure's largest). The logarithms are taken
 * from the first run's, so that runs of one value spread by exactly nothing
 * (a mean's rounding is not a spread: a variance of 1e-31 would read as a
 * figure far quieter than any), and so are the means (o->mean adds it back). */
static void runs_of(const struct hmb_noise_in *f, struct level *runs, double *means,
		    double *sums, size_t *counts, struct hmb_noise_out *o)
{
	double ss = 0, from = NAN;
	size_t used = 0, docs = 0, slots = 0;

	for (size_t k = 0; k < f->nruns; k++) {
		size_t d = f->doc && f->doc[k] > 0 ? (size_t)f->doc[k] : 0;
		if (d + 1 > slots)
			slots = d + 1;
		if (isnan(from) && f->runs[k] > 0 && isfinite(f->runs[k]))
			from = log(f->runs[k]);
	}
	for (size_t d = 0; d < slots; d++) {
		sums[d] = 0;
		counts[d] = 0;
	}
	for (size_t k = 0; k < f->nruns; k++)
		if (f->runs[k] > 0 && isfinite(f->runs[k])) {
			size_t d = f->doc && f->doc[k] > 0 ? (size_t)f->doc[k] : 0;
			sums[d] += log(f->runs[k]) - from;
			counts[d]++;
		}
	for (size_t k = 0; k < f->nruns; k++)
		if (f->runs[k] > 0 && isfinite(f->runs[k])) {
			size_t d = f->doc && f->doc[k] > 0 ? (size_t)f->doc[k] : 0;
			double dev = log(f->runs[k]) - from - sums[d] / (double)counts[d];
			ss += dev * dev;
		}
	for (size_t d = 0; d < slots; d++)
		if (counts[d]) {
			means[docs++] = sums[d] / (double)counts[d];
			used += counts[d];
		}
	runs->df = (double)(used - docs);
	runs->var = runs->df >= 1 ? ss / runs->df : NAN;
	runs->scale = f->within > 0 ? f->within * f->within : NAN;
	o->docs = docs;
	o->runs = used;
	o->mean = NAN;
	if (docs) {
		double m = 0;
		for (size_t d = 0; d < docs; d++)
			m += means[d] / (double)docs;
		o->mean = from + m;
	}
}

static void level_out(const struct level *x, struct hmb_noise_level *o)
{
	o->own = has_var(x) ? sqrt(x->var) : NAN;
	o->own_df = has_var(x) ? x->df : 0;
	o->prior = sqrt(x->prior);
	o->prior_df = x->d0;
	o->sigma = sqrt(x->post);
	o->df = x->post_df;
}

static double t_quantile(double df)
{
	return hmb_student_t_quantile(1 - HMB_RESOLUTION_CONFIDENCE, df);
}

void hmb_noise_model(const struct hmb_noise_in *in, size_t n, struct hmb_noise_out *out)
{
	struct level *runs = hmb_xcalloc(n + 1, sizeof(*runs));
	struct level *docs = hmb_xcalloc(n + 1, sizeof(*docs));
	double *means, *sums;
	size_t *counts, slots = 1;
	struct place *pl;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < in[i].nruns; k++)
			if (in[i].doc && in[i].doc[k] >= 0 && (size_t)in[i].doc[k] + 1 > slots)
				slots = (size_t)in[i].doc[k] + 1;
	means = hmb_xcalloc(slots, sizeof(*means));
	sums = hmb_xcalloc(slots, sizeof(*sums));
	counts = hmb_xcalloc(slots, sizeof(*counts));
	for (size_t i = 0; i < n; i++) {
		struct hmb_noise_out *o = &out[i];
		memset(o, 0, sizeof(*o));
		runs_of(&in[i], &runs[i], means, sums, counts, o);
		docs[i].df = o->docs >= 2 ? (double)(o->docs - 1) : 0;
		if (o->docs >= 2) {
			double ss = 0, m = 0;
			for (size_t d = 0; d < o->docs; d++)
				m += means[d] / (double)o->docs;
			for (size_t d = 0; d < o->docs; d++)
				ss += (means[d] - m) * (means[d] - m);
			docs[i].var = ss / docs[i].df;
		}
	}
	pl = hmb_xcalloc(n + 1, sizeof(*pl));
	for (size_t i = 0; i < n; i++)
		pl[i] = (struct place){ &in[i], i };
	qsort(pl, n, sizeof(*pl), by_place);
	for (size_t i = 0; i < n; i++)
		runs[i].above_scale = 1;
	moderate(pl, runs, n);
	/* the documents' means: the runs' noise over a document's runs is what
	 * they would spread by if nothing moved between documents. The prior
	 * is that times how far the neighbours' means spread against it, below
	 * 1 too: both are estimates of one noise where nothing moved, and the
	 * larger of two estimates is a wide one (documents of a quiet machine
	 * spread 0.6 to 1.1 times what their runs say, by module). */
	for (size_t i = 0; i < n; i++)
		docs[i].scale = out[i].docs >= 2 && runs[i].post > 0
					? runs[i].post * (double)out[i].docs / (double)out[i].runs : NAN;
	moderate(pl, docs, n);
	for (size_t i = 0; i < n; i++) {
		struct hmb_noise_out *o = &out[i];
		level_out(&runs[i], &o->run);
		level_out(&docs[i], &o->doc);
		o->sigma = o->resolution = NAN;
		if (o->docs >= 2 && o->doc.sigma > 0) {
			o->sigma = o->doc.sigma / sqrt((double)o->docs);
			o->df = o->doc.df;
		} else if (o->docs == 1 && o->run.sigma > 0) {
			o->sigma = o->run.sigma / sqrt((double)o->runs);
			o->df = o->run.df;
		}
		if (o->sigma > 0) {
			o->resolution = t_quantile(o->df) * sqrt(2.0) * o->sigma;
			o->stable = o->resolution <= HMB_RESOLUTION_STABLE_REL;
		}
	}
	free(pl);
	free(means);
	free(sums);
	free(counts);
	free(runs);
	free(docs);
}
