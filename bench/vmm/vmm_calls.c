/*
 * vmm_calls.c - the cost of single VMM calls, for the vmm module (vmm.c).
 *
 * call/NAME: one chunk goes through hipMemCreate, hipMemAddressReserve,
 * hipMemMap, hipMemSetAccess, hipMemUnmap, hipMemRelease, hipMemAddressFree;
 * a sample is one of these calls (host clock; the calls return when done,
 * so no synchronisation is added), the calls before it run untimed before
 * each sample. The chunk is filled and checked after the timed call, or
 * before it where the call tears the chunk down.
 *
 * free-while-busy/NAME: how long the host is blocked freeing a buffer while a
 * ~50 ms spin kernel runs on another stream: hipFree (which waits for the
 * device) vs hipMemUnmap + hipMemRelease + hipMemAddressFree. Before each
 * sample (untimed) the buffer is allocated and checked and the kernel
 * launched; the sample is the freeing calls. The spin kernel is calibrated
 * and timed through the engine (kernel_s).
 */
#include <stdio.h>
#include <string.h>

#include "bench/vmm/vmm.h"
#include "engine/verify.h"
#include "kernels/kernels.h"

#if HMB_HAVE_VMM

#define BUSY_S 0.05                 /* the spin kernel of free-while-busy */
#define SPIN_BLOCKS 1               /* hmb_launch_spin's geometry (kernels/control.hip) */
#define SPIN_THREADS 32

/* Fill a device range with the pattern and check it: the memory is usable. */
static int check_usable(void *p, size_t size, const char *what)
{
	unsigned long long bad = 0;

	HMB_TRY(hmb_launch_fill(p, 0, size / 4, VMM_SEED, 0));
	HMB_TRY(hmb_check_device(p, 0, size, VMM_SEED, 0, &bad));
	return hmb_verify_result(bad, "words of %s do not hold what was written", what);
}

/* ---- one chunk through the VMM calls, in order ---- */

enum call { C_CREATE, C_RESERVE, C_MAP, C_ACCESS, C_UNMAP, C_RELEASE, C_FREE, NCALLS };
static const char *const call_name[] = { "hipMemCreate", "hipMemAddressReserve", "hipMemMap",
					 "hipMemSetAccess", "hipMemUnmap", "hipMemRelease",
					 "hipMemAddressFree" };
static const char *const call_what[] = {
	"hipMemCreate of one chunk (pinned device memory)",
	"hipMemAddressReserve of a range the size of the chunk",
	"hipMemMap of the chunk into the reserved range",
	"hipMemSetAccess (device read-write) on the mapped range",
	"hipMemUnmap of the mapped range",
	"hipMemRelease of the (unmapped) chunk",
	"hipMemAddressFree of the (unmapped) range",
};

struct one_chunk {
	const struct vmm *m;
	size_t size;
	hipMemGenericAllocationHandle_t h;
	void *p;
	int have_h, have_p, mapped;
};

static int chunk_call(struct one_chunk *c, enum call k)
{
	switch (k) {
	case C_CREATE:
		HMB_TRY(hipMemCreate(&c->h, c->size, &c->m->prop, 0));
		c->have_h = 1;
		break;
	case C_RESERVE:
		HMB_TRY(hipMemAddressReserve(&c->p, c->size, 0, NULL, 0));
		c->have_p = 1;
		break;
	case C_MAP:
		HMB_TRY(hipMemMap(c->p, c->size, 0, c->h, 0));
		c->mapped = 1;
		break;
	case C_ACCESS:
		HMB_TRY(hipMemSetAccess(c->p, c->size, &c->m->access, 1));
		break;
	case C_UNMAP:
		HMB_TRY(hipMemUnmap(c->p, c->size));
		c->mapped = 0;
		break;
	case C_RELEASE:
		HMB_TRY(hipMemRelease(c->h));
		c->have_h = 0;
		break;
	case C_FREE:
		HMB_TRY(hipMemAddressFree(c->p, c->size));
		c->have_p = 0;
		break;
	case NCALLS:
		break;
	}
	return 0;
}

/* Give back whatever the chunk still holds (checked: the next sample needs it). */
static int chunk_unwind(struct one_chunk *c)
{
	if (c->mapped)
		HMB_TRY(hipMemUnmap(c->p, c->size));
	c->mapped = 0;
	if (c->have_h)
		HMB_TRY(hipMemRelease(c->h));
	c->have_h = 0;
	if (c->have_p)
		HMB_TRY(hipMemAddressFree(c->p, c->size));
	c->have_p = 0;
	return 0;
}

/* Calls [from, to) of the sequence; a chunk that becomes usable is checked. */
static int chunk_calls(struct one_chunk *c, int from, int to)
{
	for (int k = from; k < to; k++) {
		if (chunk_call(c, (enum call)k))
			return -1;
		if (k == C_ACCESS && check_usable(c->p, c->size, "the mapped chunk"))
			return -1;
	}
	return 0;
}

/* ---- call/NAME: one VMM call per sample ---- */

struct call_case {
	struct one_chunk c;
	enum call k;
};

static int call_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct call_case *cc = st;
	(void)ctx;
	(void)sample;
	if (chunk_unwind(&cc->c))
		return -1;
	return chunk_calls(&cc->c, C_CREATE, (int)cc->k);
}

static int call_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct call_case *cc = st;
	(void)ctx;
	(void)stream;
	(void)i;
	return chunk_call(&cc->c, cc->k);
}

/* Up to hipMemSetAccess, the chunk the timed call worked on is completed and
 * checked; the later calls tear down a chunk prepare() already checked. */
static int call_verify(struct hmb_ctx *ctx, void *st)
{
	struct call_case *cc = st;
	(void)ctx;
	if (cc->k > C_ACCESS)
		return 0;
	for (int k = (int)cc->k + 1; k <= C_ACCESS; k++)
		if (chunk_call(&cc->c, (enum call)k))
			return -1;
	return check_usable(cc->c.p, cc->c.size, "the mapped chunk");
}

static void call_teardown(struct hmb_ctx *ctx, void *st)
{
	struct call_case *cc = st;
	(void)ctx;
	(void)hipDeviceSynchronize();
	(void)chunk_unwind(&cc->c);
	(void)hipGetLastError();
}

void vmm_call_costs(struct hmb_ctx *ctx, const struct vmm *m, size_t size)
{
	size_t free_mem = hmb_device_free_mem();

	for (int k = 0; k < NCALLS && !hmb_interrupted(); k++) {
		struct call_case cc;
		struct hmb_record *r;
		struct hmb_case c = {
			.what = call_what[k],
			.timing = { .clock = HMB_CLOCK_HOST, .sync = HMB_SYNC_NONE,
				    .reps = 10, .warmup = 1 },
			.ops = { NULL, call_prepare, call_op, call_verify, call_teardown },
			.state = &cc,
		};
		char name[64];

		snprintf(name, sizeof(name), "call/%s", call_name[k]);
		if (!hmb_selected(ctx, name))
			continue;
		if (size + VMM_HEADROOM > free_mem) {
			hmb_skip(ctx, name, size, "a %s chunk and 1 GiB to spare do not fit in the "
				 "%.1f GiB of free device memory", hmb_sz(size),
				 (double)free_mem / (1 << 30));
			continue;
		}
		memset(&cc, 0, sizeof(cc));
		cc.c.m = m;
		cc.c.size = size;
		cc.k = (enum call)k;
		r = hmb_case_record(ctx, "%s", name);
		hmb_param_num(r, "size", (double)size);
		hmb_context_str(r, "untimed_before_each_sample",
				k == C_CREATE ? "the previous sample's chunk given back"
					      : "the previous sample's chunk given back, then the "
						"calls before this one");
		hmb_context_str(r, "verification", k <= C_ACCESS ?
				"after the timed calls: the calls up to hipMemSetAccess completed, "
				"the chunk filled and checked" :
				"before each timed call: the chunk it tears down was filled and "
				"checked");
		hmb_measure(ctx, r, &c);
		hmb_commit(ctx, r);
	}
}

/* ---- free-while-busy ---- */

struct spin_case {
	long long iters;
	unsigned long long *sink;
};

static int spin_setup(struct hmb_ctx *ctx, void *st)
{
	struct spin_case *s = st;
	s->sink = hmb_alloc(ctx, HMB_KIND_DEVICE, sizeof(*s->sink));
	return s->sink ? 0 : -1;
}

static int spin_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct spin_case *s = st;
	(void)ctx;
	(void)i;
	HMB_TRY(hmb_launch_spin(s->iters, s->sink, stream));
	return 0;
}

/* The time of one spin kernel of `iters` steps between events, after
 * `warmup` launches (measured, not recorded), or -1 with the reason in why. */
static double time_spin(struct hmb_ctx *ctx, long long iters, int warmup, char *why, size_t len)
{
	struct hmb_record *r = hmb_record_new(ctx->module, "spin-kernel-calibration");
	struct spin_case s = { iters, NULL };
	char what[128];
	struct hmb_case c = {
		.what = what,
		.timing = { .clock = HMB_CLOCK_EVENTS, .sync = HMB_SYNC_PER_SAMPLE, .reps = 1,
			    .warmup = warmup, .fixed = 1 },
		.ops = { spin_setup, NULL, spin_op, NULL, NULL },
		.state = &s,
	};
	double t = -1;

	snprintf(what, sizeof(what), "spin kernel (%d block x %d threads, %lld dependent steps)",
		 SPIN_BLOCKS, SPIN_THREADS, iters);
	if (hmb_measure(ctx, r, &c) == 0)
		t = hmb_median(r);
	if (t <= 0)
		snprintf(why, len, "timing the spin kernel failed: %s",
			 r->reason ? r->reason : "no time was measured");
	hmb_record_free(r);
	return t;
}

enum free_mode { FREE_HIP, FREE_VMM };

struct free_case {
	struct one_chunk c;            /* FREE_VMM */
	void *dev;                  /* FREE_HIP */
	enum free_mode mode;
	long long iters;
	hipStream_t busy;
	unsigned long long *sink;
};

static int free_setup(struct hmb_ctx *ctx, void *st)
{
	struct free_case *f = st;
	if (!(f->busy = hmb_stream_new(ctx)) ||
	    !(f->sink = hmb_alloc(ctx, HMB_KIND_DEVICE, sizeof(*f->sink))))
		return -1;
	return 0;
}

/* Untimed: the previous kernel has ended; a usable buffer; the spin kernel
 * started on the busy stream. */
static int free_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct free_case *f = st;

	(void)ctx;
	(void)sample;
	HMB_TRY(hipStreamSynchronize(f->busy));
	if (f->mode == FREE_HIP) {
		HMB_TRY(hipMalloc(&f->dev, f->c.size));
		if (check_usable(f->dev, f->c.size, "the buffer"))
			return -1;
	} else if (chunk_unwind(&f->c) || chunk_calls(&f->c, C_CREATE, C_ACCESS + 1)) {
		return -1;
	}
	HMB_TRY(hipDeviceSynchronize());
	HMB_TRY(hmb_launch_spin(f->iters, f->sink, f->busy));
	return 0;
}

static int free_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct free_case *f = st;

	(void)ctx;
	(void)stream;
	(void)i;
	if (f->mode == FREE_HIP) {
		HMB_TRY(hipFree(f->dev));
		f->dev = NULL;
		return 0;
	}
	return chunk_calls(&f->c, C_UNMAP, NCALLS);
}

/* The buffers were checked before they were freed; the spin kernel ran. */
static int free_verify(struct hmb_ctx *ctx, void *st)
{
	struct free_case *f = st;
	(void)ctx;
	HMB_TRY(hipStreamSynchronize(f->busy));
	return 0;
}

static void free_teardown(struct hmb_ctx *ctx, void *st)
{
	struct free_case *f = st;

	(void)ctx;
	(void)hipDeviceSynchronize();
	if (f->dev)
		(void)hipFree(f->dev);
	f->dev = NULL;
	(void)chunk_unwind(&f->c);
	(void)hipGetLastError();
}

void vmm_free_while_busy(struct hmb_ctx *ctx, const struct vmm *m, size_t size)
{
	static const char *const mode_name[] = { "hipFree", "vmm-unmap-release" };
	static const char *const mode_what[] = {
		"hipFree of the buffer while the spin kernel runs on another stream",
		"hipMemUnmap + hipMemRelease + hipMemAddressFree of the chunk while the spin "
		"kernel runs on another stream",
	};
	long long iters = 1 << 20;
	double t, kernel_s = -1;
	char why[1100] = "", busy[160];

	if (!hmb_selected(ctx, "free-while-busy/hipFree") &&
	    !hmb_selected(ctx, "free-while-busy/vmm-unmap-release"))
		return;
	/* Calibrate the spin kernel to about BUSY_S (scaled by at most 1000, so
	 * that a wrong first reading cannot make it run for minutes), then time
	 * it at that length. */
	t = time_spin(ctx, iters, 1, why, sizeof(why));
	if (t > 0) {
		double scale = BUSY_S / (t > BUSY_S / 1000 ? t : BUSY_S / 1000);
		iters = (long long)((double)iters * scale) + 1;
		kernel_s = time_spin(ctx, iters, 0, why, sizeof(why));
	}
	snprintf(busy, sizeof(busy), "spin kernel (%d block x %d threads, %lld dependent steps) "
		 "launched on another stream just before the timed calls", SPIN_BLOCKS,
		 SPIN_THREADS, iters);

	for (int mode = 0; mode < 2 && !hmb_interrupted(); mode++) {
		struct free_case f;
		struct hmb_record *r = hmb_case_record(ctx, "free-while-busy/%s", mode_name[mode]);
		struct hmb_case c = {
			.what = mode_what[mode],
			.timing = { .clock = HMB_CLOCK_HOST, .sync = HMB_SYNC_NONE, .reps = 3,
				    .warmup = 1 },
			.ops = { free_setup, free_prepare, free_op, free_verify, free_teardown },
			.state = &f,
		};

		if (!hmb_keep_selected(ctx, r))
			continue;
		memset(&f, 0, sizeof(f));
		f.c.m = m;
		f.c.size = size;
		f.mode = (enum free_mode)mode;
		f.iters = iters;
		hmb_param_num(r, "size", (double)size);
		hmb_context_str(r, "busy_kernel", busy);
		hmb_context_str(r, "untimed_before_each_sample",
				mode == FREE_HIP ? "hipMalloc, the buffer filled and checked, "
						   "hipDeviceSynchronize, the spin kernel launched"
						 : "hipMemCreate, hipMemAddressReserve, hipMemMap, "
						   "hipMemSetAccess, the chunk filled and checked, "
						   "hipDeviceSynchronize, the spin kernel launched");
		if (kernel_s <= 0) {
			hmb_record_status(r, HMB_FAILED, "%s", why);
		} else if (hmb_measure(ctx, r, &c) == 0) {
			hmb_metric(r, "kernel_s", kernel_s, "s");
			hmb_observe_bool(r, "waited_for_kernel", hmb_median(r) > 0.5 * kernel_s);
		}
		hmb_commit(ctx, r);
	}
}

#endif
