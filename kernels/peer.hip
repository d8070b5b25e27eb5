/* peer.hip - reading another GPU's memory or mapped host memory in place: a
 * dependent pointer chase (latency) and a 16-byte-wide copy kernel (the SM copy). */
#include "kernels/hip_device.h"
#include "kernels/kernels.h"

/* Each load's address comes from the previous load: no two are in flight,
 * so the kernel's time is loads x the latency of one. Volatile keeps every
 * load a load (no reuse from registers or the first-level cache). */
__global__ void chase_kernel(const volatile uint32_t *chain, size_t stride_words, uint32_t *pos,
			     long long loads)
{
	uint32_t p = *pos;
	for (long long i = 0; i < loads; i++)
		p = chain[(size_t)p * stride_words];
	*pos = p;
}

__global__ void wide_copy_kernel(uint4 *dst, const uint4 *src, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		dst[i] = src[i];
}

extern "C" hipError_t hmb_launch_chase(const void *chain, size_t stride, uint32_t *pos,
				       long long loads, hipStream_t stream)
{
	chase_kernel<<<1, 1, 0, stream>>>((const volatile uint32_t *)chain, stride / 4, pos, loads);
	return hipGetLastError();
}

extern "C" hipError_t hmb_launch_wide_copy(void *dst, const void *src, size_t bytes,
					   hipStream_t stream)
{
	struct hmb_geometry g = hmb_wide_copy_geometry(bytes);
	wide_copy_kernel<<<g.blocks, g.threads, 0, stream>>>((uint4 *)dst, (const uint4 *)src,
							    bytes / 16);
	return hipGetLastError();
}
