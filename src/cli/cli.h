/*
 * cli.h - the command line, read and checked in full before anything else
 * happens: `hipmembench [options] <command> [arguments] [module options]`.
 *
 * Options may come before or after the command; "--" ends them. Long options
 * may be abbreviated to a unique prefix and take their value as "--opt VALUE"
 * or "--opt=VALUE"; short ones as "-s VALUE" or "-sVALUE", and flags may be
 * grouped ("-qn"). An option given twice must be given the same value, but
 * for those of HMB_G_REPEATABLE, where each value counts.
 */
#ifndef HMB_CLI_H
#define HMB_CLI_H

#include <stddef.h>

#include "engine/options.h"
#include "util/child_env.h"

struct hmb_bench;
struct hmb_command;
struct hmb_parser;

enum hmb_command_kind { HMB_CMD_NONE, HMB_CMD_HELP, HMB_CMD_LIST, HMB_CMD_COMPARE, HMB_CMD_SHOW,
			HMB_CMD_SUMMARY, HMB_CMD_MERGE, HMB_CMD_INFO, HMB_CMD_ALL, HMB_CMD_MODULE };

/* Global options, as bits of hmb_cli.given and of a command's options; in the
 * order the global help lists them. */
enum { HMB_G_DEVICE, HMB_G_OUTPUT, HMB_G_FORMAT, HMB_G_SIZES, HMB_G_REPS, HMB_G_WARMUP,
       HMB_G_QUICK, HMB_G_DRY_RUN, HMB_G_CASE, HMB_G_CASES, HMB_G_DEVICES, HMB_G_TOGETHER,
       HMB_G_NO_ISOLATION,
       HMB_G_RUNS, HMB_G_PEAK_GBPS, HMB_G_OVERSUBSCRIBE, HMB_G_THRESHOLD, HMB_G_GPU, HMB_G_WIDE,
       HMB_G_ALLOW_PARTIAL, HMB_G_HELP, HMB_G_VERSION, HMB_G_COUNT };

/* The global options that may be given again with another value, each value
 * counting (--case PATTERN); any other is given once, or again as it was. */
#define HMB_G_REPEATABLE (1u << HMB_G_CASE)

/* One global option: what the parser reads, the help prints and the shell
 * completes. A flag sets the int at `field` of struct hmb_cli to 1; a whole
 * number (min < max) is checked and stored there; any other value goes
 * through set. */
struct hmb_global_option {
	const char *name;
	char short_name;               /* 0: none */
	const char *value;             /* the value's name in the help; NULL: a flag */
	const char *help;              /* NULL: not in the global help (a command's own) */
	size_t field;
	long min, max;
	int (*set)(struct hmb_parser *p, const char *value);
};

extern const struct hmb_global_option hmb_global_options[HMB_G_COUNT];

/* The names of --format, indexed by enum hmb_format; NULL where none. */
extern const char *const hmb_format_names[];

struct hmb_cli {
	struct hmb_options opt;
	enum hmb_command_kind kind;
	const struct hmb_command *cmd;  /* its row of the command table (commands.h) */
	const char *command;            /* as typed; NULL when none */
	const struct hmb_bench *bench;  /* HMB_CMD_MODULE: the module */
	const char *help_topic;         /* help wanted: NULL for the global help */
	int help;                       /* show help (help_topic) and stop */
	int version;                    /* show the version and stop */
	unsigned given;                 /* 1 << HMB_G_*: global options given */
	char **args;                    /* arguments after the command */
	int nargs;
	int command_index;              /* where the command word stands in argv */
	int list_cases;                 /* list --cases */
};

/* "0,2,3" into GPU ordinals: how many, or -1 when malformed or repeated. */
int hmb_parse_device_list(const char *text, int *out, int max);

/* Read argv against the modules in benches (NULL-terminated). Returns 0, or
 * 2 (bad usage) with one printable line in err naming the option, argument
 * or file. argv is neither changed nor copied: out points into it.
 * hmb_cli_free releases what hmb_cli_parse allocated, either way. */
int hmb_cli_parse(int argc, char **argv, const struct hmb_bench *const *benches,
		  struct hmb_cli *out, char *err, size_t errlen);
void hmb_cli_free(struct hmb_cli *cli);

#endif
