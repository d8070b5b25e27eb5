/* topology.c - the GPUs of the node from the runtime and sysfs, their pairs, and the matrix. */
#include "system/topology.h"

#include <stdlib.h>
#include <string.h>

#include "platform/hip.h"

/* ---- sets of ids ---------------------------------------------------------- */

void hmb_idset_add(struct hmb_idset *s, int id)
{
	if (id >= 0 && id < HMB_MAX_IDS)
		s->w[id / 64] |= 1ull << (id % 64);
}

int hmb_idset_has(const struct hmb_idset *s, int id)
{
	return id >= 0 && id < HMB_MAX_IDS && (s->w[id / 64] >> (id % 64)) & 1;
}

int hmb_idset_count(const struct hmb_idset *s)
{
	int n = 0;
	for (int i = 0; i < HMB_MAX_IDS / 64; i++)
		n += __builtin_popcountll(s->w[i]);
	return n;
}

void hmb_idset_and(struct hmb_idset *out, const struct hmb_idset *a, const struct hmb_idset *b)
{
	for (int i = 0; i < HMB_MAX_IDS / 64; i++)
		out->w[i] = a->w[i] & b->w[i];
}

void hmb_idset_or(struct hmb_idset *out, const struct hmb_idset *a, const struct hmb_idset *b)
{
	for (int i = 0; i < HMB_MAX_IDS / 64; i++)
		out->w[i] = a->w[i] | b->w[i];
}

static int parse_id(const char **p, long *v)
{
	char *end;
	if (**p < '0' || **p > '9')
		return -1;
	*v = strtol(*p, &end, 10);
	*p = end;
	return *v < HMB_MAX_IDS ? 0 : -1;
}

int hmb_idset_parse(const char *text, struct hmb_idset *s)
{
	const char *p = text;

	memset(s, 0, sizeof(*s));
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n')
		return 0;
	for (;;) {
		long a, b;
		if (parse_id(&p, &a))
			return -1;
		b = a;
		if (*p == '-' && (p++, parse_id(&p, &b) || b < a))
			return -1;
		for (long i = a; i <= b; i++)
			hmb_idset_add(s, (int)i);
		if (*p != ',')
			break;
		p++;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	return *p == '\0' ? 0 : -1;
}

const char *hmb_idset_format(const struct hmb_idset *s, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < HMB_MAX_IDS && used < len; i++) {
		int j = i;
		if (!hmb_idset_has(s, i))
			continue;
		while (j + 1 < HMB_MAX_IDS && hmb_idset_has(s, j + 1))
			j++;
		if (j == i)
			used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", i);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", i,
						 j);
		i = j;
	}
	return buf;
}

/* ---- sysfs ------------------------------------------------------------------ */

int hmb_sysfs_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

int hmb_topo_gpu_sysfs(const char *root, struct hmb_gpu_topo *g)
{
	unsigned domain, bus, slot, fn;
	char dir[256], path[320], buf[4096];
	int found = -1;

	g->numa_node = -1;
	memset(&g->local_cpus, 0, sizeof(g->local_cpus));
	if (sscanf(g->pci_bus_id, "%x:%x:%x.%x", &domain, &bus, &slot, &fn) != 4)
		return -1;
	/* CUDA writes an eight-digit upper-case domain; sysfs four, lower case */
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%04x:%02x:%02x.%x", root ? root : "/sys",
		 domain, bus, slot, fn);
	snprintf(path, sizeof(path), "%s/numa_node", dir);
	if (hmb_sysfs_read(path, buf, sizeof(buf)) == 0) {
		found = 0;
		if (sscanf(buf, "%d", &g->numa_node) != 1 || g->numa_node < 0)
			g->numa_node = -1;
	}
	snprintf(path, sizeof(path), "%s/local_cpulist", dir);
	if (hmb_sysfs_read(path, buf, sizeof(buf)) == 0) {
		found = 0;
		if (hmb_idset_parse(buf, &g->local_cpus) != 0)
			memset(&g->local_cpus, 0, sizeof(g->local_cpus));
	}
	return found;
}

/* ---- the runtime --------------------------------------------------------------- */

#if !defined(HMB_PLATFORM_NVIDIA)
/* HSA_AMD_LINK_INFO_TYPE_* as hipExtGetLinkTypeAndHopCount reports them. */
static void amd_links(struct hmb_topology *t)
{
	static const char *const names[] = { "HT", "QPI", "PCIE", "IB", "XGMI" };
	int any = 0;

	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < t->n; j++) {
			uint32_t type = 0, hops = 0;
			if (i == j)
				continue;
			if (hipExtGetLinkTypeAndHopCount(i, j, &type, &hops) != hipSuccess) {
				(void)hipGetLastError();
				continue;
			}
			snprintf(t->pair[i][j].link, sizeof(t->pair[i][j].link), "%s",
				 type < 5 ? names[type] : "OTHER");
			t->pair[i][j].hops = (int)hops;
			any = 1;
		}
	if (any)
		snprintf(t->link_source, sizeof(t->link_source), "hip");
	else
		snprintf(t->link_note, sizeof(t->link_note),
			 "hipExtGetLinkTypeAndHopCount answered for no pair");
}
#endif

int hmb_topology_probe(struct hmb_topology *t, const char *root)
{
	int n = 0;

	memset(t, 0, sizeof(*t));
	if (hipGetDeviceCount(&n) != hipSuccess || n < 1) {
		(void)hipGetLastError();
		return -1;
	}
	t->ngpus = n;
	t->n = n < HMB_TOPO_MAX_GPUS ? n : HMB_TOPO_MAX_GPUS;
	for (int i = 0; i < t->n; i++) {
		struct hmb_gpu_topo *g = &t->gpu[i];
		g->ordinal = i;
		if (hipDeviceGetPCIBusId(g->pci_bus_id, sizeof(g->pci_bus_id), i) != hipSuccess) {
			(void)hipGetLastError();
			g->pci_bus_id[0] = '\0';
		}
		hmb_topo_gpu_sysfs(root, g);
	}
	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < t->n; j++) {
			struct hmb_pair_topo *p = &t->pair[i][j];
			int v = -1;
			p->can_access_peer = p->perf_rank = p->hops = -1;
			if (i == j)
				continue;
			if (hipDeviceCanAccessPeer(&v, i, j) == hipSuccess)
				p->can_access_peer = v != 0;
			if (hipDeviceGetP2PAttribute(&v, hipDevP2PAttrPerformanceRank, i, j) ==
			    hipSuccess)
				p->perf_rank = v;
			(void)hipGetLastError();
		}
	if (t->n < 2)
		return 0;
#if defined(HMB_PLATFORM_NVIDIA)
	if (hmb_topology_nvml(t, t->link_note, sizeof(t->link_note)) == 0)
		snprintf(t->link_source, sizeof(t->link_source), "nvml");
#else
	amd_links(t);
#endif
	return 0;
}

/* ---- printing -------------------------------------------------------------------- */

static const char *pair_cell(const struct hmb_pair_topo *p, char *buf, size_t len)
{
	char hops[16] = "", rank[16] = "";

	if (p->hops >= 0)
		snprintf(hops, sizeof(hops), " h%d", p->hops);
	if (p->perf_rank >= 0)
		snprintf(rank, sizeof(rank), " r%d", p->perf_rank);
	snprintf(buf, len, "%s%s %s%s", p->link[0] ? p->link : "?", hops,
		 p->can_access_peer == 1 ? "P" : p->can_access_peer == 0 ? "-" : "?", rank);
	return buf;
}

void hmb_topology_print(FILE *out, const struct hmb_topology *t)
{
	char cpus[256], cell[48];

	fprintf(out, "gpus            %d visible%s", t->ngpus,
		t->n < t->ngpus ? " (the first 16 shown)" : "");
	if (t->link_source[0])
		fprintf(out, "; links from %s", t->link_source);
	else if (t->link_note[0])
		fprintf(out, "; link types unknown: %s", t->link_note);
	fputc('\n', out);
	fprintf(out, "  gpu  %-18s %5s  %s\n", "pci bus id", "numa", "local cpus");
	for (int i = 0; i < t->n; i++) {
		const struct hmb_gpu_topo *g = &t->gpu[i];
		hmb_idset_format(&g->local_cpus, cpus, sizeof(cpus));
		fprintf(out, "  %-4d %-18s %5d  %s\n", g->ordinal, g->pci_bus_id[0] ? g->pci_bus_id : "?",
			g->numa_node, cpus[0] ? cpus : "?");
	}
	if (t->n < 2) {
		fprintf(out, "  peers: one GPU, no pairs\n");
		return;
	}
	fprintf(out, "  peers (row: from, column: to): link, h hops, P peer access (- none), "
		"r performance rank\n  %-6s", "");
	for (int j = 0; j < t->n; j++)
		fprintf(out, " %-16s", (snprintf(cell, sizeof(cell), "gpu%d", j), cell));
	fputc('\n', out);
	for (int i = 0; i < t->n; i++) {
		fprintf(out, "  gpu%-3d", i);
		for (int j = 0; j < t->n; j++)
			fprintf(out, " %-16s", i == j ? "-" : pair_cell(&t->pair[i][j], cell,
									sizeof(cell)));
		fputc('\n', out);
	}
}

void hmb_topology_info(FILE *out)
{
	struct hmb_topology *t = calloc(1, sizeof(*t));

	if (!t || hmb_topology_probe(t, NULL) != 0)
		fprintf(out, "gpus            not readable: the runtime sees no GPU\n");
	else
		hmb_topology_print(out, t);
	free(t);
}
