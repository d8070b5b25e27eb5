/*
 * overlap.h - what the files of the overlap module share. One file today
 * (overlap.c); a part moved into a file of its own declares here what the two
 * call of each other, as memcpy.h does for memcpy's parts. The module's one
 * name outside its folder is its entry, listed in src/cli/registry.c.
 */
#ifndef HMB_BENCH_OVERLAP_H
#define HMB_BENCH_OVERLAP_H

#include "engine/module.h"

extern const struct hmb_bench hmb_bench_overlap;

#endif
