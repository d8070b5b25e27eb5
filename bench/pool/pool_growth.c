/*
 * pool_growth.c - a working set that grows out of a pool, for the pool
 * module (pool.c).
 *
 * grow/POOL: blocks of --grow-step (64M) are allocated one after another
 * from the pool and all stay alive, up to --grow-limit (8G; --quick 1G,
 * lowered to fit in free device memory with 1 GiB to spare). POOL is
 * default-pool (hipMallocAsync from the device's default pool at its own
 * release threshold) or created-pool (hipMallocFromPoolAsync from a pool
 * made for the case, release threshold unlimited). A sample is one step:
 * the allocation and a hipStreamSynchronize (host clock), so there are as
 * many samples as steps whatever --reps says. Between steps, untimed: the
 * pool's reserved and used bytes, current and high-water, are read (the
 * observations *_per_step, one value per step, comma-separated) and a
 * kernel fills the new block with a pattern of its own. The high-water
 * marks are reset to 0 before the first step, and the default pool trimmed,
 * so they count this growth alone. After the last step every block is
 * checked (a block that aliased another would hold the other's pattern),
 * then all are freed: reserved_bytes_after_free is what the pool keeps
 * (its release threshold decides), reserved_bytes_after_trim what
 * hipMemPoolTrimTo(pool, 0) leaves. The release threshold is put back.
 *
 * Reading the numbers: a step that maps new memory into the pool costs
 * more than one the pool serves from what it holds; the reserved bytes
 * say which steps grew the pool, and by how much (a pool may reserve more
 * than it hands out).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pool/pool.h"
#include "engine/measure.h"
#include "engine/verify.h"
#include "kernels/kernels.h"
#include "util/util.h"

#define GROW_SEED 0x6000u
#define GROW_HEADROOM (1ull << 30)  /* free device memory left alone */
#define GROW_MAX_STEPS 100000

/* The pool's attributes read after every step, in this order. */
enum { RES_CUR, RES_HIGH, USED_CUR, USED_HIGH, NATTR };
static const char *const attr_key[NATTR] = {
	"pool_reserved_bytes_per_step", "pool_reserved_high_bytes_per_step",
	"pool_used_bytes_per_step", "pool_used_high_bytes_per_step",
};

struct growth {
	int created;                /* a pool made for the case, else the default pool */
	hipMemPool_t pool;
	uint64_t threshold;         /* the release threshold before the case */
	int threshold_read;
	size_t step;
	int nsteps;
	void **blocks;              /* nblocks of them alive */
	int nblocks;
	uint64_t *attr[NATTR];      /* [step] */
	int nread;                  /* steps whose attributes were read */
	struct hmb_record *r;
};

static hipError_t get_attr(hipMemPool_t pool, int k, uint64_t *v)
{
	static const hipMemPoolAttr attr[NATTR] = {
		hipMemPoolAttrReservedMemCurrent, hipMemPoolAttrReservedMemHigh,
		hipMemPoolAttrUsedMemCurrent, hipMemPoolAttrUsedMemHigh,
	};
	return hipMemPoolGetAttribute(pool, attr[k], v);
}

static int grow_setup(struct hmb_ctx *ctx, void *st)
{
	struct growth *g = st;
	hipMemPoolProps props;
	uint64_t zero = 0, unlimited = UINT64_MAX, v = 0;

	HMB_TRY(hipStreamSynchronize(ctx->stream));
	if (g->created) {
		memset(&props, 0, sizeof(props));
		props.allocType = hipMemAllocationTypePinned;
		props.location.type = hipMemLocationTypeDevice;
		props.location.id = ctx->dev->ordinal;
		HMB_TRY(hipMemPoolCreate(&g->pool, &props));
		hmb_own_pool(ctx, g->pool); /* destroyed after teardown has freed the blocks */
	} else {
		HMB_TRY(hipDeviceGetDefaultMemPool(&g->pool, ctx->dev->ordinal));
	}
	HMB_TRY(hipMemPoolGetAttribute(g->pool, hipMemPoolAttrReleaseThreshold, &g->threshold));
	g->threshold_read = 1;
	if (g->created)
		HMB_TRY(hipMemPoolSetAttribute(g->pool, hipMemPoolAttrReleaseThreshold,
					       &unlimited));
	/* What earlier cases left in the default pool is not this growth's. */
	HMB_TRY(hipMemPoolTrimTo(g->pool, 0));
	HMB_TRY(hipMemPoolSetAttribute(g->pool, hipMemPoolAttrReservedMemHigh, &zero));
	HMB_TRY(hipMemPoolSetAttribute(g->pool, hipMemPoolAttrUsedMemHigh, &zero));
	HMB_TRY(get_attr(g->pool, RES_CUR, &v));
	hmb_observe_num(g->r, "pool_reserved_bytes_at_start", (double)v);
	g->blocks = hmb_xcalloc((size_t)g->nsteps, sizeof(*g->blocks));
	for (int k = 0; k < NATTR; k++)
		g->attr[k] = hmb_xcalloc((size_t)g->nsteps, sizeof(*g->attr[k]));
	return 0;
}

/* Untimed, after step i: the pool's attributes, then the new block filled. */
static int finish_step(struct hmb_ctx *ctx, struct growth *g, int i)
{
	for (int k = 0; k < NATTR; k++)
		HMB_TRY(get_attr(g->pool, k, &g->attr[k][i]));
	g->nread = i + 1;
	HMB_TRY(hmb_launch_fill(g->blocks[i], 0, g->step / 4, GROW_SEED + (uint32_t)i,
				ctx->stream));
	HMB_TRY(hipStreamSynchronize(ctx->stream));
	return 0;
}

static int grow_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct growth *g = st;
	return sample > 0 ? finish_step(ctx, g, sample - 1) : 0;
}

/* Step i: one more block from the pool (the engine synchronises the stream). */
static int grow_op(struct hmb_ctx *ctx, void *st, hipStream_t s, long i)
{
	struct growth *g = st;
	void *p = NULL;

	(void)ctx;
	if (i < 0 || i >= g->nsteps || i != g->nblocks) {
		hmb_set_error("growth step %ld asked for, %d blocks allocated of %d", i, g->nblocks,
			      g->nsteps);
		return -1;
	}
	if (g->created)
		HMB_TRY(hipMallocFromPoolAsync(&p, g->step, g->pool, s));
	else
		HMB_TRY(hipMallocAsync(&p, g->step, s));
	g->blocks[g->nblocks++] = p;
	return 0;
}

/* Free every block still alive, on the case's stream, and wait. */
static int free_blocks(struct hmb_ctx *ctx, struct growth *g)
{
	while (g->nblocks > 0) {
		HMB_TRY(hipFreeAsync(g->blocks[g->nblocks - 1], ctx->stream));
		g->blocks[--g->nblocks] = NULL;
	}
	HMB_TRY(hipStreamSynchronize(ctx->stream));
	return 0;
}

/* Every block holds its own pattern; then what the pool keeps once all is
 * freed, before and after a trim. */
static int grow_verify(struct hmb_ctx *ctx, void *st)
{
	struct growth *g = st;
	uint64_t v = 0;

	if (g->nblocks != g->nsteps) {
		hmb_set_error("the growth ended with %d blocks, not %d", g->nblocks, g->nsteps);
		return -1;
	}
	if (finish_step(ctx, g, g->nsteps - 1))
		return -1;
	for (int i = 0; i < g->nblocks; i++) {
		unsigned long long bad = 0;
		HMB_TRY(hmb_check_device(g->blocks[i], 0, g->step, GROW_SEED + (uint32_t)i, 0,
					 &bad));
		if (hmb_verify_result(bad, "words of block %d (of %d, %s each) do not hold "
				      "its pattern", i, g->nblocks, hmb_sz(g->step)))
			return -1;
	}
	if (free_blocks(ctx, g))
		return -1;
	HMB_TRY(get_attr(g->pool, RES_CUR, &v));
	hmb_observe_num(g->r, "reserved_bytes_after_free", (double)v);
	HMB_TRY(get_attr(g->pool, USED_CUR, &v));
	hmb_observe_num(g->r, "used_bytes_after_free", (double)v);
	HMB_TRY(hipMemPoolTrimTo(g->pool, 0));
	HMB_TRY(get_attr(g->pool, RES_CUR, &v));
	hmb_observe_num(g->r, "reserved_bytes_after_trim", (double)v);
	return 0;
}

static void grow_teardown(struct hmb_ctx *ctx, void *st)
{
	struct growth *g = st;

	(void)hipStreamSynchronize(ctx->stream);
	(void)free_blocks(ctx, g);
	if (g->threshold_read)
		(void)hipMemPoolSetAttribute(g->pool, hipMemPoolAttrReleaseThreshold,
					     &g->threshold);
	(void)hipGetLastError();
	free(g->blocks);
	g->blocks = NULL;
}

/* One value per step read, comma-separated: an observation of the record. */
static void observe_steps(struct hmb_record *r, const char *key, const uint64_t *v, int n)
{
	size_t len = (size_t)n * 21 + 1, used = 0;
	char *text = hmb_xcalloc(len, 1);

	for (int i = 0; i < n; i++)
		used += (size_t)snprintf(text + used, len - used, "%s%" PRIu64, i ? "," : "", v[i]);
	hmb_observe_str(r, key, text);
	free(text);
}

static void growth(struct hmb_ctx *ctx, int created, size_t step, size_t limit, int capped)
{
	struct hmb_record *r = hmb_case_record(ctx, "grow/%s", created ? "created-pool" : "default-pool");
	struct growth g = { .created = created, .step = step, .r = r };
	char what[160];
	struct hmb_case c = {
		.what = what,
		.timing = { .clock = HMB_CLOCK_HOST, .sync = HMB_SYNC_PER_OP },
		.ops = { grow_setup, grow_prepare, grow_op, grow_verify, grow_teardown },
		.state = &g,
	};

	if (!hmb_keep_selected(ctx, r))
		return;
	snprintf(what, sizeof(what), "%s of one more %s block (the earlier ones stay allocated)",
		 created ? "hipMallocFromPoolAsync" : "hipMallocAsync", hmb_sz(step));
	hmb_param_num(r, "size", (double)limit);
	hmb_param_num(r, "step", (double)step);
	hmb_param_str(r, "pool", created ? "created (hipMemPoolCreate)" : "the device's default");
	hmb_param_str(r, "release_threshold", created ? "unlimited" : "the pool's own");
	hmb_param_str(r, "untimed_between_steps", "the pool's reserved and used bytes (current, "
		      "high-water) read, the new block filled by a kernel");
	hmb_context_str(r, "verification", "after the last step: every block checked for its own "
			"pattern, then all freed");
	if (capped)
		hmb_observe_bool(r, "limit_capped_by_free_memory", 1);
	if (limit < step) {
		hmb_record_status(r, HMB_SKIPPED, "nothing to grow: the limit %s%s is below one "
				  "step of %s", hmb_sz(limit), capped ? " (capped by free device "
				  "memory, 1 GiB to spare)" : "", hmb_sz(step));
		hmb_commit(ctx, r);
		return;
	}
	if (limit / step > GROW_MAX_STEPS) {
		hmb_record_status(r, HMB_SKIPPED, "refused: growing to %s by %s takes more than %d "
				  "steps; use a larger --grow-step", hmb_sz(limit), hmb_sz(step),
				  GROW_MAX_STEPS);
		hmb_commit(ctx, r);
		return;
	}
	g.nsteps = (int)(limit / step);
	if (hmb_measure_steps(ctx, r, &c, g.nsteps) == 0) {
		hmb_observe_num(r, "release_threshold_bytes", (double)g.threshold);
		for (int k = 0; k < NATTR; k++)
			observe_steps(r, attr_key[k], g.attr[k], g.nread);
		hmb_observe_num(r, "pool_reserved_high_bytes", (double)g.attr[RES_HIGH][g.nread - 1]);
		hmb_observe_num(r, "pool_used_high_bytes", (double)g.attr[USED_HIGH][g.nread - 1]);
	}
	for (int k = 0; k < NATTR; k++)
		free(g.attr[k]);
	hmb_commit(ctx, r);
}

void pool_growth(struct hmb_ctx *ctx)
{
	size_t step, limit, free_mem, avail;
	int capped = 0;

	if (!hmb_selected(ctx, "grow/default-pool") && !hmb_selected(ctx, "grow/created-pool"))
		return;
	step = hmb_opt_size(ctx, "grow-step", 64u << 20);
	step = step < 4 ? 4 : step / 4 * 4; /* whole words for the pattern */
	limit = hmb_opt_size(ctx, "grow-limit", ctx->opt->quick ? 1ull << 30 : 8ull << 30);
	free_mem = hmb_device_free_mem();
	avail = free_mem > GROW_HEADROOM ? free_mem - GROW_HEADROOM : 0;
	if (limit > avail) {
		limit = avail;
		capped = 1;
		fprintf(stderr, "[pool] growth limit capped to %s by free device memory "
			"(%.1f GiB)\n", hmb_sz(limit), (double)free_mem / (1 << 30));
	}
	limit = limit / step * step;
	for (int created = 0; created < 2 && !hmb_interrupted(); created++)
		growth(ctx, created, step, limit, capped);
}
