/*
 * pcie_link.c - a GPU's PCIe link from Linux sysfs, or from the generation
 * and width a management library read, and its theoretical peak; its max
 * payload and max read request sizes from the config space, and its IOMMU
 * domain. Host code only: no GPU runtime is needed to read or test it.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "system/device.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/memmodel.h"

int hmb_pcie_gen_of_gts(double gts)
{
	static const double rates[] = { 2.5, 5.0, 8.0, 16.0, 32.0, 64.0 };
	for (int i = 0; i < 6; i++)
		if (gts > rates[i] - 0.1 && gts < rates[i] + 0.1)
			return i + 1;
	return -1;
}

double hmb_pcie_peak_gbps(double gts, int width)
{
	return hmb_pcie_gen_peak_gbps(hmb_pcie_gen_of_gts(gts), width);
}

void hmb_link_from_generation(struct hmb_link *link, int gen, int width, int max_gen,
			      int max_width, const char *source)
{
	static const double rates[] = { 2.5, 5.0, 8.0, 16.0, 32.0, 64.0 };

	if (gen < 1 || gen > 6 || width < 1)
		return;
	link->gen = gen;
	link->width = width;
	link->max_gen = max_gen;
	link->max_width = max_width;
	link->gts = rates[gen - 1];
	link->peak_gbps = hmb_pcie_gen_peak_gbps(max_gen, max_width);
	if (link->peak_gbps <= 0)
		link->peak_gbps = hmb_pcie_gen_peak_gbps(gen, width);
	snprintf(link->source, sizeof(link->source), "%s", source);
}

static int read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Maximum speed (GT/s) and width in a PCI device directory; 0 where absent. */
static void read_max(const char *dir, double *gts, int *width)
{
	char path[PATH_MAX + 32], buf[64];

	*gts = 0;
	*width = 0;
	snprintf(path, sizeof(path), "%s/max_link_speed", dir);
	if (read_first_line(path, buf, sizeof(buf)) || sscanf(buf, "%lf", gts) != 1)
		*gts = 0;
	snprintf(path, sizeof(path), "%s/max_link_width", dir);
	if (read_first_line(path, buf, sizeof(buf)) || sscanf(buf, "%d", width) != 1)
		*width = 0;
}

/* The link's maximum is the lesser of what the GPU and the port above it
 * (its parent directory in /sys/devices) can do: a gen5 GPU in a gen4 slot
 * trains to gen4 at best. */
int hmb_link_from_sysfs(const char *bus_id, struct hmb_link *link, const char *root)
{
	unsigned domain, bus, slot, fn;
	char dir[256], path[320], buf[64], real[PATH_MAX], *slash;
	double cur_gts, max_gts, up_gts;
	int max_width, up_width;

	if (!bus_id || sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &slot, &fn) != 4)
		return -1;
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%04x:%02x:%02x.%x", root ? root : "/sys",
		 domain, bus, slot, fn);
	snprintf(path, sizeof(path), "%s/current_link_speed", dir);
	if (read_first_line(path, buf, sizeof(buf)) || sscanf(buf, "%lf", &cur_gts) != 1)
		return -1;
	snprintf(path, sizeof(path), "%s/current_link_width", dir);
	if (read_first_line(path, buf, sizeof(buf)) || sscanf(buf, "%d", &link->width) != 1)
		return -1;
	link->gts = cur_gts;
	link->gen = hmb_pcie_gen_of_gts(cur_gts);
	read_max(dir, &max_gts, &max_width);
	if (realpath(dir, real) && (slash = strrchr(real, '/')) && slash != real) {
		*slash = '\0';
		read_max(real, &up_gts, &up_width);
		if (up_gts > 0 && (max_gts <= 0 || up_gts < max_gts))
			max_gts = up_gts;
		if (up_width > 0 && (max_width <= 0 || up_width < max_width))
			max_width = up_width;
	}
	link->max_gen = max_gts > 0 ? hmb_pcie_gen_of_gts(max_gts) : -1;
	link->max_width = max_width > 0 ? max_width : -1;
	if (link->max_gen > 0 && link->max_width > 0)
		link->peak_gbps = hmb_pcie_peak_gbps(max_gts, link->max_width);
	else
		link->peak_gbps = hmb_pcie_peak_gbps(cur_gts, link->width);
	snprintf(link->source, sizeof(link->source), "sysfs");
	return 0;
}

void hmb_pcie_decode_control(unsigned devcap, unsigned devctl, struct hmb_link *link)
{
	unsigned supported = devcap & 7, payload = (devctl >> 5) & 7, request = (devctl >> 12) & 7;

	/* 128 << n bytes; encodings 6 and 7 are reserved */
	link->max_payload_supported = supported <= 5 ? 128 << supported : 0;
	link->max_payload = payload <= 5 ? 128 << payload : 0;
	link->max_read_request = request <= 5 ? 128 << request : 0;
}

/* The PCI Express capability's device capabilities and control registers
 * from a config space image of len bytes: 0, or -1 (not there, or beyond
 * what could be read). */
static int pcie_capability(const unsigned char *cfg, size_t len, unsigned *devcap,
			   unsigned *devctl)
{
	unsigned at;

	if (len < 0x40 || !(cfg[0x06] & 0x10)) /* status: capabilities list */
		return -1;
	at = cfg[0x34] & 0xfc;
	for (int hops = 0; at >= 0x40 && hops < 48; hops++) {
		if (at + 12 > len)
			return -1;
		if (cfg[at] == 0x10) { /* PCI Express */
			*devcap = cfg[at + 4] | cfg[at + 5] << 8 | cfg[at + 6] << 16 |
				  (unsigned)cfg[at + 7] << 24;
			*devctl = cfg[at + 8] | cfg[at + 9] << 8;
			return 0;
		}
		at = cfg[at + 1] & 0xfc;
	}
	return -1;
}

void hmb_link_settings_from_sysfs(const char *bus_id, struct hmb_link *link, const char *root)
{
	unsigned domain, bus, slot, fn, devcap, devctl;
	char dir[256], path[320];
	unsigned char cfg[256];
	size_t len = 0;
	FILE *f;

	link->max_payload = link->max_payload_supported = link->max_read_request = 0;
	link->iommu_domain[0] = '\0';
	snprintf(link->config_note, sizeof(link->config_note), "no PCI bus id");
	if (!bus_id || sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &slot, &fn) != 4)
		return;
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%04x:%02x:%02x.%x", root ? root : "/sys",
		 domain, bus, slot, fn);
	snprintf(path, sizeof(path), "%s/iommu_group/type", dir);
	if (read_first_line(path, link->iommu_domain, sizeof(link->iommu_domain)) != 0)
		link->iommu_domain[0] = '\0';
	snprintf(path, sizeof(path), "%s/config", dir);
	if ((f = fopen(path, "rb"))) {
		len = fread(cfg, 1, sizeof(cfg), f);
		fclose(f);
	}
	if (!f)
		snprintf(link->config_note, sizeof(link->config_note), "no config space in sysfs");
	else if (pcie_capability(cfg, len, &devcap, &devctl) != 0)
		snprintf(link->config_note, sizeof(link->config_note),
			 len <= 64 ? "config space beyond 64 bytes is readable by root only"
				   : "no PCI Express capability in the config space");
	else {
		hmb_pcie_decode_control(devcap, devctl, link);
		link->config_note[0] = '\0';
	}
}
