/*
 * xnack.h - what the files of the xnack module share. One file today
 * (xnack.c); a part moved into a file of its own declares here what the two
 * call of each other, as memcpy.h does for memcpy's parts. The module's one
 * name outside its folder is its entry, listed in src/cli/registry.c.
 */
#ifndef HMB_BENCH_XNACK_H
#define HMB_BENCH_XNACK_H

#include "engine/module.h"

extern const struct hmb_bench hmb_bench_xnack;

#endif
