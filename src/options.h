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

#include "sizes.h"

enum hmb_format { HMB_FORMAT_TABLE, HMB_FORMAT_JSON, HMB_FORMAT_CSV, HMB_FORMAT_MARKDOWN,
		  HMB_FORMAT_NONE /* a module of all in its own process: nothing on stdout */ };

enum hmb_opt_type { HMB_OPT_SIZE, HMB_OPT_SIZES, HMB_OPT_INT, HMB_OPT_INTS, HMB_OPT_DOUBLE,
		   HMB_OPT_FLAG };

struct hmb_opt_decl {
	const char *name;          /* long option, without "--" */
	enum hmb_opt_type type;
	const char *arg;           /* placeholder in help, e.g. "N" */
	const char *help;
};

#define HMB_MAX_MODULE_OPTS 16

struct hmb_options {
	int device;
	const char *devices;       /* --devices all|LIST: each GPU in turn (NULL: --device) */
	const char *output;        /* JSON file, "-" for stdout, NULL for none */
	enum hmb_format format;    /* what goes to stdout */
	struct hmb_sizes sizes;    /* empty: each module's default */
	int reps, warmup;          /* 0: each module's default */
	int quick;
	int dry_run;               /* plan only: no GPU is opened, nothing is measured */
	double oversubscribe;      /* managed memory beyond free: 0 = refused */
	double peak_gbps;          /* --peak-gbps: the host link's peak; 0 = found or none */
	double threshold;          /* compare: worse by more than this % fails; -1 off */
	const char *cases[16];     /* --case PATTERN (shell glob over case names) */
	int ncases;
	int no_isolation;          /* all: every module in this process (debugging) */
	const char *child_output;  /* internal: a module run for `all`, its document here */
	int nvalues;               /* module options given */
	const char *value_name[HMB_MAX_MODULE_OPTS];
	const char *value[HMB_MAX_MODULE_OPTS];
	int argc;
	char **argv;
};

/* A module option's raw text, or NULL when it was not given. */
const char *hmb_opt_value(const struct hmb_options *o, const char *name);
/* Validate a value for its declared type; 0, or -1 with a reason. */
int hmb_opt_validate(const struct hmb_opt_decl *d, const char *value, char *err, size_t errlen);

#endif
