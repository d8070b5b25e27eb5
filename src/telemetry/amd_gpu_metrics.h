/*
 * amd_gpu_metrics.h - the GPU metrics table that AMD's two management
 * libraries return (amdsmi_get_gpu_metrics_info: amdsmi_gpu_metrics_t;
 * rsmi_dev_gpu_metrics_info_get: rsmi_gpu_metrics_t), decoded into a
 * telemetry sample: clocks, temperature, socket power (current where the
 * GPU has it, as MI300 does, else average), PCIe link and throttle status.
 *
 * Only a few leading fields are read, at the offsets of the layout that
 * belongs to the library version loaded (amd_smi_layouts.h): amdsmi 27 moved
 * every field from temperature_hbm on by 8 bytes. The libraries write a table
 * whose size grows with each release, so the caller passes a buffer of
 * HMB_GPU_METRICS_BUFSIZE bytes filled with 0xff first: a field the library
 * did not write, or marks "not available", reads as all ones.
 */
#ifndef HMB_AMD_GPU_METRICS_H
#define HMB_AMD_GPU_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "telemetry/amd_smi_layouts.h"
#include "telemetry/telemetry.h"

#define HMB_GPU_METRICS_BUFSIZE 65536

/* Fill the sample's clocks, temperature, power, current PCIe link and
 * throttle fields from a metrics buffer of layout l (fields not available
 * are left as they are). Returns 1 when the buffer looked like a metrics
 * table. */
int hmb_gpu_metrics_decode(const struct hmb_metrics_layout *l, const void *buf,
			   struct hmb_gpu_sample *s);
/* The ASIC-independent throttle bits (amdgpu_smu.h SMU_THROTTLER_*) in words;
 * 1 when any of them means power, current or heat. */
int hmb_amd_throttle_words(uint64_t indep, char *out, size_t len);

#endif
