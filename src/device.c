/* device.c - probing the GPU through the HIP runtime, and its PCIe link. */
#include "device.h"

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
	d->l2_bytes = attr(hipDeviceAttributeL2CacheSize, ordinal);
	d->memory_bus_width_bits = attr(hipDeviceAttributeMemoryBusWidth, ordinal);
	d->memory_clock_khz = attr(hipDeviceAttributeMemoryClockRate, ordinal);
	probe_vmm(d);

	d->link.gen = d->link.width = d->link.max_gen = d->link.max_width = -1;
	hmb_link_from_sysfs(d->pci_bus_id, &d->link, NULL);
	return 0;
}

size_t hmb_device_free_mem(void)
{
	size_t free_mem = 0, total = 0;
	if (hipMemGetInfo(&free_mem, &total) != hipSuccess)
		return 0;
	return free_mem;
}

static int gen_of_gts(double gts)
{
	static const double rates[] = { 2.5, 5.0, 8.0, 16.0, 32.0, 64.0 };
	for (int i = 0; i < 6; i++)
		if (gts > rates[i] - 0.1 && gts < rates[i] + 0.1)
			return i + 1;
	return -1;
}

double hmb_pcie_peak_gbps(double gts, int width)
{
	double encoding;
	int gen = gen_of_gts(gts);

	if (gen < 1 || width < 1)
		return 0;
	if (gen <= 2)
		encoding = 8.0 / 10.0;      /* 8b/10b */
	else if (gen <= 5)
		encoding = 128.0 / 130.0;   /* 128b/130b */
	else
		encoding = 242.0 / 256.0;   /* FLIT mode payload share */
	return gts * width * encoding / 8.0;
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
	link->peak_gbps = hmb_pcie_peak_gbps(link->gts, width);
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

int hmb_link_from_sysfs(const char *bus_id, struct hmb_link *link, const char *root)
{
	unsigned domain, bus, slot, fn;
	char dir[256], path[320], buf[64];
	double cur_gts, max_gts;

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
	link->gen = gen_of_gts(cur_gts);
	snprintf(path, sizeof(path), "%s/max_link_speed", dir);
	if (!read_first_line(path, buf, sizeof(buf)) && sscanf(buf, "%lf", &max_gts) == 1)
		link->max_gen = gen_of_gts(max_gts);
	snprintf(path, sizeof(path), "%s/max_link_width", dir);
	if (read_first_line(path, buf, sizeof(buf)) || sscanf(buf, "%d", &link->max_width) != 1)
		link->max_width = -1;
	link->peak_gbps = hmb_pcie_peak_gbps(cur_gts, link->width);
	snprintf(link->source, sizeof(link->source), "sysfs");
	return 0;
}
