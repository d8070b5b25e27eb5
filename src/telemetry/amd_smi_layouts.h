/*
 * amd_smi_layouts.h - the layouts of the AMD management libraries' structures
 * that telemetry reads (rocm-smi's rsmi_frequencies_t, rsmi_pcie_bandwidth_t
 * and rsmi_gpu_metrics_t; amdsmi's amdsmi_gpu_metrics_t), one entry per
 * layout, chosen from the version of the library loaded at run time (never
 * from the headers the binary was built against). A version not in the table
 * is refused with one line. tests/check_amd_layouts.sh compares every entry
 * with the real header of the version it claims.
 */
#ifndef HMB_AMD_SMI_LAYOUTS_H
#define HMB_AMD_SMI_LAYOUTS_H

#include <stddef.h>
#include <stdint.h>

/* Larger than any known layout of the small structures (416 bytes at most):
 * the buffer handed to the library, so that a layout that grew still fits. */
#define HMB_RSMI_BUFSIZE 4096
/* The version structures (rsmi_version_t, amdsmi_version_t: 24 bytes; older
 * amdsmi had a year field first): the buffer handed to the version call. */
#define HMB_VERSION_BUFSIZE 64

/* Offsets of the GPU metrics table's fields that are read; 0 = not in this
 * layout. structure_size is the first field of every layout. */
struct hmb_metrics_layout {
	const char *name;
	uint16_t temperature_edge, temperature_hotspot, average_socket_power;
	uint16_t current_gfxclk, current_uclk, throttle_status;
	uint16_t pcie_link_width, pcie_link_speed;
	uint16_t indep_throttle_status, current_socket_power;
};

struct hmb_rsmi_layout {
	const char *name;
	/* rsmi_frequencies_t */
	uint16_t freq_size, freq_num_supported, freq_current, freq_frequency, max_freqs;
	/* rsmi_pcie_bandwidth_t: transfer_rate (an rsmi_frequencies_t) at 0, then lanes */
	uint16_t pcie_size, pcie_lanes;
	const struct hmb_metrics_layout *metrics;
};

extern const struct hmb_metrics_layout hmb_rsmi_metrics_v5, hmb_rsmi_metrics_v6,
	hmb_amdsmi_metrics_v27;
extern const struct hmb_rsmi_layout hmb_rsmi_layout_v5, hmb_rsmi_layout_v6;

/* The layout of the rocm-smi library whose rsmi_version_get says
 * major.minor.patch; has_v6_calls: it exports rsmi_dev_activity_metric_get
 * (ROCm 6 and later), which tells Debian's 5.x build (version 1.0.0) from a
 * newer one that also says 1.x. NULL for a version not known, with one line
 * in why. */
const struct hmb_rsmi_layout *hmb_rsmi_layout_for(unsigned major, unsigned minor, unsigned patch,
						  int has_v6_calls, char *why, size_t len);
/* The amdsmi_gpu_metrics_t layout of the amdsmi library whose
 * amdsmi_get_lib_version says major.minor.release; NULL as above. */
const struct hmb_metrics_layout *hmb_amdsmi_layout_for(unsigned major, unsigned minor,
							unsigned release, char *why, size_t len);

/* The current entry of an rsmi_frequencies_t in buf (Hz or T/s): 0, or -1
 * when the table is empty or its index out of range. */
int hmb_rsmi_freq_current(const struct hmb_rsmi_layout *l, const void *buf, uint64_t *value);
/* The current and the highest entry of an rsmi_pcie_bandwidth_t: transfer
 * rates (T/s) and lanes. 0, or -1 as above. */
int hmb_rsmi_pcie(const struct hmb_rsmi_layout *l, const void *buf, uint64_t *rate,
		  uint32_t *lanes, uint64_t *max_rate, uint32_t *max_lanes);

#endif
