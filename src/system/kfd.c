/*
 * kfd.c - reading AMD's KFD topology from sysfs. Each node directory has a
 * "properties" file of "key value" lines (kfd_topology.c): a GPU node has
 * simd_count > 0, location_id = bus << 8 | device << 3 | function and
 * domain; a CPU node has cpu_cores_count > 0 and simd_count 0. A node's
 * io_links/M/properties give type, node_to and max_bandwidth (MB/s) of one
 * link. The driver writes type 11 (xGMI) for a GPU "connected to CPU" over
 * Infinity Fabric, type 2 for PCIe (kfd_crat.c).
 * Partitions (kfd_topology.c): where a device has several KFD nodes, each
 * node's location_id carries its partition's node id, ORed into the low
 * (function) bits, or in some kernels into bits 31-28; hive_id is non-zero
 * for GPUs joined by xGMI; gfx_target_version is e.g. 90010 for gfx90a.
 *
 * Only keys are looked up, never positions: keys that older kernels lack
 * (domain, num_sdma_xgmi_engines) read as absent, keys that newer ones add
 * are passed over, a line longer than the buffer is skipped whole, and a
 * value that does not fit an int reads as absent.
 */
#include "system/kfd.h"

#include "system/memmodel.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of `key` in a properties file; -1 when absent. */
static long long prop(const char *path, const char *key)
{
	char line[256], name[128];
	long long v, found = -1;
	int rest = 0;                  /* within the rest of a line too long for line[] */
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		int whole = strchr(line, '\n') != NULL || feof(f);
		int skip = rest || !whole;
		rest = !whole;
		if (skip)
			continue;
		if (sscanf(line, "%127s %lld", name, &v) == 2 && strcmp(name, key) == 0) {
			found = v;
			break;
		}
	}
	fclose(f);
	return found;
}

/* The number a one-number file holds; -1 when absent or not a number. */
static long long number_in(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* A property as an int: -1 when absent or out of range. */
static int prop_int(const char *path, const char *key)
{
	long long v = prop(path, key);
	return v < 0 || v > INT_MAX ? -1 : (int)v;
}

static int is_cpu_node(const char *nodes, long long node)
{
	char path[384];
	snprintf(path, sizeof(path), "%s/%lld/properties", nodes, node);
	return prop(path, "cpu_cores_count") > 0 && prop(path, "simd_count") <= 0;
}

/* The first io-link of GPU node `dir` that reaches a CPU node. */
static void host_link(const char *nodes, const char *dir, struct hmb_kfd_gpu *g)
{
	char links[800], path[1100];
	struct dirent *e;
	DIR *d;
	long best = -1;

	snprintf(links, sizeof(links), "%s/io_links", dir);
	if (!(d = opendir(links)))
		return;
	while ((e = readdir(d))) {
		char *end;
		long idx = strtol(e->d_name, &end, 10);
		long long to;
		if (e->d_name[0] == '.' || *end || (best >= 0 && idx > best))
			continue;
		snprintf(path, sizeof(path), "%s/%s/properties", links, e->d_name);
		to = prop(path, "node_to");
		if (to < 0 || !is_cpu_node(nodes, to))
			continue;
		best = idx;
		g->host_link_type = prop_int(path, "type");
		g->host_link_max_mbs = prop_int(path, "max_bandwidth");
	}
	closedir(d);
}

#define MAX_PARTITIONS 16

/* The partition a GPU node's location_id names (see above), base function 0. */
static long long partition_of(long long location)
{
	return (location >> 28 & 0xf) | (location & 7);
}

/* GPU nodes other than `self` that can keep XNACK from a process. */
static int xnack_blockers(const char *nodes, const char *self)
{
	char path[800];
	struct dirent *e;
	DIR *d = opendir(nodes);
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		long long v;
		if (e->d_name[0] == '.' || strcmp(e->d_name, self) == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/properties", nodes, e->d_name);
		if (prop(path, "simd_count") <= 0)
			continue;
		v = prop(path, "gfx_target_version");
		n += v > 0 && hmb_gfx_xnack_per_process((unsigned)v) == 0;
	}
	closedir(d);
	return n;
}

int hmb_kfd_read(const char *bus_id, int partition, const char *root, struct hmb_kfd_gpu *g)
{
	unsigned domain, bus, dev, fn;
	char nodes[256], dir[768], path[800], found[MAX_PARTITIONS][256];
	long long part[MAX_PARTITIONS], want, loc, hive;
	struct dirent *e;
	DIR *d;
	int n = 0, pick = -1;

	g->host_link_type = g->host_link_max_mbs = g->sdma_engines = g->sdma_xgmi_engines = -1;
	g->xgmi_hive = g->xnack_blockers = -1;
	g->gpu_id = -1;
	if (!bus_id || sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4)
		return -1;
	snprintf(nodes, sizeof(nodes), "%s/class/kfd/kfd/topology/nodes", root ? root : "/sys");
	if (!(d = opendir(nodes)))
		return -1;
	/* Every GPU node at this bus and device number: the GPU, or its partitions. */
	loc = (long long)(bus << 8 | dev << 3);
	while (n < MAX_PARTITIONS && (e = readdir(d))) {
		long long dom, l;
		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(found[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s/properties", nodes, e->d_name);
		if (prop(path, "simd_count") <= 0 || ((l = prop(path, "location_id")) & 0x0ffffff8) != loc)
			continue;
		dom = prop(path, "domain");  /* older kernels lack it: domain 0 */
		if ((dom < 0 ? 0 : dom) != (long long)domain)
			continue;
		snprintf(found[n], sizeof(found[n]), "%s", e->d_name);
		part[n++] = partition_of(l);
	}
	closedir(d);
	/* HIP's bus id names the partition in its function where KFD's does;
	 * otherwise the caller's partition index picks among several nodes. */
	want = fn ? (long long)fn : partition;
	for (int i = 0; i < n; i++)
		if (n == 1 || part[i] == want)
			pick = i;
	if (pick < 0)
		return -1;
	snprintf(dir, sizeof(dir), "%s/%s", nodes, found[pick]);
	snprintf(path, sizeof(path), "%s/properties", dir);
	g->sdma_engines = prop_int(path, "num_sdma_engines");
	g->sdma_xgmi_engines = prop_int(path, "num_sdma_xgmi_engines");
	hive = prop(path, "hive_id");
	g->xgmi_hive = hive < 0 ? -1 : hive != 0;
	host_link(nodes, dir, g);
	g->xnack_blockers = xnack_blockers(nodes, found[pick]);
	snprintf(path, sizeof(path), "%s/gpu_id", dir);
	g->gpu_id = number_in(path);
	return 0;
}

int hmb_kfd_processes(long long gpu_id, const char *root, long *pids, long long *bytes,
		      int max)
{
	char procs[256], path[600];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(procs, sizeof(procs), "%s/class/kfd/kfd/proc", root ? root : "/sys");
	if (gpu_id <= 0 || !(d = opendir(procs)))
		return -1;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		long long vram;
		if (end == e->d_name || *end || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/vram_%lld", procs, e->d_name, gpu_id);
		if ((vram = number_in(path)) <= 0)
			continue;
		if (n < max) {
			pids[n] = pid;
			bytes[n] = vram;
		}
		n++;
	}
	closedir(d);
	return n;
}

int hmb_kfd_common_arch(const char *root, char *buf, size_t len)
{
	char nodes[256], path[600];
	struct dirent *e;
	DIR *d;
	long long common = -1;
	int n = 0;

	snprintf(nodes, sizeof(nodes), "%s/class/kfd/kfd/topology/nodes", root ? root : "/sys");
	if (!(d = opendir(nodes)))
		return -1;
	while ((e = readdir(d))) {
		long long v;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/properties", nodes, e->d_name);
		if (prop(path, "simd_count") <= 0)
			continue;
		v = prop(path, "gfx_target_version");
		if (v <= 0 || (n++ && v != common))
			common = 0; /* unreadable, or GPUs of several kinds */
		else if (common)
			common = v;
	}
	closedir(d);
	if (common <= 0 || common > 999999)
		return -1;
	/* 90010: major 9, minor 0, stepping 10 (one hexadecimal digit each): gfx90a */
	snprintf(buf, len, "gfx%lld%llx%llx", common / 10000, common / 100 % 100, common % 100);
	return 0;
}
