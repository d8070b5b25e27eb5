/* host.h - the host a run took place on, and the environment that matters. */
#ifndef HMB_HOST_H
#define HMB_HOST_H

#include <stddef.h>

struct hmb_host {
	char hostname[256];
	char os[256];
	char kernel[256];
	char cpu_model[256];
	int cpus_online;
	int numa_nodes;            /* -1 unknown */
	size_t memory_bytes;
	char thp[32];              /* transparent huge pages: always, madvise, never, "" */
	int numa_balancing;        /* kernel.numa_balancing: 0 off, 1 on (2, 3: tiering); -1 unknown */
	char thp_defrag[32];       /* when the kernel compacts memory for huge pages */
	char cpu_governor[96];     /* cpufreq governor of every CPU ("mixed: ..." when they
				      differ), "" where there is no cpufreq (many VMs) */
	int iommu_units;           /* IOMMUs in /sys/class/iommu (0: none on); -1 unknown */
	char iommu_options[128];   /* iommu=, intel_iommu=, amd_iommu= from the kernel's
				      command line ("" none: the kernel's default) */
};

/* Environment variables recorded with every run (NULL-terminated). */
extern const char *const hmb_env_recorded[];

void hmb_host_probe(struct hmb_host *h);
/* Host memory available for new allocations now (MemAvailable), bytes; 0 unknown. */
size_t hmb_host_available_bytes(void);
/* The environment that changes figures (huge pages, NUMA balancing, CPU
 * governor, IOMMU) under root ("" for the real /sys and /proc). */
void hmb_host_probe_environment(struct hmb_host *h, const char *root);

#endif
