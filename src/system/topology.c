/* topology.c - the GPUs of the node from the runtime and sysfs, their pairs, and the matrix. */
#include "system/topology.h"

#include <stdlib.h>
#include <string.h>

#include "platform/hip.h"


int hmb_sysfs_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

int hmb_topo_gpu_sysfs(const char *root, struct hmb_gpu_topo *g)
{
	unsigned domain, bus, slot, fn;
	char dir[256], path[320], buf[4096];
	int found = -1;

	g->numa_node = -1;
	memset(&g->local_cpus, 0, sizeof(g->local_cpus));
	if (sscanf(g->pci_bus_id, "%x:%x:%x.%x", &domain, &bus, &slot, &fn) != 4)
		return -1;
	/* CUDA writes an eight-digit upper-case domain; sysfs four, lower case */
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%04x:%02x:%02x.%x", root ? root : "/sys",
		 domain, bus, slot, fn);
	snprintf(path, sizeof(path), "%s/numa_node", dir);
	if (hmb_sysfs_read(path, buf, sizeof(buf)) == 0) {
		found = 0;
		if (sscanf(buf, "%d", &g->numa_node) != 1 || g->numa_node < 0)
			g->numa_node = -1;
	}
	snprintf(path, sizeof(path), "%s/local_cpulist", dir);
	if (hmb_sysfs_read(path, buf, sizeof(buf)) == 0) {
		found = 0;
		if (hmb_idset_parse(buf, &g->local_cpus) != 0)
			memset(&g->local_cpus, 0, sizeof(g->local_cpus));
	}
	return found;
}

/* ---- the runtime --------------------------------------------------------------- */

#if !defined(HMB_PLATFORM_NVIDIA)
/* HSA_AMD_LINK_INFO_TYPE_* as hipExtGetLinkTypeAndHopCount reports them. */
static void amd_links(struct hmb_topology *t)
{
	static const char *const names[] = { "HT", "QPI", "PCIE", "IB", "XGMI" };
	int any = 0;

	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < t->n; j++) {
			uint32_t type = 0, hops = 0;
			if (i == j)
				continue;
			if (hipExtGetLinkTypeAndHopCount(i, j, &type, &hops) != hipSuccess) {
				(void)hipGetLastError();
				continue;
			}
			snprintf(t->pair[i][j].link, sizeof(t->pair[i][j].link), "%s",
				 type < 5 ? names[type] : "OTHER");
			t->pair[i][j].hops = (int)hops;
			any = 1;
		}
	if (any)
		snprintf(t->link_source, sizeof(t->link_source), "hip");
	else
		snprintf(t->link_note, sizeof(t->link_note),
			 "hipExtGetLinkTypeAndHopCount answered for no pair");
}
#endif

int hmb_topology_probe(struct hmb_topology *t, const char *root)
{
	int n = 0;

	memset(t, 0, sizeof(*t));
	if (hipGetDeviceCount(&n) != hipSuccess || n < 1) {
		(void)hipGetLastError();
		return -1;
	}
	t->ngpus = n;
	t->n = n < HMB_TOPO_MAX_GPUS ? n : HMB_TOPO_MAX_GPUS;
	for (int i = 0; i < t->n; i++) {
		struct hmb_gpu_topo *g = &t->gpu[i];
		g->ordinal = i;
		if (hipDeviceGetPCIBusId(g->pci_bus_id, sizeof(g->pci_bus_id), i) != hipSuccess) {
			(void)hipGetLastError();
			g->pci_bus_id[0] = '\0';
		}
		hmb_topo_gpu_sysfs(root, g);
	}
	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < t->n; j++) {
			struct hmb_pair_topo *p = &t->pair[i][j];
			int v = -1;
			p->can_access_peer = p->perf_rank = p->hops = -1;
			if (i == j)
				continue;
			if (hipDeviceCanAccessPeer(&v, i, j) == hipSuccess)
				p->can_access_peer = v != 0;
			if (hipDeviceGetP2PAttribute(&v, hipDevP2PAttrPerformanceRank, i, j) ==
			    hipSuccess)
				p->perf_rank = v;
			(void)hipGetLastError();
		}
	if (t->n < 2)
		return 0;
#if defined(HMB_PLATFORM_NVIDIA)
	if (hmb_topology_nvml(t, t->link_note, sizeof(t->link_note)) == 0)
		snprintf(t->link_source, sizeof(t->link_source), "nvml");
#else
	amd_links(t);
#endif
	return 0;
}

/* ---- printing -------------------------------------------------------------------- */

void hmb_topology_info(FILE *out)
{
	struct hmb_topology *t = calloc(1, sizeof(*t));

	if (!t || hmb_topology_probe(t, NULL) != 0)
		fprintf(out, "gpus            not readable: the runtime sees no GPU\n");
	else
		hmb_topology_print(out, t);
	free(t);
}
