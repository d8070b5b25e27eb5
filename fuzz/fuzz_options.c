/*
 * fuzz_options.c - libFuzzer target for the command line: the input, split at
 * NUL bytes, is argv. hmb_cli_parse must accept it or refuse it with one
 * printable line; what it accepts is consistent (a known command, values in
 * range, each module option once), and the help for that command prints, as
 * does what the shell's completion reads for it. The modules are stand-ins
 * with every kind of option the real ones declare; the commands' runs are
 * stand-ins that are never called.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/actions.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/complete.h"
#include "cli/help.h"
#include "engine/module.h"
#include "fuzz_check.h"

static const struct hmb_opt_decl overlap_opts[] = {
	{ "streams", HMB_OPT_INTS, "LIST", "stream counts", 1, 16, 8 },
	{ "chunks", HMB_OPT_INTS, "LIST", "chunk counts", 1, 1024, 8 },
	{ "iters", HMB_OPT_INTS, "LIST", "steps per word", 1, 1000000, 3 },
	{ NULL, 0, NULL, NULL, 0, 0, 0 },
};
static const struct hmb_opt_decl pool_opts[] = {
	{ "loop", HMB_OPT_INT, "N", "iterations per sample", 1, 4L << 20, 0 },
	{ "factor", HMB_OPT_DOUBLE, "F", "a factor", 0, 0, 0 },
	{ "trim", HMB_OPT_FLAG, NULL, "a flag", 0, 0, 0 },
	{ NULL, 0, NULL, NULL, 0, 0, 0 },
};
static const struct hmb_opt_decl vmm_opts[] = {
	{ "start", HMB_OPT_SIZE, "SIZE", "initial size", 0, 0, 0 },
	{ "limit", HMB_OPT_SIZE, "SIZE", "final size", 0, 1L << 40, 0 },
	{ "call-sizes", HMB_OPT_SIZES, "LIST", "chunk sizes", 0, 0, 0 },
	{ NULL, 0, NULL, NULL, 0, 0, 0 },
};
static const char *const memcpy_cases[] = { "h2d/pinned/sync", "d2h/pageable/async",
					     "d2d/device/sync", NULL };
static const struct hmb_bench memcpy_b = { .name = "memcpy", .summary = "copies",
						.options = NULL, .help = "help",
						.cases = memcpy_cases, .oversubscribe = 1 };
static const struct hmb_bench overlap_b = { .name = "overlap", .summary = "overlap",
						.options = overlap_opts, .help = "help" };
static const struct hmb_bench pool_b = { .name = "pool", .summary = "pools",
						.options = pool_opts, .help = "help" };
static const struct hmb_bench vmm_b = { .name = "vmm", .summary = "growth",
						.options = vmm_opts, .help = "help" };
static const struct hmb_bench *const benches[] = { &memcpy_b, &overlap_b, &pool_b, &vmm_b, NULL };

static FILE *devnull;

/* The runs of the command table: this target parses, it runs nothing. */
static int never_run(void)
{
	abort();
}
int hmb_run_help(struct hmb_cli *cli) { (void)cli; return never_run(); }
int hmb_run_list(struct hmb_cli *cli) { (void)cli; return never_run(); }
int hmb_run_show(struct hmb_cli *cli) { (void)cli; return never_run(); }
int hmb_run_compare(struct hmb_cli *cli) { (void)cli; return never_run(); }
int hmb_run_summary(struct hmb_cli *cli) { (void)cli; return never_run(); }
int hmb_run_merge(struct hmb_cli *cli) { (void)cli; return never_run(); }
int hmb_run_measure(struct hmb_cli *cli) { (void)cli; return never_run(); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[66], err[1024];
	struct hmb_cli cli;
	int argc = 1, rc;

	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "hipmembench";
	for (size_t i = 0; i <= size && argc < 65;) {
		argv[argc++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;
	rc = hmb_cli_parse(argc, argv, benches, &cli, err, sizeof(err));
	if (rc) {
		REQUIRE(rc == 2 && err[0] && printable_line(err));
	} else {
		const struct hmb_options *o = &cli.opt;
		REQUIRE(cli.version || cli.help || cli.kind != HMB_CMD_NONE);
		REQUIRE(o->device >= 0 && o->reps >= 0 && o->warmup >= -1);
		REQUIRE(o->sizes.n <= HMB_MAX_SIZES);
		for (size_t i = 0; i < o->sizes.n; i++)
			REQUIRE(o->sizes.v[i] > 0 && o->sizes.v[i] % 4 == 0);
		for (int i = 0; i < o->nvalues; i++)
			for (int j = 0; j < i; j++)
				REQUIRE(strcmp(o->value_name[i], o->value_name[j]) != 0);
		if (cli.kind == HMB_CMD_MODULE)
			REQUIRE(cli.bench != NULL);
		if (cli.kind != HMB_CMD_NONE)
			REQUIRE(cli.cmd != NULL && cli.cmd->kind == cli.kind && cli.cmd->run != NULL);
		if (cli.kind == HMB_CMD_COMPARE && !cli.help)
			REQUIRE(cli.nargs >= 2 && o->format != HMB_FORMAT_JSON);
		if (o->output && strcmp(o->output, "-") == 0 && !cli.help && !cli.version)
			REQUIRE(o->format == HMB_FORMAT_JSON);
		if (cli.help)
			REQUIRE(hmb_help_print(devnull, cli.help_topic, benches) == 0);
		if (cli.cmd) /* a command it knows (--version takes any word, unread) */
			REQUIRE(hmb_complete_print(devnull, 1, &argv[cli.command_index], benches) == 0);
	}
	hmb_cli_free(&cli);
	free(buf);
	return 0;
}
