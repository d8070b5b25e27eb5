/* slow_samples.c - the GPU's clock and temperature at a case's slow samples
 * (slow_samples.h). */
#include "engine/slow_samples.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/record.h"
#include "stats/stats.h"
#include "telemetry/telemetry.h"
#include "util/util.h"

void hmb_gpu_trail_note(struct hmb_gpu_trail *g, struct hmb_telemetry *t,
			const struct hmb_record *r, size_t from, double took)
{
	struct hmb_gpu_sample s;
	double clock = NAN, temp = NAN;

	if (t && t->available && took >= HMB_GPU_AT_SAMPLE_MIN_S && r->nsamples > from) {
		memset(&s, 0, sizeof(s));
		s.sm_clock_mhz = s.temperature_c = -1;
		s.nprocs = -1;
		t->backend->read(t, &s);
		if (s.sm_clock_mhz > 0)
			clock = s.sm_clock_mhz;
		if (s.temperature_c > 0)
			temp = s.temperature_c;
	}
	if (r->nsamples > g->cap) {
		g->cap = r->nsamples * 2;
		g->clock_mhz = hmb_xrealloc(g->clock_mhz, g->cap * sizeof(double));
		g->temperature_c = hmb_xrealloc(g->temperature_c, g->cap * sizeof(double));
	}
	for (; g->n < r->nsamples; g->n++) {
		int read = g->n >= from;
		g->clock_mhz[g->n] = read ? clock : NAN;
		g->temperature_c[g->n] = read ? temp : NAN;
	}
}

/* The median of the readings v[i] of the slow samples (above limit), or of
 * the others; NAN where none was read. */
static double median_where(const double *samples, const double *v, size_t n, double limit,
			   int slow)
{
	double *x = hmb_xcalloc(n ? n : 1, sizeof(double)), m = NAN;
	size_t k = 0;
	struct hmb_stats st;

	for (size_t i = 0; i < n; i++)
		if ((samples[i] > limit) == slow && !isnan(v[i]))
			x[k++] = v[i];
	if (k && hmb_stats_compute(x, k, &st) == 0)
		m = st.median;
	free(x);
	return m;
}

size_t hmb_slow_split(const double *samples, const double *clock, const double *temp, size_t n,
		      struct hmb_slow_split *out)
{
	struct hmb_stats st;
	double limit;

	memset(out, 0, sizeof(*out));
	out->slow_clock = out->slow_temp = out->other_clock = out->other_temp = NAN;
	if (!n || hmb_stats_compute(samples, n, &st) != 0)
		return 0;
	limit = st.median * (1 + HMB_SLOW_SAMPLE_REL);
	for (size_t i = 0; i < n; i++)
		out->slow += samples[i] > limit;
	if (!out->slow)
		return 0;
	out->slow_clock = median_where(samples, clock, n, limit, 1);
	out->slow_temp = median_where(samples, temp, n, limit, 1);
	out->other_clock = median_where(samples, clock, n, limit, 0);
	out->other_temp = median_where(samples, temp, n, limit, 0);
	return out->slow;
}

void hmb_gpu_trail_observe(const struct hmb_gpu_trail *g, struct hmb_record *r)
{
	struct hmb_stability st;
	struct hmb_slow_split s;

	if (g->n != r->nsamples || hmb_stability_compute(r->samples, r->nsamples, &st) != 0 ||
	    (st.shape != HMB_SHAPE_DRIFT && st.shape != HMB_SHAPE_BIMODAL && st.outliers == 0))
		return;
	if (!hmb_slow_split(r->samples, g->clock_mhz, g->temperature_c, g->n, &s))
		return;
	if (isnan(s.slow_clock) && isnan(s.slow_temp))
		return; /* no reading at a slow sample: nothing to say of the GPU */
	hmb_observe_num(r, "slow_samples", (double)s.slow);
	if (!isnan(s.slow_clock))
		hmb_observe_num(r, "slow_sm_clock_mhz", s.slow_clock);
	if (!isnan(s.slow_temp))
		hmb_observe_num(r, "slow_temperature_c", s.slow_temp);
	if (!isnan(s.other_clock))
		hmb_observe_num(r, "other_sm_clock_mhz", s.other_clock);
	if (!isnan(s.other_temp))
		hmb_observe_num(r, "other_temperature_c", s.other_temp);
}

void hmb_gpu_trail_free(struct hmb_gpu_trail *g)
{
	free(g->clock_mhz);
	free(g->temperature_c);
	memset(g, 0, sizeof(*g));
}
