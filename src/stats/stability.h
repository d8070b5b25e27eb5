/*
 * stability.h - does a record's figure repeat? Judged from the samples it
 * has (nothing here changes a figure; the engine uses the interval to decide
 * when it has sampled enough, measure.c):
 *
 *  - the median's 95% confidence interval by order statistics: the ranks
 *    k and n+1-k of the sorted samples, k the largest rank for which
 *    P(Binomial(n, 1/2) < k) <= 2.5% (distribution-free; no interval below
 *    HMB_STABLE_MIN_SAMPLES samples); its relative half-width is
 *    (high - low) / 2 / median;
 *  - stable: that half-width within HMB_STABLE_TARGET_REL (+-1%), where
 *    the engine's adaptive sampling stops; a figure still outside it when it
 *    stopped for another reason (its time, its most samples) is marked
 *    (meets_target in the record says the same of the interval alone);
 *  - shape: "drift" where the samples change in time: a trend (Mann-Kendall,
 *    two-sided p < HMB_DRIFT_P) or a step (the first half against the
 *    second, Mann-Whitney, p < HMB_DRIFT_P), and the medians of the second
 *    and the first half differ by HMB_DRIFT_MIN_REL of the median or more;
 *    else "bimodal"
 *    where the sorted samples fall into two groups (the widest gap between
 *    neighbours, with at least 2 samples and 10% of them on either side, is
 *    HMB_BIMODAL_GAP_REL of the median or more and more than twice the
 *    spread of either group), else "steady";
 *  - outliers: samples more than HMB_OUTLIER_REL away from the median.
 */
#ifndef HMB_STABILITY_H
#define HMB_STABILITY_H

#include <stddef.h>

#define HMB_STABLE_CONFIDENCE 0.95
#define HMB_STABLE_TARGET_REL 0.01
/* one run: stable where the target is met (the samples of one process; of
 * the figures two `all` runs of one run each called stable within +-2%, 45 of
 * 222 were more than 3% apart, results/nvidia-h100-pcie/); several runs:
 * hmb_stability_resolution decides */
#define HMB_STABLE_THRESHOLD_REL HMB_STABLE_TARGET_REL
#define HMB_STABLE_MIN_SAMPLES 6
#define HMB_DRIFT_P 0.01
#define HMB_DRIFT_MIN_REL 0.01
#define HMB_BIMODAL_GAP_REL 0.05
#define HMB_BIMODAL_GAP_TO_SPREAD 2.0
#define HMB_OUTLIER_REL 0.10
#define HMB_TREND_MAX_SAMPLES 4096 /* Mann-Kendall up to this many samples */

#define HMB_CI_METHOD "order statistics (binomial ranks around the median)"
#define HMB_TREND_METHOD "Mann-Kendall (normal approximation, ties corrected); " \
	"first half against second half (Mann-Whitney)"
#define HMB_BIMODAL_METHOD "widest gap between sorted samples"

enum hmb_shape { HMB_SHAPE_UNJUDGED, HMB_SHAPE_STEADY, HMB_SHAPE_DRIFT, HMB_SHAPE_BIMODAL };

struct hmb_stability {
	size_t count;
	double median;
	/* the interval: has_ci 0 below HMB_STABLE_MIN_SAMPLES samples */
	int has_ci;
	size_t lo_rank, hi_rank;       /* 1-based ranks in the sorted samples */
	double ci_low, ci_high;        /* seconds */
	double coverage;               /* 1 - 2 P(Binomial(n, 1/2) < lo_rank) >= 0.95 */
	double half_width_rel;         /* (ci_high - ci_low) / 2 / median */
	int stable;                    /* 1, 0, or -1: too few samples to judge */
	int meets_target;              /* half-width within HMB_STABLE_TARGET_REL (1/0/-1) */
	char reason[256];
	/* the shape */
	enum hmb_shape shape;
	double mk_s, mk_z, mk_p;       /* Mann-Kendall S, z and two-sided p */
	double halves_p;               /* Mann-Whitney p, first half against second */
	double half_change_rel;        /* (median of 2nd half - median of 1st) / median */
	double gap_rel;                /* widest admissible gap / median (0: none) */
	size_t gap_below;              /* samples below that gap */
	double gap_ratio;              /* gap / the wider group's spread (inf: both flat) */
	size_t outliers;
};

/* Judge n samples (seconds, in the order taken). Returns -1 when n is 0. */
int hmb_stability_compute(const double *samples, size_t n, struct hmb_stability *out);
/* Several runs (`all`: two; --runs N): a figure is stable where its
 * resolution, the least change between two documents made alike that its
 * noise from process to process lets it show (resolution.h), is within
 * HMB_RESOLUTION_STABLE_REL, whatever its samples within one process say:
 * what repeats within a process need not repeat across processes. res NULL
 * or without a resolution: the samples' rule stands. */
struct hmb_noise_out;
void hmb_stability_resolution(struct hmb_stability *st, const struct hmb_noise_out *res);
/* Several runs: the shape is judged within each run, not over the pooled
 * samples, where the step from one run to the next would read as drift (the
 * runs' agreement is judged above); the first run that drifts, else the first
 * that is bimodal, else steady (none judged: the pooled shape stays).
 * counts: each run's samples, in order, adding up to st->count (else nothing
 * changes). */
void hmb_stability_shape_within_runs(struct hmb_stability *st, const double *samples,
				     const size_t *counts, size_t nruns);

/* The lower rank k (1-based) of the 95% order-statistic interval of the
 * median of n samples, its coverage in *coverage; 0 when n is too small. */
size_t hmb_median_ci_rank(size_t n, double *coverage);

const char *hmb_shape_name(enum hmb_shape s);

/* A short mark for the tables: "" (stable and steady), "~" unstable, "?" too
 * few samples to judge, then "D" drift, "B" bimodal, or "o" where a steady
 * record has outliers. */
void hmb_stability_mark(const struct hmb_stability *s, char *buf, size_t len);

#endif
