/*
 * gpus_here.h - what a run asks of the GPUs (--device N, --devices LIST,
 * --sizes) against the GPUs the runtime sees, before anything runs or is
 * written, and without opening one: a GPU past the last, or a size larger
 * than a GPU's memory, is refused, naming the GPUs there are or the memory.
 * Where the runtime sees none, nothing is refused here: the run says there is
 * no GPU (exit 3).
 */
#ifndef HMB_GPUS_HERE_H
#define HMB_GPUS_HERE_H

#include <stddef.h>

struct hmb_options;

/* 0, or -1 with one line in err naming what was asked for. */
int hmb_gpus_here_check(const struct hmb_options *o, char *err, size_t errlen);

#endif
