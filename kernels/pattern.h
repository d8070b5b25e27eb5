/*
 * pattern.h - the data every benchmark moves: word i of a buffer filled with
 * seed s holds hmb_pattern(i, s). Host and device code compute the same
 * value, so either side can check what the other wrote without a copy.
 */
#ifndef HMB_PATTERN_H
#define HMB_PATTERN_H

#include <stdint.h>

#if defined(__HIPCC__) || defined(__CUDACC__)
#define HMB_HOST_DEVICE __host__ __device__
#else
#define HMB_HOST_DEVICE
#endif

static inline HMB_HOST_DEVICE uint32_t hmb_pattern(uint64_t i, uint32_t seed)
{
	uint32_t x = (uint32_t)i ^ (uint32_t)(i >> 32) * 0x85ebca6bu ^ seed * 0x9e3779b9u;
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

/* The step of the compute kernel (overlap): one LCG step per iteration. */
#define HMB_LCG_A 1664525u
#define HMB_LCG_C 1013904223u

#endif
