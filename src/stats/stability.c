/* stability.c - the median's interval, the stable mark, drift and bimodality. */
#include "stats/stability.h"

#include "stats/resolution.h"
#include "stats/significance.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_of_sorted(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double *sorted_copy(const double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return NULL;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

size_t hmb_median_ci_rank(size_t n, double *coverage)
{
	double alpha = (1.0 - HMB_STABLE_CONFIDENCE) / 2.0, cdf = 0.0, log_half_n;
	size_t k = 0;

	*coverage = 0;
	if (n < 2)
		return 0;
	log_half_n = (double)n * log(0.5);
	/* cdf = P(X <= i); the rank k = i + 1 is admissible while P(X <= i) <= alpha */
	for (size_t i = 0; i < n / 2; i++) {
		double lc = lgamma((double)n + 1) - lgamma((double)i + 1) -
			    lgamma((double)(n - i) + 1);
		double next = cdf + exp(lc + log_half_n);
		if (next > alpha)
			break;
		cdf = next;
		k = i + 1;
	}
	if (k)
		*coverage = 1.0 - 2.0 * cdf;
	return k;
}

/* Mann-Kendall S, its tie-corrected variance, z and the two-sided p. */
static void mann_kendall(const double *x, const double *sorted, size_t n,
			 struct hmb_stability *out)
{
	double s = 0, var;

	out->mk_p = 1;
	if (n > HMB_TREND_MAX_SAMPLES)
		return; /* O(n^2): the halves' test alone judges longer records */
	for (size_t i = 0; i + 1 < n; i++)
		for (size_t j = i + 1; j < n; j++)
			s += (x[j] > x[i]) - (x[j] < x[i]);
	var = (double)n * (n - 1) * (2.0 * n + 5);
	for (size_t i = 0; i < n;) {
		size_t t = 1;
		while (i + t < n && sorted[i + t] == sorted[i])
			t++;
		var -= (double)t * (t - 1) * (2.0 * t + 5);
		i += t;
	}
	var /= 18.0;
	out->mk_s = s;
	if (var <= 0) {
		out->mk_z = 0;
		out->mk_p = 1;
		return;
	}
	out->mk_z = s > 0 ? (s - 1) / sqrt(var) : s < 0 ? (s + 1) / sqrt(var) : 0;
	out->mk_p = erfc(fabs(out->mk_z) / sqrt(2.0));
}

/* The widest gap between sorted neighbours that leaves at least 2 samples
 * and 10% of them on either side, measured against the groups' spreads. */
static void widest_gap(const double *sorted, size_t n, double median, struct hmb_stability *out)
{
	size_t least = n / 10 > 2 ? n / 10 : 2, at = 0;
	double best = 0, wider;

	for (size_t i = least; i + least <= n; i++) {
		double g = sorted[i] - sorted[i - 1];
		if (g > best) {
			best = g;
			at = i;
		}
	}
	if (!at || median <= 0)
		return;
	out->gap_rel = best / median;
	out->gap_below = at;
	wider = fmax(sorted[at - 1] - sorted[0], sorted[n - 1] - sorted[at]);
	out->gap_ratio = wider > 0 ? best / wider : INFINITY;
}

int hmb_stability_compute(const double *samples, size_t n, struct hmb_stability *out)
{
	double *sorted, *half;
	size_t h;

	memset(out, 0, sizeof(*out));
	out->stable = out->meets_target = -1;
	if (n == 0 || !(sorted = sorted_copy(samples, n)))
		return -1;
	out->count = n;
	out->median = median_of_sorted(sorted, n);
	for (size_t i = 0; i < n; i++)
		if (out->median > 0 && fabs(sorted[i] - out->median) > HMB_OUTLIER_REL * out->median)
			out->outliers++;
	out->lo_rank = hmb_median_ci_rank(n, &out->coverage);
	if (!out->lo_rank || out->median <= 0) {
		out->lo_rank = 0;
		snprintf(out->reason, sizeof(out->reason),
			 "%zu sample%s: too few for a %.0f%% interval of the median (%d needed)", n,
			 n == 1 ? "" : "s", 100 * HMB_STABLE_CONFIDENCE, HMB_STABLE_MIN_SAMPLES);
		free(sorted);
		return 0;
	}
	out->has_ci = 1;
	out->hi_rank = n + 1 - out->lo_rank;
	out->ci_low = sorted[out->lo_rank - 1];
	out->ci_high = sorted[out->hi_rank - 1];
	out->half_width_rel = (out->ci_high - out->ci_low) / 2.0 / out->median;
	out->stable = out->half_width_rel <= HMB_STABLE_THRESHOLD_REL;
	out->meets_target = out->half_width_rel <= HMB_STABLE_TARGET_REL;
	snprintf(out->reason, sizeof(out->reason), "%.0f%% CI of the median +-%.2g%%, %s +-%.0f%%",
		 100 * HMB_STABLE_CONFIDENCE, 100 * out->half_width_rel,
		 out->stable ? "within" : "above", 100 * HMB_STABLE_THRESHOLD_REL);

	/* the shape: drift first (it says when), then two groups */
	mann_kendall(samples, sorted, n, out);
	h = n / 2;
	out->halves_p = hmb_mann_whitney_p(samples, h, samples + n - h, h);
	if ((half = sorted_copy(samples, h))) {
		double first = median_of_sorted(half, h);
		free(half);
		if ((half = sorted_copy(samples + n - h, h))) {
			out->half_change_rel = (median_of_sorted(half, h) - first) / out->median;
			free(half);
		}
	}
	widest_gap(sorted, n, out->median, out);
	if ((out->mk_p < HMB_DRIFT_P || out->halves_p < HMB_DRIFT_P) &&
	    fabs(out->half_change_rel) >= HMB_DRIFT_MIN_REL)
		out->shape = HMB_SHAPE_DRIFT;
	else if (out->gap_rel >= HMB_BIMODAL_GAP_REL && out->gap_ratio > HMB_BIMODAL_GAP_TO_SPREAD)
		out->shape = HMB_SHAPE_BIMODAL;
	else
		out->shape = HMB_SHAPE_STEADY;
	free(sorted);
	return 0;
}

void hmb_stability_resolution(struct hmb_stability *st, const struct hmb_noise_out *res)
{
	char from[160];

	if (!res || !(res->resolution > 0) || st->stable < 0)
		return;
	st->stable = res->stable;
	hmb_noise_source_text(res, from, sizeof(from));
	snprintf(st->reason, sizeof(st->reason), "resolution +-%.2g%%, %s +-%.0f%%: %s",
		 100 * res->resolution, res->stable ? "within" : "above",
		 100 * HMB_RESOLUTION_STABLE_REL, from);
}

void hmb_stability_shape_within_runs(struct hmb_stability *st, const double *samples,
				     const size_t *counts, size_t nruns)
{
	struct hmb_stability run, found = { 0 };
	size_t from = 0, total = 0;

	for (size_t k = 0; counts && k < nruns; k++)
		total += counts[k];
	if (nruns < 2 || total != st->count)
		return;
	found.shape = HMB_SHAPE_UNJUDGED;
	for (size_t k = 0; k < nruns; from += counts[k], k++) {
		if (hmb_stability_compute(samples + from, counts[k], &run) != 0 ||
		    run.shape == HMB_SHAPE_UNJUDGED)
			continue;
		if (found.shape == HMB_SHAPE_UNJUDGED || found.shape == HMB_SHAPE_STEADY ||
		    (found.shape == HMB_SHAPE_BIMODAL && run.shape == HMB_SHAPE_DRIFT))
			found = run;
	}
	if (found.shape == HMB_SHAPE_UNJUDGED) /* no run to judge: as pooled */
		return;
	st->shape = found.shape;
	st->mk_s = found.mk_s;
	st->mk_z = found.mk_z;
	st->mk_p = found.mk_p;
	st->halves_p = found.halves_p;
	st->half_change_rel = found.half_change_rel;
	st->gap_rel = found.gap_rel;
	st->gap_below = found.gap_below;
	st->gap_ratio = found.gap_ratio;
}

const char *hmb_shape_name(enum hmb_shape s)
{
	switch (s) {
	case HMB_SHAPE_STEADY: return "steady";
	case HMB_SHAPE_DRIFT: return "drift";
	case HMB_SHAPE_BIMODAL: return "bimodal";
	case HMB_SHAPE_UNJUDGED: break;
	}
	return "unjudged";
}

void hmb_stability_mark(const struct hmb_stability *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", s->stable == 0 ? "~" : s->stable < 0 ? "?" : "",
		 s->shape == HMB_SHAPE_DRIFT ? "D" : s->shape == HMB_SHAPE_BIMODAL ? "B" : "",
		 s->outliers && s->shape == HMB_SHAPE_STEADY ? "o" : "");
}
