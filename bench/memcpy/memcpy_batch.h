/*
 * memcpy_batch.h - many small copies in one hipMemcpyBatchAsync against a
 * loop of hipMemcpyAsync, for the memcpy module (memcpy_batch.c).
 */
#ifndef HMB_BENCH_MEMCPY_BATCH_H
#define HMB_BENCH_MEMCPY_BATCH_H

struct hmb_ctx;

/* batch/DIR/LAYOUT/WAY (on request only), or batch/unsupported. */
void memcpy_batch(struct hmb_ctx *ctx);

#endif
