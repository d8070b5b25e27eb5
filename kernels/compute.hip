/* compute.hip - a compute load of tunable cost whose result the host can check. */
#include "kernels/hip_device.h"
#include "kernels/kernels.h"
#include "kernels/pattern.h"

__global__ void lcg_kernel(uint32_t *p, size_t words, int iters)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words;
	     i += (size_t)gridDim.x * blockDim.x) {
		uint32_t x = p[i];
		for (int k = 0; k < iters; k++)
			x = x * HMB_LCG_A + HMB_LCG_C;
		p[i] = x;
	}
}

extern "C" hipError_t hmb_launch_lcg(uint32_t *p, size_t words, int iters, hipStream_t stream)
{
	lcg_kernel<<<hmb_blocks(words), HMB_THREADS, 0, stream>>>(p, words, iters);
	return hipGetLastError();
}
