/* paging.hip - touching pages (fault cost) and a __managed__ static array. */
#include "hip_device.h"
#include "kernels.h"

__managed__ uint32_t managed_static[HMB_MANAGED_STATIC_WORDS];

__global__ void touch_kernel(uint8_t *base, size_t stride, const uint64_t *order, size_t touches)
{
	size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (k < touches) {
		uint64_t page = order ? order[k] : k;
		uint32_t *word = (uint32_t *)(base + page * stride);
		*word += 1;
	}
}

extern "C" hipError_t hmb_launch_touch(uint8_t *base, size_t stride, const uint64_t *order,
				       size_t touches, hipStream_t stream)
{
	unsigned blocks = (unsigned)((touches + HMB_THREADS - 1) / HMB_THREADS);
	touch_kernel<<<blocks ? blocks : 1, HMB_THREADS, 0, stream>>>(base, stride, order, touches);
	return hipGetLastError();
}

extern "C" uint32_t *hmb_managed_static(void)
{
	return managed_static;
}
