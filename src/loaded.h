/*
 * loaded.h - what compare reads of a document: its figures, each with the
 * samples it comes from, and a description of the system. json.c fills it
 * (hmb_json_load), compare.c compares two; neither needs the other.
 */
#ifndef HMB_LOADED_H
#define HMB_LOADED_H

#include <stddef.h>

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

#endif
