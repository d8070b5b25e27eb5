/*
 * telemetry_rocm_smi.c - AMD's rocm-smi library, opened with dlopen: the
 * fallback where amdsmi is missing. The device is found by its PCI bus id.
 * Clocks are the current entries of the supported-frequency tables; the PCIe
 * link comes from the bandwidth table (transfer rate per lane and lane
 * count); power is the current socket power (rsmi_dev_current_socket_power_get,
 * ROCm 6, what MI300 supports) or else the average; throttle status comes
 * from the GPU metrics table (amd_gpu_metrics.c).
 * This backend is compiled in CI but has not run on an AMD GPU here.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "amd_gpu_metrics.h"
#include "telemetry.h"

#define RSMI_MAX_FREQ 32
struct rsmi_freq {                     /* rsmi_frequencies_t */
	uint32_t num_supported, current;
	uint64_t frequency[RSMI_MAX_FREQ];
};
struct rsmi_pcie {                     /* rsmi_pcie_bandwidth_t */
	struct rsmi_freq transfer_rate;
	uint32_t lanes[RSMI_MAX_FREQ];
};

#if defined(__has_include)
#if __has_include(<rocm_smi/rocm_smi.h>)
#include <rocm_smi/rocm_smi.h>
/* The mirrors above must match the library's own types. */
_Static_assert(sizeof(struct rsmi_freq) == sizeof(rsmi_frequencies_t), "rsmi_frequencies_t");
_Static_assert(sizeof(struct rsmi_pcie) == sizeof(rsmi_pcie_bandwidth_t), "rsmi_pcie_bandwidth_t");
_Static_assert(RSMI_CLK_TYPE_MEM == 4 && RSMI_TEMP_TYPE_EDGE == 0, "rsmi enums");
#endif
#endif

typedef int (*rsmi_init_t)(uint64_t);
typedef int (*rsmi_count_t)(uint32_t *);
typedef int (*rsmi_u64_t)(uint32_t, uint64_t *);
typedef int (*rsmi_clk_t)(uint32_t, int, struct rsmi_freq *);
typedef int (*rsmi_temp_t)(uint32_t, uint32_t, int, int64_t *);
typedef int (*rsmi_power_t)(uint32_t, uint32_t, uint64_t *);
typedef int (*rsmi_pcie_t)(uint32_t, struct rsmi_pcie *);
typedef int (*rsmi_metrics_t)(uint32_t, void *);
typedef int (*rsmi_shutdown_t)(void);

static struct {
	rsmi_clk_t clk;
	rsmi_temp_t temp;
	rsmi_power_t power;
	rsmi_u64_t socket_power;
	rsmi_pcie_t pcie;
	rsmi_metrics_t metrics;
	rsmi_shutdown_t shutdown;
	uint32_t index;
	_Alignas(8) unsigned char buf[HMB_GPU_METRICS_BUFSIZE];
} api;

static int rsmi_open(struct hmb_telemetry *t, const char *bus_id)
{
	void *lib = dlopen("librocm_smi64.so.1", RTLD_NOW | RTLD_LOCAL);
	unsigned domain, bus, dev, fn;
	rsmi_init_t init;
	rsmi_count_t count;
	rsmi_u64_t pci_id;
	uint32_t n = 0;

	if (!lib)
		lib = dlopen("librocm_smi64.so", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(t->reason, sizeof(t->reason), "librocm_smi64 not found: %s", dlerror());
		return -1;
	}
	t->lib = lib;
	init = (rsmi_init_t)dlsym(lib, "rsmi_init");
	count = (rsmi_count_t)dlsym(lib, "rsmi_num_monitor_devices");
	pci_id = (rsmi_u64_t)dlsym(lib, "rsmi_dev_pci_id_get");
	api.clk = (rsmi_clk_t)dlsym(lib, "rsmi_dev_gpu_clk_freq_get");
	api.temp = (rsmi_temp_t)dlsym(lib, "rsmi_dev_temp_metric_get");
	api.power = (rsmi_power_t)dlsym(lib, "rsmi_dev_power_ave_get");
	api.socket_power = (rsmi_u64_t)dlsym(lib, "rsmi_dev_current_socket_power_get");
	api.pcie = (rsmi_pcie_t)dlsym(lib, "rsmi_dev_pci_bandwidth_get");
	api.metrics = (rsmi_metrics_t)dlsym(lib, "rsmi_dev_gpu_metrics_info_get");
	api.shutdown = (rsmi_shutdown_t)dlsym(lib, "rsmi_shut_down");
	if (!init || !count || !pci_id || init(0) != 0 || count(&n) != 0) {
		snprintf(t->reason, sizeof(t->reason), "rocm-smi could not be initialised");
		return -1;
	}
	if (sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4) {
		snprintf(t->reason, sizeof(t->reason), "unreadable PCI bus id '%s'", bus_id);
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

static void rsmi_read(struct hmb_telemetry *t, struct hmb_gpu_sample *s)
{
	struct rsmi_freq f;
	struct rsmi_pcie bw;
	int64_t temp;
	uint64_t power;
	uint32_t i = api.index;

	(void)t;
	if (api.clk && api.clk(i, 0, &f) == 0 && f.current < RSMI_MAX_FREQ)
		s->sm_clock_mhz = (double)f.frequency[f.current] / 1e6;
	if (api.clk && api.clk(i, 4, &f) == 0 && f.current < RSMI_MAX_FREQ) /* memory clock */
		s->mem_clock_mhz = (double)f.frequency[f.current] / 1e6;
	if (api.temp && api.temp(i, 0, 0, &temp) == 0)  /* edge, current, millidegrees */
		s->temperature_c = (double)temp / 1000.0;
	if (api.socket_power && api.socket_power(i, &power) == 0 && power > 0)  /* microwatts */
		s->power_w = (double)power / 1e6;
	else if (api.power && api.power(i, 0, &power) == 0)
		s->power_w = (double)power / 1e6;
	if (api.metrics) {
		struct hmb_gpu_sample m = *s;
		memset(api.buf, 0xff, sizeof(api.buf));
		if (api.metrics(i, api.buf) == 0 && hmb_gpu_metrics_decode(api.buf, &m)) {
			s->throttle_mask = m.throttle_mask;
			s->throttled = m.throttled;
			memcpy(s->throttle, m.throttle, sizeof(s->throttle));
			if (s->power_w < 0)
				s->power_w = m.power_w;
		}
	}
	if (api.pcie && api.pcie(i, &bw) == 0 && bw.transfer_rate.num_supported > 0 &&
	    bw.transfer_rate.current < RSMI_MAX_FREQ) {
		uint32_t cur = bw.transfer_rate.current, top = bw.transfer_rate.num_supported - 1;
		s->link_gen = gen_of_rate(bw.transfer_rate.frequency[cur]);
		s->link_width = (int)bw.lanes[cur];
		s->link_max_gen = gen_of_rate(bw.transfer_rate.frequency[top]);
		s->link_max_width = (int)bw.lanes[top];
	}
}

static void rsmi_close(struct hmb_telemetry *t)
{
	(void)t;
	if (api.shutdown)
		api.shutdown();
}

const struct hmb_telemetry_backend hmb_telemetry_rocm_smi = { "rocm-smi", rsmi_open, rsmi_read,
							      rsmi_close };
