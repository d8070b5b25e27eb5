/*
 * commands.h - the table of commands: what the parser accepts and checks,
 * what the help says of each and the function that runs it. Modules are
 * commands too: they share one row (hmb_module_command), their names and
 * texts come from the table of modules (registry.h).
 */
#ifndef HMB_COMMANDS_H
#define HMB_COMMANDS_H

#include "cli/cli.h"

/* What a command's arguments are, for the shell's completion. */
enum hmb_command_args { HMB_ARGS_NONE, HMB_ARGS_COMMAND, HMB_ARGS_DOCUMENTS };

struct hmb_command {
	const char *name;
	enum hmb_command_kind kind;
	const char *synopsis;          /* in the global help's list of commands */
	const char *usage;             /* its help's first line */
	const char *summary;           /* one line, in the global help */
	const char *text;              /* its help */
	unsigned options;              /* 1 << HMB_G_*: the global options it takes */
	int module_options;            /* it takes the modules' options */
	enum hmb_command_args args;
	int same_document_twice;       /* HMB_ARGS_DOCUMENTS: one may be given twice */
	int (*run)(struct hmb_cli *cli);
};

/* The commands that are not modules, in help order; ended by a NULL name. */
extern const struct hmb_command hmb_commands[];
/* The row every module runs by. */
extern const struct hmb_command hmb_module_command;

/* A command that is not a module, by name; NULL when none. */
const struct hmb_command *hmb_command_find(const char *name);
/* The commands and modules (of benches, NULL-terminated) nearest to name, for
 * its refusal: "memcpy, vmm, merge". Returns buf. */
const char *hmb_command_nearest(const char *name, const struct hmb_bench *const *benches,
				char *buf, size_t len);

#endif
