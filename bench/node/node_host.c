/*
 * node_host.c - host memory and every GPU: each GPU alone, all at once, one
 * GPU among all, the latency of mapped pinned memory, and kernels copying
 * through it, with the host side placed on NUMA nodes (local, then remote).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/node/node.h"
#include "engine/report.h"
#include "kernels/kernels.h"

enum dir { H2D, D2H, BIDIR, NDIR };
static const char *const dir_name[NDIR] = { "h2d", "d2h", "bidir" };

/* Figures the "all" and kernel records are compared with (local placement). */
struct host_figures {
	double alone[NDIR][NODE_MAX];
	double in_all[NDIR][NODE_MAX];
	double interfered[NDIR][NODE_MAX];
};

/* GPU i's host buffers for a placement: sources filled, the chain written. */
static int host_alloc(struct node *nd, int i, const struct hmb_placement *p)
{
	struct node_gpu *g = &nd->g[i];
	int on[2], sampled[2], node[2];

	HMB_CHECK(hipSetDevice(g->ord));
	if (hmb_host_buf_alloc(&g->hsrc, nd->size, p->node) ||
	    hmb_host_buf_alloc(&g->hdst, nd->size, p->node) ||
	    hmb_host_buf_alloc(&g->hchain, nd->slots * nd->stride, p->node))
		goto fail;
	HMB_CHECK(hmb_launch_fill(g->hsrc.dev, 0, nd->size / 4, SEED_HOST(i), g->s[0]));
	HMB_CHECK(hipStreamSynchronize(g->s[0]));
	node_chain_layout(nd, g->hchain.host);
	node[0] = hmb_host_buf_node(&g->hsrc, &on[0], &sampled[0]);
	node[1] = hmb_host_buf_node(&g->hdst, &on[1], &sampled[1]);
	g->host_node = node[0] == node[1] ? node[0] : -1;
	snprintf(g->host_pages, sizeof(g->host_pages), "%d/%d", on[0] + on[1],
		 sampled[0] + sampled[1]);
	HMB_CHECK(hipSetDevice(nd->home));
	return 0;
fail:
	hmb_host_buf_free(&g->hsrc);
	hmb_host_buf_free(&g->hdst);
	hmb_host_buf_free(&g->hchain);
	(void)hipSetDevice(nd->home);
	return -1;
}

static void host_release(struct node *nd, int i)
{
	hmb_host_buf_free(&nd->g[i].hsrc);
	hmb_host_buf_free(&nd->g[i].hdst);
	hmb_host_buf_free(&nd->g[i].hchain);
}

/* The copies of one GPU in direction d, appended to m. */
static void host_xfers(struct node *nd, int i, enum dir d, struct multi *m)
{
	struct node_gpu *g = &nd->g[i];
	int lane = 0;

	if (d != D2H)
		m->x[m->nx++] = (struct xfer){ .gpu = i, .lane = lane++, .kind = X_H2D,
					       .dst = g->dst, .src = g->hsrc.host,
					       .bytes = nd->size, .check_gpu = i, .check = g->dst,
					       .seed = SEED_HOST(i) };
	if (d != H2D)
		m->x[m->nx++] = (struct xfer){ .gpu = i, .lane = lane, .kind = X_D2H,
					       .dst = g->hdst.host, .src = g->src,
					       .bytes = nd->size, .check_gpu = i,
					       .check = g->hdst.dev, .seed = SEED_DEV(i) };
}

/* Bind the measuring thread (no CPUs to go by: back where the module found
 * it) and say where it ran. */
static void bind_and_observe(struct node *nd, struct hmb_record *r, const struct hmb_idset *cpus)
{
	struct hmb_idset now;
	char buf[256];

	if (hmb_thread_bind(hmb_idset_count(cpus) ? cpus : &nd->allowed) != 0)
		hmb_observe_str(r, "cpu_binding", "sched_setaffinity failed: not bound");
	if (hmb_thread_cpus(&now) == 0)
		hmb_observe_str(r, "cpu_affinity", hmb_idset_format(&now, buf, sizeof(buf)));
}

static void placement_params(struct node *nd, struct hmb_record *r, int i,
			     const struct hmb_placement *p)
{
	hmb_param_str(r, "placement", p->remote ? "remote" : "local");
	hmb_param_num(r, "host_node_requested", p->node);
	hmb_observe_str(r, "placement", p->how);
	hmb_observe_num(r, "host_node", nd->g[i].host_node);
	hmb_observe_str(r, "host_pages_on_node", nd->g[i].host_pages);
	bind_and_observe(nd, r, &p->cpus);
}

static double alone(struct node *nd, int i, enum dir d, const struct hmb_placement *p)
{
	char name[64], what[200];
	struct multi m = { .wait_for = -1 };
	struct hmb_record *r;
	double gbps;

	snprintf(name, sizeof(name), "host/%s/alone", dir_name[d]);
	if (!node_sel(nd, name))
		return 0;
	r = node_record(nd, name, i, -1);
	hmb_param_num(r, "size", (double)nd->size);
	placement_params(nd, r, i, p);
	host_xfers(nd, i, d, &m);
	snprintf(what, sizeof(what), "hipMemcpyAsync %s of pinned host memory%s on GPU%d's "
		 "stream%s (fork/join events)", d == BIDIR ? "h2d and d2h" : dir_name[d],
		 d == BIDIR ? " at once," : "", i, d == BIDIR ? "s" : "");
	node_measure(nd, r, &m, what, 1);
	gbps = node_gbps(r);
	hmb_commit(nd->ctx, r);
	return gbps;
}

static void latency(struct node *nd, int i, const struct hmb_placement *p)
{
	struct node_gpu *g = &nd->g[i];
	struct multi m = { .wait_for = -1 };
	struct hmb_record *r;
	int on, sampled, node;
	char pages[32];

	if (!node_sel(nd, "host/latency"))
		return;
	r = node_record(nd, "host/latency", i, -1);
	placement_params(nd, r, i, p);
	node = hmb_host_buf_node(&g->hchain, &on, &sampled);
	snprintf(pages, sizeof(pages), "%d/%d", on, sampled);
	hmb_observe_num(r, "host_node", node);
	hmb_observe_str(r, "host_pages_on_node", pages);
	m.x[m.nx++] = (struct xfer){ .gpu = i, .kind = X_CHASE, .dst = g->pos,
				     .src = g->hchain.dev, .src_gpu = -1, .check_gpu = -1 };
	/* No latch here: with a chase over host memory queued behind it, the latch
	 * kernel did not see its release and ran to its guard (about 6.5 s per GPU
	 * on H200s, outside the timed region). The chase's launch (microseconds
	 * against 0.25 ms or more of loads) is inside the timing instead; the
	 * record says latch=no. */
	node_measure(nd, r, &m, "a one-thread kernel making dependent loads through a chain in "
		     "mapped pinned host memory (fork/join events)", 0);
	hmb_commit(nd->ctx, r);
}

static void kernel_copy(struct node *nd, int i, enum dir d, const struct host_figures *f)
{
	struct node_gpu *g = &nd->g[i];
	struct hmb_geometry geo = hmb_wide_copy_geometry(nd->size);
	struct multi m = { .wait_for = -1 };
	struct hmb_record *r;
	char name[64];
	double gbps;

	snprintf(name, sizeof(name), "host/%s/kernel", dir_name[d]);
	if (!node_sel(nd, name))
		return;
	r = node_record(nd, name, i, -1);
	hmb_param_num(r, "size", (double)nd->size);
	placement_params(nd, r, i, &g->local);
	hmb_context_num(r, "grid_blocks", geo.blocks);
	hmb_context_num(r, "block_threads", geo.threads);
	hmb_context_bool(r, "grid_stride", geo.grid_stride);
	hmb_param_num(r, "bytes_per_access", 16);
	if (d == H2D)
		m.x[m.nx++] = (struct xfer){ .gpu = i, .kind = X_KERNEL, .dst = g->dst,
					     .src = g->hsrc.dev, .bytes = nd->size, .check_gpu = i,
					     .check = g->dst, .seed = SEED_HOST(i) };
	else
		m.x[m.nx++] = (struct xfer){ .gpu = i, .kind = X_KERNEL, .dst = g->hdst.dev,
					     .src = g->src, .bytes = nd->size, .check_gpu = i,
					     .check = g->hdst.dev, .seed = SEED_DEV(i) };
	node_measure(nd, r, &m, d == H2D ? "a copy kernel on the GPU reading mapped pinned host "
		     "memory into device memory (fork/join events)"
		     : "a copy kernel on the GPU writing device memory into mapped pinned host "
		     "memory (fork/join events)", 1);
	gbps = node_gbps(r);
	if (gbps > 0 && f->alone[d][i] > 0)
		hmb_metric(r, "vs_copy_engine", gbps / f->alone[d][i], "x");
	hmb_commit(nd->ctx, r);
}

/* The thread for several GPUs: every one's local CPUs. */
static void union_cpus(const struct node *nd, struct hmb_idset *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < nd->n; i++)
		hmb_idset_or(out, out, &nd->g[i].local.cpus);
}

static void all_params(struct node *nd, struct hmb_record *r)
{
	struct hmb_idset cpus;
	char key[48];

	hmb_param_num(r, "size", (double)nd->size);
	hmb_context_num(r, "gpus", nd->n);
	hmb_param_str(r, "placement", "local");
	for (int i = 0; i < nd->n; i++) {
		snprintf(key, sizeof(key), "gpu%d_host_node", i);
		hmb_observe_num(r, key, nd->g[i].host_node);
	}
	union_cpus(nd, &cpus);
	bind_and_observe(nd, r, &cpus);
}

static void in_all(struct node *nd, int i, enum dir d, struct host_figures *f)
{
	char name[64], what[200];
	struct multi m = { .wait_for = i };
	struct hmb_record *r;

	snprintf(name, sizeof(name), "host/%s/in-all", dir_name[d]);
	if (!node_sel(nd, name))
		return;
	r = node_record(nd, name, i, -1);
	all_params(nd, r);
	for (int k = 0; k < nd->n; k++)
		host_xfers(nd, k, d, &m);
	snprintf(what, sizeof(what), "hipMemcpyAsync %s on every GPU's stream at once; the sample "
		 "ends when GPU%d's copies end (the others are waited for before the next)",
		 d == BIDIR ? "h2d and d2h" : dir_name[d], i);
	node_measure(nd, r, &m, what, 1);
	f->in_all[d][i] = node_gbps(r);
	hmb_commit(nd->ctx, r);
}

/* nvbandwidth's host_to_all and all_to_host shape: GPU i's copy while every
 * other GPU copies twice as much, so that the others are still copying when
 * its copy ends; the sum over the GPUs goes beside the "all" record. */
static void interfered(struct node *nd, int i, enum dir d, struct host_figures *f)
{
	char name[64], what[240];
	struct multi m = { .wait_for = i };
	struct hmb_record *r;

	snprintf(name, sizeof(name), "host/%s/interfered", dir_name[d]);
	if (d == BIDIR || !node_sel(nd, name))
		return;
	r = node_record(nd, name, i, -1);
	all_params(nd, r);
	for (int k = 0; k < nd->n; k++) {
		host_xfers(nd, k, d, &m);
		if (k != i) /* a second copy on the same stream: twice as much */
			host_xfers(nd, k, d, &m);
	}
	snprintf(what, sizeof(what), "hipMemcpyAsync %s of copy size on GPU%d's stream while every "
		 "other GPU copies twice as much on its own; the sample ends when GPU%d's copy ends",
		 dir_name[d], i, i);
	node_measure(nd, r, &m, what, 1);
	f->interfered[d][i] = node_gbps(r);
	hmb_commit(nd->ctx, r);
}

static void all(struct node *nd, enum dir d, const struct host_figures *f)
{
	char name[64], what[200], key[48];
	struct multi m = { .wait_for = -1 };
	struct hmb_record *r;
	double total, sum_alone = 0, sum_in = 0, sum_interfered = 0;
	int have_alone = 1, have_in = 1, have_interfered = 1;

	snprintf(name, sizeof(name), "host/%s/all", dir_name[d]);
	if (!node_sel(nd, name))
		return;
	r = node_record(nd, name, -1, -1);
	all_params(nd, r);
	for (int k = 0; k < nd->n; k++)
		host_xfers(nd, k, d, &m);
	snprintf(what, sizeof(what), "hipMemcpyAsync %s on every GPU's stream at once, until the "
		 "last ends (fork/join events)", d == BIDIR ? "h2d and d2h" : dir_name[d]);
	node_measure(nd, r, &m, what, 1);
	total = node_gbps(r);
	for (int i = 0; i < nd->n; i++) {
		sum_alone += f->alone[d][i];
		sum_in += f->in_all[d][i];
		have_alone &= f->alone[d][i] > 0;
		have_in &= f->in_all[d][i] > 0;
		sum_interfered += f->interfered[d][i];
		have_interfered &= f->interfered[d][i] > 0;
	}
	if (total > 0 && have_alone) {
		hmb_metric(r, "sum_alone_gbps", sum_alone, "GB/s");
		hmb_metric(r, "vs_sum_alone", total / sum_alone, "ratio");
	}
	if (total > 0 && have_interfered) {
		hmb_metric(r, "sum_interfered_gbps", sum_interfered, "GB/s");
		hmb_metric(r, "vs_sum_interfered", total / sum_interfered, "ratio");
	}
	for (int i = 0; total > 0 && have_in && i < nd->n; i++) {
		snprintf(key, sizeof(key), "gpu%d_gbps", i);
		hmb_metric(r, key, f->in_all[d][i], "GB/s");
		snprintf(key, sizeof(key), "gpu%d_share", i);
		hmb_metric(r, key, f->in_all[d][i] / sum_in, "fraction");
	}
	hmb_commit(nd->ctx, r);
}

/* Host memory that could not be had: a failed record says why, the host
 * cases of that placement are left out and the module goes on. */
static int alloc_or_record(struct node *nd, int i, const struct hmb_placement *p)
{
	struct hmb_record *r;

	if (host_alloc(nd, i, p) == 0)
		return 0;
	r = node_record(nd, "host/alloc", i, -1);
	hmb_param_num(r, "size", (double)nd->size);
	hmb_param_str(r, "placement", p->remote ? "remote" : "local");
	hmb_param_num(r, "host_node_requested", p->node);
	hmb_case_failed(r);
	hmb_commit_kept(nd->ctx, r);
	return -1;
}

/* No remote node: one record per remote case says why. */
static void remote_unsupported(struct node *nd, const char *why)
{
	static const char *const names[] = { "host/h2d/alone", "host/d2h/alone",
					     "host/bidir/alone", "host/latency" };
	for (int k = 0; k < 4; k++) {
		struct hmb_record *r = hmb_case_record(nd->ctx, "%s", names[k]);
		hmb_param_str(r, "placement", "remote");
		hmb_record_status(r, HMB_UNSUPPORTED, "%s", why);
		hmb_commit(nd->ctx, r);
	}
}

static int local_phase(struct node *nd, struct host_figures *f)
{
	for (int i = 0; i < nd->n; i++)
		if (alloc_or_record(nd, i, &nd->g[i].local))
			return 0;
	for (int i = 0; i < nd->n && !hmb_interrupted(); i++) {
		for (int d = H2D; d < NDIR; d++)
			f->alone[d][i] = alone(nd, i, (enum dir)d, &nd->g[i].local);
		latency(nd, i, &nd->g[i].local);
		kernel_copy(nd, i, H2D, f);
		kernel_copy(nd, i, D2H, f);
	}
	for (int d = H2D; d < NDIR && !hmb_interrupted(); d++) {
		for (int i = 0; i < nd->n; i++)
			in_all(nd, i, (enum dir)d, f);
		for (int i = 0; i < nd->n; i++)
			interfered(nd, i, (enum dir)d, f);
		all(nd, (enum dir)d, f);
	}
	for (int i = 0; i < nd->n; i++)
		host_release(nd, i);
	return 0;
}

static int remote_phase(struct node *nd)
{
	int any = 0;

	for (int i = 0; i < nd->n && !hmb_interrupted(); i++) {
		struct node_gpu *g = &nd->g[i];
		if (!g->has_remote)
			continue;
		any = 1;
		if (alloc_or_record(nd, i, &g->remote))
			continue;
		for (int d = H2D; d < NDIR; d++)
			alone(nd, i, (enum dir)d, &g->remote);
		latency(nd, i, &g->remote);
		host_release(nd, i);
	}
	if (!any && nd->n > 0)
		remote_unsupported(nd, nd->g[0].remote.how);
	return 0;
}

int node_host(struct node *nd)
{
	struct host_figures *f;
	int rc;

	if (!node_sel_prefix(nd, "host/"))
		return 0;
	f = calloc(1, sizeof(*f));
	if (!f) {
		hmb_set_error("out of host memory");
		return -1;
	}
	rc = local_phase(nd, f);
	if (rc == 0 && !hmb_interrupted())
		rc = remote_phase(nd);
	for (int i = 0; i < nd->n; i++)
		host_release(nd, i);
	(void)hmb_thread_bind(&nd->allowed);
	free(f);
	return rc;
}
