/*
 * node_tables.c - the node module's topology and its pairwise figures as
 * matrices (rows: source, columns: destination), made from its records, so
 * that a run and `show` of its document print the same: the topology from
 * topology/gpu and topology/pair, GB/s from each p2p copy, ns per load from
 * the chases (p2p/latency; device/latency on the diagonal).
 */
#include "bench/node/node.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/topology.h"
#include "util/util.h"

static const struct matrix {
	const char *kase;
	const char *title;
	int both_ways;  /* one record a pair, the same figure both ways */
} matrices[] = {
	{ "p2p/ce/write", "p2p/ce/write GB/s: hipMemcpyPeerAsync on the source's stream, peer "
	  "access enabled", 0 },
	{ "p2p/ce/read", "p2p/ce/read GB/s: hipMemcpyPeerAsync on the destination's stream, peer "
	  "access enabled", 0 },
	{ "p2p/ce/bidir-write", "p2p/ce/bidir-write GB/s: both directions at once, each on its "
	  "source's stream", 1 },
	{ "p2p/ce/bidir-read", "p2p/ce/bidir-read GB/s: both directions at once, each on its "
	  "destination's stream", 1 },
	{ "p2p/ce-disabled/write", "p2p/ce-disabled/write GB/s: hipMemcpyPeerAsync on the source's "
	  "stream, peer access disabled", 0 },
	{ "p2p/ce-disabled/read", "p2p/ce-disabled/read GB/s: hipMemcpyPeerAsync on the "
	  "destination's stream, peer access disabled", 0 },
	{ "p2p/ce-disabled/bidir", "p2p/ce-disabled/bidir GB/s: both directions at once, peer "
	  "access disabled", 1 },
	{ "p2p/sm/read", "p2p/sm/read GB/s: a kernel on the destination reads the source's "
	  "memory", 0 },
	{ "p2p/sm/write", "p2p/sm/write GB/s: a kernel on the source writes the destination's "
	  "memory", 0 },
	{ "p2p/latency", "latency ns per load: a chase by the column GPU over the row GPU's memory "
	  "(diagonal: its own)", 0 },
};

static int num(const struct hmb_kvlist *l, const char *name, double *v)
{
	const struct hmb_kv *kv = hmb_kv_find(l, name);

	if (!kv || kv->type == HMB_KV_STR)
		return -1;
	*v = kv->num;
	return 0;
}

static const char *str(const struct hmb_kvlist *l, const char *name)
{
	const struct hmb_kv *kv = hmb_kv_find(l, name);

	return kv && kv->type == HMB_KV_STR && kv->str ? kv->str : "";
}

static int is_node(const struct hmb_record *r, const char *kase)
{
	return r->status == HMB_OK && !strcmp(r->module, "node") && !strcmp(r->name, kase);
}

/* A GPU index of a record's parameter, within the topology's; -1 none. */
static int gpu_index(const struct hmb_kv *kv)
{
	return kv && kv->type != HMB_KV_STR && kv->num >= 0 && kv->num < HMB_TOPO_MAX_GPUS
		       ? (int)kv->num : -1;
}

static int gpu_param(const struct hmb_record *r, const char *name)
{
	return gpu_index(hmb_kv_find(&r->params, name));
}

/* The topology the node module recorded; 0 where it recorded none. */
static int topology_of(const struct hmb_record *first, const struct hmb_record *end,
		       struct hmb_topology *t)
{
	memset(t, 0, sizeof(*t));
	for (const struct hmb_record *r = first; r != end; r = r->next) {
		int g = gpu_index(hmb_record_gpu_param(r));
		double v;
		if (!is_node(r, "topology/gpu") || g < 0)
			continue;
		t->gpu[g].ordinal = g;
		snprintf(t->gpu[g].pci_bus_id, sizeof(t->gpu[g].pci_bus_id), "%s",
			 str(&r->observed, "pci_bus_id"));
		t->gpu[g].numa_node = num(&r->observed, "numa_node", &v) == 0 ? (int)v : -1;
		hmb_idset_parse(str(&r->observed, "local_cpus"), &t->gpu[g].local_cpus);
		if (g + 1 > t->n)
			t->n = t->ngpus = g + 1;
	}
	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < t->n; j++)
			t->pair[i][j] = (struct hmb_pair_topo){ -1, -1, "", -1 };
	for (const struct hmb_record *r = first; r != end; r = r->next) {
		int a = gpu_param(r, "src"), b = gpu_param(r, "dst");
		const struct hmb_kv *peer;
		double v;
		struct hmb_pair_topo *p;
		if (!is_node(r, "topology/pair") || a < 0 || b < 0 || a >= t->n || b >= t->n)
			continue;
		p = &t->pair[a][b];
		peer = hmb_kv_find(&r->observed, "can_access_peer");
		p->can_access_peer = peer && peer->type == HMB_KV_BOOL ? peer->num != 0 : -1;
		p->perf_rank = num(&r->observed, "performance_rank", &v) == 0 ? (int)v : -1;
		p->hops = num(&r->observed, "hops", &v) == 0 ? (int)v : -1;
		snprintf(p->link, sizeof(p->link), "%s", str(&r->observed, "link"));
		snprintf(t->link_source, sizeof(t->link_source), "%s",
			 str(&r->observed, "link_source"));
	}
	return t->n;
}

/* A matrix's figure of a record: GB/s, or ns per load for a chase; 0 none. */
static double figure(const struct hmb_record *r, int chase)
{
	struct hmb_summary s;
	double v, loads;

	if (chase) {
		if (num(&r->metrics, "ns_per_load", &v) == 0)
			return v > 0 ? v : 0;
		hmb_record_summarize(r, &s);
		return s.has_stats && num(&r->params, "loads", &loads) == 0 && loads > 0 ?
		       s.stats.median / loads * 1e9 : 0;
	}
	hmb_record_summarize(r, &s);
	return s.gbps_median > 0 ? s.gbps_median : 0;
}

/* The figures of matrix m between the first n GPUs into v; 0 where none. */
static int fill_matrix(const struct hmb_record *first, const struct hmb_record *end,
		       const char *kase, int n, double (*v)[HMB_TOPO_MAX_GPUS])
{
	int chase = !strcmp(kase, "p2p/latency"), both = 0, any = 0;

	for (size_t k = 0; k < sizeof(matrices) / sizeof(matrices[0]); k++)
		if (!strcmp(matrices[k].kase, kase))
			both = matrices[k].both_ways;
	for (int i = 0; i < HMB_TOPO_MAX_GPUS; i++)
		for (int j = 0; j < HMB_TOPO_MAX_GPUS; j++)
			v[i][j] = 0;
	for (const struct hmb_record *r = first; r != end; r = r->next) {
		int a = gpu_param(r, "src"), b = gpu_param(r, "dst");
		if (chase && is_node(r, "device/latency") &&
		    (a = b = gpu_index(hmb_record_gpu_param(r))) >= 0 &&
		    a < n)
			any |= (v[a][a] = figure(r, 1)) > 0;
		if (!is_node(r, kase) || a < 0 || b < 0 || a >= n || b >= n)
			continue;
		any |= (v[a][b] = figure(r, chase)) > 0;
		if (both)
			v[b][a] = v[a][b];
	}
	return any;
}

int node_matrix(const struct hmb_record *first, const struct hmb_record *end, const char *kase,
		double (*v)[HMB_TOPO_MAX_GPUS])
{
	struct hmb_topology *t = hmb_xcalloc(1, sizeof(*t));
	int n = topology_of(first, end, t);

	free(t);
	return n > 0 && fill_matrix(first, end, kase, n, v) ? n : 0;
}

static void print_matrix(FILE *out, const struct hmb_record *first, const struct hmb_record *end,
			 const struct matrix *m, int n)
{
	double (*v)[HMB_TOPO_MAX_GPUS] = hmb_xcalloc(HMB_TOPO_MAX_GPUS, sizeof(*v));
	int chase = !strcmp(m->kase, "p2p/latency");

	if (fill_matrix(first, end, m->kase, n, v)) {
		fprintf(out, "\n%s\n(rows: source, columns: destination)\n%7s", m->title, "");
		for (int j = 0; j < n; j++) {
			char head[16];
			snprintf(head, sizeof(head), "gpu%d", j);
			fprintf(out, "  %9s", head);
		}
		fputc('\n', out);
		for (int i = 0; i < n; i++) {
			fprintf(out, "gpu%-4d", i);
			for (int j = 0; j < n; j++)
				if (v[i][j] > 0)
					fprintf(out, "  %9.*f", chase ? 0 : 1, v[i][j]);
				else
					fprintf(out, "  %9s", i == j && !chase ? "-" : "n/a");
			fputc('\n', out);
		}
	}
	free(v);
}

void node_tables_print(FILE *out, const struct hmb_record *first,
			   const struct hmb_record *end)
{
	struct hmb_topology *t = hmb_xcalloc(1, sizeof(*t));

	if (topology_of(first, end, t) > 0) {
		fputc('\n', out);
		hmb_topology_print(out, t);
		for (size_t k = 0; k < sizeof(matrices) / sizeof(matrices[0]); k++)
			print_matrix(out, first, end, &matrices[k], t->n);
	}
	free(t);
}
