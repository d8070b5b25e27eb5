/* merge.h - one document of the runs of several (merge.c). */
#ifndef HMB_MERGE_H
#define HMB_MERGE_H

#include "engine/options.h"

/* Merge the n documents files[] into output ("-": stdout). 0, or the exit
 * status with its reason said on stderr: 2 for documents that cannot be read
 * or are not replicates of one measurement, 1 where the output cannot be
 * written (nothing is left half-written). */
int hmb_merge_command(int n, char **files, const struct hmb_options *opt, const char *output);

#endif
