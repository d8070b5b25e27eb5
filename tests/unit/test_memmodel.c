/*
 * test_memmodel.c - the memory model (memmodel.c) of faked GPUs: which
 * access mode managed memory gets, which memory kinds are unsupported and
 * why, what peak is used, copy engines and queues, and what `info` prints.
 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/report.h"
#include "fake_devices.h"
#include "harness.h"
#include "output/table.h"
#include "system/memmodel.h"

static struct hmb_memmodel model(struct hmb_facts f)
{
	struct hmb_memmodel m;
	hmb_memmodel_interpret(&f, &m);
	return m;
}

static const struct hmb_kind_info *kind(const struct hmb_memmodel *m, const char *name)
{
	int k = hmb_kind_find(name);
	return k < 0 ? NULL : &m->kinds[k];
}

static int unsupported_because(const struct hmb_memmodel *m, const char *name, const char *why)
{
	const struct hmb_kind_info *k = kind(m, name);
	return k && !k->supported && strstr(k->reason, why) != NULL;
}

void test_memmodel_access_mode(void)
{
	struct hmb_facts f;
	struct hmb_memmodel m;

	m = model(hmb_fake_mi250x(0));
	CHECK(m.xnack == 0);
	CHECK(m.managed_access == HMB_ACCESS_HOST_RESIDENT);
	CHECK(strcmp(hmb_access_name(m.managed_access), "host-resident, accessed over the link") == 0);
	CHECK(strstr(m.xnack_evidence, "xnack- in the arch name"));

	m = model(hmb_fake_mi250x(1));
	CHECK(m.xnack == 1 && m.managed_access == HMB_ACCESS_MIGRATE_ON_FAULT);
	CHECK(strcmp(hmb_access_name(m.managed_access), "migrate-on-fault") == 0);

	/* HSA_XNACK=1 asked for, but the driver runs the process xnack-. */
	f = hmb_fake_mi250x(0);
	f.hsa_xnack = "1";
	m = model(f);
	CHECK(m.managed_access == HMB_ACCESS_HOST_RESIDENT);
	CHECK(strstr(m.xnack_evidence, "HSA_XNACK=1 was asked for but is not in effect"));

	/* concurrentManagedAccess says nothing about XNACK on ROCm. */
	f = hmb_fake_mi250x(0);
	f.concurrent_managed_access = 1;
	CHECK(model(f).managed_access == HMB_ACCESS_HOST_RESIDENT);

	m = model(hmb_fake_mi300x());
	CHECK(m.managed_access == HMB_ACCESS_HOST_RESIDENT && !m.apu);
	CHECK(strstr(m.xnack_evidence, "HSA_XNACK unset"));

	m = model(hmb_fake_mi300a());
	CHECK(m.apu && m.managed_access == HMB_ACCESS_APU_IN_PLACE);
	CHECK(m.system_allocator == 1);

	m = model(hmb_fake_h100());
	CHECK(m.xnack == -1 && m.managed_access == HMB_ACCESS_MIGRATE_ON_FAULT);
	CHECK(m.xnack_evidence[0] == '\0');

	f = hmb_fake_h100();
	f.concurrent_managed_access = 0;
	CHECK(model(f).managed_access == HMB_ACCESS_MIGRATE_AT_LAUNCH);
	f.managed_memory = 0;
	CHECK(model(f).managed_access == HMB_ACCESS_NONE);
	/* the reason info prints beside it */
	CHECK(strstr(model(f).managed_reason, "managedMemory=0: the device has no managed memory"));

	/* No xnack feature in the arch name: the pageable attribute decides. */
	f = hmb_fake_mi300x();
	f.arch = "gfx1100";
	CHECK(model(f).managed_access == HMB_ACCESS_HOST_RESIDENT);
	f.pageable_memory_access = -1;
	CHECK(model(f).managed_access == HMB_ACCESS_UNKNOWN);
	/* Without HMM, hipMallocManaged is pinned host memory. */
	f = hmb_fake_mi250x(1);
	f.managed_memory = 0;
	CHECK(model(f).managed_access == HMB_ACCESS_HOST_RESIDENT);

	CHECK(hmb_arch_xnack("gfx90a:sramecc+:xnack+") == 1);
	CHECK(hmb_arch_xnack("gfx942:xnack-") == 0);
	CHECK(hmb_arch_xnack("sm_90") == -1 && hmb_arch_xnack(NULL) == -1);

	/* The figures of each mode say different things. */
	CHECK(strstr(hmb_managed_figure_meaning(HMB_ACCESS_HOST_RESIDENT, HMB_FIG_FIRST_TOUCH),
		     "over the link"));
	CHECK(strstr(hmb_managed_figure_meaning(HMB_ACCESS_MIGRATE_ON_FAULT, HMB_FIG_FIRST_TOUCH),
		     "migration"));
	CHECK(strstr(hmb_managed_figure_meaning(HMB_ACCESS_HOST_RESIDENT, HMB_FIG_PER_TOUCH),
		     "not a fault cost"));
	CHECK(strstr(hmb_managed_figure_meaning(HMB_ACCESS_APU_IN_PLACE,
						HMB_FIG_SPEEDUP_OVER_ON_DEMAND), "near 1"));
	CHECK(strstr(hmb_managed_figure_meaning(HMB_ACCESS_UNKNOWN, HMB_FIG_ON_DEMAND), "unknown"));
}

void test_memmodel_kinds(void)
{
	struct hmb_facts f;
	struct hmb_memmodel m;
	int n = 0;

	/* H100: every AMD-only kind is unsupported, with the reason. */
	m = model(hmb_fake_h100());
	CHECK(unsupported_because(&m, "pinned-coherent", "CUDA has no coherence flags"));
	CHECK(unsupported_because(&m, "pinned-noncoherent", "CUDA has no coherence flags"));
	CHECK(unsupported_because(&m, "write-combined-coherent", "CUDA has no coherence flags"));
	CHECK(unsupported_because(&m, "uncached", "AMD only"));
	CHECK(unsupported_because(&m, "device-fine-grained", "AMD only"));
	CHECK(unsupported_because(&m, "device-uncached", "AMD only"));
	CHECK(unsupported_because(&m, "managed-coarse-grained", "hipMemAdviseSetCoarseGrain is AMD"));
	CHECK(unsupported_because(&m, "system", "pageableMemoryAccess=0"));
	for (int k = 0; k < HMB_KIND_COUNT; k++) {
		n += !m.kinds[k].supported;
		CHECK(m.kinds[k].coherence[0] == '\0');   /* an AMD notion */
	}
	CHECK(n == 8);
	CHECK(kind(&m, "pinned")->supported && kind(&m, "write-combined")->supported &&
	      kind(&m, "registered")->supported && kind(&m, "managed")->supported);

	/* MI250X, HIP 5.2: the uncached flags are missing from this HIP. */
	m = model(hmb_fake_mi250x(0));
	CHECK(unsupported_because(&m, "uncached", "no hipHostMallocUncached"));
	CHECK(unsupported_because(&m, "device-uncached", "no hipDeviceMallocUncached"));
	CHECK(unsupported_because(&m, "system", "XNACK is off"));
	CHECK(kind(&m, "device-fine-grained")->supported);
	CHECK(kind(&m, "managed-coarse-grained")->supported);
	CHECK(kind(&m, "pinned-noncoherent")->supported);
	CHECK(strstr(kind(&m, "pinned")->coherence, "fine-grained"));
	CHECK(strstr(kind(&m, "pinned-noncoherent")->coherence, "coarse-grained"));
	CHECK(strstr(kind(&m, "device")->coherence, "coarse-grained"));
	CHECK(strstr(kind(&m, "managed")->coherence, "fine-grained"));
	CHECK(strstr(kind(&m, "managed-coarse-grained")->coherence, "coarse-grained"));

	f = hmb_fake_mi250x(0);
	f.hip_host_coherent = "1";
	f.have_host_uncached = f.have_device_uncached = 1;
	m = model(f);
	CHECK(strstr(kind(&m, "pinned-noncoherent")->coherence, "coarse-grained"));
	CHECK(kind(&m, "uncached")->supported && kind(&m, "device-uncached")->supported);

	f = hmb_fake_mi250x(1);
	f.fine_grained = 0;
	m = model(f);
	CHECK(kind(&m, "system")->supported);
	CHECK(unsupported_because(&m, "device-fine-grained", "FineGrainSupport is 0"));

	m = model(hmb_fake_mi300a());
	CHECK(kind(&m, "system")->supported && kind(&m, "managed")->supported);

	/* HIP's rule (clr hipHostMalloc) */
	CHECK(hmb_amd_host_coherent(0, NULL) == 1);
	CHECK(hmb_amd_host_coherent(0, "0") == 1);
	CHECK(hmb_amd_host_coherent(HMB_HM_MAPPED, NULL) == 1);
	CHECK(hmb_amd_host_coherent(HMB_HM_WRITE_COMBINED, NULL) == 0);
	CHECK(hmb_amd_host_coherent(HMB_HM_WRITE_COMBINED, "1") == 1);
	CHECK(hmb_amd_host_coherent(HMB_HM_PORTABLE, "0") == 0);
	CHECK(hmb_amd_host_coherent(HMB_HM_NONCOHERENT | HMB_HM_MAPPED, "1") == 0);
	CHECK(hmb_kind_find("registered") == HMB_KIND_REGISTERED && hmb_kind_find("x") == -1);
}

void test_memmodel_peak(void)
{
	struct hmb_facts f;
	struct hmb_memmodel m;

	/* MI250X on Infinity Fabric: no peak unless given. */
	m = model(hmb_fake_mi250x(0));
	CHECK(m.link_kind == HMB_LINK_INFINITY_FABRIC && m.peak_gbps == 0);
	CHECK(strstr(m.peak_reason, "Infinity Fabric") && strstr(m.peak_reason, "--peak-gbps"));
	CHECK_NEAR(m.link_reported_gbps, 50.0, 1e-9);  /* KFD: one xGMI link */
	f = hmb_fake_mi250x(0);
	f.peak_override_gbps = 36;
	m = model(f);
	CHECK(m.peak_gbps == 36 && strcmp(m.peak_source, "--peak-gbps") == 0 && !m.peak_reason[0]);
	/* Without the KFD topology an MI250X's link is unknown, not PCIe. */
	f = hmb_fake_mi250x(1);
	f.kfd_host_link = -1;
	m = model(f);
	CHECK(m.link_kind == HMB_LINK_UNKNOWN && m.peak_gbps == 0);
	CHECK(strstr(m.link_reason, "Infinity Fabric"));

	/* MI300X idles at gen1: the peak is the link's maximum, gen5 x16. */
	m = model(hmb_fake_mi300x());
	CHECK(m.link_kind == HMB_LINK_PCIE);
	CHECK_NEAR(m.peak_gbps, 63.015, 0.001);
	CHECK(strstr(m.peak_source, "gen5 x16, the link's maximum"));

	m = model(hmb_fake_mi300a());
	CHECK(m.link_kind == HMB_LINK_NONE && m.peak_gbps == 0 && strstr(m.peak_reason, "APU"));
	CHECK(strcmp(hmb_link_kind_name(m.link_kind), "none") == 0);

	m = model(hmb_fake_h100());
	CHECK(m.link_kind == HMB_LINK_PCIE);
	CHECK_NEAR(m.peak_gbps, 63.015, 0.001);

	/* Only the current link readable: used, and said so. */
	f = hmb_fake_h100();
	f.link_max_gen = f.link_max_width = -1;
	f.link_gen = 4;
	m = model(f);
	CHECK_NEAR(m.peak_gbps, 31.508, 0.001);
	CHECK(strstr(m.peak_source, "maximum was not readable"));
	f.link_gen = f.link_width = -1;
	m = model(f);
	CHECK(m.link_kind == HMB_LINK_UNKNOWN && m.peak_gbps == 0 && strstr(m.peak_reason, "--peak-gbps"));

	/* Grace Hopper: NVLink-C2C, not PCIe. */
	f = hmb_fake_h100();
	f.host_native_atomics = 1;
	f.pageable_uses_host_page_tables = 1;
	m = model(f);
	CHECK(m.link_kind == HMB_LINK_NVLINK_C2C && m.peak_gbps == 0);

	CHECK_NEAR(hmb_pcie_gen_peak_gbps(2, 8), 4.0, 1e-9);
	CHECK(hmb_pcie_gen_peak_gbps(7, 16) == 0 && hmb_pcie_gen_peak_gbps(4, 0) == 0);
}

void test_memmodel_copies_and_queues(void)
{
	struct hmb_facts f;
	struct hmb_memmodel m;
	char warn[256];

	m = model(hmb_fake_h100());
	CHECK(m.copy_engines == 3 && strcmp(m.copy_engines_source, "asyncEngineCount") == 0);
	CHECK(m.hw_queues == -1 && hmb_queue_warning(&m, 32, warn, sizeof(warn)) == 0);

	/* AMD: the async engine count is never taken for copy engines. */
	m = model(hmb_fake_mi300x());
	CHECK(m.copy_engines == 2 && strstr(m.copy_engines_source, "KFD topology"));
	CHECK(strstr(m.copy_engines_source, "counts queues, not engines"));
	f = hmb_fake_mi250x(0);
	f.sdma_engines = -1;
	m = model(f);
	CHECK(m.copy_engines == -1 && strstr(m.copy_engines_source, "unknown"));

	CHECK(strstr(m.copy_path, "SDMA engines (HSA_ENABLE_SDMA unset"));
	f.hsa_enable_sdma = "0";
	f.hsa_enable_peer_sdma = "0";
	m = model(f);
	CHECK(strstr(m.copy_path, "blit kernels on compute queues (HSA_ENABLE_SDMA=0)"));
	CHECK(strstr(m.copy_path, "HSA_ENABLE_PEER_SDMA=0"));

	CHECK(m.hw_queues == 4 && strstr(m.hw_queues_source, "GPU_MAX_HW_QUEUES unset"));
	CHECK(hmb_queue_warning(&m, 4, warn, sizeof(warn)) == 0);
	CHECK(hmb_queue_warning(&m, 8, warn, sizeof(warn)) == 1 && strstr(warn, "8 streams share 4"));
	f.gpu_max_hw_queues = "8";
	m = model(f);
	CHECK(m.hw_queues == 8 && hmb_queue_warning(&m, 8, warn, sizeof(warn)) == 0);
	f.gpu_max_hw_queues = "many";
	m = model(f);
	CHECK(m.hw_queues == 4 && strstr(m.hw_queues_source, "not a count"));
}

/* What hmb_info_print_memory writes for a faked device. */
static char *info_text(struct hmb_facts f)
{
	static struct hmb_device d;
	FILE *tmp = tmpfile();
	char *text;
	long len;

	memset(&d, 0, sizeof(d));
	hmb_memmodel_interpret(&f, &d.model);
	if (!tmp)
		return NULL;
	hmb_info_print_memory(tmp, &d);
	len = ftell(tmp);
	rewind(tmp);
	text = calloc(1, (size_t)len + 1);
	if (text && fread(text, 1, (size_t)len, tmp) != (size_t)len) {
		free(text);
		text = NULL;
	}
	fclose(tmp);
	return text;
}

void test_memmodel_info(void)
{
	struct hmb_facts f = hmb_fake_mi250x(0);
	char *t;

	f.hsa_enable_sdma = "0";
	t = info_text(f);
	CHECK(t != NULL);
	if (t) {
		CHECK(strstr(t, "apu             no\n"));
		CHECK(strstr(t, "host link       infinity-fabric ("));
		CHECK(strstr(t, "peak            none: the host link is Infinity Fabric"));
		CHECK(strstr(t, "the driver reports 50.0 GB/s"));
		CHECK(strstr(t, "xnack mode      off: xnack- in the arch name"));
		CHECK(strstr(t, "managed access  host-resident, accessed over the link: XNACK off"));
		CHECK(strstr(t, "malloc'd memory not usable by kernels"));
		CHECK(strstr(t, "copy engines    2 (KFD topology"));
		CHECK(strstr(t, "copy path       blit kernels"));
		CHECK(strstr(t, "hw queues       4 (runtime default"));
		CHECK(strstr(t, "coherence       pinned: fine-grained"));
		CHECK(strstr(t, "unsupported     write-combined: hipHostMallocWriteCombined does "
			     "nothing in HIP"));
		CHECK(strstr(t, "                uncached: this build's HIP"));
		CHECK(strstr(t, "                device-uncached:"));
		free(t);
	}
	t = info_text(hmb_fake_mi250x(1));
	CHECK(t && strstr(t, "managed access  migrate-on-fault: XNACK on (xnack+"));
	free(t);

	t = info_text(hmb_fake_mi300a());
	CHECK(t && strstr(t, "apu             yes: host and device share one memory"));
	CHECK(t && strstr(t, "host link       none (APU"));
	CHECK(t && strstr(t, "peak            none: no host link on an APU"));
	CHECK(t && strstr(t, "managed access  in place, one memory (APU)"));
	CHECK(t && strstr(t, "malloc'd memory usable by kernels"));
	free(t);

	t = info_text(hmb_fake_mi300x());
	CHECK(t && strstr(t, "peak            63.0 GB/s per direction (PCIe gen5 x16, the link's "
			     "maximum)"));
	free(t);

	t = info_text(hmb_fake_h100());
	CHECK(t && strstr(t, "peak            63.0 GB/s per direction"));
	CHECK(t && strstr(t, "copy engines    3 (asyncEngineCount)"));
	CHECK(t && strstr(t, "unsupported     pinned-coherent: CUDA has no coherence flags"));
	CHECK(t && !strstr(t, "xnack mode") && !strstr(t, "hw queues") && !strstr(t, "\ncoherence "));
	free(t);

	f = hmb_fake_mi250x(0);
	f.peak_override_gbps = 36;
	t = info_text(f);
	CHECK(t && strstr(t, "peak            36.0 GB/s per direction (--peak-gbps)"));
	free(t);
}

/* Issue 27, 1: hipHostMallocWriteCombined does nothing on AMD (HIP 7.2's
 * header; clr hip_memory.cpp reads it only in its coherence rule), so the
 * write-combined kinds are the pinned-noncoherent / pinned-coherent
 * allocations and are not measured twice; on NVIDIA write-combined is real. */
void test_memmodel_amd_write_combined(void)
{
	struct hmb_facts f = hmb_fake_mi300x();
	struct hmb_memmodel m = model(f);

	CHECK(unsupported_because(&m, "write-combined", "does nothing in HIP"));
	CHECK(unsupported_because(&m, "write-combined", "the pinned-noncoherent allocation "
				  "(coarse-grained: HIP_HOST_COHERENT unset)"));
	CHECK(unsupported_because(&m, "write-combined-coherent", "the pinned-coherent allocation"));
	CHECK(kind(&m, "pinned-noncoherent")->supported && kind(&m, "pinned-coherent")->supported);
	f.hip_host_coherent = "1";
	m = model(f);
	CHECK(unsupported_because(&m, "write-combined", "the pinned-coherent allocation "
				  "(fine-grained: HIP_HOST_COHERENT=1)"));
	m = model(hmb_fake_h100());
	CHECK(kind(&m, "write-combined")->supported);
}

/* Issue 27, 2: with XNACK off a kernel run migrates nothing, so the xnack
 * module makes its "/resident" pages resident with hipMemPrefetchAsync and
 * calls its per-page figure what it is; other modes keep their names. */
void test_memmodel_xnack_off_residency(void)
{
	CHECK(hmb_resident_by_prefetch(model(hmb_fake_mi250x(0)).managed_access) == 1);
	CHECK(hmb_resident_by_prefetch(model(hmb_fake_mi250x(1)).managed_access) == 0);
	CHECK(hmb_resident_by_prefetch(model(hmb_fake_mi300a()).managed_access) == 0);
	CHECK(hmb_resident_by_prefetch(model(hmb_fake_h100()).managed_access) == 0);
	CHECK(strcmp(hmb_per_page_metric(HMB_ACCESS_HOST_RESIDENT, 1), "us_per_page_over_link") == 0);
	CHECK(strcmp(hmb_per_page_metric(HMB_ACCESS_HOST_RESIDENT, 0), "pages_per_s_over_link") == 0);
	/* NVIDIA's names stay */
	CHECK(strcmp(hmb_per_page_metric(HMB_ACCESS_MIGRATE_ON_FAULT, 1), "us_per_fault") == 0);
	CHECK(strcmp(hmb_per_page_metric(HMB_ACCESS_MIGRATE_ON_FAULT, 0), "faults_per_s") == 0);
	CHECK(strcmp(hmb_per_page_metric(HMB_ACCESS_MIGRATE_AT_LAUNCH, 1), "us_per_fault") == 0);
	CHECK(strstr(hmb_managed_figure_meaning(HMB_ACCESS_HOST_RESIDENT, HMB_FIG_PER_TOUCH),
		     "prefetched"));
}

/* Issue 27, 3: on gfx90a/gfx94x/gfx950 the driver selects XNACK per process
 * and amdgpu.noretry only sets the default (kfd_process_xnack_mode): a
 * refused HSA_XNACK=1 names the causes the facts show, never noretry there. */
void test_memmodel_xnack_refused(void)
{
	struct hmb_facts f = hmb_fake_mi250x(0);
	struct hmb_memmodel m;

	f.hsa_xnack = "1";
	m = model(f);
	CHECK(strstr(m.xnack_evidence, "HSA_XNACK=1 was asked for but is not in effect"));
	CHECK(strstr(m.xnack_evidence, "selects XNACK per process"));
	CHECK(strstr(m.xnack_evidence, "SR-IOV"));
	CHECK(!strstr(m.xnack_evidence, "noretry=1"));
	f.xnack_blockers = 2;
	m = model(f);
	CHECK(strstr(m.xnack_evidence, "2 other GPU(s) in the KFD topology cannot select XNACK"));
	CHECK(strstr(m.xnack_evidence, "ROCR_VISIBLE_DEVICES") && strstr(m.xnack_evidence, "assumed"));
	f.managed_memory = 0;
	m = model(f);
	CHECK(strstr(m.xnack_evidence, "no SVM") && strstr(m.xnack_evidence, "CONFIG_HSA_AMD_SVM"));
	/* gfx908: XNACK does follow noretry; gfx10 and later never have it */
	f = hmb_fake_mi250x(0);
	f.hsa_xnack = "1";
	f.arch = "gfx908:sramecc+:xnack-";
	CHECK(strstr(model(f).xnack_evidence, "noretry=1 refuses it"));
	f.arch = "gfx1100";
	f.pageable_memory_access = 0;
	CHECK(strstr(model(f).xnack_evidence, "gfx10 and later"));

	CHECK(hmb_gfx_version("gfx90a:sramecc+:xnack-") == 90010);
	CHECK(hmb_gfx_version("gfx942") == 90402 && hmb_gfx_version("gfx1100") == 110000);
	CHECK(hmb_gfx_version("sm_90") == 0 && hmb_gfx_version(NULL) == 0);
	CHECK(hmb_gfx_xnack_per_process(90010) == 1 && hmb_gfx_xnack_per_process(90402) == 1);
	CHECK(hmb_gfx_xnack_per_process(90500) == 1 && hmb_gfx_xnack_per_process(90008) == 0);
	CHECK(hmb_gfx_xnack_per_process(110000) == 0 && hmb_gfx_xnack_per_process(80003) == -1);
}

/* Issue 27, 4: hipHostRegister memory is fine-grained (clr ihipHostRegister),
 * the host uncached flag is ROCm 7's, the device one older. */
void test_memmodel_registered_and_uncached(void)
{
	struct hmb_memmodel m = model(hmb_fake_mi250x(0));

	CHECK(strncmp(kind(&m, "registered")->coherence, "fine-grained", 12) == 0);
	CHECK(strstr(kind(&m, "registered")->coherence, "hipExtHostRegisterCoarseGrained"));
	CHECK(unsupported_because(&m, "uncached", "a ROCm 7 flag: not in HIP 6.4, in HIP 7.2"));
	CHECK(unsupported_because(&m, "device-uncached", "not in HIP 5.2, in HIP 6.4"));
}

/* Issue 27, 5: asyncEngineCount is 8 on ROCm (queues); gfx90a runs every
 * host-to-device copy on SDMA0; xGMI SDMA engines take host copies on
 * MI300X; on an APU the HSA_ENABLE_SDMA=0 run is the comparison. */
void test_memmodel_copy_engines(void)
{
	struct hmb_memmodel m = model(hmb_fake_mi250x(0));
	char *t;

	CHECK(m.copy_engines == 2 && strstr(m.copy_engines_source, "asyncEngineCount (8) counts "
					    "queues"));
	CHECK(strstr(m.copy_engines_source, "every host-to-device copy on SDMA0"));
	m = model(hmb_fake_mi300x());
	CHECK(!strstr(m.copy_engines_source, "SDMA0"));
	CHECK(strstr(m.copy_engines_source, "xGMI SDMA engines for host copies") &&
	      strstr(m.copy_engines_source, "assumed"));
	m = model(hmb_fake_mi300a());
	CHECK(strstr(m.copy_path, "APU: host<->device copies are SDMA copies within the same HBM"));
	CHECK(strstr(m.copy_path, "HSA_ENABLE_SDMA=0"));
	CHECK(!strstr(model(hmb_fake_mi300x()).copy_path, "APU"));
	t = info_text(hmb_fake_mi300a());
	CHECK(t && strstr(t, "asyncEngineCount (8)"));
	free(t);
}

/* Issue 27, 6: pageableMemoryAccess is 1 only when every visible GPU is
 * xnack+ (ROCr SVM_ACCESSIBLE_BY_DEFAULT); a PCIe-only GPU has no
 * fine-grained device pool without HSA_FORCE_FINE_GRAIN_PCIE=1 (ROCr
 * amd_gpu_agent.cpp; clr falls back to coarse-grained memory). */
void test_memmodel_visible_gpus_and_fine_grain(void)
{
	struct hmb_facts f = hmb_fake_mi250x(1);
	struct hmb_memmodel m;

	f.pageable_memory_access = 0;
	m = model(f);
	CHECK(m.xnack == 1 && !strstr(m.xnack_evidence, "contradicts"));
	CHECK(strstr(m.xnack_evidence, "another visible GPU is not xnack+"));
	CHECK(m.system_allocator == 0 && strstr(m.system_allocator_reason, "another visible GPU"));

	f = hmb_fake_mi300x();
	f.xgmi_hive = 0;
	m = model(f);
	CHECK(unsupported_because(&m, "device-fine-grained", "HSA_FORCE_FINE_GRAIN_PCIE=1"));
	f.hsa_force_fine_grain_pcie = "1";
	m = model(f);
	CHECK(kind(&m, "device-fine-grained")->supported);
	CHECK(strstr(kind(&m, "device-fine-grained")->coherence, "HSA_FORCE_FINE_GRAIN_PCIE=1"));
	m = model(hmb_fake_mi300x());
	CHECK(strstr(kind(&m, "device-fine-grained")->coherence, "xGMI hive"));
	f.xgmi_hive = -1;
	f.hsa_force_fine_grain_pcie = NULL;
	m = model(f);
	CHECK(strstr(kind(&m, "device-fine-grained")->coherence, "assumed"));
}
