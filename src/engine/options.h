/*
 * options.h - the options of one invocation, global and per module.
 *
 * Global options (--device, --sizes, --reps, ...) mean the same to every
 * module. A module declares its own options in a table (struct hmb_opt_decl);
 * the CLI validates their values by type before anything runs, and the module
 * reads them back by name.
 */
#ifndef HMB_OPTIONS_H
#define HMB_OPTIONS_H

#include "util/sizes.h"

enum hmb_format { HMB_FORMAT_TABLE, HMB_FORMAT_JSON, HMB_FORMAT_CSV, HMB_FORMAT_MARKDOWN,
		  HMB_FORMAT_NONE /* a module of all in its own process: nothing on stdout */,
		  HMB_FORMAT_HTML /* summary: the report */ };

enum hmb_opt_type { HMB_OPT_SIZE, HMB_OPT_SIZES, HMB_OPT_INT, HMB_OPT_INTS, HMB_OPT_DOUBLE,
		   HMB_OPT_FLAG };

struct hmb_opt_decl {
	const char *name;          /* long option, without "--" */
	enum hmb_opt_type type;
	const char *arg;           /* placeholder in help, e.g. "N" */
	const char *help;
	/* Limits, checked when the command line is read. INT, INTS: each value
	 * from min to max (both 0: 1 to 1e9); SIZE, SIZES: each size at most max
	 * bytes (0: any). INTS: at most max_values values (0: HMB_OPT_MAX_VALUES). */
	long min, max;
	int max_values;
};

#define HMB_OPT_MAX_VALUES 8
#define HMB_RUNS_MAX 100           /* --runs */
#define HMB_ALL_RUNS 2             /* all without --runs (and without --quick) */
#define HMB_MAX_MODULE_OPTS 16

/* --together: which GPUs of --devices run a module at the same time
 * (run/schedule.h says how). */
enum hmb_together {
	HMB_TOGETHER_ALL,   /* the default: every module on every GPU at once */
	HMB_TOGETHER_HOST,  /* host-link modules one GPU a host group at a time */
	HMB_TOGETHER_NONE,  /* one GPU after another */
	HMB_TOGETHER_MODES
};

/* The word --together takes for a mode, and back (-1: not one). */
const char *hmb_together_name(enum hmb_together mode);
int hmb_together_parse(const char *word);

struct hmb_options {
	int device;
	const char *devices;       /* --devices all|LIST: each GPU in turn (NULL: --device) */
	enum hmb_together together; /* --together (with --devices) */
	const char *output;        /* JSON file, "-" for stdout, NULL for none */
	enum hmb_format format;    /* what goes to stdout */
	struct hmb_sizes sizes;    /* empty: each module's default */
	int reps, warmup;          /* 0: each module's default */
	int quick;
	int dry_run;               /* plan only: no GPU is opened, nothing is measured */
	double oversubscribe;      /* managed memory beyond free: 0 = refused */
	double peak_gbps;          /* --peak-gbps: the host link's peak; 0 = found or none */
	double threshold;          /* compare: worse by more than this % fails; -1 off */
	int compare_gpu;           /* compare, summary --gpu N; -1: GPU 0 of a multi-GPU document */
	int allow_partial;         /* compare: go on when fewer than half the figures match */
	int wide;                  /* compare: every figure and parameter, no width limit */
	const char *cases[16];     /* --case PATTERN (shell glob over case names) */
	int ncases;
	int no_isolation;          /* all: every module in this process (debugging) */
	int runs;                  /* --runs N: each module N times, each in its own process */
	int runs_by_module;        /* all without --runs: each module its own count, at
				    * least runs (hmb_bench.all_runs) */
	const char *child_output;  /* a module run for `all`: its document here (cli.c) */
	int child_table;           /* such a module prints its table (0: the parent does) */
	int child_beside;          /* such a module runs beside others on other GPUs */
	int run_share;             /* such a module is one of this many runs (>= 1) */
	int nvalues;               /* module options given; one entry per name */
	const char *value_name[HMB_MAX_MODULE_OPTS];
	const char *value[HMB_MAX_MODULE_OPTS];
	int argc;
	char **argv;
};

/* A module option's raw text, or NULL when it was not given. */
const char *hmb_opt_value(const struct hmb_options *o, const char *name);
/* Set a module option; given again, the last value counts (the command line
 * gives one value an option: cli.h). 0, or -1 when HMB_MAX_MODULE_OPTS
 * different options are set already. */
int hmb_opt_set(struct hmb_options *o, const char *name, const char *value);
/* Validate a value for its declared type and limits; 0, or -1 with a
 * one-line reason that names the option. */
int hmb_opt_validate(const struct hmb_opt_decl *d, const char *value, char *err, size_t errlen);

/* A whole number in decimal, nothing else (no blanks, no '+'): 0, or -1. */
int hmb_parse_long(const char *text, long *out);
/* A finite decimal number, nothing else (no blanks, hex, inf or nan): 0, or -1. */
int hmb_parse_double(const char *text, double *out);
/* A comma-separated list of whole numbers, each in [min, max], at most
 * maxvals of them, into vals: the count, or -1 with a reason naming opt. */
int hmb_parse_long_list(const char *opt, const char *text, long min, long max, long *vals,
			int maxvals, char *err, size_t errlen);

#endif
