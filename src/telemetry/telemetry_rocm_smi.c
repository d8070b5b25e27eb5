/*
 * telemetry_rocm_smi.c - AMD's rocm-smi library, opened with dlopen: the
 * fallback where amdsmi is missing. The device is found by its PCI bus id.
 * Clocks are the current entries of the supported-frequency tables; the PCIe
 * link comes from the bandwidth table (transfer rate per lane and lane
 * count); power is the current socket power (rsmi_dev_current_socket_power_get,
 * ROCm 6, what MI300 supports) or else the average; throttle status comes
 * from the GPU metrics table (amd_gpu_metrics.c).
 *
 * The layout of those tables changed between releases (rocm-smi 6 added
 * has_deep_sleep and a 33rd frequency), so it is chosen from the version of
 * the library loaded (rsmi_version_get), never from the headers this was
 * built with; a version not known is refused with one line
 * (amd_smi_layouts.c). The library writes into buffers larger than any known
 * layout. The other calls take and return scalars only.
 * This backend is compiled in CI but has not run on an AMD GPU here.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/amd_gpu_metrics.h"
#include "telemetry/telemetry.h"
#include "telemetry/telemetry_amd.h"

#define RSMI_CLK_TYPE_SYS 0
#define RSMI_CLK_TYPE_MEM 4
#define RSMI_TEMP_TYPE_EDGE 0
#define RSMI_TEMP_CURRENT 0

typedef int (*rsmi_init_t)(uint64_t);
typedef int (*rsmi_count_t)(uint32_t *);
typedef int (*rsmi_u64_t)(uint32_t, uint64_t *);
typedef int (*rsmi_shutdown_t)(void);

static struct {
	struct hmb_rsmi_calls c;
	const struct hmb_rsmi_layout *layout;
	rsmi_shutdown_t shutdown;
	uint32_t index;
	_Alignas(8) unsigned char small[HMB_RSMI_BUFSIZE];
	_Alignas(8) unsigned char buf[HMB_GPU_METRICS_BUFSIZE];
} api;

int hmb_rsmi_use(const struct hmb_rsmi_calls *c, char *why, size_t len)
{
	_Alignas(8) unsigned char v[HMB_VERSION_BUFSIZE] = { 0 };
	uint32_t major, minor, patch;
	int rc;

	api.layout = NULL;
	api.c = *c;
	if (!c->version) {
		snprintf(why, len, "librocm_smi64 lacks rsmi_version_get: version unknown, "
			 "telemetry off");
		return -1;
	}
	if ((rc = c->version(v)) != 0) {
		snprintf(why, len, "rsmi_version_get failed (rsmi status %d), telemetry off", rc);
		return -1;
	}
	/* rsmi_version_t: uint32_t major, minor, patch; const char *build */
	memcpy(&major, v, 4);
	memcpy(&minor, v + 4, 4);
	memcpy(&patch, v + 8, 4);
	api.layout = hmb_rsmi_layout_for(major, minor, patch, c->has_v6_calls, why, len);
	return api.layout ? 0 : -1;
}

const struct hmb_rsmi_layout *hmb_rsmi_layout(void)
{
	return api.layout;
}

static void *open_library(char *why, size_t len)
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

static int rsmi_open(struct hmb_telemetry *t, const char *bus_id)
{
	void *lib = open_library(t->reason, sizeof(t->reason));
	unsigned domain, bus, dev, fn;
	struct hmb_rsmi_calls c;
	rsmi_init_t init;
	rsmi_count_t count;
	rsmi_u64_t pci_id;
	uint32_t n = 0;

	if (!lib)
		return -1;
	t->lib = lib;
	memset(&c, 0, sizeof(c));
	c.version = (int (*)(void *))dlsym(lib, "rsmi_version_get");
	c.clk = (int (*)(uint32_t, int, void *))dlsym(lib, "rsmi_dev_gpu_clk_freq_get");
	c.temp = (int (*)(uint32_t, uint32_t, int, int64_t *))dlsym(lib, "rsmi_dev_temp_metric_get");
	c.power = (int (*)(uint32_t, uint32_t, uint64_t *))dlsym(lib, "rsmi_dev_power_ave_get");
	c.socket_power = (int (*)(uint32_t, uint64_t *))dlsym(lib,
							      "rsmi_dev_current_socket_power_get");
	c.pcie = (int (*)(uint32_t, void *))dlsym(lib, "rsmi_dev_pci_bandwidth_get");
	c.metrics = (int (*)(uint32_t, void *))dlsym(lib, "rsmi_dev_gpu_metrics_info_get");
	c.has_v6_calls = dlsym(lib, "rsmi_dev_activity_metric_get") != NULL;
	if (hmb_rsmi_use(&c, t->reason, sizeof(t->reason)) != 0)
		return -1;
	init = (rsmi_init_t)dlsym(lib, "rsmi_init");
	count = (rsmi_count_t)dlsym(lib, "rsmi_num_monitor_devices");
	pci_id = (rsmi_u64_t)dlsym(lib, "rsmi_dev_pci_id_get");
	api.shutdown = (rsmi_shutdown_t)dlsym(lib, "rsmi_shut_down");
	if (!init || !count || !pci_id || init(0) != 0 || count(&n) != 0) {
		snprintf(t->reason, sizeof(t->reason), "rocm-smi could not be initialised");
		return -1;
	}
	if (!bus_id || sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4) {
		snprintf(t->reason, sizeof(t->reason), "unreadable PCI bus id '%s'",
			 bus_id ? bus_id : "");
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t bdf;
		/* bdfid: domain << 32 | bus << 8 | device << 3 | function */
		if (pci_id(i, &bdf) == 0 && (bdf >> 32) == domain && ((bdf >> 8) & 0xff) == bus &&
		    ((bdf >> 3) & 0x1f) == dev && (bdf & 0x7) == fn) {
			api.index = i;
			return 0;
		}
	}
	snprintf(t->reason, sizeof(t->reason), "rocm-smi has no device at %s", bus_id);
	return -1;
}

static int gen_of_rate(uint64_t transfers_per_s)
{
	double gts = (double)transfers_per_s / 1e9;
	return gts < 3 ? 1 : gts < 6 ? 2 : gts < 10 ? 3 : gts < 20 ? 4 : gts < 40 ? 5 : 6;
}

void hmb_rsmi_sample(uint32_t i, struct hmb_gpu_sample *s)
{
	const struct hmb_rsmi_layout *l = api.layout;
	const struct hmb_rsmi_calls *c = &api.c;
	uint64_t hz, power, rate, max_rate;
	uint32_t lanes, max_lanes;
	int64_t temp;

	if (!l)
		return;
	memset(api.small, 0, sizeof(api.small));
	if (c->clk && c->clk(i, RSMI_CLK_TYPE_SYS, api.small) == 0 &&
	    hmb_rsmi_freq_current(l, api.small, &hz) == 0)
		s->sm_clock_mhz = (double)hz / 1e6;
	memset(api.small, 0, sizeof(api.small));
	if (c->clk && c->clk(i, RSMI_CLK_TYPE_MEM, api.small) == 0 &&
	    hmb_rsmi_freq_current(l, api.small, &hz) == 0)
		s->mem_clock_mhz = (double)hz / 1e6;
	if (c->temp && c->temp(i, RSMI_TEMP_TYPE_EDGE, RSMI_TEMP_CURRENT, &temp) == 0)
		s->temperature_c = (double)temp / 1000.0;       /* millidegrees */
	if (c->socket_power && c->socket_power(i, &power) == 0 && power > 0)  /* microwatts */
		s->power_w = (double)power / 1e6;
	else if (c->power && c->power(i, 0, &power) == 0)
		s->power_w = (double)power / 1e6;
	if (c->metrics) {
		struct hmb_gpu_sample m = *s;
		memset(api.buf, 0xff, sizeof(api.buf));
		if (c->metrics(i, api.buf) == 0 && hmb_gpu_metrics_decode(l->metrics, api.buf, &m)) {
			s->throttle_mask = m.throttle_mask;
			s->throttled = m.throttled;
			memcpy(s->throttle, m.throttle, sizeof(s->throttle));
			if (s->power_w < 0)
				s->power_w = m.power_w;
		}
	}
	memset(api.small, 0, sizeof(api.small));
	if (c->pcie && c->pcie(i, api.small) == 0 &&
	    hmb_rsmi_pcie(l, api.small, &rate, &lanes, &max_rate, &max_lanes) == 0) {
		s->link_gen = gen_of_rate(rate);
		s->link_width = (int)lanes;
		s->link_max_gen = gen_of_rate(max_rate);
		s->link_max_width = (int)max_lanes;
	}
}

static void rsmi_read(struct hmb_telemetry *t, struct hmb_gpu_sample *s)
{
	(void)t;
	hmb_rsmi_sample(api.index, s);
}

static void rsmi_close(struct hmb_telemetry *t)
{
	(void)t;
	if (api.shutdown)
		api.shutdown();
}

const struct hmb_telemetry_backend hmb_telemetry_rocm_smi = { "rocm-smi", rsmi_open, rsmi_read,
							      rsmi_close };
