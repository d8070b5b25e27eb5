/*
 * memcpy_pinning.c - what pinning host memory costs, and after how many
 * copied bytes it pays for itself, for the memcpy module (memcpy.c). Both
 * case families run only where a --case pattern names them: pinning a
 * gigabyte takes a large part of a second, many times over.
 * Sizes: --sizes, else 4K,64K,1M,16M,256M,1G (--quick 4K,1M,16M); a size that
 * the host's available memory (MemAvailable) or the device's free memory
 * cannot hold with room to spare is a "skipped" record.
 *
 * pin/cost/CALL: one call per sample on the host clock (the calls return when
 * done; nothing is added): hipHostMalloc and hipHostFree of `size` bytes,
 * hipHostRegister and hipHostUnregister of one malloc'd buffer whose pages
 * were touched before (the figure is the pinning, not first-touch faults).
 * Untimed before each sample: the previous sample's buffer checked and given
 * back, or (for the freeing calls) a buffer pinned and checked. Checked means
 * the memory round-trips: a pattern written on the host, copied to the device
 * and checked there, the host buffer poisoned, copied back and checked.
 *
 * pin/break-even/DIR/METHOD: how many bytes one must copy (DIR h2d or d2h) before
 * pinning pays for itself, pinning by allocating (METHOD hipHostMalloc) or by
 * registering an existing buffer (hipHostRegister). The case measures all it
 * derives from, itself: the pin call and the undoing call (as pin/cost/CALL, not
 * read from those records), copies of `size` with a malloc'd touched buffer,
 * and, as its own samples, the same copies with the pinned buffer. Every copy
 * is hipMemcpyAsync + hipStreamSynchronize on the host clock, what a program
 * waits for, and is verified.
 *   pin_cost_s = median(pin call) + median(undoing call): the cost of pinning
 *                includes giving the memory back (hipHostFree/hipHostUnregister)
 *   break_even_bytes = pin_cost_s / (1/pageable_Bps - 1/pinned_Bps)
 *   copies_to_break_even = break_even_bytes / size
 * with pageable_Bps = size / median pageable copy, pinned_Bps likewise; these
 * medians are the record's metrics, so that a reader can recompute it. Where
 * the pinned copy is not faster, pinning never pays at that size: no
 * break-even metrics, observed.break_even says so.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/memcpy/memcpy_pinning.h"
#include "engine/measure.h"
#include "engine/verify.h"
#include "kernels/kernels.h"
#include "system/host.h"

#define SEED 0x50494eu
#define POISON 0x5A
#define HOST_SPARE (1ull << 30)     /* host memory left to everything else */
#define DEVICE_SPARE (256ull << 20) /* device memory likewise */
#define BIG (64ull << 20)           /* above this, fewer samples: each takes long */

enum method { HOST_MALLOC, REGISTER };
enum call { PIN, UNPIN };
enum dir { H2D, D2H };

static const char *const call_name[2][2] = { { "hipHostMalloc", "hipHostFree" },
					     { "hipHostRegister", "hipHostUnregister" } };
static const char *const call_what[2][2] = {
	{ "hipHostMalloc(Default) of the buffer", "hipHostFree of the pinned buffer" },
	{ "hipHostRegister(Default) of a malloc'd buffer whose pages were touched",
	  "hipHostUnregister of the registered buffer" },
};
static const char *const dir_name[] = { "h2d", "d2h" };

int memcpy_break_even(double pin_cost_s, double size, double pageable_s, double pinned_s,
		      struct break_even *out)
{
	double pageable_bps, pinned_bps;

	memset(out, 0, sizeof(*out));
	if (!(pin_cost_s > 0) || !(size > 0) || !(pageable_s > 0) || !(pinned_s > 0))
		return -1;
	if (pinned_s >= pageable_s)
		return 0; /* pinned is not faster: no number of copies pays for the pin */
	pageable_bps = size / pageable_s;
	pinned_bps = size / pinned_s;
	out->pays = 1;
	out->bytes = pin_cost_s / (1 / pageable_bps - 1 / pinned_bps);
	out->copies = out->bytes / size;
	return 0;
}

/* ---- pinning and unpinning one buffer ---- */

struct pinned {
	enum method m;
	size_t size;
	uint8_t *plain;   /* REGISTER: the malloc'd, touched buffer (the context's) */
	uint8_t *p;       /* the pinned buffer while held */
	uint8_t *dev;     /* size bytes: the device end of the round trip */
	int held;
};

static int pin(struct pinned *b)
{
	void *p = NULL;

	if (b->m == HOST_MALLOC) {
		HMB_TRY(hipHostMalloc(&p, b->size, hipHostMallocDefault));
		b->p = p;
	} else {
		HMB_TRY(hipHostRegister(b->plain, b->size, hipHostRegisterDefault));
		b->p = b->plain;
	}
	b->held = 1;
	return 0;
}

static int unpin(struct pinned *b)
{
	if (b->m == HOST_MALLOC)
		HMB_TRY(hipHostFree(b->p));
	else
		HMB_TRY(hipHostUnregister(b->p));
	b->held = 0;
	b->p = NULL;
	return 0;
}

/* The pinned memory is usable: a pattern written on the host reaches the
 * device, and comes back into the poisoned host buffer. */
static int round_trip(struct pinned *b)
{
	unsigned long long bad = 0;

	hmb_fill_host(b->p, b->size, SEED);
	HMB_TRY(hipMemset(b->dev, POISON, b->size));
	HMB_TRY(hipMemcpy(b->dev, b->p, b->size, hipMemcpyHostToDevice));
	HMB_TRY(hmb_check_device(b->dev, 0, b->size, SEED, 0, &bad));
	if (!bad) {
		memset(b->p, POISON, b->size);
		HMB_TRY(hipMemcpy(b->p, b->dev, b->size, hipMemcpyDeviceToHost));
		bad = hmb_check_host(b->p, b->size, SEED, 0);
	}
	return hmb_verify_result(bad, "words of the %s buffer did not round-trip through the "
				 "device", b->m == HOST_MALLOC ? "pinned" : "registered");
}

/* The device end, and for registering the malloc'd buffer (pages touched). */
static int buffers(struct hmb_ctx *ctx, struct pinned *b)
{
	if (!(b->dev = hmb_alloc(ctx, HMB_KIND_DEVICE, b->size)))
		return -1;
	if (b->m == REGISTER && !(b->plain = hmb_alloc(ctx, HMB_KIND_PAGEABLE, b->size)))
		return -1;
	return 0;
}

/* Give back what is still pinned (before the context frees the malloc'd buffer). */
static void release(struct pinned *b)
{
	(void)hipDeviceSynchronize();
	if (b->held)
		(void)unpin(b);
	(void)hipGetLastError();
}

/* ---- one pin or unpin call per sample ---- */

struct call_case {
	struct pinned b;
	enum call k;      /* the timed call */
};

static int call_setup(struct hmb_ctx *ctx, void *st)
{
	struct call_case *c = st;
	return buffers(ctx, &c->b);
}

/* PIN: the previous sample's buffer checked and given back. UNPIN: a buffer
 * pinned and checked, for the timed call to give back. */
static int call_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct call_case *c = st;

	(void)ctx;
	(void)sample;
	if (c->k == PIN)
		return c->b.held && (round_trip(&c->b) || unpin(&c->b)) ? -1 : 0;
	return pin(&c->b) || round_trip(&c->b) ? -1 : 0;
}

static int call_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct call_case *c = st;

	(void)ctx;
	(void)stream;
	(void)i;
	return c->k == PIN ? pin(&c->b) : unpin(&c->b);
}

/* PIN: the last buffer pinned round-trips (the earlier ones did before they
 * were given back). UNPIN: each buffer round-tripped before its timed call. */
static int call_verify(struct hmb_ctx *ctx, void *st)
{
	struct call_case *c = st;

	(void)ctx;
	return c->k == PIN ? round_trip(&c->b) : 0;
}

static void call_teardown(struct hmb_ctx *ctx, void *st)
{
	struct call_case *c = st;
	(void)ctx;
	release(&c->b);
}

static int measure_call(struct hmb_ctx *ctx, struct hmb_record *r, enum method m, enum call k,
			size_t size)
{
	struct call_case c = { { m, size, NULL, NULL, NULL, 0 }, k };
	struct hmb_case mc = {
		.what = call_what[m][k],
		.timing = { .clock = HMB_CLOCK_HOST, .sync = HMB_SYNC_NONE,
			    .reps = size > BIG ? 5 : 10, .warmup = 1 },
		.ops = { call_setup, call_prepare, call_op, call_verify, call_teardown },
		.state = &c,
	};
	return hmb_measure(ctx, r, &mc);
}

/* ---- copies of one size, from pageable or pinned memory ---- */

struct copy_case {
	struct pinned b;  /* the pinned buffer (unused for pageable copies) */
	int pinned;
	enum dir d;
	uint8_t *host;
};

/* The host buffer: malloc'd and touched, or pinned (and round-tripped); the
 * source carries the pattern, the destination is poisoned. */
static int copy_setup(struct hmb_ctx *ctx, void *st)
{
	struct copy_case *c = st;
	size_t size = c->b.size;

	if (!c->pinned) {
		if (!(c->b.dev = hmb_alloc(ctx, HMB_KIND_DEVICE, size)) ||
		    !(c->host = hmb_alloc(ctx, HMB_KIND_PAGEABLE, size)))
			return -1;
	} else {
		if (buffers(ctx, &c->b) || pin(&c->b) || round_trip(&c->b))
			return -1;
		c->host = c->b.p;
	}
	if (c->d == H2D) {
		hmb_fill_host(c->host, size, SEED);
		HMB_TRY(hipMemset(c->b.dev, POISON, size));
	} else {
		HMB_TRY(hmb_launch_fill(c->b.dev, 0, size / 4, SEED, 0));
		memset(c->host, POISON, size);
	}
	HMB_TRY(hipDeviceSynchronize());
	return 0;
}

static int copy_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct copy_case *c = st;

	(void)ctx;
	(void)i;
	if (c->d == H2D)
		HMB_TRY(hipMemcpyAsync(c->b.dev, c->host, c->b.size, hipMemcpyHostToDevice,
				       stream));
	else
		HMB_TRY(hipMemcpyAsync(c->host, c->b.dev, c->b.size, hipMemcpyDeviceToHost,
				       stream));
	return 0;
}

static int copy_verify(struct hmb_ctx *ctx, void *st)
{
	struct copy_case *c = st;
	unsigned long long bad = 0;

	(void)ctx;
	if (c->d == H2D)
		HMB_TRY(hmb_check_device(c->b.dev, 0, c->b.size, SEED, 0, &bad));
	else
		bad = hmb_check_host(c->host, c->b.size, SEED, 0);
	return hmb_verify_result(bad, "words differ after the timed %s copies",
				 c->pinned ? "pinned" : "pageable");
}

static void copy_teardown(struct hmb_ctx *ctx, void *st)
{
	struct copy_case *c = st;
	(void)ctx;
	release(&c->b);
}

static int measure_copy(struct hmb_ctx *ctx, struct hmb_record *r, enum method m, enum dir d,
			int pinned, size_t size)
{
	struct copy_case c = { { m, size, NULL, NULL, NULL, 0 }, pinned, d, NULL };
	char what[96];
	struct hmb_case mc = {
		.what = what,
		.timing = { .clock = HMB_CLOCK_HOST, .sync = HMB_SYNC_PER_SAMPLE,
			    .reps = size > BIG ? 10 : 20, .warmup = 2 },
		.ops = { copy_setup, NULL, copy_op, copy_verify, copy_teardown },
		.state = &c,
	};

	snprintf(what, sizeof(what), "hipMemcpyAsync %s, %s host memory", dir_name[d],
		 !pinned ? "malloc'd (pageable)" : m == HOST_MALLOC ? "hipHostMalloc'd"
								   : "hipHostRegister'd");
	return hmb_measure(ctx, r, &mc);
}

/* ---- the cases ---- */

/* Room for a host buffer and a device buffer of `size` (a case holds one of
 * each at a time), each with some to spare; else one "skipped" record. */
static int fits(struct hmb_ctx *ctx, const char *name, size_t size)
{
	size_t host = hmb_host_available_bytes(), dev = hmb_device_free_mem();

	if (host && (double)size + (double)HOST_SPARE > (double)host) {
		hmb_skip(ctx, name, size, "needs a host buffer of %s and 1 GiB to spare; the host "
			 "has %.1f GiB available", hmb_sz(size), (double)host / (1 << 30));
		return 0;
	}
	if ((double)size + (double)DEVICE_SPARE > (double)dev) {
		hmb_skip(ctx, name, size, "needs a device buffer of %s and 256 MiB to spare; %.1f "
			 "GiB free on the device", hmb_sz(size), (double)dev / (1 << 30));
		return 0;
	}
	return 1;
}

/* hipHostRegister where the device cannot: one "unsupported" record per case. */
static int register_unsupported(struct hmb_ctx *ctx, enum method m, const char *name)
{
	const struct hmb_kind_info *info = &ctx->dev->model.kinds[HMB_KIND_REGISTERED];
	struct hmb_record *r;

	if (m != REGISTER || info->supported)
		return 0;
	r = hmb_case_record(ctx, "%s", name);
	hmb_record_status(r, HMB_UNSUPPORTED, "%s", info->reason);
	hmb_commit(ctx, r);
	return 1;
}

static void call_case(struct hmb_ctx *ctx, enum method m, enum call k,
		      const struct hmb_sizes *sizes)
{
	char name[64];

	snprintf(name, sizeof(name), "pin/cost/%s", call_name[m][k]);
	if (!hmb_selected(ctx, name) || register_unsupported(ctx, m, name))
		return;
	for (size_t i = 0; i < sizes->n && !hmb_interrupted(); i++) {
		size_t size = sizes->v[i];
		struct hmb_record *r;

		if (!fits(ctx, name, size))
			continue;
		r = hmb_case_record(ctx, "%s", name);
		hmb_param_num(r, "size", (double)size);
		hmb_param_str(r, "call", call_name[m][k]);
		hmb_context_str(r, "untimed_before_each_sample", k == PIN ?
				"the previous sample's buffer checked, then given back" :
				"a buffer pinned, then checked");
		hmb_context_str(r, "verification", "each buffer pinned round-trips a pattern: "
				"host to device, checked there, back into the poisoned host "
				"buffer, checked");
		if (m == REGISTER)
			hmb_param_str(r, "host_buffer",
				      "aligned malloc, every page touched before");
		measure_call(ctx, r, m, k, size);
		hmb_commit(ctx, r);
	}
}

/* Measure a part of a break-even case into a scratch record; its median,
 * or -1 with the main record failed with the part's reason. */
static double part(struct hmb_record *r, struct hmb_record *scratch, int rc, const char *what)
{
	double t = rc == 0 ? hmb_median(scratch) : -1;

	if (t <= 0)
		hmb_record_status(r, HMB_FAILED, "%s: %s", what,
				  scratch->reason ? scratch->reason : "no time was measured");
	return t;
}

static void derive(struct hmb_record *r, size_t size, double pin_s, double unpin_s,
		   double pageable_s, double pinned_s)
{
	struct break_even be;
	double cost = pin_s + unpin_s;
	char why[256];

	hmb_metric(r, "pin_s", pin_s, "s");
	hmb_metric(r, "unpin_s", unpin_s, "s");
	hmb_metric(r, "pin_cost_s", cost, "s");
	hmb_metric(r, "pageable_copy_s", pageable_s, "s");
	hmb_metric(r, "pinned_copy_s", pinned_s, "s");
	hmb_metric(r, "pageable_Bps", (double)size / pageable_s, "B/s");
	hmb_metric(r, "pinned_Bps", (double)size / pinned_s, "B/s");
	if (memcpy_break_even(cost, (double)size, pageable_s, pinned_s, &be) != 0)
		return; /* not reached: every figure was checked positive */
	hmb_observe_bool(r, "pinned_faster", be.pays);
	if (!be.pays) {
		snprintf(why, sizeof(why), "none: the pinned copy (%.3g s) was not faster than the "
			 "pageable one (%.3g s), so pinning never pays for itself at this size",
			 pinned_s, pageable_s);
		hmb_observe_str(r, "break_even", why);
		return;
	}
	hmb_observe_str(r, "break_even", "pinned copies are faster: pinning pays after "
			"break_even_bytes copied");
	hmb_metric(r, "break_even_bytes", be.bytes, "bytes");
	hmb_metric(r, "copies_to_break_even", be.copies, "copies");
}

static void break_even_case(struct hmb_ctx *ctx, enum method m, enum dir d, size_t size)
{
	struct hmb_record *r = hmb_case_record(ctx, "pin/break-even/%s/%s", dir_name[d],
					call_name[m][PIN]);
	struct hmb_record *p[3];
	double pin_s, unpin_s, pageable_s, pinned_s;
	char text[320];

	if (!fits(ctx, r->name, size)) {
		hmb_record_free(r);
		return;
	}
	for (int k = 0; k < 3; k++)
		p[k] = hmb_record_new(ctx->module, r->name);
	hmb_param_num(r, "size", (double)size);
	hmb_param_str(r, "direction", dir_name[d]);
	hmb_param_str(r, "pin_method", call_name[m][PIN]);
	snprintf(text, sizeof(text), "median of %s + median of %s, one call per sample each, host "
		 "clock: the pin cost includes giving the memory back", call_name[m][PIN],
		 call_name[m][UNPIN]);
	hmb_param_str(r, "pin_cost", text);
	snprintf(text, sizeof(text), "hipMemcpyAsync %s + hipStreamSynchronize of a malloc'd, "
		 "touched buffer, host clock (median)", dir_name[d]);
	hmb_param_str(r, "pageable_copy", text);
	hmb_param_str(r, "formula", "break_even_bytes = pin_cost_s / (1/pageable_Bps - "
		      "1/pinned_Bps); copies_to_break_even = break_even_bytes / size; "
		      "X_Bps = size / X_copy_s");
	hmb_context_str(r, "verification", "each buffer the pin parts pin round-trips a pattern "
			"through the device; the pageable and the pinned copies' data is checked "
			"after timing");
	hmb_record_bytes(r, (double)size);

	pin_s = part(r, p[0], measure_call(ctx, p[0], m, PIN, size), call_name[m][PIN]);
	unpin_s = pin_s > 0 ? part(r, p[1], measure_call(ctx, p[1], m, UNPIN, size),
				   call_name[m][UNPIN]) : -1;
	pageable_s = unpin_s > 0 ? part(r, p[2], measure_copy(ctx, p[2], m, d, 0, size),
					"the pageable copy") : -1;
	if (pageable_s > 0 && measure_copy(ctx, r, m, d, 1, size) == 0 &&
	    (pinned_s = hmb_median(r)) > 0)
		derive(r, size, pin_s, unpin_s, pageable_s, pinned_s);
	for (int k = 0; k < 3; k++)
		hmb_record_free(p[k]);
	hmb_commit(ctx, r);
}

static int any_selected(struct hmb_ctx *ctx)
{
	char name[64];

	for (int m = 0; m < 2; m++)
		for (int k = 0; k < 2; k++) {
			snprintf(name, sizeof(name), "pin/cost/%s", call_name[m][k]);
			if (hmb_selected(ctx, name))
				return 1;
			snprintf(name, sizeof(name), "pin/break-even/%s/%s", dir_name[k],
				 call_name[m][PIN]);
			if (hmb_selected(ctx, name))
				return 1;
		}
	return 0;
}

void memcpy_pinning(struct hmb_ctx *ctx)
{
	struct hmb_sizes sizes;

	if (!any_selected(ctx))
		return;
	hmb_sizes_or(ctx, &sizes, "4K,64K,1M,16M,256M,1G", "4K,1M,16M");
	for (int m = 0; m < 2; m++)
		for (int k = 0; k < 2; k++)
			call_case(ctx, (enum method)m, (enum call)k, &sizes);
	for (int d = 0; d < 2; d++)
		for (int m = 0; m < 2; m++) {
			char name[64];

			snprintf(name, sizeof(name), "pin/break-even/%s/%s", dir_name[d],
				 call_name[m][PIN]);
			if (!hmb_selected(ctx, name) ||
			    register_unsupported(ctx, (enum method)m, name))
				continue;
			for (size_t i = 0; i < sizes.n && !hmb_interrupted(); i++)
				break_even_case(ctx, (enum method)m, (enum dir)d, sizes.v[i]);
		}
}
