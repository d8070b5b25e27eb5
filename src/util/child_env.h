/*
 * child_env.h - what `all` puts in the environment of a module it runs in a
 * process of its own (run/isolate.c sets it, cli/cli.c and telemetry read it).
 */
#ifndef HMB_CHILD_ENV_H
#define HMB_CHILD_ENV_H

/* run/isolate.c to a module of `all` in a process of its own: "PID:FILE", the
 * parent's pid and where the module's document goes (cli/cli.c). */
#define HMB_CHILD_OUTPUT_ENV "HMB_CHILD_OUTPUT"
/* run/isolate.c to such a module, where the parent prints the table itself (a
 * run of several but the last: --runs, all): "0", nothing on stdout. */
#define HMB_CHILD_TABLE_ENV "HMB_CHILD_TABLE"
/* run/isolate.c to such a module when it is one of N runs (--runs, and `all`
 * by default): "N", each adaptive case samples for 1/N of its budget, so that
 * N runs take about what one did (engine/measure.c). */
#define HMB_CHILD_RUNS_ENV "HMB_CHILD_RUNS"
/* run/isolate.c to such a module when others run at the same time on other
 * GPUs (--devices, run/schedule.h): their ordinals, "1,2,3"; its progress
 * lines then name its GPU. */
#define HMB_CHILD_BESIDE_ENV "HMB_CHILD_BESIDE"

#endif
