/*
 * module.h - what a benchmark module sees: its context, the record API and
 * the few helpers that every module needs (HIP calls fail through
 * platform/check.h).
 *
 * A module is a table entry { name, summary, needs, options, run, ... }, with
 * how its figures read (headline.h: its headlines and peaks; chart.h: its
 * charts in the HTML report). run() declares its cases as records (record.h)
 * and returns 0, or -1 when it could not go on (the reason is in the last HIP
 * error or a failed record).
 */
#ifndef HMB_MODULE_H
#define HMB_MODULE_H

#include <stddef.h>
#include <stdio.h>

#include "engine/alloc.h"
#include "engine/chart.h"
#include "engine/headline.h"
#include "engine/options.h"
#include "engine/record.h"
#include "platform/check.h"
#include "platform/hip.h"
#include "system/device.h"
#include "system/topology.h"
#include "util/sizes.h"

struct hmb_report;

/* What a module needs from the device, checked in one place (runner.c). */
enum {
	HMB_NEEDS_MANAGED = 1 << 0,
	HMB_NEEDS_POOLS = 1 << 1,
	HMB_NEEDS_VMM = 1 << 2,
};

struct hmb_engine; /* measure.c: the events and latch of the engine */

struct hmb_ctx {
	const struct hmb_options *opt;
	const struct hmb_bench *bench; /* the module (NULL in tests: no on-request cases) */
	const struct hmb_device *dev;
	struct hmb_report *report;
	const char *module;
	hipStream_t stream;            /* the module's non-blocking stream */
	struct hmb_engine *engine;     /* created on first use, freed with the module */
	struct hmb_owned_list owned;   /* alloc.h: freed on every path */
};

struct hmb_bench {
	const char *name;          /* CLI name and JSON "module" */
	const char *summary;       /* one line for `hipmembench list` */
	unsigned needs;
	const struct hmb_opt_decl *options; /* terminated by a NULL name; may be NULL */
	const char *help;          /* how it uses --sizes and how to read it */
	const char *const *cases;  /* every case name it can record, NULL-terminated */
	/* Shell patterns over those names: cases that run only when a --case
	 * pattern selects them, never in a plain run or `all` (they cost more
	 * time than they earn there). NULL-terminated; may be NULL. */
	const char *const *on_request;
	int node_level;            /* measures every GPU at once: run once, not per GPU */
	int host_link;             /* moves data over the host link: with --devices, runs
				    * beside no GPU that shares it (run/schedule.h) */
	int oversubscribe;         /* allocates managed memory: --oversubscribe applies */
	/* Its figures on the summary's screen and the peaks its cases' GB/s are
	 * read against where not the record's own (headline.h); each may be NULL. */
	const struct hmb_headline *headlines;
	const struct hmb_case_peak *peaks;
	/* Its charts in the HTML report beside its figures against size
	 * (chart.h), and what its headline charts show, in a few words, for the
	 * report's introduction; each may be NULL. */
	const struct hmb_chart_group *chart_groups;
	const struct hmb_chart *charts;
	const char *charts_about;
	/* How many processes `all` runs it in without --runs (0: HMB_ALL_RUNS). A
	 * module whose run is short and whose figures move from process to
	 * process (host-side calls, page faults) takes more: its resolution then
	 * rests on more than one degree of freedom. */
	int all_runs;
	/* What it prints after its table, in a run and in `show`, from its
	 * records first up to end (NULL: the last): node's matrices. May be NULL. */
	void (*tables)(FILE *out, const struct hmb_record *first, const struct hmb_record *end);
	/* A pairwise case of its records as a matrix, GB/s (or ns per load of a
	 * chase) from row GPU to column GPU, 0 where none; the GPUs, 0: no
	 * figure. The report draws the cases of heatmaps so. Each may be NULL. */
	int (*matrix)(const struct hmb_record *first, const struct hmb_record *end, const char *kase,
		      double (*v)[HMB_TOPO_MAX_GPUS]);
	const struct hmb_heatmap *heatmaps;
	/* Its bars of every GPU at once against each alone in the report. May
	 * be NULL. */
	const struct hmb_all_vs_alone *all_vs_alone;
	/* What its figures say together that no single figure does, for the
	 * summary's anomalies: up to max lines of its records from head (link:
	 * the GPU's host link, GB/s; 0 unknown); how many. May be NULL. */
	int (*findings)(const struct hmb_record *head, double link_gbps,
			char (*lines)[HMB_FINDING_LEN], int max);
	/* Its options together (each one alone is checked by type and limits): 0,
	 * or -1 with one line naming the options; NULL: nothing to check. */
	int (*check)(const struct hmb_options *opt, char *err, size_t errlen);
	int (*run)(struct hmb_ctx *ctx);
};


/* Is a case of this name selected by --case? With none given, every case
 * but the module's on-request ones; an on-request case only by a pattern
 * that selects no case of a plain run. */
int hmb_selected(const struct hmb_ctx *ctx, const char *case_name);

/* Is r's case selected by --case? Where it is not, r is freed (returns 0). */
int hmb_keep_selected(struct hmb_ctx *ctx, struct hmb_record *r);

/* Does b run this case only when --case selects it? */
int hmb_on_request(const struct hmb_bench *b, const char *case_name);

/* Does --case select any case that module b declares? */
int hmb_bench_selected(const struct hmb_bench *b, const struct hmb_options *opt);

/* A new record of this module for `name`. */
struct hmb_record *hmb_case_record(struct hmb_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Commit a "skipped" record for a case that cannot run (e.g. too little memory). */
void hmb_skip(struct hmb_ctx *ctx, const char *case_name, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Commit one "skipped" record named HMB_MODULE_RECORD for a size at which
 * no case of the module can run (too little device memory for its buffers):
 * kept whatever --case selected, since it stands for every case. */
#define HMB_MODULE_RECORD "all"
void hmb_skip_module(struct hmb_ctx *ctx, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The safety rule for managed memory, in one place: a size up to free device
 * memory less 512 MiB, or F x free memory under --oversubscribe F, is allowed
 * (returns 1); a larger one is refused with a "skipped" record (returns 0). */
int hmb_managed_allowed(struct hmb_ctx *ctx, const char *case_name, size_t size);
/* Mark a record failed with the pending error (and clear it). */
void hmb_case_failed(struct hmb_record *r);
/* Hand a finished record to the report, and so to its progress callback
 * (report.h: the runner prints one progress line on stderr); a record of a
 * case that --case did not select is dropped. */
void hmb_commit(struct hmb_ctx *ctx, struct hmb_record *r);
/* The same for a record the module keeps whatever --case selected (a case
 * that stands for a family the pattern selects). */
void hmb_commit_kept(struct hmb_ctx *ctx, struct hmb_record *r);

/* Repetitions and warm-ups: the user's, else the module's default (--quick: fewer). */
int hmb_reps(const struct hmb_ctx *ctx, int module_default);
int hmb_warmup(const struct hmb_ctx *ctx, int module_default);
/* --sizes if given, else the module's default (or its quick default). */
void hmb_sizes_or(const struct hmb_ctx *ctx, struct hmb_sizes *out, const char *dflt,
		  const char *quick_dflt);
/* Module options, parsed: the command line was checked against their
 * declarations (type and limits) already, so a value that does not parse or
 * a list longer than max is a bug in the module, reported and aborted. */
size_t hmb_opt_size(const struct hmb_ctx *ctx, const char *name, size_t dflt);
long hmb_opt_int(const struct hmb_ctx *ctx, const char *name, long dflt);
int hmb_opt_ints(const struct hmb_ctx *ctx, const char *name, const char *dflt, int *out,
		 int max);
int hmb_opt_flag(const struct hmb_ctx *ctx, const char *name);

/* Set by a terminating signal (main.c): modules stop between cases. */
int hmb_interrupted(void);

/* The device's last-level cache in bytes: L2, plus AMD's Infinity Cache
 * where the architecture has one (MI300: 256 MiB; not readable through HIP). */
size_t hmb_cache_bytes(const struct hmb_device *dev);


#endif
