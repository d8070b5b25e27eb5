/*
 * compare.h - `hipmembench compare BASE.json OTHER.json...`: results matched
 * by module, case and parameters across files, with the ratio of each figure,
 * the p-value of the difference in the result's timed samples and, with
 * --threshold, an exit status for regressions that are more than noise.
 */
#ifndef HMB_COMPARE_H
#define HMB_COMPARE_H

#include <stddef.h>

#include "options.h"

/* A figure is worse (or better) when it moved by more than the threshold and the
 * move is significant: the Mann-Whitney U test of the two results' samples,
 * adjusted for the number of figures compared (Benjamini-Hochberg), gives
 * p < HMB_COMPARE_ALPHA. */
#define HMB_COMPARE_ALPHA 0.01

/* Returns the exit status: 0, 1 (a figure worse than threshold_pct) or 2. */
int hmb_compare(int nfiles, char **files, enum hmb_format format, double threshold_pct);

#endif
