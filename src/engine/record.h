/*
 * record.h - what a module hands over: one record per case.
 *
 * A module declares a case (hmb_case_record), its parameters, the bytes one
 * sample moves or the operations one sample performs, then adds every raw
 * sample in seconds and hands the record over (hmb_commit). It never
 * derives statistics or GB/s itself: hmb_record_summarize does that, for
 * every printer alike. Figures that are not a timing (a speedup, a cost per
 * fault, a pool's reserved bytes) are metrics with a unit; states read back
 * from the runtime (where pages live, which path a call took) are
 * observations.
 *
 * A parameter declares its role where it is written. A result is identified
 * by its module, its case and its identity parameters (hmb_param_*); context
 * (hmb_context_*: counts tuned to the machine, descriptive text, how samples
 * are timed, launch geometry) is kept and shown, never a reason for two
 * results not to match; the GPU a result ran on (hmb_param_gpu) is context
 * that compare pairs GPU against GPU. The roles travel in the document
 * (doc/json_write.c); documents written before them get theirs from one
 * table (doc/identity.c).
 */
#ifndef HMB_RECORD_H
#define HMB_RECORD_H

#include <stddef.h>

#include "stats/resolution.h"
#include "stats/stability.h"
#include "stats/stats.h"

enum hmb_status { HMB_OK, HMB_UNSUPPORTED, HMB_FAILED, HMB_SKIPPED };

enum hmb_kv_type { HMB_KV_STR, HMB_KV_NUM, HMB_KV_BOOL };

/* What a parameter is to the result's identity (above). */
enum hmb_param_role { HMB_ROLE_IDENTITY, HMB_ROLE_CONTEXT, HMB_ROLE_GPU };

struct hmb_kv {
	char *key;
	enum hmb_kv_type type;
	char *str;
	double num;
	char *unit; /* metrics only */
	enum hmb_param_role role; /* params only */
};

struct hmb_kvlist {
	struct hmb_kv *v;
	size_t n, cap;
};

/* --runs N: the figures of each run merged into a record (runs.c), in the
 * order the runs were made. */
struct hmb_run_metric {
	char *name;
	char *unit;
	double *value;                /* per run; NAN where that run had none */
};

struct hmb_run_figures {
	size_t count, cap;            /* runs merged */
	size_t *samples;              /* per run: how many of the record's samples it gave */
	double *median;               /* per run: the median of its samples, s; NAN: none */
	int *doc;                     /* per run: the document it came from (merge), 0 first;
				       * NULL: all of this one */
	struct hmb_run_metric *metric;
	size_t nmetrics;
	/* how small a change between two documents its figure can show, from
	 * its runs and the report's figures alike (engine/judge.c,
	 * stats/resolution.h); judged 0: not known (a failed record, one run) */
	int judged;
	struct hmb_noise_out res;
};

struct hmb_record {
	char *module;
	char *name;                   /* the case: stable, e.g. "h2d/pinned/async" */
	struct hmb_kvlist params;     /* what the case was run with */
	double bytes;                 /* bytes one sample moves (0: not a transfer) */
	double ops;                   /* operations one sample performs (0: n/a) */
	double peak_gbps;             /* theoretical peak to compare with (0: none) */
	double *samples;              /* seconds */
	size_t nsamples, cap;
	struct hmb_kvlist metrics;    /* derived figures with units */
	struct hmb_kvlist observed;   /* states read back from the runtime */
	enum hmb_status status;
	char *reason;                 /* why unsupported, failed or skipped */
	struct hmb_run_figures *runs; /* --runs N: each run's figures (NULL: one run) */
	/* read from a document (json_import.c): whether its run called it stable and
	 * why, which the tables and the summary say again, as the run printed them,
	 * under whatever rule that run had; written_stable -1: judge it here */
	int written_stable;
	char *written_reason;
	struct hmb_record *next;
};

/* Everything the printers show, derived in one place. */
struct hmb_summary {
	int has_stats;
	struct hmb_stats stats;       /* seconds */
	double gbps_median, gbps_best;/* bytes / median time, bytes / best time */
	double us_per_op_median;      /* median time / ops */
	double peak_fraction;         /* gbps_median / peak_gbps */
	struct hmb_stability stability;/* does the median repeat (stability.h) */
};

struct hmb_record *hmb_record_new(const char *module, const char *name);
void hmb_record_free(struct hmb_record *r);
void hmb_run_figures_free(struct hmb_run_figures *f);

void hmb_param_str(struct hmb_record *r, const char *key, const char *value);
void hmb_param_num(struct hmb_record *r, const char *key, double value);
void hmb_param_bool(struct hmb_record *r, const char *key, int value);
/* Context parameters: shown, not matched. */
void hmb_context_str(struct hmb_record *r, const char *key, const char *value);
void hmb_context_num(struct hmb_record *r, const char *key, double value);
void hmb_context_bool(struct hmb_record *r, const char *key, int value);
/* The parameter that names the GPU the result ran on (one a record: an
 * earlier one becomes context). */
void hmb_param_gpu(struct hmb_record *r, const char *key, int gpu);
/* The GPU parameter a run of several GPUs (--devices) tags each record of a
 * per-GPU module with (run/isolate.c); the tables print a table per module
 * and this GPU (output/table_groups.c). */
#define HMB_PARAM_DEVICE "device"
/* Give parameter key of r, where it has one, this role (a document's
 * declarations read back). */
void hmb_param_set_role(struct hmb_record *r, const char *key, enum hmb_param_role role);
/* Parameter key of r is context or its GPU (shown, not matched); 0 where it
 * is identity or r has no such parameter. */
int hmb_record_param_is_context(const struct hmb_record *r, const char *key);
void hmb_metric(struct hmb_record *r, const char *name, double value, const char *unit);
void hmb_observe_str(struct hmb_record *r, const char *key, const char *value);
void hmb_observe_num(struct hmb_record *r, const char *key, double value);
void hmb_observe_bool(struct hmb_record *r, const char *key, int value);

void hmb_record_bytes(struct hmb_record *r, double bytes);
/* The parameter that names the GPU a record measured (hmb_param_gpu), NULL:
 * none; its GPU, -1: none named. */
const struct hmb_kv *hmb_record_gpu_param(const struct hmb_record *r);
int hmb_record_gpu(const struct hmb_record *r);
void hmb_record_ops(struct hmb_record *r, double ops);
void hmb_record_peak(struct hmb_record *r, double gbps);
void hmb_sample(struct hmb_record *r, double seconds);

/* Mark a record; the reason is formatted like printf. */
void hmb_record_status(struct hmb_record *r, enum hmb_status status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

const struct hmb_kv *hmb_kv_find(const struct hmb_kvlist *l, const char *key);
const char *hmb_status_name(enum hmb_status s);
void hmb_record_summarize(const struct hmb_record *r, struct hmb_summary *out);

#endif
