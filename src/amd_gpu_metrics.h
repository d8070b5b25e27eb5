/*
 * amd_gpu_metrics.h - the GPU metrics table that AMD's two management
 * libraries return (amdsmi_get_gpu_metrics_info: amdsmi_gpu_metrics_t;
 * rsmi_dev_gpu_metrics_info_get: rsmi_gpu_metrics_t), decoded into a
 * telemetry sample: clocks, temperature, socket power (current where the
 * GPU has it, as MI300 does, else average), PCIe link and throttle status.
 *
 * Only the leading fields are read; their layout is the same in every ROCm
 * release (checked against rocm_smi.h where it is installed). The libraries
 * write a table whose size grows with each release, so the caller passes a
 * buffer of HMB_GPU_METRICS_BUFSIZE bytes filled with 0xff first: a field the
 * library did not write, or marks "not available", reads as all ones.
 */
#ifndef HMB_AMD_GPU_METRICS_H
#define HMB_AMD_GPU_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "telemetry.h"

#define HMB_GPU_METRICS_BUFSIZE 65536

/* The leading fields of amdsmi_gpu_metrics_t and rsmi_gpu_metrics_t
 * (amdsmi.h and rocm_smi.h of ROCm 6.x; the part up to temperature_hbm is
 * already in ROCm 5.x; the kernel's gpu_metrics_v1_3 has the same offsets). */
struct hmb_gpu_metrics {
	uint16_t structure_size;
	uint8_t format_revision, content_revision;
	uint16_t temperature_edge, temperature_hotspot, temperature_mem, temperature_vrgfx,
		temperature_vrsoc, temperature_vrmem;
	uint16_t average_gfx_activity, average_umc_activity, average_mm_activity;
	uint16_t average_socket_power;                  /* W */
	uint64_t energy_accumulator, system_clock_counter;
	uint16_t average_gfxclk_frequency, average_socclk_frequency, average_uclk_frequency,
		average_vclk0_frequency, average_dclk0_frequency, average_vclk1_frequency,
		average_dclk1_frequency;
	uint16_t current_gfxclk, current_socclk, current_uclk, current_vclk0, current_dclk0,
		current_vclk1, current_dclk1;                /* MHz */
	uint32_t throttle_status;                       /* ASIC-specific bits */
	uint16_t current_fan_speed;
	uint16_t pcie_link_width, pcie_link_speed;      /* lanes; 0.1 GT/s */
	uint16_t padding;
	uint32_t gfx_activity_acc, mem_activity_acc;
	uint16_t temperature_hbm[4];
	/* from ROCm 6.0 on */
	uint64_t firmware_timestamp;
	uint16_t voltage_soc, voltage_gfx, voltage_mem;
	uint16_t padding1;
	uint64_t indep_throttle_status;                 /* ASIC-independent bits */
	uint16_t current_socket_power;                  /* W, MI300 and later */
};

/* Fill the sample's clocks, temperature, power, current PCIe link and
 * throttle fields from a metrics buffer (fields not available are left as
 * they are). Returns 1 when the buffer looked like a metrics table. */
int hmb_gpu_metrics_decode(const void *buf, struct hmb_gpu_sample *s);
/* The ASIC-independent throttle bits (amdgpu_smu.h SMU_THROTTLER_*) in words;
 * 1 when any of them means power, current or heat. */
int hmb_amd_throttle_words(uint64_t indep, char *out, size_t len);

#endif
