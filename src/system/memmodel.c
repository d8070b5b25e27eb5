/*
 * memmodel.c - the rules that turn a fact sheet into the memory model of
 * memmodel.h. Sources of each rule:
 *
 * XNACK and managed memory (AMD). ROCm's HIP documentation, "Unified memory
 * management": with HSA_XNACK=0 or without HMM, hipMallocManaged memory is
 * pinned host memory that the GPU reaches by zero copy; with HMM and
 * HSA_XNACK=1 it is placed on first touch and migrates on page faults.
 * HIP_VERSION-independent runtime facts (clr, hip_device.cpp and rocdevice.cpp):
 * concurrentManagedAccess and managedMemory are both "SVM supported", which
 * does not depend on XNACK; pageableMemoryAccess is ROCr's
 * HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT, which holds exactly when
 * every visible GPU is xnack+ (ROCr runtime.cpp). The gcnArchName carries
 * "xnack+" or "xnack-" for the mode the process runs in (ROCr sets it from
 * the driver's answer to HSA_XNACK), so it and pageableMemoryAccess are the
 * evidence; HSA_XNACK is only the request and is checked against them.
 * APUs (MI300A): hipDeviceAttributeIntegrated is 1; host and device memory
 * are the same HBM, so nothing migrates and there is no host link.
 * Host link: a GPU's PCIe link trains down when idle, so the peak comes from
 * the maximum generation and width. KFD's topology gives the type of the GPU's
 * link to a CPU node: Infinity Fabric (xGMI, type 11) where the driver finds
 * the GPU "connected to CPU" (MI250X in HPE Cray EX), PCIe (2) otherwise.
 * Copy engines: on ROCm hipDeviceAttributeAsyncEngineCount is the number of
 * async queues (clr hip_device.cpp: asyncEngineCount = info.numAsyncQueues_,
 * rocdevice.cpp: numAsyncQueues_ = kMaxAsyncQueues = 8), not of SDMA engines;
 * KFD's num_sdma_engines counts the engines. Which engine takes a host copy
 * (ROCr amd_gpu_agent.cpp, GpuAgent::DmaCopyStatus): gfx90a runs every
 * host-to-device copy on SDMA0 ("a RAS issue"); elsewhere free xGMI SDMA
 * engines are offered for host copies too.
 * Coherence of hipHostMalloc (clr hip_memory.cpp, and "Coherence control"):
 * flags 0, Coherent, Mapped, NumaUser or Uncached give fine-grained memory,
 * NonCoherent coarse-grained, any other flags (WriteCombined, Portable)
 * follow HIP_HOST_COHERENT (unset = 0 = coarse-grained). WriteCombined does
 * nothing else: HIP 7.2's hip_runtime_api.h calls it "only for CUDA source
 * compatibility but not functional within HIP runtime". hipHostRegister
 * memory is fine-grained (clr ihipHostRegister: CL_MEM_SVM_ATOMICS) unless
 * registered with hipExtHostRegisterCoarseGrained.
 * Fine-grained device memory: ROCr exposes the fine-grained VRAM pool only
 * in an xGMI hive or with HSA_FORCE_FINE_GRAIN_PCIE=1 (amd_gpu_agent.cpp:
 * user_visible = HiveID != 0 || fine_grain_pcie); without the pool clr's
 * Device::deviceLocalAlloc hands out coarse-grained memory instead.
 * XNACK refused (amdkfd kfd_process.c, kfd_process_xnack_mode): gfx90a,
 * gfx94x and gfx950 select XNACK per process, amdgpu.noretry only sets
 * their default; XNACK is refused there on an SR-IOV guest without XNACK
 * support, without SVM in the kernel (CONFIG_HSA_AMD_SVM; clr reports it as
 * managedMemory=0), or when another GPU of the process cannot have it
 * (gfx10 and later never, older gfx9 under noretry=1).
 * Hardware queues: ROCclr's GPU_MAX_HW_QUEUES, default 4.
 */
#include "system/memmodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int set(const char *v)
{
	return v != NULL;
}

static int is_one(const char *v)
{
	return v && strcmp(v, "1") == 0;
}

static int is_zero(const char *v)
{
	return v && strcmp(v, "0") == 0;
}

int hmb_arch_xnack(const char *arch)
{
	if (!arch)
		return -1;
	if (strstr(arch, "xnack+"))
		return 1;
	if (strstr(arch, "xnack-"))
		return 0;
	return -1;
}

static unsigned hex_digit(char c)
{
	return c >= '0' && c <= '9' ? (unsigned)(c - '0') : (unsigned)(c - 'a' + 10);
}

unsigned hmb_gfx_version(const char *arch)
{
	unsigned major = 0;
	size_t n = 0;

	if (!arch || strncmp(arch, "gfx", 3) != 0)
		return 0;
	arch += 3;
	while ((arch[n] >= '0' && arch[n] <= '9') || (arch[n] >= 'a' && arch[n] <= 'f'))
		n++;
	if (n < 3 || n > 4)
		return 0;
	/* major in decimal, then one hexadecimal digit each for minor and stepping */
	for (size_t i = 0; i < n - 2; i++) {
		if (arch[i] > '9')
			return 0;
		major = major * 10 + hex_digit(arch[i]);
	}
	return major * 10000 + hex_digit(arch[n - 2]) * 100 + hex_digit(arch[n - 1]);
}

int hmb_gfx_xnack_per_process(unsigned v)
{
	if (v < 90000)
		return -1;
	/* GC 9.4.2 (gfx90a), 9.4.3 and 9.4.4 (gfx940, gfx941, gfx942), 9.5.0 (gfx950) */
	return v == 90010 || (v >= 90400 && v <= 90402) || v == 90500;
}

int hmb_amd_host_coherent(unsigned flags, const char *hip_host_coherent)
{
	if (flags & HMB_HM_NONCOHERENT)
		return 0;
	if (flags == 0 || (flags & (HMB_HM_COHERENT | HMB_HM_MAPPED | HMB_HM_NUMA_USER |
				    HMB_HM_UNCACHED)))
		return 1;
	return hip_host_coherent && atoi(hip_host_coherent) != 0;
}

double hmb_pcie_gen_peak_gbps(int gen, int width)
{
	static const double gts[] = { 2.5, 5.0, 8.0, 16.0, 32.0, 64.0 };
	double encoding;

	if (gen < 1 || gen > 6 || width < 1)
		return 0;
	if (gen <= 2)
		encoding = 8.0 / 10.0;      /* 8b/10b */
	else if (gen <= 5)
		encoding = 128.0 / 130.0;   /* 128b/130b */
	else
		encoding = 242.0 / 256.0;   /* FLIT mode payload share */
	return gts[gen - 1] * width * encoding / 8.0;
}

const char *hmb_access_name(enum hmb_access a)
{
	switch (a) {
	case HMB_ACCESS_MIGRATE_ON_FAULT: return "migrate-on-fault";
	case HMB_ACCESS_HOST_RESIDENT: return "host-resident, accessed over the link";
	case HMB_ACCESS_APU_IN_PLACE: return "in place, one memory (APU)";
	case HMB_ACCESS_MIGRATE_AT_LAUNCH: return "migrated at kernel launch";
	case HMB_ACCESS_NONE: return "no managed memory";
	case HMB_ACCESS_UNKNOWN: break;
	}
	return "unknown";
}

const char *hmb_link_kind_name(enum hmb_link_kind k)
{
	switch (k) {
	case HMB_LINK_PCIE: return "pcie";
	case HMB_LINK_INFINITY_FABRIC: return "infinity-fabric";
	case HMB_LINK_NVLINK_C2C: return "nvlink-c2c";
	case HMB_LINK_NONE: return "none";
	case HMB_LINK_UNKNOWN: break;
	}
	return "unknown";
}

/* ---- XNACK and managed memory ---------------------------------------------- */

/* Why the driver kept XNACK off although HSA_XNACK=1 asked for it: what the
 * facts show, else what they leave open. */
static size_t xnack_refused(const struct hmb_facts *f, char *e, size_t len)
{
	const unsigned v = hmb_gfx_version(f->arch);
	const int per_process = hmb_gfx_xnack_per_process(v);
	size_t n = (size_t)snprintf(e, len, "; HSA_XNACK=1 was asked for but is not in effect: ");

	if (n >= len)
		return len;
	if (f->managed_memory == 0)
		n += (size_t)snprintf(e + n, len - n, "the kernel has no SVM (managedMemory=0: built "
				      "without CONFIG_HSA_AMD_SVM or HMM), and the driver keeps XNACK "
				      "off without it");
	else if (f->xnack_blockers > 0)
		n += (size_t)snprintf(e + n, len - n, "%d other GPU(s) in the KFD topology cannot "
				      "select XNACK per process (gfx10 and later never, older gfx9 "
				      "under amdgpu.noretry=1), and the driver gives a process XNACK "
				      "only where all its GPUs allow it; hiding them with "
				      "ROCR_VISIBLE_DEVICES may help (assumed: not verified that the "
				      "driver then leaves them out)", f->xnack_blockers);
	else if (per_process == 1)
		n += (size_t)snprintf(e + n, len - n, "the driver selects XNACK per process on this "
				      "GPU (amdgpu.noretry only sets the default), so the cause left is "
				      "an SR-IOV guest without XNACK support (assumed: not detectable "
				      "here)%s",
				      f->xnack_blockers < 0 ? " or another GPU that cannot select "
				      "XNACK per process (the KFD topology was not readable)" : "");
	else if (per_process == 0 && v >= 100000)
		n += (size_t)snprintf(e + n, len - n, "gfx10 and later GPUs do not run with XNACK on");
	else if (per_process == 0)
		n += (size_t)snprintf(e + n, len - n, "on this GPU XNACK follows amdgpu.noretry, and "
				      "noretry=1 refuses it (/sys/module/amdgpu/parameters/noretry)");
	else
		n += (size_t)snprintf(e + n, len - n, "the GPU has no XNACK, or the driver refused it");
	return n < len ? n : len;
}

static void interpret_xnack(const struct hmb_facts *f, struct hmb_memmodel *m)
{
	int arch = hmb_arch_xnack(f->arch), pma = f->pageable_memory_access;
	size_t n = 0, len = sizeof(m->xnack_evidence);
	char *e = m->xnack_evidence;

	m->xnack = -1;
	e[0] = '\0';
	if (f->vendor != HMB_VENDOR_AMD)
		return;
	if (arch >= 0) {
		m->xnack = arch;
		n += (size_t)snprintf(e + n, len - n, "%s in the arch name", arch ? "xnack+" : "xnack-");
		if (arch == 1 && pma == 0)
			n += (size_t)snprintf(e + n, len - n, ", pageableMemoryAccess=0: another "
					      "visible GPU is not xnack+ (the runtime reports 1 only "
					      "when every visible GPU is)");
		else if (pma >= 0 && pma != arch)
			n += (size_t)snprintf(e + n, len - n, ", but pageableMemoryAccess=%d "
					      "contradicts it", pma);
		else if (pma >= 0)
			n += (size_t)snprintf(e + n, len - n, ", pageableMemoryAccess=%d", pma);
	} else if (pma >= 0) {
		m->xnack = pma;
		n += (size_t)snprintf(e + n, len - n, "pageableMemoryAccess=%d (no xnack feature in "
				      "the arch name%s)", pma, pma ? "" : "; the runtime reports 0 "
				      "when any visible GPU is not xnack+");
	} else {
		n += (size_t)snprintf(e + n, len - n, "neither the arch name nor "
				      "pageableMemoryAccess says");
	}
	if (n < len && is_one(f->hsa_xnack) && m->xnack == 0)
		n += xnack_refused(f, e + n, len - n);
	else if (n < len && is_zero(f->hsa_xnack) && m->xnack == 1)
		n += (size_t)snprintf(e + n, len - n, "; HSA_XNACK=0 was asked for but XNACK is on");
	else if (n < len && !set(f->hsa_xnack) && m->xnack >= 0)
		n += (size_t)snprintf(e + n, len - n, "; HSA_XNACK unset (driver default)");
}

static void interpret_managed(const struct hmb_facts *f, struct hmb_memmodel *m)
{
	char *r = m->managed_reason;
	size_t len = sizeof(m->managed_reason);

	if (f->vendor == HMB_VENDOR_NVIDIA && f->managed_memory == 0) {
		m->managed_access = HMB_ACCESS_NONE;
		snprintf(r, len, "managedMemory=0: the device has no managed memory");
	} else if (m->apu) {
		m->managed_access = HMB_ACCESS_APU_IN_PLACE;
		snprintf(r, len, "integrated GPU: host and device share one memory, so managed pages "
			 "are used where they are; nothing crosses a link%s",
			 f->vendor == HMB_VENDOR_AMD && m->xnack == 1 ? " (XNACK on: first GPU "
			 "touch maps the page)" : "");
	} else if (f->vendor == HMB_VENDOR_AMD && f->managed_memory == 0) {
		m->managed_access = HMB_ACCESS_HOST_RESIDENT;
		snprintf(r, len, "managedMemory=0 (no HMM/SVM in the driver): hipMallocManaged gives "
			 "pinned host memory that kernels read over the link");
	} else if (f->vendor == HMB_VENDOR_AMD) {
		if (m->xnack == 1) {
			m->managed_access = HMB_ACCESS_MIGRATE_ON_FAULT;
			snprintf(r, len, "XNACK on (%s): GPU page faults are retried and the page "
				 "migrates to device memory", m->xnack_evidence);
		} else if (m->xnack == 0) {
			m->managed_access = HMB_ACCESS_HOST_RESIDENT;
			snprintf(r, len, "XNACK off (%s): the GPU cannot retry a fault, so managed "
				 "pages stay in host memory and kernels read them over the link; only "
				 "hipMemPrefetchAsync moves them", m->xnack_evidence);
		} else {
			m->managed_access = HMB_ACCESS_UNKNOWN;
			snprintf(r, len, "XNACK mode unknown (%s); concurrentManagedAccess does not "
				 "tell on ROCm", m->xnack_evidence);
		}
	} else if (f->concurrent_managed_access == 1) {
		m->managed_access = HMB_ACCESS_MIGRATE_ON_FAULT;
		snprintf(r, len, "concurrentManagedAccess=1: pages migrate on GPU page faults");
	} else if (f->concurrent_managed_access == 0) {
		m->managed_access = HMB_ACCESS_MIGRATE_AT_LAUNCH;
		snprintf(r, len, "concurrentManagedAccess=0: the driver moves managed memory to the "
			 "GPU before each launch, and the host may not touch it while kernels run");
	} else {
		m->managed_access = HMB_ACCESS_UNKNOWN;
		snprintf(r, len, "concurrentManagedAccess not readable");
	}
}

static void interpret_system_allocator(const struct hmb_facts *f, struct hmb_memmodel *m)
{
	char *r = m->system_allocator_reason;
	size_t len = sizeof(m->system_allocator_reason);

	m->system_allocator = f->pageable_memory_access;
	if (f->pageable_memory_access == 1)
		snprintf(r, len, "pageableMemoryAccess=1%s", f->vendor == HMB_VENDOR_AMD ?
			 " (XNACK on)" : " (HMM or ATS)");
	else if (f->pageable_memory_access == 0 && f->vendor == HMB_VENDOR_AMD && m->xnack == 1)
		snprintf(r, len, "pageableMemoryAccess=0: this GPU is xnack+ but another visible GPU "
			 "is not, and the runtime does not promise malloc'd memory to kernels then "
			 "(hide that GPU with ROCR_VISIBLE_DEVICES)");
	else if (f->pageable_memory_access == 0 && f->vendor == HMB_VENDOR_AMD)
		snprintf(r, len, "pageableMemoryAccess=0: XNACK is off, so a kernel touching "
			 "malloc'd memory faults fatally (HSA_XNACK=1 on an xnack-capable GPU "
			 "enables it)");
	else if (f->pageable_memory_access == 0)
		snprintf(r, len, "pageableMemoryAccess=0: no HMM or ATS for this device");
	else
		snprintf(r, len, "pageableMemoryAccess not readable");
}

/* ---- host link and peak ------------------------------------------------------ */

static void pcie_peak(const struct hmb_facts *f, struct hmb_memmodel *m)
{
	if (f->link_max_gen > 0 && f->link_max_width > 0 &&
	    (m->peak_gbps = hmb_pcie_gen_peak_gbps(f->link_max_gen, f->link_max_width)) > 0) {
		snprintf(m->peak_source, sizeof(m->peak_source), "PCIe gen%d x%d, the link's "
			 "maximum", f->link_max_gen, f->link_max_width);
	} else if (f->link_gen > 0 && f->link_width > 0 &&
		   (m->peak_gbps = hmb_pcie_gen_peak_gbps(f->link_gen, f->link_width)) > 0) {
		snprintf(m->peak_source, sizeof(m->peak_source), "PCIe gen%d x%d as found (the "
			 "maximum was not readable; an idle link may be below it)", f->link_gen,
			 f->link_width);
	} else {
		m->peak_gbps = 0;
		snprintf(m->peak_reason, sizeof(m->peak_reason), "the PCIe link could not be read "
			 "(no sysfs entry and no management library): give --peak-gbps");
	}
}

static void interpret_link(const struct hmb_facts *f, struct hmb_memmodel *m)
{
	const int gfx90a = f->arch && strncmp(f->arch, "gfx90a", 6) == 0;

	m->peak_gbps = 0;
	m->link_reported_gbps = 0;
	if (m->apu) {
		m->link_kind = HMB_LINK_NONE;
		snprintf(m->link_reason, sizeof(m->link_reason), "APU: host and device memory are "
			 "one, there is no host link");
		snprintf(m->peak_reason, sizeof(m->peak_reason), "no host link on an APU, so no "
			 "link peak (a PCIe figure would be meaningless)");
	} else if (f->vendor == HMB_VENDOR_AMD && f->kfd_host_link == HMB_KFD_LINK_XGMI) {
		m->link_kind = HMB_LINK_INFINITY_FABRIC;
		snprintf(m->link_reason, sizeof(m->link_reason), "the GPU reaches the CPU over "
			 "Infinity Fabric (KFD topology: xGMI io-link to the CPU node)");
		snprintf(m->peak_reason, sizeof(m->peak_reason), "the host link is Infinity Fabric, "
			 "not PCIe: its peak depends on the platform; give --peak-gbps");
		if (f->kfd_host_link_mbs > 0)
			m->link_reported_gbps = f->kfd_host_link_mbs / 1000.0;
	} else if (f->vendor == HMB_VENDOR_AMD && f->kfd_host_link < 0 && gfx90a) {
		m->link_kind = HMB_LINK_UNKNOWN;
		snprintf(m->link_reason, sizeof(m->link_reason), "gfx90a (MI200 series) reaches its "
			 "host over PCIe or, in some systems (HPE Cray EX), over Infinity Fabric; the "
			 "KFD topology that tells them apart could not be read");
		snprintf(m->peak_reason, sizeof(m->peak_reason), "host link unknown (PCIe or "
			 "Infinity Fabric): give --peak-gbps");
	} else if (f->vendor == HMB_VENDOR_NVIDIA && f->host_native_atomics == 1 &&
		   f->pageable_uses_host_page_tables == 1) {
		m->link_kind = HMB_LINK_NVLINK_C2C;
		snprintf(m->link_reason, sizeof(m->link_reason), "host-native atomics and host page "
			 "tables: a coherent chip-to-chip link (NVLink-C2C), not PCIe");
		snprintf(m->peak_reason, sizeof(m->peak_reason), "the host link is NVLink-C2C, not "
			 "PCIe: give --peak-gbps");
	} else {
		m->link_kind = f->link_gen > 0 || f->link_max_gen > 0 ||
			       f->kfd_host_link == HMB_KFD_LINK_PCIE ? HMB_LINK_PCIE : HMB_LINK_UNKNOWN;
		snprintf(m->link_reason, sizeof(m->link_reason), "%s",
			 m->link_kind == HMB_LINK_PCIE ? "PCIe" : "no link information was readable");
		pcie_peak(f, m);
	}
	if (f->peak_override_gbps > 0) {
		m->peak_gbps = f->peak_override_gbps;
		snprintf(m->peak_source, sizeof(m->peak_source), "--peak-gbps");
		m->peak_reason[0] = '\0';
	} else if (m->peak_gbps > 0) {
		m->peak_reason[0] = '\0';
	}
}

/* ---- copy engines, copy path, queues ----------------------------------------- */

static void interpret_copies(const struct hmb_facts *f, struct hmb_memmodel *m)
{
	if (f->vendor == HMB_VENDOR_NVIDIA) {
		m->copy_engines = f->async_engines;
		snprintf(m->copy_engines_source, sizeof(m->copy_engines_source), "%s",
			 f->async_engines >= 0 ? "asyncEngineCount" : "asyncEngineCount not readable");
		snprintf(m->copy_path, sizeof(m->copy_path), "copy engines (DMA)");
		m->hw_queues = -1;
		snprintf(m->hw_queues_source, sizeof(m->hw_queues_source), "n/a (CUDA schedules "
			 "streams over CUDA_DEVICE_MAX_CONNECTIONS connections)");
		return;
	}
	if (f->sdma_engines >= 0) {
		const unsigned v = hmb_gfx_version(f->arch);
		size_t n;

		m->copy_engines = f->sdma_engines;
		n = (size_t)snprintf(m->copy_engines_source, sizeof(m->copy_engines_source), "KFD "
				     "topology num_sdma_engines (plus %d xGMI SDMA engines); "
				     "asyncEngineCount (%d) counts queues, not engines",
				     f->sdma_xgmi_engines > 0 ? f->sdma_xgmi_engines : 0,
				     f->async_engines);
		if (v == 90010)
			snprintf(m->copy_engines_source + n, sizeof(m->copy_engines_source) - n,
				 "; gfx90a runs every host-to-device copy on SDMA0 (ROCr: a RAS "
				 "limit), so host-to-device copies never run side by side; "
				 "device-to-host copies use SDMA1");
		else if (f->sdma_xgmi_engines > 0 && !m->apu)
			snprintf(m->copy_engines_source + n, sizeof(m->copy_engines_source) - n,
				 "; ROCr also offers free xGMI SDMA engines for host copies, so more "
				 "than %d may run at once (assumed: which engines HIP picks is not "
				 "verified)", f->sdma_engines);
	} else {
		m->copy_engines = -1;
		snprintf(m->copy_engines_source, sizeof(m->copy_engines_source), "unknown: on ROCm "
			 "asyncEngineCount (%d) is the number of async queues, not SDMA engines, and "
			 "the KFD topology was not readable", f->async_engines);
	}
	snprintf(m->copy_path, sizeof(m->copy_path), "%s%s%s",
		 is_zero(f->hsa_enable_sdma) ? "blit kernels on compute queues (HSA_ENABLE_SDMA=0)"
		 : set(f->hsa_enable_sdma) ? "SDMA engines (HSA_ENABLE_SDMA set), blit kernels where "
		 "the runtime prefers them" : "SDMA engines (HSA_ENABLE_SDMA unset: the default), "
		 "blit kernels where the runtime prefers them",
		 is_zero(f->hsa_enable_peer_sdma) ? "; peer copies by blit kernels "
		 "(HSA_ENABLE_PEER_SDMA=0)" : "",
		 m->apu ? "; APU: host<->device copies are SDMA copies within the same HBM, so "
		 "compare with an HSA_ENABLE_SDMA=0 run (blit kernels)" : "");
	m->hw_queues = 4;
	if (set(f->gpu_max_hw_queues)) {
		char *end;
		long q = strtol(f->gpu_max_hw_queues, &end, 10);
		if (*f->gpu_max_hw_queues && !*end && q > 0 && q < 1000) {
			m->hw_queues = (int)q;
			snprintf(m->hw_queues_source, sizeof(m->hw_queues_source), "GPU_MAX_HW_QUEUES");
		} else {
			snprintf(m->hw_queues_source, sizeof(m->hw_queues_source), "runtime default: "
				 "GPU_MAX_HW_QUEUES='%.40s' is not a count", f->gpu_max_hw_queues);
		}
	} else {
		snprintf(m->hw_queues_source, sizeof(m->hw_queues_source), "runtime default "
			 "(GPU_MAX_HW_QUEUES unset)");
	}
}

/* ---- memory kinds -------------------------------------------------------------- */

/* Every kind: its name, how it is allocated, with which flags, and whether
 * HIP on NVIDIA has it. memalloc.c allocates from this, the model describes
 * from it. */
static const struct hmb_kind_spec kind_table[HMB_KIND_ALL] = {
	[HMB_KIND_PAGEABLE] = { "pageable", "malloc", 1, HMB_CALL_PAGES, 0, 0 },
	[HMB_KIND_PINNED] = { "pinned", "hipHostMalloc(hipHostMallocDefault)", 1,
			      HMB_CALL_HOST_MALLOC, 0, 0 },
	[HMB_KIND_PINNED_COHERENT] = { "pinned-coherent", "hipHostMalloc(hipHostMallocCoherent)",
				       1, HMB_CALL_HOST_MALLOC, HMB_HM_COHERENT, 1 },
	[HMB_KIND_PINNED_NONCOHERENT] = { "pinned-noncoherent",
					  "hipHostMalloc(hipHostMallocNonCoherent)", 1,
					  HMB_CALL_HOST_MALLOC, HMB_HM_NONCOHERENT, 1 },
	[HMB_KIND_WRITE_COMBINED] = { "write-combined", "hipHostMalloc(hipHostMallocWriteCombined)",
				      1, HMB_CALL_HOST_MALLOC, HMB_HM_WRITE_COMBINED, 0 },
	[HMB_KIND_WRITE_COMBINED_COHERENT] = { "write-combined-coherent",
					       "hipHostMalloc(hipHostMallocWriteCombined | "
					       "hipHostMallocCoherent)", 1, HMB_CALL_HOST_MALLOC,
					       HMB_HM_WRITE_COMBINED | HMB_HM_COHERENT, 1 },
	[HMB_KIND_REGISTERED] = { "registered", "malloc + hipHostRegister", 1,
				  HMB_CALL_PAGES_REGISTERED, 0, 0 },
	[HMB_KIND_HOST_UNCACHED] = { "uncached", "hipHostMalloc(hipHostMallocUncached)", 1,
				     HMB_CALL_HOST_MALLOC, HMB_HM_UNCACHED, 1 },
	[HMB_KIND_SYSTEM] = { "system", "malloc, used by kernels directly", 1,
			      HMB_CALL_PAGES_UNTOUCHED, 0, 0 },
	[HMB_KIND_DEVICE] = { "device", "hipMalloc", 0, HMB_CALL_MALLOC, 0, 0 },
	[HMB_KIND_DEVICE_FINE_GRAINED] = { "device-fine-grained",
					   "hipExtMallocWithFlags(hipDeviceMallocFinegrained)", 0,
					   HMB_CALL_EXT_MALLOC, HMB_DM_FINE_GRAINED, 1 },
	[HMB_KIND_DEVICE_UNCACHED] = { "device-uncached",
				       "hipExtMallocWithFlags(hipDeviceMallocUncached)", 0,
				       HMB_CALL_EXT_MALLOC, HMB_DM_UNCACHED, 1 },
	[HMB_KIND_MANAGED] = { "managed", "hipMallocManaged", 0, HMB_CALL_MANAGED, 0, 0 },
	[HMB_KIND_MANAGED_COARSE_GRAINED] = { "managed-coarse-grained",
					      "hipMallocManaged + hipMemAdvise("
					      "hipMemAdviseSetCoarseGrain)", 0, HMB_CALL_MANAGED,
					      HMB_MM_COARSE_GRAIN, 1 },
	[HMB_KIND_MAPPED] = { "mapped", "hipHostMalloc(hipHostMallocMapped)", 1,
			      HMB_CALL_HOST_MALLOC, HMB_HM_MAPPED, 0 },
	[HMB_KIND_MANAGED_HOST] = { "managed-host", "hipMallocManaged(hipMemAttachHost)", 0,
				    HMB_CALL_MANAGED, HMB_MM_ATTACH_HOST, 0 },
};

const struct hmb_kind_spec *hmb_kind_spec(enum hmb_mem_kind k)
{
	return (unsigned)k < HMB_KIND_ALL ? &kind_table[k] : NULL;
}

const char *hmb_kind_name(enum hmb_mem_kind k)
{
	return (unsigned)k < HMB_KIND_ALL ? kind_table[k].name : "?";
}

int hmb_kind_find(const char *name)
{
	for (int k = 0; k < HMB_KIND_COUNT; k++)
		if (name && strcmp(kind_table[k].name, name) == 0)
			return k;
	return -1;
}

static const char *nvidia_reason(enum hmb_mem_kind k)
{
	switch (k) {
	case HMB_KIND_PINNED_COHERENT:
	case HMB_KIND_PINNED_NONCOHERENT:
	case HMB_KIND_WRITE_COMBINED_COHERENT:
		return "CUDA has no coherence flags for pinned memory (it is always coherent): "
		       "an AMD kind; see pinned and write-combined";
	case HMB_KIND_HOST_UNCACHED:
		return "hipHostMallocUncached is AMD only: CUDA has no uncached host allocation";
	case HMB_KIND_DEVICE_FINE_GRAINED:
		return "fine-grained device memory (hipExtMallocWithFlags) is AMD only: CUDA "
		       "device memory has one coherence mode";
	case HMB_KIND_DEVICE_UNCACHED:
		return "uncached device memory (hipDeviceMallocUncached) is AMD only";
	case HMB_KIND_MANAGED_COARSE_GRAINED:
		return "hipMemAdviseSetCoarseGrain is AMD only: CUDA managed memory has no "
		       "coherence advice";
	default:
		return "";
	}
}

static void describe_kind(const struct hmb_facts *f, const struct hmb_memmodel *m,
			  enum hmb_mem_kind k, struct hmb_kind_info *o)
{
	const int amd = f->vendor == HMB_VENDOR_AMD;

	memset(o, 0, sizeof(*o));
	o->kind = k;
	o->name = kind_table[k].name;
	o->api = kind_table[k].api;
	o->host = kind_table[k].host;
	o->hm_flags = kind_table[k].call == HMB_CALL_HOST_MALLOC ? kind_table[k].flags : 0;
	o->supported = 1;
	if (!amd && kind_table[k].amd_only) {
		o->supported = 0;
		snprintf(o->reason, sizeof(o->reason), "%s", nvidia_reason(k));
		return;
	}
	switch (k) {
	case HMB_KIND_PINNED:
	case HMB_KIND_PINNED_COHERENT:
	case HMB_KIND_PINNED_NONCOHERENT:
	case HMB_KIND_WRITE_COMBINED:
	case HMB_KIND_WRITE_COMBINED_COHERENT:
	case HMB_KIND_HOST_UNCACHED:
		if (k == HMB_KIND_HOST_UNCACHED && !f->have_host_uncached) {
			o->supported = 0;
			snprintf(o->reason, sizeof(o->reason), "this build's HIP has no "
				 "hipHostMallocUncached (a ROCm 7 flag: not in HIP 6.4, in HIP 7.2)");
			return;
		}
		if (amd && (k == HMB_KIND_WRITE_COMBINED || k == HMB_KIND_WRITE_COMBINED_COHERENT)) {
			int fine = hmb_amd_host_coherent(o->hm_flags, f->hip_host_coherent);
			o->supported = 0;
			snprintf(o->reason, sizeof(o->reason), "hipHostMallocWriteCombined does "
				 "nothing in HIP (HIP 7.2 header: \"not functional\"; clr reads it "
				 "only in its coherence rule): this is the %s allocation (%s), "
				 "measured under that name",
				 hmb_kind_name(fine ? HMB_KIND_PINNED_COHERENT :
					       HMB_KIND_PINNED_NONCOHERENT),
				 k == HMB_KIND_WRITE_COMBINED_COHERENT ? "fine-grained" :
				 fine ? "fine-grained: HIP_HOST_COHERENT=1" :
				 "coarse-grained: HIP_HOST_COHERENT unset");
			return;
		}
		if (amd) {
			unsigned fl = o->hm_flags;
			int fine = hmb_amd_host_coherent(fl, f->hip_host_coherent);
			snprintf(o->coherence, sizeof(o->coherence), "%s (%s)",
				 fine ? "fine-grained" : "coarse-grained",
				 fl == 0 ? "hipHostMalloc's default flags are coherent" :
				 fl & (HMB_HM_COHERENT | HMB_HM_NONCOHERENT | HMB_HM_UNCACHED) ?
				 "set by the flag" : set(f->hip_host_coherent) ?
				 "from HIP_HOST_COHERENT" : "HIP_HOST_COHERENT unset");
		}
		break;
	case HMB_KIND_REGISTERED:
		if (f->host_register == 0) {
			o->supported = 0;
			snprintf(o->reason, sizeof(o->reason), "hipHostRegister not supported by "
				 "the device (hostRegisterSupported=0)");
			return;
		}
		if (amd)
			snprintf(o->coherence, sizeof(o->coherence), "fine-grained (hipHostRegister's "
				 "default; hipExtHostRegisterCoarseGrained would make it coarse)");
		break;
	case HMB_KIND_SYSTEM:
		if (m->system_allocator != 1) {
			o->supported = 0;
			snprintf(o->reason, sizeof(o->reason), "%.250s", m->system_allocator_reason);
			return;
		}
		if (amd)
			snprintf(o->coherence, sizeof(o->coherence), "fine-grained (malloc'd memory "
				 "unless advised coarse-grained)");
		break;
	case HMB_KIND_DEVICE:
		if (amd)
			snprintf(o->coherence, sizeof(o->coherence), "coarse-grained (hipMalloc)");
		break;
	case HMB_KIND_DEVICE_FINE_GRAINED:
		if (f->fine_grained == 0) {
			o->supported = 0;
			snprintf(o->reason, sizeof(o->reason), "hipDeviceAttributeFineGrainSupport is 0 "
				 "on this device");
			return;
		}
		if (f->xgmi_hive == 0 && !is_one(f->hsa_force_fine_grain_pcie)) {
			o->supported = 0;
			snprintf(o->reason, sizeof(o->reason), "no fine-grained device pool: outside an "
				 "xGMI hive ROCr exposes it only with HSA_FORCE_FINE_GRAIN_PCIE=1; "
				 "without it hipDeviceMallocFinegrained returns coarse-grained "
				 "memory: run with HSA_FORCE_FINE_GRAIN_PCIE=1");
			return;
		}
		snprintf(o->coherence, sizeof(o->coherence), "%s", f->xgmi_hive == 1 ?
			 "fine-grained (the GPU is in an xGMI hive)" : f->xgmi_hive < 0 ?
			 "fine-grained if the pool is exposed (assumed: xGMI hive unknown)" :
			 "fine-grained (HSA_FORCE_FINE_GRAIN_PCIE=1)");
		break;
	case HMB_KIND_DEVICE_UNCACHED:
		if (!f->have_device_uncached) {
			o->supported = 0;
			snprintf(o->reason, sizeof(o->reason), "this build's HIP has no "
				 "hipDeviceMallocUncached (not in HIP 5.2, in HIP 6.4)");
			return;
		}
		snprintf(o->coherence, sizeof(o->coherence), "fine-grained, uncached");
		break;
	case HMB_KIND_MANAGED:
	case HMB_KIND_MANAGED_COARSE_GRAINED:
		if (m->managed_access == HMB_ACCESS_NONE) {
			o->supported = 0;
			snprintf(o->reason, sizeof(o->reason), "%.200s", m->managed_reason);
			return;
		}
		if (amd)
			snprintf(o->coherence, sizeof(o->coherence), "%s",
				 k == HMB_KIND_MANAGED ? "fine-grained (hipMallocManaged's default)"
				 : "coarse-grained (hipMemAdviseSetCoarseGrain)");
		break;
	default:
		break;
	}
}

/* ---- the whole model ------------------------------------------------------------ */

void hmb_memmodel_interpret(const struct hmb_facts *f, struct hmb_memmodel *m)
{
	memset(m, 0, sizeof(*m));
	m->apu = f->integrated == 1;
	interpret_xnack(f, m);
	interpret_managed(f, m);
	interpret_system_allocator(f, m);
	interpret_link(f, m);
	interpret_copies(f, m);
	for (int k = 0; k < HMB_KIND_COUNT; k++)
		describe_kind(f, m, (enum hmb_mem_kind)k, &m->kinds[k]);
}

const char *hmb_managed_figure_meaning(enum hmb_access a, enum hmb_managed_figure fig)
{
	static const char *const text[][HMB_FIG_COUNT] = {
		[HMB_ACCESS_MIGRATE_ON_FAULT] = {
			"first kernel: GPU page faults plus migration of each page to device memory",
			"pages migrate to device memory on the first GPU access, then are local",
			"pages moved ahead of the kernel: device-memory speed",
			"what prefetching saves over migrating on faults",
			"cost of one fault and its migration, per touched page",
		},
		[HMB_ACCESS_HOST_RESIDENT] = {
			"first kernel reads host memory over the link: no fault, no migration",
			"every GPU access crosses the link; pages never move on their own",
			"pages moved by hipMemPrefetchAsync before the kernel (the only thing that "
			"moves them with XNACK off)",
			"what prefetching gains over reading across the link, not over fault migration",
			"extra time per touched page of reading it over the link rather than from "
			"device memory (the resident run has it prefetched there): not a fault cost",
		},
		[HMB_ACCESS_APU_IN_PLACE] = {
			"first kernel maps the pages (with XNACK on) but copies nothing: one memory",
			"GPU accesses the shared memory in place",
			"prefetch only changes mappings: no data moves on an APU",
			"near 1 expected: no data moves on an APU",
			"cost of mapping a page, not of moving it",
		},
		[HMB_ACCESS_MIGRATE_AT_LAUNCH] = {
			"the launch moves every managed page to the GPU before the kernel runs",
			"all pages move at launch, whether touched or not",
			"pages moved ahead of the kernel: device-memory speed",
			"what prefetching saves over the move at launch",
			"launch-time migration divided by touched pages: not a fault cost",
		},
	};
	if ((unsigned)fig >= HMB_FIG_COUNT)
		return "";
	if (a == HMB_ACCESS_MIGRATE_ON_FAULT || a == HMB_ACCESS_HOST_RESIDENT ||
	    a == HMB_ACCESS_APU_IN_PLACE || a == HMB_ACCESS_MIGRATE_AT_LAUNCH)
		return text[a][fig];
	if (a == HMB_ACCESS_NONE)
		return "no managed memory on this device";
	return "access mode unknown: this figure cannot be read as fault migration or as link "
	       "access";
}

int hmb_queue_warning(const struct hmb_memmodel *m, int streams, char *buf, size_t len)
{
	if (m->hw_queues <= 0 || streams <= m->hw_queues)
		return 0;
	snprintf(buf, len, "%d streams share %d hardware queues (%s): streams beyond %d are "
		 "multiplexed onto the same queues and cannot all run at once", streams,
		 m->hw_queues, m->hw_queues_source, m->hw_queues);
	return 1;
}

/* XNACK off: a kernel run reads host memory where it is and migrates nothing,
 * while hipMemPrefetchAsync still moves the pages (KFD SVM migrates on a
 * prefetch without XNACK, kfd_svm.c), so only it makes them resident. */
int hmb_resident_by_prefetch(enum hmb_access a)
{
	return a == HMB_ACCESS_HOST_RESIDENT;
}

const char *hmb_per_page_metric(enum hmb_access a, int latency)
{
	if (a == HMB_ACCESS_HOST_RESIDENT)
		return latency ? "us_per_page_over_link" : "pages_per_s_over_link";
	return latency ? "us_per_fault" : "faults_per_s";
}

double hmb_hbm_peak_gbps(double memory_clock_khz, double memory_bus_bits)
{
	if (!(memory_clock_khz > 0) || !(memory_bus_bits > 0))
		return 0;
	return memory_clock_khz * 1e3 * 2 * memory_bus_bits / 8 / 1e9;
}
