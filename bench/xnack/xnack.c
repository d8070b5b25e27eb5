/*
 * xnack - what does a GPU page fault cost, one at a time and many at once?
 *
 * Pages of a buffer start on the host; a kernel touches one word per page
 * (adds 1 to word 0), and the first touch of each page faults and migrates
 * it (XNACK on AMD, demand paging on NVIDIA). With XNACK off on AMD nothing
 * faults: managed pages stay in host memory and the GPU reads them over the
 * link, so the same figures measure link reads, not faults. Every record
 * says which (params.access_mode, from the memory model, src/system/memmodel.h;
 * first-touch managed records add figure_meaning). Two figures, two names:
 *
 *  - fault-latency: one thread walks a chain of pages; the address of the
 *    next touch is computed from the value the previous touch loaded, so
 *    each touch waits for its own fault to be serviced. At most 512 touches
 *    per sample (params.touches).
 *      us_per_fault = (median of the case - median of its "/resident" case)
 *                     / touches x 1e6
 *  - fault-throughput: one thread per touch, every touch in flight at once
 *    (params: threads_launched, and resident_thread_capacity = multi-
 *    processors x max resident threads per multiprocessor where readable).
 *      faults_per_s = touches / (median of the case - median of "/resident")
 *
 * The "/resident" case of each is the same kernel with the same order array
 * over the same pages, made resident on the device by one untimed run in its
 * setup; with XNACK off on AMD a kernel run migrates nothing, so there
 * hipMemPrefetchAsync to the device moves the pages first, and the figures
 * are named for what they then measure: us_per_page_over_link and
 * pages_per_s_over_link (memmodel.h, hmb_per_page_metric); where that
 * prefetch is refused there is no per-page figure, and the record says why.
 * Before each sample of a first-touch case, outside the timed region,
 * every page goes back to the host: hipMemPrefetchAsync to the host where
 * the runtime does it for this memory, then the host writes every 4 KiB
 * page (where the prefetch is refused, the host writes alone bring the
 * pages back; observed.pages_returned_by says which).
 *
 * Strides 4K, 64K and 2M between touched pages, in sequential and random
 * order, and sparse use: one 4 KiB page in each 64 KiB, at a pseudo-random
 * place in it. Random is a fixed permutation of exactly the pages that
 * sequential touches, so the two differ only in order. They can still
 * differ, for a real reason: the driver services faults per 2 MiB block of
 * virtual memory and migrates more than the faulting page (NVIDIA prefetches
 * up to the whole 2 MiB block once enough of it has faulted). Touches in
 * order walk into pages an earlier fault already brought, so sequential
 * latency at 4K and 64K falls below the cost of a real fault; random order
 * gets less from that prefetch. For throughput, random order spreads the
 * concurrent faults over many 2 MiB blocks, which the driver can service
 * side by side, where neighbouring threads in order crowd into one block:
 * random can be the faster there. At 2M every touch is a block of its own:
 * the cost of a fault with nothing prefetched for it.
 *
 * Memory: managed (hipMallocManaged) always; system-allocated (malloc)
 * where the memory model says kernels can use it (pageableMemoryAccess: HMM
 * or ATS on NVIDIA, XNACK on for an AMD GPU); where they cannot, an
 * "unsupported" record gives the model's reason. The "xnack/state" record
 * holds the XNACK mode the model found and its evidence, the managed access
 * mode, the gcnArchName xnack flag, HSA_XNACK, the pageable-access
 * attributes, the transparent huge page setting and the host's page size.
 * Zero-copy is the contrast: a kernel reads pinned host memory through
 * hipHostGetDevicePointer, at the link's speed, with no migration (GB/s).
 *
 * On AMD it needs two runs (`all` makes both by itself where the GPU selects
 * XNACK per process: src/system/modeplan.h; each record then carries params.hsa_xnack
 * and is checked against the ROCm guide, src/doc/rocmguide.h), or by hand:
 * `HSA_XNACK=0 hipmembench xnack` (XNACK off: managed
 * memory is NOT migrated on access; it stays host-resident and the GPU
 * reads it over the link, so us_per_page_over_link is the extra cost of
 * reading a page over the link rather than from device memory, not a fault
 * cost; system memory unsupported) and
 * `HSA_XNACK=1 hipmembench xnack` (GPU page faults retried: both managed
 * and malloc memory fault and migrate on demand).
 * After the samples, word 0 of every page is checked (touched pages: what
 * the host wrote + the touches, the others untouched), and every zero-copy
 * word.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/xnack/xnack.h"
#include "engine/measure.h"
#include "engine/report.h"
#include "engine/verify.h"
#include "kernels/kernels.h"
#include "kernels/pattern.h"

#define PAGE 4096u            /* what the host writes and verify reads: word 0 of each */
#define WORDS_PER_PAGE (PAGE / 4)
#define MAX_CHAIN 512         /* touches of one latency sample, at most */
#define SPARSE_EVERY 16
#define SYSTEM_ALIGN (2u << 20)
#define SEED 0x584e0000u
#define POISON 0xA5

/* Every timed case: one kernel between HIP events, queued behind the latch. */
static const struct hmb_timing timing = {
	.clock = HMB_CLOCK_EVENTS,
	.sync = HMB_SYNC_PER_SAMPLE,
	.latch = 1,
	.reps = 3,
	.warmup = 1,
};

enum figure { LATENCY, THROUGHPUT };
static const char *const figure_name[] = { "fault-latency", "fault-throughput" };

/* Which pages a case touches: page j (j < touches) at j * stride, or, for
 * sparse use, at (j * every + a pseudo-random offset below every) * stride. */
struct pattern {
	size_t stride;
	size_t every;        /* 1, or SPARSE_EVERY */
	const char *order;   /* sequential, random (a permutation of the same pages), sparse */
};

static const struct pattern patterns[] = {
	{ 4096, 1, "sequential" },     { 4096, 1, "random" },
	{ 65536, 1, "sequential" },    { 65536, 1, "random" },
	{ 2u << 20, 1, "sequential" }, { 2u << 20, 1, "random" },
	{ 4096, SPARSE_EVERY, "sparse" },
};
#define NPATTERNS (sizeof(patterns) / sizeof(patterns[0]))

/* The buffers of one kind of memory, shared by its cases. */
struct faults {
	const char *mem;              /* "managed" or "system" */
	void *owned;                  /* what hmb_alloc returned */
	uint8_t *buf;                 /* the faulting buffer */
	size_t size, pages;           /* bytes; 4 KiB pages */
	uint64_t *order_host, *order_dev; /* the order of the current pair of cases */
	uint8_t *touched;             /* per 4 KiB page: does the current order touch it */
	long capacity;                /* resident threads of the device; 0 unknown */
	int prefetch;                 /* pages go home by prefetch: -1 untried, 0 no, 1 yes */
	char returned_by[192];
	char not_resident[192];       /* XNACK off: why the pages could not be made resident */
};

/* One case: a pattern and a figure, pages on the host or already on the device. */
struct fault_case {
	struct faults *f;
	const struct pattern *p;
	enum figure fig;
	int resident;
	size_t touches;
	uint32_t seed;                /* word 0 of page i holds hmb_pattern(i, seed) ... */
	uint32_t added;               /* ... + added where the order touches it */
};

/* Every case name: a first-touch case and its resident twin per pattern. */
#define FAULT_PATTERN(mem, fig, what) mem "/" fig "/" what, mem "/" fig "/" what "/resident"
#define FAULT_FIGURE(mem, fig)                                                            \
	FAULT_PATTERN(mem, fig, "stride=4K/sequential"),                                  \
	FAULT_PATTERN(mem, fig, "stride=4K/random"),                                      \
	FAULT_PATTERN(mem, fig, "stride=64K/sequential"),                                 \
	FAULT_PATTERN(mem, fig, "stride=64K/random"),                                     \
	FAULT_PATTERN(mem, fig, "stride=2M/sequential"),                                  \
	FAULT_PATTERN(mem, fig, "stride=2M/random"),                                      \
	FAULT_PATTERN(mem, fig, "stride=4K/sparse")

static const char *const cases[] = {
	"xnack/state",
	"managed/fault", /* skipped or failed before any managed case could run */
	FAULT_FIGURE("managed", "fault-latency"),
	FAULT_FIGURE("managed", "fault-throughput"),
	"system/fault",  /* unsupported, skipped or failed likewise */
	FAULT_FIGURE("system", "fault-latency"),
	FAULT_FIGURE("system", "fault-throughput"),
	"zero-copy/read",
	NULL,
};

static size_t sparse_offset(size_t j)
{
	return hmb_pattern(j, SEED) % SPARSE_EVERY;
}

/* Pages (sparse: groups of pages) of the pattern that fit in the buffer. */
static size_t pattern_pages(const struct faults *f, const struct pattern *p)
{
	return f->size / p->stride / p->every;
}

static size_t case_touches(const struct faults *f, const struct pattern *p, enum figure fig)
{
	size_t n = pattern_pages(f, p);
	return fig == LATENCY && n > MAX_CHAIN ? MAX_CHAIN : n;
}

/* The order of a pair of cases: page j of the pattern for j < touches, in
 * that order or shuffled (Fisher-Yates, fixed seed): the same pages either way. */
static void make_order(struct faults *f, const struct pattern *p, size_t touches)
{
	unsigned long long rng = 88172645463325252ull;

	memset(f->touched, 0, f->pages);
	for (size_t j = 0; j < touches; j++) {
		uint64_t page = p->every > 1 ? j * p->every + sparse_offset(j) : j;
		f->order_host[j] = page;
		f->touched[page * p->stride / PAGE] = 1;
	}
	if (strcmp(p->order, "random") != 0)
		return;
	for (size_t i = touches - 1; i > 0; i--) {
		size_t k;
		uint64_t t;
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		k = (size_t)(rng % (i + 1));
		t = f->order_host[i], f->order_host[i] = f->order_host[k], f->order_host[k] = t;
	}
}

/* Every page of the buffer back on the host, in bulk where the runtime can
 * prefetch this memory to the host; where it refuses, the host's own
 * accesses that follow bring the pages back, one CPU fault at a time. */
static int pages_home(struct hmb_ctx *ctx, struct faults *f)
{
	hipError_t e;

	if (f->prefetch == 0)
		return 0;
	e = hipMemPrefetchAsync(f->buf, f->size, hipCpuDeviceId, ctx->stream);
	if (e != hipSuccess && f->prefetch < 0) {
		(void)hipGetLastError();
		f->prefetch = 0;
		snprintf(f->returned_by, sizeof(f->returned_by), "host writes alone (CPU page "
			 "faults): hipMemPrefetchAsync to the host refused: %s",
			 hipGetErrorString(e));
		return 0;
	}
	if (e != hipSuccess) {
		hmb_hip_error("hipMemPrefetchAsync(buf, size, hipCpuDeviceId, stream)", e,
			      __FILE__, __LINE__);
		return -1;
	}
	HMB_TRY(hipStreamSynchronize(ctx->stream));
	f->prefetch = 1;
	return 0;
}

static void host_write(struct faults *f, uint32_t seed)
{
	uint32_t *w = (uint32_t *)f->buf;
	for (size_t i = 0; i < f->pages; i++)
		w[i * WORDS_PER_PAGE] = hmb_pattern(i, seed);
}

static size_t host_check(const struct faults *f, uint32_t seed, uint32_t added)
{
	const uint32_t *w = (const uint32_t *)f->buf;
	size_t bad = 0;
	for (size_t i = 0; i < f->pages; i++)
		bad += w[i * WORDS_PER_PAGE] != hmb_pattern(i, seed) + (f->touched[i] ? added : 0);
	return bad;
}

static int fault_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct fault_case *c = st;
	struct faults *f = c->f;

	(void)ctx, (void)i;
	if (c->fig == LATENCY)
		HMB_TRY(hmb_launch_chain(f->buf, c->p->stride, f->order_dev, c->touches, stream));
	else
		HMB_TRY(hmb_launch_touch(f->buf, c->p->stride, f->order_dev, c->touches, stream));
	c->added++;
	return 0;
}

/* XNACK off: the pages onto the device by hipMemPrefetchAsync, the only
 * thing that moves them there. A refusal is kept for the record, not an
 * error: the pair then has no per-page figure. */
static int resident_by_prefetch(struct hmb_ctx *ctx, struct faults *f)
{
	hipError_t e = hipMemPrefetchAsync(f->buf, f->size, ctx->dev->ordinal, ctx->stream);

	f->not_resident[0] = '\0';
	if (e != hipSuccess) {
		(void)hipGetLastError();
		snprintf(f->not_resident, sizeof(f->not_resident), "hipMemPrefetchAsync to the "
			 "device refused: %s", hipGetErrorString(e));
		return 0;
	}
	HMB_TRY(hipStreamSynchronize(ctx->stream));
	return 0;
}

/* The order on the device; for a resident case, the pages on the device:
 * written by the host, (XNACK off: prefetched to the device,) then touched
 * once by the same kernel. */
static int fault_setup(struct hmb_ctx *ctx, void *st)
{
	struct fault_case *c = st;
	struct faults *f = c->f;

	HMB_TRY(hipMemcpy(f->order_dev, f->order_host, c->touches * sizeof(*f->order_host),
			  hipMemcpyHostToDevice));
	if (!c->resident)
		return 0;
	if (pages_home(ctx, f))
		return -1;
	c->seed = SEED;
	c->added = 0;
	host_write(f, c->seed);
	if (hmb_resident_by_prefetch(ctx->dev->model.managed_access) &&
	    resident_by_prefetch(ctx, f))
		return -1;
	if (fault_op(ctx, c, ctx->stream, -1))
		return -1;
	HMB_TRY(hipStreamSynchronize(ctx->stream));
	return 0;
}

/* Before each first-touch sample, untimed: every page back on the host. */
static int fault_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct fault_case *c = st;

	if (pages_home(ctx, c->f))
		return -1;
	c->seed = SEED + 1 + (uint32_t)sample;
	c->added = 0;
	host_write(c->f, c->seed);
	return 0;
}

static int fault_verify(struct hmb_ctx *ctx, void *st)
{
	struct fault_case *c = st;
	size_t bad;

	if (pages_home(ctx, c->f))
		return -1;
	bad = host_check(c->f, c->seed, c->added);
	if (bad) {
		hmb_set_error("verification failed: word 0 of %zu of %zu pages is wrong after the "
			      "timed touches (touched pages: the host's value + %u, others "
			      "unchanged)", bad, c->f->pages, c->added);
		return -1;
	}
	return 0;
}

/* How the GPU reaches managed memory here (memmodel.h), for every record. */
static const char *access_mode(const struct hmb_ctx *ctx)
{
	return hmb_access_name(ctx->dev->model.managed_access);
}

static void fault_params(struct hmb_ctx *ctx, struct hmb_record *r, const struct fault_case *c,
			 const char *baseline)
{
	const struct faults *f = c->f;
	unsigned blocks, threads;
	size_t per_thread;

	hmb_touch_geometry(c->touches, c->fig == LATENCY, &blocks, &threads, &per_thread);
	hmb_param_num(r, "size", (double)f->size);
	hmb_param_str(r, "memory", strcmp(f->mem, "system") == 0 ? "malloc (system allocated)"
								 : "hipMallocManaged");
	hmb_param_str(r, "access_mode", access_mode(ctx));
	if (!c->resident && strcmp(f->mem, "managed") == 0)
		hmb_context_str(r, "figure_meaning",
				hmb_managed_figure_meaning(ctx->dev->model.managed_access,
							   HMB_FIG_PER_TOUCH));
	hmb_context_str(r, "figure", c->fig == LATENCY
			     ? "latency: one touch at a time, each waiting for the one before"
			     : "throughput: every touch in flight at once");
	hmb_param_num(r, "stride", (double)c->p->stride);
	hmb_param_str(r, "order", c->p->order);
	hmb_param_num(r, "touch_one_page_in", (double)c->p->every);
	hmb_param_num(r, "touches", (double)c->touches);
	hmb_context_str(r, "pages_at_start", !c->resident
			     ? "host: before each sample, untimed, hipMemPrefetchAsync to the host "
			       "(where supported) and a host write to every 4 KiB page"
			     : hmb_resident_by_prefetch(ctx->dev->model.managed_access)
			     ? "device: hipMemPrefetchAsync to the device (XNACK off: a kernel run "
			       "migrates nothing; that the prefetch does is assumed from KFD's "
			       "source, not verified), then touched once by the same kernel in "
			       "setup, untimed"
			     : "device: touched once by the same kernel in setup, untimed");
	hmb_context_num(r, "grid_blocks", blocks);
	hmb_context_num(r, "block_threads", threads);
	hmb_context_num(r, "elements_per_thread", (double)per_thread);
	if (c->fig == LATENCY) {
		hmb_param_num(r, "touches_in_flight", 1);
	} else if (f->capacity > 0) {
		size_t cap = (size_t)f->capacity;
		hmb_context_num(r, "threads_launched", (double)blocks * threads);
		hmb_context_num(r, "resident_thread_capacity", (double)cap);
		hmb_param_num(r, "touches_in_flight", (double)(c->touches < cap ? c->touches : cap));
	} else {
		/* capacity unread (hipDeviceAttributeMaxThreadsPerMultiProcessor) */
		hmb_context_num(r, "threads_launched", (double)blocks * threads);
	}
	if (baseline) {
		char metric[128];
		const char *name = hmb_per_page_metric(ctx->dev->model.managed_access,
						       c->fig == LATENCY);
		snprintf(metric, sizeof(metric), c->fig == LATENCY
			 ? "%s = (median - median of baseline_case) / touches x 1e6"
			 : "%s = touches / (median - median of baseline_case)", name);
		hmb_context_str(r, "baseline_case", baseline);
		hmb_context_str(r, "metric", metric);
	}
	hmb_record_ops(r, (double)c->touches);
}

static void fault_measure(struct hmb_ctx *ctx, struct hmb_record *r, struct fault_case *c,
			  const char *baseline)
{
	char what[192];
	struct hmb_case m = {
		.what = what,
		.timing = timing,
		.ops = { fault_setup, c->resident ? NULL : fault_prepare, fault_op, fault_verify,
			 NULL },
		.state = c,
	};
	const char *where = c->resident ? "pages already on the device" : "pages on the host";

	if (c->fig == LATENCY)
		snprintf(what, sizeof(what), "chain kernel, 1 thread: %zu touches one after the "
			 "other (+1 to word 0 of each page), %s", c->touches, where);
	else
		snprintf(what, sizeof(what), "touch kernel, one thread per touch: %zu touches at "
			 "once (+1 to word 0 of each page), %s", c->touches, where);
	fault_params(ctx, r, c, baseline);
	if (hmb_measure(ctx, r, &m) == 0)
		hmb_observe_str(r, "pages_returned_by", c->f->prefetch == 0 ? c->f->returned_by
				: "hipMemPrefetchAsync to the host, then host writes");
}

/* The figure from the medians of a first-touch case and its resident case,
 * named for the access mode (memmodel.h). */
static void derive(const struct hmb_ctx *ctx, const struct faults *f, struct hmb_record *first,
		   const struct hmb_record *resident, enum figure fig, size_t touches)
{
	const enum hmb_access a = ctx->dev->model.managed_access;
	double t = hmb_median(first), base = hmb_median(resident);
	char why[320];

	if (t < 0)
		return;
	if (base < 0) {
		hmb_observe_str(first, "metric_missing", "the resident case has no figure");
		return;
	}
	hmb_metric(first, "resident_median_s", base, "s");
	if (hmb_resident_by_prefetch(a) && f->not_resident[0]) {
		snprintf(why, sizeof(why), "XNACK off and the pages could not be made resident (%s): "
			 "both cases read host memory, no per-page figure", f->not_resident);
		hmb_observe_str(first, "metric_missing", why);
		return;
	}
	if (t <= base) {
		hmb_observe_str(first, "metric_missing", "the first touch was not slower than the "
				"resident run: no fault cost to report");
		return;
	}
	if (fig == LATENCY)
		hmb_metric(first, hmb_per_page_metric(a, 1), (t - base) / (double)touches * 1e6, "us");
	else
		hmb_metric(first, hmb_per_page_metric(a, 0), (double)touches / (t - base),
			   hmb_resident_by_prefetch(a) ? "pages/s" : "faults/s");
}

static void fault_pair(struct hmb_ctx *ctx, struct faults *f, const struct pattern *p,
		       enum figure fig)
{
	struct fault_case first = { f, p, fig, 0, case_touches(f, p, fig), 0, 0 };
	struct fault_case resident = first;
	struct hmb_record *rf, *rr;
	char name[160], base[176];

	snprintf(name, sizeof(name), "%s/%s/stride=%s/%s", f->mem, figure_name[fig],
		 hmb_sz(p->stride), p->order);
	snprintf(base, sizeof(base), "%s/resident", name);
	if (!hmb_selected(ctx, name) && !hmb_selected(ctx, base))
		return;
	resident.resident = 1;
	f->not_resident[0] = '\0';
	make_order(f, p, first.touches);
	rf = hmb_case_record(ctx, "%s", name);
	rr = hmb_case_record(ctx, "%s", base);
	fault_measure(ctx, rf, &first, base);
	if (!hmb_interrupted())
		fault_measure(ctx, rr, &resident, NULL);
	else
		hmb_record_status(rr, HMB_SKIPPED, "interrupted");
	derive(ctx, f, rf, rr, fig, first.touches);
	hmb_commit(ctx, rf);
	hmb_commit(ctx, rr);
}

static int any_selected(struct hmb_ctx *ctx, const char *mem)
{
	size_t len = strlen(mem);
	for (const char *const *c = cases; *c; c++)
		if (strncmp(*c, mem, len) == 0 && (*c)[len] == '/' && hmb_selected(ctx, *c))
			return 1;
	return 0;
}

/* A failed record for buffers that could not be allocated (the pending error). */
static void alloc_failed(struct hmb_ctx *ctx, const char *name, size_t size)
{
	struct hmb_record *r = hmb_case_record(ctx, "%s", name);
	hmb_param_num(r, "size", (double)size);
	hmb_param_str(r, "access_mode", access_mode(ctx));
	hmb_case_failed(r);
	hmb_commit(ctx, r);
}

/* Every fault case of one kind of memory, on its own buffer. */
static void memory_cases(struct hmb_ctx *ctx, struct faults *f, const char *mem)
{
	int managed = strcmp(mem, "managed") == 0;
	size_t entries = f->pages ? f->pages : 1;

	if (!any_selected(ctx, mem))
		return;
	if (!f->pages) {
		hmb_skip(ctx, managed ? "managed/fault" : "system/fault", f->size,
			 "the buffer is smaller than one 4 KiB page");
		return;
	}
	if (managed && !hmb_managed_allowed(ctx, "managed/fault", f->size))
		return;
	f->mem = mem;
	f->prefetch = -1;
	f->owned = managed ? hmb_alloc(ctx, HMB_KIND_MANAGED, f->size)
			   : hmb_alloc(ctx, HMB_KIND_SYSTEM, f->size + SYSTEM_ALIGN);
	if (!f->owned ||
	    !(f->order_dev = hmb_alloc(ctx, HMB_KIND_DEVICE, entries * sizeof(uint64_t))) ||
	    !(f->order_host = hmb_alloc(ctx, HMB_KIND_PAGEABLE, entries * sizeof(uint64_t))) ||
	    !(f->touched = hmb_alloc(ctx, HMB_KIND_PAGEABLE, entries))) {
		alloc_failed(ctx, managed ? "managed/fault" : "system/fault", f->size);
	} else {
		/* system memory 2 MiB aligned, as managed memory is */
		f->buf = managed ? f->owned
				 : (uint8_t *)(((uintptr_t)f->owned + SYSTEM_ALIGN - 1) &
					       ~(uintptr_t)(SYSTEM_ALIGN - 1));
		for (int fig = LATENCY; fig <= THROUGHPUT; fig++)
			for (size_t i = 0; i < NPATTERNS && !hmb_interrupted(); i++)
				if (pattern_pages(f, &patterns[i]) > 0)
					fault_pair(ctx, f, &patterns[i], (enum figure)fig);
	}
	hmb_free(ctx, f->touched);
	hmb_free(ctx, f->order_host);
	hmb_free(ctx, f->order_dev);
	hmb_free(ctx, f->owned);
	f->touched = NULL, f->order_host = NULL, f->order_dev = NULL, f->owned = NULL;
	f->buf = NULL;
}

static void system_unsupported(struct hmb_ctx *ctx, size_t size)
{
	struct hmb_record *r = hmb_case_record(ctx, "system/fault");
	const char *x = getenv("HSA_XNACK");

	hmb_param_num(r, "size", (double)size);
	hmb_param_str(r, "access_mode", access_mode(ctx));
	hmb_record_status(r, HMB_UNSUPPORTED,
			  "kernels cannot use pageable (malloc) memory here: %s (%s; arch %s, "
			  "HSA_XNACK=%s). On AMD this needs an xnack+ GPU and HSA_XNACK=1; "
			  "on NVIDIA, HMM (open kernel modules, Linux 6.1+) or ATS.",
			  ctx->dev->model.system_allocator_reason,
			  ctx->dev->xnack_arch == 1 ? "xnack+" :
			  ctx->dev->xnack_arch == 0 ? "xnack-" : "no xnack in arch name",
			  ctx->dev->arch, x ? x : "unset");
	hmb_commit(ctx, r);
}

static void record_state(struct hmb_ctx *ctx)
{
	const struct hmb_device *d = ctx->dev;
	const char *xnack = getenv("HSA_XNACK");
	struct hmb_record *r = hmb_case_record(ctx, "xnack/state");

	hmb_param_str(r, "access_mode", access_mode(ctx));
	if (d->model.xnack >= 0)
		hmb_observe_bool(r, "xnack", d->model.xnack);
	else
		hmb_observe_str(r, "xnack", *d->model.xnack_evidence ? "unknown"
				: "n/a (not an AMD GPU)");
	hmb_observe_str(r, "xnack_evidence", *d->model.xnack_evidence ? d->model.xnack_evidence
			: "n/a (not an AMD GPU)");
	hmb_observe_str(r, "managed_access_reason", d->model.managed_reason);
	hmb_observe_num(r, "system_allocator", d->model.system_allocator);
	hmb_observe_str(r, "system_allocator_reason", d->model.system_allocator_reason);
	hmb_observe_str(r, "arch", d->arch);
	if (d->xnack_arch >= 0)
		hmb_observe_bool(r, "arch_xnack_enabled", d->xnack_arch);
	else
		hmb_observe_str(r, "arch_xnack_enabled", "not in the arch name (not an AMD GPU "
				"or no xnack feature)");
	hmb_observe_str(r, "HSA_XNACK", xnack ? xnack : "unset");
	hmb_observe_num(r, "pageable_memory_access", d->pageable_memory_access);
	hmb_observe_num(r, "pageable_memory_access_uses_host_page_tables",
			d->pageable_uses_host_page_tables);
	hmb_observe_num(r, "concurrent_managed_access", d->concurrent_managed_access);
	hmb_observe_str(r, "transparent_hugepages", ctx->report->host.thp);
	hmb_observe_num(r, "host_page_bytes", (double)sysconf(_SC_PAGESIZE));
	hmb_commit(ctx, r);
}

/* Multiprocessors x max resident threads per multiprocessor; 0 if unread. */
static long resident_threads(const struct hmb_device *d)
{
	int per_mp = -1;

	if (d->compute_units <= 0 ||
	    hipDeviceGetAttribute(&per_mp, hipDeviceAttributeMaxThreadsPerMultiProcessor,
				  d->ordinal) != hipSuccess || per_mp <= 0) {
		(void)hipGetLastError();
		return 0;
	}
	return (long)d->compute_units * per_mp;
}

/* Zero-copy: a kernel reads pinned host memory in place. */
struct zero_copy {
	uint32_t *host, *mapped, *dst;
	size_t bytes;
	uint32_t seed;
};

static int zc_setup(struct hmb_ctx *ctx, void *st)
{
	struct zero_copy *z = st;

	(void)ctx;
	hmb_fill_host(z->host, z->bytes, z->seed);
	HMB_TRY(hipMemset(z->dst, POISON, z->bytes));
	HMB_TRY(hipDeviceSynchronize());
	return 0;
}

static int zc_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct zero_copy *z = st;

	(void)ctx, (void)i;
	HMB_TRY(hmb_launch_copy(z->dst, z->mapped, z->bytes / 4, stream));
	return 0;
}

static int zc_verify(struct hmb_ctx *ctx, void *st)
{
	struct zero_copy *z = st;
	unsigned long long bad = 0;

	(void)ctx;
	HMB_TRY(hmb_check_device(z->dst, 0, z->bytes, z->seed, 0, &bad));
	return hmb_verify_result(bad, "words read through the mapping were wrong");
}

static void zero_copy_case(struct hmb_ctx *ctx, struct zero_copy *z)
{
	struct hmb_record *r = hmb_case_record(ctx, "zero-copy/read");
	char what[128];
	struct hmb_case m = {
		.what = what,
		.timing = timing,
		.ops = { zc_setup, NULL, zc_op, zc_verify, NULL },
		.state = z,
	};

	snprintf(what, sizeof(what), "copy kernel: device memory <- %s of mapped pinned host "
		 "memory", hmb_sz(z->bytes));
	hmb_param_num(r, "size", (double)z->bytes);
	hmb_param_str(r, "memory", "hipHostMalloc(Mapped) read through hipHostGetDevicePointer");
	hmb_param_str(r, "access_mode", access_mode(ctx));
	hmb_param_geometry(r, z->bytes / 4, HMB_GRID_CAPPED);
	hmb_record_bytes(r, (double)z->bytes);
	if (ctx->dev->model.peak_gbps > 0)
		hmb_record_peak(r, ctx->dev->model.peak_gbps);
	hmb_measure(ctx, r, &m);
	hmb_commit(ctx, r);
}

static void zero_copy(struct hmb_ctx *ctx, const struct hmb_sizes *sizes)
{
	size_t max = hmb_sizes_max(sizes);
	struct zero_copy z;

	memset(&z, 0, sizeof(z));
	if (!hmb_selected(ctx, "zero-copy/read"))
		return;
	if (!(z.host = hmb_alloc(ctx, HMB_KIND_MAPPED, max)) ||
	    !(z.dst = hmb_alloc(ctx, HMB_KIND_DEVICE, max)))
		goto fail;
	HMB_CHECK(hipHostGetDevicePointer((void **)&z.mapped, z.host, 0));
	for (size_t i = 0; i < sizes->n && !hmb_interrupted(); i++) {
		z.bytes = sizes->v[i];
		z.seed = 900 + (uint32_t)i;
		zero_copy_case(ctx, &z);
	}
	hmb_free(ctx, z.dst);
	hmb_free(ctx, z.host);
	return;
fail:
	alloc_failed(ctx, "zero-copy/read", max);
	hmb_free(ctx, z.dst);
	hmb_free(ctx, z.host);
}

static int run(struct hmb_ctx *ctx)
{
	struct faults f;
	struct hmb_sizes sizes, zc;

	memset(&f, 0, sizeof(f));
	hmb_sizes_or(ctx, &sizes, "256M", "16M");
	hmb_sizes_or(ctx, &zc, "64K,1M,16M,256M", "64K,4M");
	f.size = hmb_sizes_max(&sizes);
	f.pages = f.size / PAGE;
	f.capacity = resident_threads(ctx->dev);
	record_state(ctx);
	if (!hmb_interrupted())
		memory_cases(ctx, &f, "managed");
	if (!hmb_interrupted() && ctx->dev->model.system_allocator != 1)
		system_unsupported(ctx, f.size);
	else if (!hmb_interrupted())
		memory_cases(ctx, &f, "system");
	if (!hmb_interrupted())
		zero_copy(ctx, &zc);
	return 0;
}

/* Its figures on the summary's screen (engine/headline.h). */
static const struct hmb_headline headlines[] = {
	{ "fault latency 4K", "managed/fault-latency/stride=4K/random", "", "us_per_fault", NULL,
	  "one GPU page fault, random pages", NULL },
	{ "fault latency 64K", "managed/fault-latency/stride=64K/random", "", "us_per_fault", NULL,
	  "one GPU page fault, random pages", NULL },
	{ "fault latency 2M", "managed/fault-latency/stride=2M/random", "", "us_per_fault", NULL,
	  "one GPU page fault, random pages", NULL },
	{ .name = NULL },
};

/* Its headlines' charts in the report: a chart per memory (engine/chart.h). */
static const struct hmb_chart charts[] = {
	{ .kase = "*/fault-latency/*", .figure = "us_per_fault", .x = "stride",
	  .xlabel = "page size: the stride between the pages touched (bytes, log2)",
	  .line = "order", .chart_parts = 2, .what = "time per page fault by page size",
	  .ylabel = "us per fault" },
	{ .kase = "*/fault-throughput/*", .figure = "faults_per_s", .x = "stride",
	  .xlabel = "page size: the stride between the pages touched (bytes, log2)",
	  .line = "order", .chart_parts = 2, .what = "page faults per second by page size",
	  .ylabel = "faults/s" },
	{ .kase = NULL },
};

const struct hmb_bench hmb_bench_xnack = {
	.name = "xnack",
	.headlines = headlines,
	.charts = charts,
	.charts_about = "the time of a page fault by page size",
	.oversubscribe = 1,
	.summary = "GPU page faults: latency (one at a time) and throughput (all at once), "
		   "XNACK/HMM on AMD, demand paging on NVIDIA; zero-copy as the contrast",
	.host_link = 1,
	.needs = HMB_NEEDS_MANAGED,
	.options = NULL,
	.help = "--sizes: the faulting buffer (largest size; default 256M; --quick 16M) and\n"
		"the zero-copy sizes (default 64K,1M,16M,256M; --quick 64K,4M). Strides larger\n"
		"than the buffer are left out. Cases are memory/figure/stride=S/order, each\n"
		"with a /resident twin: the same kernel, order and pages, already on the device.\n"
		"fault-latency: one thread, each touch's address depends on the previous\n"
		"load (at most 512 touches); us_per_fault = (first touch - resident) / touches.\n"
		"fault-throughput: one thread per touch, all in flight at once; faults_per_s =\n"
		"touches / (first touch - resident). Pages go back to the host before every\n"
		"sample, untimed. Random order is a permutation of the sequential pages: where\n"
		"it differs, the driver's 2 MiB migration and prefetch is why. On AMD compare\n"
		"HSA_XNACK=0 and HSA_XNACK=1 runs: `all` makes both where the GPU selects\n"
		"XNACK per process (params.hsa_xnack; observed.rocm_guide: the ROCm guide's\n"
		"expectation for the allocator and mode, and whether the record agrees).",
	.cases = cases,
	/* page faults are served by the host's driver, which moves from process
	 * to process; a run is short */
	.all_runs = 3,
	.run = run,
};
