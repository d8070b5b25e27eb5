/*
 * managed_attach.c - does attaching managed memory to a stream change what a
 * kernel pays for it?
 *
 * One 4 MiB hipMallocManaged(hipMemAttachHost) buffer per case, attached
 * with hipStreamAttachMemAsync to a stream created for the case: before each
 * sample the host writes every page; the timed region is the increment
 * kernel (+1 to every word) from its launch to the stream's synchronisation,
 * on the host clock. Not HIP events behind a latch as managed.c's GPU cases:
 * memory attached to one stream may be migrated by the runtime when the
 * kernel is launched, on the host, before the first event (events timed
 * 6.4 us here for 4 MiB that the other flags take 0.7 ms to bring over),
 * and the host clock keeps that inside. The three differ only in the flag:
 *   attach/stream-single  hipMemAttachSingle: only that stream's work uses it
 *   attach/global         hipMemAttachGlobal: any stream, any device
 *   attach/host           hipMemAttachHost: the host; an NVIDIA GPU without
 *                         concurrent managed access may not reach it (one
 *                         "unsupported" record says so there)
 * so the three read side by side. observed concurrent_managed_access is
 * the device attribute that decides what the flag can change: where it is
 * true, the GPU and the host may use managed memory at once whatever the
 * attachment, so the three may well match (the flag matters for the host's
 * access while a kernel runs, which these cases do not time). The host
 * checks every word afterwards.
 */
#include <stdint.h>
#include <stdio.h>

#include "bench/managed/managed.h"
#include "bench/managed/managed_static.h"

/* The buffer and stream are the case's own (freed after it, the buffer
 * first), so no attachment outlives it; the engine times on that stream. */
static int attach_setup(struct hmb_ctx *ctx, void *st)
{
	struct gpu_case *k = st;

	k->saved = ctx->stream;
	if (!(k->own = hmb_stream_new(ctx)) ||
	    !(k->p = hmb_alloc(ctx, HMB_KIND_MANAGED_HOST, k->bytes)))
		return -1;
	HMB_TRY(hipStreamAttachMemAsync(k->own, k->p, 0, k->attach));
	HMB_TRY(hipStreamSynchronize(k->own));
	ctx->stream = k->own;
	return managed_gpu_setup(ctx, st);
}

static void attach_teardown(struct hmb_ctx *ctx, void *st)
{
	struct gpu_case *k = st;

	if (k->saved)
		ctx->stream = k->saved;
}

struct attach_spec {
	struct gpu_spec spec;
	unsigned flag;
	const char *how;
};

void managed_attach_run(struct hmb_ctx *ctx, struct managed *m)
{
	static const struct attach_spec specs[] = {
		{ { "attach/stream-single", NO_ADVICE, 1, 0, KERNEL, 0,
		    "increment kernel (+1 to every word) on a buffer attached to the kernel's "
		    "stream" },
		  hipMemAttachSingle, "hipMemAttachSingle" },
		{ { "attach/global", NO_ADVICE, 1, 0, KERNEL, 0,
		    "increment kernel (+1 to every word) on a buffer attached globally" },
		  hipMemAttachGlobal, "hipMemAttachGlobal" },
		{ { "attach/host", NO_ADVICE, 1, 0, KERNEL, 0,
		    "increment kernel (+1 to every word) on a buffer attached to the host" },
		  hipMemAttachHost, "hipMemAttachHost" },
	};
	static const struct hmb_case_ops ops = { attach_setup, managed_gpu_prepare,
						 managed_gpu_op, managed_gpu_verify,
						 attach_teardown };
	size_t bytes = HMB_MANAGED_STATIC_WORDS * sizeof(uint32_t);
	int cma = ctx->dev->concurrent_managed_access;

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]) && !hmb_interrupted(); i++) {
		const struct attach_spec *a = &specs[i];
		struct gpu_case k = { .spec = &a->spec, .m = m, .bytes = bytes,
				      .attach = a->flag, .launch_timed = 1 };
		char how[256];
		struct hmb_record *r;

		snprintf(how, sizeof(how), "hipMallocManaged(hipMemAttachHost), then "
			 "hipStreamAttachMemAsync(%s) to a stream created for this case (timed "
			 "on it; destroyed after the buffer is freed)", a->how);
		/* NVIDIA without concurrent managed access: CUDA lets no kernel
		 * touch memory attached to the host (the rule is CUDA's; HIP on AMD
		 * states none, so the case runs there) */
		if (a->flag == hipMemAttachHost &&
		    ctx->dev->model.managed_access == HMB_ACCESS_MIGRATE_AT_LAUNCH) {
			if (!(r = managed_record(ctx, a->spec.name, bytes)))
				continue;
			hmb_context_str(r, "attach", how);
			hmb_observe_bool(r, "concurrent_managed_access", cma > 0);
			hmb_record_status(r, HMB_UNSUPPORTED, "the device has no concurrent "
					  "managed access: memory attached to the host may not be "
					  "reached from it");
			hmb_commit(ctx, r);
			continue;
		}
		if (!(r = managed_run_gpu_case(ctx, &k, &ops)))
			continue;
		hmb_context_str(r, "attach", how);
		if (cma >= 0)
			hmb_observe_bool(r, "concurrent_managed_access", cma);
		else
			hmb_observe_str(r, "concurrent_managed_access", "not readable");
		hmb_commit(ctx, r);
	}
}
