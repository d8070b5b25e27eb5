/*
 * device.h - what the runtime says about the GPU, everything that decides
 * memory behaviour. An integer of -1 means "could not be read here" and is
 * written as null in JSON.
 */
#ifndef HMB_DEVICE_H
#define HMB_DEVICE_H

#include <stddef.h>

#include "system/kfd.h"
#include "system/memmodel.h"

struct hmb_link {
	int gen, width;            /* current (an idle link trains down) */
	int max_gen, max_width;    /* the best the GPU and its slot allow */
	double gts;                /* current transfer rate per lane */
	double peak_gbps;          /* one direction at max_gen x max_width (else the current
				    * link), after line encoding; 0 unknown. The peak that
				    * figures use is model.peak_gbps (not PCIe everywhere). */
	char source[16];           /* "sysfs", "nvml", "" */
	/* PCIe device control, from the function's config space (bytes; 0 unknown):
	 * the largest TLP payload the link uses and may use, and the largest read
	 * request: both bound what one DMA transaction carries. */
	int max_payload, max_payload_supported, max_read_request;
	char config_note[96];      /* why they are unknown ("" when read) */
	char iommu_domain[24];     /* the IOMMU group's domain type: "identity" is
				    * pass-through, "DMA"/"DMA-FQ" translated; "" none */
};

struct hmb_device {
	int ordinal;
	int count;                 /* devices visible */
	char name[256];
	char arch[256];            /* gcnArchName on AMD (e.g. gfx90a:sramecc+:xnack-), sm_XY on NVIDIA */
	char pci_bus_id[32];
	size_t total_mem, free_mem;
	int compute_units;
	int runtime_version, driver_version;

	int managed_memory;
	int concurrent_managed_access;
	int pageable_memory_access;
	int pageable_uses_host_page_tables;
	int direct_managed_access_from_host;
	int can_map_host_memory;
	int host_register;
	int memory_pools;
	int vmm;
	size_t vmm_granularity_min, vmm_granularity_recommended;
	int async_engines;
	int concurrent_kernels;
	int integrated;
	int host_native_atomics;
	int l2_bytes;
	int memory_bus_width_bits;
	int memory_clock_khz;

	int fine_grained;          /* AMD: fine-grained memory supported; -1 n/a (NVIDIA) */
	int xnack_arch;            /* AMD: 1 "xnack+", 0 "xnack-", -1 not in the arch name */
	struct hmb_link link;
	struct hmb_kfd_gpu kfd;    /* AMD: KFD topology (host link type, SDMA engines) */
	struct hmb_memmodel model; /* what all of the above means (memmodel.h) */
};


/* Open device `ordinal`: returns 0, or -1 with one line in err (no GPU,
 * ordinal out of range, runtime failure). */
int hmb_device_open(int ordinal, struct hmb_device *dev, char *err, size_t errlen);
/* Fill the fact sheet of memmodel.h from the device, the environment and
 * this build; peak_override is --peak-gbps (0 none). */
void hmb_device_facts(const struct hmb_device *dev, double peak_override, struct hmb_facts *f);
/* (Re)compute dev->model; hmb_device_open does it without an override, the
 * CLI again once the link and --peak-gbps are known. */
void hmb_device_interpret(struct hmb_device *dev, double peak_override);
/* Re-read free memory (modules size themselves from it). */
size_t hmb_device_free_mem(void);
/* The link's PCIe device control settings (max payload, max read request)
 * and IOMMU domain from sysfs (root: NULL for /sys); where the config space
 * beyond its first 64 bytes is unreadable (Linux keeps it for root) the
 * sizes stay 0 and config_note says why. */
void hmb_link_settings_from_sysfs(const char *pci_bus_id, struct hmb_link *link,
				  const char *sysfs_root);
/* Max payload / read request in bytes from PCIe capability registers (device
 * capabilities, device control): 0 where the encoding is reserved. */
void hmb_pcie_decode_control(unsigned devcap, unsigned devctl, struct hmb_link *link);
/* PCIe link from Linux sysfs for a bus id; fills link, returns 0 when read. */
int hmb_link_from_sysfs(const char *pci_bus_id, struct hmb_link *link, const char *sysfs_root);
/* Fill link from a generation and width that a management library read. */
void hmb_link_from_generation(struct hmb_link *link, int gen, int width, int max_gen,
			      int max_width, const char *source);
/* PCIe generation of a transfer rate per lane in GT/s (2.5 -> 1 ... 64 -> 6), or -1. */
int hmb_pcie_gen_of_gts(double gts);
/* Peak bandwidth in GB/s of one direction of a PCIe link (rate per lane in GT/s). */
double hmb_pcie_peak_gbps(double gts, int width);

#endif
