/*
 * report.h - one run: its settings, host, device and every record, in the
 * order they were measured. Printers (doc/json_write.c, output/) read it; nothing else
 * writes figures.
 */
#ifndef HMB_REPORT_H
#define HMB_REPORT_H

#include <stdio.h>

#include "engine/options.h"
#include "engine/record.h"
#include "system/device.h"
#include "system/host.h"
#include "system/numa_place.h"
#include "telemetry/telemetry.h"

#define HMB_SCHEMA_VERSION 1

struct hmb_sum;
struct hmb_report;
struct hmb_bench;

/* A record is finished: the one way a record reaches the output while a run
 * goes on. The runner's (run/runner.c) prints its progress line and keeps
 * the document on disk (checkpoint.h). */
typedef void hmb_progress_fn(struct hmb_report *rep, const struct hmb_record *r);



/* How one module ran: alone in a process of its own (all), or in this one. */
struct hmb_module_run {
	const char *name;
	double wall_s;
	int isolated;                   /* 1: a process of its own */
	int exit_status;                /* that process's exit status; -1 in-process */
	int device;                     /* the GPU it measured; -1 every GPU (node-level) */
	char env_var[24], env_value[48];/* the mode it ran in (modeplan.h); "" none */
	int env_set;                    /* 1: all set it for this run; 0: the user had */
	char *note;                     /* the plan's note (why once, what was left out) */
	int run;                        /* --runs: which run of the module (1, ...); 0: one */
	char beside[64];                /* GPUs that ran the module at the same time,
					 * "1,2,3" (run/schedule.h); "" alone */
};

struct hmb_report {
	const struct hmb_options *opt;
	const char *command;
	char started_utc[32];
	struct hmb_host host;
	struct hmb_device device;
	int have_device;
	struct hmb_record *head, *tail;
	size_t count;
	int complete;                   /* the run reached its end */
	int interrupted;                /* stopped by a signal */
	const char **modules;           /* modules run, in order (grows) */
	int nmodules;
	struct hmb_telemetry telemetry; /* GPU state before and after each module */
	struct hmb_module_run *runs;    /* in the order run (grows) */
	int nruns;
	struct hmb_where where;         /* where this process and its memory were */
	int have_where;
	struct cJSON **devices;         /* all: each GPU's device object, as the modules'
	                                * documents hold it (parsed once, on import) */
	int ndevices;
	struct cJSON *summary_json;     /* all: the headline figures as the document holds them
	                                * (output/summary.h), or NULL */
	/* The modules (NULL-terminated), for how their records' figures read
	 * (headline.h: the tables' peaks, all's summary); set by the command
	 * line. NULL: none declared, each record's own peak. */
	const struct hmb_bench *const *benches;
	/* Called with each finished record (hmb_report_finish); NULL: none. */
	hmb_progress_fn *progress;
};

void hmb_report_init(struct hmb_report *rep, const struct hmb_options *opt, const char *command);
void hmb_report_add(struct hmb_report *rep, struct hmb_record *r);
/* Take a finished record of this process's run: add it, then hand it to the
 * progress callback (hmb_commit; a module's own record in run/runner.c). */
void hmb_report_finish(struct hmb_report *rep, struct hmb_record *r);
void hmb_report_free(struct hmb_report *rep);
/* Note a module as run (modules, in order). */
void hmb_report_add_module(struct hmb_report *rep, const char *name);
/* Note how a module ran (module_runs): in a process of its own, which
 * exited with exit_status, or in this one (exit_status -1), on GPU device
 * (-1: a node-level module, every GPU). */
void hmb_report_module_run(struct hmb_report *rep, const char *name, double wall_s,
			   int exit_status, int device);
/* The last module run: the environment variable it ran with (set by all,
 * or the user's), and the note of its plan (modeplan.h). */
void hmb_report_module_run_env(struct hmb_report *rep, const char *var, const char *value,
			       int set);
void hmb_report_module_run_note(struct hmb_report *rep, const char *note);
void hmb_report_module_run_beside(struct hmb_report *rep, const char *gpus);
/* Records that failed. */
size_t hmb_report_failures(const struct hmb_report *rep);



#endif
