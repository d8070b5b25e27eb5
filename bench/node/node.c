/*
 * node - every GPU of the node at once: host bandwidth of all GPUs together,
 * NUMA-local and remote host memory, a peer-to-peer matrix, latencies by a
 * pointer chase, and what peer access costs an allocation.
 *
 * Every visible GPU takes part (the context's device, --device, is where the
 * timing stream lives). The host side of each GPU is placed: its pinned
 * buffers on its NUMA node and the measuring thread on its closest CPUs
 * (src/system/numa_place.h says how that is decided); where the host has more than
 * one NUMA node, the farthest node is measured too ("remote"). Records say
 * the node the pages were found on (observed.host_node) and the CPUs the
 * thread ran on (observed.cpu_affinity).
 *
 * What each timed region holds (params.timed says it per record): the work
 * of every GPU taking part, each on a stream of its own that waits for a
 * fork event recorded on the timing stream and ends with a join event the
 * timing stream waits for; HIP events around that, queued behind the
 * engine's latch so that every GPU starts together and the host's enqueue
 * cost stays out (not for staged peer copies, which the runtime may drive
 * from the host). A sample ends when the last GPU's work ends, except for
 * "in-all" records, which end with their one GPU's while every GPU copies.
 *
 *  topology/gpu, topology/pair   what the runtime, sysfs and NVML or HIP say
 *  host/{h2d,d2h,bidir}/alone    one GPU: hipMemcpyAsync of copy size
 *  host/{h2d,d2h,bidir}/in-all   one GPU's copy while all GPUs copy
 *  host/{h2d,d2h,bidir}/all      all GPUs at once: total GB/s, against the
 *                                sum of the alone figures, each GPU's share,
 *                                and the sum of the interfered figures
 *  host/{h2d,d2h}/interfered     one GPU's copy while every other GPU copies
 *                                twice as much (nvbandwidth's host_to_all and
 *                                all_to_host; their SUM is the sum of these)
 *  host/latency                  chase over mapped pinned host memory
 *  host/{h2d,d2h}/kernel         a kernel reading or writing mapped pinned
 *                                memory (vs_copy_engine: against hipMemcpyAsync)
 *  device/latency                chase over the GPU's own memory
 *  p2p/ce-disabled/...           hipMemcpyPeerAsync with peer access disabled
 *                                (the runtime may stage it through the host)
 *  p2p/ce/...                    hipMemcpyPeerAsync with peer access enabled:
 *                                write (the source's stream), read (the
 *                                destination's), both directions at once,
 *                                all-to-one and one-to-all
 *  p2p/sm/{read,write}           a kernel reading or writing the peer's memory
 *  p2p/latency                   chase over the peer's memory
 *  p2p/ce/write/reference,       the reference loops, from the first GPU to
 *  p2p/latency/reference         each other: the copy (4 back to back) or the
 *                                chase straight on the timing stream, no
 *                                fork, join or latch; where p2p/ce/write or
 *                                p2p/latency reads lower, the difference is
 *                                the method's (what fork/join costs a sample)
 *  access-cost/...               hipMalloc + hipFree with and without peer
 *                                access, and VMM granting 0, 1, 2... peers
 *
 * Pairwise figures carry params src and dst (data flows from src to dst;
 * for a chase, src holds the memory and dst reads it) and are printed as
 * matrices with the table: rows source, columns destination. Every copy is
 * checked word by word after timing (destinations poisoned first); every
 * chase must end on the slot the chain predicts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/node/node.h"
#include "kernels/kernels.h"
#include "util/util.h"

#define CHASE_MAX_FOOTPRINT (64ull << 20)

static const char *const cases[] = {
	"topology/gpu", "topology/pair",
	"host/h2d/alone", "host/d2h/alone", "host/bidir/alone",
	"host/h2d/in-all", "host/d2h/in-all", "host/bidir/in-all",
	"host/h2d/all", "host/d2h/all", "host/bidir/all",
	"host/h2d/interfered", "host/d2h/interfered",
	"host/latency", "host/h2d/kernel", "host/d2h/kernel", "device/latency",
	"p2p/ce-disabled/write", "p2p/ce-disabled/read", "p2p/ce-disabled/bidir",
	"p2p/ce/write", "p2p/ce/read", "p2p/ce/bidir-write", "p2p/ce/bidir-read",
	"p2p/sm/read", "p2p/sm/write", "p2p/latency", "p2p/ce/all-to-one", "p2p/ce/one-to-all",
	"p2p/ce/write/reference", "p2p/latency/reference",
	"access-cost/hipmalloc/no-peer-access", "access-cost/hipmalloc/peer-access",
	"access-cost/vmm",
	NULL,
};

/* ---- shared helpers ---------------------------------------------------------- */

int node_sel(struct node *nd, const char *name)
{
	return hmb_selected(nd->ctx, name);
}

int node_sel_prefix(struct node *nd, const char *prefix)
{
	for (int i = 0; cases[i]; i++)
		if (strncmp(cases[i], prefix, strlen(prefix)) == 0 && node_sel(nd, cases[i]))
			return 1;
	return 0;
}

struct hmb_record *node_record(struct node *nd, const char *name, int src, int dst)
{
	struct hmb_record *r = hmb_case_record(nd->ctx, "%s", name);
	if (src >= 0 && dst >= 0)
		hmb_param_num(r, "src", src);
	else if (src >= 0)
		hmb_param_gpu(r, "gpu", src);
	if (dst >= 0)
		hmb_param_num(r, "dst", dst);
	return r;
}

void node_unsupported(struct node *nd, const char *name, const char *why)
{
	struct hmb_record *r = hmb_case_record(nd->ctx, "%s", name);
	hmb_record_status(r, HMB_UNSUPPORTED, "%s", why);
	hmb_commit(nd->ctx, r);
}

/* ---- the GPUs: streams, buffers, the chain ----------------------------------------------- */

/* A random single cycle through every slot (Sattolo), the same on every GPU. */
static void chain_build(struct node *nd)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	nd->next = hmb_xcalloc(nd->slots, sizeof(*nd->next));
	for (size_t i = 0; i < nd->slots; i++)
		nd->next[i] = (uint32_t)i;
	for (size_t i = nd->slots - 1; i > 0; i--) {
		size_t j;
		uint32_t t;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = (size_t)(x % i);
		t = nd->next[i];
		nd->next[i] = nd->next[j];
		nd->next[j] = t;
	}
}

void node_chain_layout(const struct node *nd, void *out)
{
	uint32_t *w = out;
	memset(out, 0, nd->slots * nd->stride);
	for (size_t s = 0; s < nd->slots; s++)
		w[s * (nd->stride / 4)] = nd->next[s];
}

size_t node_dst_bytes(const struct node *nd)
{
	return (nd->n > 1 ? (size_t)nd->n - 1 : 1) * nd->size;
}

static int setup_gpu(struct node *nd, int i, const void *layout)
{
	struct hmb_ctx *ctx = nd->ctx;
	struct node_gpu *g = &nd->g[i];
	uint8_t *small;

	HMB_CHECK(hipSetDevice(g->ord));
	for (int l = 0; l < 2; l++)
		if (!(g->s[l] = hmb_stream_new(ctx)) || !(g->join[l] = hmb_event_new(ctx)))
			goto fail;
	if (!(g->src = hmb_alloc(ctx, HMB_KIND_DEVICE, nd->size)) ||
	    !(g->dst = hmb_alloc(ctx, HMB_KIND_DEVICE, node_dst_bytes(nd))) ||
	    !(g->chain = hmb_alloc(ctx, HMB_KIND_DEVICE, nd->slots * nd->stride)) ||
	    !(small = hmb_alloc(ctx, HMB_KIND_DEVICE, 256)))
		goto fail;
	g->pos = (uint32_t *)small;
	g->bad = (unsigned long long *)(small + 64);
	HMB_CHECK(hmb_launch_fill(g->src, 0, nd->size / 4, SEED_DEV(i), g->s[0]));
	HMB_CHECK(hipMemcpy(g->chain, layout, nd->slots * nd->stride, hipMemcpyHostToDevice));
	HMB_CHECK(hipStreamSynchronize(g->s[0]));
	return 0;
fail:
	return -1;
}

/* Enough device memory on every GPU? A "skipped" record when not. */
static int memory_fits(struct node *nd)
{
	size_t need = (size_t)(nd->n > 1 ? nd->n : 2) * nd->size + nd->slots * nd->stride +
		      (1ull << 30);

	for (int i = 0; i < nd->n; i++) {
		size_t free_mem = 0, total = 0;
		if (hipSetDevice(i) != hipSuccess || hipMemGetInfo(&free_mem, &total) != hipSuccess)
			free_mem = 0;
		(void)hipGetLastError();
		if (need > free_mem) {
			(void)hipSetDevice(nd->home);
			hmb_skip_module(nd->ctx, nd->size, "needs %s of device memory on every GPU "
				 "(copy size x GPUs, 1 GiB spare); GPU%d has %.1f GiB free: lower "
				 "--copy-size", hmb_sz(need), i, (double)free_mem / (1 << 30));
			return 0;
		}
	}
	return hipSetDevice(nd->home) == hipSuccess;
}

static int setup_gpus(struct node *nd)
{
	void *layout = hmb_xcalloc(1, nd->slots * nd->stride);
	int rc = -1;

	chain_build(nd);
	node_chain_layout(nd, layout);
	for (int i = 0; i < nd->n; i++)
		if (setup_gpu(nd, i, layout))
			goto out;
	HMB_CHECK(hipSetDevice(nd->home));
	if (!(nd->fork = hmb_event_new(nd->ctx)))
		goto out;
	rc = 0;
	goto out;
fail:
	rc = -1;
out:
	free(layout);
	(void)hipSetDevice(nd->home);
	return rc;
}

/* ---- what the node is: topology records ---------------------------------------------------- */

static void topology_records(struct node *nd)
{
	char cpus[256];

	for (int i = 0; i < nd->n && node_sel(nd, "topology/gpu"); i++) {
		const struct hmb_gpu_topo *t = &nd->topo.gpu[i];
		struct node_gpu *g = &nd->g[i];
		struct hmb_record *r = node_record(nd, "topology/gpu", i, -1);
		hmb_observe_str(r, "pci_bus_id", t->pci_bus_id);
		hmb_observe_num(r, "numa_node", t->numa_node);
		hmb_observe_str(r, "local_cpus", hmb_idset_format(&t->local_cpus, cpus, sizeof(cpus)));
		hmb_observe_num(r, "local_placement_node", g->local.node);
		hmb_observe_str(r, "local_placement", g->local.how);
		hmb_observe_str(r, "remote_placement", g->remote.how);
		hmb_commit(nd->ctx, r);
	}
	if (nd->n < 2) {
		node_unsupported(nd, "topology/pair", "one GPU visible: there are no pairs");
		return;
	}
	for (int i = 0; i < nd->n && node_sel(nd, "topology/pair"); i++)
		for (int j = 0; j < nd->n; j++) {
			const struct hmb_pair_topo *p = &nd->topo.pair[i][j];
			struct hmb_record *r;
			if (i == j)
				continue;
			r = node_record(nd, "topology/pair", i, j);
			if (p->can_access_peer >= 0)
				hmb_observe_bool(r, "can_access_peer", p->can_access_peer);
			hmb_observe_str(r, "link", p->link[0] ? p->link : "unknown");
			hmb_observe_num(r, "hops", p->hops);
			hmb_observe_num(r, "performance_rank", p->perf_rank);
			hmb_observe_str(r, "link_source", nd->topo.link_source[0] ? nd->topo.link_source
										   : nd->topo.link_note);
			hmb_commit(nd->ctx, r);
		}
}

static void place_all(struct node *nd)
{
	nd->have_numa = hmb_numa_host_read(NULL, &nd->numa) == 0;
	if (hmb_thread_cpus(&nd->allowed) != 0)
		memset(&nd->allowed, 0xff, sizeof(nd->allowed));
	for (int i = 0; i < nd->n; i++) {
		struct node_gpu *g = &nd->g[i];
		hmb_place_local(&nd->numa, &nd->topo.gpu[i], &nd->allowed, &g->local);
		g->has_remote = hmb_place_remote(&nd->numa, &nd->topo.gpu[i], &nd->allowed,
						 &g->remote) == 0;
	}
}

/* ---- the module ---------------------------------------------------------------------------- */

static void read_options(struct node *nd)
{
	struct hmb_ctx *ctx = nd->ctx;
	size_t size = hmb_opt_size(ctx, "copy-size", ctx->opt->quick ? 32u << 20 : 256u << 20);
	size_t stride = hmb_opt_size(ctx, "chase-stride", 256);
	long long total;

	nd->size = (size + 4095) / 4096 * 4096;
	nd->stride = stride < 4 ? 4 : (stride + 3) / 4 * 4;
	nd->loads = hmb_opt_int(ctx, "chase-loads", ctx->opt->quick ? 200 : 1000);
	/* every load of every sample on a slot not read before, as far as 64 MiB allows */
	total = (long long)(hmb_reps(ctx, 5) + hmb_warmup(ctx, 1)) * nd->loads + 1;
	nd->slots = total < 4096 ? 4096 : (size_t)total;
	if (nd->slots * nd->stride > CHASE_MAX_FOOTPRINT)
		nd->slots = CHASE_MAX_FOOTPRINT / nd->stride < 16 ? 16
								 : CHASE_MAX_FOOTPRINT / nd->stride;
}

static void release_host(struct node *nd)
{
	for (int i = 0; i < nd->n; i++) {
		hmb_host_buf_free(&nd->g[i].hsrc);
		hmb_host_buf_free(&nd->g[i].hdst);
		hmb_host_buf_free(&nd->g[i].hchain);
	}
}

/* The parts in order; an interruption stops them between two parts. */
static int phases(struct node *nd)
{
	int (*const part[])(struct node *) = { node_cost_before, node_host, node_p2p_disabled,
					       node_peer_enable, node_p2p_enabled, node_cost_after };

	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		if (i > 0 && hmb_interrupted())
			return 0;
		if (part[i](nd))
			return -1;
	}
	return 0;
}

static int run(struct hmb_ctx *ctx)
{
	struct node *nd = hmb_xcalloc(1, sizeof(*nd));
	int rc = -1;

	nd->ctx = ctx;
	nd->home = ctx->dev->ordinal;
	if (hmb_topology_probe(&nd->topo, NULL) != 0) {
		hmb_set_error("hipGetDeviceCount sees no GPU");
		goto out;
	}
	nd->n = nd->topo.n;
	for (int i = 0; i < nd->n; i++)
		nd->g[i].ord = i;
	if (nd->home >= nd->n) {
		hmb_set_error("the node module measures the first %d GPUs; --device %d is not one "
			      "of them", nd->n, nd->home);
		goto out;
	}
	if (nd->topo.ngpus > nd->n)
		fprintf(stderr, "[node] %d GPUs visible: the first %d are measured\n",
			nd->topo.ngpus, nd->n);
	read_options(nd);
	place_all(nd);
	topology_records(nd);
	if (!memory_fits(nd)) {
		rc = 0;
		goto out;
	}
	if (setup_gpus(nd))
		goto out;
	rc = phases(nd);
out:
	node_peer_disable(nd);
	(void)node_sync_all(nd);
	release_host(nd);
	(void)hmb_thread_bind(&nd->allowed);
	(void)hipSetDevice(nd->home);
	if (rc == 0) /* a failure while cleaning up belongs to no record */
		hmb_clear_error();
	free(nd->next);
	free(nd);
	return rc;
}

static const struct hmb_opt_decl options[] = {
	{ .name = "copy-size", .type = HMB_OPT_SIZE, .arg = "SIZE",
	  .help = "bytes of every host and peer copy (default 256M; --quick 32M)" },
	{ .name = "chase-loads", .type = HMB_OPT_INT, .arg = "N",
	  .help = "dependent loads per latency sample (default 1000; --quick 200)" },
	{ .name = "chase-stride", .type = HMB_OPT_SIZE, .arg = "SIZE",
	  .help = "spacing of the chase's slots (default 256 bytes)" },
	{ .name = "alloc-sizes", .type = HMB_OPT_SIZES, .arg = "LIST",
	  .help = "sizes for what peer access costs hipMalloc and VMM (default 2M,64M,1G; "
		  "--quick 2M,64M)" },
	{ .name = NULL },
};

/* Its figures on the summary's screen, and the peaks of every GPU's host
 * copies at once: that many host links (engine/headline.h). */
static const struct hmb_headline headlines[] = {
	{ "all GPUs h2d", "host/h2d/all", "gpus>1", "GB/s", NULL,
	  "every GPU from its host memory at once", NULL },
	{ "all GPUs d2h", "host/d2h/all", "gpus>1", "GB/s", NULL,
	  "every GPU to its host memory at once", NULL },
	{ "all GPUs bidir", "host/bidir/all", "gpus>1", "GB/s", NULL,
	  "every GPU both ways at once", NULL },
	{ "P2P copy", "p2p/ce/write", "src=$gpu", "GB/s", NULL,
	  "hipMemcpyPeerAsync, peer access on", NULL },
	{ "P2P bidir", "p2p/ce/bidir-write", "src=$gpu", "GB/s", NULL,
	  "peer copies both ways at once", NULL },
	{ "peer latency", "p2p/latency", "src=$gpu", "ns_per_load", NULL,
	  "one load from a peer's memory", NULL },
	{ .name = NULL },
};

static const struct hmb_case_peak peaks[] = {
	{ "host/h2d/all", HMB_PEAK_LINK_GPUS },
	{ "host/d2h/all", HMB_PEAK_LINK_GPUS },
	{ "host/bidir/all", HMB_PEAK_LINK_GPUS_BOTH },
	{ .kase = NULL },
};

static const struct hmb_heatmap heatmaps[] = {
	{ "p2p/ce/write", "hipMemcpyPeerAsync on the source's stream, peer access on" },
	{ "p2p/ce/read", "hipMemcpyPeerAsync on the destination's stream, peer access on" },
	{ .kase = NULL },
};

static const struct hmb_all_vs_alone all_vs_alone = {
	.title = "host copies with every GPU at once against each alone",
	.about = "GB/s per direction, summed over the GPUs; over each bar its total, all at once "
		 "as a share of the GPUs alone",
	.legend = "light: each GPU alone, summed (host/DIR/alone); solid: every GPU at once "
		  "(host/DIR/all), a segment per GPU (its gpuN_gbps); dashed: the links' sum",
	.sum_alone = "sum_alone_gbps",
	.gpu_metric = "gpu%d_gbps",
	.only_param = "placement",
	.only_value = "local",
	.group = { { "h2d", "host/h2d/all", "host/h2d/alone", 1 },
		   { "d2h", "host/d2h/all", "host/d2h/alone", 1 },
		   { "bidir", "host/bidir/all", "host/bidir/alone", 2 } },
};

const struct hmb_bench hmb_bench_node = {
	.name = "node",
	.headlines = headlines,
	.peaks = peaks,
	.node_level = 1,
	.tables = node_tables_print,
	.matrix = node_matrix,
	.heatmaps = heatmaps,
	.all_vs_alone = &all_vs_alone,
	.findings = node_findings,
	.summary = "every GPU at once: aggregate and NUMA-placed host bandwidth, a peer-to-peer "
		   "matrix, latencies, what peer access costs hipMalloc vs VMM",
	.needs = 0,
	.options = options,
	.help = "Runs over every visible GPU. Each GPU's pinned host buffers live on its NUMA\n"
		"node and the thread runs on its closest CPUs; with several NUMA nodes the\n"
		"farthest one is measured too (params.placement local/remote; observed.host_node\n"
		"and cpu_affinity say where they really were).\n"
		"host/*/alone: one GPU; host/*/all: every GPU at once (total GB/s, against the\n"
		"sum of the alone figures; each GPU's GB/s and share from host/*/in-all, where\n"
		"a sample ends with that GPU's copy while all copy; sum_interfered_gbps from\n"
		"host/{h2d,d2h}/interfered, that GPU's copy while every other copies twice\n"
		"as much, nvbandwidth's host_to_all shape). host/*/kernel: a kernel\n"
		"copying through mapped pinned memory (vs_copy_engine). p2p/*: every ordered\n"
		"pair, params src and dst: ce = hipMemcpyPeerAsync with peer access enabled\n"
		"(write: on the source's stream, read: on the destination's), ce-disabled =\n"
		"the same with peer access disabled (at most 64M a copy), sm = a kernel\n"
		"reading or writing the peer's memory. Latency (host/, device/, p2p/latency):\n"
		"ns_per_load of a one-thread dependent chase that reads each slot once, the\n"
		"owner's cache overwritten first: the latency of memory, not of a cache (a\n"
		"chase that goes round a small buffer again, as nvbandwidth's does, reads\n"
		"lower). The reference loops (p2p/ce/write/reference, p2p/latency/reference,\n"
		"from or read by the first GPU): the copy 1 GiB a sample back to back, or the\n"
		"chase, straight on the timing stream without fork, join or latch; the gap\n"
		"to p2p/ce/write and p2p/latency is this module's method.\n"
		"access-cost: hipMalloc + hipFree without and with peer access to every other\n"
		"GPU, and VMM (create, reserve, map, set access, unmap, release, free) granting\n"
		"0..N-1 peers.\n"
		"The table format adds the topology and the pairwise figures as matrices (rows\n"
		"source, columns destination). On one GPU the pairwise cases are unsupported.",
	.cases = cases,
	/* peer access and host paths move from process to process; a run is short */
	.all_runs = 3,
	.run = run,
};
