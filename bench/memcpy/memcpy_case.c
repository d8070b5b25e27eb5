/*
 * memcpy_case.c - one copy between two buffers, measured and verified: what
 * the memcpy module's on-request families (memcpy_variants.c,
 * memcpy_untouched.c, memcpy_hugepages.c) share. The source carries the
 * pattern and the destination is poisoned before timing; after it, every
 * destination word the timed copies wrote is checked (kernels check device
 * memory, the host checks host memory).
 */
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/memcpy/memcpy.h"
#include "engine/report.h"
#include "engine/verify.h"
#include "kernels/kernels.h"
#include "system/memalloc.h"

static const char *kind_name(hipMemcpyKind k)
{
	switch (k) {
	case hipMemcpyHostToDevice: return "hipMemcpyHostToDevice";
	case hipMemcpyDeviceToHost: return "hipMemcpyDeviceToHost";
	case hipMemcpyDeviceToDevice: return "hipMemcpyDeviceToDevice";
	case hipMemcpyHostToHost: return "hipMemcpyHostToHost";
	case hipMemcpyDefault: return "hipMemcpyDefault";
	default: return "other";
	}
}

static const char *direction(const struct mc_copy *k)
{
	return k->src_dev ? (k->dst_dev ? "d2d" : "d2h") : (k->dst_dev ? "h2d" : "h2h");
}

int mc_sets(size_t cache, size_t room, size_t size)
{
	size_t want = (2 * cache + size - 1) / size + 1, fit = room / size;
	if (want > fit)
		want = fit;
	return want < 1 ? 1 : want > 1000000 ? 1000000 : (int)want;
}

int mc_reference_copies(size_t size)
{
	size_t n = size ? (MC_REFERENCE_BYTES + size - 1) / size : 1;
	return n < 1 ? 1 : n > MC_REFERENCE_MAX_COPIES ? MC_REFERENCE_MAX_COPIES : (int)n;
}

void mc_record_endpoints(struct hmb_record *r, const void *src, const void *dst)
{
	hmb_observe_str(r, "src_memory", hmb_pointer_memory(src));
	hmb_observe_str(r, "dst_memory", hmb_pointer_memory(dst));
}

/* Every set of the source carries the pattern (word indices run on across
 * the sets, so set j of the destination is checked against its own words);
 * the destination is poisoned. */
static int setup(struct hmb_ctx *ctx, void *st)
{
	struct mc_copy *k = st;
	size_t bytes = (size_t)k->sets * k->size;

	(void)ctx;
	if (k->src_dev)
		HMB_TRY(hmb_launch_fill(k->src, 0, bytes / 4, MC_SEED, 0));
	else
		hmb_fill_host(k->src, bytes, MC_SEED);
	if (k->dst_dev)
		HMB_TRY(hipMemset(k->dst, MC_POISON, bytes));
	else
		memset(k->dst, MC_POISON, bytes);
	HMB_TRY(hipDeviceSynchronize());
	return 0;
}

int mc_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct mc_copy *k = st;
	size_t off = (size_t)(i % k->sets) * k->size;
	uint8_t *dst = k->dst + off;
	const uint8_t *src = k->src + off;

	(void)ctx;
	k->ops = i + 1;
	switch (k->api) {
	case MC_ASYNC:
		HMB_TRY(hipMemcpyAsync(dst, src, k->size, k->kind, stream));
		break;
	case MC_SYNC:
		HMB_TRY(hipMemcpy(dst, src, k->size, k->kind));
		HMB_TRY(hipDeviceSynchronize());
		break;
	case MC_BLOCKING:
		HMB_TRY(hipMemcpy(dst, src, k->size, k->kind));
		break;
	case MC_HOST:
		memcpy(dst, src, k->size);
		break;
	}
	return 0;
}

/* Every destination word that the copies made so far wrote. */
static int verify(struct hmb_ctx *ctx, void *st)
{
	struct mc_copy *k = st;
	unsigned long long bad = 0;
	size_t used = mc_bytes_written(k->ops, k->sets, k->size);

	(void)ctx;
	if (k->dst_dev)
		HMB_TRY(hmb_check_device(k->dst, 0, used, MC_SEED, 0, &bad));
	else
		bad = hmb_check_host(k->dst, used, MC_SEED, 0);
	return hmb_verify_result(bad, "words differ after the timed copies");
}

void mc_measure(struct hmb_ctx *ctx, struct hmb_record *r, struct mc_copy *k,
		const struct hmb_case_ops *ops, const char *what)
{
	static const char *const api[] = { "hipMemcpyAsync", "hipMemcpy", "hipMemcpy", "memcpy" };
	const double peak = ctx->dev->model.peak_gbps;
	char text[160];
	struct hmb_case m = {
		.what = what ? what : text,
		.timing = {
			.clock = k->api == MC_ASYNC ? HMB_CLOCK_EVENTS : HMB_CLOCK_HOST,
			.sync = k->api == MC_ASYNC ? HMB_SYNC_PER_SAMPLE : HMB_SYNC_NONE,
			.latch = k->api == MC_ASYNC && k->latch,
			.buffer_sets = k->sets,
			/* 20 samples; 10 above 64 MiB, where each takes milliseconds */
			.reps = k->size > (64u << 20) ? 10 : 20,
			.warmup = 2,
		},
		.ops = { setup, NULL, mc_op, verify, NULL },
		.state = k,
	};

	if (ops)
		m.ops = *ops;
	switch (k->api) {
	case MC_ASYNC:
		snprintf(text, sizeof(text), "hipMemcpyAsync %s (%s)", direction(k),
			 kind_name(k->kind));
		break;
	case MC_SYNC:
		snprintf(text, sizeof(text), "hipMemcpy %s (%s) + hipDeviceSynchronize",
			 direction(k), kind_name(k->kind));
		break;
	case MC_BLOCKING:
		snprintf(text, sizeof(text), "hipMemcpy %s (%s), which returns when the copy is "
			 "done", direction(k), kind_name(k->kind));
		break;
	case MC_HOST:
		snprintf(text, sizeof(text), "memcpy() on the host, one thread");
		break;
	}
	hmb_param_num(r, "size", (double)k->size);
	hmb_param_str(r, "direction", direction(k));
	hmb_param_str(r, "api", api[k->api]);
	if (k->api != MC_HOST)
		hmb_param_str(r, "memcpy_kind", kind_name(k->kind));
	hmb_record_bytes(r, (double)k->size);
	if (k->src_dev != k->dst_dev && peak > 0)
		hmb_record_peak(r, peak);
	if (!ops)
		mc_record_endpoints(r, k->src, k->dst);
	hmb_measure(ctx, r, &m);
	hmb_commit(ctx, r);
}

size_t mc_bytes_written(long ops, int sets, size_t size)
{
	return (size_t)(ops < sets ? ops : sets) * size;
}

void mc_alloc_failed(struct hmb_ctx *ctx, const char *name, size_t bytes)
{
	char why[1024];
	struct hmb_record *r = hmb_case_record(ctx, "alloc/%s", name);
	hmb_param_num(r, "size", (double)bytes);
	hmb_record_status(r, HMB_FAILED, "%s", hmb_take_error(why, sizeof(why)));
	hmb_report_add(ctx->report, r);
}

int mc_family_selected(const struct hmb_ctx *ctx, const char *family)
{
	const char *const *c = ctx->bench ? ctx->bench->cases : NULL;
	for (int i = 0; c && c[i]; i++)
		if (fnmatch(family, c[i], 0) == 0 && hmb_selected(ctx, c[i]))
			return 1;
	return 0;
}

void mc_unavailable(struct hmb_ctx *ctx, const char *name, const char *family,
		    enum hmb_status s, size_t size, const char *fmt, ...)
{
	struct hmb_record *r;
	char reason[1024];
	va_list ap;

	if (!hmb_selected(ctx, name) && !mc_family_selected(ctx, family))
		return;
	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	r = hmb_case_record(ctx, "%s", name);
	if (size)
		hmb_param_num(r, "size", (double)size);
	hmb_record_status(r, s, "%s", reason);
	hmb_commit_kept(ctx, r);
}
