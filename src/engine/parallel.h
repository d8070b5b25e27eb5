/*
 * parallel.h - work on several streams started together and joined, so that
 * what the origin stream times (its events, its latch) spans all of it: each
 * stream waits for a fork event recorded on the origin before its work, and
 * the origin waits for each stream's join event after it.
 */
#ifndef HMB_PARALLEL_H
#define HMB_PARALLEL_H

#include "platform/hip.h"

struct hmb_lane {
	hipStream_t stream;
	hipEvent_t join;   /* recorded on stream by hmb_join */
	int device;        /* the stream's device, made current to use it; -1: the current one */
};

/* Before the work: every lane waits for `fork`, recorded on origin now. */
int hmb_fork(hipStream_t origin, hipEvent_t fork, const struct hmb_lane *lanes, int n);
/* After it: every lane records its join event, and origin (on device home;
 * -1: the current one) waits for them. */
int hmb_join(hipStream_t origin, int home, const struct hmb_lane *lanes, int n);

#endif
