/*
 * amd_smi_layouts.c - the table of known rocm-smi and amdsmi structure
 * layouts (amd_smi_layouts.h) and the choice among them by library version.
 * Each entry was read from the real header of the versions it names, and
 * tests/check_amd_layouts.sh checks it against them:
 *   rocm-smi 5.x layout: rocm_smi.h of librocm-smi-dev 5.2.3 (Debian
 *     bookworm; its library says version 1.0.0, upstream 5.x says 5.x).
 *   rocm-smi 6.x layout (has_deep_sleep, 33 frequencies): rocm_smi.h of
 *     librocm-smi-dev 6.4.1 (library version 7.6.0) and 7.2.4 (7.8.0).
 *   amdsmi 27 layout (64-bit activity counters): amdsmi.h of
 *     libamd-smi-dev 10.1 (library version 27.1.0).
 */
#include "telemetry/amd_smi_layouts.h"

#include <stdio.h>
#include <string.h>

const struct hmb_metrics_layout hmb_rsmi_metrics_v5 = {
	.name = "rsmi_gpu_metrics_t of rocm-smi 5.x",
	.temperature_edge = 4, .temperature_hotspot = 6, .average_socket_power = 22,
	.current_gfxclk = 54, .current_uclk = 58, .throttle_status = 68,
	.pcie_link_width = 74, .pcie_link_speed = 76,
	.indep_throttle_status = 0, .current_socket_power = 0,
};

const struct hmb_metrics_layout hmb_rsmi_metrics_v6 = {
	.name = "rsmi_gpu_metrics_t of rocm-smi 6.4-7.2",
	.temperature_edge = 4, .temperature_hotspot = 6, .average_socket_power = 22,
	.current_gfxclk = 54, .current_uclk = 58, .throttle_status = 68,
	.pcie_link_width = 74, .pcie_link_speed = 76,
	.indep_throttle_status = 112, .current_socket_power = 120,
};

const struct hmb_metrics_layout hmb_amdsmi_metrics_v27 = {
	.name = "amdsmi_gpu_metrics_t of amdsmi 27",
	.temperature_edge = 4, .temperature_hotspot = 6, .average_socket_power = 22,
	.current_gfxclk = 54, .current_uclk = 58, .throttle_status = 68,
	.pcie_link_width = 74, .pcie_link_speed = 76,
	.indep_throttle_status = 120, .current_socket_power = 128,
};

const struct hmb_rsmi_layout hmb_rsmi_layout_v5 = {
	.name = "rocm-smi 5.x",
	.freq_size = 264, .freq_num_supported = 0, .freq_current = 4, .freq_frequency = 8,
	.max_freqs = 32, .pcie_size = 392, .pcie_lanes = 264, .metrics = &hmb_rsmi_metrics_v5,
};

const struct hmb_rsmi_layout hmb_rsmi_layout_v6 = {
	.name = "rocm-smi 6.4-7.2",
	.freq_size = 280, .freq_num_supported = 4, .freq_current = 8, .freq_frequency = 16,
	.max_freqs = 33, .pcie_size = 416, .pcie_lanes = 280, .metrics = &hmb_rsmi_metrics_v6,
};

const struct hmb_rsmi_layout *hmb_rsmi_layout_for(unsigned major, unsigned minor, unsigned patch,
						  int has_v6_calls, char *why, size_t len)
{
	/* Debian's build of 5.x says 1.0.0; upstream 5.x says 5.x; ROCm 6.4 to
	 * 7.2 say 7.x. Version 6.x (ROCm 6.0) was not checked: refused. */
	if ((major == 1 && !has_v6_calls) || major == 5)
		return &hmb_rsmi_layout_v5;
	if (major == 7)
		return &hmb_rsmi_layout_v6;
	snprintf(why, len, "librocm_smi64 version %u.%u.%u%s is not one this build knows "
		 "(1.x of Debian's 5.x, 5.x, 7.x), telemetry off", major, minor, patch,
		 major == 1 ? " with ROCm 6 calls" : "");
	return NULL;
}

const struct hmb_metrics_layout *hmb_amdsmi_layout_for(unsigned major, unsigned minor,
							unsigned release, char *why, size_t len)
{
	if (major == 27)
		return &hmb_amdsmi_metrics_v27;
	snprintf(why, len, "libamd_smi version %u.%u.%u is not one this build knows (27.x), "
		 "amdsmi telemetry off", major, minor, release);
	return NULL;
}

static uint32_t u32_at(const void *buf, size_t off)
{
	uint32_t v;
	memcpy(&v, (const unsigned char *)buf + off, sizeof(v));
	return v;
}

static uint64_t u64_at(const void *buf, size_t off)
{
	uint64_t v;
	memcpy(&v, (const unsigned char *)buf + off, sizeof(v));
	return v;
}

int hmb_rsmi_freq_current(const struct hmb_rsmi_layout *l, const void *buf, uint64_t *value)
{
	uint32_t n = u32_at(buf, l->freq_num_supported), cur = u32_at(buf, l->freq_current);

	if (n == 0 || n > l->max_freqs || cur >= n)
		return -1;
	*value = u64_at(buf, l->freq_frequency + (size_t)cur * 8);
	return 0;
}

int hmb_rsmi_pcie(const struct hmb_rsmi_layout *l, const void *buf, uint64_t *rate,
		  uint32_t *lanes, uint64_t *max_rate, uint32_t *max_lanes)
{
	uint32_t n = u32_at(buf, l->freq_num_supported), cur = u32_at(buf, l->freq_current);

	if (n == 0 || n > l->max_freqs || cur >= n)
		return -1;
	*rate = u64_at(buf, l->freq_frequency + (size_t)cur * 8);
	*max_rate = u64_at(buf, l->freq_frequency + (size_t)(n - 1) * 8);
	*lanes = u32_at(buf, l->pcie_lanes + (size_t)cur * 4);
	*max_lanes = u32_at(buf, l->pcie_lanes + (size_t)(n - 1) * 4);
	return 0;
}
