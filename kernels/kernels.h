/*
 * kernels.h - host-side launchers of hipmembench's device code. Host C calls
 * only these; each enqueues on `stream` and returns the launch error.
 */
#ifndef HMB_KERNELS_H
#define HMB_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "platform/hip.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Word i of p[0..words) = hmb_pattern(first + i, seed). */
hipError_t hmb_launch_fill(void *p, size_t first, size_t words, uint32_t seed,
			   hipStream_t stream);
/* Adds to *bad (device memory) the number of words i that differ from
 * hmb_pattern(first + i, seed) + add. */
hipError_t hmb_launch_check(const void *p, size_t first, size_t words, uint32_t seed,
			    uint32_t add, unsigned long long *bad, hipStream_t stream);
/* Holds the stream until *flag (mapped host memory) becomes non-zero, or
 * about `max_polls` polls have passed (a guard against a lost release). */
hipError_t hmb_launch_latch(volatile int *flag, long long max_polls, hipStream_t stream);
/* Keeps one block busy for `iters` dependent steps (a long-running kernel). */
hipError_t hmb_launch_spin(long long iters, unsigned long long *sink, hipStream_t stream);
/* p[i] = iters LCG steps of p[i]: a compute load of tunable cost. */
hipError_t hmb_launch_lcg(uint32_t *p, size_t words, int iters, hipStream_t stream);
/* p[i] += 1 for every word: reads and writes all of a buffer. */
hipError_t hmb_launch_increment(uint32_t *p, size_t words, hipStream_t stream);
/* paging.hip: touching pages. Touch k adds 1 to the first word of the page
 * at base + (order ? order[k] : k) * stride, for k in [0, touches).
 * hmb_launch_touch: one thread per touch, all issued at once.
 * hmb_launch_chain: one thread (1 block of 1) makes the touches one after
 * the other, each address depending on the value the previous touch loaded,
 * so each touch waits for its own fault; order (device memory) is required. */
hipError_t hmb_launch_touch(uint8_t *base, size_t stride, const uint64_t *order,
			    size_t touches, hipStream_t stream);
hipError_t hmb_launch_chain(uint8_t *base, size_t stride, const uint64_t *order,
			    size_t touches, hipStream_t stream);
/* The geometry those launchers use for `touches` (chain non-zero: the chain). */
void hmb_touch_geometry(size_t touches, int chain, unsigned *blocks, unsigned *threads,
			size_t *per_thread);
/* dst[i] = src[i] (src may be host memory mapped into the device). */
hipError_t hmb_launch_copy(uint32_t *dst, const uint32_t *src, size_t words, hipStream_t stream);

/* Launch geometry of the data kernels (fill, check, increment). The plain
 * launchers above use HMB_GRID_CAPPED; the _grid variants take it as an
 * argument, and hmb_kernel_geometry says what a launch over `items` words
 * uses, so that a record can carry it. */
enum hmb_grid {
	HMB_GRID_CAPPED,      /* at most 8192 blocks of 256 threads: beyond 2^21 items
				 threads walk the buffer grid-stride */
	HMB_GRID_PER_ELEMENT, /* one element per thread: ceil(items / 256) blocks of 256 while
				 items <= 2^31, beyond that 2^23 blocks walking grid-stride */
};
struct hmb_geometry {
	unsigned blocks, threads;
	size_t elements_per_thread; /* the most items one thread handles */
	int grid_stride;            /* threads handle more than one item, a grid apart */
};
struct hmb_geometry hmb_kernel_geometry(size_t items, enum hmb_grid grid);
hipError_t hmb_launch_fill_grid(void *p, size_t first, size_t words, uint32_t seed,
				enum hmb_grid grid, hipStream_t stream);
hipError_t hmb_launch_check_grid(const void *p, size_t first, size_t words, uint32_t seed,
				 uint32_t add, unsigned long long *bad, enum hmb_grid grid,
				 hipStream_t stream);
hipError_t hmb_launch_increment_grid(uint32_t *p, size_t words, enum hmb_grid grid,
				     hipStream_t stream);
/* The fill's words written 16 bytes per store: a thread writes 4 words at
 * once (the launch is over words / 4 items; the last words of a count not a
 * multiple of 4 are written one at a time). With
 * pages_first, a launch of one thread per `page` bytes first writes the
 * first 16 bytes of each page (the same pattern), so that every page's
 * fault is raised at once before the full fill streams through. */
/* p[i] += 1 for every word, 16 bytes per load and store (the last words of a
 * count not a multiple of 4 one at a time). */
hipError_t hmb_launch_increment16_grid(uint32_t *p, size_t words, enum hmb_grid grid,
				       hipStream_t stream);
hipError_t hmb_launch_fill16_grid(void *p, size_t words, uint32_t seed, enum hmb_grid grid,
				  size_t pages_first, hipStream_t stream);

/* Reaching another GPU's memory, or mapped pinned host memory, in place
 * (peer.hip). The chase: one thread makes `loads` dependent loads through a
 * chain of slots `stride` bytes apart, where the first word of each slot
 * holds the number of the next; it starts at slot *pos and leaves the slot it
 * reached there. The wide copy: dst = src in 16-byte words (bytes a multiple
 * of 16), a grid-stride loop; either side may be a peer's memory or mapped
 * host memory; hmb_wide_copy_geometry says the launch it makes. */
hipError_t hmb_launch_chase(const void *chain, size_t stride, uint32_t *pos, long long loads,
			    hipStream_t stream);
hipError_t hmb_launch_wide_copy(void *dst, const void *src, size_t bytes, hipStream_t stream);
struct hmb_geometry hmb_wide_copy_geometry(size_t bytes);

/* A __managed__ array of HMB_MANAGED_STATIC_WORDS words, for its own case
 * (managed_static.hip: linked in on NVIDIA, a shared object opened on demand
 * on AMD; bench/managed/managed_static.c finds it). */
#define HMB_MANAGED_STATIC_WORDS (1u << 20)
#define HMB_MANAGED_STATIC_LIB "hipmembench-managed-static.so"
uint32_t *hmb_managed_static_array(void);

#ifdef __cplusplus
}
#endif

#endif
