/*
 * latch.h - holding a stream until the host lets go.
 *
 * To time short asynchronous operations without the host's enqueue cost in
 * the figure, a module launches a latch kernel first, enqueues the events and
 * operations behind it, then releases the latch: the GPU then runs them back
 * to back and the events time only the GPU's work. Only for operations whose
 * enqueue does not wait for the stream (never for pageable-memory copies,
 * which would wait for the latch and stall until its guard expires).
 */
#ifndef HMB_LATCH_H
#define HMB_LATCH_H

#include "platform/hip.h"

/* At most this many operations are queued behind one latch. */
#define HMB_LATCH_MAX_OPS 32

struct hmb_latch {
	volatile int *host;  /* mapped pinned host memory: [0] released, [1] expired */
	int *dev;            /* the same words as the device sees them */
};

hipError_t hmb_latch_create(struct hmb_latch *l);
hipError_t hmb_latch_hold(struct hmb_latch *l, hipStream_t stream);
void hmb_latch_release(struct hmb_latch *l);
/* Did the latch's guard run out before the release (once the stream has
 * passed it)? The host then could not queue the operations in time: their
 * enqueue cost, or whatever blocked it, may be in the figures. */
int hmb_latch_expired(const struct hmb_latch *l);
void hmb_latch_destroy(struct hmb_latch *l);

#endif
