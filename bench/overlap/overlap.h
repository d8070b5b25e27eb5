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

/* The calibrated loads' largest balanced steps: 2^19. */
#define OVERLAP_MAX_STEPS_LOG2 19

/* Kernel steps per word of the balanced load: a probe of `probe` steps took
 * kernel_s where h2d + d2h took copies_s; the steps that make the kernel as
 * long as the copies, rounded to the nearest power of two (in log2; at least
 * 1, at most 2^OVERLAP_MAX_STEPS_LOG2). A calibration that moves by a few
 * percent from one process to the next keeps its load; one that moves by a
 * factor sqrt(2) or more takes the next power. */
int overlap_balanced_steps(int probe, double copies_s, double kernel_s);

#endif
