/* isolate.h - running one module of `all` in a process of its own. */
#ifndef HMB_ISOLATE_H
#define HMB_ISOLATE_H

#include "engine/module.h"
#include "engine/report.h"
#include "system/modeplan.h"

/* The command line as typed, and where its command word stands in it. */
struct hmb_cmdline {
	int argc;
	char **argv;
	int command_index;
	int device;        /* run the module on this GPU (--device N); -1: as given */
	int tag_device;    /* several GPUs in one document: params.device on each record */
	const struct hmb_mode_run *mode; /* this run's environment (modeplan.h); NULL none */
	const char *plan_note;           /* the plan's note for module_runs; NULL none */
	int run;                         /* --runs: which run of this module (1, 2, ...); 0: one */
	int runs;                        /* of how many runs */
	struct hmb_record *run_before;   /* --runs: the record before the first run's */
	int parent_table;                /* the parent prints the table, not the module */
};

/* Run module b as `HMB_CHILD_OUTPUT=PID:TMP BINARY <options> b` and take its
 * document into rep; with cl->run, merged with the earlier runs' records
 * (runs.h). With cl->mode, the child's environment has its
 * variable set (where the plan sets it) and every record it made carries
 * the value as a param, so compare matches like with like. Returns the
 * process's exit status (128 + signal when it died by one). */
int hmb_run_isolated(const struct hmb_bench *b, struct hmb_report *rep,
		     const struct hmb_cmdline *cl);

#endif
