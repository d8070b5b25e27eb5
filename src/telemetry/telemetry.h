/*
 * telemetry.h - GPU state around each module, from the vendor's management
 * library loaded at run time (NVML on NVIDIA; rocm-smi on AMD, with sysfs
 * for what rocm-smi cannot read or where it is missing), so that the
 * binary runs where the library is missing and says so. A module whose
 * figures were taken while the GPU throttled, or with its PCIe link below
 * its maximum, is flagged.
 */
#ifndef HMB_TELEMETRY_H
#define HMB_TELEMETRY_H

/* A process that holds a context on the GPU (NVML's compute processes). */
struct hmb_gpu_proc {
	long pid;                      /* as the library sees it (the host's PID namespace) */
	long long used_bytes;          /* GPU memory it uses; -1 not readable */
	int own;                       /* this run: the process or, in `all`, its parent */
};

#define HMB_GPU_PROCS_MAX 32

/* One reading; a negative number means "not readable". */
struct hmb_gpu_sample {
	char module[32];
	char when[8];                  /* "before" or "after" */
	double sm_clock_mhz, mem_clock_mhz, temperature_c, power_w;
	int link_gen, link_width, link_max_gen, link_max_width;
	long long throttle_mask;       /* vendor bits; -1 unknown */
	char throttle[160];            /* the reasons that slow the GPU, in words */
	int throttled;                 /* 1 slowed by power or heat; 0 no; -1 unknown */
	int nprocs;                    /* processes on the GPU; -1 not read */
	int own_seen;                  /* one of them is this run (1/0; -1 not read) */
	struct hmb_gpu_proc procs[HMB_GPU_PROCS_MAX]; /* the first HMB_GPU_PROCS_MAX */
};

struct hmb_telemetry_backend;

struct hmb_telemetry {
	char source[16];               /* "nvml", "rocm-smi", "" */
	char reason[512];              /* why there is none, if none; else what is
					* read from elsewhere (AMD: sysfs) and why */
	int available;
	const struct hmb_telemetry_backend *backend;
	void *lib;                     /* dlopen handle */
	void *dev;                     /* the backend's device handle or index */
	char procs_source[128];        /* the call that lists processes, or why none */
	long long kfd_gpu_id;          /* AMD: the GPU's KFD gpu_id (0: unknown) */
	struct hmb_gpu_sample *s;      /* every sample, in the order taken (grows) */
	int n, cap;
};

struct hmb_telemetry_backend {
	const char *name;
	int (*open)(struct hmb_telemetry *t, const char *pci_bus_id);
	void (*read)(struct hmb_telemetry *t, struct hmb_gpu_sample *s);
	void (*close)(struct hmb_telemetry *t);
};

extern const struct hmb_telemetry_backend hmb_telemetry_nvml, hmb_telemetry_rocm_smi;

/* Open the platform's library for the device at pci_bus_id. Never fails:
 * without a library, available is 0 and reason says why. */
void hmb_telemetry_open(struct hmb_telemetry *t, const char *pci_bus_id);
/* Take a sample (none where no library is available): the new sample, or NULL. */
struct hmb_gpu_sample *hmb_telemetry_sample(struct hmb_telemetry *t, const char *module,
					    const char *when);
/* A new zeroed sample at the end, the array grown as needed (also for
 * samples read back from a module's document). */
struct hmb_gpu_sample *hmb_telemetry_add(struct hmb_telemetry *t);
/* Close the library; the samples stay until hmb_telemetry_free. */
void hmb_telemetry_close(struct hmb_telemetry *t);
void hmb_telemetry_free(struct hmb_telemetry *t);
/* For a module: throttled (1/0/-1) and link below its maximum (1/0/-1) in
 * the sample taken after it (an idle GPU may lower its link; the "before"
 * sample is information only). Returns that sample, or NULL where there is
 * none. */
const struct hmb_gpu_sample *hmb_telemetry_flags(const struct hmb_telemetry *t,
						 const char *module, int *throttled,
						 int *link_below_max);

/* Did the link run below its maximum generation or width in sample s: 1, 0,
 * or -1 where the sample does not say. */
int hmb_telemetry_link_below_max(const struct hmb_gpu_sample *s);
/* Mark the processes of s that are this run's (own pids) and set own_seen. */
void hmb_gpu_procs_mark_own(struct hmb_gpu_sample *s, const long *own, int nown);
/* This run's pids: the process, and in a module child of `all` its parent
 * (HMB_CHILD_OUTPUT=PID:FILE). Returns how many (1 or 2). */
int hmb_own_pids(long own[2]);
/* The other processes on the GPU in the samples before and after a module:
 * their pids (each once, up to max) into pids, their memory (-1 unknown)
 * into bytes where not NULL. Returns how many, or -1 where no sample of the
 * module listed processes. Where no listed process is this run's (the
 * library sees another PID namespace, as in a container), ours cannot be
 * told apart: every pid is returned when there are more than this run's
 * processes (*unsure set to 1), none otherwise. */
int hmb_telemetry_others(const struct hmb_telemetry *t, const char *module, long *pids,
			 long long *bytes, int max, int *unsure);

#endif
