/* isolate.h - running one module of `all` in a process of its own. */
#ifndef HMB_ISOLATE_H
#define HMB_ISOLATE_H

#include "bench.h"
#include "report.h"

/* The command line as typed, and where its command word stands in it. */
struct hmb_cmdline {
	int argc;
	char **argv;
	int command_index;
	int device;        /* run the module on this GPU (--device N); -1: as given */
	int tag_device;    /* several GPUs in one document: params.device on each record */
};

/* Run module b as `HMB_CHILD_OUTPUT=PID:TMP BINARY <options> b` and take its
 * document into rep. Returns the process's exit status (128 + signal when
 * it died by one). */
int hmb_run_isolated(const struct hmb_bench *b, struct hmb_report *rep,
		     const struct hmb_cmdline *cl);

/* `BINARY __vmm-importer`: the process that the vmm module's share cases
 * start to import their memory (bench/vmm_share.c), told its socket by the
 * environment. Run by hand, it refuses: one line, exit 2. */
#define HMB_VMM_IMPORTER_CMD "__vmm-importer"
int hmb_vmm_importer_main(int argc, char **argv);

#endif
