/* stats.c - min, median, mean, max and sample standard deviation. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int hmb_stats_compute(const double *samples, size_t n, struct hmb_stats *out)
{
	double *sorted, sum = 0.0, sq = 0.0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return -1;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -1;
	memcpy(sorted, samples, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += sorted[i];
	out->count = n;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->mean = sum / (double)n;
	out->median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
	for (size_t i = 0; i < n; i++)
		sq += (sorted[i] - out->mean) * (sorted[i] - out->mean);
	out->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0.0;
	free(sorted);
	return 0;
}
