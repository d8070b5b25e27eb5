/* topology_text.c - sets of CPU or node ids (parsed from and written as sysfs lists,
 * "0-3,8") and the topology as people read it: what needs no GPU runtime, so that a
 * document's topology can be printed where there is none (bench/node/node_tables.c). */
#include "system/topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
