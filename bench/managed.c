/*
 * managed - what do prefetch and advice buy for hipMallocManaged memory?
 *
 * A managed buffer is initialised on the host (so its pages live there),
 * then a kernel reads and writes all of it (+1 per word). Cases:
 *   on-demand/first-kernel     pages migrate by GPU page faults
 *   on-demand/second-kernel    the same kernel again: pages are resident
 *   prefetch/prefetch-only     hipMemPrefetchAsync to the device alone
 *   prefetch/with-kernel       prefetch + kernel (speedup over on-demand)
 *   advise-.../first-kernel    under hipMemAdvise: ReadMostly (read-only
 *                              kernel), PreferredLocation device or host,
 *                              AccessedBy device; prefetch+read-mostly
 *   back/cpu-read-after-gpu    the host reads what the GPU wrote (faults)
 *   back/prefetch-to-host      prefetch to the host first, then the read
 *   touch/gpu-first            a fresh buffer written first by the GPU
 *   touch/host-first           a fresh buffer written by the host, then GPU
 *   static/__managed__         a __managed__ array (4 MiB)
 *   attach/stream-single       hipStreamAttachMemAsync(single) on a buffer
 *                              allocated with hipMemAttachHost
 * Timing: HIP events around the GPU work; host reads on the host clock.
 * GB/s = buffer bytes / time. After each case the range attributes (last
 * prefetch location, preferred location, read-mostly) are read back with
 * hipMemRangeGetAttribute and recorded, so a result says where pages were.
 * Every case checks the data afterwards.
 *
 * Safety: a size beyond the device's free memory is refused (skipped with a
 * reason) unless --oversubscribe F allows up to F x free memory.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../kernels/kernels.h"
#include "../src/bench.h"
#include "../src/timing.h"
#include "../src/verify.h"

enum advice { NO_ADVICE, READ_MOSTLY, PREFERRED_DEVICE, PREFERRED_HOST, ACCESSED_BY,
	      PREFETCH_READ_MOSTLY };
static const char *const advice_name[] = { "none", "advise-read-mostly",
					   "advise-preferred-device", "advise-preferred-host",
					   "advise-accessed-by-device", "prefetch+read-mostly" };

struct managed {
	struct hmb_ctx *ctx;
	int dev;
	size_t size;
	uint32_t *buf;
	hipStream_t stream;
	hipEvent_t start, stop;
	int reps;
	uint32_t seed;
	double on_demand_median;
};

static double event_seconds(struct managed *m)
{
	float ms = 0;
	if (hipEventElapsedTime(&ms, m->start, m->stop) != hipSuccess)
		return -1;
	return ms * 1e-3;
}

/* Where the range's pages are, as the runtime says. */
static void observe_range(struct hmb_record *r, const void *p, size_t size)
{
	int v;
	if (hipMemRangeGetAttribute(&v, sizeof(v), hipMemRangeAttributeLastPrefetchLocation,
				    p, size) == hipSuccess)
		hmb_observe_num(r, "last_prefetch_location", v);
	if (hipMemRangeGetAttribute(&v, sizeof(v), hipMemRangeAttributePreferredLocation, p,
				    size) == hipSuccess)
		hmb_observe_num(r, "preferred_location", v);
	if (hipMemRangeGetAttribute(&v, sizeof(v), hipMemRangeAttributeReadMostly, p,
				    size) == hipSuccess)
		hmb_observe_bool(r, "read_mostly", v);
	(void)hipGetLastError();
	hmb_observe_str(r, "location_codes", "device ordinal; -1 host; -2 none/invalid");
}

static struct hmb_record *new_case(struct managed *m, const char *name)
{
	struct hmb_record *r = hmb_case(m->ctx, "%s", name);
	hmb_param_num(r, "size", (double)m->size);
	hmb_record_bytes(r, (double)m->size);
	return r;
}

static int apply_advice(struct managed *m, enum advice a, int set)
{
	const void *p = m->buf;
	switch (a) {
	case READ_MOSTLY:
	case PREFETCH_READ_MOSTLY:
		HMB_CHECK(hipMemAdvise(p, m->size, set ? hipMemAdviseSetReadMostly
						       : hipMemAdviseUnsetReadMostly, m->dev));
		break;
	case PREFERRED_DEVICE:
	case PREFERRED_HOST:
		HMB_CHECK(hipMemAdvise(p, m->size, set ? hipMemAdviseSetPreferredLocation
						       : hipMemAdviseUnsetPreferredLocation,
				       a == PREFERRED_DEVICE ? m->dev : hipCpuDeviceId));
		break;
	case ACCESSED_BY:
		HMB_CHECK(hipMemAdvise(p, m->size, set ? hipMemAdviseSetAccessedBy
						       : hipMemAdviseUnsetAccessedBy, m->dev));
		break;
	case NO_ADVICE:
		break;
	}
	return 0;
fail:
	return -1;
}

/* Host writes every page (they move to the host), then the GPU works on it.
 * what: 0 kernel, 1 prefetch only, 2 prefetch + kernel, 3 read-only kernel. */
static int host_init_then_gpu(struct managed *m, int what, uint32_t seed, double *seconds)
{
	hmb_fill_host(m->buf, m->size, seed);
	HMB_CHECK(hipEventRecord(m->start, m->stream));
	if (what == 1 || what == 2)
		HMB_CHECK(hipMemPrefetchAsync(m->buf, m->size, m->dev, m->stream));
	if (what == 0 || what == 2)
		HMB_CHECK(hmb_launch_increment(m->buf, m->size / 4, m->stream));
	HMB_CHECK(hipEventRecord(m->stop, m->stream));
	HMB_CHECK(hipEventSynchronize(m->stop));
	*seconds = event_seconds(m);
	return 0;
fail:
	return -1;
}

static int check_plus(struct managed *m, uint32_t seed, uint32_t add)
{
	size_t bad = hmb_check_host(m->buf, m->size, seed, add);
	if (bad) {
		hmb_set_error("verification failed: %zu of %zu words wrong", bad, m->size / 4);
		return -1;
	}
	return 0;
}

/* Read-only kernel for read-mostly cases: counts pattern mismatches. */
static int read_kernel(struct managed *m, uint32_t seed, unsigned long long *bad_dev,
		       double *seconds)
{
	HMB_CHECK(hipMemsetAsync(bad_dev, 0, sizeof(*bad_dev), m->stream));
	HMB_CHECK(hipEventRecord(m->start, m->stream));
	HMB_CHECK(hmb_launch_check(m->buf, 0, m->size / 4, seed, 0, bad_dev, m->stream));
	HMB_CHECK(hipEventRecord(m->stop, m->stream));
	HMB_CHECK(hipEventSynchronize(m->stop));
	*seconds = event_seconds(m);
	return 0;
fail:
	return -1;
}

static void finish(struct managed *m, struct hmb_record *r, int ok)
{
	if (!ok)
		hmb_case_failed(r);
	else
		hmb_observe_bool(r, "verified", 1);
	observe_range(r, m->buf, m->size);
	hmb_commit(m->ctx, r);
}

/* The increment kernel alone, timed with events. */
static int gpu_increment(struct managed *m, double *seconds)
{
	HMB_CHECK(hipEventRecord(m->start, m->stream));
	HMB_CHECK(hmb_launch_increment(m->buf, m->size / 4, m->stream));
	HMB_CHECK(hipEventRecord(m->stop, m->stream));
	HMB_CHECK(hipEventSynchronize(m->stop));
	*seconds = event_seconds(m);
	return 0;
fail:
	return -1;
}

static void run_on_demand_and_prefetch(struct managed *m)
{
	struct hmb_record *first = new_case(m, "on-demand/first-kernel");
	struct hmb_record *second = new_case(m, "on-demand/second-kernel");
	struct hmb_record *pref = new_case(m, "prefetch/prefetch-only");
	struct hmb_record *both = new_case(m, "prefetch/with-kernel");
	struct hmb_record *after = new_case(m, "prefetch/kernel-after-prefetch");
	struct hmb_stats st;
	int ok = 1;
	double t;

	for (int i = 0; i < m->reps && ok; i++) {
		uint32_t seed = m->seed++;
		ok = host_init_then_gpu(m, 0, seed, &t) == 0;
		if (ok)
			hmb_sample(first, t);
		ok = ok && gpu_increment(m, &t) == 0;
		if (ok)
			hmb_sample(second, t);
		ok = ok && check_plus(m, seed, 2) == 0;
	}
	if (ok) {
		hmb_stats_compute(first->samples, first->nsamples, &st);
		m->on_demand_median = st.median;
	}
	finish(m, first, ok);
	finish(m, second, ok);

	for (int i = 0; i < m->reps && ok; i++) {
		uint32_t seed = m->seed++;
		ok = host_init_then_gpu(m, 1, seed, &t) == 0;
		if (ok)
			hmb_sample(pref, t);
		ok = ok && gpu_increment(m, &t) == 0;
		if (ok)
			hmb_sample(after, t);
		ok = ok && check_plus(m, seed, 1) == 0;
		seed = m->seed++;
		ok = ok && host_init_then_gpu(m, 2, seed, &t) == 0;
		if (ok)
			hmb_sample(both, t);
		ok = ok && check_plus(m, seed, 1) == 0;
	}
	if (ok) {
		hmb_stats_compute(both->samples, both->nsamples, &st);
		hmb_metric(both, "speedup_over_on_demand", m->on_demand_median / st.median, "x");
	}
	finish(m, pref, ok);
	finish(m, both, ok);
	finish(m, after, ok);
}

static void run_advice(struct managed *m, enum advice a, unsigned long long *bad_dev)
{
	char name[96];
	struct hmb_record *r;
	struct hmb_stats st;
	int ok = 1, readonly = a == READ_MOSTLY || a == PREFETCH_READ_MOSTLY;

	snprintf(name, sizeof(name), "%s/first-kernel", advice_name[a]);
	r = new_case(m, name);
	hmb_param_str(r, "kernel", readonly ? "read-only" : "read-write");
	if (apply_advice(m, a, 1)) {
		finish(m, r, 0);
		return;
	}
	for (int i = 0; i < m->reps && ok; i++) {
		uint32_t seed = m->seed++;
		double t = 0;
		if (!readonly) {
			ok = host_init_then_gpu(m, 0, seed, &t) == 0 && check_plus(m, seed, 1) == 0;
			hmb_sample(r, t);
			continue;
		}
		hmb_fill_host(m->buf, m->size, seed);
		if (a == PREFETCH_READ_MOSTLY) {
			double t0 = hmb_now();
			ok = hipMemPrefetchAsync(m->buf, m->size, m->dev, m->stream) == hipSuccess &&
			     hipStreamSynchronize(m->stream) == hipSuccess;
			hmb_metric(r, "prefetch_s", hmb_now() - t0, "s");
			if (!ok)
				hmb_set_error("hipMemPrefetchAsync to the device failed");
		}
		if (ok) {
			unsigned long long bad = 0;
			ok = read_kernel(m, seed, bad_dev, &t) == 0 &&
			     hipMemcpy(&bad, bad_dev, sizeof(bad), hipMemcpyDeviceToHost) == hipSuccess;
			hmb_sample(r, t);
			if (ok && bad) {
				hmb_set_error("verification failed: the kernel read %llu wrong words", bad);
				ok = 0;
			}
		}
	}
	if (ok && r->nsamples) {
		hmb_stats_compute(r->samples, r->nsamples, &st);
		if (!readonly && m->on_demand_median > 0)
			hmb_metric(r, "speedup_over_on_demand", m->on_demand_median / st.median, "x");
	}
	observe_range(r, m->buf, m->size);
	if (apply_advice(m, a, 0))
		ok = 0;
	if (!ok)
		hmb_case_failed(r);
	else
		hmb_observe_bool(r, "verified", 1);
	hmb_commit(m->ctx, r);
}

/* The way back: the host reads what the GPU wrote, with or without a prefetch. */
static void run_way_back(struct managed *m, int prefetch)
{
	struct hmb_record *r = new_case(m, prefetch ? "back/prefetch-to-host"
						     : "back/cpu-read-after-gpu");
	int ok = 1;

	hmb_param_str(r, "timing", prefetch ? "host clock: prefetch to host + host sum of all words"
					    : "host clock: host sum of all words (page faults)");
	for (int i = 0; i < m->reps && ok; i++) {
		uint32_t seed = m->seed++;
		volatile uint32_t sum = 0;
		uint32_t acc = 0;
		double t0;
		size_t bad;
		HMB_CHECK(hmb_launch_fill(m->buf, 0, m->size / 4, seed, m->stream));
		HMB_CHECK(hipStreamSynchronize(m->stream));
		t0 = hmb_now();
		if (prefetch) {
			HMB_CHECK(hipMemPrefetchAsync(m->buf, m->size, hipCpuDeviceId, m->stream));
			HMB_CHECK(hipStreamSynchronize(m->stream));
		}
		for (size_t w = 0; w < m->size / 4; w++)
			acc += m->buf[w];
		sum = acc;
		hmb_sample(r, hmb_now() - t0);
		(void)sum;
		bad = hmb_check_host(m->buf, m->size, seed, 0); /* untimed */
		if (bad) {
			hmb_set_error("verification failed: the host read %zu wrong words", bad);
			ok = 0;
		}
	}
	finish(m, r, ok);
	return;
fail:
	finish(m, r, 0);
}

/* A fresh buffer each time: first written by the GPU, or by the host. */
static void run_first_touch(struct managed *m, int gpu_first)
{
	struct hmb_record *r = new_case(m, gpu_first ? "touch/gpu-first" : "touch/host-first");
	void *p = NULL;
	int ok = 1;

	hmb_param_str(r, "timing", "events around the kernel that writes the fresh buffer");
	for (int i = 0; i < m->reps && ok; i++) {
		uint32_t seed = m->seed++;
		HMB_CHECK(hipMallocManaged(&p, m->size, hipMemAttachGlobal));
		if (!gpu_first)
			memset(p, 0, m->size);
		HMB_CHECK(hipEventRecord(m->start, m->stream));
		HMB_CHECK(hmb_launch_fill(p, 0, m->size / 4, seed, m->stream));
		HMB_CHECK(hipEventRecord(m->stop, m->stream));
		HMB_CHECK(hipEventSynchronize(m->stop));
		hmb_sample(r, event_seconds(m));
		if (hmb_check_host(p, m->size, seed, 0)) {
			hmb_set_error("verification failed after the first touch");
			ok = 0;
		}
		HMB_CHECK(hipFree(p));
		p = NULL;
	}
	finish(m, r, ok);
	return;
fail:
	if (p)
		hipFree(p);
	finish(m, r, 0);
}

/* Small cases of their own: a __managed__ array and a stream-attached buffer. */
static void run_static_and_attach(struct managed *m)
{
	struct hmb_record *r = hmb_case(m->ctx, "static/__managed__");
	uint32_t *s = hmb_managed_static(), *a = NULL;
	size_t bytes = HMB_MANAGED_STATIC_WORDS * sizeof(uint32_t);

	hmb_param_num(r, "size", (double)bytes);
	hmb_record_bytes(r, (double)bytes);
	if (!s) {
		hmb_record_status(r, HMB_UNSUPPORTED, "this build has no __managed__ variable "
				  "(HIP before ROCm 6 registers them at start-up and fails "
				  "without a GPU)");
		hmb_commit(m->ctx, r);
	} else {
		int ok = 1;
		for (int i = 0; i < m->reps && ok; i++) {
			uint32_t seed = m->seed++;
			hmb_fill_host(s, bytes, seed);
			HMB_CHECK(hipEventRecord(m->start, m->stream));
			HMB_CHECK(hmb_launch_increment(s, HMB_MANAGED_STATIC_WORDS, m->stream));
			HMB_CHECK(hipEventRecord(m->stop, m->stream));
			HMB_CHECK(hipEventSynchronize(m->stop));
			hmb_sample(r, event_seconds(m));
			if (hmb_check_host(s, bytes, seed, 1)) {
				hmb_set_error("verification failed on the __managed__ array");
				ok = 0;
			}
		}
		if (!ok)
			hmb_case_failed(r);
		else
			hmb_observe_bool(r, "verified", 1);
		hmb_commit(m->ctx, r);
	}

	r = hmb_case(m->ctx, "attach/stream-single");
	hmb_param_num(r, "size", (double)bytes);
	hmb_record_bytes(r, (double)bytes);
	HMB_CHECK(hipMallocManaged((void **)&a, bytes, hipMemAttachHost));
	HMB_CHECK(hipStreamAttachMemAsync(m->stream, a, 0, hipMemAttachSingle));
	HMB_CHECK(hipStreamSynchronize(m->stream));
	for (int i = 0; i < m->reps; i++) {
		uint32_t seed = m->seed++;
		hmb_fill_host(a, bytes, seed);
		HMB_CHECK(hipEventRecord(m->start, m->stream));
		HMB_CHECK(hmb_launch_increment(a, bytes / 4, m->stream));
		HMB_CHECK(hipEventRecord(m->stop, m->stream));
		HMB_CHECK(hipStreamSynchronize(m->stream));
		hmb_sample(r, event_seconds(m));
		if (hmb_check_host(a, bytes, seed, 1)) {
			hmb_set_error("verification failed on the stream-attached buffer");
			goto fail;
		}
	}
	hmb_observe_bool(r, "verified", 1);
	hipFree(a);
	hmb_commit(m->ctx, r);
	return;
fail:
	if (a)
		hipFree(a);
	hmb_case_failed(r);
	hmb_commit(m->ctx, r);
}

static int run(struct hmb_ctx *ctx)
{
	struct managed m;
	struct hmb_sizes sizes;
	unsigned long long *bad_dev = NULL;
	int rc = -1;

	memset(&m, 0, sizeof(m));
	m.ctx = ctx;
	m.dev = ctx->dev->ordinal;
	m.reps = hmb_reps(ctx, 3);
	m.seed = 1000;
	hmb_sizes_or(ctx, &sizes, "64M,256M,1G", "16M");
	HMB_CHECK(hipStreamCreateWithFlags(&m.stream, hipStreamNonBlocking));
	HMB_CHECK(hipEventCreate(&m.start));
	HMB_CHECK(hipEventCreate(&m.stop));
	HMB_CHECK(hipMalloc((void **)&bad_dev, sizeof(*bad_dev)));

	for (size_t i = 0; i < sizes.n && !hmb_interrupted(); i++) {
		m.size = sizes.v[i];
		if (!hmb_managed_allowed(ctx, "all", m.size))
			continue;
		HMB_CHECK(hipMallocManaged((void **)&m.buf, m.size, hipMemAttachGlobal));
		run_on_demand_and_prefetch(&m);
		for (int a = READ_MOSTLY; a <= PREFETCH_READ_MOSTLY && !hmb_interrupted(); a++)
			run_advice(&m, (enum advice)a, bad_dev);
		if (!hmb_interrupted()) {
			run_way_back(&m, 0);
			run_way_back(&m, 1);
		}
		HMB_CHECK(hipFree(m.buf));
		m.buf = NULL;
		if (!hmb_interrupted()) {
			run_first_touch(&m, 1);
			run_first_touch(&m, 0);
		}
	}
	if (!hmb_interrupted())
		run_static_and_attach(&m);
	rc = 0;
fail:
	if (m.buf)
		hipFree(m.buf);
	if (bad_dev)
		hipFree(bad_dev);
	if (m.start)
		hipEventDestroy(m.start);
	if (m.stop)
		hipEventDestroy(m.stop);
	if (m.stream)
		hipStreamDestroy(m.stream);
	return rc;
}

const struct hmb_bench hmb_bench_managed = {
	.name = "managed",
	.summary = "hipMallocManaged with and without hipMemPrefetchAsync and hipMemAdvise",
	.needs = HMB_NEEDS_MANAGED,
	.options = NULL,
	.help = "--sizes: managed buffer sizes (default 64M,256M,1G; --quick 16M). Never more\n"
		"than free device memory unless --oversubscribe F is given.\n"
		"GB/s = buffer bytes / time of the GPU work (events). on-demand/first-kernel\n"
		"migrates by page faults; prefetch/with-kernel shows what a prefetch saves\n"
		"(speedup_over_on_demand). Observed fields say where the pages were.",
	.run = run,
};
