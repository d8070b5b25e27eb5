/*
 * xnack - what does a GPU page fault cost?
 *
 * A kernel touches one word per page of a buffer whose pages live on the
 * host: the first touch of each page faults and migrates it (XNACK on AMD,
 * demand paging on NVIDIA). Page strides 4K, 64K and 2M, pages touched in
 * order or in a random order, and sparse use (1 page in 16 at 4K).
 *   cost per touch = (first-touch time - the same kernel on resident pages)
 *                    / touches, in microseconds (metric us_per_touch)
 * The runtime migrates more than the touched page (NVIDIA moves up to 2 MiB
 * blocks and prefetches ahead), so at small strides this is the cost per
 * touch, not per hardware fault: compare strides to see the granularity.
 *
 * Memory: managed (hipMallocManaged) always; system-allocated (malloc)
 * where the device can use pageable memory (hipDeviceAttributePageable-
 * MemoryAccess: HMM on NVIDIA, HSA_XNACK=1 on an xnack+ AMD GPU); where it
 * cannot, an "unsupported" record says why. The "xnack/state" record holds
 * the gcnArchName xnack flag, HSA_XNACK, the pageable-access attributes and
 * the transparent huge page setting.
 * Zero-copy is the contrast: a kernel reads pinned host memory through
 * hipHostGetDevicePointer, at the link's speed, with no migration.
 *
 * On AMD run it twice: `HSA_XNACK=0 hipmembench xnack` (managed memory is
 * migrated by the driver without GPU retries; system memory unsupported)
 * and `HSA_XNACK=1 hipmembench xnack` (GPU page faults retried: both managed
 * and malloc memory fault and migrate on demand).
 * Every touched word and every zero-copy byte is verified.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/kernels.h"
#include "../kernels/pattern.h"
#include "../src/bench.h"
#include "../src/report.h"
#include "../src/verify.h"

#define SPARSE_EVERY 16

struct faults {
	struct hmb_ctx *ctx;
	uint8_t *buf;
	size_t size;
	int system;                /* malloc'd memory instead of managed */
	uint64_t *order_dev;       /* random page order, device memory */
	hipStream_t stream;
	hipEvent_t start, stop;
	int reps;
};

static int touch_timed(struct faults *f, size_t stride, const uint64_t *order, size_t touches,
		       double *seconds)
{
	float ms = 0;
	HMB_CHECK(hipEventRecord(f->start, f->stream));
	HMB_CHECK(hmb_launch_touch(f->buf, stride, order, touches, f->stream));
	HMB_CHECK(hipEventRecord(f->stop, f->stream));
	HMB_CHECK(hipEventSynchronize(f->stop));
	HMB_CHECK(hipEventElapsedTime(&ms, f->start, f->stop));
	*seconds = ms * 1e-3;
	return 0;
fail:
	return -1;
}

/* Fisher-Yates over page indices (scaled by `every` for sparse use). */
static int upload_order(struct faults *f, size_t touches, size_t every, int shuffle)
{
	uint64_t *order = malloc(touches * sizeof(*order));
	unsigned long long rng = 88172645463325252ull;

	if (!order) {
		hmb_set_error("cannot allocate the page order");
		return -1;
	}
	for (size_t i = 0; i < touches; i++)
		order[i] = i * every;
	for (size_t i = touches - 1; shuffle && i > 0; i--) {
		size_t j;
		uint64_t t;
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		j = (size_t)(rng % (i + 1));
		t = order[i], order[i] = order[j], order[j] = t;
	}
	HMB_CHECK(hipMemcpy(f->order_dev, order, touches * sizeof(*order), hipMemcpyHostToDevice));
	free(order);
	return 0;
fail:
	free(order);
	return -1;
}

/* Every touched word got +1 per kernel; every other word is untouched. */
static size_t check_touches(const struct faults *f, size_t stride, size_t every, size_t touches,
			    uint32_t seed, uint32_t add)
{
	const uint32_t *w = (const uint32_t *)f->buf;
	size_t bad = 0;
	for (size_t k = 0; k < touches; k++) {
		size_t word = k * every * stride / 4;
		bad += w[word] != hmb_pattern(word, seed) + add;
	}
	return bad;
}

static void fault_case(struct faults *f, size_t stride, const char *order_name, size_t every)
{
	const char *mem = f->system ? "system" : "managed";
	size_t touches = f->size / stride / every;
	int shuffle = strcmp(order_name, "random") == 0;
	struct hmb_record *r = hmb_case(f->ctx, "%s/fault/stride=%s/%s", mem, hmb_sz(stride),
					order_name);
	struct hmb_stats first, resident;
	double t;
	double *res = calloc((size_t)f->reps, sizeof(*res));

	hmb_param_num(r, "size", (double)f->size);
	hmb_param_str(r, "memory", f->system ? "malloc (system allocated)" : "hipMallocManaged");
	hmb_param_num(r, "stride", (double)stride);
	hmb_param_str(r, "order", order_name);
	hmb_param_num(r, "touch_one_page_in", (double)every);
	hmb_record_ops(r, (double)touches);
	if (!res || !touches || upload_order(f, touches, every, shuffle))
		goto fail;
	for (int i = 0; i < f->reps; i++) {
		uint32_t seed = 500 + (uint32_t)i;
		hmb_fill_host(f->buf, f->size, seed); /* every page back on the host */
		if (touch_timed(f, stride, NULL, 0, &t)) /* loads the kernel, touches nothing */
			goto fail;
		if (touch_timed(f, stride, f->order_dev, touches, &t))
			goto fail;
		hmb_sample(r, t);
		if (touch_timed(f, stride, f->order_dev, touches, &res[i]))
			goto fail;
		if (check_touches(f, stride, every, touches, seed, 2)) {
			hmb_set_error("verification failed: touched words do not read pattern + 2");
			goto fail;
		}
	}
	hmb_stats_compute(r->samples, r->nsamples, &first);
	hmb_stats_compute(res, (size_t)f->reps, &resident);
	hmb_metric(r, "resident_kernel_s", resident.median, "s");
	hmb_metric(r, "us_per_touch", (first.median - resident.median) / (double)touches * 1e6, "us");
	hmb_observe_num(r, "touches", (double)touches);
	hmb_observe_bool(r, "verified", 1);
	free(res);
	hmb_commit(f->ctx, r);
	return;
fail:
	free(res);
	hmb_case_failed(r);
	hmb_commit(f->ctx, r);
}

static void fault_cases(struct faults *f)
{
	static const size_t strides[] = { 4096, 65536, 2u << 20 };
	for (int s = 0; s < 3 && !hmb_interrupted(); s++) {
		if (strides[s] > f->size)
			continue;
		fault_case(f, strides[s], "sequential", 1);
		fault_case(f, strides[s], "random", 1);
	}
	if (!hmb_interrupted() && f->size >= SPARSE_EVERY * 4096)
		fault_case(f, 4096, "sparse", SPARSE_EVERY);
}

static void record_state(struct hmb_ctx *ctx)
{
	const struct hmb_device *d = ctx->dev;
	const char *xnack = getenv("HSA_XNACK");
	struct hmb_record *r = hmb_case(ctx, "xnack/state");

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
	hmb_commit(ctx, r);
}

/* A kernel reads pinned host memory in place: the link's speed, no migration. */
static void zero_copy(struct hmb_ctx *ctx, struct faults *f, const struct hmb_sizes *sizes)
{
	size_t max = hmb_sizes_max(sizes);
	uint32_t *host = NULL, *mapped = NULL, *dst = NULL;

	HMB_CHECK(hipHostMalloc((void **)&host, max, hipHostMallocMapped));
	HMB_CHECK(hipHostGetDevicePointer((void **)&mapped, host, 0));
	HMB_CHECK(hipMalloc((void **)&dst, max));
	for (size_t i = 0; i < sizes->n && !hmb_interrupted(); i++) {
		size_t n = sizes->v[i];
		struct hmb_record *r = hmb_case(ctx, "zero-copy/read");
		unsigned long long bad = 0;
		int ok = 1;
		hmb_param_num(r, "size", (double)n);
		hmb_param_str(r, "memory", "hipHostMalloc(Mapped) read through hipHostGetDevicePointer");
		hmb_record_bytes(r, (double)n);
		if (ctx->dev->link.peak_gbps > 0)
			hmb_record_peak(r, ctx->dev->link.peak_gbps);
		hmb_fill_host(host, n, 900 + (uint32_t)i);
		for (int k = 0; k < 1 + f->reps && ok; k++) {
			float ms = 0;
			ok = hipEventRecord(f->start, f->stream) == hipSuccess &&
			     hmb_launch_copy(dst, mapped, n / 4, f->stream) == hipSuccess &&
			     hipEventRecord(f->stop, f->stream) == hipSuccess &&
			     hipEventSynchronize(f->stop) == hipSuccess &&
			     hipEventElapsedTime(&ms, f->start, f->stop) == hipSuccess;
			if (ok && k > 0)
				hmb_sample(r, ms * 1e-3);
		}
		if (!ok)
			hmb_set_error("the zero-copy kernel failed: %s",
				      hipGetErrorString(hipGetLastError()));
		else if (hmb_check_device(dst, 0, n, 900 + (uint32_t)i, 0, &bad) != hipSuccess || bad) {
			hmb_set_error("verification failed: %llu words read through the mapping "
				      "were wrong", bad);
			ok = 0;
		}
		if (ok)
			hmb_observe_bool(r, "verified", 1);
		else
			hmb_case_failed(r);
		hmb_commit(ctx, r);
	}
fail:
	if (host)
		hipHostFree(host);
	if (dst)
		hipFree(dst);
}

static int run(struct hmb_ctx *ctx)
{
	struct faults f;
	struct hmb_sizes sizes, zc;
	int rc = -1;

	memset(&f, 0, sizeof(f));
	f.ctx = ctx;
	f.reps = hmb_reps(ctx, 3);
	hmb_sizes_or(ctx, &sizes, "256M", "16M");
	hmb_sizes_or(ctx, &zc, "64K,1M,16M,256M", "64K,4M");
	f.size = hmb_sizes_max(&sizes);
	record_state(ctx);
	HMB_CHECK(hipStreamCreateWithFlags(&f.stream, hipStreamNonBlocking));
	HMB_CHECK(hipEventCreate(&f.start));
	HMB_CHECK(hipEventCreate(&f.stop));
	HMB_CHECK(hipMalloc((void **)&f.order_dev, (f.size / 4096 + 1) * sizeof(uint64_t)));

	if (hmb_managed_allowed(ctx, "managed/fault", f.size)) {
		HMB_CHECK(hipMallocManaged((void **)&f.buf, f.size, hipMemAttachGlobal));
		fault_cases(&f);
		HMB_CHECK(hipFree(f.buf));
		f.buf = NULL;
	}

	if (ctx->dev->pageable_memory_access != 1) {
		struct hmb_record *r = hmb_case(ctx, "system/fault");
		const char *x = getenv("HSA_XNACK");
		hmb_param_num(r, "size", (double)f.size);
		hmb_record_status(r, HMB_UNSUPPORTED,
				  "the device cannot access pageable (malloc) memory: "
				  "hipDeviceAttributePageableMemoryAccess = %d (%s; arch %s, "
				  "HSA_XNACK=%s). On AMD this needs an xnack+ GPU and HSA_XNACK=1; "
				  "on NVIDIA, HMM (open kernel modules, Linux 6.1+) or ATS.",
				  ctx->dev->pageable_memory_access,
				  ctx->dev->xnack_arch == 1 ? "xnack+" :
				  ctx->dev->xnack_arch == 0 ? "xnack-" : "no xnack in arch name",
				  ctx->dev->arch, x ? x : "unset");
		hmb_commit(ctx, r);
	} else if (!hmb_interrupted()) {
		f.system = 1;
		f.buf = aligned_alloc(2u << 20, f.size);
		if (!f.buf) {
			hmb_set_error("cannot allocate %s of system memory", hmb_sz(f.size));
			goto fail;
		}
		fault_cases(&f);
		free(f.buf);
		f.buf = NULL;
	}
	if (!hmb_interrupted())
		zero_copy(ctx, &f, &zc);
	rc = 0;
fail:
	if (f.buf)
		f.system ? free(f.buf) : (void)hipFree(f.buf);
	if (f.order_dev)
		hipFree(f.order_dev);
	if (f.start)
		hipEventDestroy(f.start);
	if (f.stop)
		hipEventDestroy(f.stop);
	if (f.stream)
		hipStreamDestroy(f.stream);
	return rc;
}

const struct hmb_bench hmb_bench_xnack = {
	.name = "xnack",
	.summary = "GPU page-fault cost: XNACK/HMM on AMD, demand paging on NVIDIA; zero-copy "
		   "as the contrast",
	.needs = HMB_NEEDS_MANAGED,
	.options = NULL,
	.help = "--sizes: the faulting buffer (largest size; default 256M; --quick 16M) and\n"
		"the zero-copy sizes (default 64K,1M,16M,256M). us_per_touch = (first touch -\n"
		"resident) / touches. On AMD compare HSA_XNACK=0 and HSA_XNACK=1 runs.",
	.run = run,
};
