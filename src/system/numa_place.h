/*
 * numa_place.h - host memory and a measuring thread placed for a GPU.
 *
 * The decision (pure, unit-tested from fake sysfs trees): for a GPU, the
 * NUMA node its pinned host buffers live on and the CPUs the measuring
 * thread runs on. Local: the GPU's own node (sysfs numa_node; the nearest
 * node with memory where that one has none; where it is unknown, the node
 * whose CPUs overlap the GPU's local CPUs most; on a host with one node
 * holding memory, that node) and its local CPUs (else its node's), kept to
 * the CPUs this process may use. Remote: the node farthest from the GPU's by
 * the SLIT distances (the lowest-numbered on a tie), the thread staying on
 * the GPU's CPUs, so that only the memory moves away.
 *
 * The doing (libnuma): pages allocated on a node (numa_alloc_onnode), touched
 * there, then pinned and mapped for every GPU (hipHostRegister, mapped and
 * portable); where the pages really are is read back (move_pages), and the
 * calling thread is bound with sched_setaffinity.
 */
#ifndef HMB_NUMA_PLACE_H
#define HMB_NUMA_PLACE_H

#include <stddef.h>

#include "system/topology.h"

#define HMB_MAX_NODES 64

/* The NUMA nodes of the host as sysfs lists them. */
struct hmb_numa_host {
	int nnodes;                                  /* online nodes */
	int id[HMB_MAX_NODES];                       /* their numbers, ascending */
	struct hmb_idset cpus[HMB_MAX_NODES];
	int has_memory[HMB_MAX_NODES];
	int distance[HMB_MAX_NODES][HMB_MAX_NODES];  /* by index into id[]; -1 unknown */
};

/* Read /sys/devices/system/node under root ("/sys" when NULL). 0, or -1
 * where the host says nothing of NUMA (nnodes 0). */
int hmb_numa_host_read(const char *root, struct hmb_numa_host *h);
/* Nodes that hold memory. */
int hmb_numa_memory_nodes(const struct hmb_numa_host *h);

struct hmb_placement {
	int node;                  /* host buffers' node; -1: unknown, the OS decides */
	struct hmb_idset cpus;     /* the measuring thread's CPUs; empty: not bound */
	int remote;                /* 1: a node other than the GPU's */
	char how[200];             /* the decision in words, recorded with the figures */
};

/* Where a GPU's host buffers and measuring thread go; allowed: the CPUs this
 * process may run on. Local always answers (0); remote answers 0, or -1 with
 * p->how saying why there is no remote node. */
int hmb_place_local(const struct hmb_numa_host *h, const struct hmb_gpu_topo *g,
		    const struct hmb_idset *allowed, struct hmb_placement *p);
int hmb_place_remote(const struct hmb_numa_host *h, const struct hmb_gpu_topo *g,
		     const struct hmb_idset *allowed, struct hmb_placement *p);

/* Where this process and its host memory really are (not where they were
 * asked to be): recorded in every document as "placement". */
struct hmb_nodes {
	int n, id[HMB_MAX_NODES];
};

struct hmb_where {
	int gpu_node;                  /* the GPU's NUMA node (sysfs); -1 unknown */
	char gpu_cpus[512];            /* the GPU's local CPUs as a list (sysfs); "" unknown */
	char cpus[512];                /* CPUs this process may run on (sched_getaffinity) */
	struct hmb_nodes cpu_nodes;    /* the NUMA nodes of those CPUs */
	struct hmb_nodes mems;         /* nodes its memory may come from (Mems_allowed_list) */
	const char *policy;            /* get_mempolicy: default, preferred, bind, interleave,
					* local; NULL unknown */
	struct hmb_nodes policy_nodes; /* the policy's nodes */
	int page_node;                 /* the node of a page just allocated and touched
					* (move_pages); -1 unknown */
};

/* Read it, for the GPU at pci_bus_id ("" or NULL: no GPU known). */
void hmb_where_read(const char *pci_bus_id, struct hmb_where *w);

/* Pinned host memory placed on a node and mapped for the GPUs. */
struct hmb_host_buf {
	void *host;                /* the pages */
	void *dev;                 /* the address the GPU current at allocation uses */
	size_t bytes;              /* whole pages */
	int node;                  /* asked for; -1 none */
	int from_libnuma;
};

/* Allocate, touch, pin and map bytes on node (-1: wherever the OS puts
 * them). 0, or -1 with the pending error set and nothing left allocated. */
int hmb_host_buf_alloc(struct hmb_host_buf *b, size_t bytes, int node);
void hmb_host_buf_free(struct hmb_host_buf *b);
/* Where the buffer's pages are, from up to 64 pages spread over it: the
 * node holding most of them (-1 unknown) and how many of those sampled. */
int hmb_host_buf_node(const struct hmb_host_buf *b, int *on_node, int *sampled);

/* The calling thread's CPUs; bind it to cpus. 0, or -1 (errno kept). */
int hmb_thread_cpus(struct hmb_idset *out);
int hmb_thread_bind(const struct hmb_idset *cpus);

#endif
