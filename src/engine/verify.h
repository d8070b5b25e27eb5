/*
 * verify.h - checking moved data against the pattern (kernels/pattern.h),
 * always outside the timed region.
 */
#ifndef HMB_VERIFY_H
#define HMB_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "platform/hip.h"

/* Host side: fill with the pattern; count the words that differ from
 * pattern + add (add: what a kernel added to every word, usually 0). */
void hmb_fill_host(void *p, size_t bytes, uint32_t seed);
/* Every byte of p set to byte (a destination poisoned before the copies
 * that must overwrite it), over threads as the fill. */
void hmb_poison_host(void *p, size_t bytes, uint8_t byte);
/* The host writes every 4 KiB page of p once (a word, as it was), over
 * threads: pages made the host's (managed memory) faster than one thread. */
void hmb_host_write_pages(void *p, size_t bytes);
size_t hmb_check_host(const void *p, size_t bytes, uint32_t seed, uint32_t add);
/* The same for words that a kernel mapped x -> a * x + c (overlap's LCG steps). */
size_t hmb_check_host_affine(const void *p, size_t bytes, uint32_t seed, uint32_t a, uint32_t c);
/* HMB_FAULT=corrupt:N (fault.h): at the N-th check, flip the word at p (host
 * or device memory; hipMemcpyDefault), so that the check must fail. Every
 * check below calls it first; a check of its own (node) must too. Returns a
 * HIP error where the flip could not be made. */
hipError_t hmb_corrupt_point(void *p, const char *what);
/* Device side (memory the device can read), words from index `first` on:
 * count the words that differ from pattern + add into *bad. Synchronous. */
hipError_t hmb_check_device(const void *p, size_t first, size_t bytes, uint32_t seed,
			    uint32_t add, unsigned long long *bad);

/* A check's verdict: 0 where no word was wrong; else -1 with the pending
 * error "verification failed: <bad> <what fmt says>", e.g.
 * hmb_verify_result(bad, "words differ after the timed copies"). */
int hmb_verify_result(unsigned long long bad, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
