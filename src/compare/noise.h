/*
 * noise.h - how much a figure moves between two runs of the same build on
 * the same machine, and how unlikely a change is under that noise
 * (noise.c). compare marks a figure worse only when it moved by more than
 * the threshold and beyond this noise.
 */
#ifndef HMB_NOISE_H
#define HMB_NOISE_H

#include <stdio.h>

#include "doc/loaded.h"

enum hmb_noise_model {
	HMB_NOISE_NONE,  /* no figure to judge (not positive, not finite) */
	HMB_NOISE_RUNS,  /* both sides hold several runs (--runs): their spread */
	HMB_NOISE_FLOOR, /* else: the family's declared floor and the samples' spread */
};

struct hmb_noise {
	enum hmb_noise_model model;
	double p;            /* two-sided; NAN for HMB_NOISE_NONE */
	double noise_rel;    /* the noise of the change, relative (log scale, one sigma) */
	double own_rel;      /* floor model: the part of it that is not the floors
				(the medians' intervals, a shared GPU); NAN otherwise */
	const char *family;  /* the figure's family */
	double floor;        /* and its floor */
	size_t runs_a, runs_b;
};

/* The noise of the change from a (of result ra) to b (of rb), and the
 * p-value of that change under it. */
void hmb_noise_judge(const struct hmb_result *ra, const struct hmb_figure *a,
		     const struct hmb_result *rb, const struct hmb_figure *b, struct hmb_noise *out);

/* The declared floors, a line each after a heading (help compare). */
void hmb_noise_print_floors(FILE *out);

/* Relative noise per run that the floor of a figure measured while another
 * process used the GPU adds (observed.gpu_shared_with). */
#define HMB_NOISE_SHARED_GPU 0.25
/* The least relative noise per run the runs model assumes (below any
 * clock's resolution): identical runs are not infinitely certain. */
#define HMB_NOISE_RUNS_MIN 0.001

#endif
