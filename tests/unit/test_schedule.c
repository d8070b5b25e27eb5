/*
 * test_schedule.c - which GPUs of --devices run a module at the same time
 * (run/schedule.h), on faked 8-GPU nodes: an HGX-like node (two NUMA nodes,
 * four PCIe switches, NVLink between every pair) and an MI250X-like one
 * (eight GCDs, four NUMA nodes, xGMI): the host groups, each module's waves,
 * the number of module processes and the wall time to expect; and a GPU's
 * host port read from a fake sysfs tree (behind a switch, on the root bus).
 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "run/schedule.h"

void test_schedule_eight_gpus(void);
void test_schedule_host_port(void);

/* n GPUs, GPU i in NUMA node numa[i] behind port port[i]; `link` between every pair. */
static void fake_node(struct hmb_topology *t, int n, const int *numa, const char *const *port,
		      const char *link)
{
	memset(t, 0, sizeof(*t));
	t->ngpus = t->n = n;
	for (int i = 0; i < n; i++) {
		t->gpu[i].ordinal = i;
		snprintf(t->gpu[i].pci_bus_id, sizeof(t->gpu[i].pci_bus_id), "0000:%02x:00.0",
			 0x10 * (i + 1));
		t->gpu[i].numa_node = numa[i];
		snprintf(t->gpu[i].host_port, sizeof(t->gpu[i].host_port), "%s", port[i]);
		for (int j = 0; j < n; j++) {
			snprintf(t->pair[i][j].link, sizeof(t->pair[i][j].link), "%s",
				 i == j ? "" : link);
			t->pair[i][j].can_access_peer = i != j;
			t->pair[i][j].hops = i == j ? -1 : 1;
		}
	}
}

static int waves_are(const struct hmb_waves *w, const char *want)
{
	char got[512] = "";
	size_t used = 0;

	for (int k = 0; k < w->n; k++)
		for (int i = 0; i < w->size[k]; i++)
			used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%d",
						 i ? "," : k ? " | " : "", w->gpu[k][i]);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "    waves: got '%s', want '%s'\n", got, want);
	return strcmp(got, want) == 0;
}

/* one GPU's wall time per module: test inputs, round numbers */
static const struct hmb_sched_module modules[] = {
	{ "memcpy", 1, 0, 26 }, { "overlap", 1, 0, 14 }, { "managed", 1, 0, 17 },
	{ "xnack", 1, 0, 6 },   { "pool", 0, 0, 13 },    { "vmm", 0, 0, 5 },
	{ "node", 0, 1, 30 },
};

static char *plan_text(const struct hmb_topology *t, const int *dev, int n,
		       enum hmb_together mode)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	hmb_schedule_print(f, t, dev, n, mode, modules, 7);
	fclose(f);
	return text;
}

void test_schedule_eight_gpus(void)
{
	static const int hgx_numa[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	static const char *const hgx_port[8] = {
		"pci0000:15/0000:15:01.0", "pci0000:15/0000:15:01.0", "pci0000:3a/0000:3a:01.0",
		"pci0000:3a/0000:3a:01.0", "pci0000:9a/0000:9a:01.0", "pci0000:9a/0000:9a:01.0",
		"pci0000:ba/0000:ba:01.0", "pci0000:ba/0000:ba:01.0" };
	static const int gcd_numa[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };
	static const char *const gcd_port[8] = {
		"pci0000:c0/0000:c0:01.1", "pci0000:c0/0000:c0:01.2", "pci0000:c8/0000:c8:01.1",
		"pci0000:c8/0000:c8:01.2", "pci0000:d0/0000:d0:01.1", "pci0000:d0/0000:d0:01.2",
		"pci0000:d8/0000:d8:01.1", "pci0000:d8/0000:d8:01.2" };
	static const int all8[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const int some[3] = { 5, 1, 4 };
	struct hmb_topology *t = calloc(1, sizeof(*t));
	struct hmb_waves w;
	int group[8];
	char buf[64], *text;

	if (!t) {
		CHECK(!"calloc");
		return;
	}
	/* HGX-like: two sockets, two switches each, NVLink everywhere */
	fake_node(t, 8, hgx_numa, hgx_port, "NV18");
	CHECK(hmb_host_groups(t, all8, 8, group) == 2);
	CHECK(group[0] == 0 && group[3] == 0 && group[4] == 1 && group[7] == 1);
	hmb_waves_plan(t, all8, 8, 1, HMB_TOGETHER_HOST, &w);
	CHECK(waves_are(&w, "0,4 | 1,5 | 2,6 | 3,7"));
	CHECK(strcmp(hmb_waves_beside(&w, 1, 1, 0, buf, sizeof(buf)), "1") == 0); /* GPU 5 */
	hmb_waves_plan(t, all8, 8, 0, HMB_TOGETHER_HOST, &w);
	CHECK(waves_are(&w, "0,1,2,3,4,5,6,7"));
	CHECK(strcmp(hmb_waves_beside(&w, 0, 3, 0, buf, sizeof(buf)), "0,1,2,4,5,6,7") == 0);
	/* of one host group: 0-3 */
	CHECK(strcmp(hmb_waves_beside(&w, 0, 3, 1, buf, sizeof(buf)), "0,1,2") == 0);
	hmb_waves_plan(t, all8, 8, 1, HMB_TOGETHER_ALL, &w);
	CHECK(waves_are(&w, "0,1,2,3,4,5,6,7"));
	hmb_waves_plan(t, all8, 8, 0, HMB_TOGETHER_NONE, &w);
	CHECK(waves_are(&w, "0 | 1 | 2 | 3 | 4 | 5 | 6 | 7"));
	/* --devices 5,1,4: its order kept, 5 and 4 share a socket */
	hmb_waves_plan(t, some, 3, 1, HMB_TOGETHER_HOST, &w);
	CHECK(waves_are(&w, "5,1 | 4"));

	text = plan_text(t, all8, 8, HMB_TOGETHER_HOST);
	CHECK(text && strstr(text, "8 GPU(s), 2 host group(s): {0,1,2,3} NUMA 0 {4,5,6,7} NUMA 1"));
	CHECK(text && strstr(text, "  memcpy    host link  4 wave(s): 0,4 | 1,5 | 2,6 | 3,7\n"));
	CHECK(text && strstr(text, "  pool      own memory 1 wave(s): 0,1,2,3,4,5,6,7\n"));
	CHECK(text && strstr(text, "  node      the node   once, every GPU\n"));
	/* 6 modules on 8 GPUs and the node's once; 4 x (26+14+17+6) + 13 + 5 + 30 */
	CHECK(text && strstr(text, "module processes a run: 49; wall time to expect 300 s (one GPU "
			     "111 s, one GPU after another 678 s)"));
	free(text);
	text = plan_text(t, all8, 8, HMB_TOGETHER_ALL);
	CHECK(text && strstr(text, "wall time to expect 111 s"));
	free(text);

	/* MI250X-like: eight GCDs, a NUMA node per package (NPS4), each GCD its own port */
	fake_node(t, 8, gcd_numa, gcd_port, "XGMI");
	CHECK(hmb_host_groups(t, all8, 8, group) == 4);
	hmb_waves_plan(t, all8, 8, 1, HMB_TOGETHER_HOST, &w);
	CHECK(waves_are(&w, "0,2,4,6 | 1,3,5,7"));
	text = plan_text(t, all8, 8, HMB_TOGETHER_HOST);
	CHECK(text && strstr(text, "wall time to expect 174 s"));
	free(text);

	/* a port shared across NUMA nodes joins them: one group */
	snprintf(t->gpu[2].host_port, sizeof(t->gpu[2].host_port), "%s", gcd_port[0]);
	CHECK(hmb_host_groups(t, all8, 8, group) == 3 && group[2] == group[0]);

	/* nothing known (no topology, or a GPU it does not describe): one group */
	CHECK(hmb_host_groups(NULL, all8, 8, group) == 1);
	t->n = 4;
	hmb_waves_plan(t, all8, 8, 1, HMB_TOGETHER_HOST, &w);
	CHECK(w.n == 8);
	hmb_waves_plan(t, all8, 8, 0, HMB_TOGETHER_HOST, &w);
	CHECK(w.n == 1 && w.size[0] == 8);
	free(t);

	CHECK(hmb_together_parse("host") == HMB_TOGETHER_HOST);
	CHECK(hmb_together_parse("all") == HMB_TOGETHER_ALL);
	CHECK(hmb_together_parse("none") == HMB_TOGETHER_NONE);
	CHECK(hmb_together_parse("") == -1 && hmb_together_parse("hosts") == -1);
	CHECK(strcmp(hmb_together_name(HMB_TOGETHER_NONE), "none") == 0);
}

static void mkdirs(const char *path)
{
	char p[512];

	snprintf(p, sizeof(p), "%s", path);
	for (char *q = p + 1; *q; q++)
		if (*q == '/') {
			*q = '\0';
			mkdir(p, 0755);
			*q = '/';
		}
	mkdir(p, 0755);
}

void test_schedule_host_port(void)
{
	char root[] = "/tmp/hmb-port-XXXXXX", path[512], link[512];
	struct hmb_gpu_topo behind = { .ordinal = 0, .pci_bus_id = "00000000:03:00.0" };
	struct hmb_gpu_topo on_root = { .ordinal = 1, .pci_bus_id = "00000000:00:06.0" };

	if (!mkdtemp(root)) {
		CHECK(!"mkdtemp");
		return;
	}
	/* a GPU behind a switch below root port 00:01.0; one on the root bus */
	snprintf(path, sizeof(path), "%s/devices/pci0000:00/0000:00:01.0/0000:01:00.0/"
		 "0000:02:00.0/0000:03:00.0", root);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/devices/pci0000:00/0000:00:06.0", root);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/bus/pci/devices", root);
	mkdirs(path);
	snprintf(link, sizeof(link), "%s/bus/pci/devices/0000:03:00.0", root);
	CHECK(symlink("../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/"
		      "0000:03:00.0", link) == 0);
	snprintf(link, sizeof(link), "%s/bus/pci/devices/0000:00:06.0", root);
	CHECK(symlink("../../../devices/pci0000:00/0000:00:06.0", link) == 0);
	hmb_topo_gpu_sysfs(root, &behind);
	hmb_topo_gpu_sysfs(root, &on_root);
	CHECK(strcmp(behind.host_port, "pci0000:00/0000:00:01.0") == 0);
	CHECK(strcmp(on_root.host_port, "pci0000:00") == 0);
	hmb_test_remove_tree(root);
}
