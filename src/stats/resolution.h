/*
 * resolution.h - how small a change between two documents a figure can show,
 * from runs (each run is a process of its own), not from one process's
 * samples: what repeats within a process need not repeat across processes.
 *
 * A figure's run-to-run noise (sigma of the logarithm of one run's figure):
 *  - pooled: every figure of its family in the document, at its size, with
 *    two runs or more gives the variance of its runs' logarithms; the
 *    family's noise at that size is a robust pool of them (the median of
 *    the variances, each scaled by the median of chi-square with its
 *    degrees of freedom): hundreds of degrees of freedom where one figure's
 *    two runs have one. Fewer than HMB_POOL_MIN_FIGURES at that size: the
 *    family's figures at every size; fewer still: the family's declared
 *    floor (below);
 *  - the figure's own: its runs' variance, weighed against the pool as
 *    HMB_POOL_PRIOR_DF runs' worth of evidence (a figure whose runs
 *    disagree is noisier than its family says, one whose two runs agree by
 *    luck is not quieter);
 *  - the session: what runs within one document cannot see, the machine
 *    moving between one document and the next (minutes apart: host-side
 *    state, clocks); declared per family (the table in resolution.c, from
 *    the committed back-to-back pairs of results/nvidia-h100-pcie/).
 * The noise of the document's figure is sqrt(sigma^2 / runs + session^2);
 * a document of one run has its family's floor (a run and a session).
 *
 * The resolution is the least change between two documents made alike that
 * is beyond that noise at 95%: HMB_RESOLUTION_Z * sqrt(2) * the noise. A
 * figure is stable where its resolution is within HMB_RESOLUTION_STABLE_REL,
 * the threshold compare is used at (so a stable figure's change beyond that
 * threshold is a change; an unstable one says how far it can be trusted).
 */
#ifndef HMB_RESOLUTION_H
#define HMB_RESOLUTION_H

#include <stddef.h>

#define HMB_RESOLUTION_Z 1.96
#define HMB_RESOLUTION_STABLE_REL 0.05
#define HMB_POOL_MIN_FIGURES 5
#define HMB_POOL_PRIOR_DF 4.0

#define HMB_RESOLUTION_METHOD "run-to-run noise pooled over the figure's family in the " \
	"document (robust: median of the runs' log variances), weighed with the figure's own " \
	"runs, plus the family's declared session noise"

/* A family of figures: what moves alike from run to run. */
struct hmb_family {
	const char *module, *kase, *figure; /* shell patterns */
	const char *name;
	double floor;   /* one run, one session: relative sigma (documents of one run) */
	double session; /* from one document to the next, beyond its runs: relative sigma */
};

/* The family of a figure (the last one, "other", catches the rest). */
const struct hmb_family *hmb_family_of(const char *module, const char *kase, const char *figure);
/* The table, in order: NULL past the end. */
const struct hmb_family *hmb_family_at(size_t i);

/* One figure of a document, for the pooling: its family, its size (bytes;
 * 0: none) and its runs' figures. */
struct hmb_pool_entry {
	const struct hmb_family *family;
	double size;
	double var;        /* the variance of its runs' logarithms; NAN: fewer than 2 runs */
	size_t df;         /* runs - 1 */
	/* filled by hmb_pool_estimate */
	double pooled;     /* the family's run-to-run sigma here; NAN: none pooled */
	size_t pooled_n;   /* how many figures that pool holds */
	int pooled_all_sizes; /* 1: over the family's every size */
};

/* The logarithms' mean and variance of a figure's positive, finite runs in
 * e (var NAN, df 0 below 2 runs); returns how many runs there are. */
size_t hmb_pool_entry_runs(struct hmb_pool_entry *e, const double *runs, size_t n, double *mean);

/* Every entry's pooled sigma and how many figures it rests on. */
void hmb_pool_estimate(struct hmb_pool_entry *e, size_t n);

/* One figure's noise and resolution. */
struct hmb_resolution {
	const char *family; /* its name */
	size_t runs;
	double own;        /* its runs' sigma; NAN below 2 */
	double pooled;     /* its family's (NAN: none; the floor stood in) */
	size_t pooled_n;
	double run_sigma;  /* one run's: pooled and own weighed together */
	double session;    /* the family's declared session noise */
	double sigma;      /* of the document's figure: sqrt(run^2 / runs + session^2) */
	double resolution; /* HMB_RESOLUTION_Z * sqrt(2) * sigma */
	int stable;        /* resolution within HMB_RESOLUTION_STABLE_REL */
};

void hmb_resolution_of(const struct hmb_pool_entry *e, size_t runs, struct hmb_resolution *out);

/* Relative noise per run that another process using the GPU around a
 * figure adds (observed.gpu_shared_with). */
#define HMB_NOISE_SHARED_GPU 0.25

/* A document's figure's noise beyond its resolution's sigma, relative, one
 * sigma: for a figure of one run, its median's 95% interval (half_width_rel;
 * NAN or 0: none); where another process used its GPU, HMB_NOISE_SHARED_GPU;
 * in quadrature. compare (compare/noise.c) and the summary's ratios judge a
 * change between two documents against both figures' sigma and this. */
double hmb_noise_beyond_runs(size_t runs, double half_width_rel, int gpu_shared);

/* The median of chi-square with df degrees of freedom. */
double hmb_chi2_median(size_t df);

#endif
