/*
 * slow_samples.h - the GPU's clock and temperature at a case's slow samples.
 *
 * The engine reads the GPU's state (telemetry: SM clock, temperature) after
 * each sample or batch that took HMB_GPU_AT_SAMPLE_MIN_S or more, outside
 * the timed region; shorter samples are not worth a telemetry read. Where a
 * record's samples are not steady (drift, bimodal) or hold outliers, it then
 * says, in observed:
 *
 *   slow_samples            samples more than HMB_SLOW_SAMPLE_REL above the
 *                           median
 *   slow_sm_clock_mhz,      the median SM clock and temperature read after
 *   slow_temperature_c      those samples
 *   other_sm_clock_mhz,     the same after the other samples
 *   other_temperature_c
 *
 * A slow sample at a lower clock or a higher temperature than the others
 * points at the GPU (power, heat); at the same clock, at something else
 * (the host, the link, a neighbour: observed.other_processes).
 */
#ifndef HMB_SLOW_SAMPLES_H
#define HMB_SLOW_SAMPLES_H

#include <stddef.h>

#define HMB_GPU_AT_SAMPLE_MIN_S 2e-3
#define HMB_SLOW_SAMPLE_REL 0.05

struct hmb_record;
struct hmb_telemetry;

/* Readings per sample, in the samples' order; NAN where none was read. */
struct hmb_gpu_trail {
	double *clock_mhz, *temperature_c;
	size_t n, cap;
};

/* Samples [from, r->nsamples) just taken, together in `took` seconds: read
 * the GPU once for all of them where that is long enough. */
void hmb_gpu_trail_note(struct hmb_gpu_trail *g, struct hmb_telemetry *t,
			const struct hmb_record *r, size_t from, double took);
/* The observations above, where the record's samples call for them. */
void hmb_gpu_trail_observe(const struct hmb_gpu_trail *g, struct hmb_record *r);
void hmb_gpu_trail_free(struct hmb_gpu_trail *g);

/* What is observed, from samples and readings alone: slow and other
 * medians (NAN where no reading), the number of slow samples returned. */
struct hmb_slow_split {
	size_t slow;
	double slow_clock, slow_temp, other_clock, other_temp;
};
size_t hmb_slow_split(const double *samples, const double *clock, const double *temp, size_t n,
		      struct hmb_slow_split *out);

#endif
