/* control.hip - kernels that shape time: a latch released by the host, a spin. */
#include "kernels/hip_device.h"
#include "kernels/kernels.h"

/* flag[0]: set by the host to release; flag[1]: set here when the guard ran
 * out first (the host did not release in time). */
__global__ void latch_kernel(volatile int *flag, long long max_polls)
{
	for (long long i = 0; i < max_polls && !flag[0]; i++)
		;
	if (!flag[0])
		flag[1] = 1;
}

__global__ void spin_kernel(long long iters, unsigned long long *sink)
{
	unsigned long long x = threadIdx.x + 1;
	for (long long i = 0; i < iters; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	if (x == 42)  /* practically never: keeps the loop from being removed */
		*sink = x;
}

extern "C" hipError_t hmb_launch_latch(volatile int *flag, long long max_polls, hipStream_t stream)
{
	latch_kernel<<<1, 1, 0, stream>>>(flag, max_polls);
	return hipGetLastError();
}

extern "C" hipError_t hmb_launch_spin(long long iters, unsigned long long *sink, hipStream_t stream)
{
	spin_kernel<<<1, 32, 0, stream>>>(iters, sink);
	return hipGetLastError();
}
