/*
 * checkpoint.h - keep what was measured on disk while a run goes on: the
 * --output file is rewritten (atomically) after each module and at most every
 * few seconds between cases, so a job killed by its time limit still leaves
 * every result measured up to then.
 */
#ifndef HMB_CHECKPOINT_H
#define HMB_CHECKPOINT_H

struct hmb_report;

/* Seconds between checkpoints while cases run (5; a test may change it). */
extern double hmb_checkpoint_interval_s;

/* Write the report to --output now (force) or when the last write is older
 * than the interval. */
void hmb_checkpoint(struct hmb_report *rep, int force);

#endif
