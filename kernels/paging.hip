/* paging.hip - touching pages (fault cost) and a __managed__ static array. */
#include "hip_device.h"
#include "kernels.h"

/* HIP 5.x registers __managed__ variables when the program starts and
 * crashes there on a machine without a GPU; from ROCm 6 (and on CUDA) the
 * variable is registered safely, so only those builds carry it. */
#if defined(HMB_PLATFORM_NVIDIA) || HIP_VERSION_MAJOR >= 6
#define HMB_HAVE_MANAGED_STATIC 1
__managed__ uint32_t managed_static[HMB_MANAGED_STATIC_WORDS];
#endif

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
#ifdef HMB_HAVE_MANAGED_STATIC
	return managed_static;
#else
	return NULL;
#endif
}
