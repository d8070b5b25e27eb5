/*
 * compare.h - `hipmembench compare BASE.json OTHER.json...`: results matched
 * by module, case and parameters across files, with the ratio of each figure,
 * the p-value of the difference in the result's timed samples and, with
 * --threshold, an exit status for regressions that are more than noise.
 */
#ifndef HMB_COMPARE_H
#define HMB_COMPARE_H

#include <stddef.h>

#include "options.h"

/* One comparable figure of one result. */
struct hmb_figure {
	char *key;       /* module|case|params: what must match across files */
	char *label;     /* module case params, for people */
	char *name;      /* "GB/s", "median", "us/op" or a metric's name */
	char *unit;
	double value;
	int direction;   /* +1 higher is better, -1 lower is better, 0 information */
	double *samples; /* the result's timed samples (samples_s) that value comes from */
	size_t nsamples;
};

/* What compare needs of one document (json.c reads it). */
struct hmb_loaded {
	int schema_version;
	char system[512];          /* host, device, platform, runtime versions */
	char settings[256];        /* what changes the meaning of a figure */
	char xnack[192];           /* HSA_XNACK, arch xnack flag, managed access mode */
	struct hmb_figure *fig;
	size_t n, cap;
};

/* Read a hipmembench document: 0, or -1 with a reason naming the file. */
int hmb_json_load(const char *path, struct hmb_loaded *out, char *err, size_t errlen);
void hmb_loaded_free(struct hmb_loaded *l);
/* Which way is better for a unit: +1, -1 or 0. */
int hmb_unit_direction(const char *unit);

/* A figure is worse (or better) when it moved by more than the threshold and the
 * move is significant: the Mann-Whitney U test of the two results' samples,
 * adjusted for the number of figures compared (Benjamini-Hochberg), gives
 * p < HMB_COMPARE_ALPHA. */
#define HMB_COMPARE_ALPHA 0.01

/* Returns the exit status: 0, 1 (a figure worse than threshold_pct) or 2. */
int hmb_compare(int nfiles, char **files, enum hmb_format format, double threshold_pct);

#endif
