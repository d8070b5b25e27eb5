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
	const char *beside;              /* GPUs whose processes of the module run at the
					  * same time, "1,2,3"; NULL or "": none */
	const char *host_shared;         /* of those, the ones that share this GPU's way
					  * to the host while moving data over it (a
					  * host-link module, --together all) */
};

/* Module b on n GPUs at the same time (cl[i]: each one's command line, its
 * device and the GPUs beside it): every process started, all waited for,
 * their documents taken in the order given. before[i]: the record before
 * the i-th's first run (written in the first round, read with --runs);
 * codes[i]: each one's exit status (1 where it could not start). Returns n. */
int hmb_run_wave(const struct hmb_bench *b, struct hmb_report *rep, struct hmb_cmdline *cl,
		 int n, struct hmb_record **before, int first_round, int *codes);

#endif
