/*
 * significance.h - is a difference between two sample sets more than noise?
 * The Mann-Whitney U test (no assumption about the shape of the distribution;
 * timings are skewed) and the Benjamini-Hochberg adjustment for testing many
 * figures at once.
 */
#ifndef HMB_SIGNIFICANCE_H
#define HMB_SIGNIFICANCE_H

#include <stddef.h>

/* Two-sided p-value of the Mann-Whitney U test that a and b come from the same
 * distribution: exact where both sets hold at most HMB_MWU_EXACT_MAX values and
 * no value repeats, else the normal approximation with tie and continuity
 * corrections. NaN when either set is empty. */
double hmb_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

/* The smallest two-sided p-value the test can give for these set sizes (the
 * two sets fully apart): 2 / C(na + nb, na), at most 1. */
double hmb_mann_whitney_min_p(size_t na, size_t nb);

#define HMB_MWU_EXACT_MAX 30

/* Free the exact distributions kept between calls. */
void hmb_significance_release(void);

/* Replace n p-values by Benjamini-Hochberg adjusted ones (the false discovery
 * rate at which each would be a discovery), in place. NaN entries are neither
 * counted nor changed. */
void hmb_adjust_bh(double *p, size_t n);

#endif
