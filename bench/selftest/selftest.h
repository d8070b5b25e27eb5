/*
 * selftest.h - what the files of the test-only modules share. One file today
 * (selftest.c); their names outside the folder are their entries, which
 * src/cli/registry.c adds when HMB_TEST_MODULES=1.
 */
#ifndef HMB_BENCH_SELFTEST_H
#define HMB_BENCH_SELFTEST_H

#include "engine/module.h"

extern const struct hmb_bench hmb_bench_leak, hmb_bench_probe;

#endif
