/*
 * telemetry_nvml.c - NVIDIA's management library, opened with dlopen so the
 * binary needs no NVML at link time. Only the calls below are used; their
 * prototypes are NVML's stable C ABI (opaque device handle, unsigned results).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/telemetry.h"
#include "telemetry/telemetry_nvml.h"

typedef int (*nvml_init_t)(void);
typedef int (*nvml_handle_t)(const char *, void **);
typedef int (*nvml_uint_t)(void *, unsigned *);
typedef int (*nvml_clock_t)(void *, int, unsigned *);
typedef int (*nvml_reasons_t)(void *, unsigned long long *);

struct nvml {
	nvml_clock_t clock, temperature;
	nvml_uint_t power, gen, width, max_gen, max_width;
	nvml_reasons_t reasons;
	nvml_init_t shutdown;
	hmb_nvml_procs_fn procs;
	size_t procs_stride;
	const char *procs_name;
};
static struct nvml api;

#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2
#define NVML_TEMPERATURE_GPU 0

static int nvml_open(struct hmb_telemetry *t, const char *bus_id)
{
	nvml_init_t init;
	nvml_handle_t by_bus;
	void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	int rc = -1;

	if (!lib) {
		snprintf(t->reason, sizeof(t->reason), "libnvidia-ml.so.1 not found: %s", dlerror());
		return -1;
	}
	t->lib = lib;
	init = (nvml_init_t)dlsym(lib, "nvmlInit_v2");
	by_bus = (nvml_handle_t)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
	api.clock = (nvml_clock_t)dlsym(lib, "nvmlDeviceGetClockInfo");
	api.temperature = (nvml_clock_t)dlsym(lib, "nvmlDeviceGetTemperature");
	api.power = (nvml_uint_t)dlsym(lib, "nvmlDeviceGetPowerUsage");
	api.gen = (nvml_uint_t)dlsym(lib, "nvmlDeviceGetCurrPcieLinkGeneration");
	api.width = (nvml_uint_t)dlsym(lib, "nvmlDeviceGetCurrPcieLinkWidth");
	api.max_gen = (nvml_uint_t)dlsym(lib, "nvmlDeviceGetMaxPcieLinkGeneration");
	api.max_width = (nvml_uint_t)dlsym(lib, "nvmlDeviceGetMaxPcieLinkWidth");
	api.reasons = (nvml_reasons_t)dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!api.reasons)
		api.reasons = (nvml_reasons_t)dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
	api.shutdown = (nvml_init_t)dlsym(lib, "nvmlShutdown");
	api.procs = NULL;
	{
		static const struct {
			const char *name;
			size_t stride;
		} procs[] = {
			{ "nvmlDeviceGetComputeRunningProcesses_v3", HMB_NVML_PROC_STRIDE_V2 },
			{ "nvmlDeviceGetComputeRunningProcesses_v2", HMB_NVML_PROC_STRIDE_V2 },
			{ "nvmlDeviceGetComputeRunningProcesses", HMB_NVML_PROC_STRIDE_V1 },
		};
		for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]) && !api.procs; i++) {
			api.procs = (hmb_nvml_procs_fn)dlsym(lib, procs[i].name);
			api.procs_stride = procs[i].stride;
			api.procs_name = procs[i].name;
		}
		snprintf(t->procs_source, sizeof(t->procs_source), "%s",
			 api.procs ? api.procs_name
				   : "not read: NVML lacks nvmlDeviceGetComputeRunningProcesses");
	}
	if (!init || !by_bus) {
		snprintf(t->reason, sizeof(t->reason), "NVML lacks nvmlInit_v2 or "
			 "nvmlDeviceGetHandleByPciBusId_v2");
		return -1;
	}
	if ((rc = init()) != 0) {
		snprintf(t->reason, sizeof(t->reason), "nvmlInit_v2 failed (NVML error %d)", rc);
		return -1;
	}
	if ((rc = by_bus(bus_id, &t->dev)) != 0) {
		snprintf(t->reason, sizeof(t->reason),
			 "NVML does not know PCI bus id %s (NVML error %d)", bus_id, rc);
		api.shutdown();
		return -1;
	}
	return 0;
}

static void throttle_words(unsigned long long m, char *out, size_t len)
{
	static const struct {
		unsigned long long bit;
		const char *name;
	} bits[] = {
		{ 0x1, "idle" }, { 0x2, "application clocks" }, { 0x4, "software power cap" },
		{ 0x8, "hardware slowdown" }, { 0x10, "sync boost" },
		{ 0x20, "software thermal" }, { 0x40, "hardware thermal" },
		{ 0x80, "power brake" }, { 0x100, "display clocks" },
	};
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]) && used < len; i++)
		if (m & bits[i].bit)
			used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "",
						 bits[i].name);
}

int hmb_nvml_processes(hmb_nvml_procs_fn fn, size_t stride, void *dev,
		       struct hmb_gpu_sample *s)
{
	unsigned cap = 64, count = 0;
	unsigned char *buf = NULL;
	int rc = -1;

	s->nprocs = -1;
	/* the list may grow between the calls: a few tries, a larger buffer each */
	for (int tries = 0; tries < 4; tries++) {
		free(buf);
		if (!(buf = calloc(cap, stride)))
			return -1;
		count = cap;
		rc = fn(dev, &count, buf);
		if (rc != HMB_NVML_ERROR_INSUFFICIENT_SIZE)
			break;
		cap = count > cap ? count + 16 : 2 * cap;
	}
	if (rc == 0) {
		s->nprocs = (int)count;
		for (unsigned i = 0; i < count && i < HMB_GPU_PROCS_MAX; i++) {
			unsigned pid;
			unsigned long long used;
			memcpy(&pid, buf + i * stride, sizeof(pid));
			memcpy(&used, buf + i * stride + 8, sizeof(used));
			s->procs[i].pid = (long)pid;
			s->procs[i].used_bytes = used == ~0ULL ? -1 : (long long)used;
			s->procs[i].own = 0;
		}
	}
	free(buf);
	return rc;
}

static void nvml_read(struct hmb_telemetry *t, struct hmb_gpu_sample *s)
{
	unsigned v;
	unsigned long long reasons;
	void *d = t->dev;

	if (api.clock && api.clock(d, NVML_CLOCK_SM, &v) == 0)
		s->sm_clock_mhz = v;
	if (api.clock && api.clock(d, NVML_CLOCK_MEM, &v) == 0)
		s->mem_clock_mhz = v;
	if (api.temperature && api.temperature(d, NVML_TEMPERATURE_GPU, &v) == 0)
		s->temperature_c = v;
	if (api.power && api.power(d, &v) == 0)
		s->power_w = v / 1000.0;
	if (api.gen && api.gen(d, &v) == 0)
		s->link_gen = (int)v;
	if (api.width && api.width(d, &v) == 0)
		s->link_width = (int)v;
	if (api.max_gen && api.max_gen(d, &v) == 0)
		s->link_max_gen = (int)v;
	if (api.max_width && api.max_width(d, &v) == 0)
		s->link_max_width = (int)v;
	if (api.reasons && api.reasons(d, &reasons) == 0) {
		s->throttle_mask = (long long)reasons;
		throttle_words(reasons, s->throttle, sizeof(s->throttle));
		/* power cap, hardware slowdown, thermal, power brake */
		s->throttled = (reasons & (0x4 | 0x8 | 0x20 | 0x40 | 0x80)) != 0;
	}
	if (api.procs) {
		int rc = hmb_nvml_processes(api.procs, api.procs_stride, d, s);
		if (rc != 0)
			snprintf(t->procs_source, sizeof(t->procs_source), "%s failed (NVML error %d)",
				 api.procs_name, rc);
	}
}

static void nvml_close(struct hmb_telemetry *t)
{
	(void)t;
	if (api.shutdown)
		api.shutdown();
}

const struct hmb_telemetry_backend hmb_telemetry_nvml = { "nvml", nvml_open, nvml_read,
							  nvml_close };
