/*
 * device.c - probing the GPU through the HIP runtime, its PCIe link
 * (pcie_link.c) and, on AMD, the KFD topology; then handing the facts to
 * memmodel.c.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "system/device.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform/hip.h"
#include "system/codecheck.h"

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

/* Where the runtime sees no GPU because no driver is loaded, that in words: CUDA's
 * own ("driver version is insufficient") sends people to upgrade a driver that is
 * not there. NULL where the driver is loaded. */
static const char *no_driver(void)
{
#if defined(HMB_PLATFORM_NVIDIA)
	int no_node = access("/dev/nvidiactl", F_OK) != 0;
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);

	if (lib)
		dlclose(lib);
	if (no_node && !lib)
		return "no NVIDIA driver is loaded on this machine (no /dev/nvidiactl, no libcuda.so.1)";
	if (no_node)
		return "no NVIDIA driver is loaded on this machine (no /dev/nvidiactl)";
	if (!lib)
		return "no NVIDIA driver is loaded on this machine (libcuda.so.1 cannot be loaded)";
#endif
	return NULL;
}

#if !defined(HMB_PLATFORM_NVIDIA)
/* This device's index among the HIP devices with its PCI bus id: the
 * partition of a GPU split into several (kfd.h); -1 where it is the only
 * one visible, so that one partition of several is not taken for the first. */
static int partition_index(const struct hmb_device *d)
{
	char id[sizeof(d->pci_bus_id)];
	int index = 0, same = 0, n = 0;

	if (hipGetDeviceCount(&n) != hipSuccess)
		return -1;
	for (int i = 0; i < n; i++)
		if (hipDeviceGetPCIBusId(id, sizeof(id), i) == hipSuccess &&
		    strcmp(id, d->pci_bus_id) == 0) {
			same++;
			index += i < d->ordinal;
		}
	return same > 1 ? index : -1;
}
#endif

int hmb_device_open(int ordinal, struct hmb_device *d, char *err, size_t errlen)
{
	hipError_t e;
	int n = 0;

	memset(d, 0, sizeof(*d));
	d->ordinal = ordinal;
	e = hipGetDeviceCount(&n);
	if (e != hipSuccess || n == 0) {
		if (no_driver())
			snprintf(err, errlen, "no GPU found: %s", no_driver());
		else
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
	hmb_link_settings_from_sysfs(d->pci_bus_id, &d->link, NULL);
#if defined(HMB_PLATFORM_NVIDIA)
	d->kfd.host_link_type = d->kfd.host_link_max_mbs = -1;
	d->kfd.sdma_engines = d->kfd.sdma_xgmi_engines = -1;
	d->kfd.xgmi_hive = d->kfd.xnack_blockers = -1;
#else
	hmb_kfd_read(d->pci_bus_id, partition_index(d), NULL, &d->kfd);
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
	f->xgmi_hive = d->kfd.xgmi_hive;
	f->xnack_blockers = d->kfd.xnack_blockers;
	f->hsa_xnack = getenv("HSA_XNACK");
	f->hsa_enable_sdma = getenv("HSA_ENABLE_SDMA");
	f->hsa_enable_peer_sdma = getenv("HSA_ENABLE_PEER_SDMA");
	f->gpu_max_hw_queues = getenv("GPU_MAX_HW_QUEUES");
	f->hip_host_coherent = getenv("HIP_HOST_COHERENT");
	f->hsa_force_fine_grain_pcie = getenv("HSA_FORCE_FINE_GRAIN_PCIE");
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

