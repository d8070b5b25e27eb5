/* paging.hip - touching pages: fault latency (one chain) and throughput (one thread per page). */
#include "kernels/hip_device.h"
#include "kernels/kernels.h"

/* One thread per touch: every touch is issued at once. */
__global__ void touch_kernel(uint8_t *base, size_t stride, const uint64_t *order, size_t touches)
{
	size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (k < touches) {
		uint64_t page = order ? order[k] : k;
		uint32_t *word = (uint32_t *)(base + page * stride);
		*word += 1;
	}
}

/* One thread walks the pages: the address of touch k+1 is computed from the
 * value that touch k loaded ((v & zero), zero being 0 at run time but
 * unknown to the compiler), so no touch can be issued before the one before
 * it has completed, its page fault included: one fault at a time. The
 * store of v + 1 does not hold up the next load; the load does. */
__global__ void chain_kernel(uint8_t *base, size_t stride, const uint64_t *order, size_t touches,
			     uint32_t zero)
{
	volatile uint32_t *word = (volatile uint32_t *)(base + order[0] * stride);
	for (size_t k = 0;; k++) {
		uint32_t v = *word;
		*word = v + 1;
		if (k + 1 == touches)
			break;
		word = (volatile uint32_t *)(base + order[k + 1] * stride + (v & zero));
	}
}

extern "C" hipError_t hmb_launch_touch(uint8_t *base, size_t stride, const uint64_t *order,
				       size_t touches, hipStream_t stream)
{
	unsigned blocks, threads;
	size_t per_thread;
	hmb_touch_geometry(touches, 0, &blocks, &threads, &per_thread);
	touch_kernel<<<blocks, threads, 0, stream>>>(base, stride, order, touches);
	return hipGetLastError();
}

extern "C" hipError_t hmb_launch_chain(uint8_t *base, size_t stride, const uint64_t *order,
				       size_t touches, hipStream_t stream)
{
	if (touches == 0 || !order)
		return hipErrorInvalidValue;
	chain_kernel<<<1, 1, 0, stream>>>(base, stride, order, touches, 0);
	return hipGetLastError();
}
