/*
 * fake_devices.c - the fact sheets of fake_devices.h, as the runtime and the
 * driver report them: asyncEngineCount is clr's numAsyncQueues_ (rocdevice.cpp,
 * kMaxAsyncQueues = 8); link bandwidths are KFD's io_links max_bandwidth
 * (amdgpu_amdkfd.c, amdgpu_amdkfd_get_xgmi_bandwidth_mbytes: 16 lanes x 25 Gb/s
 * = 50000 MB/s per xGMI link); hive_id is non-zero for GPUs joined by xGMI.
 */
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
	f.async_engines = 8;              /* ROCm: async queues, 8 on every GPU */
	f.link_gen = f.link_width = f.link_max_gen = f.link_max_width = -1;
	f.kfd_host_link = f.kfd_host_link_mbs = -1;
	f.sdma_engines = f.sdma_xgmi_engines = -1;
	f.xgmi_hive = -1;
	f.xnack_blockers = -1;
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
	f.kfd_host_link_mbs = 50000;      /* one xGMI link as KFD reports it */
	f.sdma_engines = 2;
	f.sdma_xgmi_engines = 3;
	f.xgmi_hive = 1;                  /* the GCDs of a node form one hive */
	f.xnack_blockers = 0;
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
	f.xgmi_hive = 1;                  /* 8 GPUs on one xGMI platform */
	f.xnack_blockers = 0;
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
	f.xgmi_hive = 1;                  /* the APUs of a node are joined by xGMI */
	f.xnack_blockers = 0;
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
	f.xgmi_hive = f.xnack_blockers = -1;
	return f;
}
