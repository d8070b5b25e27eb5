/*
 * compare.h - `hipmembench compare BASE.json OTHER.json...`: results matched
 * by module, case and the parameters that define the workload across files
 * (each record says which of its parameters are context, as its module
 * declared them, engine/record.h: the GPU index, what is tuned to the
 * machine, descriptive text, launch geometry), with the ratio of
 * each figure, which way is better, the p-value of the change under the
 * figure's run-to-run noise (noise.h) and, with --threshold, an exit status
 * for regressions that are more than that noise.
 */
#ifndef HMB_COMPARE_H
#define HMB_COMPARE_H

#include <stddef.h>

#include "compare/figures.h"
#include "engine/options.h"

struct hmb_bench;

/* A figure is worse (or better) when it moved by more than the threshold and
 * beyond its noise (noise.h): its p within Benjamini-Hochberg's bound for this
 * false-discovery rate over all the figures of the pair that have a direction
 * (on two documents of one build, the chance of any flag at all). */
#define HMB_COMPARE_FDR 0.05

struct hmb_compare_options {
	enum hmb_format format;
	double threshold;   /* percent; -1: no verdicts */
	int gpu;            /* --gpu N: that GPU of a multi-GPU document; -1: the default */
	int allow_partial;  /* go on when fewer than half of the base's figures match */
	int wide;           /* every figure with every parameter, no width limit */
	const struct hmb_bench *const *benches; /* the modules: the headlines of the
						 * summary printed first (summary.h) */
};

/* Returns the exit status: 0, 1 (a figure worse than threshold) or 2 (a file
 * that cannot be read, or documents that hardly match). */
int hmb_compare(int nfiles, char **files, const struct hmb_compare_options *o);

/* One figure of the base against its match in another document, judged. */
struct hmb_compare_judged {
	const struct hmb_compare_doc *base, *other;
	const struct hmb_compare_figure *a, *b; /* the base's figure, the other's */
	const char *verdict;            /* as the table prints it: WORSE, better, n.s.,
					 * ?N%, ? or "" (within the threshold, or no direction) */
	double p, resolution;           /* NAN where not judged */
};

typedef void (*hmb_compare_judged_fn)(void *arg, int other, const struct hmb_compare_judged *j);

/* compare's judgement of n documents read (the first the base), as `compare
 * --threshold PCT --allow-partial FILES...` (gpu: --gpu N, -1 none) prints
 * it, silently: fn is given every matched figure of each other document
 * (other: its index in docs, from 1), in the base's order. 0, or -1 where
 * compare would refuse the documents. */
struct hmb_sum_doc;
int hmb_compare_judge(const struct hmb_sum_doc *const *docs, int n, int gpu, double threshold,
		      hmb_compare_judged_fn fn, void *arg);

/* The judge the summary is given (output/summary.h: hmb_sum_judge_fn):
 * each headline of the columns after the first gets compare's verdict on
 * its figure (verdicts.c), so the report tells what compare tells. */
struct hmb_sum;
void hmb_compare_summary_verdicts(struct hmb_sum *s, int gpu, double threshold);

#endif
