/*
 * amd_sysfs.c - what the amdgpu driver shows of a GPU in sysfs (its PCI
 * device folder and the hwmon folder in it): clock levels, temperature
 * and power, for the AMD telemetry where rocm-smi cannot say.
 */
#include "telemetry/amd_sysfs.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PATH_LEN 512

int hmb_amd_sysfs_dir(const char *bus_id, const char *root, char *dir, size_t len)
{
	unsigned domain, bus, slot, fn;
	struct stat st;

	if (!bus_id || sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &slot, &fn) != 4)
		return -1;
	snprintf(dir, len, "%s/bus/pci/devices/%04x:%02x:%02x.%x", root ? root : "/sys", domain,
		 bus, slot, fn);
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

/* The first number in file dir/name: 0, or -1. */
static int read_number(const char *dir, const char *name, double *v)
{
	char path[PATH_LEN];
	FILE *f;
	int ok;

	/* a path too long for the buffer is not opened cut short */
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path) ||
	    !(f = fopen(path, "r")))
		return -1;
	ok = fscanf(f, "%lf", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

double hmb_amd_sysfs_clock_mhz(const char *dir, const char *table)
{
	char path[PATH_LEN], line[128];
	double mhz = -1;
	FILE *f;

	if (!dir)
		return -1;
	if (snprintf(path, sizeof(path), "%s/%s", dir, table) >= (int)sizeof(path) ||
	    !(f = fopen(path, "r")))
		return -1;
	/* "0: 800Mhz", "1: 1700Mhz *", ...; "S: 19Mhz *" in deep sleep */
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (colon && strchr(line, '*')) {
			mhz = strtod(colon + 1, NULL);
			break;
		}
	}
	fclose(f);
	return mhz > 0 ? mhz : -1;
}

/* The GPU's hwmon folder (dir/hwmon/hwmonN) into out: 0, or -1. */
static int hwmon_dir(const char *dir, char *out, size_t len)
{
	char path[PATH_LEN];
	struct dirent *e;
	DIR *d;
	int found = -1;

	if (!dir)
		return -1;
	if (snprintf(path, sizeof(path), "%s/hwmon", dir) >= (int)sizeof(path) ||
	    !(d = opendir(path)))
		return -1;
	while (found < 0 && (e = readdir(d)))
		if (strncmp(e->d_name, "hwmon", 5) == 0 &&
		    snprintf(out, len, "%s/%s", path, e->d_name) < (int)len)
			found = 0;
	closedir(d);
	return found;
}

double hmb_amd_sysfs_temperature_c(const char *dir)
{
	static const char *const labels[] = { "edge", "junction" };
	char hw[PATH_LEN], name[32], label[32];
	double milli;

	if (hwmon_dir(dir, hw, sizeof(hw)) != 0)
		return -1;
	for (size_t k = 0; k < sizeof(labels) / sizeof(labels[0]); k++)
		for (int i = 1; i <= 8; i++) {
			char path[PATH_LEN + 32];
			FILE *f;
			int match;
			if (snprintf(path, sizeof(path), "%s/temp%d_label", hw, i) >=
				    (int)sizeof(path) ||
			    !(f = fopen(path, "r")))
				continue;
			match = fgets(label, sizeof(label), f) &&
				strncmp(label, labels[k], strlen(labels[k])) == 0;
			fclose(f);
			snprintf(name, sizeof(name), "temp%d_input", i);
			if (match && read_number(hw, name, &milli) == 0)
				return milli / 1000.0;
		}
	return read_number(hw, "temp1_input", &milli) == 0 ? milli / 1000.0 : -1;
}

double hmb_amd_sysfs_power_w(const char *dir)
{
	char hw[PATH_LEN];
	double uw;

	if (hwmon_dir(dir, hw, sizeof(hw)) != 0)
		return -1;
	if ((read_number(hw, "power1_input", &uw) == 0 && uw > 0) ||
	    (read_number(hw, "power1_average", &uw) == 0 && uw > 0))
		return uw / 1e6;
	return -1;
}
