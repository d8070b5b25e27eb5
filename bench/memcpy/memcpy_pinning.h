/*
 * memcpy_pinning.h - what pinning host memory costs and when it pays, for the
 * memcpy module (memcpy_pinning.c); the break-even arithmetic on its own, so
 * that it is tested without a GPU.
 */
#ifndef HMB_BENCH_MEMCPY_PINNING_H
#define HMB_BENCH_MEMCPY_PINNING_H

#include <stddef.h>

struct hmb_ctx;

struct break_even {
	int pays;             /* 1: pinned copies are faster and the figures below hold */
	double bytes;         /* pin_cost_s / (1/pageable_Bps - 1/pinned_Bps) */
	double copies;        /* bytes / size: copies of `size` that pay for the pinning */
};

/* The break-even of pinning: a pin that costs pin_cost_s seconds (the pin call
 * and its undoing call), copies of `size` bytes taking pageable_s from pageable
 * memory and pinned_s from pinned memory (medians). Returns 0, with pays 0 and
 * no figures where the pinned copy is not faster (pinning never pays at this
 * size); -1 where an input is not a positive figure. */
int memcpy_break_even(double pin_cost_s, double size, double pageable_s, double pinned_s,
		      struct break_even *out);

/* pin/cost/CALL and pin/break-even/DIR/METHOD over the sizes (on request only). */
void memcpy_pinning(struct hmb_ctx *ctx);

#endif
