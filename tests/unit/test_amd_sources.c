/*
 * test_amd_sources.c - where the memory model's facts come from, on fake
 * sysfs trees: the KFD topology (host link type, SDMA
 * engines; keys of older and newer kernels), the PCIe link's maximum capped
 * by its upstream port, allocating kinds that this platform lacks, and the
 * device object of the JSON document (the AMD telemetry's sources are in
 * test_amd_telemetry.c).
 */
#define _XOPEN_SOURCE 700
#include <cjson/cJSON.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doc/json_write.h"
#include "engine/report.h"
#include "fake_devices.h"
#include "harness.h"
#include "system/kfd.h"
#include "system/memalloc.h"

/* Write `text` to root/<path made from fmt>, creating the directories on the way. */
static void put(const char *root, const char *text, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void put(const char *root, const char *text, const char *fmt, ...)
{
	char path[512], rel[256];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	if ((f = fopen(path, "w"))) {
		fputs(text, f);
		fclose(f);
	}
}

void test_kfd_topology(void)
{
	char root[] = "/tmp/hmb-kfd-XXXXXX";
	struct hmb_kfd_gpu g;
	const char *n = "class/kfd/kfd/topology/nodes";

	if (!mkdtemp(root)) {
		CHECK(!"mkdtemp");
		return;
	}
	/* node 0: the CPU; node 1: a GPU at 0000:c1:00.0 linked to it over xGMI
	 * (and to node 2, a second GPU); node 2 at 0000:d1:00.0 over PCIe. */
	put(root, "cpu_cores_count 64\nsimd_count 0\nlocation_id 0\n", "%s/0/properties", n);
	put(root, "cpu_cores_count 0\nsimd_count 440\nlocation_id 49408\ndomain 0\n"
	    "num_sdma_engines 2\nnum_sdma_xgmi_engines 3\n", "%s/1/properties", n);
	put(root, "type 11\nnode_from 1\nnode_to 2\nmax_bandwidth 50000\n",
	    "%s/1/io_links/0/properties", n);
	put(root, "type 11\nnode_from 1\nnode_to 0\nmin_bandwidth 36000\nmax_bandwidth 36000\n",
	    "%s/1/io_links/1/properties", n);
	put(root, "cpu_cores_count 0\nsimd_count 440\nlocation_id 53504\n", "%s/2/properties", n);
	put(root, "type 2\nnode_from 2\nnode_to 0\nmax_bandwidth 0\n",
	    "%s/2/io_links/0/properties", n);

	CHECK(hmb_kfd_read("0000:c1:00.0", -1, root, &g) == 0);
	CHECK(g.host_link_type == HMB_KFD_LINK_XGMI && g.host_link_max_mbs == 36000);
	CHECK(g.sdma_engines == 2 && g.sdma_xgmi_engines == 3);
	CHECK(hmb_kfd_read("00000000:D1:00.0", -1, root, &g) == 0);  /* CUDA-style bus id */
	CHECK(g.host_link_type == HMB_KFD_LINK_PCIE && g.sdma_engines == -1);
	CHECK(hmb_kfd_read("0001:c1:00.0", -1, root, &g) == -1 && g.host_link_type == -1);
	CHECK(hmb_kfd_read("garbage", -1, root, &g) == -1);
	CHECK(hmb_kfd_read("0000:c1:00.0", -1, "/nonexistent", &g) == -1);

	/* A newer kernel: keys unknown here, a line longer than the reader's
	 * buffer of 255 characters whose tail looks like a key, a value beyond
	 * an int. */
	{
		char text[1024];
		int len = snprintf(text, sizeof(text), "cpu_cores_count 0\nsome_future_key ");
		memset(text + len, '7', 255 - 16);
		len += 255 - 16;
		snprintf(text + len, sizeof(text) - (size_t)len,
			 " num_sdma_engines 9\nsimd_count 304\nlocation_id 57344\ndomain 0\n"
			 "num_sdma_engines 4\nnum_cp_queues 12\n");
		put(root, text, "%s/3/properties", n);
	}
	put(root, "type 2\nnode_from 3\nnode_to 0\nmax_bandwidth 99999999999\n"
	    "recommended_sdma_engine_id_mask 3\n", "%s/3/io_links/0/properties", n);
	CHECK(hmb_kfd_read("0000:e0:00.0", -1, root, &g) == 0);
	CHECK(g.sdma_engines == 4 && g.sdma_xgmi_engines == -1);
	CHECK(g.host_link_type == HMB_KFD_LINK_PCIE && g.host_link_max_mbs == -1);
	hmb_test_remove_tree(root);
}

/* Issue 27, 6: an MI300X in CPX mode has one KFD node per partition at the
 * same PCI location (kfd_topology.c ORs the partition into location_id):
 * each HIP device gets its own partition's node, never the first one found. */
void test_kfd_partitions(void)
{
	char root[] = "/tmp/hmb-kfd-XXXXXX", text[256];
	struct hmb_kfd_gpu g;
	const char *n = "class/kfd/kfd/topology/nodes";

	if (!mkdtemp(root)) {
		CHECK(!"mkdtemp");
		return;
	}
	put(root, "cpu_cores_count 96\nsimd_count 0\nlocation_id 0\n", "%s/0/properties", n);
	/* partitions 0..3 of the GPU at 0000:0c:00.0 (0x0c00 = 3072), listed in
	 * reverse so that the first node found is not partition 0; each with its
	 * own SDMA count to tell them apart */
	for (int p = 3; p >= 0; p--) {
		snprintf(text, sizeof(text), "simd_count 304\nlocation_id %d\ndomain 0\n"
			 "num_sdma_engines %d\nhive_id 0\ngfx_target_version 90402\n", 3072 | p, 10 + p);
		put(root, text, "%s/%d/properties", n, 4 - p);
	}
	put(root, "simd_count 80\nlocation_id 8192\ngfx_target_version 110000\n",
	    "%s/5/properties", n);  /* a gfx1100 at 0000:20:00.0 */
	CHECK(hmb_kfd_read("0000:0c:00.0", 2, root, &g) == 0 && g.sdma_engines == 12);
	CHECK(hmb_kfd_read("0000:0c:00.0", 0, root, &g) == 0 && g.sdma_engines == 10);
	/* HIP's id names the partition in its function, as KFD's location does */
	CHECK(hmb_kfd_read("0000:0c:00.3", -1, root, &g) == 0 && g.sdma_engines == 13);
	/* several partitions and no index: no guess */
	CHECK(hmb_kfd_read("0000:0c:00.0", -1, root, &g) == -1 && g.sdma_engines == -1);
	CHECK(g.xgmi_hive == -1 && g.xnack_blockers == -1);
	/* hive_id 0: not in a hive; the gfx1100 can keep XNACK from the process */
	CHECK(hmb_kfd_read("0000:0c:00.0", 1, root, &g) == 0 && g.xgmi_hive == 0);
	CHECK(g.xnack_blockers == 1);
	CHECK(hmb_kfd_read("0000:20:00.0", -1, root, &g) == 0 && g.xnack_blockers == 0);
	CHECK(g.xgmi_hive == -1);
	/* a GPU node is one with SIMDs, however few: a second gfx1100, of one */
	put(root, "simd_count 1\nlocation_id 12288\ngfx_target_version 110000\n",
	    "%s/6/properties", n);
	CHECK(hmb_kfd_read("0000:20:00.0", -1, root, &g) == 0 && g.xnack_blockers == 1);
	/* GPUs of two kinds: no one arch for all to plan by */
	CHECK(hmb_kfd_common_arch(root, text, sizeof(text)) == -1);
	hmb_test_remove_tree(root);
	/* every GPU a gfx90a (GC 9.0.10): its arch name */
	if (!mkdtemp(strcpy(root, "/tmp/hmb-kfd-XXXXXX"))) {
		CHECK(!"mkdtemp");
		return;
	}
	put(root, "cpu_cores_count 64\nsimd_count 0\n", "%s/0/properties", n);
	put(root, "simd_count 440\ngfx_target_version 90010\n", "%s/1/properties", n);
	put(root, "simd_count 440\ngfx_target_version 90010\n", "%s/2/properties", n);
	CHECK(hmb_kfd_common_arch(root, text, sizeof(text)) == 0 && strcmp(text, "gfx90a") == 0);
	put(root, "simd_count 80\ngfx_target_version 110000\n", "%s/3/properties", n);
	CHECK(hmb_kfd_common_arch(root, text, sizeof(text)) == -1);
	put(root, "simd_count 80\ngfx_target_version 90402\n", "%s/3/properties", n);
	put(root, "simd_count 80\ngfx_target_version 90402\n", "%s/1/properties", n);
	put(root, "simd_count 80\ngfx_target_version 90402\n", "%s/2/properties", n);
	CHECK(hmb_kfd_common_arch(root, text, sizeof(text)) == 0 && strcmp(text, "gfx942") == 0);
	hmb_test_remove_tree(root);
	CHECK(hmb_kfd_common_arch(root, text, sizeof(text)) == -1);
	/* bits 31-28 carry the partition in some kernels */
	if (!mkdtemp(strcpy(root, "/tmp/hmb-kfd-XXXXXX"))) {
		CHECK(!"mkdtemp");
		return;
	}
	for (int p = 1; p >= 0; p--) {
		snprintf(text, sizeof(text), "simd_count 304\nlocation_id %lld\nnum_sdma_engines %d\n"
			 "hive_id 77\n", 3072LL | (long long)p << 28, 20 + p);
		put(root, text, "%s/%d/properties", n, 1 + p);
	}
	CHECK(hmb_kfd_read("0000:0c:00.0", 1, root, &g) == 0 && g.sdma_engines == 21);
	CHECK(g.xgmi_hive == 1);
	hmb_test_remove_tree(root);
}

void test_pcie_upstream_cap(void)
{
	char root[] = "/tmp/hmb-pci-XXXXXX", link[512];
	const char *port = "devices/pci0000:c0/0000:c0:01.1";
	const char *gpu = "devices/pci0000:c0/0000:c0:01.1/0000:c1:00.0";
	struct hmb_link l = { 0 };

	if (!mkdtemp(root)) {
		CHECK(!"mkdtemp");
		return;
	}
	/* A gen5 GPU in a gen4 x8 slot, idle at gen1 x8. */
	put(root, "16.0 GT/s PCIe\n", "%s/max_link_speed", port);
	put(root, "8\n", "%s/max_link_width", port);
	put(root, "2.5 GT/s PCIe\n", "%s/current_link_speed", gpu);
	put(root, "8\n", "%s/current_link_width", gpu);
	put(root, "32.0 GT/s PCIe\n", "%s/max_link_speed", gpu);
	put(root, "16\n", "%s/max_link_width", gpu);
	put(root, "", "bus/pci/devices/.keep");
	snprintf(link, sizeof(link), "%s/bus/pci/devices/0000:c1:00.0", root);
	CHECK(symlink("../../../devices/pci0000:c0/0000:c0:01.1/0000:c1:00.0", link) == 0);

	CHECK(hmb_link_from_sysfs("0000:c1:00.0", &l, root) == 0);
	CHECK(l.gen == 1 && l.width == 8 && l.max_gen == 4 && l.max_width == 8);
	CHECK_NEAR(l.peak_gbps, 15.754, 0.001);   /* gen4 x8, not the idle gen1 */
	hmb_test_remove_tree(root);
}

void test_kind_alloc(void)
{
	void *p = (void *)1;
	const char *call = NULL;

	/* Host memory that needs no GPU. */
	CHECK(hmb_kind_alloc(HMB_KIND_PAGEABLE, 10000, 0, &p, &call) == hipSuccess && p);
	CHECK(((unsigned long)p & 4095) == 0);
	CHECK(hmb_kind_free(HMB_KIND_PAGEABLE, p) == hipSuccess);
	CHECK(hmb_kind_free(HMB_KIND_DEVICE, NULL) == hipSuccess);
	/* Kinds this platform or this HIP lacks: refused without a HIP call. */
#if defined(HMB_PLATFORM_NVIDIA)
	const enum hmb_mem_kind missing[] = { HMB_KIND_PINNED_COHERENT, HMB_KIND_PINNED_NONCOHERENT,
		HMB_KIND_WRITE_COMBINED_COHERENT, HMB_KIND_HOST_UNCACHED,
		HMB_KIND_DEVICE_FINE_GRAINED, HMB_KIND_DEVICE_UNCACHED,
		HMB_KIND_MANAGED_COARSE_GRAINED };
#else
	const enum hmb_mem_kind missing[] = {
#if !HMB_HAVE_HOST_UNCACHED
		HMB_KIND_HOST_UNCACHED,
#endif
#if !HMB_HAVE_DEVICE_UNCACHED
		HMB_KIND_DEVICE_UNCACHED,
#endif
		HMB_KIND_COUNT };
#endif
	for (size_t i = 0; i < sizeof(missing) / sizeof(missing[0]); i++) {
		if (missing[i] == HMB_KIND_COUNT)
			continue;
		p = (void *)1;
		CHECK(hmb_kind_alloc(missing[i], 4096, 0, &p, &call) == hipErrorNotSupported);
		CHECK(p == NULL && call && *call);
	}
}

void test_json_memory_model(void)
{
	struct hmb_report rep;
	struct hmb_options opt;
	struct hmb_facts f = hmb_fake_mi250x(0);
	cJSON *doc, *dev, *link, *kinds, *k;
	char *text;
	int unsupported = 0;

	memset(&opt, 0, sizeof(opt));
	hmb_report_init(&rep, &opt, "info");
	rep.have_device = 1;
	snprintf(rep.device.name, sizeof(rep.device.name), "AMD Instinct MI250X");
	rep.device.xnack_arch = 0;
	rep.device.link.gen = rep.device.link.width = -1;
	rep.device.link.max_gen = rep.device.link.max_width = -1;
	hmb_memmodel_interpret(&f, &rep.device.model);
	text = hmb_json_render(&rep);
	doc = text ? cJSON_Parse(text) : NULL;
	CHECK(doc != NULL);
	if (!doc) {
		free(text);
		return;
	}
	dev = cJSON_GetObjectItem(doc, "device");
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(dev, "apu")));
	CHECK(strcmp(cJSON_GetObjectItem(cJSON_GetObjectItem(dev, "managed_access"), "mode")
		     ->valuestring, "host-resident, accessed over the link") == 0);
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(dev, "xnack"), "enabled")));
	link = cJSON_GetObjectItem(dev, "host_link");
	CHECK(strcmp(cJSON_GetObjectItem(link, "kind")->valuestring, "infinity-fabric") == 0);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(link, "peak_gbps")));
	CHECK(strstr(cJSON_GetObjectItem(link, "no_peak_reason")->valuestring, "--peak-gbps"));
	CHECK(cJSON_GetObjectItem(link, "driver_reported_gbps")->valuedouble == 50.0);
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(dev, "copy_engines"), "count")->valueint == 2);
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(dev, "hardware_queues"), "count")->valueint == 4);
	kinds = cJSON_GetObjectItem(dev, "memory_kinds");
	CHECK(cJSON_GetArraySize(kinds) == HMB_KIND_COUNT);
	cJSON_ArrayForEach(k, kinds) {
		if (cJSON_IsFalse(cJSON_GetObjectItem(k, "supported"))) {
			unsupported++;
			CHECK(cJSON_IsString(cJSON_GetObjectItem(k, "reason")));
		} else {
			CHECK(cJSON_IsNull(cJSON_GetObjectItem(k, "reason")));
		}
		if (strcmp(cJSON_GetObjectItem(k, "kind")->valuestring, "managed-coarse-grained") == 0)
			CHECK(strcmp(cJSON_GetObjectItem(k, "memory")->valuestring, "managed") == 0);
	}
	/* write-combined and write-combined-coherent (not functional in HIP),
	 * uncached, system (XNACK off), device-uncached */
	CHECK(unsupported == 5);
	cJSON_Delete(doc);
	free(text);
	hmb_report_free(&rep);
}

/* AMD: KFD's gpu_id of a node, and the processes with memory on it. */
void test_kfd_processes(void)
{
	char root[] = "/tmp/hmb-kfd-XXXXXX";
	struct hmb_kfd_gpu g;
	const char *n = "class/kfd/kfd/topology/nodes", *p = "class/kfd/kfd/proc";
	long pids[4];
	long long bytes[4];

	if (!mkdtemp(root)) {
		CHECK(!"mkdtemp");
		return;
	}
	put(root, "cpu_cores_count 0\nsimd_count 440\nlocation_id 49408\ndomain 0\n",
	    "%s/1/properties", n);
	put(root, "51966\n", "%s/1/gpu_id", n);
	put(root, "cpu_cores_count 0\nsimd_count 440\nlocation_id 53504\n", "%s/2/properties", n);
	CHECK(hmb_kfd_read("0000:c1:00.0", -1, root, &g) == 0 && g.gpu_id == 51966);
	CHECK(hmb_kfd_read("0000:d1:00.0", -1, root, &g) == 0 && g.gpu_id == -1);

	/* no proc folder: not read */
	CHECK(hmb_kfd_processes(51966, root, pids, bytes, 4) == -1);
	/* 4242 uses this GPU, 777 only opened it (0 bytes), 555 uses another */
	put(root, "1073741824\n", "%s/4242/vram_51966", p);
	put(root, "0\n", "%s/777/vram_51966", p);
	put(root, "2048\n", "%s/555/vram_4660", p);
	put(root, "0\n", "%s/555/vram_51966", p);
	CHECK(hmb_kfd_processes(51966, root, pids, bytes, 4) == 1);
	CHECK(pids[0] == 4242 && bytes[0] == 1073741824LL);
	CHECK(hmb_kfd_processes(4660, root, pids, bytes, 4) == 1 && pids[0] == 555);
	/* more than max: all counted, max kept */
	put(root, "4096\n", "%s/999/vram_51966", p);
	CHECK(hmb_kfd_processes(51966, root, pids, bytes, 1) == 2);
	CHECK(hmb_kfd_processes(-1, root, pids, bytes, 4) == -1);
	{
		char cmd[64];
		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		CHECK(system(cmd) == 0);
	}
}
