/* pool.h - what the parts of the pool module share. */
#ifndef HMB_BENCH_POOL_H
#define HMB_BENCH_POOL_H

#include "engine/module.h"

/* grow/POOL: a working set growing out of a pool, a sample per step (pool_growth.c). */
void pool_growth(struct hmb_ctx *ctx);

#endif
