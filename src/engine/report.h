/*
 * report.h - one run: its settings, host, device and every record, in the
 * order they were measured. Printers (json.c, table.c) read it; nothing else
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
	char **device_json;             /* all: each GPU's device object, from the modules' documents */
	int ndevice_json;
	const struct hmb_sum *summary; /* all: the headline figures (summary.h), or NULL */
	/* Called with each record the report takes from a module (hmb_commit):
	 * the runner's progress line and checkpoint (run/runner.c); NULL: none. */
	void (*committed)(struct hmb_report *rep, const struct hmb_record *r);
};

void hmb_report_init(struct hmb_report *rep, const struct hmb_options *opt, const char *command);
void hmb_report_add(struct hmb_report *rep, struct hmb_record *r);
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
/* Records that failed. */
size_t hmb_report_failures(const struct hmb_report *rep);

/* json.c: the document as text (caller frees), or NULL. */
char *hmb_json_render(const struct hmb_report *rep);
/* Write the document to path atomically (a new temporary file
 * PATH.tmp.PID.XXXXXX with the mode of the file it replaces, fsynced, renamed
 * over it, the folder fsynced); "-" writes to stdout. 0, or -1 with a reason
 * in err. */
int hmb_json_write(const struct hmb_report *rep, const char *path, char *err, size_t errlen);
/* Write text to path as the document is written (a temporary file renamed
 * over it); 0, or -1 with a reason in err. */
int hmb_write_text_file(const char *path, const char *text, char *err, size_t errlen);
/* all: take a module's document (written by its own process) into the
 * report: its records, its telemetry samples and, first time, its device.
 * 0, or -1 with a reason in err. */
int hmb_json_import(struct hmb_report *rep, const char *path, char *err, size_t errlen);
/* all: the arch name of GPU `ordinal` (-1: any) from the device objects the
 * modules' documents brought in. 0, or -1 where none has come yet. */
int hmb_report_device_arch(const struct hmb_report *rep, int ordinal, char *buf, size_t len);
/* Can path be written: "-", or a regular file (new or writable) in a
 * directory where a file can be made (one is made and removed)? Checked
 * before any measurement; leaves nothing behind. */
int hmb_output_writable(const char *path, char *err, size_t errlen);
/* Remove the temporary file of a write in progress; async-signal-safe. */
void hmb_json_discard_tmp(void);

/* table.c: human table and CSV of records from `first` to the end. The
 * table fits 120 columns (table_groups.c); wide: every record whole, every
 * parameter and figure on its line. Progress lines are cut to the terminal. */
void hmb_table_print(FILE *out, const struct hmb_record *first, int wide);
void hmb_csv_print(FILE *out, const struct hmb_record *first, int header);
void hmb_progress_print(FILE *out, const struct hmb_record *r);
void hmb_info_print(FILE *out, const struct hmb_report *rep);
/* The memory-model part of `info` (memmodel.h) for one device. */
void hmb_info_print_memory(FILE *out, const struct hmb_device *dev);

#endif
