/*
 * test_environment.c - the settings that change figures, read from a fake
 * /sys and /proc: CPU governor (one, mixed, none), transparent huge pages,
 * NUMA balancing, IOMMU units and kernel options; and the PCIe max payload
 * and max read request from a config space image, or why they are unknown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "system/device.h"
#include "system/host.h"

/* Write len bytes to root/rel, making the folders on the way. */
static void put(const char *root, const char *rel, const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	if ((f = fopen(path, "wb"))) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

static void put_text(const char *root, const char *rel, const char *text)
{
	put(root, rel, text, strlen(text));
}

void test_host_environment(void)
{
	char root[] = "/tmp/hmb-env-XXXXXX", bare[] = "/tmp/hmb-env-XXXXXX";
	struct hmb_host h;

	if (!mkdtemp(root) || !mkdtemp(bare)) {
		CHECK(!"mkdtemp");
		return;
	}
	put_text(root, "sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	put_text(root, "sys/kernel/mm/transparent_hugepage/defrag",
		 "always [defer] defer+madvise madvise never\n");
	put_text(root, "proc/sys/kernel/numa_balancing", "1\n");
	put_text(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put_text(root, "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
	put_text(root, "sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "powersave\n");
	put_text(root, "sys/class/iommu/dmar0/x", "");
	put_text(root, "sys/class/iommu/dmar1/x", "");
	put_text(root, "proc/cmdline", "BOOT_IMAGE=/vmlinuz ro intel_iommu=on iommu=pt quiet\n");

	memset(&h, 0, sizeof(h));
	hmb_host_probe_environment(&h, root);
	CHECK(strcmp(h.thp, "madvise") == 0);
	CHECK(strcmp(h.thp_defrag, "defer") == 0);   /* its own file, not enabled's */
	CHECK(h.numa_balancing == 1);
	CHECK(strcmp(h.cpu_governor, "performance") == 0);
	CHECK(h.iommu_units == 2);
	CHECK(strcmp(h.iommu_options, "intel_iommu=on iommu=pt") == 0);

	/* one CPU on another governor is named, with the counts */
	put_text(root, "sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "powersave\n");
	hmb_host_probe_environment(&h, root);
	CHECK(strstr(h.cpu_governor, "mixed: ") == h.cpu_governor);
	CHECK(strstr(h.cpu_governor, "performance (2)") && strstr(h.cpu_governor, "powersave (1)"));

	/* nothing there (a VM without cpufreq, a container): unknown, not zero */
	memset(&h, 0, sizeof(h));
	hmb_host_probe_environment(&h, bare);
	CHECK(h.thp[0] == '\0' && h.cpu_governor[0] == '\0' && h.iommu_options[0] == '\0');
	CHECK(h.numa_balancing == -1 && h.iommu_units == -1);
	hmb_test_remove_tree(root);
	hmb_test_remove_tree(bare);
}

void test_pcie_settings(void)
{
	char root[] = "/tmp/hmb-pci-XXXXXX";
	const char *dev = "bus/pci/devices/0000:c1:00.0";
	unsigned char cfg[256];
	char rel[128];
	struct hmb_link l;

	/* decoding: payload 128 << n, reserved encodings unknown */
	memset(&l, 0, sizeof(l));
	hmb_pcie_decode_control(0x2 /* 512 B */, 0x1 << 5 | 0x2 << 12, &l);
	CHECK(l.max_payload_supported == 512 && l.max_payload == 256 && l.max_read_request == 512);
	hmb_pcie_decode_control(0x7, 0x5 << 5 | 0x7 << 12, &l);
	CHECK(l.max_payload_supported == 0 && l.max_payload == 4096 && l.max_read_request == 0);

	if (!mkdtemp(root)) {
		CHECK(!"mkdtemp");
		return;
	}
	/* a config space with a power-management capability, then PCI Express */
	memset(cfg, 0, sizeof(cfg));
	cfg[0x06] = 0x10;                  /* status: a capabilities list */
	cfg[0x34] = 0x48;
	cfg[0x48] = 0x01, cfg[0x49] = 0x60; /* power management -> 0x60 */
	cfg[0x60] = 0x10, cfg[0x61] = 0x00; /* PCI Express, last */
	cfg[0x64] = 0x05;                   /* devcap: 4096 B supported */
	cfg[0x68] = 0x2 << 5;               /* devctl: payload 512 B */
	cfg[0x69] = 0x5 << 4;               /* devctl bits 14:12 = 5: read request 4096 B */
	snprintf(rel, sizeof(rel), "%s/config", dev);
	put(root, rel, cfg, sizeof(cfg));
	snprintf(rel, sizeof(rel), "%s/iommu_group/type", dev);
	put_text(root, rel, "identity\n");
	hmb_link_settings_from_sysfs("00000000:C1:00.0", &l, root);
	CHECK(l.max_payload == 512 && l.max_payload_supported == 4096);
	CHECK(l.max_read_request == 4096);
	CHECK(l.config_note[0] == '\0');
	CHECK(strcmp(l.iommu_domain, "identity") == 0);

	/* what a user who is not root reads: the first 64 bytes */
	snprintf(rel, sizeof(rel), "%s/config", dev);
	put(root, rel, cfg, 64);
	hmb_link_settings_from_sysfs("0000:c1:00.0", &l, root);
	CHECK(l.max_payload == 0 && l.max_read_request == 0);
	CHECK(strstr(l.config_note, "root") != NULL);

	/* a capability chain that loops never hangs */
	cfg[0x61] = 0x48, cfg[0x60] = 0x09;
	put(root, rel, cfg, sizeof(cfg));
	hmb_link_settings_from_sysfs("0000:c1:00.0", &l, root);
	CHECK(l.max_payload == 0 && strstr(l.config_note, "no PCI Express") != NULL);

	hmb_link_settings_from_sysfs("garbage", &l, root);
	CHECK(l.max_payload == 0 && l.config_note[0] && l.iommu_domain[0] == '\0');
	hmb_test_remove_tree(root);
}
