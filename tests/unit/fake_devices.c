/* fake_devices.c - the fact sheets of fake_devices.h. */
#include "fake_devices.h"

#include <string.h>

static struct hmb_facts amd_base(void)
{
	struct hmb_facts f;
	memset(&f, 0, sizeof(f));
	f.vendor = HMB_VENDOR_AMD;
	f.integrated = 0;
	f.managed_memory = 1;
	f.concurrent_managed_access = 1;  /* ROCm: SVM support, whatever XNACK does */
	f.pageable_uses_host_page_tables = 0;
	f.host_native_atomics = 0;
	f.host_register = -1;             /* HIP 5.2 has no such attribute */
	f.fine_grained = 1;
	f.async_engines = 4;              /* ROCm: async queues */
	f.link_gen = f.link_width = f.link_max_gen = f.link_max_width = -1;
	f.kfd_host_link = f.kfd_host_link_mbs = -1;
	f.sdma_engines = f.sdma_xgmi_engines = -1;
	return f;
}

struct hmb_facts hmb_fake_mi250x(int xnack)
{
	struct hmb_facts f = amd_base();
	f.name = "AMD Instinct MI250X";
	f.arch = xnack ? "gfx90a:sramecc+:xnack+" : "gfx90a:sramecc+:xnack-";
	f.pageable_memory_access = xnack;
	f.hsa_xnack = xnack ? "1" : "0";
	f.link_gen = 4;                   /* the PCIe endpoint behind the package */
	f.link_width = 16;
	f.link_max_gen = 4;
	f.link_max_width = 16;
	f.kfd_host_link = HMB_KFD_LINK_XGMI;
	f.kfd_host_link_mbs = 36000;
	f.sdma_engines = 2;
	f.sdma_xgmi_engines = 3;
	return f;
}

struct hmb_facts hmb_fake_mi300x(void)
{
	struct hmb_facts f = amd_base();
	f.name = "AMD Instinct MI300X";
	f.arch = "gfx942:sramecc+:xnack-";
	f.pageable_memory_access = 0;
	f.link_gen = 1;                   /* idle: trained down */
	f.link_width = 16;
	f.link_max_gen = 5;
	f.link_max_width = 16;
	f.kfd_host_link = HMB_KFD_LINK_PCIE;
	f.kfd_host_link_mbs = 0;
	f.sdma_engines = 2;
	f.sdma_xgmi_engines = 14;
	return f;
}

struct hmb_facts hmb_fake_mi300a(void)
{
	struct hmb_facts f = amd_base();
	f.name = "AMD Instinct MI300A";
	f.arch = "gfx942:sramecc+:xnack+";
	f.integrated = 1;
	f.pageable_memory_access = 1;
	f.hsa_xnack = "1";
	f.sdma_engines = 2;
	f.sdma_xgmi_engines = 14;
	return f;
}

struct hmb_facts hmb_fake_h100(void)
{
	struct hmb_facts f;
	memset(&f, 0, sizeof(f));
	f.vendor = HMB_VENDOR_NVIDIA;
	f.name = "NVIDIA H100 80GB HBM3";
	f.arch = "sm_90";
	f.integrated = 0;
	f.managed_memory = 1;
	f.concurrent_managed_access = 1;
	f.pageable_memory_access = 0;
	f.pageable_uses_host_page_tables = 0;
	f.host_native_atomics = 0;
	f.host_register = 1;
	f.fine_grained = -1;
	f.async_engines = 3;
	f.link_gen = 5;
	f.link_width = 16;
	f.link_max_gen = 5;
	f.link_max_width = 16;
	f.kfd_host_link = f.kfd_host_link_mbs = -1;
	f.sdma_engines = f.sdma_xgmi_engines = -1;
	return f;
}
