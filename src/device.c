/*
 * device.c - probing the GPU through the HIP runtime, its PCIe link (sysfs)
 * and, on AMD, the KFD topology; then handing the facts to memmodel.c.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "device.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecheck.h"
#include "platform/hip.h"

static int attr(hipDeviceAttribute_t a, int dev)
{
	int v = -1;
	if (hipDeviceGetAttribute(&v, a, dev) != hipSuccess) {
		(void)hipGetLastError();
		return -1;
	}
	return v;
}

static void probe_arch(struct hmb_device *d)
{
#if defined(HMB_PLATFORM_NVIDIA)
	snprintf(d->arch, sizeof(d->arch), "sm_%d%d",
		 attr(hipDeviceAttributeComputeCapabilityMajor, d->ordinal),
		 attr(hipDeviceAttributeComputeCapabilityMinor, d->ordinal));
	d->xnack_arch = -1;
	d->fine_grained = -1; /* an AMD notion: coherent host/device memory without flushes */
#else
	hipDeviceProp_t prop;
	d->xnack_arch = -1;
	d->fine_grained = attr(hipDeviceAttributeFineGrainSupport, d->ordinal);
	if (hipGetDeviceProperties(&prop, d->ordinal) != hipSuccess)
		return;
	snprintf(d->arch, sizeof(d->arch), "%s", prop.gcnArchName);
	if (strstr(d->arch, "xnack+"))
		d->xnack_arch = 1;
	else if (strstr(d->arch, "xnack-"))
		d->xnack_arch = 0;
#endif
}

static void probe_vmm(struct hmb_device *d)
{
	d->vmm = 0;
#if HMB_HAVE_VMM
	hipMemAllocationProp prop;
	d->vmm = attr(hipDeviceAttributeVirtualMemoryManagementSupported, d->ordinal);
	if (d->vmm != 1)
		return;
	memset(&prop, 0, sizeof(prop));
	prop.type = hipMemAllocationTypePinned;
	prop.location.type = hipMemLocationTypeDevice;
	prop.location.id = d->ordinal;
	if (hipMemGetAllocationGranularity(&d->vmm_granularity_min, &prop,
					   hipMemAllocationGranularityMinimum) != hipSuccess ||
	    hipMemGetAllocationGranularity(&d->vmm_granularity_recommended, &prop,
					   hipMemAllocationGranularityRecommended) != hipSuccess)
		d->vmm = 0;
#endif
}

int hmb_device_open(int ordinal, struct hmb_device *d, char *err, size_t errlen)
{
	hipError_t e;
	int n = 0;

	memset(d, 0, sizeof(*d));
	d->ordinal = ordinal;
	e = hipGetDeviceCount(&n);
	if (e != hipSuccess || n == 0) {
		snprintf(err, errlen, "no GPU found: hipGetDeviceCount: %s",
			 e == hipSuccess ? "0 devices" : hipGetErrorString(e));
		return -1;
	}
	d->count = n;
	if (ordinal < 0 || ordinal >= n) {
		snprintf(err, errlen, "--device %d is out of range: %d device(s) visible", ordinal, n);
		return -1;
	}
	e = hipSetDevice(ordinal);
	if (e == hipSuccess)
		e = hipMemGetInfo(&d->free_mem, &d->total_mem);
	if (e != hipSuccess) {
		snprintf(err, errlen, "cannot open device %d: %s", ordinal, hipGetErrorString(e));
		return -1;
	}
	hipDeviceGetName(d->name, sizeof(d->name), ordinal);
	if (hipDeviceGetPCIBusId(d->pci_bus_id, sizeof(d->pci_bus_id), ordinal) != hipSuccess)
		d->pci_bus_id[0] = '\0';
	if (hipRuntimeGetVersion(&d->runtime_version) != hipSuccess)
		d->runtime_version = -1;
	if (hipDriverGetVersion(&d->driver_version) != hipSuccess)
		d->driver_version = -1;
	probe_arch(d);
	if (hmb_code_check(d, err, errlen) != 0)
		return -1;

	d->compute_units = attr(hipDeviceAttributeMultiprocessorCount, ordinal);
	d->managed_memory = attr(hipDeviceAttributeManagedMemory, ordinal);
	d->concurrent_managed_access = attr(hipDeviceAttributeConcurrentManagedAccess, ordinal);
	d->pageable_memory_access = attr(hipDeviceAttributePageableMemoryAccess, ordinal);
	d->pageable_uses_host_page_tables =
		attr(hipDeviceAttributePageableMemoryAccessUsesHostPageTables, ordinal);
	d->direct_managed_access_from_host =
		attr(hipDeviceAttributeDirectManagedMemAccessFromHost, ordinal);
	d->can_map_host_memory = attr(hipDeviceAttributeCanMapHostMemory, ordinal);
#if HMB_HAVE_HOST_REGISTER_ATTR
	d->host_register = attr(hipDeviceAttributeHostRegisterSupported, ordinal);
#else
	d->host_register = -1;
#endif
	d->memory_pools = attr(hipDeviceAttributeMemoryPoolsSupported, ordinal);
	d->async_engines = attr(hipDeviceAttributeAsyncEngineCount, ordinal);
	d->concurrent_kernels = attr(hipDeviceAttributeConcurrentKernels, ordinal);
	d->integrated = attr(hipDeviceAttributeIntegrated, ordinal);
	d->host_native_atomics = attr(hipDeviceAttributeHostNativeAtomicSupported, ordinal);
	d->l2_bytes = attr(hipDeviceAttributeL2CacheSize, ordinal);
	d->memory_bus_width_bits = attr(hipDeviceAttributeMemoryBusWidth, ordinal);
	d->memory_clock_khz = attr(hipDeviceAttributeMemoryClockRate, ordinal);
	probe_vmm(d);

	d->link.gen = d->link.width = d->link.max_gen = d->link.max_width = -1;
	hmb_link_from_sysfs(d->pci_bus_id, &d->link, NULL);
#if defined(HMB_PLATFORM_NVIDIA)
	d->kfd.host_link_type = d->kfd.host_link_max_mbs = -1;
	d->kfd.sdma_engines = d->kfd.sdma_xgmi_engines = -1;
#else
	hmb_kfd_read(d->pci_bus_id, NULL, &d->kfd);
#endif
	hmb_device_interpret(d, 0);
	return 0;
}

void hmb_device_facts(const struct hmb_device *d, double peak_override, struct hmb_facts *f)
{
	memset(f, 0, sizeof(*f));
#if defined(HMB_PLATFORM_NVIDIA)
	f->vendor = HMB_VENDOR_NVIDIA;
#else
	f->vendor = HMB_VENDOR_AMD;
#endif
	f->name = d->name;
	f->arch = d->arch;
	f->integrated = d->integrated;
	f->managed_memory = d->managed_memory;
	f->concurrent_managed_access = d->concurrent_managed_access;
	f->pageable_memory_access = d->pageable_memory_access;
	f->pageable_uses_host_page_tables = d->pageable_uses_host_page_tables;
	f->host_native_atomics = d->host_native_atomics;
	f->host_register = d->host_register;
	f->fine_grained = d->fine_grained;
	f->async_engines = d->async_engines;
	f->link_gen = d->link.gen;
	f->link_width = d->link.width;
	f->link_max_gen = d->link.max_gen;
	f->link_max_width = d->link.max_width;
	f->kfd_host_link = d->kfd.host_link_type;
	f->kfd_host_link_mbs = d->kfd.host_link_max_mbs;
	f->sdma_engines = d->kfd.sdma_engines;
	f->sdma_xgmi_engines = d->kfd.sdma_xgmi_engines;
	f->hsa_xnack = getenv("HSA_XNACK");
	f->hsa_enable_sdma = getenv("HSA_ENABLE_SDMA");
	f->hsa_enable_peer_sdma = getenv("HSA_ENABLE_PEER_SDMA");
	f->gpu_max_hw_queues = getenv("GPU_MAX_HW_QUEUES");
	f->hip_host_coherent = getenv("HIP_HOST_COHERENT");
	f->peak_override_gbps = peak_override;
	f->have_host_uncached = HMB_HAVE_HOST_UNCACHED;
	f->have_device_uncached = HMB_HAVE_DEVICE_UNCACHED;
}

void hmb_device_interpret(struct hmb_device *d, double peak_override)
{
	struct hmb_facts f;
	hmb_device_facts(d, peak_override, &f);
	hmb_memmodel_interpret(&f, &d->model);
}

size_t hmb_device_free_mem(void)
{
	size_t free_mem = 0, total = 0;
	if (hipMemGetInfo(&free_mem, &total) != hipSuccess)
		return 0;
	return free_mem;
}

int hmb_pcie_gen_of_gts(double gts)
{
	static const double rates[] = { 2.5, 5.0, 8.0, 16.0, 32.0, 64.0 };
	for (int i = 0; i < 6; i++)
		if (gts > rates[i] - 0.1 && gts < rates[i] + 0.1)
			return i + 1;
	return -1;
}

double hmb_pcie_peak_gbps(double gts, int width)
{
	return hmb_pcie_gen_peak_gbps(hmb_pcie_gen_of_gts(gts), width);
}

void hmb_link_from_generation(struct hmb_link *link, int gen, int width, int max_gen,
			      int max_width, const char *source)
{
	static const double rates[] = { 2.5, 5.0, 8.0, 16.0, 32.0, 64.0 };

	if (gen < 1 || gen > 6 || width < 1)
		return;
	link->gen = gen;
	link->width = width;
	link->max_gen = max_gen;
	link->max_width = max_width;
	link->gts = rates[gen - 1];
	link->peak_gbps = hmb_pcie_gen_peak_gbps(max_gen, max_width);
	if (link->peak_gbps <= 0)
		link->peak_gbps = hmb_pcie_gen_peak_gbps(gen, width);
	snprintf(link->source, sizeof(link->source), "%s", source);
}

static int read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Maximum speed (GT/s) and width in a PCI device directory; 0 where absent. */
static void read_max(const char *dir, double *gts, int *width)
{
	char path[PATH_MAX + 32], buf[64];

	*gts = 0;
	*width = 0;
	snprintf(path, sizeof(path), "%s/max_link_speed", dir);
	if (read_first_line(path, buf, sizeof(buf)) || sscanf(buf, "%lf", gts) != 1)
		*gts = 0;
	snprintf(path, sizeof(path), "%s/max_link_width", dir);
	if (read_first_line(path, buf, sizeof(buf)) || sscanf(buf, "%d", width) != 1)
		*width = 0;
}

/* The link's maximum is the lesser of what the GPU and the port above it
 * (its parent directory in /sys/devices) can do: a gen5 GPU in a gen4 slot
 * trains to gen4 at best. */
int hmb_link_from_sysfs(const char *bus_id, struct hmb_link *link, const char *root)
{
	unsigned domain, bus, slot, fn;
	char dir[256], path[320], buf[64], real[PATH_MAX], *slash;
	double cur_gts, max_gts, up_gts;
	int max_width, up_width;

	if (!bus_id || sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &slot, &fn) != 4)
		return -1;
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%04x:%02x:%02x.%x", root ? root : "/sys",
		 domain, bus, slot, fn);
	snprintf(path, sizeof(path), "%s/current_link_speed", dir);
	if (read_first_line(path, buf, sizeof(buf)) || sscanf(buf, "%lf", &cur_gts) != 1)
		return -1;
	snprintf(path, sizeof(path), "%s/current_link_width", dir);
	if (read_first_line(path, buf, sizeof(buf)) || sscanf(buf, "%d", &link->width) != 1)
		return -1;
	link->gts = cur_gts;
	link->gen = hmb_pcie_gen_of_gts(cur_gts);
	read_max(dir, &max_gts, &max_width);
	if (realpath(dir, real) && (slash = strrchr(real, '/')) && slash != real) {
		*slash = '\0';
		read_max(real, &up_gts, &up_width);
		if (up_gts > 0 && (max_gts <= 0 || up_gts < max_gts))
			max_gts = up_gts;
		if (up_width > 0 && (max_width <= 0 || up_width < max_width))
			max_width = up_width;
	}
	link->max_gen = max_gts > 0 ? hmb_pcie_gen_of_gts(max_gts) : -1;
	link->max_width = max_width > 0 ? max_width : -1;
	if (link->max_gen > 0 && link->max_width > 0)
		link->peak_gbps = hmb_pcie_peak_gbps(max_gts, link->max_width);
	else
		link->peak_gbps = hmb_pcie_peak_gbps(cur_gts, link->width);
	snprintf(link->source, sizeof(link->source), "sysfs");
	return 0;
}
