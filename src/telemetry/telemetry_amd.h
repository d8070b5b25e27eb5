/*
 * telemetry_amd.h - the AMD telemetry route: rocm-smi's typed per-metric
 * calls as function pointers (telemetry_rocm_smi.c fills them with dlsym,
 * the unit tests with fakes), and one sample of the GPU, each metric from
 * its call and from the GPU's sysfs folder where the call is missing or
 * fails (amd_sysfs.h).
 *
 * With rocm_smi.h (librocm-smi-dev, ROCm) the calls have that header's
 * types. The calls that fill a structure (clocks, PCIe link, the metrics
 * table's throttle status) are made only when the library loaded has the
 * header's major version: rocm-smi changes those structures between major
 * versions (Debian's librocm_smi64.so.1 is 1.0.0 in bookworm, 7.6 in sid).
 * Without the header (HMB_RSMI_HEADER 0) only the calls that return
 * numbers are made.
 */
#ifndef HMB_TELEMETRY_AMD_H
#define HMB_TELEMETRY_AMD_H

#include <stddef.h>
#include <stdint.h>

#include "telemetry/telemetry.h"

#if !defined(HMB_RSMI_HEADER) && defined(__has_include)
#if __has_include(<rocm_smi/rocm_smi.h>)
#define HMB_RSMI_HEADER 1
#endif
#endif
#ifndef HMB_RSMI_HEADER
#define HMB_RSMI_HEADER 0
#endif

#if HMB_RSMI_HEADER
#include <rocm_smi/rocm_smi.h>
#include <rocm_smi/rocm_smi64Config.h>
typedef rsmi_status_t hmb_rsmi_status;
typedef rsmi_temperature_metric_t hmb_rsmi_temp_metric;
#else
typedef unsigned hmb_rsmi_status;      /* rocm_smi.h's enums: 32 bits, 0 is success */
typedef unsigned hmb_rsmi_temp_metric;
#endif

#define HMB_RSMI_TEMP_EDGE 0           /* RSMI_TEMP_TYPE_EDGE */
#define HMB_RSMI_TEMP_JUNCTION 1       /* RSMI_TEMP_TYPE_JUNCTION (hotspot) */
#define HMB_RSMI_TEMP_CURRENT 0        /* RSMI_TEMP_CURRENT */

typedef hmb_rsmi_status (*hmb_rsmi_temp_fn)(uint32_t, uint32_t, hmb_rsmi_temp_metric,
					     int64_t *);
typedef hmb_rsmi_status (*hmb_rsmi_u64_fn)(uint32_t, uint64_t *);
typedef hmb_rsmi_status (*hmb_rsmi_sensor_u64_fn)(uint32_t, uint32_t, uint64_t *);
#if HMB_RSMI_HEADER
typedef rsmi_status_t (*hmb_rsmi_version_fn)(rsmi_version_t *);
typedef rsmi_status_t (*hmb_rsmi_clk_fn)(uint32_t, rsmi_clk_type_t, rsmi_frequencies_t *);
typedef rsmi_status_t (*hmb_rsmi_pcie_fn)(uint32_t, rsmi_pcie_bandwidth_t *);
typedef rsmi_status_t (*hmb_rsmi_metrics_fn)(uint32_t, rsmi_gpu_metrics_t *);
#endif

/* The calls a sample makes; any may be NULL (the library lacks it). */
struct hmb_rsmi_calls {
	hmb_rsmi_temp_fn temp;                 /* rsmi_dev_temp_metric_get: millidegrees C */
	hmb_rsmi_u64_fn socket_power;          /* rsmi_dev_current_socket_power_get: uW */
	hmb_rsmi_sensor_u64_fn power_ave;      /* rsmi_dev_power_ave_get: uW */
#if HMB_RSMI_HEADER
	hmb_rsmi_version_fn version;           /* rsmi_version_get */
	hmb_rsmi_clk_fn clk;                   /* rsmi_dev_gpu_clk_freq_get: Hz */
	hmb_rsmi_pcie_fn pcie;                 /* rsmi_dev_pci_bandwidth_get: T/s, lanes */
	hmb_rsmi_metrics_fn metrics;           /* rsmi_dev_gpu_metrics_info_get: throttle */
#endif
};

/* Sample the GPU at pci_bus_id from now on: through the calls c (copied;
 * NULL: none, sysfs alone) for rocm-smi's device `index`, and from its
 * folder under sysfs_root (NULL: /sys). Where some readings can only come
 * from sysfs, or not at all, one line in note says which and why; else
 * note is "". */
void hmb_amd_use(const struct hmb_rsmi_calls *c, uint32_t index, const char *pci_bus_id,
		 const char *sysfs_root, char *note, size_t len);
/* One sample: clocks, temperature, power, PCIe link and throttle status;
 * what can be read neither way is left as it is. */
void hmb_amd_sample(struct hmb_gpu_sample *s);

/* The route's open with the library `lib` (a dlopen handle, kept in t->lib;
 * NULL where it could not be loaded, t->reason saying why) for the GPU at
 * pci_bus_id, its sysfs folder under sysfs_root (NULL: /sys). Where the
 * library cannot be used the GPU is read from sysfs alone. 0, or -1 with
 * t->reason where neither can be read. The backend's open passes the
 * library it found and /sys; the unit tests a stand-in and a fake tree. */
int hmb_rsmi_open_with(struct hmb_telemetry *t, void *lib, const char *pci_bus_id,
		       const char *sysfs_root);
/* librocm_smi64 loaded with dlopen, or NULL with one line in why. */
void *hmb_rsmi_load(char *why, size_t len);

#endif
