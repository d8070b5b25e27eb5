/*
 * loaded.h - what compare reads of a document: its results (module, case,
 * every parameter as written, how far their medians can be trusted) and
 * their figures, each with its value in every run (--runs), and a
 * description of the system. json_read.c fills it
 * (hmb_json_load); compare.c decides which parameters identify a result and
 * compares two; neither needs the other.
 */
#ifndef HMB_LOADED_H
#define HMB_LOADED_H

#include <stddef.h>
#include <stdint.h>

#include "doc/about.h"
#include "util/text.h" /* hmb_number_text, which the readers of documents share */

/* One parameter of a result, as the document has it. */
struct hmb_param {
	const char *name;
	const char *text;      /* for people: sizes as typed ("64M"), whole numbers whole, yes/no */
	const char *exact;     /* for identity: the type and every digit ("n:1048576", "s:near") */
	int is_text;     /* a string (not a number or a boolean) */
	int context;     /* compare's: context, not identity */
	int labelled;    /* compare's: shown in the result's label */
};

/* One result: what compare's identity is made of. */
struct hmb_result {
	const char *module;
	const char *kase;        /* the case, under its current name */
	struct hmb_param *p;     /* in document order */
	size_t np;
	int gpu;                 /* the GPU it ran on (param device, node's gpu), or -1 */
	char *key, *label;       /* compare's, shared by the result's figures (in strings) */
	uint64_t key_hash;       /* compare's */
	double half_width_rel;   /* its median's 95% interval, relative (stability); NAN: none */
	double within;           /* one run's median's own noise from its samples, relative
				  * (stats/resolution.h: hmb_noise_within_runs); NAN: none */
	int gpu_shared;          /* another process used the GPU around it (observed) */
	/* who ran at once (observed; NULL: none): the GPUs of --devices that ran
	 * beside it ("1,2,3"), and those of them that shared its way to the host
	 * while it moved data over it (the reason its host figures may be lower) */
	const char *beside, *host_shared;
};

/* One comparable figure of one result. */
struct hmb_figure {
	size_t result;   /* index into hmb_loaded.res */
	char *key;       /* what must match across files (compare fills it; the result's) */
	char *label;     /* module case params, for people (compare fills it; the result's) */
	const char *name; /* "GB/s", "median", "us/op" or a metric's name */
	const char *unit;
	double value;
	int direction;   /* +1 higher is better, -1 lower is better, 0 information */
	int skip;        /* left out of this comparison (another GPU's) */
	int main;        /* the result's own figure (GB/s, us/op or median: its samples') */
	double *runs;    /* --runs: the figure in each run (in strings); NULL: one run */
	int *run_doc;    /* each run's document where the document merges several; NULL */
	size_t nruns;
};

/* The most runs of a figure that are read (--runs allows as many). */
#define HMB_RUNS_LOADED_MAX 100

/* Where a loaded document's strings and parameters live: blocks freed all
 * at once, and each distinct string once (a document of 300 000 results
 * repeats its names and values). */
struct hmb_arena {
	char *block;
	size_t used, cap;
	char **old;                /* full blocks, and their sizes */
	size_t *sizes, nold;
	struct hmb_interned { const char *raw, *shown, *exact; } *words;
	size_t nwords, mask;
	struct hmb_number_memo { const char *name, *text, *exact; double v; } numbers[256];
};

/* What compare needs of one document (json_read.c reads it). */
struct hmb_loaded {
	struct hmb_doc_about about;
	struct hmb_result *res;
	size_t nres, rcap;
	struct hmb_figure *fig;
	size_t n, cap;
	struct hmb_arena strings;  /* every name, text and value of res and fig */
};

/* Read a hipmembench document: 0, or -1 with a reason naming the file. */
int hmb_json_load(const char *path, struct hmb_loaded *out, char *err, size_t errlen);
void hmb_loaded_free(struct hmb_loaded *l);
/* A string's hash (eight bytes at a time), from seed h. */
uint64_t hmb_hash(const char *s, uint64_t h);
/* Memory (aligned for any type, zeroed) that lives as long as l. */
void *hmb_loaded_alloc(struct hmb_loaded *l, size_t size);
/* s, one copy per distinct string, living as long as l: as it is (raw), or
 * printable for people (hmb_shown). */
const char *hmb_loaded_raw(struct hmb_loaded *l, const char *s);
const char *hmb_loaded_shown(struct hmb_loaded *l, const char *s);
/* Building a loaded document (json_read.c). A new result (GPU -1,
 * no interval) and a new figure of the last result: */
struct hmb_result *hmb_loaded_add_result(struct hmb_loaded *l, const char *module,
					 const char *kase);
void hmb_loaded_add_figure(struct hmb_loaded *l, const char *name, const char *unit,
			   double value);
/* n parameters, zeroed, to fill with: a number (text: sizes as typed where
 * whole, "64M", whole numbers whole; exact: "n:" and every digit), a boolean
 * (yes/no; "b:1"), or text (a string, is_text, "s:..."; else JSON as
 * printed, "j:...") */
struct hmb_param *hmb_loaded_params(struct hmb_loaded *l, size_t n);
void hmb_loaded_param_number(struct hmb_loaded *l, struct hmb_param *p, const char *name,
			     double v);
void hmb_loaded_param_bool(struct hmb_loaded *l, struct hmb_param *p, const char *name, int v);
void hmb_loaded_param_text(struct hmb_loaded *l, struct hmb_param *p, const char *name,
			   const char *text, int is_string);
#endif
