/*
 * json_read.h - reading documents back (json_read.c): every command reads one
 * with hmb_doc_load, then takes it into records (json_import.h).
 */
#ifndef HMB_JSON_READ_H
#define HMB_JSON_READ_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* The document at path ("-": stdin) read whole (NUL-free, at most 512 MiB),
 * parsed as one hipmembench document and checked before any use: how every
 * command reads one. NULL with a reason naming the file. */
cJSON *hmb_doc_load(const char *path, char *err, size_t errlen);
/* A member's string ("?" where absent or not a string) or number (-1 where absent). */
const char *hmb_json_str(const cJSON *o, const char *key);
double hmb_json_num(const cJSON *o, const char *key);
/* A device object's peaks, GB/s, 0 where it does not say: its host link's per
 * direction (host_link.peak_gbps, else pcie_link.peak_gbps_per_direction) and
 * its memory's (memory_clock_khz and memory_bus_width_bits: hmb_hbm_peak_gbps). */
double hmb_device_link_peak(const cJSON *device);
double hmb_device_hbm_peak(const cJSON *device);

#endif
