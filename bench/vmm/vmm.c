/*
 * vmm - growing a device buffer: virtual memory management vs realloc+copy.
 *
 * A buffer grows from --start (64M) by --step (64M), or by doubling, up to
 * --limit (8G, capped so that realloc's old + new buffers fit in free memory
 * with 1 GiB to spare). Variants (params.timed says what one step contains):
 *   realloc-copy         hipMalloc of the larger buffer, hipMemcpyAsync d2d of
 *                        the old contents + hipStreamSynchronize, hipFree(old)
 *   vmm-reserve-upfront  one hipMemAddressReserve of the limit (setup, untimed);
 *                        each step hipMemCreate + hipMemMap + hipMemSetAccess of
 *                        the added chunk at the end of the range: the new bytes
 *                        are usable when the step ends
 *   vmm-extend           reserve only what is needed; each step asks for the
 *                        address right after the range; where the runtime gives
 *                        another address, the chunks are mapped again into a new,
 *                        larger range (no copy). Observed: how often each path ran.
 * The growth is one measured sequence: a sample is one step (host clock, the
 * stream synchronised after each), so there are as many samples as steps
 * whatever --reps, --warmup and --quick say. total_s is the sum of the step
 * samples; peak_bytes the most device memory the buffer held at once
 * (realloc holds old + new). Only the initial buffer carries the pattern when
 * timing starts; after the last step the initial contents are checked (they
 * survived every copy or remap) and the added bytes are filled and checked
 * (every new chunk is usable). No kernel runs between the timed steps.
 *
 * call/NAME: each VMM call alone, for every chunk size of --call-sizes;
 * free-while-busy/NAME: how long freeing a --start buffer blocks the host
 * while a ~50 ms kernel runs on another stream, hipFree vs unmap + release +
 * address free.
 * Both are measured in vmm_calls.c, whose top comment says how.
 *
 * share/posix-fd/NAME (on request: only a --case pattern that names them
 * runs them): a --share-size chunk exported as a POSIX file descriptor,
 * imported, mapped and checked by a second process, which writes a pattern
 * this one checks; export, import, map + access and the whole round are
 * timed. vmm_share.c's top comment says how.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/vmm/vmm.h"
#include "engine/verify.h"
#include "kernels/kernels.h"
#include "util/util.h"

static const char *const cases[] = {
	"grow/realloc-copy/fixed-step", "grow/realloc-copy/doubling",
	"grow/vmm-reserve-upfront/fixed-step", "grow/vmm-reserve-upfront/doubling",
	"grow/vmm-extend/fixed-step", "grow/vmm-extend/doubling",
	"call/hipMemCreate", "call/hipMemAddressReserve", "call/hipMemMap", "call/hipMemSetAccess",
	"call/hipMemUnmap", "call/hipMemRelease", "call/hipMemAddressFree",
	"free-while-busy/hipFree", "free-while-busy/vmm-unmap-release",
	"share/posix-fd/export", "share/posix-fd/import", "share/posix-fd/map-access",
	"share/posix-fd/round-trip", NULL,
};

/* Sharing starts a second process that opens the GPU (about a second): only when asked. */
static const char *const on_request[] = { "share/*", NULL };

#if HMB_HAVE_VMM

#define MAX_STEPS 100000

/* ---- grow/VARIANT/POLICY: one growth, a sample per step ---- */

enum variant { REALLOC_COPY, RESERVE_UPFRONT, EXTEND };
static const char *const variant_name[] = { "realloc-copy", "vmm-reserve-upfront",
					    "vmm-extend" };
static const char *const variant_what[] = {
	"hipMalloc(old + added bytes), hipMemcpyAsync d2d of the old contents + "
	"hipStreamSynchronize, hipFree(old)",
	"hipMemCreate + hipMemMap + hipMemSetAccess (device read-write) of the added chunk at "
	"the end of the range reserved up front: the added bytes are usable after the step",
	"hipMemAddressReserve of the added bytes right after the range; where granted, "
	"hipMemCreate + hipMemMap + hipMemSetAccess of the added chunk there; else "
	"hipMemAddressFree of the other address, hipMemCreate, hipMemAddressReserve of the new "
	"size, hipMemMap of every chunk + hipMemSetAccess there, hipMemUnmap + "
	"hipMemAddressFree of the old range",
};

struct span {
	char *p;
	size_t size;                /* 0: already given back */
};

struct spans {
	struct span *v;
	int n, cap;
};

struct chunk {
	hipMemGenericAllocationHandle_t h;
	size_t size;
};

struct grow {
	const struct vmm *m;
	enum variant v;
	size_t start, limit;
	size_t *add;                /* bytes step i adds */
	int nsteps;
	char *base;                 /* where the buffer starts now */
	size_t size, peak;
	void *fresh;                /* realloc: the new buffer until the old one is freed */
	struct chunk *chunks;       /* VMM: in buffer order */
	int nchunks, chunk_cap;
	struct spans resv, mapped;  /* VMM: reserved and mapped ranges */
	int in_place, remapped;
};

/* Host arrays are sized from the plan in setup, so no step reallocates. */
static void spans_add(struct spans *s, void *p, size_t size)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = hmb_xrealloc(s->v, (size_t)s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = (struct span){ p, size };
}

static void spans_drop_first(struct spans *s, int n)
{
	memmove(s->v, s->v + n, (size_t)(s->n - n) * sizeof(*s->v));
	s->n -= n;
}

static int create_chunk(struct grow *g, size_t size)
{
	hipMemGenericAllocationHandle_t h;

	HMB_TRY(hipMemCreate(&h, size, &g->m->prop, 0));
	if (g->nchunks == g->chunk_cap) {
		g->chunk_cap = g->chunk_cap ? 2 * g->chunk_cap : 8;
		g->chunks = hmb_xrealloc(g->chunks, (size_t)g->chunk_cap * sizeof(*g->chunks));
	}
	g->chunks[g->nchunks++] = (struct chunk){ h, size };
	return 0;
}

/* Map the newest chunk at `at` and make it usable. */
static int map_last_chunk(struct grow *g, char *at)
{
	const struct chunk *c = &g->chunks[g->nchunks - 1];

	HMB_TRY(hipMemMap(at, c->size, 0, c->h, 0));
	spans_add(&g->mapped, at, c->size);
	HMB_TRY(hipMemSetAccess(at, c->size, &g->m->access, 1));
	return 0;
}

/* Map every chunk again at a new range of new_size bytes (no data is copied),
 * then give back the old mappings and ranges. The newest chunk is mapped
 * only in the new range. */
static int remap_into(struct grow *g, size_t new_size)
{
	int old_mapped = g->mapped.n, old_resv = g->resv.n;
	void *nb = NULL;
	size_t off = 0;

	HMB_TRY(hipMemAddressReserve(&nb, new_size, 0, NULL, 0));
	spans_add(&g->resv, nb, new_size);
	for (int i = 0; i < g->nchunks; i++) {
		HMB_TRY(hipMemMap((char *)nb + off, g->chunks[i].size, 0, g->chunks[i].h, 0));
		spans_add(&g->mapped, (char *)nb + off, g->chunks[i].size);
		off += g->chunks[i].size;
	}
	HMB_TRY(hipMemSetAccess(nb, off, &g->m->access, 1));
	for (int k = 0; k < old_mapped; k++) {
		HMB_TRY(hipMemUnmap(g->mapped.v[k].p, g->mapped.v[k].size));
		g->mapped.v[k].size = 0;
	}
	for (int k = 0; k < old_resv; k++) {
		HMB_TRY(hipMemAddressFree(g->resv.v[k].p, g->resv.v[k].size));
		g->resv.v[k].size = 0;
	}
	spans_drop_first(&g->mapped, old_mapped);
	spans_drop_first(&g->resv, old_resv);
	g->base = nb;
	return 0;
}

static int extend(struct grow *g, size_t add)
{
	char *want = g->base + g->size;
	void *got = NULL;
	hipError_t e = hipMemAddressReserve(&got, add, 0, want, 0);

	if (e == hipSuccess && got == (void *)want) {
		spans_add(&g->resv, got, add);
		if (create_chunk(g, add) || map_last_chunk(g, want))
			return -1;
		g->in_place++;
		return 0;
	}
	if (e != hipSuccess) {
		(void)hipGetLastError(); /* refused: the other path follows */
	} else if ((e = hipMemAddressFree(got, add)) != hipSuccess) {
		spans_add(&g->resv, got, add); /* teardown tries again */
		hmb_hip_error("hipMemAddressFree(got, add)", e, __FILE__, __LINE__);
		return -1;
	}
	if (create_chunk(g, add) || remap_into(g, g->size + add))
		return -1;
	g->remapped++;
	return 0;
}

static int grow_setup(struct hmb_ctx *ctx, void *st)
{
	struct grow *g = st;
	void *p = NULL;

	(void)ctx;
	if (g->v == REALLOC_COPY) {
		HMB_TRY(hipMalloc(&p, g->start));
		g->base = p;
	} else {
		size_t reserve = g->v == RESERVE_UPFRONT ? g->limit : g->start;
		g->chunk_cap = g->nsteps + 1;
		g->chunks = hmb_xcalloc((size_t)g->chunk_cap, sizeof(*g->chunks));
		g->resv.cap = g->nsteps + 2;
		g->resv.v = hmb_xcalloc((size_t)g->resv.cap, sizeof(*g->resv.v));
		g->mapped.cap = 2 * g->nsteps + 2;
		g->mapped.v = hmb_xcalloc((size_t)g->mapped.cap, sizeof(*g->mapped.v));
		HMB_TRY(hipMemAddressReserve(&p, reserve, 0, NULL, 0));
		g->base = p;
		spans_add(&g->resv, p, reserve);
		if (create_chunk(g, g->start) || map_last_chunk(g, g->base))
			return -1;
	}
	g->size = g->peak = g->start;
	HMB_TRY(hmb_launch_fill(g->base, 0, g->start / 4, VMM_SEED, 0));
	HMB_TRY(hipDeviceSynchronize());
	return 0;
}

/* Step i of the growth. */
static int grow_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct grow *g = st;
	size_t add;

	(void)ctx;
	if (i < 0 || i >= g->nsteps) {
		hmb_set_error("growth step %ld asked for, the plan has %d", i, g->nsteps);
		return -1;
	}
	add = g->add[i];
	switch (g->v) {
	case REALLOC_COPY:
		HMB_TRY(hipMalloc(&g->fresh, g->size + add));
		HMB_TRY(hipMemcpyAsync(g->fresh, g->base, g->size, hipMemcpyDeviceToDevice,
				       stream));
		HMB_TRY(hipStreamSynchronize(stream));
		HMB_TRY(hipFree(g->base));
		g->base = g->fresh;
		g->fresh = NULL;
		if (2 * g->size + add > g->peak)
			g->peak = 2 * g->size + add;
		break;
	case RESERVE_UPFRONT:
		if (create_chunk(g, add) || map_last_chunk(g, g->base + g->size))
			return -1;
		break;
	case EXTEND:
		if (extend(g, add))
			return -1;
		break;
	}
	g->size += add;
	if (g->size > g->peak)
		g->peak = g->size;
	return 0;
}

/* The initial contents survived every step; every added byte is usable. */
static int grow_verify(struct hmb_ctx *ctx, void *st)
{
	struct grow *g = st;
	char *added = g->base + g->start;
	unsigned long long bad = 0;

	(void)ctx;
	if (g->size != g->limit) {
		hmb_set_error("the growth ended at %s, not at the limit %s", hmb_sz(g->size),
			      hmb_sz(g->limit));
		return -1;
	}
	HMB_TRY(hmb_check_device(g->base, 0, g->start, VMM_SEED, 0, &bad));
	if (hmb_verify_result(bad, "words of the initial %s changed during the growth",
			      hmb_sz(g->start)))
		return -1;
	HMB_TRY(hmb_launch_fill(added, g->start / 4, (g->size - g->start) / 4, VMM_SEED, 0));
	HMB_TRY(hmb_check_device(added, g->start / 4, g->size - g->start, VMM_SEED, 0, &bad));
	return hmb_verify_result(bad, "words of the added %s do not hold what was written",
				 hmb_sz(g->size - g->start));
}

static void grow_teardown(struct hmb_ctx *ctx, void *st)
{
	struct grow *g = st;

	(void)ctx;
	(void)hipDeviceSynchronize();
	if (g->v == REALLOC_COPY) {
		if (g->base)
			(void)hipFree(g->base);
		if (g->fresh)
			(void)hipFree(g->fresh);
	} else {
		for (int k = 0; k < g->mapped.n; k++)
			if (g->mapped.v[k].size)
				(void)hipMemUnmap(g->mapped.v[k].p, g->mapped.v[k].size);
		for (int k = 0; k < g->nchunks; k++)
			(void)hipMemRelease(g->chunks[k].h);
		for (int k = 0; k < g->resv.n; k++)
			if (g->resv.v[k].size)
				(void)hipMemAddressFree(g->resv.v[k].p, g->resv.v[k].size);
	}
	(void)hipGetLastError();
	free(g->chunks);
	free(g->resv.v);
	free(g->mapped.v);
	g->base = g->fresh = NULL;
	g->chunks = NULL;
	g->nchunks = g->chunk_cap = 0;
	memset(&g->resv, 0, sizeof(g->resv));
	memset(&g->mapped, 0, sizeof(g->mapped));
}

/* The bytes each step adds; returns the number of steps. */
static int plan_steps(size_t start, size_t limit, size_t step, int doubling, size_t *add)
{
	size_t size = start;
	int n = 0;

	while (size < limit && n <= MAX_STEPS) {
		size_t a = doubling ? size : step;
		if (a > limit - size)
			a = limit - size;
		if (add)
			add[n] = a;
		size += a;
		n++;
	}
	return n;
}

struct growth_plan {
	size_t start, step, limit;
	int capped;                 /* the limit was lowered to fit free memory */
	size_t free_mem;
};

static void growth(struct hmb_ctx *ctx, const struct vmm *m, enum variant v, int doubling,
		   const struct growth_plan *pl)
{
	struct hmb_record *r = hmb_case_record(ctx, "grow/%s/%s", variant_name[v],
					doubling ? "doubling" : "fixed-step");
	struct grow g = { .m = m, .v = v, .start = pl->start, .limit = pl->limit };
	struct hmb_case c = {
		.what = variant_what[v],
		.timing = { .clock = HMB_CLOCK_HOST, .sync = HMB_SYNC_PER_OP },
		.ops = { grow_setup, NULL, grow_op, grow_verify, grow_teardown },
		.state = &g,
	};

	if (!hmb_keep_selected(ctx, r))
		return;
	hmb_param_num(r, "size", (double)pl->limit);
	hmb_param_num(r, "start", (double)pl->start);
	hmb_param_str(r, "policy", doubling ? "doubling" : "fixed step");
	if (!doubling)
		hmb_param_num(r, "step", (double)pl->step);
	if (v == RESERVE_UPFRONT)
		hmb_context_str(r, "untimed_setup", "hipMemAddressReserve of the limit, the initial "
				"chunk mapped and filled with the pattern");
	else
		hmb_context_str(r, "untimed_setup", "the initial buffer allocated and filled with "
				"the pattern");
	hmb_context_str(r, "verification", "after the last step: the initial contents checked, "
			"the added bytes filled and checked");
	if (pl->capped)
		hmb_observe_bool(r, "limit_capped_by_free_memory", 1);
	if (pl->limit <= pl->start) {
		hmb_record_status(r, HMB_SKIPPED, "nothing to grow: the limit %s%s is not above "
				  "the start size %s", hmb_sz(pl->limit), pl->capped ?
				  " (capped by free device memory: realloc holds old + new, "
				  "1 GiB to spare)" : "", hmb_sz(pl->start));
		hmb_commit(ctx, r);
		return;
	}
	g.nsteps = plan_steps(pl->start, pl->limit, pl->step, doubling, NULL);
	if (g.nsteps > MAX_STEPS) {
		hmb_record_status(r, HMB_SKIPPED, "refused: growing from %s to %s by %s takes more "
				  "than %d steps; use a larger --step", hmb_sz(pl->start),
				  hmb_sz(pl->limit), hmb_sz(pl->step), MAX_STEPS);
		hmb_commit(ctx, r);
		return;
	}
	g.add = hmb_xcalloc((size_t)g.nsteps, sizeof(*g.add));
	plan_steps(pl->start, pl->limit, pl->step, doubling, g.add);
	if (hmb_measure_steps(ctx, r, &c, g.nsteps) == 0) {
		hmb_metric(r, "peak_bytes", (double)g.peak, "bytes");
		if (v == EXTEND) {
			hmb_observe_num(r, "extended_in_place", g.in_place);
			hmb_observe_num(r, "remapped_into_new_range", g.remapped);
		}
	}
	free(g.add);
	hmb_commit(ctx, r);
}

/* ---- the module ---- */

static size_t opt_size(struct hmb_ctx *ctx, const char *name, size_t dflt, size_t gran)
{
	size_t v = hmb_opt_size(ctx, name, dflt);
	if (v > ctx->dev->total_mem)
		v = ctx->dev->total_mem; /* no overflow when rounding up */
	return vmm_round_up(v, gran);
}

static int run(struct hmb_ctx *ctx)
{
	struct vmm m;
	struct growth_plan pl;
	struct hmb_sizes chunks;
	size_t avail, cap;

	memset(&m, 0, sizeof(m));
	m.gran = ctx->dev->vmm_granularity_min ? ctx->dev->vmm_granularity_min : 2u << 20;
	m.prop.type = hipMemAllocationTypePinned;
	m.prop.location.type = hipMemLocationTypeDevice;
	m.prop.location.id = ctx->dev->ordinal;
	m.access.location = m.prop.location;
	m.access.flags = hipMemAccessFlagsProtReadWrite;

	memset(&pl, 0, sizeof(pl));
	pl.start = opt_size(ctx, "start", 64u << 20, m.gran);
	pl.step = opt_size(ctx, "step", 64u << 20, m.gran);
	pl.limit = opt_size(ctx, "limit", ctx->opt->quick ? 1ull << 30 : 8ull << 30, m.gran);
	/* realloc + copy holds old and new at once: both inside free memory, 1 GiB spare */
	pl.free_mem = hmb_device_free_mem();
	avail = pl.free_mem > VMM_HEADROOM ? pl.free_mem - VMM_HEADROOM : 0;
	cap = avail / 2 / m.gran * m.gran;
	if (pl.limit > cap) {
		pl.limit = cap;
		pl.capped = 1;
		fprintf(stderr, "[vmm] growth limit capped to %s by free device memory "
			"(%.1f GiB)\n", hmb_sz(cap), (double)pl.free_mem / (1 << 30));
	}
	for (int v = REALLOC_COPY; v <= EXTEND && !hmb_interrupted(); v++)
		for (int d = 0; d < 2 && !hmb_interrupted(); d++)
			growth(ctx, &m, (enum variant)v, d, &pl);

	{
		const char *spec = hmb_opt_value(ctx->opt, "call-sizes");
		char err[128];
		if (hmb_parse_sizes(spec ? spec : ctx->opt->quick ? "2M,64M" : "2M,64M,1G", &chunks,
				    err, sizeof(err)))
			chunks.n = 0; /* the CLI validated it already */
	}
	for (size_t i = 0; i < chunks.n && !hmb_interrupted(); i++) {
		size_t v = chunks.v[i] > ctx->dev->total_mem ? ctx->dev->total_mem : chunks.v[i];
		vmm_call_costs(ctx, &m, vmm_round_up(v, m.gran));
	}
	if (!hmb_interrupted())
		vmm_free_while_busy(ctx, &m, pl.start);
	if (!hmb_interrupted())
		vmm_share(ctx, opt_size(ctx, "share-size", 64u << 20, m.gran));
	return 0;
}

#else /* this HIP has no VMM API: the runner reports the module unsupported */

static int run(struct hmb_ctx *ctx)
{
	(void)ctx;
	hmb_set_error("virtual memory management is not in this build");
	return -1;
}

#endif

static const struct hmb_opt_decl options[] = {
	{ "start", HMB_OPT_SIZE, "SIZE", "initial buffer size (default 64M)", 0, 0, 0 },
	{ "step", HMB_OPT_SIZE, "SIZE", "fixed growth step (default 64M)", 0, 0, 0 },
	{ "limit", HMB_OPT_SIZE, "SIZE",
	  "final size (default 8G; --quick 1G), capped so that old + new fit in free memory",
	  0, 0, 0 },
	{ "call-sizes", HMB_OPT_SIZES, "LIST",
	  "chunk sizes for per-call costs (default 2M,64M,1G; --quick 2M,64M)", 0, 0, 0 },
	{ "share-size", HMB_OPT_SIZE, "SIZE",
	  "share/*: the chunk handed to the second process (default 64M)", 0, 0, 0 },
	{ NULL, 0, NULL, NULL, 0, 0, 0 },
};

/* A growth needs --limit above --start (defaults 64M and 8G, --quick 1G):
 * refused when the command line is read, not skipped after a GPU is opened. */
static int check(const struct hmb_options *o, char *err, size_t errlen)
{
	const char *sv = hmb_opt_value(o, "start"), *lv = hmb_opt_value(o, "limit");
	size_t start = 64u << 20, limit = o->quick ? 1ull << 30 : 8ull << 30;
	char why[256], a[32], b[32];

	if ((sv && hmb_parse_size(sv, &start, why, sizeof(why))) ||
	    (lv && hmb_parse_size(lv, &limit, why, sizeof(why))) || limit > start)
		return 0;
	snprintf(err, errlen, "vmm: --limit %s%s is not above --start %s%s: there is nothing to "
		 "grow", hmb_format_size(limit, a, sizeof(a)), lv ? "" : o->quick ?
		 " (the default with --quick)" : " (the default)", hmb_format_size(start, b, sizeof(b)),
		 sv ? "" : " (the default)");
	return -1;
}

/* Its figure on the summary's screen (engine/headline.h). */
static const struct hmb_headline headlines[] = {
	{ "VMM vs realloc", "grow/vmm-extend/fixed-step", "size=max", "total_s",
	  "grow/realloc-copy/fixed-step", "growing a buffer: realloc+copy / VMM", NULL },
	{ .name = NULL },
};

/* Its headline's chart in the report: each growth step's time (no figure: its
 * samples) against the size reached, a line per variant (engine/chart.h). */
static const struct hmb_chart charts[] = {
	{ .kase = "grow/*", .xlabel = "buffer size after the step (bytes, log2)", .line_part = 1,
	  .chart_parts = 1, .chart_param = "policy",
	  .what = "time of each growth step against the size reached", .ylabel = "ms per step" },
	{ .kase = NULL },
};

const struct hmb_bench hmb_bench_vmm = {
	.check = check,
	.name = "vmm",
	.headlines = headlines,
	.charts = charts,
	.charts_about = "each step of VMM's growth",
	.summary = "growing a buffer with hipMemCreate/AddressReserve/Map/SetAccess vs "
		   "realloc+copy",
	.needs = HMB_NEEDS_VMM,
	.options = options,
	.help = "grow/VARIANT/POLICY: one growth from --start to --limit, a sample per step\n"
		"(host clock; as many samples as steps: --reps and --warmup do not apply);\n"
		"total_s their sum; peak_bytes the most device memory held at once. The VMM\n"
		"steps include hipMemSetAccess: the added bytes are usable. The initial\n"
		"contents and every added byte are checked after the last step.\n"
		"call/NAME: one VMM call per sample, per chunk size (the calls before it run\n"
		"untimed; they return when done, so nothing is synchronised).\n"
		"free-while-busy: host time blocked in hipFree vs unmap + release + address\n"
		"free of a --start buffer while a ~50 ms spin kernel runs on another stream\n"
		"(kernel_s: its time; waited_for_kernel: freeing took more than half of it).\n"
		"share/posix-fd/* (on request: --case 'share/*'): a\n"
		"--share-size chunk exported as a file descriptor (export), imported (import)\n"
		"and mapped with access set (map-access) by this binary in a second process,\n"
		"both timed there; round-trip: the whole hand-over. Every round is checked\n"
		"both ways; \"unsupported\" where the device cannot export descriptors.",
	.cases = cases,
	.on_request = on_request,
	/* host-side calls that move from process to process; a run is short */
	.all_runs = 3,
	.run = run,
};
