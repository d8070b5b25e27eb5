/*
 * kfd.h - what AMD's kernel driver (KFD) publishes about a GPU in its
 * topology (/sys/class/kfd/kfd/topology/nodes/N): the type of its link to
 * the CPU (PCIe or Infinity Fabric), its SDMA copy engines, whether it is in
 * an xGMI hive, and the other GPUs that can keep XNACK from a process; and
 * (class/kfd/kfd/proc) the processes that hold memory on it.
 */
#ifndef HMB_KFD_H
#define HMB_KFD_H

#include <stddef.h>

struct hmb_kfd_gpu {
	int host_link_type;        /* CRAT io-link type to a CPU node (2 PCIe, 11 xGMI); -1 */
	int host_link_max_mbs;     /* that link's max_bandwidth in MB/s; -1 */
	int sdma_engines;          /* num_sdma_engines; -1 */
	int sdma_xgmi_engines;     /* num_sdma_xgmi_engines; -1 */
	int xgmi_hive;             /* 1 hive_id != 0, 0 hive_id 0; -1 */
	int xnack_blockers;        /* other GPU nodes that cannot select XNACK per
				      process (hmb_gfx_xnack_per_process); -1 */
	long long gpu_id;          /* KFD's gpu_id of the node (its file gpu_id); -1 */
};

/* The GPU node with PCI bus id `pci_bus_id` under sysfs_root (NULL: "/sys").
 * A GPU split into partitions (MI300X in DPX or CPX mode) has one node per
 * partition at the same PCI location; `partition` is this device's index
 * among the HIP devices that share its PCI bus id (-1 unknown), assumed to
 * follow the order of the partitions' KFD node ids (not verified on
 * hardware). Where HIP's bus id carries the partition in its function, as
 * KFD's location_id does, that decides.
 * Returns 0 when the node was found (fields it lacks stay -1), -1 otherwise
 * (no KFD, no such GPU, or partitions but no partition), every field -1. */
int hmb_kfd_read(const char *pci_bus_id, int partition, const char *sysfs_root,
		 struct hmb_kfd_gpu *out);

/* The processes with memory on KFD GPU gpu_id under sysfs_root (NULL:
 * "/sys"): those whose class/kfd/kfd/proc/PID/vram_GPUID holds more than 0
 * bytes (the runtime opens every GPU it sees; one a process does not use
 * holds none). Their pids and bytes (up to max) into pids and bytes.
 * Returns how many there are, or -1 where the folder cannot be read. */
int hmb_kfd_processes(long long gpu_id, const char *sysfs_root, long *pids, long long *bytes,
		      int max);

/* The arch name ("gfx90a") of the GPU nodes under sysfs_root (NULL: "/sys")
 * where every one has the same gfx_target_version: what `all` plans by
 * before any module has opened the GPU. 0, or -1 (no KFD, no GPU, GPUs of
 * several kinds, or a version unreadable). */
int hmb_kfd_common_arch(const char *sysfs_root, char *buf, size_t len);

#endif
