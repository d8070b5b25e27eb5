/*
 * node_findings.c - what a node's figures say that no single figure does, for
 * the summary's anomalies (the module's findings): host bandwidth that does not scale with the GPUs
 * (node's host/DIR/all against the sum of each GPU alone, and against the sum
 * of their links), peer pairs far below the other pairs of the same copy, and
 * GPUs whose host copies stand apart from the others'. Each is one line with
 * its numbers; none where the document has one GPU.
 */
#include "bench/node/node.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "util/util.h"

/* Every GPU's host copies at once below this share of the GPUs alone; a peer
 * pair below this share of its case's median pair; a GPU's host copies below
 * this share of the GPUs' median. */
#define SCALING_MIN 0.80
#define PAIR_MIN 0.80
#define GPU_MIN 0.90

struct findings {
	char (*line)[HMB_FINDING_LEN];
	int n, max;
};

static double num_param(const struct hmb_record *r, const char *name)
{
	const struct hmb_kv *kv = hmb_kv_find(&r->params, name);

	return kv && kv->type == HMB_KV_NUM ? kv->num : NAN;
}

static double metric(const struct hmb_record *r, const char *name)
{
	const struct hmb_kv *kv = hmb_kv_find(&r->metrics, name);

	return kv && kv->type == HMB_KV_NUM ? kv->num : NAN;
}

static void add(struct findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct findings *f, const char *fmt, ...)
{
	va_list ap;

	if (f->n >= f->max)
		return;
	va_start(ap, fmt);
	vsnprintf(f->line[f->n++], sizeof(f->line[0]), fmt, ap);
	va_end(ap);
}

/* Every GPU at once against each alone and against their links. */
static void host_scaling(const struct hmb_record *head, double link_gbps, struct findings *f)
{
	for (const struct hmb_record *r = head; r; r = r->next) {
		double gpus = num_param(r, "gpus"), vs = metric(r, "vs_sum_alone");
		double sum = metric(r, "sum_alone_gbps"), all, links;
		const char *dir;
		if (r->status != HMB_OK || strcmp(r->module, "node") || strncmp(r->name, "host/", 5) ||
		    !strstr(r->name, "/all") || !(gpus >= 2) || !(vs < SCALING_MIN))
			continue;
		dir = r->name + 5;
		all = node_gbps(r);
		links = (strncmp(dir, "bidir", 5) ? 1 : 2) * gpus * link_gbps;
		if (links > 0)
			add(f, "host %.*s with every GPU at once %.1f GB/s: %.0f%% of the %.0f GPUs "
			    "alone (%.1f), %.0f%% of their links (%.0f)", (int)strcspn(dir, "/"), dir,
			    all, 100 * vs, gpus, sum, 100 * all / links, links);
		else
			add(f, "host %.*s with every GPU at once %.1f GB/s: %.0f%% of the %.0f GPUs "
			    "alone (%.1f)", (int)strcspn(dir, "/"), dir, all, 100 * vs, gpus, sum);
	}
}

/* Figures of one case that vary by a pair or a GPU (by: "pair", "gpu"): those
 * below least times the median of theirs. */
static void apart(const struct hmb_record *head, struct findings *f, const char *kase,
		  const char *by, double least)
{
	double v[256], m;
	const struct hmb_record *rec[256];
	struct hmb_stats st;
	size_t n = 0;

	for (const struct hmb_record *r = head; r && n < 256; r = r->next)
		if (r->status == HMB_OK && !strcmp(r->module, "node") && !strcmp(r->name, kase) &&
		    (v[n] = node_gbps(r)) > 0)
			rec[n++] = r;
	if (n < 3 || hmb_stats_compute(v, n, &st) != 0)
		return;
	m = st.median;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] < least * m))
			continue;
		if (!strcmp(by, "pair"))
			add(f, "%s %.0f->%.0f %.1f GB/s: %.0f%% of the median of its %zu pairs (%.1f)",
			    kase, num_param(rec[i], "src"), num_param(rec[i], "dst"), v[i],
			    100 * v[i] / m, n, m);
		else
			add(f, "%s on GPU %d %.1f GB/s: %.0f%% of the median of the %zu GPUs (%.1f)",
			    kase, hmb_record_gpu(rec[i]), v[i], 100 * v[i] / m, n, m);
	}
}

int node_findings(const struct hmb_record *head, double link_gbps,
		  char (*lines)[HMB_FINDING_LEN], int max)
{
	static const char *const pairs[] = { "p2p/ce/read", "p2p/ce/write", "p2p/sm/read",
					     "p2p/sm/write" };
	static const char *const gpus[] = { "host/h2d/alone", "host/d2h/alone",
					    "host/bidir/alone" };
	struct findings f = { lines, 0, max };

	host_scaling(head, link_gbps, &f);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		apart(head, &f, pairs[i], "pair", PAIR_MIN);
	for (size_t i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++)
		apart(head, &f, gpus[i], "gpu", GPU_MIN);
	return f.n;
}
