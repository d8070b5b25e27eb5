/*
 * timing.h - the host clock. GPU work is timed with HIP events in the
 * modules; host-side API latency with this monotonic clock.
 */
#ifndef HMB_TIMING_H
#define HMB_TIMING_H

#include <time.h>

static inline double hmb_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* hmb_now() when main() began (0 where it did not set it). */
extern double hmb_process_t0;

#endif
