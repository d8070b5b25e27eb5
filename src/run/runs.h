/* runs.h - --runs N: one record per result over N runs of a module (runs.c). */
#ifndef HMB_RUNS_H
#define HMB_RUNS_H

#include "engine/report.h"

/* The records after `last` are run `number` (1, 2, ...) of the module run
 * whose records so far follow `before` (NULL: the report's first) up to
 * `last`: the first run's records begin their run figures; a later run's
 * are merged into their partners and freed (those without one are kept). */
void hmb_runs_merge(struct hmb_report *rep, struct hmb_record *before, struct hmb_record *last,
		    int number);

/* Each record of several runs told about its siblings (record.h): the records
 * of its module whose case name is one part apart (the kind of memory or
 * allocator, mostly: h2d/pinned/sync and h2d/write-combined/sync,
 * sync-each/hipMalloc and sync-each/created-pool; never the first part, nor
 * the last of three or more) and whose clock, size, device and XNACK mode
 * are its own; and how far their runs' medians spread (the root mean square
 * of (max - min) / median). The stable rule reads it (stability.h:
 * hmb_stability_siblings). */
void hmb_runs_judge_siblings(struct hmb_report *rep);

#endif
