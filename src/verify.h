/*
 * verify.h - checking moved data against the pattern (kernels/pattern.h),
 * always outside the timed region.
 */
#ifndef HMB_VERIFY_H
#define HMB_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "platform/hip.h"

/* Host side: fill with the pattern; count the words that differ from it. */
void hmb_fill_host(void *p, size_t bytes, uint32_t seed);
size_t hmb_check_host(const void *p, size_t bytes, uint32_t seed);
/* Device side (memory the device can read): count differing words into *bad.
 * Synchronous. */
hipError_t hmb_check_device(const void *p, size_t bytes, uint32_t seed, unsigned long long *bad);

#endif
