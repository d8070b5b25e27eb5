/*
 * managed_versus.c - explicit copies against managed memory, one workload.
 *
 * The data starts on the host, a kernel adds 1 to every word, the host then
 * reads every word (sums it). Every variant runs that same increment kernel
 * over the same buffer size with the same launch geometry, and every timed
 * region has the same boundaries: the host clock from "the data is ready on
 * the host" to "the host has read the result". Before each sample (untimed)
 * the host writes one word of every 4 KiB page, so managed pages start on
 * the host, as in managed.c. What each timed region holds (params.timed):
 *   versus/explicit          hipMemcpyAsync h2d from a malloc'd host buffer
 *                            into a hipMalloc buffer, the kernel, hipMemcpyAsync
 *                            d2h back, hipStreamSynchronize, the host sum
 *   versus/explicit-pinned   the same from and to a hipHostMalloc buffer
 *   versus/managed-on-demand the kernel on a hipMallocManaged buffer (GPU
 *                            page faults bring it over), hipStreamSynchronize,
 *                            the host sum (CPU page faults bring it back)
 *   versus/managed-prefetch  hipMemPrefetchAsync to the device, the kernel,
 *                            hipMemPrefetchAsync to the host, synchronize, sum
 *   versus/managed-read-mostly, -preferred-device, -accessed-by-device
 *                            on-demand under that advice (given once, before
 *                            the first sample)
 * The copies are hipMemcpyAsync on the kernel's stream, not hipMemcpy: the
 * module's stream does not wait for the legacy default stream, and a
 * pageable h2d hipMemcpy may return before its data reaches the device.
 * Buffers are allocated and filled before the first sample, outside every
 * timed region (an allocation is not part of the workload).
 *
 * ratio_to_explicit = median of the case / median of versus/explicit at the
 * same size, unit x-slower (above 1: slower than explicit copies from
 * pageable memory; lower is better). Each case checks every
 * sum the host made against the pattern's, and every word afterwards.
 *
 * Oversubscription: at 1.5 and 2 x the GPU's free memory, managed memory
 * can hold what no hipMalloc buffer can. Those sizes run (managed variants
 * only) only with --oversubscribe F, F at least the factor, through the
 * module's guard (hmb_managed_allowed), on a GPU that migrates pages on
 * demand, and where the host can hold every page with 4 GiB to spare;
 * otherwise each is one "skipped" (or "unsupported") record with the reason.
 * They take minutes per case (every sample moves the buffer both ways):
 * select one case and pass --reps.
 */
#include <stdio.h>
#include <string.h>

#include "bench/managed/managed.h"
#include "engine/verify.h"
#include "kernels/pattern.h"
#include "system/host.h"

#define HOST_SPARE (4ull << 30)   /* host memory left free at oversubscribed sizes */
#define OVERSUB_ALIGN (2ull << 20)

enum variant { EXPLICIT, EXPLICIT_PINNED, ON_DEMAND, PREFETCHED, ADVISED };

struct versus_spec {
	const char *name;
	enum variant how;
	enum advice advice;
	const char *what;
};

static const struct versus_spec specs[] = {
	{ "versus/explicit", EXPLICIT, NO_ADVICE,
	  "hipMemcpyAsync h2d (malloc'd host buffer), increment kernel (+1 to every word), "
	  "hipMemcpyAsync d2h, hipStreamSynchronize, host sum of every word" },
	{ "versus/explicit-pinned", EXPLICIT_PINNED, NO_ADVICE,
	  "hipMemcpyAsync h2d (hipHostMalloc buffer), increment kernel (+1 to every word), "
	  "hipMemcpyAsync d2h, hipStreamSynchronize, host sum of every word" },
	{ "versus/managed-on-demand", ON_DEMAND, NO_ADVICE,
	  "increment kernel (+1 to every word; GPU page faults), hipStreamSynchronize, host "
	  "sum of every word (CPU page faults)" },
	{ "versus/managed-prefetch", PREFETCHED, NO_ADVICE,
	  "hipMemPrefetchAsync to the device, increment kernel (+1 to every word), "
	  "hipMemPrefetchAsync to the host, hipStreamSynchronize, host sum of every word" },
	{ "versus/managed-read-mostly", ADVISED, READ_MOSTLY,
	  "increment kernel (+1 to every word) under the advice, hipStreamSynchronize, host "
	  "sum of every word" },
	{ "versus/managed-preferred-device", ADVISED, PREFERRED_DEVICE,
	  "increment kernel (+1 to every word) under the advice, hipStreamSynchronize, host "
	  "sum of every word" },
	{ "versus/managed-accessed-by-device", ADVISED, ACCESSED_BY,
	  "increment kernel (+1 to every word) under the advice, hipStreamSynchronize, host "
	  "sum of every word" },
};
#define NSPECS (sizeof(specs) / sizeof(specs[0]))

struct versus_case {
	const struct versus_spec *spec;
	struct managed *m;
	struct hmb_record *r;
	size_t bytes;
	uint32_t *host;      /* where the host reads: the host buffer, or the managed one */
	uint32_t *dev;       /* explicit: the hipMalloc buffer */
	uint32_t seed, add;  /* the words hold pattern(seed) + add */
	uint32_t base;       /* the sum of pattern(seed) */
	uint32_t sum;        /* the last timed sum */
	int pending;         /* a sum not yet compared */
};

static int managed_variant(const struct versus_spec *s)
{
	return s->how != EXPLICIT && s->how != EXPLICIT_PINNED;
}

static uint32_t expected_sum(const struct versus_case *k)
{
	return k->base + (uint32_t)((uint64_t)(k->bytes / 4) * k->add);
}

static int check_sum(struct versus_case *k)
{
	if (k->pending && k->sum != expected_sum(k)) {
		hmb_set_error("verification failed: the host summed 0x%08x, expected 0x%08x",
			      k->sum, expected_sum(k));
		return -1;
	}
	k->pending = 0;
	return 0;
}

/* The buffers; the host writes the pattern, then the advice is given. */
static int versus_setup(struct hmb_ctx *ctx, void *st)
{
	struct versus_case *k = st;
	const struct versus_spec *s = k->spec;
	uint32_t sum = 0;

	k->seed = k->m->seed++;
	k->add = 0;
	k->pending = 0;
	if (s->how == EXPLICIT || s->how == EXPLICIT_PINNED) {
		enum hmb_mem_kind kind = s->how == EXPLICIT ? HMB_KIND_PAGEABLE : HMB_KIND_PINNED;
		if (!(k->host = hmb_alloc(ctx, kind, k->bytes)) ||
		    !(k->dev = hmb_alloc(ctx, HMB_KIND_DEVICE, k->bytes)))
			return -1;
	} else if (!(k->host = hmb_alloc(ctx, HMB_KIND_MANAGED, k->bytes))) {
		return -1;
	}
	for (size_t i = 0; i < k->bytes / 4; i++)
		sum += k->host[i] = hmb_pattern(i, k->seed);
	k->base = sum;
	return managed_advise(k->host, k->bytes, k->m->dev, s->advice, 1);
}

/* The last sum is checked; the host writes every page (managed pages come
 * home: under read-mostly through one prefetch, managed_pages_home). */
static int versus_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct versus_case *k = st;

	(void)sample;
	if (check_sum(k))
		return -1;
	if (!managed_variant(k->spec)) {
		managed_host_writes_every_page(k->host, k->bytes / 4);
		return 0;
	}
	return managed_pages_home(k->host, k->bytes, k->m->dev, k->spec->advice, ctx->stream);
}

static int versus_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct versus_case *k = st;
	enum variant how = k->spec->how;
	size_t words = k->bytes / 4;
	uint32_t s = 0;

	(void)ctx;
	(void)i;
	if (how == EXPLICIT || how == EXPLICIT_PINNED) {
		HMB_TRY(hipMemcpyAsync(k->dev, k->host, k->bytes, hipMemcpyHostToDevice, stream));
		HMB_TRY(hmb_launch_increment_grid(k->dev, words, k->m->grid, stream));
		HMB_TRY(hipMemcpyAsync(k->host, k->dev, k->bytes, hipMemcpyDeviceToHost, stream));
	} else {
		if (how == PREFETCHED)
			HMB_TRY(hipMemPrefetchAsync(k->host, k->bytes, k->m->dev, stream));
		HMB_TRY(hmb_launch_increment_grid(k->host, words, k->m->grid, stream));
		if (how == PREFETCHED)
			HMB_TRY(hipMemPrefetchAsync(k->host, k->bytes, hipCpuDeviceId, stream));
	}
	HMB_TRY(hipStreamSynchronize(stream));
	k->add++;
	for (size_t w = 0; w < words; w++)
		s += k->host[w];
	k->sum = s;
	k->pending = 1;
	return 0;
}

static int versus_verify(struct hmb_ctx *ctx, void *st)
{
	struct versus_case *k = st;

	(void)ctx;
	if (managed_variant(k->spec))
		managed_observe_range(k->r, k->host, k->bytes, k->m->dev);
	if (check_sum(k))
		return -1;
	return managed_check_words(k->host, k->bytes, k->seed, k->add, 1);
}

static void versus_teardown(struct hmb_ctx *ctx, void *st)
{
	struct versus_case *k = st;

	(void)ctx;
	if (k->host && managed_advise(k->host, k->bytes, k->m->dev, k->spec->advice, 0)) {
		char why[256];
		fprintf(stderr, "[managed] warning: could not unset the advice of %s: %s\n",
			k->spec->name, hmb_take_error(why, sizeof(why)));
	}
}

static void describe(struct hmb_record *r, const struct versus_spec *s, const struct managed *m,
		     size_t bytes, double factor)
{
	hmb_param_str(r, "variant", !managed_variant(s) ? "explicit: hipMalloc buffer, copies"
				    : s->how == PREFETCHED ? "managed, prefetched both ways"
				    : "managed, on demand");
	hmb_param_str(r, "host_memory", s->how == EXPLICIT ? "pageable (malloc)"
					: s->how == EXPLICIT_PINNED ? "pinned (hipHostMalloc)"
					: "managed (hipMallocManaged)");
	hmb_param_str(r, "advice", managed_advice_name[s->advice]);
	hmb_param_str(r, "kernel", "read-write");
	hmb_param_str(r, "host_read", "sum of every word");
	if (factor > 0)
		hmb_param_num(r, "oversubscription_factor", factor);
	hmb_context_str(r, "before_each_sample",
			"untimed: the host writes one word of every 4 KiB page (managed pages move "
			"to the host)");
	hmb_param_geometry(r, bytes / 4, m->grid);
}

/* One case at one size; its median, or -1. */
static double run_one(struct hmb_ctx *ctx, struct managed *m, const struct versus_spec *s,
		      size_t bytes, double factor, double explicit_med)
{
	int slow = bytes > 16u << 20;
	struct versus_case k = { .spec = s, .m = m, .bytes = bytes };
	struct hmb_case c = {
		.what = s->what,
		.timing = {
			.clock = HMB_CLOCK_HOST,
			.sync = HMB_SYNC_NONE, /* the op synchronizes before the host sum */
			.reps = slow ? SLOW_REPS : 10,
			.warmup = slow ? 0 : 1,
		},
		.ops = { versus_setup, versus_prepare, versus_op, versus_verify, versus_teardown },
		.state = &k,
	};
	double med;

	if (!(k.r = managed_record(ctx, s->name, bytes)))
		return -1;
	describe(k.r, s, m, bytes, factor);
	hmb_measure(ctx, k.r, &c);
	med = hmb_median(k.r);
	if (s->how != EXPLICIT && explicit_med > 0 && med > 0)
		hmb_metric(k.r, "ratio_to_explicit", med / explicit_med, "x-slower");
	hmb_commit(ctx, k.r);
	return med;
}

int managed_oversub_size(double factor, size_t dev_free, size_t host_avail, double oversubscribe,
			 int migrates, size_t *size, char *why, size_t len)
{
	*size = (size_t)(factor * (double)dev_free) / OVERSUB_ALIGN * OVERSUB_ALIGN;
	if (*size == 0) {
		snprintf(why, len, "free device memory could not be read");
		return HMB_SKIPPED;
	}
	if (!migrates) {
		snprintf(why, len, "this GPU does not migrate managed pages on demand (see "
			 "params.access_mode): managed memory cannot oversubscribe device memory");
		return HMB_UNSUPPORTED;
	}
	if (oversubscribe < factor) {
		snprintf(why, len, "%.1f x free device memory (%s) needs --oversubscribe F with F "
			 ">= %.1f (%s), at the risk of an unresponsive GPU", factor, hmb_sz(*size),
			 factor, oversubscribe > 0 ? "a smaller F was given" : "none was given");
		return HMB_SKIPPED;
	}
	if (*size > host_avail || host_avail - *size < HOST_SPARE) {
		snprintf(why, len, "%.1f x free device memory (%s) needs that much host memory "
			 "and 4 GiB to spare; %.2f GiB is available", factor, hmb_sz(*size),
			 (double)host_avail / (1 << 30));
		return HMB_SKIPPED;
	}
	return HMB_OK;
}

static void run_oversubscribed(struct hmb_ctx *ctx, struct managed *m, double factor)
{
	size_t size;
	char why[512];
	int st = managed_oversub_size(factor, hmb_device_free_mem(), hmb_host_available_bytes(),
				      ctx->opt->oversubscribe,
				      ctx->dev->model.managed_access == HMB_ACCESS_MIGRATE_ON_FAULT,
				      &size, why, sizeof(why));

	for (size_t i = 0; i < NSPECS && !hmb_interrupted(); i++) {
		struct hmb_record *r;

		if (!managed_variant(&specs[i]) || !hmb_selected(ctx, specs[i].name))
			continue;
		if (st == HMB_OK) {
			/* the module's guard, the one rule for managed memory, decides last */
			if (hmb_managed_allowed(ctx, specs[i].name, size))
				run_one(ctx, m, &specs[i], size, factor, -1);
			continue;
		}
		if (!(r = managed_record(ctx, specs[i].name, size)))
			continue;
		hmb_param_num(r, "oversubscription_factor", factor);
		hmb_record_status(r, (enum hmb_status)st, "%s", why);
		hmb_commit(ctx, r);
	}
}

void managed_versus_run(struct hmb_ctx *ctx, struct managed *m, const struct hmb_sizes *sizes)
{
	int any = 0;

	for (size_t i = 0; i < NSPECS; i++)
		any |= hmb_selected(ctx, specs[i].name);
	if (!any)
		return;
	for (size_t z = 0; z < sizes->n && !hmb_interrupted(); z++) {
		double explicit_med = -1;

		if (!hmb_managed_allowed(ctx, "versus/*", sizes->v[z]))
			continue;
		for (size_t i = 0; i < NSPECS && !hmb_interrupted(); i++) {
			double med = run_one(ctx, m, &specs[i], sizes->v[z], 0, explicit_med);
			if (specs[i].how == EXPLICIT)
				explicit_med = med;
		}
	}
	if (!hmb_interrupted())
		run_oversubscribed(ctx, m, 1.5);
	if (!hmb_interrupted())
		run_oversubscribed(ctx, m, 2.0);
}
