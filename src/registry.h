/* registry.h - the table of modules, in the order `all` runs them. */
#ifndef HMB_REGISTRY_H
#define HMB_REGISTRY_H

#include "bench.h"

extern const struct hmb_bench *const hmb_benches[]; /* NULL-terminated */

const struct hmb_bench *hmb_bench_find(const char *name);

#endif
