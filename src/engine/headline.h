/*
 * headline.h - what a module declares of how its figures read: its headline
 * figures, which the one-screen summary prints (output/summary.h), and the
 * physical peak a case's GB/s is a fraction of (the summary's and the
 * tables' peak %). Each module declares its own in its folder
 * (bench/<module>/), as fields of its struct hmb_bench (module.h); the command
 * line hands the module table to the summary and the tables (output/ includes
 * no bench/).
 */
#ifndef HMB_HEADLINE_H
#define HMB_HEADLINE_H

#include <stddef.h>

struct hmb_bench;

/* One headline of a module. params: comma-separated terms, each NAME=VALUE (a
 * number or text), NAME=max or NAME=min (the largest or smallest the document
 * has), NAME>NUMBER, or NAME=$gpu (the GPU summarised). figure: "GB/s", "time"
 * (the median, in us) or a metric's name. over: a case whose figure this one's
 * is taken against (baseline / this for times, this / baseline otherwise: "x",
 * above 1 better). A table of them ends with a NULL name. */
struct hmb_headline {
	const char *name;               /* at most 18 characters */
	const char *kase, *params, *figure, *over;
	const char *about;              /* what it is, in a few words */
	/* the summary prints a module's headlines in the module table's order;
	 * one that names another module's headline here comes right after it */
	const char *after;
};

/* The physical peak a case's GB/s is a fraction of. */
enum hmb_peak {
	HMB_PEAK_NONE,
	HMB_PEAK_RECORD,      /* the record's own peak_gbps (memcpy: the host link) */
	HMB_PEAK_LINK,        /* the host link, one direction */
	HMB_PEAK_LINK_BOTH,   /* the host link, both directions at once */
	HMB_PEAK_LINK_GPUS,   /* params.gpus host links, one direction */
	HMB_PEAK_LINK_GPUS_BOTH,
	HMB_PEAK_HBM_COPY,    /* device memory: a copy reads and writes each byte */
};

/* The cases (an fnmatch pattern) whose peak is not the record's own. A table
 * of them ends with a NULL kase. */
struct hmb_case_peak {
	const char *kase;
	enum hmb_peak peak;
};

/* A headline and the module that declares it. */
struct hmb_module_headline {
	const char *module;
	const struct hmb_headline *h;
};

/* The headlines of a module table (NULL-terminated; NULL: none) in the order
 * the summary prints them, into out: how many. More than max is a bug in a
 * module's table, reported and aborted. */
size_t hmb_headlines_of(const struct hmb_bench *const *benches, struct hmb_module_headline *out,
			size_t max);

/* A line of what a module's figures say together (its struct hmb_bench's
 * findings, module.h), its end included. */
#define HMB_FINDING_LEN 200

/* The module of benches (NULL-terminated; may be NULL) of this name; NULL: none. */
const struct hmb_bench *hmb_bench_named(const struct hmb_bench *const *benches, const char *name);

/* The peak of a case of a module as its module declares it: HMB_PEAK_RECORD
 * where it declares none (or the module is not in benches). */
enum hmb_peak hmb_case_peak(const struct hmb_bench *const *benches, const char *module,
			    const char *kase);

#endif
