/*
 * node_multi.c - work spread over several GPUs, timed by the engine: a fork
 * event on the timing stream, every GPU's stream waiting for it and taking
 * its transfer, join events the timing stream waits for; poisoning before
 * and checking after; the helpers every part of the node module shares.
 */
#include <stdio.h>
#include <string.h>

#include "bench/node/node.h"
#include "engine/measure.h"
#include "engine/parallel.h"
#include "engine/verify.h"
#include "kernels/kernels.h"

int node_sync_all(struct node *nd)
{
	hipError_t e, first = hipSuccess;

	for (int i = 0; i < nd->n; i++) {
		e = hipSetDevice(nd->g[i].ord);
		if (e == hipSuccess)
			e = hipDeviceSynchronize();
		if (e != hipSuccess && first == hipSuccess) {
			first = e;
			hmb_hip_error("hipDeviceSynchronize() on every GPU", e, __FILE__, __LINE__);
		}
	}
	e = hipSetDevice(nd->home);
	if (e != hipSuccess && first == hipSuccess) {
		first = e;
		hmb_hip_error("hipSetDevice(home)", e, __FILE__, __LINE__);
	}
	return first == hipSuccess ? 0 : -1;
}

uint32_t node_chain_walk(const struct node *nd, long long steps)
{
	uint32_t p = 0;
	for (long long i = 0; i < steps; i++)
		p = nd->next[p];
	return p;
}

double node_gbps(const struct hmb_record *r)
{
	struct hmb_summary s;
	hmb_record_summarize(r, &s);
	return s.gbps_median;
}

int node_bad_reset(struct node *nd, int gi)
{
	struct node_gpu *g = &nd->g[gi];
	HMB_TRY(hipSetDevice(g->ord));
	HMB_TRY(hipMemsetAsync(g->bad, 0, sizeof(*g->bad), g->s[0]));
	return 0;
}

int node_bad_read(struct node *nd, int gi, unsigned long long *bad)
{
	struct node_gpu *g = &nd->g[gi];
	HMB_TRY(hipSetDevice(g->ord));
	HMB_TRY(hipStreamSynchronize(g->s[0]));
	HMB_TRY(hipMemcpy(bad, g->bad, sizeof(*bad), hipMemcpyDeviceToHost));
	return 0;
}

/* ---- transfers over several GPUs, timed by the engine ----------------------------- */

static int multi_setup(struct hmb_ctx *ctx, void *st)
{
	struct multi *m = st;
	struct node *nd = m->nd;

	(void)ctx;
	for (int k = 0; k < m->nx; k++) {
		struct xfer *x = &m->x[k];
		if (x->kind == X_CHASE && x->src_gpu >= 0) {
			/* the chain was written by a copy: write enough of the owner's
			 * memory over its cache that no slot is read from there */
			struct node_gpu *o = &nd->g[x->src_gpu];
			HMB_CHECK(hipSetDevice(o->ord));
			HMB_CHECK(hmb_launch_fill(o->dst, 0, node_dst_bytes(nd) / 4, SEED_POISON,
						  o->s[0]));
		}
		if (x->kind == X_CHASE) {
			HMB_CHECK(hipSetDevice(nd->g[x->gpu].ord));
			HMB_CHECK(hipMemsetAsync(x->dst, 0, sizeof(uint32_t), nd->g[x->gpu].s[0]));
		} else if (x->check_gpu >= 0) {
			struct node_gpu *c = &nd->g[x->check_gpu];
			HMB_CHECK(hipSetDevice(c->ord));
			HMB_CHECK(hmb_launch_fill(x->check, 0, x->bytes / 4, SEED_POISON, c->s[0]));
		}
	}
	return node_sync_all(nd);
fail:
	(void)hipSetDevice(nd->home);
	return -1;
}

/* "in-all": the GPUs not waited for finish before the next sample begins. */
static int multi_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct multi *m = st;
	(void)ctx;
	(void)sample;
	return node_sync_all(m->nd);
}

static int enqueue(struct node *nd, const struct xfer *x, hipStream_t s)
{
	switch (x->kind) {
	case X_PEER:
		HMB_TRY(hipMemcpyPeerAsync(x->dst, nd->g[x->dst_gpu].ord, x->src,
					   nd->g[x->src_gpu].ord, x->bytes, s));
		break;
	case X_H2D:
		HMB_TRY(hipMemcpyAsync(x->dst, x->src, x->bytes, hipMemcpyHostToDevice, s));
		break;
	case X_D2H:
		HMB_TRY(hipMemcpyAsync(x->dst, x->src, x->bytes, hipMemcpyDeviceToHost, s));
		break;
	case X_KERNEL:
		HMB_TRY(hmb_launch_wide_copy(x->dst, x->src, x->bytes, s));
		break;
	case X_CHASE:
		HMB_TRY(hmb_launch_chase(x->src, nd->stride, x->dst, nd->loads, s));
		break;
	}
	return 0;
}

/* The streams m's transfers run on, in the order of first use (fork), and
 * those the sample waits for (join: every GPU's, or the one's for "in-all"). */
static void multi_lanes(const struct multi *m, struct hmb_lane *fork, int *nfork,
			struct hmb_lane *join, int *njoin)
{
	const struct node *nd = m->nd;
	int used[NODE_MAX][2] = { { 0 } };

	*nfork = *njoin = 0;
	for (int k = 0; k < m->nx; k++) {
		const struct xfer *x = &m->x[k];
		const struct node_gpu *g = &nd->g[x->gpu];
		if (!used[x->gpu][x->lane])
			fork[(*nfork)++] = (struct hmb_lane){ g->s[x->lane], g->join[x->lane], g->ord };
		used[x->gpu][x->lane] = 1;
	}
	for (int gi = 0; gi < nd->n; gi++)
		for (int l = 0; l < 2; l++)
			if (used[gi][l] && (m->wait_for < 0 || m->wait_for == gi))
				join[(*njoin)++] = (struct hmb_lane){ nd->g[gi].s[l], nd->g[gi].join[l],
								      nd->g[gi].ord };
}

static int multi_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct multi *m = st;
	struct node *nd = m->nd;
	struct hmb_lane fork[2 * NODE_MAX], join[2 * NODE_MAX];
	int nfork, njoin;

	(void)ctx;
	m->ops = i + 1;
	multi_lanes(m, fork, &nfork, join, &njoin);
	if (hmb_fork(stream, nd->fork, fork, nfork))
		goto fail;
	for (int k = 0; k < m->nx; k++) {
		const struct xfer *x = &m->x[k];
		struct node_gpu *g = &nd->g[x->gpu];
		HMB_CHECK(hipSetDevice(g->ord));
		if (enqueue(nd, x, g->s[x->lane]))
			goto fail;
	}
	if (hmb_join(stream, nd->home, join, njoin))
		goto fail;
	return 0;
fail:
	(void)hipSetDevice(nd->home);
	return -1;
}

/* The reference loop's op: the one transfer straight on the timing stream. */
static int reference_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct multi *m = st;

	(void)ctx;
	m->ops = i + 1;
	return enqueue(m->nd, &m->x[0], stream);
}

static int check_chase(struct node *nd, const struct multi *m, const struct xfer *x)
{
	uint32_t at = 0, want = node_chain_walk(nd, m->ops * nd->loads);

	HMB_TRY(hipSetDevice(nd->g[x->gpu].ord));
	HMB_TRY(hipMemcpy(&at, x->dst, sizeof(at), hipMemcpyDeviceToHost));
	if (at != want) {
		hmb_set_error("verification failed: GPU%d's chase ended on slot %u, the chain says "
			      "%u", nd->g[x->gpu].ord, at, want);
		return -1;
	}
	return 0;
}

int node_check(struct node *nd, const struct multi *m, const char *what)
{
	int checked[NODE_MAX] = { 0 };

	for (int k = 0; k < m->nx; k++) {
		const struct xfer *x = &m->x[k];
		struct node_gpu *c;
		if (x->kind == X_CHASE || x->check_gpu < 0)
			continue;
		c = &nd->g[x->check_gpu];
		if (!checked[x->check_gpu] && node_bad_reset(nd, x->check_gpu))
			goto fail;
		checked[x->check_gpu] = 1;
		HMB_CHECK(hipSetDevice(c->ord));
		HMB_CHECK(hmb_corrupt_point(x->check, "a node check"));
		HMB_CHECK(hmb_launch_check(x->check, 0, x->bytes / 4, x->seed, 0, c->bad, c->s[0]));
	}
	for (int gi = 0; gi < nd->n; gi++) {
		unsigned long long bad = 0;
		if (!checked[gi])
			continue;
		if (node_bad_read(nd, gi, &bad))
			goto fail;
		if (hmb_verify_result(bad, "words differ in what GPU%d %s", nd->g[gi].ord, what))
			goto fail;
	}
	HMB_CHECK(hipSetDevice(nd->home));
	return 0;
fail:
	(void)hipSetDevice(nd->home);
	return -1;
}

/* Every destination holds its source's pattern; every chase ends where the chain says. */
static int multi_verify(struct hmb_ctx *ctx, void *st)
{
	struct multi *m = st;
	struct node *nd = m->nd;

	(void)ctx;
	if (node_sync_all(nd))
		return -1;
	for (int k = 0; k < m->nx; k++)
		if (m->x[k].kind == X_CHASE && check_chase(nd, m, &m->x[k])) {
			(void)hipSetDevice(nd->home);
			return -1;
		}
	return node_check(nd, m, "checked after the timed transfers");
}

static void multi_teardown(struct hmb_ctx *ctx, void *st)
{
	struct multi *m = st;
	(void)ctx;
	(void)node_sync_all(m->nd);
}

double node_reference(struct node *nd, struct hmb_record *r, struct multi *m, const char *what,
		      int per_sample)
{
	struct hmb_case c = {
		.what = what,
		.timing = { .clock = HMB_CLOCK_EVENTS, .sync = HMB_SYNC_PER_SAMPLE, .latch = 0,
			    .ops_per_sample = per_sample, .reps = 5, .warmup = 1 },
		.ops = { multi_setup, NULL, reference_op, multi_verify, multi_teardown },
		.state = m,
	};
	double median;

	m->nd = nd;
	m->ops = 0;
	if (m->x[0].kind == X_CHASE) {
		hmb_record_ops(r, (double)nd->loads * per_sample);
		hmb_param_num(r, "loads", (double)nd->loads);
		hmb_param_num(r, "stride_bytes", (double)nd->stride);
		hmb_param_num(r, "slots", (double)nd->slots);
	} else {
		hmb_record_bytes(r, (double)m->x[0].bytes * per_sample);
	}
	hmb_measure(nd->ctx, r, &c);
	median = hmb_median(r);
	if (m->x[0].kind == X_CHASE && median > 0)
		hmb_metric(r, "ns_per_load", median / ((double)nd->loads * per_sample) * 1e9, "ns");
	return median;
}

double node_measure(struct node *nd, struct hmb_record *r, struct multi *m, const char *what,
		    int latch)
{
	double bytes = 0, median;
	struct hmb_case c = {
		.what = what,
		.timing = { .clock = HMB_CLOCK_EVENTS, .sync = HMB_SYNC_PER_SAMPLE, .latch = latch,
			    .reps = 5, .warmup = 1 },
		.ops = { multi_setup, m->wait_for >= 0 ? multi_prepare : NULL, multi_op,
			 multi_verify, multi_teardown },
		.state = m,
	};

	m->nd = nd;
	m->ops = 0;
	for (int k = 0; k < m->nx; k++)
		if (m->x[k].kind != X_CHASE && (m->wait_for < 0 || m->x[k].gpu == m->wait_for))
			bytes += (double)m->x[k].bytes;
	if (bytes > 0) {
		hmb_record_bytes(r, bytes);
	} else {
		hmb_record_ops(r, (double)nd->loads);
		hmb_param_num(r, "loads", (double)nd->loads);
		hmb_param_num(r, "stride_bytes", (double)nd->stride);
		hmb_param_num(r, "slots", (double)nd->slots);
		hmb_context_num(r, "grid_blocks", 1);
		hmb_context_num(r, "block_threads", 1);
		if (m->x[0].src_gpu >= 0)
			hmb_observe_num(r, "cache_overwritten_bytes", (double)node_dst_bytes(nd));
	}
	hmb_measure(nd->ctx, r, &c);
	median = hmb_median(r);
	if (bytes <= 0 && median > 0)
		hmb_metric(r, "ns_per_load", median / (double)nd->loads * 1e9, "ns");
	return median;
}
