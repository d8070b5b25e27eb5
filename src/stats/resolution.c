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
	int apart;         /* its own variance is past what its prior allows: its own alone */
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

/* Are a and b of one module, GPU and figure? */
static int same_group(const struct hmb_noise_in *a, const struct hmb_noise_in *b)
{
	return a->gpu == b->gpu && !strcmp(a->module, b->module) &&
	       !strcmp(a->figure ? a->figure : "", b->figure ? b->figure : "");
}

/* Are a and b alike enough to be neighbours: same module, GPU and figure,
 * their cases' first path element the same? Then how alike (*shared: the
 * path elements in common) and how far apart in size. */
static int alike(const struct hmb_noise_in *a, const struct hmb_noise_in *b, int *shared,
		 double *apart)
{
	const char *x = a->kase, *y = b->kase;
	int n = 0;

	if (!same_group(a, b))
		return 0;
	for (;;) {
		size_t lx = strcspn(x, "/"), ly = strcspn(y, "/");
		if (lx != ly || strncmp(x, y, lx))
			break;
		n++;
		if (!x[lx] || !y[ly])
			break;
		x += lx + 1;
		y += ly + 1;
	}
	*shared = n;
	*apart = fabs(log2((a->size > 0 ? a->size : 1) / (b->size > 0 ? b->size : 1)));
	return n > 0;
}

struct near {
	size_t j;
	int shared;
	double apart;
};

static int by_nearness(const void *x, const void *y)
{
	const struct near *a = x, *b = y;

	if (a->shared != b->shared)
		return b->shared - a->shared;
	return (a->apart > b->apart) - (a->apart < b->apart);
}

/* What the prior of figure i is a median of, from figure j. */
static double ratio_of(const struct level *x, int with_scale)
{
	return with_scale ? at_median(x) / x->scale : at_median(x);
}

/* The median of ratio_of over figure i's nearest HMB_NOISE_NEIGHBOURS
 * neighbours that have one (NAN: fewer than two), and over its module. */
static void medians_alike(const struct hmb_noise_in *in, const struct level *lv, size_t n,
			  size_t i, int with_scale, struct near *cand, double *vals,
			  double *neighbours, double *module)
{
	size_t m = 0, k = 0;

	for (size_t j = 0; j < n; j++) {
		int shared;
		double apart;
		if (j == i || !has_var(&lv[j]) || (with_scale && !(lv[j].scale > 0)) ||
		    !same_group(&in[i], &in[j]))
			continue;
		vals[k++] = ratio_of(&lv[j], with_scale);
		if (alike(&in[i], &in[j], &shared, &apart))
			cand[m++] = (struct near){ j, shared, apart };
	}
	*module = median_of(vals, k);
	qsort(cand, m, sizeof(*cand), by_nearness);
	if (m > HMB_NOISE_NEIGHBOURS)
		m = HMB_NOISE_NEIGHBOURS;
	for (k = 0; k < m; k++)
		vals[k] = ratio_of(&lv[cand[k].j], with_scale);
	*neighbours = m >= 2 ? median_of(vals, m) : NAN;
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

/* Each figure's prior from the figures alike (those set apart too: a
 * neighbour that jumped says its neighbourhood jumps). */
static void priors(const struct hmb_noise_in *in, struct level *lv, size_t n, struct near *cand,
		   double *vals)
{
	for (size_t i = 0; i < n; i++) {
		int with_scale = lv[i].scale > 0;
		double nb, mod, k;
		medians_alike(in, lv, n, i, with_scale, cand, vals, &nb, &mod);
		k = isnan(nb) ? mod : isnan(mod) ? nb : sqrt(nb * mod);
		if (!with_scale)
			lv[i].prior = k;
		else
			lv[i].prior = isnan(k) ? NAN : (k > 1 ? k : 1) * lv[i].scale;
	}
}

/* Each figure's prior, the level's weight for it (learned without the
 * figures set apart), and the figure's moderated variance and degrees of
 * freedom. */
static void moderate(const struct hmb_noise_in *in, struct level *lv, size_t n)
{
	struct near *cand = hmb_xcalloc(n + 1, sizeof(*cand));
	double *vals = hmb_xcalloc(n + 1, sizeof(*vals)), d0[2];

	priors(in, lv, n, cand, vals);
	set_apart(lv, n);
	d0[0] = prior_weight(lv, n, 0);
	d0[1] = prior_weight(lv, n, 1);
	for (size_t i = 0; i < n; i++) {
		struct level *x = &lv[i];
		double own = has_var(x) ? x->df : 0, w = d0[x->scale > 0];
		x->d0 = isnan(x->prior) || isnan(w) || x->apart ? 0 : w;
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
	free(cand);
	free(vals);
}

/* ---- the model --------------------------------------------------------- */

/* A figure's runs: their logarithms' variance within documents, and their
 * documents' means (means[], *ndocs of them; sums[] and counts[] hold a slot
 * per document number up to the figure's largest). */
static void runs_of(const struct hmb_noise_in *f, struct level *runs, double *means,
		    double *sums, size_t *counts, struct hmb_noise_out *o)
{
	double ss = 0;
	size_t used = 0, docs = 0, slots = 0;

	for (size_t k = 0; k < f->nruns; k++) {
		size_t d = f->doc && f->doc[k] > 0 ? (size_t)f->doc[k] : 0;
		if (d + 1 > slots)
			slots = d + 1;
	}
	for (size_t d = 0; d < slots; d++) {
		sums[d] = 0;
		counts[d] = 0;
	}
	for (size_t k = 0; k < f->nruns; k++)
		if (f->runs[k] > 0 && isfinite(f->runs[k])) {
			size_t d = f->doc && f->doc[k] > 0 ? (size_t)f->doc[k] : 0;
			sums[d] += log(f->runs[k]);
			counts[d]++;
		}
	for (size_t k = 0; k < f->nruns; k++)
		if (f->runs[k] > 0 && isfinite(f->runs[k])) {
			size_t d = f->doc && f->doc[k] > 0 ? (size_t)f->doc[k] : 0;
			double dev = log(f->runs[k]) - sums[d] / (double)counts[d];
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
		o->mean = 0;
		for (size_t d = 0; d < docs; d++)
			o->mean += means[d] / (double)docs;
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
			double ss = 0;
			for (size_t d = 0; d < o->docs; d++)
				ss += (means[d] - o->mean) * (means[d] - o->mean);
			docs[i].var = ss / docs[i].df;
		}
	}
	moderate(in, runs, n);
	/* the documents' means: the runs' noise over a document's runs is what
	 * they would spread by if nothing moved between documents */
	for (size_t i = 0; i < n; i++)
		docs[i].scale = out[i].docs >= 2 && runs[i].post > 0
					? runs[i].post * (double)out[i].docs / (double)out[i].runs : NAN;
	moderate(in, docs, n);
	for (size_t i = 0; i < n; i++) {
		struct hmb_noise_out *o = &out[i];
		/* a document's mean spreads at least as its runs say */
		if (docs[i].post < docs[i].scale)
			docs[i].post = docs[i].scale;
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
	free(means);
	free(sums);
	free(counts);
	free(runs);
	free(docs);
}
