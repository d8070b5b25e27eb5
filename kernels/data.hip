/* data.hip - fill, check, copy and increment: the kernels that move and verify data,
 * and the launch geometry they use (kernels.h: enum hmb_grid). */
#include "kernels/hip_device.h"
#include "kernels/kernels.h"
#include "kernels/pattern.h"

__global__ void fill_kernel(uint32_t *p, size_t first, size_t words, uint32_t seed)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words;
	     i += (size_t)gridDim.x * blockDim.x)
		p[i] = hmb_pattern(first + i, seed);
}

__global__ void check_kernel(const uint32_t *p, size_t first, size_t words, uint32_t seed,
			     uint32_t add, unsigned long long *bad)
{
	unsigned long long mine = 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words;
	     i += (size_t)gridDim.x * blockDim.x)
		mine += p[i] != hmb_pattern(first + i, seed) + add;
	if (mine)
		atomicAdd(bad, mine);
}

__global__ void copy_kernel(uint32_t *dst, const uint32_t *src, size_t words)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words;
	     i += (size_t)gridDim.x * blockDim.x)
		dst[i] = src[i];
}

/* 16-byte stores: item i is words 4i..4i+3. */
__global__ void fill16_kernel(uint4 *p, size_t items, uint32_t seed)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < items;
	     i += (size_t)gridDim.x * blockDim.x) {
		uint64_t w = 4 * (uint64_t)i;
		p[i] = make_uint4(hmb_pattern(w, seed), hmb_pattern(w + 1, seed),
				  hmb_pattern(w + 2, seed), hmb_pattern(w + 3, seed));
	}
}

/* The first 16 bytes of each page of `page` bytes (a multiple of 16). */
__global__ void fill16_pages_kernel(uint4 *p, size_t pages, size_t page, uint32_t seed)
{
	for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < pages;
	     k += (size_t)gridDim.x * blockDim.x) {
		uint64_t w = k * (page / 4);
		p[k * (page / 16)] = make_uint4(hmb_pattern(w, seed), hmb_pattern(w + 1, seed),
						hmb_pattern(w + 2, seed), hmb_pattern(w + 3, seed));
	}
}

__global__ void increment16_kernel(uint4 *p, size_t items)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < items;
	     i += (size_t)gridDim.x * blockDim.x) {
		uint4 v = p[i];
		p[i] = make_uint4(v.x + 1, v.y + 1, v.z + 1, v.w + 1);
	}
}

__global__ void increment_kernel(uint32_t *p, size_t words)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words;
	     i += (size_t)gridDim.x * blockDim.x)
		p[i] += 1;
}

extern "C" hipError_t hmb_launch_fill_grid(void *p, size_t first, size_t words, uint32_t seed,
					   enum hmb_grid grid, hipStream_t stream)
{
	struct hmb_geometry g = hmb_kernel_geometry(words, grid);
	fill_kernel<<<g.blocks, g.threads, 0, stream>>>((uint32_t *)p, first, words, seed);
	return hipGetLastError();
}

extern "C" hipError_t hmb_launch_increment16_grid(uint32_t *p, size_t words, enum hmb_grid grid,
						  hipStream_t stream)
{
	struct hmb_geometry g = hmb_kernel_geometry(words / 4, grid);
	if (words >= 4)
		increment16_kernel<<<g.blocks, g.threads, 0, stream>>>((uint4 *)p, words / 4);
	if (words % 4) /* the last words, one at a time */
		increment_kernel<<<1, 4, 0, stream>>>(p + words / 4 * 4, words % 4);
	return hipGetLastError();
}

extern "C" hipError_t hmb_launch_fill16_grid(void *p, size_t words, uint32_t seed,
					     enum hmb_grid grid, size_t pages_first,
					     hipStream_t stream)
{
	struct hmb_geometry g = hmb_kernel_geometry(words / 4, grid);

	if (pages_first) {
		size_t pages = words * 4 / pages_first;
		struct hmb_geometry pg = hmb_kernel_geometry(pages, HMB_GRID_PER_ELEMENT);
		fill16_pages_kernel<<<pg.blocks, pg.threads, 0, stream>>>((uint4 *)p, pages,
									  pages_first, seed);
	}
	if (words >= 4)
		fill16_kernel<<<g.blocks, g.threads, 0, stream>>>((uint4 *)p, words / 4, seed);
	if (words % 4) /* the last words, one at a time */
		fill_kernel<<<1, 4, 0, stream>>>((uint32_t *)p + words / 4 * 4, words / 4 * 4,
						 words % 4, seed);
	return hipGetLastError();
}

extern "C" hipError_t hmb_launch_check_grid(const void *p, size_t first, size_t words,
					    uint32_t seed, uint32_t add, unsigned long long *bad,
					    enum hmb_grid grid, hipStream_t stream)
{
	struct hmb_geometry g = hmb_kernel_geometry(words, grid);
	check_kernel<<<g.blocks, g.threads, 0, stream>>>((const uint32_t *)p, first, words, seed,
							 add, bad);
	return hipGetLastError();
}

extern "C" hipError_t hmb_launch_increment_grid(uint32_t *p, size_t words, enum hmb_grid grid,
						hipStream_t stream)
{
	struct hmb_geometry g = hmb_kernel_geometry(words, grid);
	increment_kernel<<<g.blocks, g.threads, 0, stream>>>(p, words);
	return hipGetLastError();
}

extern "C" hipError_t hmb_launch_fill(void *p, size_t first, size_t words, uint32_t seed,
				      hipStream_t stream)
{
	return hmb_launch_fill_grid(p, first, words, seed, HMB_GRID_CAPPED, stream);
}

extern "C" hipError_t hmb_launch_check(const void *p, size_t first, size_t words, uint32_t seed,
				       uint32_t add, unsigned long long *bad, hipStream_t stream)
{
	return hmb_launch_check_grid(p, first, words, seed, add, bad, HMB_GRID_CAPPED, stream);
}

extern "C" hipError_t hmb_launch_copy(uint32_t *dst, const uint32_t *src, size_t words,
				      hipStream_t stream)
{
	copy_kernel<<<hmb_blocks(words), HMB_THREADS, 0, stream>>>(dst, src, words);
	return hipGetLastError();
}

extern "C" hipError_t hmb_launch_increment(uint32_t *p, size_t words, hipStream_t stream)
{
	return hmb_launch_increment_grid(p, words, HMB_GRID_CAPPED, stream);
}
