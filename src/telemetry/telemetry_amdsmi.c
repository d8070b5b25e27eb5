/*
 * telemetry_amdsmi.c - AMD's amdsmi library (libamd_smi, ROCm 6.0 and
 * later), opened with dlopen. The calls used take opaque handles, a 64-bit
 * bus id or a buffer (amdsmi.h of libamd-smi-dev 10.1, checked by
 * tests/check_amd_layouts.sh): amdsmi_get_lib_version(amdsmi_version_t *),
 * amdsmi_init(uint64_t flags), amdsmi_shut_down(void),
 * amdsmi_get_processor_handle_from_bdf(amdsmi_bdf_t, amdsmi_processor_handle *),
 * amdsmi_get_socket_handles(uint32_t *, amdsmi_socket_handle *),
 * amdsmi_get_processor_handles(amdsmi_socket_handle, uint32_t *,
 * amdsmi_processor_handle *), amdsmi_get_gpu_device_bdf(amdsmi_processor_handle,
 * amdsmi_bdf_t *) and amdsmi_get_gpu_metrics_info(amdsmi_processor_handle,
 * amdsmi_gpu_metrics_t *). Status 0 is success.
 *
 * Everything is read from the GPU metrics table (amd_gpu_metrics.c): clocks,
 * temperature, socket power (current on MI300, where the average is not
 * supported), current PCIe link and throttle status. Its layout changes
 * between amdsmi versions (27 widened two counters, moving every later field),
 * so it is chosen from the version of the library loaded
 * (amdsmi_get_lib_version); a version not known is refused with one line,
 * before amdsmi_init, and rocm-smi is tried instead. The link's maximum is
 * the sysfs one, read once at open. Compiled in CI; not run on an AMD GPU here.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/device.h"
#include "telemetry/amd_gpu_metrics.h"
#include "telemetry/telemetry.h"
#include "telemetry/telemetry_amd.h"

#define AMDSMI_INIT_AMD_GPUS (1u << 1)  /* amdsmi_init_flags_t */

/* amdsmi_bdf_t: a union of uint64_t and the bit fields function:3,
 * device:5, bus:8, domain:48, the first field in the lowest bits. */
typedef union {
	uint64_t as_uint;
} hmb_amdsmi_bdf;
_Static_assert(sizeof(hmb_amdsmi_bdf) == 8, "amdsmi_bdf_t is 64 bits");

typedef int (*amdsmi_init_t)(uint64_t);
typedef int (*amdsmi_void_t)(void);
typedef int (*amdsmi_from_bdf_t)(hmb_amdsmi_bdf, void **);
typedef int (*amdsmi_sockets_t)(uint32_t *, void **);
typedef int (*amdsmi_processors_t)(void *, uint32_t *, void **);
typedef int (*amdsmi_bdf_of_t)(void *, hmb_amdsmi_bdf *);

static struct {
	struct hmb_amdsmi_calls c;
	const struct hmb_metrics_layout *layout;
	amdsmi_void_t shutdown;
	int max_gen, max_width;
	/* the metrics table, larger than any release's (see amd_gpu_metrics.h) */
	_Alignas(8) unsigned char buf[HMB_GPU_METRICS_BUFSIZE];
} api;

int hmb_amdsmi_use(const struct hmb_amdsmi_calls *c, char *why, size_t len)
{
	_Alignas(8) unsigned char v[HMB_VERSION_BUFSIZE] = { 0 };
	uint32_t major, minor, release;
	int rc;

	api.layout = NULL;
	api.c = *c;
	if (!c->version || !c->metrics) {
		snprintf(why, len, "libamd_smi lacks amdsmi_get_lib_version or "
			 "amdsmi_get_gpu_metrics_info");
		return -1;
	}
	if ((rc = c->version(v)) != 0) {
		snprintf(why, len, "amdsmi_get_lib_version failed (amdsmi status %d)", rc);
		return -1;
	}
	/* amdsmi_version_t: uint32_t major, minor, release; const char *build */
	memcpy(&major, v, 4);
	memcpy(&minor, v + 4, 4);
	memcpy(&release, v + 8, 4);
	api.layout = hmb_amdsmi_layout_for(major, minor, release, why, len);
	return api.layout ? 0 : -1;
}

const struct hmb_metrics_layout *hmb_amdsmi_layout(void)
{
	return api.layout;
}

void hmb_amdsmi_sample(void *dev, struct hmb_gpu_sample *s)
{
	if (!api.layout)
		return;
	memset(api.buf, 0xff, sizeof(api.buf));
	if (api.c.metrics(dev, api.buf) == 0)
		hmb_gpu_metrics_decode(api.layout, api.buf, s);
}

static uint64_t bdf_value(unsigned domain, unsigned bus, unsigned dev, unsigned fn)
{
	return (uint64_t)domain << 16 | (uint64_t)(bus & 0xff) << 8 | (dev & 0x1f) << 3 | (fn & 7);
}

static void *open_library(char *why, size_t len)
{
	const char *rocm = getenv("ROCM_PATH");
	char path[512];
	/* the only version known (27), then whatever the development link names */
	void *lib = dlopen("libamd_smi.so.27", RTLD_NOW | RTLD_LOCAL);

	if (!lib)
		lib = dlopen("libamd_smi.so", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(path, sizeof(path), "%s/lib/libamd_smi.so", rocm && *rocm ? rocm : "/opt/rocm");
		lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	}
	if (!lib)
		snprintf(why, len, "libamd_smi not found: %s", dlerror());
	return lib;
}

/* The processor whose bus id is `want`, by listing every GPU. */
static void *find_by_listing(void *lib, uint64_t want)
{
	amdsmi_sockets_t sockets = (amdsmi_sockets_t)dlsym(lib, "amdsmi_get_socket_handles");
	amdsmi_processors_t procs = (amdsmi_processors_t)dlsym(lib, "amdsmi_get_processor_handles");
	amdsmi_bdf_of_t bdf_of = (amdsmi_bdf_of_t)dlsym(lib, "amdsmi_get_gpu_device_bdf");
	void *sock[64], *proc[64];
	uint32_t ns = 64;

	if (!sockets || !procs || !bdf_of || sockets(&ns, sock) != 0)
		return NULL;
	for (uint32_t i = 0; i < ns && i < 64; i++) {
		uint32_t np = 64;
		if (procs(sock[i], &np, proc) != 0)
			continue;
		for (uint32_t j = 0; j < np && j < 64; j++) {
			hmb_amdsmi_bdf b;
			if (bdf_of(proc[j], &b) == 0 && b.as_uint == want)
				return proc[j];
		}
	}
	return NULL;
}

static int amdsmi_open(struct hmb_telemetry *t, const char *bus_id)
{
	unsigned domain, bus, dev, fn;
	amdsmi_init_t init;
	amdsmi_from_bdf_t from_bdf;
	struct hmb_amdsmi_calls c;
	struct hmb_link link = { .max_gen = -1, .max_width = -1 };
	hmb_amdsmi_bdf want;
	void *lib = open_library(t->reason, sizeof(t->reason));
	int rc;

	if (!lib)
		return -1;
	t->lib = lib;
	memset(&c, 0, sizeof(c));
	c.version = (int (*)(void *))dlsym(lib, "amdsmi_get_lib_version");
	c.metrics = (int (*)(void *, void *))dlsym(lib, "amdsmi_get_gpu_metrics_info");
	if (hmb_amdsmi_use(&c, t->reason, sizeof(t->reason)) != 0)
		return -1;
	init = (amdsmi_init_t)dlsym(lib, "amdsmi_init");
	api.shutdown = (amdsmi_void_t)dlsym(lib, "amdsmi_shut_down");
	from_bdf = (amdsmi_from_bdf_t)dlsym(lib, "amdsmi_get_processor_handle_from_bdf");
	if (!init) {
		snprintf(t->reason, sizeof(t->reason), "libamd_smi lacks amdsmi_init");
		return -1;
	}
	if ((rc = init(AMDSMI_INIT_AMD_GPUS)) != 0) {
		snprintf(t->reason, sizeof(t->reason), "amdsmi_init failed (amdsmi status %d)", rc);
		return -1;
	}
	if (!bus_id || sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4) {
		snprintf(t->reason, sizeof(t->reason), "unreadable PCI bus id '%s'",
			 bus_id ? bus_id : "");
		if (api.shutdown)
			api.shutdown();
		return -1;
	}
	want.as_uint = bdf_value(domain, bus, dev, fn);
	t->dev = NULL;
	if (!from_bdf || from_bdf(want, &t->dev) != 0 || !t->dev)
		t->dev = find_by_listing(lib, want.as_uint);
	if (!t->dev) {
		snprintf(t->reason, sizeof(t->reason), "amdsmi has no GPU at %s", bus_id);
		if (api.shutdown)
			api.shutdown();
		return -1;
	}
	hmb_link_from_sysfs(bus_id, &link, NULL);
	api.max_gen = link.max_gen;
	api.max_width = link.max_width;
	return 0;
}

static void amdsmi_read(struct hmb_telemetry *t, struct hmb_gpu_sample *s)
{
	hmb_amdsmi_sample(t->dev, s);
	s->link_max_gen = api.max_gen;
	s->link_max_width = api.max_width;
}

static void amdsmi_close(struct hmb_telemetry *t)
{
	(void)t;
	if (api.shutdown)
		api.shutdown();
}

const struct hmb_telemetry_backend hmb_telemetry_amdsmi = { "amdsmi", amdsmi_open, amdsmi_read,
							    amdsmi_close };
