/*
 * test_topology.c - the node's topology and NUMA placement from fake sysfs
 * trees: CPU lists, a GPU's node and CPUs, the host's nodes and distances,
 * and where a GPU's host memory and thread go, local and remote, for 2 GPUs
 * on 2 nodes and 8 GPUs on 4 nodes; and the topology matrix as printed.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "system/numa_place.h"
#include "system/topology.h"

void test_topology(void);

/* Write root/rel, making its directories. */
static void put(const char *root, const char *rel, const char *text)
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
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int same_set(const struct hmb_idset *s, const char *list)
{
	struct hmb_idset want;
	return hmb_idset_parse(list, &want) == 0 && memcmp(&want, s, sizeof(want)) == 0;
}

static void test_idsets(void)
{
	struct hmb_idset s, t;
	char buf[64];

	CHECK(hmb_idset_parse("0-3,8,10-11\n", &s) == 0);
	CHECK(hmb_idset_count(&s) == 7 && hmb_idset_has(&s, 8) && !hmb_idset_has(&s, 9));
	CHECK(strcmp(hmb_idset_format(&s, buf, sizeof(buf)), "0-3,8,10-11") == 0);
	CHECK(hmb_idset_parse("\n", &s) == 0 && hmb_idset_count(&s) == 0);
	CHECK(hmb_idset_parse("1023", &s) == 0 && hmb_idset_has(&s, 1023));
	CHECK(hmb_idset_parse("1024", &s) == -1);
	CHECK(hmb_idset_parse("3-1", &s) == -1);
	CHECK(hmb_idset_parse("1,,2", &s) == -1);
	CHECK(hmb_idset_parse("x", &s) == -1);
	hmb_idset_parse("0-7", &s);
	hmb_idset_parse("4-11", &t);
	hmb_idset_and(&s, &s, &t);
	CHECK(same_set(&s, "4-7"));
	hmb_idset_or(&s, &s, &t);
	CHECK(same_set(&s, "4-11"));
}

/* Two GPUs, two nodes, as a two-socket server shows them. */
static void tree_2x2(const char *root)
{
	put(root, "devices/system/node/online", "0-1\n");
	put(root, "devices/system/node/has_memory", "0-1\n");
	put(root, "devices/system/node/node0/cpulist", "0-15,32-47\n");
	put(root, "devices/system/node/node1/cpulist", "16-31,48-63\n");
	put(root, "devices/system/node/node0/distance", "10 21\n");
	put(root, "devices/system/node/node1/distance", "21 10\n");
	put(root, "bus/pci/devices/0000:17:00.0/numa_node", "0\n");
	put(root, "bus/pci/devices/0000:17:00.0/local_cpulist", "0-15,32-47\n");
	put(root, "bus/pci/devices/0000:ca:00.0/numa_node", "1\n");
	put(root, "bus/pci/devices/0000:ca:00.0/local_cpulist", "16-31,48-63\n");
}

static void test_two_gpus_two_nodes(void)
{
	char root[] = "/tmp/hmb-topo-XXXXXX";
	struct hmb_gpu_topo g[2] = { { .ordinal = 0, .pci_bus_id = "00000000:17:00.0" },
				     { .ordinal = 1, .pci_bus_id = "00000000:CA:00.0" } };
	struct hmb_numa_host h;
	struct hmb_placement p;
	struct hmb_idset allowed;

	if (!mkdtemp(root)) {
		CHECK(!"mkdtemp");
		return;
	}
	tree_2x2(root);
	/* CUDA's eight-digit, upper-case bus id finds sysfs's four-digit one */
	CHECK(hmb_topo_gpu_sysfs(root, &g[0]) == 0 && g[0].numa_node == 0);
	CHECK(hmb_topo_gpu_sysfs(root, &g[1]) == 0 && g[1].numa_node == 1);
	CHECK(same_set(&g[1].local_cpus, "16-31,48-63"));
	CHECK(hmb_numa_host_read(root, &h) == 0 && h.nnodes == 2 && h.distance[0][1] == 21);
	CHECK(hmb_numa_memory_nodes(&h) == 2);

	CHECK(hmb_place_local(&h, &g[0], NULL, &p) == 0 && p.node == 0 && !p.remote);
	CHECK(same_set(&p.cpus, "0-15,32-47"));
	CHECK(hmb_place_local(&h, &g[1], NULL, &p) == 0 && p.node == 1);
	CHECK(hmb_place_remote(&h, &g[1], NULL, &p) == 0 && p.node == 0 && p.remote);
	/* the memory moves away, the thread stays with the GPU */
	CHECK(same_set(&p.cpus, "16-31,48-63"));
	CHECK(hmb_place_remote(&h, &g[0], NULL, &p) == 0 && p.node == 1);

	/* a process kept to CPUs 0-7 (a batch job's cgroup) cannot run near GPU1 */
	hmb_idset_parse("0-7", &allowed);
	CHECK(hmb_place_local(&h, &g[1], &allowed, &p) == 0 && p.node == 1 &&
	      hmb_idset_count(&p.cpus) == 0 && strstr(p.how, "not bound"));
	hmb_idset_parse("0-7,20", &allowed);
	CHECK(hmb_place_local(&h, &g[1], &allowed, &p) == 0 && same_set(&p.cpus, "20"));

	/* a GPU sysfs does not list */
	struct hmb_gpu_topo lost = { .ordinal = 2, .pci_bus_id = "0000:99:00.0" };
	CHECK(hmb_topo_gpu_sysfs(root, &lost) == -1 && lost.numa_node == -1);
	CHECK(hmb_place_local(&h, &lost, NULL, &p) == 0 && p.node == -1 &&
	      hmb_idset_count(&p.cpus) == 0);
	CHECK(hmb_place_remote(&h, &lost, NULL, &p) == -1);
	hmb_test_remove_tree(root);
}

/* Eight GPUs, four nodes, two GPUs each (NPS4-like distances). GPU5's
 * firmware gives no numa_node; node 3 has no memory of its own. */
static void tree_8x4(const char *root)
{
	static const char *const dist[4] = { "10 12 32 32\n", "12 10 32 32\n", "32 32 10 12\n",
					     "32 32 12 10\n" };
	char rel[128], text[64];

	put(root, "devices/system/node/online", "0-3\n");
	put(root, "devices/system/node/has_memory", "0-2\n");
	for (int k = 0; k < 4; k++) {
		snprintf(rel, sizeof(rel), "devices/system/node/node%d/cpulist", k);
		snprintf(text, sizeof(text), "%d-%d\n", 16 * k, 16 * k + 15);
		put(root, rel, text);
		snprintf(rel, sizeof(rel), "devices/system/node/node%d/distance", k);
		put(root, rel, dist[k]);
	}
	for (int i = 0; i < 8; i++) {
		snprintf(rel, sizeof(rel), "bus/pci/devices/0000:%02x:00.0/numa_node", 0x10 * (i + 1));
		snprintf(text, sizeof(text), "%d\n", i == 5 ? -1 : i / 2);
		put(root, rel, text);
		snprintf(rel, sizeof(rel), "bus/pci/devices/0000:%02x:00.0/local_cpulist",
			 0x10 * (i + 1));
		snprintf(text, sizeof(text), "%d-%d\n", 16 * (i / 2), 16 * (i / 2) + 15);
		put(root, rel, text);
	}
}

static void test_eight_gpus_four_nodes(void)
{
	/* by GPU: the local node, and the remote (farthest, lowest on a tie) */
	static const int local[8] = { 0, 0, 1, 1, 2, 2, 2, 2 };
	static const int remote[8] = { 2, 2, 2, 2, 0, 0, 0, 0 };
	char root[] = "/tmp/hmb-topo-XXXXXX";
	struct hmb_numa_host h;

	if (!mkdtemp(root)) {
		CHECK(!"mkdtemp");
		return;
	}
	tree_8x4(root);
	CHECK(hmb_numa_host_read(root, &h) == 0 && h.nnodes == 4 && !h.has_memory[3]);
	CHECK(hmb_numa_memory_nodes(&h) == 3 && h.distance[3][2] == 12);
	for (int i = 0; i < 8; i++) {
		struct hmb_gpu_topo g = { .ordinal = i };
		struct hmb_placement p;
		char want[16];
		snprintf(g.pci_bus_id, sizeof(g.pci_bus_id), "0000:%02x:00.0", 0x10 * (i + 1));
		CHECK(hmb_topo_gpu_sysfs(root, &g) == 0);
		CHECK(hmb_place_local(&h, &g, NULL, &p) == 0 && p.node == local[i]);
		snprintf(want, sizeof(want), "%d-%d", 16 * (i / 2), 16 * (i / 2) + 15);
		CHECK(same_set(&p.cpus, want));
		CHECK(hmb_place_remote(&h, &g, NULL, &p) == 0 && p.node == remote[i] && p.remote);
	}
	/* GPU5 is placed by its CPUs; GPU6 and 7 on the nearest node with memory */
	{
		struct hmb_gpu_topo g = { .ordinal = 5, .pci_bus_id = "0000:60:00.0" };
		struct hmb_placement p;
		hmb_topo_gpu_sysfs(root, &g);
		hmb_place_local(&h, &g, NULL, &p);
		CHECK(strstr(p.how, "most of the GPU's local CPUs") != NULL);
		g.pci_bus_id[5] = '7';
		hmb_topo_gpu_sysfs(root, &g);
		hmb_place_local(&h, &g, NULL, &p);
		CHECK(g.numa_node == 3 && p.node == 2 && strstr(p.how, "nearest node with memory"));
	}
	hmb_test_remove_tree(root);
}

static void test_matrix_print(void)
{
	struct hmb_topology *t = calloc(1, sizeof(*t));
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!t) {
		CHECK(!"calloc");
		return;
	}
	t->ngpus = t->n = 2;
	snprintf(t->link_source, sizeof(t->link_source), "nvml");
	for (int i = 0; i < 2; i++) {
		t->gpu[i].ordinal = i;
		t->gpu[i].numa_node = i;
		snprintf(t->gpu[i].pci_bus_id, sizeof(t->gpu[i].pci_bus_id), "0000:%02x:00.0", i + 1);
		hmb_idset_parse(i ? "8-15" : "0-7", &t->gpu[i].local_cpus);
	}
	t->pair[0][1] = (struct hmb_pair_topo){ 1, 0, "NV18", 1 };
	t->pair[1][0] = (struct hmb_pair_topo){ 0, -1, "SYS", -1 };
	f = open_memstream(&text, &len);
	CHECK(f != NULL);
	if (!f) {
		free(t);
		return;
	}
	hmb_topology_print(f, t);
	t->n = t->ngpus = 1;
	hmb_topology_print(f, t);
	fclose(f);
	CHECK(strstr(text, "2 visible; links from nvml") != NULL);
	CHECK(strstr(text, "0000:02:00.0") && strstr(text, "8-15"));
	CHECK(strstr(text, "NV18 h1 P r0") != NULL);
	CHECK(strstr(text, "SYS -") != NULL);
	CHECK(strstr(text, "one GPU, no pairs") != NULL);
	free(text);
	free(t);
}

void test_topology(void)
{
	test_idsets();
	test_two_gpus_two_nodes();
	test_eight_gpus_four_nodes();
	test_matrix_print();
}
