/*
 * node_cost.c - what peer access costs an allocation on the context's GPU.
 *
 * hipMalloc + hipFree with no peer access anywhere, then again once peer
 * access is enabled between this GPU and every other one (both ways): the
 * runtime then maps every new allocation into each peer. Against that, VMM:
 * hipMemCreate + hipMemAddressReserve + hipMemMap + hipMemSetAccess granting
 * this GPU and k peers, then hipMemUnmap + hipMemRelease + hipMemAddressFree,
 * for k = 0, 1, ... (measured before any peer access is enabled: VMM needs
 * none). Host clock around each call sequence. After timing, memory made the
 * same way is filled on this GPU and read back by every GPU that was given
 * access, so a grant that did not work fails the record.
 */
#include <stdio.h>
#include <string.h>

#include "bench/node/node.h"
#include "engine/measure.h"
#include "kernels/kernels.h"
#include "stats/stability.h"

#define SEED_COST 0x4e3c05u

struct alloc_case {
	struct node *nd;
	size_t size;
	int vmm;
	int readers[NODE_MAX];     /* who must read the memory back: home first */
	int nreaders;
#if HMB_HAVE_VMM
	hipMemAllocationProp prop;
	hipMemAccessDesc desc[NODE_MAX];
#endif
};

/* Medians kept for the metrics, by size index and peers granted. */
struct cost_figures {
	struct hmb_sizes sizes;
	double no_peer[HMB_MAX_SIZES];
	double vmm[HMB_MAX_SIZES][NODE_MAX];
	const char *vmm_unsound[HMB_MAX_SIZES][NODE_MAX]; /* why a median is no base */
};
static struct cost_figures fig;

/* Fill p on home; every reader checks it. */
static int readers_check(struct alloc_case *k, void *p)
{
	struct node *nd = k->nd;
	struct multi m = { .nd = nd };
	char what[96];

	HMB_CHECK(hipSetDevice(nd->home));
	HMB_CHECK(hmb_launch_fill(p, 0, k->size / 4, SEED_COST, nd->g[nd->home].s[0]));
	HMB_CHECK(hipStreamSynchronize(nd->g[nd->home].s[0]));
	for (int i = 0; i < k->nreaders; i++)
		m.x[m.nx++] = (struct xfer){ .check_gpu = k->readers[i], .check = p,
					     .bytes = k->size, .seed = SEED_COST };
	snprintf(what, sizeof(what), "read of memory allocated on GPU%d", nd->home);
	return node_check(nd, &m, what);
fail:
	(void)hipSetDevice(nd->home);
	return -1;
}

static int cost_setup(struct hmb_ctx *ctx, void *st)
{
	struct alloc_case *k = st;
	(void)ctx;
	HMB_TRY(hipSetDevice(k->nd->home));
	return 0;
}

static int malloc_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct alloc_case *k = st;
	void *p = NULL;

	(void)ctx;
	(void)stream;
	(void)i;
	HMB_CHECK(hipMalloc(&p, k->size));
	HMB_CHECK(hipFree(p));
	return 0;
fail:
	if (p)
		(void)hipFree(p);
	return -1;
}

static int malloc_verify(struct hmb_ctx *ctx, void *st)
{
	struct alloc_case *k = st;
	void *p = NULL;
	int rc;

	(void)ctx;
	HMB_TRY(hipMalloc(&p, k->size));
	rc = readers_check(k, p);
	(void)hipFree(p);
	return rc;
}

#if HMB_HAVE_VMM
/* Create, reserve, map and grant; the undo of whatever was done on failure. */
static int vmm_map(struct alloc_case *k, hipMemGenericAllocationHandle_t *h, void **p)
{
	int created = 0, mapped = 0;

	*p = NULL;
	HMB_CHECK(hipMemCreate(h, k->size, &k->prop, 0));
	created = 1;
	HMB_CHECK(hipMemAddressReserve(p, k->size, 0, NULL, 0));
	HMB_CHECK(hipMemMap(*p, k->size, 0, *h, 0));
	mapped = 1;
	HMB_CHECK(hipMemSetAccess(*p, k->size, k->desc, (size_t)k->nreaders));
	return 0;
fail:
	if (mapped)
		(void)hipMemUnmap(*p, k->size);
	if (*p)
		(void)hipMemAddressFree(*p, k->size);
	if (created)
		(void)hipMemRelease(*h);
	(void)hipGetLastError();
	*p = NULL;
	return -1;
}

static int vmm_unmap(struct alloc_case *k, hipMemGenericAllocationHandle_t h, void *p)
{
	hipError_t e1 = hipMemUnmap(p, k->size), e2 = hipMemRelease(h),
		   e3 = hipMemAddressFree(p, k->size);

	if (e1 != hipSuccess)
		hmb_hip_error("hipMemUnmap(p, size)", e1, __FILE__, __LINE__);
	else if (e2 != hipSuccess)
		hmb_hip_error("hipMemRelease(handle)", e2, __FILE__, __LINE__);
	else if (e3 != hipSuccess)
		hmb_hip_error("hipMemAddressFree(p, size)", e3, __FILE__, __LINE__);
	return e1 == hipSuccess && e2 == hipSuccess && e3 == hipSuccess ? 0 : -1;
}

static int vmm_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct alloc_case *k = st;
	hipMemGenericAllocationHandle_t h;
	void *p;

	(void)ctx;
	(void)stream;
	(void)i;
	if (vmm_map(k, &h, &p))
		return -1;
	return vmm_unmap(k, h, p);
}

static int vmm_verify(struct hmb_ctx *ctx, void *st)
{
	struct alloc_case *k = st;
	hipMemGenericAllocationHandle_t h;
	void *p;
	int rc;

	(void)ctx;
	if (vmm_map(k, &h, &p))
		return -1;
	rc = readers_check(k, p);
	if (vmm_unmap(k, h, p))
		rc = -1;
	return rc;
}
#endif

static double measure_alloc(struct node *nd, struct hmb_record *r, struct alloc_case *k,
			    const char *what)
{
	struct hmb_case c = {
		.what = what,
		.timing = { .clock = HMB_CLOCK_HOST, .sync = HMB_SYNC_NONE, .reps = 10, .warmup = 2 },
		.ops = { cost_setup, NULL, malloc_op, malloc_verify, NULL },
		.state = k,
	};
#if HMB_HAVE_VMM
	if (k->vmm) {
		c.ops.op = vmm_op;
		c.ops.verify = vmm_verify;
	}
#endif
	k->nd = nd;
	hmb_param_num(r, "size", (double)k->size);
	hmb_param_gpu(r, "gpu", nd->home);
	hmb_record_ops(r, 1);
	hmb_measure(nd->ctx, r, &c);
	return hmb_median(r);
}

/* Room on the home GPU for one allocation of size? A "skipped" record when not. */
static int fits(struct node *nd, const char *name, size_t size)
{
	size_t free_mem = hmb_device_free_mem();
	if (size + (256u << 20) <= free_mem)
		return 1;
	hmb_skip(nd->ctx, name, size, "needs %s on GPU%d, %.1f GiB free", hmb_sz(size), nd->home,
		 (double)free_mem / (1 << 30));
	return 0;
}

/* GPUs other than home that may be granted access to home's memory. */
static int grantable(const struct node *nd, int *out)
{
	int n = 0;
	for (int p = 0; p < nd->n; p++)
		if (p != nd->home && nd->topo.pair[p][nd->home].can_access_peer == 1)
			out[n++] = p;
	return n;
}

static void no_peer_access(struct node *nd, size_t si)
{
	struct alloc_case k = { .size = fig.sizes.v[si], .readers = { nd->home }, .nreaders = 1 };
	const char *name = "access-cost/hipmalloc/no-peer-access";
	struct hmb_record *r;
	char what[160];

	if (!node_sel(nd, name) || !fits(nd, name, k.size))
		return;
	r = hmb_case_record(nd->ctx, "%s", name);
	hmb_param_num(r, "peers", 0);
	snprintf(what, sizeof(what), "hipMalloc + hipFree of %s on GPU%d, no peer access enabled",
		 hmb_sz(k.size), nd->home);
	fig.no_peer[si] = measure_alloc(nd, r, &k, what);
	hmb_commit(nd->ctx, r);
}

#if HMB_HAVE_VMM
/* Why a record's median is no base for a difference (NULL: it is one): an
 * interval wider than the stability threshold, or samples that drifted or
 * fell into two groups (the driver's first VMM calls on a GPU can take ten
 * times the later ones, within one case). */
static const char *unsound(const struct hmb_record *r)
{
	struct hmb_stability st;

	if (hmb_stability_compute(r->samples, r->nsamples, &st) != 0)
		return "no samples";
	if (st.shape == HMB_SHAPE_DRIFT)
		return "its samples drifted";
	if (st.shape == HMB_SHAPE_BIMODAL)
		return "its samples fell into two groups";
	if (st.stable == 0)
		return "its median's 95% interval is wider than +-2%";
	return NULL;
}

/* per_peer_us, a difference of two medians, only where both are sound and
 * it is positive: a figure a reader can act on, or the reason there is none
 * (observed per_peer_us_withheld). */
static void per_peer(struct hmb_record *r, size_t si, int kk, double t)
{
	const char *base = fig.vmm_unsound[si][0], *own = fig.vmm_unsound[si][kk];
	char why[160];

	if (base || own)
		snprintf(why, sizeof(why), "%s: %s", base ? "the 0-peer case" : "this case",
			 base ? base : own);
	else if (t <= fig.vmm[si][0])
		snprintf(why, sizeof(why), "granting peers was not slower than granting none");
	else {
		hmb_metric(r, "per_peer_us", (t - fig.vmm[si][0]) / kk * 1e6, "us");
		return;
	}
	hmb_observe_str(r, "per_peer_us_withheld", why);
}
#endif

static void vmm_grants(struct node *nd, size_t si)
{
	const char *name = "access-cost/vmm";
	int peers[NODE_MAX], npeers = grantable(nd, peers);

	if (!node_sel(nd, name))
		return;
#if HMB_HAVE_VMM

	if (nd->ctx->dev->vmm != 1) {
		node_unsupported(nd, name, "the device does not support virtual memory management "
				 "(hipDeviceAttributeVirtualMemoryManagementSupported is 0)");
		return;
	}
	for (int kk = 0; kk <= npeers && !hmb_interrupted(); kk++) {
		struct alloc_case k = { .size = fig.sizes.v[si], .vmm = 1 };
		struct hmb_record *r;
		char what[240];
		double t;
		if (!fits(nd, name, k.size))
			return;
		memset(&k.prop, 0, sizeof(k.prop));
		k.prop.type = hipMemAllocationTypePinned;
		k.prop.location.type = hipMemLocationTypeDevice;
		k.prop.location.id = nd->home;
		k.readers[k.nreaders++] = nd->home;
		for (int p = 0; p < kk; p++)
			k.readers[k.nreaders++] = peers[p];
		for (int p = 0; p < k.nreaders; p++) {
			memset(&k.desc[p], 0, sizeof(k.desc[p]));
			k.desc[p].location.type = hipMemLocationTypeDevice;
			k.desc[p].location.id = k.readers[p];
			k.desc[p].flags = hipMemAccessFlagsProtReadWrite;
		}
		r = hmb_case_record(nd->ctx, "%s", name);
		hmb_param_num(r, "peers_granted", kk);
		snprintf(what, sizeof(what), "hipMemCreate + hipMemAddressReserve + hipMemMap + "
			 "hipMemSetAccess (GPU%d and %d peer%s) + hipMemUnmap + hipMemRelease + "
			 "hipMemAddressFree of %s", nd->home, kk, kk == 1 ? "" : "s",
			 hmb_sz(k.size));
		t = measure_alloc(nd, r, &k, what);
		fig.vmm[si][kk] = t;
		fig.vmm_unsound[si][kk] = t > 0 ? unsound(r) : "not measured";
		if (kk > 0)
			per_peer(r, si, kk, t);
		hmb_commit(nd->ctx, r);
	}
	if (npeers == 0 && si == 0) {
		struct hmb_record *r = hmb_case_record(nd->ctx, "%s", name);
		hmb_param_num(r, "peers_granted", 1);
		hmb_record_status(r, HMB_UNSUPPORTED, "%s", nd->n < 2 ? "one GPU visible: no peer "
				  "to grant access to" : "no other GPU can access this GPU's memory");
		hmb_commit(nd->ctx, r);
	}
#else
	(void)npeers;
	(void)si;
	node_unsupported(nd, name, "this build's HIP version has no virtual memory management "
			 "API (hipMemCreate and friends need ROCm 6.0 or later)");
#endif
}

/* The sizes, whole VMM granules (or pages), the same for hipMalloc and VMM. */
static void parse_sizes(struct node *nd)
{
	const char *spec = hmb_opt_value(nd->ctx->opt, "alloc-sizes");
	size_t g = nd->ctx->dev->vmm_granularity_min ? nd->ctx->dev->vmm_granularity_min : 4096;
	char err[128];

	if (hmb_parse_sizes(spec ? spec : nd->ctx->opt->quick ? "2M,64M" : "2M,64M,1G", &fig.sizes,
			    err, sizeof(err)) != 0)
		fig.sizes.n = 0;
	for (size_t i = 0; i < fig.sizes.n; i++)
		fig.sizes.v[i] = (fig.sizes.v[i] + g - 1) / g * g;
}

int node_cost_before(struct node *nd)
{
	memset(&fig, 0, sizeof(fig));
	parse_sizes(nd);
	for (size_t si = 0; si < fig.sizes.n && !hmb_interrupted(); si++)
		no_peer_access(nd, si);
	for (size_t si = 0; si < fig.sizes.n && !hmb_interrupted(); si++) {
		vmm_grants(nd, si);
		if (nd->ctx->dev->vmm != 1)
			break; /* one "unsupported" record says why */
	}
	return 0;
}

int node_cost_after(struct node *nd)
{
	const char *name = "access-cost/hipmalloc/peer-access";
	struct alloc_case k = { .readers = { nd->home }, .nreaders = 1 };

	if (!node_sel(nd, name))
		return 0;
	for (int p = 0; p < nd->n; p++)
		if (p != nd->home && nd->peer_on[p][nd->home] && nd->peer_on[nd->home][p])
			k.readers[k.nreaders++] = p;
	if (k.nreaders == 1) {
		node_unsupported(nd, name, nd->n < 2 ? "one GPU visible: no peer access to enable"
						     : "peer access could not be enabled with any "
						       "other GPU");
		return 0;
	}
	for (size_t si = 0; si < fig.sizes.n && !hmb_interrupted(); si++) {
		struct hmb_record *r;
		char what[200];
		double t;
		k.size = fig.sizes.v[si];
		if (!fits(nd, name, k.size))
			continue;
		r = hmb_case_record(nd->ctx, "%s", name);
		hmb_param_num(r, "peers", k.nreaders - 1);
		snprintf(what, sizeof(what), "hipMalloc + hipFree of %s on GPU%d, peer access enabled "
			 "both ways with %d other GPU%s", hmb_sz(k.size), nd->home, k.nreaders - 1,
			 k.nreaders == 2 ? "" : "s");
		t = measure_alloc(nd, r, &k, what);
		if (t > 0 && fig.no_peer[si] > 0) {
			hmb_metric(r, "added_by_peer_access_us", (t - fig.no_peer[si]) * 1e6, "us");
			hmb_metric(r, "slowdown_vs_no_peer_access", t / fig.no_peer[si], "x-slower");
		}
		if (t > 0 && fig.vmm[si][1] > 0)
			hmb_metric(r, "slowdown_vs_vmm_one_peer", t / fig.vmm[si][1], "x-slower");
		hmb_commit(nd->ctx, r);
	}
	return 0;
}
