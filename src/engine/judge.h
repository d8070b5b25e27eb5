/* judge.h - the resolution of every record of several runs in a report (judge.c). */
#ifndef HMB_JUDGE_H
#define HMB_JUDGE_H

#include "engine/report.h"

/* Each record of several runs told how small a change between two documents
 * its figure can show (record.h: runs.res; stats/resolution.h): its own runs
 * (and documents, in a merge) weighed against the report's records alike.
 * The stable rule reads it (stability.h: hmb_stability_resolution). Run again
 * after records are added or merged: the prior is the report's. */
void hmb_report_judge_resolution(struct hmb_report *rep);

#endif
