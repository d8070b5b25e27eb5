/*
 * node_p2p.c - every ordered pair of GPUs: copy-engine copies with peer
 * access disabled and enabled (read, write, both directions), kernels
 * reading or writing the peer's memory, a chase over it, all-to-one and
 * one-to-all; and turning peer access on and off for the module.
 *
 * GPU b keeps a slot of its receive buffer for each other GPU a (slot(a, b)),
 * so that all-to-one copies land side by side; pair copies use the same slot.
 * Copies with peer access disabled move at most 64 MiB (params.size).
 */
#include <stdio.h>
#include <string.h>

#include "bench/node/node.h"
#include "engine/measure.h"
#include "kernels/kernels.h"

/* The most a copy with peer access disabled moves: such copies can be ten
 * times slower, and there are two per ordered pair. */
#define DISABLED_MAX (64u << 20)

static const char *const pair_cases[] = {
	"p2p/ce-disabled/write", "p2p/ce-disabled/read", "p2p/ce-disabled/bidir",
	"p2p/ce/write", "p2p/ce/read", "p2p/ce/bidir-write", "p2p/ce/bidir-read",
	"p2p/sm/read", "p2p/sm/write", "p2p/latency", "p2p/ce/all-to-one", "p2p/ce/one-to-all",
	"p2p/ce/write/reference", "p2p/latency/reference", NULL,
};

/* Copies a sample of the reference loop makes: 1 GiB a sample, at least one. */
#define REFERENCE_BYTES (1ull << 30)

static size_t slot(int a, int b)
{
	return (size_t)(a < b ? a : a - 1);
}

/* Copies with peer access disabled may go through the host: they move less. */
static size_t pair_bytes(const struct node *nd, int enabled)
{
	return enabled || nd->size < DISABLED_MAX ? nd->size : DISABLED_MAX;
}

/* A peer copy of the pair's buffers: a's source into a's slot at b. */
static struct xfer pair_xfer(struct node *nd, int a, int b, int by, enum xfer_kind kind,
			     int enabled)
{
	uint8_t *dst = nd->g[b].dst + slot(a, b) * nd->size;
	return (struct xfer){ .gpu = by, .kind = kind, .dst = dst, .src = nd->g[a].src,
			      .dst_gpu = b, .src_gpu = a, .bytes = pair_bytes(nd, enabled),
			      .check_gpu = b, .check = dst, .seed = SEED_DEV(a) };
}

/* Is peer access on both ways between a and b? Else why not. */
static const char *pair_blocked(const struct node *nd, int a, int b)
{
	if (!nd->peer_on[a][b])
		return nd->peer_why[a][b][0] ? nd->peer_why[a][b] : "peer access is not enabled";
	if (!nd->peer_on[b][a])
		return nd->peer_why[b][a][0] ? nd->peer_why[b][a] : "peer access is not enabled";
	return NULL;
}

static struct hmb_record *pair_record(struct node *nd, const char *name, int a, int b,
				      int enabled)
{
	struct hmb_record *r = node_record(nd, name, a, b);
	if (strcmp(name, "p2p/latency") != 0)
		hmb_param_num(r, "size", (double)pair_bytes(nd, enabled));
	hmb_param_str(r, "peer_access", enabled ? "enabled" : "disabled");
	return r;
}

static void geometry_params(struct node *nd, struct hmb_record *r)
{
	struct hmb_geometry geo = hmb_wide_copy_geometry(nd->size);
	hmb_context_num(r, "grid_blocks", geo.blocks);
	hmb_context_num(r, "block_threads", geo.threads);
	hmb_context_bool(r, "grid_stride", geo.grid_stride);
	hmb_param_num(r, "bytes_per_access", 16);
}

/* Measure a pairwise case and commit it (the table prints the matrices from
 * the records: node_tables.c). */
static void pair_case(struct node *nd, struct hmb_record *r, struct multi *m, const char *what,
		      int latch)
{
	node_measure(nd, r, m, what, latch);
	hmb_commit(nd->ctx, r);
}

static void pair_unsupported(struct node *nd, const char *name, int a, int b, const char *why)
{
	struct hmb_record *r = node_record(nd, name, a, b);
	hmb_record_status(r, HMB_UNSUPPORTED, "%s", why);
	hmb_commit(nd->ctx, r);
}

/* ---- a chase over each GPU's own memory: the diagonal of the latency matrix ---- */

static void device_latency(struct node *nd)
{
	for (int i = 0; i < nd->n && !hmb_interrupted() && node_sel(nd, "device/latency"); i++) {
		struct multi m = { .wait_for = -1 };
		struct hmb_record *r = node_record(nd, "device/latency", i, -1);
		m.x[m.nx++] = (struct xfer){ .gpu = i, .kind = X_CHASE, .dst = nd->g[i].pos,
					     .src = nd->g[i].chain, .src_gpu = i, .check_gpu = -1 };
		pair_case(nd, r, &m, "a one-thread kernel making "
						   "dependent loads through a chain in the GPU's own "
						   "memory (fork/join events)", 1);
	}
}

/* ---- peer access disabled ---------------------------------------------------------- */

static void disabled_pair(struct node *nd, int a, int b)
{
	static const char *const names[] = { "p2p/ce-disabled/write", "p2p/ce-disabled/read" };
	char what[200];

	for (int k = 0; k < 2 && !hmb_interrupted(); k++) {
		struct multi m = { .wait_for = -1 };
		struct hmb_record *r;
		if (!node_sel(nd, names[k]))
			continue;
		r = pair_record(nd, names[k], a, b, 0);
		hmb_param_str(r, "stream", k == 0 ? "source" : "destination");
		m.x[m.nx++] = pair_xfer(nd, a, b, k == 0 ? a : b, X_PEER, 0);
		snprintf(what, sizeof(what), "hipMemcpyPeerAsync GPU%d -> GPU%d on GPU%d's stream, "
			 "peer access disabled (fork/join events)", a, b, k == 0 ? a : b);
		/* the runtime may stage these through the host: no latch */
		pair_case(nd, r, &m, what, 0);
	}
}

static void bidir(struct node *nd, const char *name, int a, int b, int read, int enabled)
{
	struct multi m = { .wait_for = -1 };
	struct hmb_record *r;
	char what[240];

	if (!node_sel(nd, name) || hmb_interrupted())
		return;
	r = pair_record(nd, name, a, b, enabled);
	hmb_param_str(r, "stream", read ? "destination" : "source");
	m.x[m.nx++] = pair_xfer(nd, a, b, read ? b : a, X_PEER, enabled);
	m.x[m.nx++] = pair_xfer(nd, b, a, read ? a : b, X_PEER, enabled);
	snprintf(what, sizeof(what), "hipMemcpyPeerAsync GPU%d -> GPU%d and GPU%d -> GPU%d at "
		 "once, each on its %s's stream, peer access %s (fork/join events)", a, b, b, a,
		 read ? "destination" : "source", enabled ? "enabled" : "disabled");
	pair_case(nd, r, &m, what, enabled);
}

static void one_gpu(struct node *nd)
{
	for (int k = 0; pair_cases[k]; k++)
		if (node_sel(nd, pair_cases[k]))
			node_unsupported(nd, pair_cases[k], "one GPU visible: peer-to-peer needs two");
}

int node_p2p_disabled(struct node *nd)
{
	device_latency(nd);
	if (nd->n < 2) {
		one_gpu(nd);
		return 0;
	}
	for (int a = 0; a < nd->n; a++)
		for (int b = 0; b < nd->n; b++)
			if (a != b)
				disabled_pair(nd, a, b);
	for (int a = 0; a < nd->n; a++)
		for (int b = a + 1; b < nd->n; b++)
			bidir(nd, "p2p/ce-disabled/bidir", a, b, 0, 0);
	return 0;
}

/* ---- peer access: on for the pairs that can, off again at the end ------------------ */

static int wants_peer_access(struct node *nd)
{
	return node_sel_prefix(nd, "p2p/ce/") || node_sel_prefix(nd, "p2p/sm/") ||
	       node_sel(nd, "p2p/latency") || node_sel(nd, "access-cost/hipmalloc/peer-access");
}

int node_peer_enable(struct node *nd)
{
	if (nd->n < 2 || !wants_peer_access(nd))
		return 0;
	for (int a = 0; a < nd->n; a++)
		for (int b = 0; b < nd->n; b++) {
			hipError_t e;
			if (a == b)
				continue;
			if (nd->topo.pair[a][b].can_access_peer != 1) {
				snprintf(nd->peer_why[a][b], sizeof(nd->peer_why[a][b]),
					 "hipDeviceCanAccessPeer: GPU%d cannot access GPU%d's memory",
					 a, b);
				continue;
			}
			e = hipSetDevice(nd->g[a].ord);
			if (e == hipSuccess)
				e = hipDeviceEnablePeerAccess(nd->g[b].ord, 0);
			if (e == hipSuccess) {
				nd->peer_on[a][b] = 1;
			} else if (e == hipErrorPeerAccessAlreadyEnabled) {
				nd->peer_on[a][b] = 2; /* not this module's to disable */
			} else {
				snprintf(nd->peer_why[a][b], sizeof(nd->peer_why[a][b]),
					 "hipDeviceEnablePeerAccess(%d, 0) on GPU%d failed: %s", b, a,
					 hipGetErrorString(e));
			}
			(void)hipGetLastError();
		}
	return hipSetDevice(nd->home) == hipSuccess ? 0 : -1;
}

void node_peer_disable(struct node *nd)
{
	for (int a = 0; a < nd->n; a++)
		for (int b = 0; b < nd->n; b++) {
			if (nd->peer_on[a][b] == 1 && hipSetDevice(nd->g[a].ord) == hipSuccess)
				(void)hipDeviceDisablePeerAccess(nd->g[b].ord);
			(void)hipGetLastError();
			nd->peer_on[a][b] = 0;
		}
	(void)hipSetDevice(nd->home);
}

/* ---- peer access enabled ------------------------------------------------------------- */

static void enabled_copies(struct node *nd, int a, int b)
{
	static const struct {
		const char *name;
		int on_dst;             /* the destination's stream runs it */
		enum xfer_kind kind;
		const char *what;
	} k[] = {
		{ "p2p/ce/write", 0, X_PEER, "hipMemcpyPeerAsync on the source's stream" },
		{ "p2p/ce/read", 1, X_PEER,
		  "hipMemcpyPeerAsync on the destination's stream" },
		{ "p2p/sm/read", 1, X_KERNEL,
		  "a copy kernel on the destination reading the source's memory" },
		{ "p2p/sm/write", 0, X_KERNEL,
		  "a copy kernel on the source writing the destination's memory" },
	};
	const char *blocked = pair_blocked(nd, a, b);
	char what[240];

	for (size_t c = 0; c < sizeof(k) / sizeof(k[0]) && !hmb_interrupted(); c++) {
		struct multi m = { .wait_for = -1 };
		struct hmb_record *r;
		if (!node_sel(nd, k[c].name))
			continue;
		if (blocked) {
			pair_unsupported(nd, k[c].name, a, b, blocked);
			continue;
		}
		r = pair_record(nd, k[c].name, a, b, 1);
		hmb_param_str(r, "stream", k[c].on_dst ? "destination" : "source");
		if (k[c].kind == X_KERNEL)
			geometry_params(nd, r);
		m.x[m.nx++] = pair_xfer(nd, a, b, k[c].on_dst ? b : a, k[c].kind, 1);
		snprintf(what, sizeof(what), "%s, GPU%d -> GPU%d, peer access enabled (fork/join "
			 "events)", k[c].what, a, b);
		pair_case(nd, r, &m, what, 1);
	}
}

/* The chase: GPU b reads a chain in GPU a's memory. */
static void peer_latency(struct node *nd, int a, int b)
{
	struct multi m = { .wait_for = -1 };
	const char *blocked = pair_blocked(nd, a, b);
	struct hmb_record *r;

	if (!node_sel(nd, "p2p/latency") || hmb_interrupted())
		return;
	if (blocked) {
		pair_unsupported(nd, "p2p/latency", a, b, blocked);
		return;
	}
	r = pair_record(nd, "p2p/latency", a, b, 1);
	hmb_param_str(r, "reader", "destination");
	m.x[m.nx++] = (struct xfer){ .gpu = b, .kind = X_CHASE, .dst = nd->g[b].pos,
				     .src = nd->g[a].chain, .src_gpu = a, .check_gpu = -1 };
	pair_case(nd, r, &m, "a one-thread kernel on the destination "
					   "making dependent loads through a chain in the source's "
					   "memory (fork/join events)", 1);
}

/* Every other GPU copies to g (all-to-one) or from g (one-to-all), each on
 * its own stream, all at once. */
static void fan(struct node *nd, int g, int to_one)
{
	const char *name = to_one ? "p2p/ce/all-to-one" : "p2p/ce/one-to-all";
	struct multi m = { .wait_for = -1 };
	struct hmb_record *r;
	const char *blocked = NULL;
	char what[240];

	if (!node_sel(nd, name) || hmb_interrupted())
		return;
	for (int p = 0; p < nd->n; p++) {
		const char *why = p == g ? NULL : pair_blocked(nd, p, g);
		if (why)
			blocked = why;
		else if (p != g)
			m.x[m.nx++] = to_one ? pair_xfer(nd, p, g, p, X_PEER, 1)
					     : pair_xfer(nd, g, p, p, X_PEER, 1);
	}
	r = node_record(nd, name, g, -1);
	hmb_param_num(r, "size", (double)nd->size);
	hmb_param_num(r, "peers", m.nx);
	hmb_param_str(r, "peer_access", "enabled");
	if (m.nx == 0) {
		hmb_record_status(r, HMB_UNSUPPORTED, "%s", blocked);
		hmb_commit(nd->ctx, r);
		return;
	}
	if (blocked)
		hmb_observe_str(r, "peers_left_out", blocked);
	snprintf(what, sizeof(what), to_one ? "hipMemcpyPeerAsync from every other GPU into GPU%d, "
		 "each on its own stream, at once (fork/join events)"
		 : "hipMemcpyPeerAsync of GPU%d's buffer into every other GPU, each reading on its "
		 "own stream, at once (fork/join events)", g);
	node_measure(nd, r, &m, what, 1);
	hmb_commit(nd->ctx, r);
}

/* The reference loops from the first GPU (the timing stream's) to GPU b:
 * its copy into b, and its chase over b's memory, straight on the timing
 * stream. */
static void reference(struct node *nd, int h, int b)
{
	const char *blocked = pair_blocked(nd, h, b);
	char what[240];

	if (node_sel(nd, "p2p/ce/write/reference") && !hmb_interrupted()) {
		struct multi m = { .wait_for = -1 };
		size_t bytes = pair_bytes(nd, 1);
		int copies = bytes >= REFERENCE_BYTES ? 1 : (int)(REFERENCE_BYTES / bytes);
		if (blocked) {
			pair_unsupported(nd, "p2p/ce/write/reference", h, b, blocked);
		} else {
			struct hmb_record *r = pair_record(nd, "p2p/ce/write/reference", h, b, 1);
			hmb_param_str(r, "stream", "source");
			m.x[m.nx++] = pair_xfer(nd, h, b, h, X_PEER, 1);
			snprintf(what, sizeof(what), "%d x hipMemcpyPeerAsync GPU%d -> GPU%d back to "
				 "back on the timing stream (events around them; no fork, join or "
				 "latch)", copies, nd->g[h].ord, nd->g[b].ord);
			node_reference(nd, r, &m, what, copies);
			hmb_commit(nd->ctx, r);
		}
	}
	if (node_sel(nd, "p2p/latency/reference") && !hmb_interrupted()) {
		struct multi m = { .wait_for = -1 };
		if (blocked) {
			pair_unsupported(nd, "p2p/latency/reference", b, h, blocked);
		} else {
			struct hmb_record *r = pair_record(nd, "p2p/latency/reference", b, h, 1);
			hmb_param_str(r, "reader", "destination");
			m.x[m.nx++] = (struct xfer){ .gpu = h, .kind = X_CHASE, .dst = nd->g[h].pos,
						     .src = nd->g[b].chain, .src_gpu = b,
						     .check_gpu = -1 };
			snprintf(what, sizeof(what), "the chase of p2p/latency, GPU%d reading GPU%d's "
				 "memory, straight on the timing stream (events around it; no fork, "
				 "join or latch)", nd->g[h].ord, nd->g[b].ord);
			node_reference(nd, r, &m, what, 1);
			hmb_commit(nd->ctx, r);
		}
	}
}

int node_p2p_enabled(struct node *nd)
{
	int h = 0;
	if (nd->n < 2)
		return 0;
	for (int a = 0; a < nd->n; a++)
		for (int b = 0; b < nd->n; b++)
			if (a != b) {
				enabled_copies(nd, a, b);
				peer_latency(nd, a, b);
			}
	for (int a = 0; a < nd->n; a++)
		for (int b = a + 1; b < nd->n; b++) {
			const char *blocked = pair_blocked(nd, a, b);
			if (blocked) {
				if (node_sel(nd, "p2p/ce/bidir-write"))
					pair_unsupported(nd, "p2p/ce/bidir-write", a, b, blocked);
				if (node_sel(nd, "p2p/ce/bidir-read"))
					pair_unsupported(nd, "p2p/ce/bidir-read", a, b, blocked);
				continue;
			}
			bidir(nd, "p2p/ce/bidir-write", a, b, 0, 1);
			bidir(nd, "p2p/ce/bidir-read", a, b, 1, 1);
		}
	for (int g = 0; g < nd->n; g++) {
		fan(nd, g, 1);
		fan(nd, g, 0);
	}
	while (h < nd->n - 1 && nd->g[h].ord != nd->home)
		h++;
	for (int b = 0; b < nd->n; b++)
		if (b != h)
			reference(nd, h, b);
	return 0;
}
