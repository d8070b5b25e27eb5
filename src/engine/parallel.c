/* parallel.c - fork and join of streams around work timed on one (parallel.h). */
#include "engine/parallel.h"

#include "platform/check.h"

int hmb_fork(hipStream_t origin, hipEvent_t fork, const struct hmb_lane *lanes, int n)
{
	HMB_TRY(hipEventRecord(fork, origin));
	for (int k = 0; k < n; k++) {
		if (lanes[k].device >= 0)
			HMB_TRY(hipSetDevice(lanes[k].device));
		HMB_TRY(hipStreamWaitEvent(lanes[k].stream, fork, 0));
	}
	return 0;
}

int hmb_join(hipStream_t origin, int home, const struct hmb_lane *lanes, int n)
{
	for (int k = 0; k < n; k++) {
		if (lanes[k].device >= 0)
			HMB_TRY(hipSetDevice(lanes[k].device));
		HMB_TRY(hipEventRecord(lanes[k].join, lanes[k].stream));
	}
	if (home >= 0)
		HMB_TRY(hipSetDevice(home));
	for (int k = 0; k < n; k++)
		HMB_TRY(hipStreamWaitEvent(origin, lanes[k].join, 0));
	return 0;
}
