/*
 * managed - what do prefetch and advice buy for hipMallocManaged memory?
 *
 * One managed buffer per size. Before each sample, outside the timed region,
 * the host writes one word of every 4 KiB page (the value it reads back), so
 * every page lives on the host and no other copy of it is valid; then the
 * timed GPU work runs. What each timed region contains (params.timed):
 *   on-demand/first-kernel     increment kernel (+1 to every word): the pages
 *                              migrate by GPU page faults
 *   on-demand/second-kernel    the increment kernel on pages already on the
 *                              device (no host writes in between)
 *   prefetch/prefetch-only     hipMemPrefetchAsync to the device alone
 *   prefetch/with-kernel       the prefetch, then the increment kernel
 *   prefetch/kernel-after-prefetch  the kernel alone, the prefetch untimed
 *   advise-.../first-kernel    the first kernel under hipMemAdvise: read-
 *                              mostly (a read-only kernel that checks every
 *                              word), preferred location device or host,
 *                              accessed-by device; coarse-grain (AMD only:
 *                              hipMemAdviseSetCoarseGrain, one record
 *                              "unsupported" with the reason elsewhere)
 *   prefetch+read-mostly/prefetch      the prefetch of a read-mostly range
 *   prefetch+read-mostly/first-kernel  the read-only kernel after it
 *   back/host-sum-resident     the host sums every word of pages already on
 *                              the host: the host's own cost, no migration
 *   back/cpu-read-after-gpu    the host sums what the GPU wrote (CPU page
 *                              faults migrate it back)
 *   back/prefetch-to-host      hipMemPrefetchAsync to the host, the sum
 *   touch/gpu-first            a fill kernel on a fresh buffer (16-byte
 *                              stores, one per thread: params store_bytes)
 *   touch/host-first           the same after the host zeroed the fresh buffer
 *   on-demand/first-kernel/shape/16B-per-thread  (on request) the first
 *                              kernel in 16-byte loads and stores
 *   touch/gpu-first/shape/...  (on request) the same with each kernel shape a
 *                              user might write: 16 or 4 bytes per store, one
 *                              per thread or grid-stride, one store per page
 *                              first (16B-pages-first); the fastest is the
 *                              default's shape
 *   static/__managed__         the first kernel on a __managed__ array (4 MiB)
 * In files of their own (managed.h says what they share):
 *   advise-accessed-by-host/first-kernel, advise-combined/first-kernel
 *                              (managed_advice.c, on request) the first kernel
 *                              under AccessedBy the host, and under the
 *                              combination the ROCm guide recommends
 *   attach/stream-single, attach/global, attach/host  (managed_attach.c) the
 *                              first kernel on a 4 MiB buffer attached to a
 *                              stream of its own with each hipMemAttach flag
 *   versus/...                 (managed_versus.c, on request) one workload
 *                              (data on the host, a kernel updates every word,
 *                              the host reads it) with explicit copies and
 *                              with managed memory, prefetched or advised;
 *                              host clock; ratio_to_explicit
 * GPU work is timed with HIP events (kernels alone queued behind a latch, so
 * the launch cost stays out), host work with the host clock. Kernels run one
 * element per thread (params.grid_blocks, block_threads, elements_per_thread,
 * grid_stride say how a launch covered the buffer; --grid-stride gives the
 * capped grid-stride launch other modules use, for comparison): a grid-stride
 * walk changes the order in which pages fault, and with it the figure.
 *
 * What the figures mean depends on how the GPU reaches managed memory
 * (params.access_mode, from the memory model: src/system/memmodel.h): with XNACK
 * off on AMD the pages stay in host memory and every GPU access crosses the
 * link, so "first-kernel" is a kernel reading over the link, not page
 * faults with migration (docs/amd.md has the table). `all` runs this module
 * once per XNACK mode where the GPU selects it per process (params.hsa_xnack,
 * src/system/modeplan.h), and checks on-demand/second-kernel against
 * prefetch/kernel-after-prefetch: near 1 the pages migrated, well above they
 * were still read over the link (src/doc/rocmguide.h, observed.rocm_guide).
 *
 * Reading it: GB/s = buffer bytes / median time. speedup_over_on_demand =
 * median of on-demand/first-kernel / median of the case. The back cases
 * report migration_s = their median - the median of back/host-sum-resident:
 * what bringing the pages back costs beyond the host's own summing. The range
 * attributes (last prefetch location, preferred location, read-mostly,
 * accessed-by) are read right after the last sample, before the host touches
 * the pages, with hipMemRangeGetAttribute and with hipMemRangeGetAttributes
 * (the plural call, observations prefixed plural_), and kept as observations
 * with range_attributes_agree (managed_range.c).
 * Every case checks its data after timing: kernels add a known count to a
 * pattern, read-only kernels count mismatches, host sums are compared with
 * the pattern's sum.
 *
 * Safety: a size beyond the device's free memory is refused (skipped with a
 * reason) unless --oversubscribe F allows up to F x free memory. The versus
 * family's 1.5 and 2 x free memory run only under that option (skipped with
 * the reason without it).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/managed/managed.h"
#include "bench/managed/managed_static.h"
#include "engine/verify.h"
#include "kernels/pattern.h"

/* hipMemAdviseSetCoarseGrain: AMD, in every HIP this project builds with */
#if !defined(HMB_PLATFORM_NVIDIA) && defined(HIP_VERSION_MAJOR) && HIP_VERSION_MAJOR >= 5
#define HAVE_COARSE_GRAIN 1
#else
#define HAVE_COARSE_GRAIN 0
#endif

const char *const managed_advice_name[] = {
	"none", "read-mostly", "preferred-location=device", "preferred-location=host",
	"accessed-by=device", "coarse-grain", "accessed-by=host",
	"read-mostly+preferred-location=device+accessed-by=device",
};

/* ---------------------------------------------------------------- helpers */

struct hmb_record *managed_record(struct hmb_ctx *ctx, const char *name, size_t bytes)
{
	struct hmb_record *r = hmb_case_record(ctx, "%s", name);
	if (!hmb_keep_selected(ctx, r))
		return NULL;
	hmb_param_num(r, "size", (double)bytes);
	hmb_param_str(r, "access_mode", hmb_access_name(ctx->dev->model.managed_access));
	hmb_record_bytes(r, (double)bytes);
	return r;
}

/* The host writes back one word of every 4 KiB page: each page moves to the
 * host and any other copy of it is invalidated; the data stays as it was. */
void managed_host_writes_every_page(uint32_t *p, size_t words)
{
	hmb_host_write_pages(p, words * 4);
}

int managed_check_words(const uint32_t *p, size_t bytes, uint32_t seed, uint32_t add, int host)
{
	unsigned long long bad = 0;

	if (host)
		bad = hmb_check_host(p, bytes, seed, add);
	else
		HMB_TRY(hmb_check_device(p, 0, bytes, seed, add, &bad));
	return hmb_verify_result(bad, "of %zu words differ from the pattern + %u", bytes / 4, add);
}


/* ------------------------------------ GPU work on pages the host wrote last */

static const struct gpu_spec gpu_specs[] = {
	{ "on-demand/first-kernel", NO_ADVICE, 1, 0, KERNEL, 0,
	  "increment kernel (+1 to every word; the pages fault over from the host)" },
	{ "on-demand/second-kernel", NO_ADVICE, 0, 0, KERNEL, 0,
	  "increment kernel on pages already on the device" },
	{ "prefetch/prefetch-only", NO_ADVICE, 1, 0, PREFETCH, 0,
	  "hipMemPrefetchAsync to the device" },
	{ "prefetch/with-kernel", NO_ADVICE, 1, 0, PREFETCH | KERNEL, 1,
	  "hipMemPrefetchAsync to the device, increment kernel" },
	{ "prefetch/kernel-after-prefetch", NO_ADVICE, 1, PREFETCH, KERNEL, 0,
	  "increment kernel after an untimed prefetch to the device" },
	{ "advise-read-mostly/first-kernel", READ_MOSTLY, 1, 0, READ, 0,
	  "read-only kernel (reads every word and counts mismatches)" },
	{ "advise-preferred-device/first-kernel", PREFERRED_DEVICE, 1, 0, KERNEL, 1,
	  "increment kernel (+1 to every word)" },
	{ "advise-preferred-host/first-kernel", PREFERRED_HOST, 1, 0, KERNEL, 1,
	  "increment kernel (+1 to every word)" },
	{ "advise-accessed-by-device/first-kernel", ACCESSED_BY, 1, 0, KERNEL, 1,
	  "increment kernel (+1 to every word)" },
	{ "prefetch+read-mostly/prefetch", READ_MOSTLY, 1, 0, PREFETCH, 0,
	  "hipMemPrefetchAsync of a read-mostly range to the device" },
	{ "prefetch+read-mostly/first-kernel", READ_MOSTLY, 1, PREFETCH, READ, 0,
	  "read-only kernel (reads every word and counts mismatches) after an untimed "
	  "prefetch to the device" },
	{ "advise-coarse-grain/first-kernel", COARSE_GRAIN, 1, 0, KERNEL, 1,
	  "increment kernel (+1 to every word)" },
	/* on request: is the first kernel's figure its shape's? */
	{ "on-demand/first-kernel/shape/16B-per-thread", NO_ADVICE, 1, 0, KERNEL16, 1,
	  "increment kernel in 16-byte loads and stores, one per thread (the pages fault "
	  "over from the host)" },
};

int managed_reads_mostly(enum advice a)
{
	return a == READ_MOSTLY || a == GUIDE_COMBINED;
}

int managed_advise(const void *p, size_t n, int dev, enum advice a, int set)
{
	switch (a) {
	case READ_MOSTLY:
		HMB_TRY(hipMemAdvise(p, n, set ? hipMemAdviseSetReadMostly
					       : hipMemAdviseUnsetReadMostly, dev));
		break;
	case PREFERRED_DEVICE:
	case PREFERRED_HOST:
		HMB_TRY(hipMemAdvise(p, n, set ? hipMemAdviseSetPreferredLocation
					       : hipMemAdviseUnsetPreferredLocation,
				     a == PREFERRED_DEVICE ? dev : hipCpuDeviceId));
		break;
	case ACCESSED_BY:
	case ACCESSED_BY_HOST:
		HMB_TRY(hipMemAdvise(p, n, set ? hipMemAdviseSetAccessedBy
					       : hipMemAdviseUnsetAccessedBy,
				     a == ACCESSED_BY ? dev : hipCpuDeviceId));
		break;
	case GUIDE_COMBINED:
		/* in the order of the guide's example (managed_advice.c) */
		if (managed_advise(p, n, dev, PREFERRED_DEVICE, set) ||
		    managed_advise(p, n, dev, ACCESSED_BY, set) ||
		    managed_advise(p, n, dev, READ_MOSTLY, set))
			return -1;
		break;
	case COARSE_GRAIN:
#if HAVE_COARSE_GRAIN
		HMB_TRY(hipMemAdvise(p, n, set ? hipMemAdviseSetCoarseGrain
					       : hipMemAdviseUnsetCoarseGrain, dev));
#else
		hmb_set_error("this build has no hipMemAdviseSetCoarseGrain");
		return -1;
#endif
		break;
	case NO_ADVICE:
		break;
	}
	return 0;
}

static int apply_advice(const struct gpu_case *k, int set)
{
	return managed_advise(k->p, k->bytes, k->m->dev, k->spec->advice, set);
}

int managed_pages_home(uint32_t *p, size_t n, int dev, enum advice a, hipStream_t stream)
{
	if (!managed_reads_mostly(a)) {
		managed_host_writes_every_page(p, n / 4);
		return 0;
	}
	/* Under read-mostly every host write would invalidate the GPU's copies
	 * page by page (seconds per GiB, all of it untimed): the advice is
	 * lifted (one copy remains), the pages go home in one prefetch and are
	 * written there, and the advice is set again. The state is the same:
	 * pages on the host only, the advice in force. */
	if (managed_advise(p, n, dev, a, 0))
		return -1;
	HMB_TRY(hipMemPrefetchAsync(p, n, hipCpuDeviceId, stream));
	HMB_TRY(hipStreamSynchronize(stream));
	managed_host_writes_every_page(p, n / 4);
	return managed_advise(p, n, dev, a, 1);
}

/* The pattern written by the GPU, then the advice. */
int managed_gpu_setup(struct hmb_ctx *ctx, void *st)
{
	struct gpu_case *k = st;

	k->seed = k->m->seed++;
	k->add = 0;
	if (k->spec->timed & READ) {
		if (!(k->bad = hmb_alloc(ctx, HMB_KIND_DEVICE, sizeof(*k->bad))))
			return -1;
		HMB_TRY(hipMemset(k->bad, 0, sizeof(*k->bad)));
	}
	/* the pattern first, then the advice: GPU writes to a read-mostly range
	 * would collapse its copies page by page (seconds per GiB, untimed) */
	HMB_TRY(hmb_launch_fill_grid(k->p, 0, k->bytes / 4, k->seed, k->m->grid, ctx->stream));
	HMB_TRY(hipStreamSynchronize(ctx->stream));
	if (apply_advice(k, 1))
		return -1;
	return 0;
}

int managed_gpu_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct gpu_case *k = st;

	(void)sample;
	if (k->spec->host_first &&
	    managed_pages_home(k->p, k->bytes, k->m->dev, k->spec->advice, ctx->stream))
		return -1;
	if (k->spec->before & PREFETCH) {
		HMB_TRY(hipMemPrefetchAsync(k->p, k->bytes, k->m->dev, ctx->stream));
		HMB_TRY(hipStreamSynchronize(ctx->stream));
	}
	return 0;
}

int managed_gpu_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct gpu_case *k = st;
	unsigned timed = k->spec->timed;
	size_t words = k->bytes / 4;

	(void)ctx;
	(void)i;
	if (timed & PREFETCH)
		HMB_TRY(hipMemPrefetchAsync(k->p, k->bytes, k->m->dev, stream));
	if (timed & KERNEL) {
		HMB_TRY(hmb_launch_increment_grid(k->p, words, k->m->grid, stream));
		k->add++;
	}
	if (timed & KERNEL16) {
		HMB_TRY(hmb_launch_increment16_grid(k->p, words, k->m->grid, stream));
		k->add++;
	}
	if (timed & READ)
		HMB_TRY(hmb_launch_check_grid(k->p, 0, words, k->seed, k->add, k->bad, k->m->grid,
					      stream));
	return 0;
}

/* Where the pages are (before any host access), then the data: every timed
 * increment added one to every word; the read-only kernels found no mismatch. */
int managed_gpu_verify(struct hmb_ctx *ctx, void *st)
{
	struct gpu_case *k = st;

	(void)ctx;
	managed_observe_range(k->r, k->p, k->bytes, k->m->dev);
	if (k->bad) {
		unsigned long long bad = 0;
		HMB_TRY(hipMemcpy(&bad, k->bad, sizeof(bad), hipMemcpyDeviceToHost));
		if (bad) {
			hmb_set_error("verification failed: the read-only kernels read %llu wrong "
				      "words", bad);
			return -1;
		}
	}
	/* a buffer attached to a stream of its own is checked by the host */
	return managed_check_words(k->p, k->bytes, k->seed, k->add, k->own != NULL);
}

static void gpu_teardown(struct hmb_ctx *ctx, void *st)
{
	struct gpu_case *k = st;

	(void)ctx;
	if (apply_advice(k, 0)) {
		char why[256];
		fprintf(stderr, "[managed] warning: could not unset the advice of %s: %s\n",
			k->spec->name, hmb_take_error(why, sizeof(why)));
	}
}

static void describe_prepare(struct hmb_record *r, const struct gpu_spec *s)
{
	hmb_context_str(r, "before_each_sample",
			!s->host_first ? "nothing: the pages stay on the device (the GPU wrote "
					 "them before the first sample)"
			: s->before & PREFETCH ? "untimed: the host writes one word of every 4 KiB "
						 "page, then hipMemPrefetchAsync to the device"
					       : "untimed: the host writes one word of every 4 KiB "
						 "page (the pages move to the host)");
}

/* Measure one GPU case on k->p (the caller sets p, bytes, m and the spec). */
struct hmb_record *managed_run_gpu_case(struct hmb_ctx *ctx, struct gpu_case *k,
					const struct hmb_case_ops *ops)
{
	const struct gpu_spec *s = k->spec;
	int slow = s->host_first && k->bytes > 16u << 20;
	struct hmb_case c = {
		.what = s->what,
		.timing = {
			.clock = k->launch_timed ? HMB_CLOCK_HOST : HMB_CLOCK_EVENTS,
			.sync = HMB_SYNC_PER_SAMPLE,
			/* a prefetch's enqueue may wait for the stream: never behind a latch */
			.latch = !(s->timed & PREFETCH) && !k->launch_timed,
			.reps = slow ? SLOW_REPS : 10,
			.warmup = slow ? 0 : 1,
		},
		.ops = *ops,
		.state = k,
	};

	if (!(k->r = managed_record(ctx, s->name, k->bytes)))
		return NULL;
	hmb_param_str(k->r, "advice", managed_advice_name[s->advice]);
	hmb_param_str(k->r, "kernel", s->timed & (KERNEL | KERNEL16) ? "read-write"
				      : s->timed & READ ? "read-only" : "none");
	describe_prepare(k->r, s);
	if (s->timed & KERNEL16) {
		hmb_param_num(k->r, "store_bytes", 16);
		hmb_param_geometry(k->r, k->bytes / 16, k->m->grid);
	} else if (s->timed & (KERNEL | READ)) {
		hmb_param_geometry(k->r, k->bytes / 4, k->m->grid);
	}
	hmb_measure(ctx, k->r, &c);
	return k->r;
}

const struct hmb_case_ops managed_gpu_ops = { managed_gpu_setup, managed_gpu_prepare,
					      managed_gpu_op, managed_gpu_verify, gpu_teardown };
static const struct hmb_case_ops resident_ops = { managed_gpu_setup, NULL, managed_gpu_op,
						  managed_gpu_verify, gpu_teardown };

/* 1 (and why in buf) when the coarse-grain advice cannot be given here. */
static int coarse_grain_missing(const struct hmb_ctx *ctx, char *buf, size_t len)
{
	const struct hmb_kind_info *k = &ctx->dev->model.kinds[HMB_KIND_MANAGED_COARSE_GRAINED];

	if (!k->supported) {
		if (buf)
			snprintf(buf, len, "%s", k->reason);
		return 1;
	}
	if (!HAVE_COARSE_GRAIN) {
		if (buf)
			snprintf(buf, len, "this build's HIP has no hipMemAdviseSetCoarseGrain");
		return 1;
	}
	return 0;
}

/* The coarse-grain advice where it cannot be given: one record, no size. */
static void run_coarse_unsupported(struct hmb_ctx *ctx)
{
	char why[256];
	struct hmb_record *r;

	if (!coarse_grain_missing(ctx, why, sizeof(why)))
		return;
	r = hmb_case_record(ctx, "advise-coarse-grain/first-kernel");
	if (!hmb_keep_selected(ctx, r))
		return;
	hmb_param_str(r, "access_mode", hmb_access_name(ctx->dev->model.managed_access));
	hmb_param_str(r, "advice", managed_advice_name[COARSE_GRAIN]);
	hmb_record_status(r, HMB_UNSUPPORTED, "%s", why);
	hmb_commit(ctx, r);
}

/* Families whose larger sizes say nothing new and cost most of the module's
 * time (the pages go home before every sample). With the default sizes they
 * stop there; --sizes runs them at any size. On the H100
 * (results/nvidia-h100-pcie: faster/before.json, the build before, and the
 * runs after it): the way back and read-mostly read at 256 MiB what they read
 * at 64 MiB, within what one size moves from run to run (CPU faults 3.7 and
 * 4.7 GB/s in before.json, where 64 MiB alone reads 3.6 to 4.7 in these
 * runs); a prefetch reads the same at 256 MiB and 1 GiB (50.2 and 50.2) and
 * 7-15% less at 64 MiB, so it keeps 256 MiB. */
#define WAY_BACK_DEFAULT_MAX ((size_t)64 << 20)
#define READ_MOSTLY_DEFAULT_MAX ((size_t)64 << 20)
#define PREFETCH_DEFAULT_MAX ((size_t)256 << 20)

static int beyond_default(const struct hmb_ctx *ctx, size_t size, size_t family_max)
{
	return ctx->opt->sizes.n == 0 && size > family_max;
}

static size_t gpu_family_max(const struct gpu_spec *s)
{
	if (s->advice == READ_MOSTLY)
		return READ_MOSTLY_DEFAULT_MAX;
	if ((s->before | s->timed) & PREFETCH)
		return PREFETCH_DEFAULT_MAX;
	return SIZE_MAX;
}

static void run_gpu_cases(struct hmb_ctx *ctx, struct managed *m)
{
	for (size_t i = 0; i < sizeof(gpu_specs) / sizeof(gpu_specs[0]) && !hmb_interrupted();
	     i++) {
		const struct gpu_spec *s = &gpu_specs[i];
		struct gpu_case k = { .spec = s, .m = m, .p = m->buf, .bytes = m->size };
		struct hmb_record *r;
		double med;

		if (s->advice == COARSE_GRAIN && coarse_grain_missing(ctx, NULL, 0))
			continue; /* one record for the module: run_coarse_unsupported */
		if (beyond_default(ctx, m->size, gpu_family_max(s)))
			continue;
		r = managed_run_gpu_case(ctx, &k, s->host_first || s->before ? &managed_gpu_ops
									    : &resident_ops);
		if (!r)
			continue;
		med = hmb_median(r);
		if (i == 0)
			m->on_demand = med;
		if (s->speedup && m->on_demand > 0 && med > 0)
			hmb_metric(r, "speedup_over_on_demand", m->on_demand / med, "x");
		hmb_commit(ctx, r);
	}
}

/* -------------------------------------------------- the way back: host sums */

enum back { RESIDENT, FAULTS, PREFETCH_BACK };
static const char *const back_name[] = { "back/host-sum-resident", "back/cpu-read-after-gpu",
					  "back/prefetch-to-host" };

struct back_case {
	struct managed *m;
	struct hmb_record *r;
	enum back how;
	uint32_t expected;   /* what the sum must be */
	uint32_t sum;        /* what the last timed sum was */
	int pending;         /* a sum not yet compared */
};

static uint32_t host_sum(const uint32_t *p, size_t words)
{
	uint32_t s = 0;
	for (size_t i = 0; i < words; i++)
		s += p[i];
	return s;
}

static int check_sum(struct back_case *k)
{
	if (k->pending && k->sum != k->expected) {
		hmb_set_error("verification failed: the host summed 0x%08x, expected 0x%08x",
			      k->sum, k->expected);
		return -1;
	}
	k->pending = 0;
	return 0;
}

/* The host writes the pattern (its pages are on the host) and keeps its sum. */
static int back_setup(struct hmb_ctx *ctx, void *st)
{
	struct back_case *k = st;
	uint32_t seed = k->m->seed++, sum = 0;

	(void)ctx;
	for (size_t i = 0; i < k->m->size / 4; i++)
		sum += k->m->buf[i] = hmb_pattern(i, seed);
	k->expected = sum;
	k->pending = 0;
	return 0;
}

/* The last sum is checked; then, unless the pages stay on the host, the GPU
 * writes every word (+1), its pages prefetched to the device first. */
static int back_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct back_case *k = st;
	size_t words = k->m->size / 4;

	(void)sample;
	if (check_sum(k))
		return -1;
	if (k->how == RESIDENT)
		return 0;
	HMB_TRY(hipMemPrefetchAsync(k->m->buf, k->m->size, k->m->dev, ctx->stream));
	HMB_TRY(hmb_launch_increment_grid(k->m->buf, words, k->m->grid, ctx->stream));
	HMB_TRY(hipStreamSynchronize(ctx->stream));
	k->expected += (uint32_t)words;
	return 0;
}

static int back_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct back_case *k = st;

	(void)ctx;
	(void)i;
	if (k->how == PREFETCH_BACK) {
		HMB_TRY(hipMemPrefetchAsync(k->m->buf, k->m->size, hipCpuDeviceId, stream));
		HMB_TRY(hipStreamSynchronize(stream));
	}
	k->sum = host_sum(k->m->buf, k->m->size / 4);
	k->pending = 1;
	return 0;
}

static int back_verify(struct hmb_ctx *ctx, void *st)
{
	struct back_case *k = st;

	(void)ctx;
	managed_observe_range(k->r, k->m->buf, k->m->size, k->m->dev);
	return check_sum(k);
}

static void run_back(struct hmb_ctx *ctx, struct managed *m, enum back how)
{
	static const char *const what[] = {
		"host sum of every word (pages resident on the host)",
		"host sum of every word (CPU page faults bring the pages back)",
		"hipMemPrefetchAsync to the host, hipStreamSynchronize, host sum of every word",
	};
	struct back_case k = { .m = m, .how = how };
	struct hmb_case c = {
		.what = what[how],
		.timing = {
			.clock = HMB_CLOCK_HOST,
			.sync = HMB_SYNC_NONE,
			.reps = how == RESIDENT ? 5 : SLOW_REPS,
			.warmup = how == RESIDENT ? 3 : 0,
		},
		.ops = { back_setup, back_prepare, back_op, back_verify, NULL },
		.state = &k,
	};
	double med;

	if (!(k.r = managed_record(ctx, back_name[how], m->size)))
		return;
	hmb_context_str(k.r, "before_each_sample",
			how == RESIDENT ? "nothing: the host wrote every word once, before the "
					  "first sample"
					: "untimed: hipMemPrefetchAsync to the device and an "
					  "increment kernel (the GPU wrote every word last)");
	hmb_measure(ctx, k.r, &c);
	med = hmb_median(k.r);
	if (how == RESIDENT)
		m->resident = med;
	else if (m->resident > 0 && med > 0)
		hmb_metric(k.r, "migration_s", med - m->resident, "s");
	hmb_commit(ctx, k.r);
}

/* --------------------------------------------- first touch of a fresh buffer */

/* How a first-touch kernel covers the buffer: the store width, the grid,
 * and whether one store per page comes first. touch/gpu-first and
 * touch/host-first use the first: on an H100 it was the fastest of these at
 * 256 MiB, 1 and 4 GiB (21.9 GB/s at 1 GiB, against 13.8-19.5 for the
 * others: results/nvidia-h100-pcie/on-request/touch-shapes.json); the
 * variants, on request, say whether that holds on another GPU. */
struct touch_shape {
	const char *name;    /* the case's last part, for the on-request variants */
	int store_bytes;     /* 4 or 16 */
	int grid_stride;     /* the capped grid-stride launch instead of the module's */
	int pages_first;     /* one 16-byte store per 4 KiB page, then the fill */
};

static const struct touch_shape touch_shapes[] = {
	{ "16B-per-thread", 16, 0, 0 }, { "16B-grid-stride", 16, 1, 0 },
	{ "16B-pages-first", 16, 0, 1 }, { "4B-per-thread", 4, 0, 0 },
	{ "4B-grid-stride", 4, 1, 0 },
};
#define TOUCH_SHAPES (sizeof(touch_shapes) / sizeof(touch_shapes[0]))

struct touch_case {
	struct managed *m;
	struct hmb_record *r;
	int host_first;
	const struct touch_shape *shape;
	enum hmb_grid grid;
	uint32_t *p;         /* this sample's buffer */
	uint32_t seed;
};

static int touch_setup(struct hmb_ctx *ctx, void *st)
{
	struct touch_case *k = st;

	(void)ctx;
	k->seed = k->m->seed++;
	k->p = NULL;
	return 0;
}

/* The last sample's buffer is checked and freed; a fresh one takes its place. */
static int touch_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct touch_case *k = st;

	(void)sample;
	if (k->p) {
		if (managed_check_words(k->p, k->m->size, k->seed, 0, 0))
			return -1;
		hmb_free(ctx, k->p);
	}
	if (!(k->p = hmb_alloc(ctx, HMB_KIND_MANAGED, k->m->size)))
		return -1;
	if (k->host_first) /* fresh pages, first touched by the host (over threads) */
		hmb_poison_host(k->p, k->m->size, 0);
	return 0;
}

static int touch_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct touch_case *k = st;

	(void)ctx;
	(void)i;
	if (k->shape->store_bytes == 16)
		HMB_TRY(hmb_launch_fill16_grid(k->p, k->m->size / 4, k->seed, k->grid,
					       k->shape->pages_first ? 4096 : 0, stream));
	else
		HMB_TRY(hmb_launch_fill_grid(k->p, 0, k->m->size / 4, k->seed, k->grid, stream));
	return 0;
}

static int touch_verify(struct hmb_ctx *ctx, void *st)
{
	struct touch_case *k = st;

	(void)ctx;
	if (!k->p)
		return 0;
	managed_observe_range(k->r, k->p, k->m->size, k->m->dev);
	return managed_check_words(k->p, k->m->size, k->seed, 0, 0);
}

/* shape NULL: the case itself (the first shape, the module's grid); else one
 * of the on-request variants touch/gpu-first/shape/NAME. */
static void run_touch(struct hmb_ctx *ctx, struct managed *m, int host_first,
		      const struct touch_shape *shape)
{
	struct touch_case k = { .m = m, .host_first = host_first,
				.shape = shape ? shape : &touch_shapes[0] };
	char name[64];
	struct hmb_case c = {
		.what = "fill kernel writing every word of a fresh hipMallocManaged buffer",
		.timing = {
			.clock = HMB_CLOCK_EVENTS,
			.sync = HMB_SYNC_PER_SAMPLE,
			.latch = 1,
			.reps = m->size > 16u << 20 ? SLOW_REPS : 10,
			.warmup = 0,
		},
		.ops = { touch_setup, touch_prepare, touch_op, touch_verify, NULL },
		.state = &k,
	};

	k.grid = k.shape->grid_stride ? HMB_GRID_CAPPED : m->grid;
	if (shape)
		snprintf(name, sizeof(name), "touch/gpu-first/shape/%s", shape->name);
	else
		snprintf(name, sizeof(name), "%s", host_first ? "touch/host-first" : "touch/gpu-first");
	if (!(k.r = managed_record(ctx, name, m->size)))
		return;
	hmb_context_str(k.r, "before_each_sample",
			host_first ? "untimed: hipMallocManaged, then the host zeroes every byte"
				   : "untimed: hipMallocManaged (no page touched yet)");
	hmb_param_str(k.r, "kernel", "write-only");
	hmb_param_num(k.r, "store_bytes", k.shape->store_bytes);
	hmb_param_bool(k.r, "pages_first", k.shape->pages_first);
	hmb_param_geometry(k.r, m->size / (size_t)k.shape->store_bytes, k.grid);
	hmb_measure(ctx, k.r, &c);
	hmb_commit(ctx, k.r);
}

/* -------------------------------------------------------- a __managed__ array */

static void run_static(struct hmb_ctx *ctx, struct managed *m)
{
	static const struct gpu_spec spec = {
		"static/__managed__", NO_ADVICE, 1, 0, KERNEL, 0,
		"increment kernel (+1 to every word) on a __managed__ array",
	};
	size_t bytes = HMB_MANAGED_STATIC_WORDS * sizeof(uint32_t);
	char why[512];
	struct gpu_case k = { .spec = &spec, .m = m, .bytes = bytes };
	struct hmb_record *r;

	if (!(k.p = hmb_managed_static(why, sizeof(why)))) {
		if (!(r = managed_record(ctx, spec.name, bytes)))
			return;
		hmb_record_status(r, HMB_UNSUPPORTED, "%s", why);
		hmb_commit(ctx, r);
		return;
	}
	if ((r = managed_run_gpu_case(ctx, &k, &managed_gpu_ops)))
		hmb_commit(ctx, r);
}

/* ------------------------------------------------------------------ module */

static const char *const cases[] = {
	"on-demand/first-kernel", "on-demand/second-kernel", "prefetch/prefetch-only",
	"prefetch/with-kernel", "prefetch/kernel-after-prefetch",
	"advise-read-mostly/first-kernel", "advise-preferred-device/first-kernel",
	"advise-preferred-host/first-kernel", "advise-accessed-by-device/first-kernel",
	"prefetch+read-mostly/prefetch", "prefetch+read-mostly/first-kernel",
	"advise-coarse-grain/first-kernel", "advise-accessed-by-host/first-kernel",
	"advise-combined/first-kernel", "on-demand/first-kernel/shape/16B-per-thread",
	"back/host-sum-resident", "back/cpu-read-after-gpu",
	"back/prefetch-to-host", "touch/gpu-first", "touch/host-first",
	"touch/gpu-first/shape/16B-per-thread", "touch/gpu-first/shape/16B-grid-stride",
	"touch/gpu-first/shape/16B-pages-first", "touch/gpu-first/shape/4B-per-thread",
	"touch/gpu-first/shape/4B-grid-stride", "static/__managed__",
	"attach/stream-single", "attach/global", "attach/host", "versus/explicit",
	"versus/explicit-pinned", "versus/managed-on-demand", "versus/managed-prefetch",
	"versus/managed-read-mostly", "versus/managed-preferred-device",
	"versus/managed-accessed-by-device",
	NULL,
};
#define BUFFER_CASES 18    /* cases[0..18) use the module's buffer of each size */
#define PER_SIZE_CASES 25  /* the touch cases, on fresh buffers, complete a size */

/* Run only when --case asks: each costs seconds at the default sizes (the
 * new advice cases fault like advise-*, the versus family moves every size
 * both ways seven times), more than they earn in every run. */
static const char *const on_request[] = {
	"advise-accessed-by-host/*", "advise-combined/*", "versus/*", "touch/gpu-first/shape/*",
	"on-demand/first-kernel/shape/*", NULL,
};

static int any_selected(struct hmb_ctx *ctx, int from, int to)
{
	for (int i = from; i < to; i++)
		if (hmb_selected(ctx, cases[i]))
			return 1;
	return 0;
}

/* The kernels load on their first launch: not inside a timed region. */
static int load_kernels(struct hmb_ctx *ctx, enum hmb_grid grid)
{
	uint32_t *p = hmb_alloc(ctx, HMB_KIND_DEVICE, 4096);
	unsigned long long *bad = hmb_alloc(ctx, HMB_KIND_DEVICE, sizeof(*bad));

	if (!p || !bad)
		return -1;
	HMB_TRY(hmb_launch_fill_grid(p, 0, 1024, 1, grid, ctx->stream));
	HMB_TRY(hmb_launch_increment_grid(p, 1024, grid, ctx->stream));
	HMB_TRY(hmb_launch_check_grid(p, 0, 1024, 1, 1, bad, grid, ctx->stream));
	HMB_TRY(hipStreamSynchronize(ctx->stream));
	hmb_free(ctx, bad);
	hmb_free(ctx, p);
	return 0;
}

static int run(struct hmb_ctx *ctx)
{
	struct managed m;
	struct hmb_sizes sizes;

	memset(&m, 0, sizeof(m));
	m.dev = ctx->dev->ordinal;
	m.seed = 1000;
	m.grid = hmb_opt_flag(ctx, "grid-stride") ? HMB_GRID_CAPPED : HMB_GRID_PER_ELEMENT;
	hmb_sizes_or(ctx, &sizes, "64M,256M,1G", "16M");
	if (load_kernels(ctx, m.grid))
		return -1;

	for (size_t i = 0; i < sizes.n && !hmb_interrupted(); i++) {
		if (!any_selected(ctx, 0, PER_SIZE_CASES) ||
		    !hmb_managed_allowed(ctx, "all", sizes.v[i]))
			continue;
		m.size = sizes.v[i];
		m.on_demand = m.resident = -1;
		if (any_selected(ctx, 0, BUFFER_CASES)) {
			if (!(m.buf = hmb_alloc(ctx, HMB_KIND_MANAGED, m.size)))
				return -1;
			run_gpu_cases(ctx, &m);
			managed_advice_run(ctx, &m);
			for (int b = RESIDENT; b <= PREFETCH_BACK && !hmb_interrupted() &&
					       !beyond_default(ctx, m.size, WAY_BACK_DEFAULT_MAX); b++)
				run_back(ctx, &m, (enum back)b);
			hmb_free(ctx, m.buf); /* the fresh buffers below take its place */
			m.buf = NULL;
		}
		for (int host_first = 0; host_first < 2 && !hmb_interrupted(); host_first++)
			run_touch(ctx, &m, host_first, NULL);
		for (size_t t = 0; t < TOUCH_SHAPES && !hmb_interrupted(); t++)
			run_touch(ctx, &m, 0, &touch_shapes[t]);
	}
	if (!hmb_interrupted())
		run_static(ctx, &m);
	if (!hmb_interrupted())
		managed_attach_run(ctx, &m);
	if (!hmb_interrupted())
		managed_versus_run(ctx, &m, &sizes);
	if (!hmb_interrupted())
		run_coarse_unsupported(ctx);
	return 0;
}

static const struct hmb_opt_decl options[] = {
	{ "grid-stride", HMB_OPT_FLAG, NULL,
	  "kernels capped at 8192 blocks, walking the buffer grid-stride (default: one "
	  "element per thread)", 0, 0, 0 },
	{ NULL, 0, NULL, NULL, 0, 0, 0 },
};

/* Its figures on the summary's screen, and their peaks: the host link the
 * pages cross (engine/headline.h). */
static const struct hmb_headline headlines[] = {
	{ "managed 1st touch", "touch/gpu-first", "size=max", "GB/s", NULL,
	  "fresh pages, the GPU first: made on fault", NULL },
	{ "managed on demand", "on-demand/first-kernel", "size=max", "GB/s", NULL,
	  "pages on the host, a kernel: migrated on fault", NULL },
	{ "managed prefetch", "prefetch/prefetch-only", "size=max", "GB/s", NULL,
	  "hipMemPrefetchAsync to the GPU", NULL },
	{ .name = NULL },
};

static const struct hmb_case_peak peaks[] = {
	{ "touch/gpu-first", HMB_PEAK_LINK },
	{ "on-demand/first-kernel", HMB_PEAK_LINK },
	{ "prefetch/prefetch-only", HMB_PEAK_LINK },
	{ .kase = NULL },
};

/* Its charts against size in the report: the kernels' cases on one
 * (engine/chart.h). */
static const struct hmb_chart_group chart_groups[] = {
	{ "*/first-kernel", "kernels on managed memory", 0 },
	{ "*/second-kernel", "kernels on managed memory", 0 },
	{ .kase = NULL },
};

const struct hmb_bench hmb_bench_managed = {
	.name = "managed",
	.headlines = headlines,
	.peaks = peaks,
	.chart_groups = chart_groups,
	.oversubscribe = 1,
	.summary = "hipMallocManaged with and without hipMemPrefetchAsync and hipMemAdvise",
	.host_link = 1,
	.needs = HMB_NEEDS_MANAGED,
	.options = options,
	.help = "--sizes: managed buffer sizes (default 64M,256M,1G: the read-mostly and\n"
		"back/* cases up to 64M, prefetch/* up to 256M; --quick 16M). Never more\n"
		"than free device memory unless --oversubscribe F is given.\n"
		"Before each sample the host writes every page (untimed), so the GPU work\n"
		"starts from pages on the host. GB/s = buffer bytes / time (events for GPU\n"
		"work, host clock for the back/* host sums). on-demand/first-kernel migrates\n"
		"by page faults; speedup_over_on_demand compares medians with it.\n"
		"back/* report migration_s = median - median of back/host-sum-resident.\n"
		"Kernels run one element per thread (--grid-stride: capped grid-stride);\n"
		"params give the geometry, observed fields where the pages were.\n"
		"params.access_mode says how the GPU reaches managed memory: with XNACK\n"
		"off on AMD nothing migrates on faults, kernels read host memory over the\n"
		"link. advise-coarse-grain/first-kernel is AMD only (one unsupported\n"
		"record elsewhere). attach/stream-single, attach/global, attach/host: the\n"
		"same kernel on a buffer attached to its stream with each flag.\n"
		"Range attributes are read with the singular and the plural call\n"
		"(plural_*, range_attributes_agree).\n"
		"On request (--case): advise-accessed-by-host/first-kernel,\n"
		"advise-combined/first-kernel (read-mostly + preferred location +\n"
		"accessed-by, as the ROCm unified-memory guide shows), and versus/*: the\n"
		"data on the host, a kernel updates every word, the host reads it, with\n"
		"explicit copies or managed memory; host clock around all of it;\n"
		"ratio_to_explicit. touch/gpu-first/shape/*: the first-touch fill with\n"
		"16- or 4-byte stores, one per thread or grid-stride, or one store per\n"
		"page first (touch/* use the first, 16B-per-thread);\n"
		"on-demand/first-kernel/shape/16B-per-thread: the increment in 16-byte\n"
		"loads and stores. versus/* also runs at 1.5 and 2 x free device\n"
		"memory under --oversubscribe F (F >= the factor), else those sizes are\n"
		"skipped with the reason. On AMD `all` runs the module with HSA_XNACK=1\n"
		"and =0 (params.hsa_xnack) and checks each record against the ROCm guide.",
	.cases = cases,
	.on_request = on_request,
	.run = run,
};
