/*
 * noise.h - how much a figure moves from one document to the next of the
 * same build on the same machine, and how unlikely a change is under that
 * noise (noise.c). compare marks a figure worse only when it moved by more
 * than the threshold and beyond this noise, with the false alarms over all
 * the figures compared held down (compare.c: Benjamini-Hochberg).
 */
#ifndef HMB_NOISE_H
#define HMB_NOISE_H

#include <stdio.h>

#include "doc/loaded.h"
#include "stats/resolution.h"

enum hmb_noise_model {
	HMB_NOISE_NONE,  /* no figure to judge (not positive, not finite) */
	HMB_NOISE_RUNS,  /* both sides hold several runs: each side's pooled noise */
	HMB_NOISE_FLOOR, /* a side of one run: its family's declared floor */
};

struct hmb_noise {
	enum hmb_noise_model model;
	double p;            /* two-sided; NAN for HMB_NOISE_NONE */
	double change;       /* log(other / base): the runs' means where both have runs */
	double noise_rel;    /* the change's noise, relative (log scale, one sigma) */
	double resolution;   /* HMB_RESOLUTION_Z * noise_rel: the least change it can tell */
	double own_rel;      /* the part of the noise that is neither runs nor family: the
				medians' intervals (one run), a shared GPU */
	const char *family;  /* the figure's family */
	double floor;        /* and its declared floor (one run) */
	struct hmb_resolution a, b; /* each side's figure (resolution.h) */
};

/* Each figure of l, in l->fig order, as the pooling sees it, with its
 * family's pooled run-to-run noise in the document (hmb_pool_estimate);
 * *means, the mean of each figure's runs' logarithms (NAN: none). Free both. */
struct hmb_pool_entry *hmb_noise_pool(const struct hmb_loaded *l, double **means);

/* The noise of the change from figure ia of la to figure ib of lb (their
 * pools from hmb_noise_pool) and its p-value under that noise. */
void hmb_noise_judge(const struct hmb_loaded *la, const struct hmb_pool_entry *pa,
		     const double *ma, size_t ia, const struct hmb_loaded *lb,
		     const struct hmb_pool_entry *pb, const double *mb, size_t ib,
		     struct hmb_noise *out);

/* The families, their floors and session noise, a line each (help compare). */
void hmb_noise_print_floors(FILE *out);

#endif
