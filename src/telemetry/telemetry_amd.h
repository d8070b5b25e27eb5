/*
 * telemetry_amd.h - the entry points of rocm-smi and amdsmi that the AMD
 * telemetry backends call, as function pointers: the backends fill them with
 * dlsym, the unit tests with fakes. Every pointer to a structure is passed as
 * void *: the layout is the one that the library's version selects
 * (amd_smi_layouts.h), in a buffer larger than any known layout.
 */
#ifndef HMB_TELEMETRY_AMD_H
#define HMB_TELEMETRY_AMD_H

#include <stddef.h>
#include <stdint.h>

#include "telemetry/amd_smi_layouts.h"
#include "telemetry/telemetry.h"

struct hmb_rsmi_calls {
	int (*version)(void *);                              /* rsmi_version_get */
	int (*clk)(uint32_t, int, void *);                   /* rsmi_dev_gpu_clk_freq_get */
	int (*temp)(uint32_t, uint32_t, int, int64_t *);     /* rsmi_dev_temp_metric_get */
	int (*power)(uint32_t, uint32_t, uint64_t *);        /* rsmi_dev_power_ave_get */
	int (*socket_power)(uint32_t, uint64_t *);           /* rsmi_dev_current_socket_power_get */
	int (*pcie)(uint32_t, void *);                       /* rsmi_dev_pci_bandwidth_get */
	int (*metrics)(uint32_t, void *);                    /* rsmi_dev_gpu_metrics_info_get */
	int has_v6_calls;          /* the library has rsmi_dev_activity_metric_get */
};

/* Take the calls (copied) of a library and choose its layout from its
 * version: 0, or -1 with one line in why (no version call, or a version not
 * known). Nothing but the version call is made. */
int hmb_rsmi_use(const struct hmb_rsmi_calls *c, char *why, size_t len);
/* The layout chosen by the last hmb_rsmi_use that succeeded. */
const struct hmb_rsmi_layout *hmb_rsmi_layout(void);
/* One sample of device `index` through the calls taken. */
void hmb_rsmi_sample(uint32_t index, struct hmb_gpu_sample *s);

struct hmb_amdsmi_calls {
	int (*version)(void *);                              /* amdsmi_get_lib_version */
	int (*metrics)(void *, void *);                      /* amdsmi_get_gpu_metrics_info */
};

int hmb_amdsmi_use(const struct hmb_amdsmi_calls *c, char *why, size_t len);
const struct hmb_metrics_layout *hmb_amdsmi_layout(void);
/* One sample of processor `dev`: everything but the link's maximum. */
void hmb_amdsmi_sample(void *dev, struct hmb_gpu_sample *s);

#endif
