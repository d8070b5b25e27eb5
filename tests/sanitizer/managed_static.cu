/*
 * managed_static.cu - the one leak compute-sanitizer reports in every
 * hipmembench process, reproduced with nothing else: a __managed__ array of
 * 2^20 words (4,194,304 bytes), like managed_static in kernels/managed_static.hip.
 * The CUDA runtime allocates it when it loads the program's device code, at
 * the first runtime call, and never frees it; memcheck --leak-check full
 * reports it as leaked at cudaDeviceReset, with or without a kernel that
 * uses it ("x" as argument launches one).
 *
 *   nvcc -arch=sm_90 -o managed_static tests/sanitizer/managed_static.cu
 *   compute-sanitizer --tool memcheck --leak-check full ./managed_static [x]
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

__managed__ uint32_t managed_static[1u << 20];

__global__ void increment(void)
{
	managed_static[threadIdx.x] += 1;
}

int main(int argc, char **argv)
{
	int n = 0;
	cudaError_t e = cudaGetDeviceCount(&n);

	(void)argv;
	printf("count %d %s\n", n, cudaGetErrorString(e));
	if (argc > 1) {
		increment<<<1, 32>>>();
		cudaDeviceSynchronize();
	}
	e = cudaDeviceReset();
	printf("reset %s\n", cudaGetErrorString(e));
	return 0;
}
