/*
 * verify.c - pattern fill and check on the host, and the device check
 * wrapper. Large host buffers are filled and checked by several threads
 * (up to one per online CPU, 16 at most): a check covers every word, and
 * should not cost more than the figure it guards.
 */
#include "engine/verify.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/fault.h"
#include "platform/check.h"
#include <unistd.h>

#include "kernels/kernels.h"
#include "kernels/pattern.h"

#define MAX_THREADS 16
#define WORDS_PER_THREAD_MIN (4u << 20)
#define PAGE_WORDS (4096 / 4)

struct span {
	uint32_t *w;
	size_t first, end;
	uint32_t seed, a, c;
	int fill;               /* 1: the pattern; 2: the word c; 3: a word a page; 0: check */
	size_t bad;
};

static void *run_span(void *arg)
{
	struct span *s = arg;
	if (s->fill == 3) {
		volatile uint32_t *v = s->w;
		for (size_t i = (s->first + PAGE_WORDS - 1) / PAGE_WORDS * PAGE_WORDS; i < s->end;
		     i += PAGE_WORDS)
			v[i] = v[i];
	} else if (s->fill == 2) {
		for (size_t i = s->first; i < s->end; i++)
			s->w[i] = s->c;
	} else if (s->fill) {
		for (size_t i = s->first; i < s->end; i++)
			s->w[i] = hmb_pattern(i, s->seed);
	} else {
		size_t bad = 0;
		for (size_t i = s->first; i < s->end; i++)
			bad += s->w[i] != s->a * hmb_pattern(i, s->seed) + s->c;
		s->bad = bad;
	}
	return NULL;
}

/* Fill, or count the words that differ from a * pattern + c, over threads. */
static size_t over_threads(uint32_t *w, size_t words, uint32_t seed, uint32_t a, uint32_t c,
			   int fill)
{
	struct span s[MAX_THREADS];
	pthread_t t[MAX_THREADS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = words / WORDS_PER_THREAD_MIN, bad = 0;
	int started[MAX_THREADS] = { 0 };

	if (n > (size_t)(cpus > 0 ? cpus : 1))
		n = (size_t)(cpus > 0 ? cpus : 1);
	if (n > MAX_THREADS)
		n = MAX_THREADS;
	if (n < 1)
		n = 1;
	for (size_t k = 0; k < n; k++) {
		s[k] = (struct span){ w, words * k / n, words * (k + 1) / n, seed, a, c, fill, 0 };
		started[k] = k > 0 && pthread_create(&t[k], NULL, run_span, &s[k]) == 0;
		if (k > 0 && !started[k])
			run_span(&s[k]); /* no thread to be had: this one does it */
	}
	run_span(&s[0]);
	for (size_t k = 0; k < n; k++) {
		if (started[k])
			pthread_join(t[k], NULL);
		bad += s[k].bad;
	}
	return bad;
}

hipError_t hmb_corrupt_point(void *p, const char *what)
{
	uint32_t word;
	hipError_t err;

	if (!HMB_FAULT_HERE(HMB_FAULT_CORRUPT, what))
		return hipSuccess;
	err = hipMemcpy(&word, p, sizeof(word), hipMemcpyDefault);
	word = ~word;
	if (err == hipSuccess)
		err = hipMemcpy(p, &word, sizeof(word), hipMemcpyDefault);
	return err;
}

/* The host checks flip host words themselves: they also run without a GPU. */
static void corrupt_host(const void *p)
{
	if (HMB_FAULT_HERE(HMB_FAULT_CORRUPT, "a host check"))
		*(uint32_t *)p = ~*(const uint32_t *)p;
}

void hmb_fill_host(void *p, size_t bytes, uint32_t seed)
{
	over_threads(p, bytes / 4, seed, 1, 0, 1);
}

void hmb_poison_host(void *p, size_t bytes, uint8_t byte)
{
	uint32_t word = 0x01010101u * byte;

	over_threads(p, bytes / 4, 0, 1, word, 2);
	memset((uint8_t *)p + bytes / 4 * 4, byte, bytes % 4);
}

void hmb_host_write_pages(void *p, size_t bytes)
{
	over_threads(p, bytes / 4, 0, 1, 0, 3);
}

size_t hmb_check_host(const void *p, size_t bytes, uint32_t seed, uint32_t add)
{
	corrupt_host(p);
	return over_threads((uint32_t *)p, bytes / 4, seed, 1, add, 0);
}

size_t hmb_check_host_affine(const void *p, size_t bytes, uint32_t seed, uint32_t a, uint32_t c)
{
	corrupt_host(p);
	return over_threads((uint32_t *)p, bytes / 4, seed, a, c, 0);
}

hipError_t hmb_check_device(const void *p, size_t first, size_t bytes, uint32_t seed,
			    uint32_t add, unsigned long long *bad)
{
	unsigned long long *counter = NULL;
	hipError_t err = hmb_corrupt_point((uint32_t *)p + first, "a device check");

	if (err == hipSuccess)
		err = hipMalloc((void **)&counter, sizeof(*counter));
	if (err != hipSuccess)
		return err;
	err = hipMemset(counter, 0, sizeof(*counter));
	if (err == hipSuccess)
		err = hmb_launch_check(p, first, bytes / 4, seed, add, counter, 0);
	if (err == hipSuccess)
		err = hipMemcpy(bad, counter, sizeof(*bad), hipMemcpyDeviceToHost);
	hipFree(counter);
	return err;
}

int hmb_verify_result(unsigned long long bad, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	if (!bad)
		return 0;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	hmb_set_error("verification failed: %llu %s", bad, what);
	return -1;
}
