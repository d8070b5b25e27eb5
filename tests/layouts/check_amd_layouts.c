/*
 * check_amd_layouts.c - compares the project's table of AMD library layouts
 * (src/telemetry/amd_smi_layouts.c) with the real rocm_smi.h and amdsmi.h it is built
 * against: the layout that the header's library version selects must have
 * the header's sizes and offsets, and every entry point the backends look up
 * with dlsym must have the prototype they call it with (a mismatch there is
 * a compile error). Built and run by tests/check_amd_layouts.sh, which says
 * which headers exist (HMB_HAVE_RSMI, HMB_HAVE_AMDSMI) and what they declare
 * (HMB_RSMI_V6_CALLS, HMB_RSMI_INDEP_THROTTLE). Prints one line per check,
 * exits 1 on any mismatch.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "telemetry/amd_gpu_metrics.h"
#include "telemetry/amd_smi_layouts.h"

#if HMB_HAVE_RSMI
#include <rocm_smi/rocm_smi.h>
#include <rocm_smi/rocm_smi64Config.h>
#endif
#if HMB_HAVE_AMDSMI
#include <amd_smi/amdsmi.h>
#endif

static int failed;

static void same(const char *what, size_t header, size_t table)
{
	printf("  %-52s header %5zu  table %5zu  %s\n", what, header, table,
	       header == table ? "ok" : "MISMATCH");
	failed += header != table;
}

static void fits(const char *what, size_t header, size_t buffer)
{
	printf("  %-52s header %5zu  buffer %4zu  %s\n", what, header, buffer,
	       header <= buffer ? "ok" : "TOO SMALL");
	failed += header > buffer;
}

#define SAME(type, field, table) same(#type "." #field, offsetof(type, field), table)

/* Whether fn, as the header declares it, has the prototype `type`: checked
 * at compile time (_Generic), nothing is linked. */
#define PROTO(fn, ...) same("prototype of " #fn, _Generic((fn), __VA_ARGS__: 1, default: 0), 1)

#if HMB_HAVE_RSMI
static void check_rsmi(void)
{
	unsigned major = rocm_smi_VERSION_MAJOR, minor = rocm_smi_VERSION_MINOR,
		 patch = rocm_smi_VERSION_PATCH;
	char why[256] = "";
	const struct hmb_rsmi_layout *l =
		hmb_rsmi_layout_for(major, minor, patch, HMB_RSMI_V6_CALLS, why, sizeof(why));
	const struct hmb_metrics_layout *m;

	printf("rocm_smi.h: library version %u.%u.%u%s\n", major, minor, patch,
	       HMB_RSMI_V6_CALLS ? " (ROCm 6 calls)" : "");
	if (!l) {
		printf("  no layout for this version: %s\n  MISMATCH\n", why);
		failed++;
		return;
	}
	printf("  layout: %s\n", l->name);
	same("sizeof(rsmi_frequencies_t)", sizeof(rsmi_frequencies_t), l->freq_size);
	SAME(rsmi_frequencies_t, num_supported, l->freq_num_supported);
	SAME(rsmi_frequencies_t, current, l->freq_current);
	SAME(rsmi_frequencies_t, frequency, l->freq_frequency);
	same("RSMI_MAX_NUM_FREQUENCIES", RSMI_MAX_NUM_FREQUENCIES, l->max_freqs);
	same("sizeof(rsmi_frequencies_t.frequency[0])",
	     sizeof(((rsmi_frequencies_t *)0)->frequency[0]), 8);
	same("sizeof(rsmi_frequencies_t.num_supported)",
	     sizeof(((rsmi_frequencies_t *)0)->num_supported), 4);
	same("sizeof(rsmi_pcie_bandwidth_t)", sizeof(rsmi_pcie_bandwidth_t), l->pcie_size);
	SAME(rsmi_pcie_bandwidth_t, transfer_rate, 0);
	SAME(rsmi_pcie_bandwidth_t, lanes, l->pcie_lanes);
	same("sizeof(rsmi_pcie_bandwidth_t.lanes[0])",
	     sizeof(((rsmi_pcie_bandwidth_t *)0)->lanes[0]), 4);
	fits("sizeof(rsmi_pcie_bandwidth_t) in HMB_RSMI_BUFSIZE", sizeof(rsmi_pcie_bandwidth_t),
	     HMB_RSMI_BUFSIZE);

	m = l->metrics;
	printf("  metrics layout: %s\n", m->name);
	SAME(rsmi_gpu_metrics_t, common_header, 0);
	SAME(rsmi_gpu_metrics_t, temperature_edge, m->temperature_edge);
	SAME(rsmi_gpu_metrics_t, temperature_hotspot, m->temperature_hotspot);
	SAME(rsmi_gpu_metrics_t, average_socket_power, m->average_socket_power);
	SAME(rsmi_gpu_metrics_t, current_gfxclk, m->current_gfxclk);
	SAME(rsmi_gpu_metrics_t, current_uclk, m->current_uclk);
	SAME(rsmi_gpu_metrics_t, throttle_status, m->throttle_status);
	SAME(rsmi_gpu_metrics_t, pcie_link_width, m->pcie_link_width);
	SAME(rsmi_gpu_metrics_t, pcie_link_speed, m->pcie_link_speed);
#if HMB_RSMI_INDEP_THROTTLE
	SAME(rsmi_gpu_metrics_t, indep_throttle_status, m->indep_throttle_status);
	SAME(rsmi_gpu_metrics_t, current_socket_power, m->current_socket_power);
	same("sizeof(rsmi_gpu_metrics_t.indep_throttle_status)",
	     sizeof(((rsmi_gpu_metrics_t *)0)->indep_throttle_status), 8);
#else
	same("indep_throttle_status (not in this header)", 0, m->indep_throttle_status);
	same("current_socket_power (not in this header)", 0, m->current_socket_power);
#endif
	same("sizeof(rsmi_gpu_metrics_t.throttle_status)",
	     sizeof(((rsmi_gpu_metrics_t *)0)->throttle_status), 4);
	fits("sizeof(rsmi_gpu_metrics_t) in HMB_GPU_METRICS_BUFSIZE", sizeof(rsmi_gpu_metrics_t),
	     HMB_GPU_METRICS_BUFSIZE);

	SAME(rsmi_version_t, major, 0);
	SAME(rsmi_version_t, minor, 4);
	SAME(rsmi_version_t, patch, 8);
	fits("sizeof(rsmi_version_t) in HMB_VERSION_BUFSIZE", sizeof(rsmi_version_t),
	     HMB_VERSION_BUFSIZE);
	same("RSMI_CLK_TYPE_SYS", RSMI_CLK_TYPE_SYS, 0);
	same("RSMI_CLK_TYPE_MEM", RSMI_CLK_TYPE_MEM, 4);
	same("RSMI_TEMP_TYPE_EDGE", RSMI_TEMP_TYPE_EDGE, 0);
	same("RSMI_TEMP_CURRENT", RSMI_TEMP_CURRENT, 0);
	same("sizeof(rsmi_status_t), called as int", sizeof(rsmi_status_t), sizeof(int));
	same("sizeof(rsmi_clk_type_t), passed as int", sizeof(rsmi_clk_type_t), sizeof(int));
	same("sizeof(rsmi_temperature_metric_t), passed as int", sizeof(rsmi_temperature_metric_t),
	     sizeof(int));
	/* the entry points telemetry_rocm_smi.c looks up, as it calls them */
	PROTO(rsmi_init, rsmi_status_t (*)(uint64_t));
	PROTO(rsmi_shut_down, rsmi_status_t (*)(void));
	PROTO(rsmi_num_monitor_devices, rsmi_status_t (*)(uint32_t *));
	PROTO(rsmi_dev_pci_id_get, rsmi_status_t (*)(uint32_t, uint64_t *));
	PROTO(rsmi_version_get, rsmi_status_t (*)(rsmi_version_t *));
	PROTO(rsmi_dev_gpu_clk_freq_get,
	      rsmi_status_t (*)(uint32_t, rsmi_clk_type_t, rsmi_frequencies_t *));
	PROTO(rsmi_dev_temp_metric_get,
	      rsmi_status_t (*)(uint32_t, uint32_t, rsmi_temperature_metric_t, int64_t *));
	PROTO(rsmi_dev_power_ave_get, rsmi_status_t (*)(uint32_t, uint32_t, uint64_t *));
	PROTO(rsmi_dev_pci_bandwidth_get, rsmi_status_t (*)(uint32_t, rsmi_pcie_bandwidth_t *));
	PROTO(rsmi_dev_gpu_metrics_info_get, rsmi_status_t (*)(uint32_t, rsmi_gpu_metrics_t *));
#if HMB_RSMI_V6_CALLS
	PROTO(rsmi_dev_current_socket_power_get, rsmi_status_t (*)(uint32_t, uint64_t *));
#endif
}
#endif

#if HMB_HAVE_AMDSMI
static void check_amdsmi(void)
{
	unsigned major = AMDSMI_LIB_VERSION_MAJOR, minor = AMDSMI_LIB_VERSION_MINOR,
		 release = AMDSMI_LIB_VERSION_RELEASE;
	char why[256] = "";
	const struct hmb_metrics_layout *m =
		hmb_amdsmi_layout_for(major, minor, release, why, sizeof(why));
	amdsmi_bdf_t b;

	printf("amdsmi.h: library version %u.%u.%u\n", major, minor, release);
	if (!m) {
		printf("  no layout for this version: %s\n  MISMATCH\n", why);
		failed++;
		return;
	}
	printf("  metrics layout: %s\n", m->name);
	SAME(amdsmi_gpu_metrics_t, common_header, 0);
	SAME(amdsmi_gpu_metrics_t, temperature_edge, m->temperature_edge);
	SAME(amdsmi_gpu_metrics_t, temperature_hotspot, m->temperature_hotspot);
	SAME(amdsmi_gpu_metrics_t, average_socket_power, m->average_socket_power);
	SAME(amdsmi_gpu_metrics_t, current_gfxclk, m->current_gfxclk);
	SAME(amdsmi_gpu_metrics_t, current_uclk, m->current_uclk);
	SAME(amdsmi_gpu_metrics_t, throttle_status, m->throttle_status);
	SAME(amdsmi_gpu_metrics_t, pcie_link_width, m->pcie_link_width);
	SAME(amdsmi_gpu_metrics_t, pcie_link_speed, m->pcie_link_speed);
	SAME(amdsmi_gpu_metrics_t, indep_throttle_status, m->indep_throttle_status);
	SAME(amdsmi_gpu_metrics_t, current_socket_power, m->current_socket_power);
	same("sizeof(amdsmi_gpu_metrics_t.indep_throttle_status)",
	     sizeof(((amdsmi_gpu_metrics_t *)0)->indep_throttle_status), 8);
	fits("sizeof(amdsmi_gpu_metrics_t) in HMB_GPU_METRICS_BUFSIZE",
	     sizeof(amdsmi_gpu_metrics_t), HMB_GPU_METRICS_BUFSIZE);

	SAME(amdsmi_version_t, major, 0);
	SAME(amdsmi_version_t, minor, 4);
	SAME(amdsmi_version_t, release, 8);
	fits("sizeof(amdsmi_version_t) in HMB_VERSION_BUFSIZE", sizeof(amdsmi_version_t),
	     HMB_VERSION_BUFSIZE);
	/* amdsmi_bdf_t, passed by value as one 64-bit word: function in bits 0-2,
	 * device 3-7, bus 8-15, domain from 16 (telemetry_amdsmi.c bdf_value) */
	same("sizeof(amdsmi_bdf_t)", sizeof(amdsmi_bdf_t), 8);
	memset(&b, 0, sizeof(b));
	b.function_number = 5;
	b.device_number = 3;
	b.bus_number = 0xc1;
	b.domain_number = 1;
	same("amdsmi_bdf_t of 0001:c1:03.5", (size_t)b.as_uint,
	     (size_t)((uint64_t)1 << 16 | 0xc1u << 8 | 3u << 3 | 5u));
	same("AMDSMI_INIT_AMD_GPUS", AMDSMI_INIT_AMD_GPUS, 2);
	same("sizeof(amdsmi_status_t), called as int", sizeof(amdsmi_status_t), sizeof(int));
	same("sizeof(amdsmi_processor_handle), a pointer", sizeof(amdsmi_processor_handle),
	     sizeof(void *));
	same("sizeof(amdsmi_socket_handle), a pointer", sizeof(amdsmi_socket_handle),
	     sizeof(void *));
	/* the entry points telemetry_amdsmi.c looks up, as it calls them */
	PROTO(amdsmi_init, amdsmi_status_t (*)(uint64_t));
	PROTO(amdsmi_shut_down, amdsmi_status_t (*)(void));
	PROTO(amdsmi_get_lib_version, amdsmi_status_t (*)(amdsmi_version_t *));
	PROTO(amdsmi_get_processor_handle_from_bdf,
	      amdsmi_status_t (*)(amdsmi_bdf_t, amdsmi_processor_handle *));
	PROTO(amdsmi_get_socket_handles, amdsmi_status_t (*)(uint32_t *, amdsmi_socket_handle *));
	PROTO(amdsmi_get_processor_handles,
	      amdsmi_status_t (*)(amdsmi_socket_handle, uint32_t *, amdsmi_processor_handle *));
	PROTO(amdsmi_get_gpu_device_bdf,
	      amdsmi_status_t (*)(amdsmi_processor_handle, amdsmi_bdf_t *));
	PROTO(amdsmi_get_gpu_metrics_info,
	      amdsmi_status_t (*)(amdsmi_processor_handle, amdsmi_gpu_metrics_t *));
}
#endif

int main(void)
{
#if HMB_HAVE_RSMI
	check_rsmi();
#endif
#if HMB_HAVE_AMDSMI
	check_amdsmi();
#endif
	printf("%s\n", failed ? "layout check: FAILED" : "layout check: ok");
	return failed ? 1 : 0;
}
