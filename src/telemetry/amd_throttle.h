/*
 * amd_throttle.h - the throttle status of rocm-smi's GPU metrics table in a
 * telemetry sample: the driver's ASIC-independent bits in words, or the
 * older ASIC-specific bits, whose meaning depends on the ASIC.
 */
#ifndef HMB_AMD_THROTTLE_H
#define HMB_AMD_THROTTLE_H

#include <stddef.h>
#include <stdint.h>

#include "telemetry/telemetry.h"

/* The sample's throttle fields from the ASIC-independent bits `indep`
 * (UINT64_MAX: not given), else the ASIC-specific `asic` (UINT32_MAX: not
 * given); left as they are where neither is given. */
void hmb_amd_throttle(struct hmb_gpu_sample *s, uint64_t indep, uint32_t asic);
/* The ASIC-independent bits in words into out; 1 when any of them means
 * power, current or heat. */
int hmb_amd_throttle_words(uint64_t indep, char *out, size_t len);

#endif
