/*
 * resolution.h - how small a change between two documents a figure can show,
 * measured on the machine that made the document: from its own runs (each run
 * a process of its own) and, where a document holds the runs of several
 * documents (merge), from the spread between those documents. Nothing is
 * declared or calibrated elsewhere.
 *
 * The model, on the logarithms of a figure's values:
 *  - runs: the variance of a figure's runs within each document, pooled over
 *    its documents (degrees of freedom: runs less documents). Two runs give
 *    one degree of freedom: a figure whose two runs agree by luck is not
 *    quiet, one whose runs disagree is noisy. So each is weighed against a
 *    prior from figures that behave alike in the same document (empirical
 *    Bayes, Smyth's moderated variances): the prior is the figure's own
 *    within-run noise (how much one run's value moves with its samples)
 *    scaled by how far run-to-run noise exceeds within-run noise over its
 *    neighbours (the median over the HMB_NOISE_NEIGHBOURS figures of its
 *    module nearest to it: its case at the nearest sizes, else the case
 *    path's closest siblings; the module's median only where it has no
 *    neighbours); for a figure without samples of its own (a metric), the
 *    neighbours' run-to-run variance. How many runs' worth the prior counts
 *    (prior_df) is learned from the document: how far the figures' own
 *    variances scatter around their priors beyond what their degrees of
 *    freedom explain, and never more than the runs the prior rests on. A
 *    figure whose own variance is far beyond its prior (a run that jumped)
 *    keeps its own.
 *  - documents (a merge): the documents' means are the runs of the level
 *    above, weighed the same way, their prior the runs' noise over the runs
 *    of a document scaled by how far the documents spread against it (over
 *    its neighbours, as above), below it too: the larger of two estimates
 *    of one noise would be a wide one.
 * The noise of the document's figure (its runs' mean) is the runs' over
 * their number (one document) or the documents' over theirs; the
 * resolution, the least change between two documents made alike that is
 * beyond that noise at 95%: t(0.975, df) * sqrt(2) * sigma, with the degrees
 * of freedom of the estimate (its own and its prior's), so a noise estimated
 * from few runs is a wide one. A figure is stable where the resolution is
 * within HMB_RESOLUTION_STABLE_REL, the threshold compare is used at.
 * A document of one run has no run-to-run noise: no resolution.
 */
#ifndef HMB_RESOLUTION_H
#define HMB_RESOLUTION_H

#include <stddef.h>

#define HMB_RESOLUTION_CONFIDENCE 0.95
#define HMB_RESOLUTION_STABLE_REL 0.05
/* the neighbours a figure's prior is the median over: three, so that one
 * neighbour that jumped does not move it */
#define HMB_NOISE_NEIGHBOURS 3

#define HMB_RESOLUTION_METHOD "runs' variance within each document weighed against a " \
	"prior from the figure's nearest neighbours in its document (their run-to-run over " \
	"within-run noise times the figure's within-run noise; its weight learned from the " \
	"document); several documents: their means' spread weighed the same way; t quantile " \
	"over the estimate's degrees of freedom"

/* One figure of one document (a document, or a merge of several). */
struct hmb_noise_in {
	const char *module, *kase, *figure; /* neighbours: same module, GPU and figure */
	int gpu;              /* (figure NULL or "": the result's own), case alike */
	double size;          /* bytes; 0: none */
	const double *runs;   /* each run's value; those not positive and finite are left out */
	const int *doc;       /* each run's document, 0, 1, ... (NULL: all of one) */
	size_t nruns;
	double within;        /* the relative noise of one run's value from its samples; NAN: none */
};

/* One level of a figure's noise: its runs within documents, or its
 * documents' means (sigmas of logarithms: relative for small values). */
struct hmb_noise_level {
	double own, own_df;     /* its own spread there and its degrees of freedom (0: none) */
	double prior, prior_df; /* the figures alike: their sigma, worth prior_df of its own */
	double sigma, df;       /* the two weighed together; NAN: not known */
};

/* What the model says of a figure. */
struct hmb_noise_out {
	size_t runs, docs;      /* the runs and documents it rests on */
	double mean;            /* the mean over its documents of their runs' mean log value */
	struct hmb_noise_level run, doc; /* one run's noise; a document's (several documents) */
	double sigma, df;       /* the noise of its mean (over runs, or documents) */
	double resolution;      /* t(0.975, df) * sqrt(2) * sigma; NAN: not known */
	int stable;             /* resolution within HMB_RESOLUTION_STABLE_REL */
};

/* Every figure's noise, the n figures being one document's. */
void hmb_noise_model(const struct hmb_noise_in *in, size_t n, struct hmb_noise_out *out);

/* Where a figure's noise came from, for people, in buf: "2 runs: one run
 * +-0.71% (its own 0.80%, 1 df; alike 0.62%, worth 1.7 runs), 2.7 df", or
 * for several documents "3 documents (6 runs): a document +-1.1% (...), 3.2 df". */
const char *hmb_noise_source_text(const struct hmb_noise_out *o, char *buf, size_t len);

/* The relative noise of one run's value from its n samples: the median's
 * standard error from their median absolute deviation (half the smallest
 * step between two samples where most are equal: a timer's tick). NAN for
 * fewer than 3. */
double hmb_noise_within(const double *samples, size_t n);

/* The same over a record's runs (counts[k] samples each, in order). */
double hmb_noise_within_runs(const double *samples, const size_t *counts, size_t nruns);

/* The digamma and trigamma functions, x > 0. */
double hmb_digamma(double x);
double hmb_trigamma(double x);

#endif
