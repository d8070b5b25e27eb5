/*
 * topology_nvml.c - how NVIDIA GPUs are linked, from NVML loaded with dlopen
 * (the binary needs no NVML at link time; the structures below are NVML's
 * stable C ABI). Per pair: the NVLinks between the two GPUs ("NV<n>", one
 * hop), or NVLinks of both to NVSwitches ("NV<n>-SW", two hops), else the
 * PCIe path as nvidia-smi names it: PIX (one PCIe switch), PXB (several),
 * PHB (a host bridge), NODE (host bridges of one NUMA node), SYS (across
 * the processors' interconnect).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "system/topology.h"

#define NVLINK_MAX_LINKS 18
#define NVLINK_DEVICE_TYPE_SWITCH 2

struct nvml_pci {
	char bus_id_legacy[16];
	unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
};

typedef int (*init_t)(void);
typedef int (*by_bus_t)(const char *, void **);
typedef int (*link_uint_t)(void *, unsigned, unsigned *);
typedef int (*link_pci_t)(void *, unsigned, struct nvml_pci *);
typedef int (*ancestor_t)(void *, void *, int *);

struct nvml_topo {
	link_uint_t state, remote_type;
	link_pci_t remote_pci;
	ancestor_t ancestor;
};

/* Count each GPU's active NVLinks: to each other GPU, and to switches. */
static void count_links(const struct nvml_topo *api, const struct hmb_topology *t, void **dev,
			int direct[][HMB_TOPO_MAX_GPUS], int *to_switch)
{
	unsigned dom[HMB_TOPO_MAX_GPUS], bus[HMB_TOPO_MAX_GPUS], slot[HMB_TOPO_MAX_GPUS], fn;

	for (int i = 0; i < t->n; i++)
		if (sscanf(t->gpu[i].pci_bus_id, "%x:%x:%x.%x", &dom[i], &bus[i], &slot[i], &fn) != 4)
			dom[i] = bus[i] = slot[i] = ~0u;
	for (int i = 0; i < t->n; i++) {
		if (!dev[i])
			continue;
		for (unsigned l = 0; l < NVLINK_MAX_LINKS; l++) {
			unsigned active = 0, type = ~0u;
			struct nvml_pci pci;
			int peer = -1, typed;
			if (api->state(dev[i], l, &active) != 0 || !active)
				continue;
			typed = api->remote_type && api->remote_type(dev[i], l, &type) == 0;
			if (typed && type == NVLINK_DEVICE_TYPE_SWITCH) {
				to_switch[i]++;
				continue;
			}
			memset(&pci, 0, sizeof(pci));
			if (!api->remote_pci || api->remote_pci(dev[i], l, &pci) != 0)
				continue;
			for (int j = 0; j < t->n; j++)
				if (j != i && pci.domain == dom[j] && pci.bus == bus[j] &&
				    pci.device == slot[j])
					peer = j;
			if (peer >= 0)
				direct[i][peer]++;
			else if (!typed) /* NVML cannot say: not one of the GPUs, so a switch */
				to_switch[i]++;
		}
	}
}

static const char *pcie_path(int level)
{
	switch (level) {
	case 0: return "BOARD";  /* two GPUs of one board */
	case 10: return "PIX";
	case 20: return "PXB";
	case 30: return "PHB";
	case 40: return "NODE";
	case 50: return "SYS";
	default: return "";
	}
}

static void name_pairs(const struct nvml_topo *api, struct hmb_topology *t, void **dev,
		       int direct[][HMB_TOPO_MAX_GPUS], const int *to_switch)
{
	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < t->n; j++) {
			struct hmb_pair_topo *p = &t->pair[i][j];
			int level = -1;
			if (i == j || !dev[i] || !dev[j])
				continue;
			if (direct[i][j] > 0) {
				snprintf(p->link, sizeof(p->link), "NV%d", direct[i][j]);
				p->hops = 1;
			} else if (to_switch[i] > 0 && to_switch[j] > 0) {
				snprintf(p->link, sizeof(p->link), "NV%d-SW",
					 to_switch[i] < to_switch[j] ? to_switch[i] : to_switch[j]);
				p->hops = 2;
			} else if (api->ancestor && api->ancestor(dev[i], dev[j], &level) == 0) {
				snprintf(p->link, sizeof(p->link), "%s", pcie_path(level));
			}
		}
}

int hmb_topology_nvml(struct hmb_topology *t, char *why, size_t len)
{
	struct nvml_topo api;
	void *dev[HMB_TOPO_MAX_GPUS] = { 0 };
	int direct[HMB_TOPO_MAX_GPUS][HMB_TOPO_MAX_GPUS] = { { 0 } };
	int to_switch[HMB_TOPO_MAX_GPUS] = { 0 };
	void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	init_t init, shutdown;
	by_bus_t by_bus;
	int rc, found = 0;

	if (!lib) {
		snprintf(why, len, "libnvidia-ml.so.1 not found");
		return -1;
	}
	init = (init_t)dlsym(lib, "nvmlInit_v2");
	shutdown = (init_t)dlsym(lib, "nvmlShutdown");
	by_bus = (by_bus_t)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
	api.state = (link_uint_t)dlsym(lib, "nvmlDeviceGetNvLinkState");
	api.remote_type = (link_uint_t)dlsym(lib, "nvmlDeviceGetNvLinkRemoteDeviceType");
	api.remote_pci = (link_pci_t)dlsym(lib, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
	api.ancestor = (ancestor_t)dlsym(lib, "nvmlDeviceGetTopologyCommonAncestor");
	if (!init || !shutdown || !by_bus || !api.state) {
		snprintf(why, len, "NVML lacks nvmlInit_v2, nvmlDeviceGetHandleByPciBusId_v2 or "
			 "nvmlDeviceGetNvLinkState");
		dlclose(lib);
		return -1;
	}
	if ((rc = init()) != 0) {
		snprintf(why, len, "nvmlInit_v2 failed (NVML error %d)", rc);
		dlclose(lib);
		return -1;
	}
	for (int i = 0; i < t->n; i++)
		if (by_bus(t->gpu[i].pci_bus_id, &dev[i]) != 0)
			dev[i] = NULL;
		else
			found++;
	if (found) {
		count_links(&api, t, dev, direct, to_switch);
		name_pairs(&api, t, dev, direct, to_switch);
	} else {
		snprintf(why, len, "NVML knows none of the GPUs' PCI bus ids");
	}
	shutdown();
	dlclose(lib);
	return found ? 0 : -1;
}
