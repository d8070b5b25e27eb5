/*
 * amd_sample.c - one AMD telemetry sample, metric by metric: each from its
 * rocm-smi call, and from sysfs where the call is missing or fails.
 *   clocks       rsmi_dev_gpu_clk_freq_get (the current level, Hz), else
 *                pp_dpm_sclk / pp_dpm_mclk
 *   temperature  rsmi_dev_temp_metric_get, edge else junction (MI300 has
 *                no edge sensor; millidegrees), else hwmon
 *   power        rsmi_dev_current_socket_power_get (what MI300 has), else
 *                rsmi_dev_power_ave_get (uW), else hwmon
 *   PCIe link    rsmi_dev_pci_bandwidth_get (the current level and the
 *                highest), else the PCI device's link files
 *   throttle     rsmi_dev_gpu_metrics_info_get's throttle status; sysfs has
 *                none
 * Structures are the ones of the rocm_smi.h this was built with, used only
 * with a library of its major version (telemetry_amd.h).
 */
#include <stdio.h>
#include <string.h>

#include "system/device.h"
#include "telemetry/amd_sysfs.h"
#include "telemetry/amd_throttle.h"
#include "telemetry/telemetry_amd.h"

static struct {
	struct hmb_rsmi_calls c;
	uint32_t index;
	int tables;                    /* the calls that fill structures may be made */
	char bus_id[64];
	char root[256];                /* "" for /sys */
} dev;

#if HMB_RSMI_HEADER
/* Room for a structure of a newer library of the same major version, which
 * may have grown at its end (rsmi_gpu_metrics_t grew from 7.6 to 7.8). */
static union {
	rsmi_frequencies_t freq;
	rsmi_pcie_bandwidth_t pcie;
	rsmi_gpu_metrics_t metrics;
	unsigned char room[65536];
} buf;

/* The library's version says whether its structures are the header's. */
static int same_major(const struct hmb_rsmi_calls *c, char *note, size_t len)
{
	rsmi_version_t v;

	memset(&v, 0, sizeof(v));
	if (!c->version || c->version(&v) != 0) {
		snprintf(note, len, "librocm_smi64 does not say its version: clocks and PCIe link "
			 "from sysfs, no throttle status");
		return 0;
	}
	if (v.major != rocm_smi_VERSION_MAJOR) {
		snprintf(note, len, "librocm_smi64 %u.%u.%u is not of the major version of the "
			 "rocm_smi.h this was built with (%d.%d.%d): clocks and PCIe link from "
			 "sysfs, no throttle status", (unsigned)v.major, (unsigned)v.minor,
			 (unsigned)v.patch, rocm_smi_VERSION_MAJOR, rocm_smi_VERSION_MINOR,
			 rocm_smi_VERSION_PATCH);
		return 0;
	}
	return 1;
}
#endif

void hmb_amd_use(const struct hmb_rsmi_calls *c, uint32_t index, const char *bus_id,
		 const char *root, char *note, size_t len)
{
	memset(&dev, 0, sizeof(dev));
	note[0] = '\0';
	if (c)
		dev.c = *c;
	dev.index = index;
	snprintf(dev.bus_id, sizeof(dev.bus_id), "%s", bus_id ? bus_id : "");
	snprintf(dev.root, sizeof(dev.root), "%s", root ? root : "");
	if (!c)
		return;
#if HMB_RSMI_HEADER
	dev.tables = same_major(c, note, len);
#else
	snprintf(note, len, "built without rocm_smi.h: clocks and PCIe link from sysfs, "
		 "no throttle status");
#endif
}

#if HMB_RSMI_HEADER
static double table_clock_mhz(rsmi_clk_type_t type)
{
	const rsmi_frequencies_t *f = &buf.freq;

	memset(&buf, 0, sizeof(buf.freq));
	if (!dev.c.clk || dev.c.clk(dev.index, type, &buf.freq) != 0 || f->num_supported == 0 ||
	    f->current >= f->num_supported || f->current >= RSMI_MAX_NUM_FREQUENCIES)
		return -1;
	return (double)f->frequency[f->current] / 1e6;
}

/* The current and the highest level of the link's table: 0, or -1. */
static int table_link(struct hmb_gpu_sample *s)
{
	const rsmi_pcie_bandwidth_t *p = &buf.pcie;
	uint32_t n, cur, max_lanes = 0;
	uint64_t max_rate = 0;

	memset(&buf, 0, sizeof(buf.pcie));
	if (!dev.c.pcie || dev.c.pcie(dev.index, &buf.pcie) != 0)
		return -1;
	n = p->transfer_rate.num_supported;
	cur = p->transfer_rate.current;
	if (n == 0 || n > RSMI_MAX_NUM_FREQUENCIES || cur >= n)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		if (p->transfer_rate.frequency[i] > max_rate)
			max_rate = p->transfer_rate.frequency[i];
		if (p->lanes[i] > max_lanes)
			max_lanes = p->lanes[i];
	}
	s->link_gen = hmb_pcie_gen_of_gts((double)p->transfer_rate.frequency[cur] / 1e9);
	s->link_width = (int)p->lanes[cur];
	s->link_max_gen = hmb_pcie_gen_of_gts((double)max_rate / 1e9);
	s->link_max_width = (int)max_lanes;
	return 0;
}

static void table_throttle(struct hmb_gpu_sample *s)
{
	uint64_t indep = UINT64_MAX;

	/* a field the library did not write reads as "not available" */
	memset(&buf, 0xff, sizeof(buf));
	if (!dev.c.metrics || dev.c.metrics(dev.index, &buf.metrics) != 0)
		return;
#if rocm_smi_VERSION_MAJOR >= 7
	indep = buf.metrics.indep_throttle_status;   /* in the table from rocm-smi 7 (ROCm 6.1) */
#endif
	hmb_amd_throttle(s, indep, buf.metrics.throttle_status);
}
#endif

/* A reading into its field where there is one (-1: none). */
static void keep(double *field, double v)
{
	if (v >= 0)
		*field = v;
}

static double temperature_c(const char *dir)
{
	int64_t milli;

	if (dev.c.temp && (dev.c.temp(dev.index, HMB_RSMI_TEMP_EDGE, HMB_RSMI_TEMP_CURRENT,
				      &milli) == 0 ||
			   dev.c.temp(dev.index, HMB_RSMI_TEMP_JUNCTION, HMB_RSMI_TEMP_CURRENT,
				      &milli) == 0))
		return (double)milli / 1000.0;
	return dir ? hmb_amd_sysfs_temperature_c(dir) : -1;
}

static double power_w(const char *dir)
{
	uint64_t uw;

	if ((dev.c.socket_power && dev.c.socket_power(dev.index, &uw) == 0 && uw > 0) ||
	    (dev.c.power_ave && dev.c.power_ave(dev.index, 0, &uw) == 0 && uw > 0))
		return (double)uw / 1e6;
	return dir ? hmb_amd_sysfs_power_w(dir) : -1;
}

static void sysfs_link(struct hmb_gpu_sample *s)
{
	struct hmb_link l;

	memset(&l, 0, sizeof(l));
	if (hmb_link_from_sysfs(dev.bus_id, &l, dev.root[0] ? dev.root : NULL) != 0)
		return;
	s->link_gen = l.gen;
	s->link_width = l.width;
	s->link_max_gen = l.max_gen;
	s->link_max_width = l.max_width;
}

void hmb_amd_sample(struct hmb_gpu_sample *s)
{
	char folder[320];
	const char *dir = hmb_amd_sysfs_dir(dev.bus_id, dev.root[0] ? dev.root : NULL, folder,
					    sizeof(folder)) == 0 ? folder : NULL;
	double sm = -1, mem = -1;
	int link = -1;

#if HMB_RSMI_HEADER
	if (dev.tables) {
		sm = table_clock_mhz(RSMI_CLK_TYPE_SYS);
		mem = table_clock_mhz(RSMI_CLK_TYPE_MEM);
		link = table_link(s);
		table_throttle(s);
	}
#endif
	if (sm < 0 && dir)
		sm = hmb_amd_sysfs_clock_mhz(dir, "pp_dpm_sclk");
	if (mem < 0 && dir)
		mem = hmb_amd_sysfs_clock_mhz(dir, "pp_dpm_mclk");
	keep(&s->sm_clock_mhz, sm);
	keep(&s->mem_clock_mhz, mem);
	keep(&s->temperature_c, temperature_c(dir));
	keep(&s->power_w, power_w(dir));
	if (link != 0)
		sysfs_link(s);
}
