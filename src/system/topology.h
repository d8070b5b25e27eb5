/*
 * topology.h - the GPUs of a node and how they are connected.
 *
 * Per GPU: its PCI bus id, the NUMA node and the CPUs closest to it (Linux
 * sysfs: /sys/bus/pci/devices/<id>/numa_node and local_cpulist). Per ordered
 * pair of GPUs: whether the first can access the second's memory
 * (hipDeviceCanAccessPeer), the runtime's performance rank of the link
 * (hipDeviceGetP2PAttribute), and the link type with its hop count:
 * hipExtGetLinkTypeAndHopCount on AMD, NVML's NVLink and PCIe paths on
 * NVIDIA (loaded at run time, topology_nvml.c). The sysfs root is a
 * parameter so that tests can read a fake tree.
 */
#ifndef HMB_TOPOLOGY_H
#define HMB_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HMB_TOPO_MAX_GPUS 16
#define HMB_MAX_IDS 1024

/* A set of small ids (CPUs or NUMA nodes) as Linux lists them: "0-3,8,10-11". */
struct hmb_idset {
	uint64_t w[HMB_MAX_IDS / 64];
};

/* Parse a list ("" or "\n" is the empty set). 0, or -1 for text that is not a list. */
int hmb_idset_parse(const char *text, struct hmb_idset *s);
/* The list back as text ("" when empty; truncated to len). */
const char *hmb_idset_format(const struct hmb_idset *s, char *buf, size_t len);
int hmb_idset_count(const struct hmb_idset *s);
int hmb_idset_has(const struct hmb_idset *s, int id);
void hmb_idset_add(struct hmb_idset *s, int id);
/* out = a & b, or a | b (out may be a or b). */
void hmb_idset_and(struct hmb_idset *out, const struct hmb_idset *a, const struct hmb_idset *b);
void hmb_idset_or(struct hmb_idset *out, const struct hmb_idset *a, const struct hmb_idset *b);

struct hmb_gpu_topo {
	int ordinal;
	char pci_bus_id[32];           /* as the runtime writes it */
	int numa_node;                 /* sysfs numa_node; -1 unknown (or a one-node host) */
	struct hmb_idset local_cpus;   /* sysfs local_cpulist; empty when unknown */
	/* Where the GPU meets the host: its PCIe root port ("pci0000:00/0000:00:01.0",
	 * the first bridge below the root; a switch hangs below it), or the root
	 * bus itself for a GPU that sits on it ("pci0000:00"); "" unknown. GPUs
	 * of one port share their path to the host. */
	char host_port[64];
};

struct hmb_pair_topo {
	int can_access_peer;           /* row can access column's memory: 1, 0, -1 unknown */
	int perf_rank;                 /* hipDevP2PAttrPerformanceRank; -1 unknown */
	char link[16];                 /* "NV18", "NV18-SW", "XGMI", "PCIE", "PIX", "PXB",
					* "PHB", "NODE", "SYS"; "" unknown */
	int hops;                      /* links crossed; -1 unknown */
};

struct hmb_topology {
	int ngpus;                     /* visible to the runtime */
	int n;                         /* described here: at most HMB_TOPO_MAX_GPUS */
	struct hmb_gpu_topo gpu[HMB_TOPO_MAX_GPUS];
	struct hmb_pair_topo pair[HMB_TOPO_MAX_GPUS][HMB_TOPO_MAX_GPUS];
	char link_source[16];          /* "nvml", "hip" or "" */
	char link_note[160];           /* why there are no link types, if none */
};

/* Read a small sysfs file into buf (NUL-terminated): 0, or -1 when it cannot be opened. */
int hmb_sysfs_read(const char *path, char *buf, size_t len);

/* The NUMA node, local CPUs and host port of the GPU at g->pci_bus_id from
 * sysfs under root ("/sys" when NULL). 0 when the device's directory was found, -1
 * otherwise (numa_node -1, no CPUs). */
int hmb_topo_gpu_sysfs(const char *root, struct hmb_gpu_topo *g);

/* Every visible GPU (PCI bus id, sysfs) without the pairs: what a process
 * that runs no GPU work needs to group the GPUs (run/schedule.h). 0, or -1
 * when the runtime sees no GPU. */
int hmb_topology_gpus(struct hmb_topology *t, const char *root);

/* Every visible GPU and pair through the runtime, sysfs under root and the
 * vendor's library. 0, or -1 when the runtime sees no GPU. Leaves the
 * current device as it found it. */
int hmb_topology_probe(struct hmb_topology *t, const char *root);

/* Links between the GPUs from NVML (topology_nvml.c): 0, or -1 with why. */
int hmb_topology_nvml(struct hmb_topology *t, char *why, size_t len);

/* The GPUs and the matrix of pairs (rows: from, columns: to). */
void hmb_topology_print(FILE *out, const struct hmb_topology *t);

/* Probe and print, for `info` (one line saying why when it cannot). */
void hmb_topology_info(FILE *out);

#endif
