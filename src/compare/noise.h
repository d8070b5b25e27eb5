/*
 * noise.h - how much a figure moves from one document to the next, measured
 * on the documents themselves (stats/resolution.h), and how unlikely a
 * change is under that noise (noise.c). compare marks a figure worse only
 * when it moved by more than the threshold and beyond this noise, with the
 * false alarms over all the figures compared held down (compare.c:
 * Benjamini-Hochberg).
 */
#ifndef HMB_NOISE_H
#define HMB_NOISE_H

#include <stddef.h>

#include "compare/figures.h"
#include "stats/resolution.h"

enum hmb_noise_model {
	HMB_NOISE_NONE,      /* nothing to judge it by: no figure, or no side with runs */
	HMB_NOISE_RUNS,      /* each side's runs (one document a side) */
	HMB_NOISE_DOCUMENTS, /* the spread between documents (a side merges several) */
	HMB_NOISE_ONE_SIDE,  /* one side's runs stand for both (the other holds one run) */
};

/* One document's figures as the noise model sees them. */
struct hmb_noise_doc {
	struct hmb_noise_in *in;
	struct hmb_noise_out *out;
	size_t n;
};

struct hmb_noise {
	enum hmb_noise_model model;
	int pooled;          /* one machine: both sides' runs weighed together */
	double p;            /* two-sided; NAN where not judged */
	double change;       /* log(other / base), from the runs' means where both have runs */
	double noise_rel;    /* the change's noise, relative (log scale, one sigma) */
	double df;           /* its degrees of freedom */
	double resolution;   /* t(0.975, df) * noise_rel: the least change it can tell */
	const struct hmb_noise_out *a, *b; /* each side's figure (resolution.h) */
};

/* The model over every figure of d (free with hmb_noise_doc_free). */
struct hmb_noise_doc *hmb_noise_of(const struct hmb_compare_doc *d);
void hmb_noise_doc_free(struct hmb_noise_doc *d);

/* The noise of the change from figure ia of da to figure ib of db and its
 * p-value under that noise; same_machine: the two documents come from one
 * machine (their runs' noise is one, and is weighed together). */
void hmb_noise_judge(const struct hmb_compare_doc *da, const struct hmb_noise_doc *na, size_t ia,
		     const struct hmb_compare_doc *db, const struct hmb_noise_doc *nb, size_t ib,
		     int same_machine, struct hmb_noise *out);

/* What a row's noise came from, for people: "runs 2+2 pooled, 4.7 df". */
const char *hmb_noise_text(const struct hmb_noise *n, char *buf, size_t len);

#endif
