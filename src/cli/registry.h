/* registry.h - the table of modules, in the order `all` runs them. */
#ifndef HMB_REGISTRY_H
#define HMB_REGISTRY_H

#include "engine/module.h"

/* Room for the modules, the test-only ones and the NULL that ends them. */
#define HMB_MAX_BENCHES 10
extern const struct hmb_bench *hmb_benches[HMB_MAX_BENCHES]; /* NULL-terminated */

/* Adds the test-only modules (bench/selftest/selftest.c) when HMB_TEST_MODULES=1. */
void hmb_registry_init(void);

const struct hmb_bench *hmb_bench_find(const char *name);

#endif
