/* geometry.h - how the data kernels split their work into blocks and threads:
 * plain C, for the launchers (device code) and the records (host code) alike. */
#ifndef HMB_KERNEL_GEOMETRY_H
#define HMB_KERNEL_GEOMETRY_H

#include <stddef.h>

#define HMB_THREADS 256
#define HMB_MAX_BLOCKS 8192

/* Blocks for a grid-stride loop over n items. */
static inline unsigned hmb_blocks(size_t n)
{
	size_t b = (n + HMB_THREADS - 1) / HMB_THREADS;
	return (unsigned)(b < 1 ? 1 : b > HMB_MAX_BLOCKS ? HMB_MAX_BLOCKS : b);
}

/* One element per thread needs n / HMB_THREADS blocks; up to 2^31 items
 * (2^23 blocks) it gets them, beyond that threads walk the rest grid-stride. */
#define HMB_PER_ELEMENT_MAX_BLOCKS (1u << 23)

static inline unsigned hmb_blocks_per_element(size_t n)
{
	size_t b = (n + HMB_THREADS - 1) / HMB_THREADS;
	return (unsigned)(b < 1 ? 1 : b > HMB_PER_ELEMENT_MAX_BLOCKS ? HMB_PER_ELEMENT_MAX_BLOCKS
								      : b);
}

#endif
