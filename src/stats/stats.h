/*
 * stats.h - summary statistics of a sample set (seconds, or any unit).
 */
#ifndef HMB_STATS_H
#define HMB_STATS_H

#include <stddef.h>

struct hmb_stats {
	size_t count;
	double min, median, mean, max, stddev; /* stddev: sample (n-1); 0 for one sample */
};

/* Summarise n samples; the input is not modified. Returns -1 when n is 0. */
int hmb_stats_compute(const double *samples, size_t n, struct hmb_stats *out);

#endif
