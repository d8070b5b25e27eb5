/* runner.h - running modules: capability checks, failures, tables, checkpoints. */
#ifndef HMB_RUNNER_H
#define HMB_RUNNER_H

#include "engine/module.h"
#include "engine/report.h"

/* Run one module into the report; prints its table when format is table. */
void hmb_run_module(const struct hmb_bench *b, struct hmb_report *rep);

#endif
