/* resolution.c - pooled run-to-run noise, a figure's noise and its resolution. */
#include "stats/resolution.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>

/*
 * The families. floor: the relative noise (sigma) of one run's figure from
 * one document to the next, for documents of one run (from two `all` runs of
 * one run each on one H100, results/nvidia-h100-pcie/: for each family the
 * least floor with which none of its figures is flagged at --threshold 5,
 * rounded up; a figure whose jump alone would set it left flagged).
 * session: what a document's runs cannot see, from one document to the next:
 * over the four committed back-to-back pairs of `all` with 2 or 3 runs a
 * module on that H100 (all.json and back-to-back/b.json,
 * back-to-back/before-siblings/, runs3/), the least session noise with which
 * 90% of each family's changes are within 1.645 of their noise (pooled runs
 * alone: 1.1 to 2.8 times that); rounded up. Figures that are a difference of
 * two times (managed's migration_s, overlap's efficiency) swing by factors;
 * pool's speedups, a ratio of two of its times, have sqrt(2) times its noise.
 */
static const struct hmb_family families[] = {
	{ "*", "*", "migration_s", "differences of two times", 1.20, 0.60 },
	{ "*", "*", "overlap_efficiency", "differences of two times", 1.20, 0.60 },
	{ "memcpy", "*/*pageable/*", "*", "memcpy pageable", 0.08, 0.056 },
	{ "memcpy", "*/*/sync", "*", "memcpy hipMemcpy (host clock)", 0.15, 0.014 },
	{ "memcpy", "*", "*", "memcpy async (events)", 0.02, 0.012 },
	{ "overlap", "*", "*", "overlap", 0.12, 0.007 },
	{ "managed", "*", "*", "managed", 0.28, 0.062 },
	{ "xnack", "*", "*", "xnack", 0.11, 0.059 },
	{ "pool", "*", "speedup*", "pool speedups (ratios of two times)", 0.31, 0.113 },
	{ "pool", "*", "*", "pool", 0.22, 0.080 },
	{ "vmm", "*", "*", "vmm", 0.22, 0.151 },
	{ "node", "access-cost/*", "*", "node allocation", 0.07, 0.216 },
	{ "node", "*", "*", "node copies", 0.025, 0.015 },
	{ "*", "*", "*", "other", 0.25, 0.10 },
};
#define NFAMILIES (sizeof(families) / sizeof(families[0]))

const struct hmb_family *hmb_family_of(const char *module, const char *kase, const char *figure)
{
	size_t i;

	for (i = 0; i + 1 < NFAMILIES; i++)
		if (!fnmatch(families[i].module, module, 0) && !fnmatch(families[i].kase, kase, 0) &&
		    !fnmatch(families[i].figure, figure, 0))
			break;
	return &families[i];
}

const struct hmb_family *hmb_family_at(size_t i)
{
	return i < NFAMILIES ? &families[i] : NULL;
}

double hmb_chi2_median(size_t df)
{
	double k = (double)df, c;

	if (df == 1)
		return 0.454936423119572;
	if (df == 2)
		return 2.0 * log(2.0);
	c = 1.0 - 2.0 / (9.0 * k); /* Wilson-Hilferty: within 1% from 3 on */
	return k * c * c * c;
}

size_t hmb_pool_entry_runs(struct hmb_pool_entry *e, const double *runs, size_t n, double *mean)
{
	double sum = 0, ss = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (runs[i] > 0 && isfinite(runs[i])) {
			sum += log(runs[i]);
			k++;
		}
	*mean = k ? sum / (double)k : NAN;
	for (size_t i = 0; i < n; i++)
		if (runs[i] > 0 && isfinite(runs[i]))
			ss += (log(runs[i]) - *mean) * (log(runs[i]) - *mean);
	e->df = k >= 2 ? k - 1 : 0;
	e->var = k >= 2 ? ss / (double)(k - 1) : NAN;
	return k;
}

/* The order of the pooling: family, size, then the scaled variance. */
struct slot {
	const struct hmb_pool_entry *e;
	double scaled; /* var * df / median of chi2(df): estimates sigma^2 at the median */
};

static int by_family_size_value(const void *x, const void *y)
{
	const struct slot *a = x, *b = y;

	if (a->e->family != b->e->family)
		return a->e->family < b->e->family ? -1 : 1;
	if (a->e->size != b->e->size)
		return a->e->size < b->e->size ? -1 : 1;
	return (a->scaled > b->scaled) - (a->scaled < b->scaled);
}

static int by_family_value(const void *x, const void *y)
{
	const struct slot *a = x, *b = y;

	if (a->e->family != b->e->family)
		return a->e->family < b->e->family ? -1 : 1;
	return (a->scaled > b->scaled) - (a->scaled < b->scaled);
}

static double median_scaled(const struct slot *s, size_t n)
{
	return n % 2 ? s[n / 2].scaled : 0.5 * (s[n / 2 - 1].scaled + s[n / 2].scaled);
}

/* Each group of s (equal under same()) that holds enough figures: its pool
 * into the entries of base whose pooled is still NAN. */
static void pool_groups(struct slot *s, size_t n, struct hmb_pool_entry *base, int all_sizes)
{
	for (size_t i = 0, j; i < n; i = j) {
		double sigma;
		for (j = i + 1; j < n && s[j].e->family == s[i].e->family &&
				(all_sizes || s[j].e->size == s[i].e->size); j++)
			;
		if (j - i < HMB_POOL_MIN_FIGURES)
			continue;
		sigma = sqrt(median_scaled(s + i, j - i));
		for (size_t k = i; k < j; k++) {
			struct hmb_pool_entry *e = base + (s[k].e - base);
			if (!isnan(e->pooled))
				continue;
			e->pooled = sigma;
			e->pooled_n = j - i;
			e->pooled_all_sizes = all_sizes;
		}
	}
}

void hmb_pool_estimate(struct hmb_pool_entry *e, size_t n)
{
	struct slot *s = malloc((n + 1) * sizeof(*s));
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		e[i].pooled = NAN;
		e[i].pooled_n = 0;
		e[i].pooled_all_sizes = 0;
	}
	if (!s)
		return;
	for (size_t i = 0; i < n; i++)
		if (e[i].df >= 1 && isfinite(e[i].var))
			s[m++] = (struct slot){ &e[i],
						e[i].var * (double)e[i].df / hmb_chi2_median(e[i].df) };
	qsort(s, m, sizeof(*s), by_family_size_value);
	pool_groups(s, m, e, 0);
	qsort(s, m, sizeof(*s), by_family_value);
	pool_groups(s, m, e, 1);
	free(s);
}

void hmb_resolution_of(const struct hmb_pool_entry *e, size_t runs, struct hmb_resolution *out)
{
	const struct hmb_family *f = e->family;
	double prior, v;

	out->family = f->name;
	out->runs = runs;
	out->own = e->df >= 1 ? sqrt(e->var) : NAN;
	out->pooled = e->pooled;
	out->pooled_n = e->pooled_n;
	out->session = f->session;
	if (runs < 2) {
		/* one run: its family's floor, a run and a session together */
		out->run_sigma = f->floor;
		out->sigma = f->floor;
	} else {
		prior = isnan(e->pooled) ? f->floor : e->pooled;
		v = (HMB_POOL_PRIOR_DF * prior * prior + (double)e->df * e->var) /
		    (HMB_POOL_PRIOR_DF + (double)e->df);
		out->run_sigma = sqrt(v);
		out->sigma = sqrt(v / (double)runs + f->session * f->session);
	}
	out->resolution = HMB_RESOLUTION_Z * sqrt(2.0) * out->sigma;
	out->stable = out->resolution <= HMB_RESOLUTION_STABLE_REL;
}

double hmb_noise_beyond_runs(size_t runs, double half_width_rel, int gpu_shared)
{
	double v = 0;

	if (runs < 2 && half_width_rel > 0 && isfinite(half_width_rel))
		v += (half_width_rel / HMB_RESOLUTION_Z) * (half_width_rel / HMB_RESOLUTION_Z);
	if (gpu_shared)
		v += HMB_NOISE_SHARED_GPU * HMB_NOISE_SHARED_GPU;
	return sqrt(v);
}
