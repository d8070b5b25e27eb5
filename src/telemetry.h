/*
 * telemetry.h - GPU state around each module, from the vendor's management
 * library loaded at run time (NVML on NVIDIA; amdsmi on AMD, rocm-smi where
 * amdsmi is missing), so that the
 * binary runs where the library is missing and says so. A module whose
 * figures were taken while the GPU throttled, or with its PCIe link below
 * its maximum, is flagged.
 */
#ifndef HMB_TELEMETRY_H
#define HMB_TELEMETRY_H

/* One reading; a negative number means "not readable". */
struct hmb_gpu_sample {
	char module[32];
	char when[8];                  /* "before" or "after" */
	double sm_clock_mhz, mem_clock_mhz, temperature_c, power_w;
	int link_gen, link_width, link_max_gen, link_max_width;
	long long throttle_mask;       /* vendor bits; -1 unknown */
	char throttle[160];            /* the reasons that slow the GPU, in words */
	int throttled;                 /* 1 slowed by power or heat; 0 no; -1 unknown */
};

struct hmb_telemetry_backend;

struct hmb_telemetry {
	char source[16];               /* "nvml", "amdsmi", "rocm-smi", "" */
	char reason[512];              /* why there is none, if none */
	int available;
	const struct hmb_telemetry_backend *backend;
	void *lib;                     /* dlopen handle */
	void *dev;                     /* the backend's device handle or index */
	struct hmb_gpu_sample *s;      /* every sample, in the order taken (grows) */
	int n, cap;
};

struct hmb_telemetry_backend {
	const char *name;
	int (*open)(struct hmb_telemetry *t, const char *pci_bus_id);
	void (*read)(struct hmb_telemetry *t, struct hmb_gpu_sample *s);
	void (*close)(struct hmb_telemetry *t);
};

extern const struct hmb_telemetry_backend hmb_telemetry_nvml, hmb_telemetry_amdsmi,
	hmb_telemetry_rocm_smi;

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

#endif
