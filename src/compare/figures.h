/*
 * figures.h - compare's index of a document's figures, a view over the
 * records the document was read into (engine/record.h; figures.c). Each
 * record that ran (status ok) is a result: its module, its case under its
 * current name (doc/renames.h), its parameters as compare matches them
 * (context or identity: their roles, engine/record.h) and shows them, the GPU it ran on
 * and who ran beside it. Its figures: its own (GB/s where it moved bytes,
 * else us/op where it counts operations, else its median time: one figure
 * of its samples) then each of its metrics, each with its value in every
 * run (--runs, merge) for the noise model (noise.h).
 */
#ifndef HMB_COMPARE_FIGURES_H
#define HMB_COMPARE_FIGURES_H

#include <stddef.h>

#include "doc/about.h"
#include "engine/report.h"

/* One parameter of a result. */
struct hmb_compare_param {
	char *name;      /* printable */
	char *text;      /* for people: sizes as typed ("64M"), whole numbers whole, yes/no */
	char *exact;     /* for identity: its type and every digit ("n:1048576", "s:near", "b:1") */
	int is_text;     /* a string (not a number or a boolean) */
	int context;     /* context, not identity, the GPU's too (hmb_compare_identify) */
	int gpu;         /* the one that names the GPU it ran on (hmb_compare_identify) */
	int labelled;    /* shown in the result's label (hmb_compare_identify) */
};

/* One record that ran. */
struct hmb_compare_result {
	const struct hmb_record *rec;
	const char *module;
	char *kase;                   /* the case, under its current name */
	struct hmb_compare_param *p;  /* in the record's order */
	size_t np;
	int gpu;                      /* the GPU it ran on (hmb_record_gpu), or -1 */
	char *key, *label;            /* its identity, and for people (hmb_compare_identify) */
	double within;                /* one run's median's own noise from its samples,
				       * relative (hmb_noise_within_runs); NAN: none */
	/* who ran at once (observed; NULL: none): the GPUs of --devices that ran
	 * beside it ("1,2,3"), and those of them that shared its way to the host
	 * while it moved data over it (the reason its host figures may be lower) */
	const char *beside, *host_shared;
};

/* One figure of a result. */
struct hmb_compare_figure {
	size_t result;   /* index into the document's res */
	char *name;      /* "GB/s", "median", "us/op" or a metric's name (printable) */
	char *unit;      /* printable */
	double value;
	int direction;   /* +1 higher is better, -1 lower is better, 0 information */
	int main;        /* the result's own figure (GB/s, us/op or median: its samples') */
	int skip;        /* left out of this comparison (another GPU's) */
	const char *key, *label; /* its result's (hmb_compare_identify) */
	double *runs;    /* the figure in each run; NULL: one run */
	const int *run_doc; /* each run's document where the document merges several; NULL */
	size_t nruns;
};

/* One document's figures. */
struct hmb_compare_doc {
	const struct hmb_doc_about *about;
	struct hmb_compare_result *res;
	size_t nres;
	struct hmb_compare_figure *fig;
	size_t n;
};

/* The figures of rep's records (which must outlive d); about: what its
 * document says of its machine. */
void hmb_compare_doc_of(struct hmb_compare_doc *d, const struct hmb_report *rep,
			const struct hmb_doc_about *about);
/* Fill the key and label of every result of d; with_gpu: the GPU index is
 * part of the identity (GPU against GPU). */
void hmb_compare_identify(struct hmb_compare_doc *d, int with_gpu);
void hmb_compare_doc_free(struct hmb_compare_doc *d);

#endif
