/*
 * emulated.c - the kernels of kernels.h as loops on the host, for the
 * emulated runtime (src/platform/hip_emulated.h): each launcher hands its
 * loop to the stream, which runs it in order with the stream's other work.
 * They compute what the device code computes (the same pattern, the same
 * counts of bad words), so a module's checks pass or fail as on a GPU.
 * A kernel that would run past the end of its allocation is refused
 * (hipErrorIllegalAddress), as a GPU's memory fault stops it.
 * HMB_EMULATED_NO_MANAGED_STATIC=1: the __managed__ array cannot be had, as
 * where its shared object is missing (AMD).
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels.h"
#include "kernels/pattern.h"
#include "system/codecheck.h"
#include "util/timing.h"

struct launch {
	void *p;
	const void *src;
	const uint64_t *order;
	size_t first, words, stride;
	uint32_t seed, add;
	unsigned long long *bad;
	long long count;
	volatile int *flag;
	uint32_t *pos;
};

static hipError_t launch(hipStream_t stream, void (*fn)(void *), struct launch l)
{
	return hmb_emulated_enqueue(stream, fn, &l, sizeof(l));
}

/* bytes from p stay in allocated memory: p's allocation and those mapped
 * right after it (virtual memory's chunks, one range to a kernel); memory the
 * runtime did not allocate, which it cannot size, passes. */
static int out_of_bounds(const void *p, size_t bytes)
{
	size_t extent = hmb_emulated_extent(p), more = extent;

	while (extent && extent < bytes && more)
		extent += more = hmb_emulated_extent((const char *)p + extent);
	return extent && bytes > extent;
}

/* A kernel over words from p (and from src, where it reads a second buffer). */
static hipError_t launch_words(hipStream_t stream, void (*fn)(void *), struct launch l)
{
	if (out_of_bounds(l.p ? l.p : l.src, l.words * 4) || (l.p && out_of_bounds(l.src, l.words * 4)))
		return hipErrorIllegalAddress;
	return launch(stream, fn, l);
}

static void fill(void *arg)
{
	struct launch *l = arg;
	uint32_t *p = l->p;
	for (size_t i = 0; i < l->words; i++)
		p[i] = hmb_pattern(l->first + i, l->seed);
	hmb_emulated_wrote(p, l->words * 4);
}

static void check(void *arg)
{
	struct launch *l = arg;
	const uint32_t *p = l->src;
	unsigned long long bad = 0;
	for (size_t i = 0; i < l->words; i++)
		bad += p[i] != hmb_pattern(l->first + i, l->seed) + l->add;
	*l->bad += bad;
}

static void increment(void *arg)
{
	struct launch *l = arg;
	uint32_t *p = l->p;
	for (size_t i = 0; i < l->words; i++)
		p[i] += 1;
	hmb_emulated_wrote(p, l->words * 4);
}

static void copy(void *arg)
{
	struct launch *l = arg;
	memmove(l->p, l->src, l->words * 4);
	hmb_emulated_wrote(l->p, l->words * 4);
}

static void lcg(void *arg)
{
	struct launch *l = arg;
	uint32_t *p = l->p;
	for (size_t i = 0; i < l->words; i++) {
		uint32_t x = p[i];
		for (long long k = 0; k < l->count; k++)
			x = x * HMB_LCG_A + HMB_LCG_C;
		p[i] = x;
	}
	hmb_emulated_wrote(p, l->words * 4);
}

/* The guard counts polls of about a microsecond each on a GPU; here it is
 * that much time. */
static void latch(void *arg)
{
	struct launch *l = arg;
	double until = hmb_now() + 1e-6 * (double)l->count;
	while (!l->flag[0] && hmb_now() < until)
		;
	if (!l->flag[0])
		l->flag[1] = 1;
}

static void spin(void *arg)
{
	struct launch *l = arg;
	volatile unsigned long long x = 1;
	for (long long i = 0; i < l->count; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	if (x == 42)
		*l->bad = x;
}

/* The pages a touch reaches, and the slots a chase reads, stay within their
 * buffer: a wrong index read from memory wraps instead of leaving it. */
static void touch(void *arg)
{
	struct launch *l = arg;
	uint8_t *base = l->p;
	size_t extent = hmb_emulated_extent(base) / 4 * 4;
	for (size_t k = 0; k < l->words && extent; k++)
		*(uint32_t *)(base + (l->order ? l->order[k] : k) * l->stride % extent) += 1;
}

static void chase(void *arg)
{
	struct launch *l = arg;
	const volatile uint32_t *chain = l->src;
	size_t slots = hmb_emulated_extent(l->src) / l->stride;
	uint32_t p = *l->pos;
	for (long long i = 0; i < l->count && slots; i++)
		p = chain[(size_t)p % slots * (l->stride / 4)];
	*l->pos = p;
}

static void fill_pages(void *arg)
{
	struct launch *l = arg;
	uint32_t *p = l->p;
	for (size_t k = 0; k < l->words; k++) {
		uint64_t w = k * (l->stride / 4);
		for (int j = 0; j < 4; j++)
			p[w + (uint64_t)j] = hmb_pattern(w + (uint64_t)j, l->seed);
	}
}

hipError_t hmb_launch_fill_grid(void *p, size_t first, size_t words, uint32_t seed,
				enum hmb_grid grid, hipStream_t stream)
{
	(void)grid;
	return launch_words(stream, fill, (struct launch){ .p = p, .first = first, .words = words,
						     .seed = seed });
}

hipError_t hmb_launch_fill(void *p, size_t first, size_t words, uint32_t seed, hipStream_t stream)
{
	return hmb_launch_fill_grid(p, first, words, seed, HMB_GRID_CAPPED, stream);
}

hipError_t hmb_launch_fill16_grid(void *p, size_t words, uint32_t seed, enum hmb_grid grid,
				  size_t pages_first, hipStream_t stream)
{
	hipError_t e = hipSuccess;

	if (pages_first)
		e = launch(stream, fill_pages, (struct launch){ .p = p, .seed = seed,
				.words = words * 4 / pages_first, .stride = pages_first });
	return e != hipSuccess ? e : hmb_launch_fill_grid(p, 0, words, seed, grid, stream);
}

hipError_t hmb_launch_check_grid(const void *p, size_t first, size_t words, uint32_t seed,
				 uint32_t add, unsigned long long *bad, enum hmb_grid grid,
				 hipStream_t stream)
{
	(void)grid;
	return launch_words(stream, check, (struct launch){ .src = p, .first = first, .words = words,
						      .seed = seed, .add = add, .bad = bad });
}

hipError_t hmb_launch_check(const void *p, size_t first, size_t words, uint32_t seed,
			    uint32_t add, unsigned long long *bad, hipStream_t stream)
{
	return hmb_launch_check_grid(p, first, words, seed, add, bad, HMB_GRID_CAPPED, stream);
}

hipError_t hmb_launch_increment_grid(uint32_t *p, size_t words, enum hmb_grid grid,
				     hipStream_t stream)
{
	(void)grid;
	return launch_words(stream, increment, (struct launch){ .p = p, .words = words });
}

hipError_t hmb_launch_increment16_grid(uint32_t *p, size_t words, enum hmb_grid grid,
				       hipStream_t stream)
{
	return hmb_launch_increment_grid(p, words, grid, stream);
}

hipError_t hmb_launch_increment(uint32_t *p, size_t words, hipStream_t stream)
{
	return hmb_launch_increment_grid(p, words, HMB_GRID_CAPPED, stream);
}

hipError_t hmb_launch_copy(uint32_t *dst, const uint32_t *src, size_t words, hipStream_t stream)
{
	return launch_words(stream, copy, (struct launch){ .p = dst, .src = src, .words = words });
}

hipError_t hmb_launch_wide_copy(void *dst, const void *src, size_t bytes, hipStream_t stream)
{
	return launch_words(stream, copy, (struct launch){ .p = dst, .src = src, .words = bytes / 4 });
}

hipError_t hmb_launch_lcg(uint32_t *p, size_t words, int iters, hipStream_t stream)
{
	return launch_words(stream, lcg, (struct launch){ .p = p, .words = words, .count = iters });
}

hipError_t hmb_launch_latch(volatile int *flag, long long max_polls, hipStream_t stream)
{
	return launch(stream, latch, (struct launch){ .flag = flag, .count = max_polls });
}

hipError_t hmb_launch_spin(long long iters, unsigned long long *sink, hipStream_t stream)
{
	return launch(stream, spin, (struct launch){ .count = iters, .bad = sink });
}

hipError_t hmb_launch_touch(uint8_t *base, size_t stride, const uint64_t *order, size_t touches,
			    hipStream_t stream)
{
	return launch(stream, touch, (struct launch){ .p = base, .stride = stride, .order = order,
						      .words = touches });
}

hipError_t hmb_launch_chain(uint8_t *base, size_t stride, const uint64_t *order, size_t touches,
			    hipStream_t stream)
{
	if (touches == 0 || !order)
		return hipErrorInvalidValue;
	return hmb_launch_touch(base, stride, order, touches, stream);
}

hipError_t hmb_launch_chase(const void *chain, size_t stride, uint32_t *pos, long long loads,
			    hipStream_t stream)
{
	return launch(stream, chase, (struct launch){ .src = chain, .stride = stride, .pos = pos,
						      .count = loads });
}

uint32_t *hmb_managed_static_array(void)
{
	static void *array;
	if (hmb_emulated_no_managed_static())
		return NULL;
	if (!array && hipMallocManaged(&array, HMB_MANAGED_STATIC_WORDS * 4, hipMemAttachGlobal) !=
			      hipSuccess)
		array = NULL;
	return array;
}

hipError_t hmb_probe_kernel_attributes(void)
{
	hipFuncAttributes attr;
	return hipFuncGetAttributes(&attr, (const void *)hmb_probe_kernel_attributes);
}
