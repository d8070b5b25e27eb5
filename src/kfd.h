/*
 * kfd.h - what AMD's kernel driver (KFD) publishes about a GPU in its
 * topology (/sys/class/kfd/kfd/topology/nodes/N): the type of its link to
 * the CPU (PCIe or Infinity Fabric) and its SDMA copy engines.
 */
#ifndef HMB_KFD_H
#define HMB_KFD_H

struct hmb_kfd_gpu {
	int host_link_type;        /* CRAT io-link type to a CPU node (2 PCIe, 11 xGMI); -1 */
	int host_link_max_mbs;     /* that link's max_bandwidth in MB/s; -1 */
	int sdma_engines;          /* num_sdma_engines; -1 */
	int sdma_xgmi_engines;     /* num_sdma_xgmi_engines; -1 */
};

/* The GPU node with PCI bus id `pci_bus_id` under sysfs_root (NULL: "/sys").
 * Returns 0 when the node was found (fields it lacks stay -1), -1 otherwise
 * (no KFD, or no such GPU), with every field -1. */
int hmb_kfd_read(const char *pci_bus_id, const char *sysfs_root, struct hmb_kfd_gpu *out);

#endif
