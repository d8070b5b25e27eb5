/*
 * amd_sysfs.h - an amdgpu GPU's readings from its PCI device folder in
 * sysfs, where rocm-smi is missing or a call of it fails: the current
 * system and memory clock levels (pp_dpm_sclk, pp_dpm_mclk) and the hwmon
 * temperature and power. The PCIe link is system/device.h's
 * hmb_link_from_sysfs.
 */
#ifndef HMB_AMD_SYSFS_H
#define HMB_AMD_SYSFS_H

#include <stddef.h>

/* The GPU's folder, ROOT/bus/pci/devices/DDDD:BB:DD.F (root NULL: /sys),
 * into dir: 0, or -1 for a bus id that cannot be read or a folder that is
 * not there. */
int hmb_amd_sysfs_dir(const char *pci_bus_id, const char *root, char *dir, size_t len);
/* The current level (the line marked '*') of the DPM table `table` of dir
 * ("pp_dpm_sclk", "pp_dpm_mclk") in MHz; -1 where not readable. */
double hmb_amd_sysfs_clock_mhz(const char *dir, const char *table);
/* The temperature in C: the sensor labelled edge, else junction (MI300
 * has no edge sensor), else the first; -1 where not readable. */
double hmb_amd_sysfs_temperature_c(const char *dir);
/* The power in W: power1_input (the current socket power), else
 * power1_average; -1 where not readable. */
double hmb_amd_sysfs_power_w(const char *dir);

#endif
