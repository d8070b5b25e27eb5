/*
 * main.c - `hipmembench [options] <command> [module options]`: reads the
 * command line (cli.c), then runs the command by its row of the command
 * table (commands.c). Exit statuses: actions.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/vmm/vmm_importer.h"
#include "cli/actions.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/complete.h"
#include "cli/registry.h"
#include "util/timing.h"
#include "util/version.h"

int main(int argc, char **argv)
{
	struct hmb_cli cli;
	char err[1024];
	int status;

	hmb_process_t0 = hmb_now();
	/* Device code is loaded when the runtime starts, not at a kernel's first
	 * launch: a lazy load inside a timed region would add its time to the
	 * figure, and loading may wait for the kernels already running (CUDA's
	 * lazy-loading notes), so a kernel first launched behind the engine's
	 * latch waited for the latch to time out (6 s). A user's setting stands. */
	setenv("CUDA_MODULE_LOADING", "EAGER", 0);
	setenv("HIP_ENABLE_DEFERRED_LOADING", "0", 0);
	/* the vmm module's importer process: not a command (it refuses by hand) */
	if (argc > 1 && strcmp(argv[1], HMB_VMM_IMPORTER_CMD) == 0)
		return hmb_vmm_importer_main(argc, argv);
	hmb_registry_init();
	/* what the shell's completion reads: not a command either */
	if (argc > 1 && strcmp(argv[1], HMB_COMPLETE_CMD) == 0)
		return hmb_finish_stdout(hmb_complete_print(stdout, argc - 2, argv + 2, hmb_benches));
	if (hmb_cli_parse(argc, argv, hmb_benches, &cli, err, sizeof(err)) != 0)
		hmb_usage_error("%s", err);
	if (cli.version) {
		printf("hipmembench %s (%s, %s)\n", HMB_VERSION, HMB_GIT_REVISION, HMB_PLATFORM_NAME);
		status = hmb_finish_stdout(0);
	} else if (cli.help) {
		status = hmb_run_help(&cli);
	} else {
		status = cli.cmd->run(&cli);
	}
	hmb_cli_free(&cli);
	return status;
}
