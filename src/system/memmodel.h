/*
 * memmodel.h - what a GPU's attributes and the environment mean for memory
 * movement: how managed memory is reached (XNACK), whether the GPU is an
 * APU, the host link and the peak that figures are compared with, the copy
 * engines and hardware queues, and which host and device memory kinds exist
 * on this platform (and why not where they do not).
 *
 * Everything here is a pure function of a fact sheet (struct hmb_facts), so
 * every rule is tested with faked facts; device.c fills the sheet from the
 * runtime, sysfs and the environment. The rules and their sources are in
 * memmodel.c and docs/amd.md.
 */
#ifndef HMB_MEMMODEL_H
#define HMB_MEMMODEL_H

#include <stddef.h>

enum hmb_vendor { HMB_VENDOR_NVIDIA, HMB_VENDOR_AMD };

/* KFD topology io-link types (CRAT_IOLINK_TYPE_* in the amdgpu driver). */
#define HMB_KFD_LINK_PCIE 2
#define HMB_KFD_LINK_XGMI 11

/* What is known about the device and its surroundings. Integers: -1 unknown. */
struct hmb_facts {
	enum hmb_vendor vendor;
	const char *name;                  /* "AMD Instinct MI250X" */
	const char *arch;                  /* gcnArchName ("gfx90a:sramecc+:xnack-") or "sm_90" */
	int integrated;                    /* hipDeviceAttributeIntegrated */
	int managed_memory;                /* hipDeviceAttributeManagedMemory */
	int concurrent_managed_access;     /* hipDeviceAttributeConcurrentManagedAccess */
	int pageable_memory_access;        /* hipDeviceAttributePageableMemoryAccess */
	int pageable_uses_host_page_tables;
	int host_native_atomics;           /* hipDeviceAttributeHostNativeAtomicSupported */
	int host_register;                 /* hipDeviceAttributeHostRegisterSupported */
	int fine_grained;                  /* AMD hipDeviceAttributeFineGrainSupport */
	int async_engines;                 /* hipDeviceAttributeAsyncEngineCount */
	int link_gen, link_width;          /* PCIe link now (idle links train down) */
	int link_max_gen, link_max_width;  /* PCIe link at its best */
	int kfd_host_link;                 /* AMD: KFD io-link type to a CPU node */
	int kfd_host_link_mbs;             /* AMD: its max_bandwidth in MB/s, 0 or -1 none */
	int sdma_engines, sdma_xgmi_engines; /* AMD: KFD topology */
	int xgmi_hive;                     /* AMD: 1 in an xGMI hive (KFD hive_id != 0), 0 not */
	int xnack_blockers;                /* AMD: other KFD GPUs that cannot select XNACK per
					      process (memmodel.c), -1 unknown */
	/* Environment (NULL: unset) */
	const char *hsa_xnack, *hsa_enable_sdma, *hsa_enable_peer_sdma, *gpu_max_hw_queues,
		*hip_host_coherent, *hsa_force_fine_grain_pcie;
	double peak_override_gbps;         /* --peak-gbps; 0 none */
	int have_host_uncached;            /* this build's HIP has hipHostMallocUncached */
	int have_device_uncached;          /* ... and hipDeviceMallocUncached */
};

/* How a kernel reaches managed memory that lives on the host. */
enum hmb_access {
	HMB_ACCESS_UNKNOWN,
	HMB_ACCESS_MIGRATE_ON_FAULT,       /* GPU faults, the page moves to device memory */
	HMB_ACCESS_HOST_RESIDENT,          /* no GPU fault handling: read over the link */
	HMB_ACCESS_APU_IN_PLACE,           /* APU: one memory, nothing to migrate */
	HMB_ACCESS_MIGRATE_AT_LAUNCH,      /* NVIDIA without concurrent managed access */
	HMB_ACCESS_NONE,                   /* no managed memory */
};

enum hmb_link_kind {
	HMB_LINK_UNKNOWN,
	HMB_LINK_PCIE,
	HMB_LINK_INFINITY_FABRIC,          /* AMD xGMI to the CPU (MI250X in HPE Cray EX) */
	HMB_LINK_NVLINK_C2C,               /* NVIDIA Grace Hopper */
	HMB_LINK_NONE,                     /* APU: host and device memory are one */
};

/* Memory kinds a module can allocate (memalloc.h allocates them; engine/alloc.h
 * gives them to modules, owned by their context). */
enum hmb_mem_kind {
	HMB_KIND_PAGEABLE,                 /* malloc, pages touched once, copied through staging */
	HMB_KIND_PINNED,                   /* hipHostMalloc(Default) */
	HMB_KIND_PINNED_COHERENT,          /* hipHostMalloc(Coherent): AMD */
	HMB_KIND_PINNED_NONCOHERENT,       /* hipHostMalloc(NonCoherent): AMD */
	HMB_KIND_WRITE_COMBINED,           /* hipHostMalloc(WriteCombined) */
	HMB_KIND_WRITE_COMBINED_COHERENT,  /* hipHostMalloc(WriteCombined | Coherent): AMD */
	HMB_KIND_REGISTERED,               /* malloc, pages touched, + hipHostRegister */
	HMB_KIND_HOST_UNCACHED,            /* hipHostMalloc(Uncached): AMD, newer HIP */
	HMB_KIND_SYSTEM,                   /* malloc'd, untouched, used by kernels directly */
	HMB_KIND_DEVICE,                   /* hipMalloc (AMD: coarse-grained) */
	HMB_KIND_DEVICE_FINE_GRAINED,      /* hipExtMallocWithFlags(Finegrained): AMD */
	HMB_KIND_DEVICE_UNCACHED,          /* hipExtMallocWithFlags(Uncached): AMD, newer HIP */
	HMB_KIND_MANAGED,                  /* hipMallocManaged(AttachGlobal) (AMD: fine-grained) */
	HMB_KIND_MANAGED_COARSE_GRAINED,   /* + hipMemAdviseSetCoarseGrain: AMD */
	HMB_KIND_COUNT,                    /* the kinds above: the model describes each */
	/* Kinds modules allocate as tools, not offered for measuring by kind:
	 * the model does not describe them (kinds[] and documents stop above). */
	HMB_KIND_MAPPED = HMB_KIND_COUNT,  /* hipHostMalloc(Mapped): the device reads it in place */
	HMB_KIND_MANAGED_HOST,             /* hipMallocManaged(AttachHost) */
	HMB_KIND_ALL                       /* every kind */
};

/* How a kind is allocated (memalloc.c makes the call). */
enum hmb_kind_call {
	HMB_CALL_HOST_MALLOC,              /* hipHostMalloc(flags: HMB_HM_*) */
	HMB_CALL_PAGES,                    /* page-aligned malloc, pages touched once */
	HMB_CALL_PAGES_UNTOUCHED,          /* page-aligned malloc, nothing faulted in */
	HMB_CALL_PAGES_REGISTERED,         /* touched pages + hipHostRegister(Default) */
	HMB_CALL_MALLOC,                   /* hipMalloc */
	HMB_CALL_EXT_MALLOC,               /* hipExtMallocWithFlags(flags: HMB_DM_*) */
	HMB_CALL_MANAGED,                  /* hipMallocManaged(flags: HMB_MM_*) */
};

/* What a kind is, one entry a kind (memmodel.c's table). */
struct hmb_kind_spec {
	const char *name;                  /* "pinned-noncoherent"; in records and case names */
	const char *api;                   /* how it is allocated, in words */
	int host;                          /* 1 host memory, 0 device or managed */
	enum hmb_kind_call call;
	unsigned flags;                    /* the call's HMB_HM_* / HMB_DM_* / HMB_MM_* bits */
	int amd_only;                      /* 1: HIP on NVIDIA has no such allocation */
};

struct hmb_kind_info {
	enum hmb_mem_kind kind;
	const char *name;                  /* "pinned-noncoherent" */
	const char *api;                   /* how it is allocated */
	int host;                          /* 1 host memory, 0 device or managed */
	unsigned hm_flags;                 /* HMB_HM_* hipHostMalloc flags (hipHostMalloc kinds) */
	int supported;                     /* 1, or 0 with the reason */
	char coherence[128];               /* AMD: fine-/coarse-grained and why; "" n/a */
	char reason[256];                  /* why unsupported */
};

/* hipHostMalloc flags as plain bits, to state HIP's coherence rule without
 * the AMD headers (memalloc.c maps them onto the real flags). */
enum {
	HMB_HM_PORTABLE = 1 << 0,
	HMB_HM_MAPPED = 1 << 1,
	HMB_HM_WRITE_COMBINED = 1 << 2,
	HMB_HM_NUMA_USER = 1 << 3,
	HMB_HM_COHERENT = 1 << 4,
	HMB_HM_NONCOHERENT = 1 << 5,
	HMB_HM_UNCACHED = 1 << 6,
};

/* hipExtMallocWithFlags flags (AMD), and what hipMallocManaged is asked for. */
enum { HMB_DM_FINE_GRAINED = 1 << 0, HMB_DM_UNCACHED = 1 << 1 };
enum { HMB_MM_ATTACH_HOST = 1 << 0, HMB_MM_COARSE_GRAIN = 1 << 1 };

/* The interpretation, filled by hmb_memmodel_interpret. */
struct hmb_memmodel {
	int apu;                           /* 1: host and device share one memory */
	int xnack;                         /* AMD: 1 on, 0 off, -1 unknown; -1 on NVIDIA */
	char xnack_evidence[640];          /* what says so, and any contradiction */
	enum hmb_access managed_access;
	char managed_reason[1024];
	int system_allocator;              /* kernels can use malloc'd memory: 1/0/-1 */
	char system_allocator_reason[320];
	enum hmb_link_kind link_kind;
	char link_reason[320];
	double peak_gbps;                  /* for peak fractions; 0: none (see peak_reason) */
	char peak_source[96];              /* how peak_gbps was found */
	char peak_reason[256];             /* why there is no peak */
	double link_reported_gbps;         /* driver's figure for a non-PCIe link, information */
	int copy_engines;                  /* -1 unknown */
	char copy_engines_source[512];     /* what counts them, and which copies use them */
	char copy_path[320];               /* AMD: SDMA or blit kernels */
	int hw_queues;                     /* AMD hardware queues per device; -1 n/a */
	char hw_queues_source[128];
	struct hmb_kind_info kinds[HMB_KIND_COUNT];
};

/* Figures of the managed and xnack modules whose meaning depends on the
 * access mode. */
enum hmb_managed_figure {
	HMB_FIG_FIRST_TOUCH,               /* first kernel on freshly allocated memory */
	HMB_FIG_ON_DEMAND,                 /* kernel on memory nobody prefetched */
	HMB_FIG_PREFETCHED,                /* kernel after hipMemPrefetchAsync */
	HMB_FIG_SPEEDUP_OVER_ON_DEMAND,    /* on-demand time / other time */
	HMB_FIG_PER_TOUCH,                 /* xnack: cost per touched page */
	HMB_FIG_COUNT
};

void hmb_memmodel_interpret(const struct hmb_facts *f, struct hmb_memmodel *m);

/* 1 "xnack+", 0 "xnack-", -1 neither in an arch name. */
int hmb_arch_xnack(const char *arch);
/* KFD's gfx_target_version of an arch name ("gfx90a..." 90010, "gfx942" 90402,
 * "gfx1100" 110000); 0 when it is not one. */
unsigned hmb_gfx_version(const char *arch);
/* How the amdgpu driver treats XNACK on a GPU of that gfx_target_version
 * (kfd_process_xnack_mode): 1 selected per process (gfx90a, gfx94x, gfx950),
 * 0 not (the GPU can keep another GPU of the process from getting XNACK),
 * -1 not considered (before gfx9). */
int hmb_gfx_xnack_per_process(unsigned gfx_version);
/* xnack module: 1 when its "/resident" case must move its pages to the
 * device with hipMemPrefetchAsync (a kernel run migrates nothing there). */
int hmb_resident_by_prefetch(enum hmb_access a);
/* xnack module: the name of its per-page figure under an access mode, for
 * the latency (us per page) or the throughput (pages per s) figure. */
const char *hmb_per_page_metric(enum hmb_access a, int latency);
/* Does hipHostMalloc with these HMB_HM_* flags give fine-grained (coherent,
 * 1) or coarse-grained (0) memory on AMD, given HIP_HOST_COHERENT? */
int hmb_amd_host_coherent(unsigned flags, const char *hip_host_coherent);
/* Peak of one direction of a PCIe link in GB/s (0: not a PCIe generation). */
double hmb_pcie_gen_peak_gbps(int gen, int width);

const char *hmb_access_name(enum hmb_access a);
const char *hmb_link_kind_name(enum hmb_link_kind k);
/* The table entry of kind k (every kind, HMB_KIND_ALL of them); NULL past it. */
const struct hmb_kind_spec *hmb_kind_spec(enum hmb_mem_kind k);
const char *hmb_kind_name(enum hmb_mem_kind k);
/* The kind the model describes called `name` (below HMB_KIND_COUNT), or -1. */
int hmb_kind_find(const char *name);
/* What a managed/xnack figure measures under an access mode, in words. */
const char *hmb_managed_figure_meaning(enum hmb_access a, enum hmb_managed_figure fig);
/* Overlap: 1 and a warning in buf when `streams` streams exceed the hardware
 * queues (they then share queues and cannot all run at once); 0 otherwise. */
int hmb_queue_warning(const struct hmb_memmodel *m, int streams, char *buf, size_t len);

/* A GPU memory's peak, GB/s, from its clock (kHz) and bus width (bits): two
 * transfers a clock over the bus; 0 where either is unknown (not positive). */
double hmb_hbm_peak_gbps(double memory_clock_khz, double memory_bus_bits);

#endif
