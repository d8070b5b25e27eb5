/* judge.h - the resolution of every record of several runs in a report (judge.c). */
#ifndef HMB_JUDGE_H
#define HMB_JUDGE_H

#include "engine/report.h"

/* Each record of several runs told how small a change between two documents
 * its figure can show (record.h: runs.res; stats/resolution.h): its family's
 * run-to-run noise pooled over the report's records at its size, weighed
 * with its own runs, and its family's session noise. The stable rule reads
 * it (stability.h: hmb_stability_resolution). Run again after records are
 * added or merged: the pool is the report's. */
void hmb_report_judge_resolution(struct hmb_report *rep);

#endif
