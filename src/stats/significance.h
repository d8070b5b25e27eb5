/*
 * significance.h - is a difference between two sets of values more than
 * noise? The Mann-Whitney U test (no assumption about the shape of the
 * distribution; timings are skewed: the drift of a record's samples),
 * Student's t distribution (compare's p over a noise of few degrees of
 * freedom, noise.c); and over many figures at once, which of them moved
 * (Benjamini-Hochberg: compare's verdicts).
 */
#ifndef HMB_SIGNIFICANCE_H
#define HMB_SIGNIFICANCE_H

#include <stddef.h>

/* Two-sided p-value of the Mann-Whitney U test that a and b come from the same
 * distribution: exact where both sets hold at most HMB_MWU_EXACT_MAX values and
 * no value repeats, else the normal approximation with tie and continuity
 * corrections. NaN when either set is empty. */
double hmb_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

#define HMB_MWU_EXACT_MAX 30

/* Free the exact distributions kept between calls. */
void hmb_significance_release(void);

/* Two-sided p-value of Student's t distribution with df degrees of freedom
 * (df need not be whole): P(|T| >= |t|). */
double hmb_student_t_p(double t, double df);

/* P(X >= x) for X chi-square with df degrees of freedom. */
double hmb_chi2_upper_p(double x, double df);

/* The t with P(|T| >= t) = p (two-sided) under Student's t with df degrees
 * of freedom (INFINITY: the normal distribution); NAN outside 0 < p < 1. */
double hmb_student_t_quantile(double p, double df);

/* Benjamini-Hochberg (step-up) at false-discovery rate q over p[0..n), NaN
 * p-values not counted: the k smallest p, where k is the largest rank with
 * p(k) <= q k / m, are discoveries (found[i] 1), whatever the ranks below k.
 * Returns k. Under independent tests, at most a share q of the discoveries
 * are expected false. */
size_t hmb_fdr_discoveries(const double *p, size_t n, double q, char *found);

#endif
