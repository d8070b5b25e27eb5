/*
 * noise.c - the run-to-run noise of a figure, which compare judges a change
 * against (a run is one process: on a shared node two processes doing the
 * same work differ by more than the samples of either spread).
 *
 * Runs model: where both documents hold several runs of a result (--runs),
 * Welch's t-test on the logarithms of the runs' figures (each run's median,
 * or its metric). A t-test, because with 3 to 5 runs a side a rank test
 * cannot reach p < 0.01 at all (Mann-Whitney's least p is 0.1 for 3 against
 * 3, 0.008 for 5 against 5), while a run's figure, a median of many samples,
 * is close to normal; Welch's, because the two documents' spreads need not
 * be alike; logarithms, because noise and change are relative. The variance
 * of a side is never below HMB_NOISE_RUNS_MIN squared.
 *
 * Floor model: a single run a side says nothing of its own run-to-run
 * noise, so each figure's family has a floor declared below: the relative
 * noise of one run, in sigma. A side's noise is that floor, with the
 * record's own uncertainty (its median's 95% interval, stability.
 * half_width_rel / 1.96) and, where another process used the GPU around it,
 * HMB_NOISE_SHARED_GPU, added in quadrature; the change is judged by the
 * normal distribution against both sides' noise.
 *
 * Neither model adjusts for the number of figures: the aim is a gate that
 * flags few of the figures of two runs of one build (about 1 in 200 at
 * p < 0.01 by chance, most of them then within the threshold), not one
 * that never flags any.
 *
 * The floors come from the two runs of one build on one H100 committed in
 * results/nvidia-h100-pcie/ (all.json against alone/, 808 figures that have
 * a direction; scripts/noise_floor.py derives them): for each family the
 * least floor with which none of its figures is flagged at --threshold 5,
 * rounded up, but where one figure's jump alone would set the family's
 * floor (async copies: write-combined d2h at 16 MiB moved by 23%; vmm:
 * hipMemCreate of 1 GiB by a factor of 5): that figure is left flagged.
 * The figures that copy a difference of two times (managed's migration_s,
 * overlap's efficiency) swing by factors and have a floor to match.
 */
#include "compare/noise.h"

#include <fnmatch.h>
#include <math.h>
#include <string.h>

#include "stats/significance.h"

static const struct family {
	const char *module, *kase, *figure; /* shell patterns */
	const char *name;
	double floor;                       /* relative noise of one run, sigma */
} families[] = {
	{ "*", "*", "migration_s", "differences of two times", 1.20 },
	{ "*", "*", "overlap_efficiency", "differences of two times", 1.20 },
	{ "memcpy", "*/*pageable/*", "*", "memcpy pageable", 0.08 },
	{ "memcpy", "*/*/sync", "*", "memcpy hipMemcpy (host clock)", 0.15 },
	{ "memcpy", "*", "*", "memcpy async (events)", 0.02 },
	{ "overlap", "*", "*", "overlap", 0.12 },
	{ "managed", "*", "*", "managed", 0.28 },
	{ "xnack", "*", "*", "xnack", 0.11 },
	{ "pool", "*", "*", "pool", 0.22 },
	{ "vmm", "*", "*", "vmm", 0.22 },
	{ "node", "access-cost/*", "*", "node allocation", 0.07 },
	{ "node", "*", "*", "node copies", 0.025 },
	{ "*", "*", "*", "other", 0.25 },
};

static const struct family *family_of(const struct hmb_result *r, const struct hmb_figure *f)
{
	size_t i;

	for (i = 0; i + 1 < sizeof(families) / sizeof(families[0]); i++)
		if (!fnmatch(families[i].module, r->module, 0) &&
		    !fnmatch(families[i].kase, r->kase, 0) &&
		    !fnmatch(families[i].figure, f->name, 0))
			break;
	return &families[i];
}

/* The logarithms of a figure's runs (the finite, positive ones) in out. */
static size_t log_runs(const struct hmb_figure *f, double *out)
{
	size_t n = 0;

	for (size_t k = 0; k < f->nruns; k++)
		if (f->runs[k] > 0 && isfinite(f->runs[k]))
			out[n++] = log(f->runs[k]);
	return n;
}

/* One run's noise of a side: its family's floor, its median's uncertainty
 * and a shared GPU, in quadrature. */
static double side_noise(const struct hmb_result *r, double floor)
{
	double v = floor * floor;

	if (r->half_width_rel > 0 && isfinite(r->half_width_rel))
		v += (r->half_width_rel / 1.96) * (r->half_width_rel / 1.96);
	if (r->gpu_shared)
		v += HMB_NOISE_SHARED_GPU * HMB_NOISE_SHARED_GPU;
	return sqrt(v);
}

void hmb_noise_judge(const struct hmb_result *ra, const struct hmb_figure *a,
		     const struct hmb_result *rb, const struct hmb_figure *b, struct hmb_noise *out)
{
	const struct family *fam = family_of(ra, a);
	double la[HMB_RUNS_LOADED_MAX], lb[HMB_RUNS_LOADED_MAX], change;
	size_t na, nb;

	memset(out, 0, sizeof(*out));
	out->family = fam->name;
	out->floor = fam->floor;
	out->p = NAN;
	out->own_rel = NAN;
	if (!(a->value > 0) || !(b->value > 0) || !isfinite(a->value) || !isfinite(b->value))
		return;
	change = log(b->value / a->value);
	na = log_runs(a, la);
	nb = log_runs(b, lb);
	if (na >= 2 && nb >= 2) {
		out->model = HMB_NOISE_RUNS;
		out->runs_a = na;
		out->runs_b = nb;
		out->p = hmb_welch_p(la, na, lb, nb, HMB_NOISE_RUNS_MIN * HMB_NOISE_RUNS_MIN,
				     &out->noise_rel);
		return;
	}
	out->model = HMB_NOISE_FLOOR;
	out->noise_rel = hypot(side_noise(ra, fam->floor), side_noise(rb, fam->floor));
	out->own_rel = hypot(side_noise(ra, 0), side_noise(rb, 0));
	out->p = erfc(fabs(change) / out->noise_rel / sqrt(2.0));
}

void hmb_noise_print_floors(FILE *out)
{
	const char *last = "";

	fprintf(out, "run-to-run noise of one run (sigma) by family of figures; another process\n"
		"using the GPU around a figure adds %.0f%%:\n", 100.0 * HMB_NOISE_SHARED_GPU);
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		if (!strcmp(families[i].name, last))
			continue;
		last = families[i].name;
		fprintf(out, "  %-32s %5.1f%%\n", families[i].name, 100.0 * families[i].floor);
	}
}
