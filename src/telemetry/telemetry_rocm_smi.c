/*
 * telemetry_rocm_smi.c - the AMD telemetry backend: rocm-smi
 * (librocm_smi64), opened with dlopen so that the binary runs without it,
 * its device found by PCI bus id; each sample (amd_sample.c) takes what a
 * call does not give from sysfs, and where the library is missing or does
 * not know the GPU, everything. With rocm_smi.h each entry point is looked
 * up through the header's declaration of it, whose prototype it must have.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/amd_sysfs.h"
#include "telemetry/telemetry.h"
#include "telemetry/telemetry_amd.h"

typedef hmb_rsmi_status (*rsmi_init_fn)(uint64_t);
typedef hmb_rsmi_status (*rsmi_count_fn)(uint32_t *);
typedef hmb_rsmi_status (*rsmi_void_fn)(void);

/* An entry point by name, as a pointer of the type it is called through;
 * with rocm_smi.h, a type that is not the header's prototype does not build. */
#if HMB_RSMI_HEADER
#define LOOKUP(lib, fn, type) ((void)sizeof(_Generic(&fn, type: 1)), (type)dlsym(lib, #fn))
_Static_assert(RSMI_TEMP_TYPE_EDGE == HMB_RSMI_TEMP_EDGE &&
	       RSMI_TEMP_TYPE_JUNCTION == HMB_RSMI_TEMP_JUNCTION &&
	       RSMI_TEMP_CURRENT == HMB_RSMI_TEMP_CURRENT, "rocm_smi.h's temperature sensors");
#else
#define LOOKUP(lib, fn, type) ((type)dlsym(lib, #fn))
#endif
/* rsmi_dev_current_socket_power_get: rocm-smi 7 (ROCm 6.1) and later */
#if HMB_RSMI_HEADER && rocm_smi_VERSION_MAJOR >= 7
#define LOOKUP_NEW LOOKUP
#else
#define LOOKUP_NEW(lib, fn, type) ((type)dlsym(lib, #fn))
#endif

static rsmi_void_fn shutdown_call;   /* rsmi_shut_down, once rsmi_init succeeded */

void *hmb_rsmi_load(char *why, size_t len)
{
	/* Debian up to 6.4 and ROCm 5.x; ROCm 6.1 and later, Debian 7.x */
	static const char *const names[] = { "librocm_smi64.so.1", "librocm_smi64.so.7",
					     "librocm_smi64.so.5", "librocm_smi64.so" };
	const char *rocm = getenv("ROCM_PATH");
	char path[512];
	void *lib = NULL;

	for (size_t i = 0; !lib && i < sizeof(names) / sizeof(names[0]); i++)
		lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(path, sizeof(path), "%s/lib/librocm_smi64.so",
			 rocm && *rocm ? rocm : "/opt/rocm");
		lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	}
	if (!lib)
		snprintf(why, len, "librocm_smi64 not found: %s", dlerror());
	return lib;
}

/* rocm-smi's index of the device at bus_id: 0, or -1 with one line in why. */
static int find_device(void *lib, const char *bus_id, uint32_t *index, char *why, size_t len)
{
	rsmi_init_fn init = LOOKUP(lib, rsmi_init, rsmi_init_fn);
	rsmi_count_fn count = LOOKUP(lib, rsmi_num_monitor_devices, rsmi_count_fn);
	hmb_rsmi_u64_fn pci_id = LOOKUP(lib, rsmi_dev_pci_id_get, hmb_rsmi_u64_fn);
	unsigned domain, bus, dev, fn;
	hmb_rsmi_status rc;
	uint32_t n = 0;

	if (!init || !count || !pci_id) {
		snprintf(why, len, "librocm_smi64 lacks rsmi_init, rsmi_num_monitor_devices or "
			 "rsmi_dev_pci_id_get");
		return -1;
	}
	if ((rc = init(0)) != 0) {
		snprintf(why, len, "rsmi_init failed (rsmi status %u)", (unsigned)rc);
		return -1;
	}
	shutdown_call = LOOKUP(lib, rsmi_shut_down, rsmi_void_fn);
	sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn);
	for (uint32_t i = 0; count(&n) == 0 && i < n; i++) {
		uint64_t bdf;
		/* bdfid: domain << 32 | partition << 28 | bus << 8 | device << 3 | function */
		if (pci_id(i, &bdf) == 0 && (bdf >> 32) == domain && ((bdf >> 8) & 0xff) == bus &&
		    ((bdf >> 3) & 0x1f) == dev && (bdf & 0x7) == fn) {
			*index = i;
			return 0;
		}
	}
	snprintf(why, len, "rocm-smi has no device at %s", bus_id);
	return -1;
}

static void calls_of(void *lib, struct hmb_rsmi_calls *c)
{
	memset(c, 0, sizeof(*c));
	c->temp = LOOKUP(lib, rsmi_dev_temp_metric_get, hmb_rsmi_temp_fn);
	c->socket_power = LOOKUP_NEW(lib, rsmi_dev_current_socket_power_get, hmb_rsmi_u64_fn);
	c->power_ave = LOOKUP(lib, rsmi_dev_power_ave_get, hmb_rsmi_sensor_u64_fn);
#if HMB_RSMI_HEADER
	c->version = LOOKUP(lib, rsmi_version_get, hmb_rsmi_version_fn);
	c->clk = LOOKUP(lib, rsmi_dev_gpu_clk_freq_get, hmb_rsmi_clk_fn);
	c->pcie = LOOKUP(lib, rsmi_dev_pci_bandwidth_get, hmb_rsmi_pcie_fn);
	c->metrics = LOOKUP(lib, rsmi_dev_gpu_metrics_info_get, hmb_rsmi_metrics_fn);
#endif
}

static void release(struct hmb_telemetry *t)
{
	if (shutdown_call)
		shutdown_call();
	shutdown_call = NULL;
	if (t->lib)
		dlclose(t->lib);
	t->lib = NULL;
}

int hmb_rsmi_open_with(struct hmb_telemetry *t, void *lib, const char *bus_id,
		       const char *sysfs_root)
{
	unsigned domain, bus, dev, fn;
	struct hmb_rsmi_calls c;
	char why[256], dir[320];
	uint32_t index = 0;

	snprintf(why, sizeof(why), "%.255s", t->reason);
	t->reason[0] = '\0';
	t->lib = lib;
	shutdown_call = NULL;
	if (!bus_id || sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4) {
		snprintf(t->reason, sizeof(t->reason), "unreadable PCI bus id '%s'",
			 bus_id ? bus_id : "");
		release(t);
		return -1;
	}
	if (lib && find_device(lib, bus_id, &index, why, sizeof(why)) == 0) {
		calls_of(lib, &c);
		hmb_amd_use(&c, index, bus_id, sysfs_root, t->reason, sizeof(t->reason));
		return 0;
	}
	/* no library to use: the GPU's sysfs folder alone */
	release(t);
	if (hmb_amd_sysfs_dir(bus_id, sysfs_root, dir, sizeof(dir)) != 0) {
		snprintf(t->reason, sizeof(t->reason), "%.255s; no sysfs folder %.200s", why,
			 dir);
		return -1;
	}
	hmb_amd_use(NULL, 0, bus_id, sysfs_root, t->reason, sizeof(t->reason));
	snprintf(t->reason, sizeof(t->reason), "%s: clocks, temperature, power and PCIe link "
		 "from sysfs, no throttle status", why);
	return 0;
}

static int rsmi_open(struct hmb_telemetry *t, const char *bus_id)
{
	return hmb_rsmi_open_with(t, hmb_rsmi_load(t->reason, sizeof(t->reason)), bus_id, NULL);
}

static void rsmi_read(struct hmb_telemetry *t, struct hmb_gpu_sample *s)
{
	(void)t;
	hmb_amd_sample(s);
}

static void rsmi_close(struct hmb_telemetry *t)
{
	(void)t;
	if (shutdown_call)
		shutdown_call();
	shutdown_call = NULL;
}

const struct hmb_telemetry_backend hmb_telemetry_rocm_smi = { "rocm-smi", rsmi_open, rsmi_read,
							      rsmi_close };
