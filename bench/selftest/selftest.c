/*
 * selftest - two modules that exist for the isolation test only, visible
 * when HMB_TEST_MODULES=1 is set: "leak" leaves state behind on purpose
 * (device memory it never frees, managed memory attached to a stream it
 * never destroys, the default pool told to keep everything), and "probe"
 * reports what the next module finds (free device memory) and times a
 * launch + synchronisation. Run inside `all`, the probe must see what it
 * sees alone; with --no-isolation it sees the leak. Its launch-sync case
 * also writes a context parameter declared here only (the free memory it
 * started with, which differs by machine), for the test that a module
 * declares a parameter's role in its own folder.
 */
#include <stdint.h>
#include <stdio.h>

#include "bench/selftest/selftest.h"
#include "engine/measure.h"
#include "engine/verify.h"
#include "kernels/kernels.h"

#define LEAK_BYTES (1ull << 30)

static int leak(struct hmb_ctx *ctx)
{
	struct hmb_record *r = hmb_case_record(ctx, "planted");
	void *dev = NULL, *managed = NULL;
	hipStream_t s = NULL;
	hipMemPool_t pool;
	uint64_t keep = UINT64_MAX;

	/* not through hmb_alloc: the point is that nobody frees these */
	HMB_CHECK(hipMalloc(&dev, LEAK_BYTES));
	HMB_CHECK(hmb_launch_fill(dev, 0, LEAK_BYTES / 4, 1, 0));
	HMB_CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
	HMB_CHECK(hipMallocManaged(&managed, 1 << 20, hipMemAttachHost));
	HMB_CHECK(hipStreamAttachMemAsync(s, managed, 0, hipMemAttachSingle));
	HMB_CHECK(hipDeviceGetDefaultMemPool(&pool, ctx->dev->ordinal));
	HMB_CHECK(hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &keep));
	HMB_CHECK(hipDeviceSynchronize());
	hmb_observe_num(r, "device_bytes_leaked", (double)LEAK_BYTES);
	hmb_commit(ctx, r);
	return 0;
fail:
	hmb_case_failed(r);
	hmb_commit(ctx, r);
	return 0;
}

struct probe {
	uint32_t *buf;
	long last;  /* seed of the last fill */
};

static int probe_op(struct hmb_ctx *ctx, void *st, hipStream_t s, long i)
{
	struct probe *p = st;
	(void)ctx;
	p->last = i;
	HMB_TRY(hmb_launch_fill(p->buf, 0, 256, (uint32_t)i, s));
	return 0;
}

static int probe_setup(struct hmb_ctx *ctx, void *st)
{
	struct probe *p = st;
	return (p->buf = hmb_alloc(ctx, HMB_KIND_DEVICE, 1024)) ? 0 : -1;
}

static int probe_verify(struct hmb_ctx *ctx, void *st)
{
	struct probe *p = st;
	unsigned long long bad = 0;
	(void)ctx;
	HMB_TRY(hmb_check_device(p->buf, 0, 1024, (uint32_t)p->last, 0, &bad));
	return hmb_verify_result(bad, "words of the last fill wrong");
}

static int probe(struct hmb_ctx *ctx)
{
	struct hmb_record *r = hmb_case_record(ctx, "free-memory");
	struct probe p = { NULL, 0 };
	struct hmb_case c = {
		.what = "fill kernel of 256 words",
		.timing = { .clock = HMB_CLOCK_HOST, .sync = HMB_SYNC_PER_OP, .ops_per_sample = 100,
			    .reps = 5, .warmup = 1 },
		.ops = { probe_setup, NULL, probe_op, NULL, NULL },
		.state = &p,
	};

	hmb_observe_num(r, "free_device_bytes", (double)hmb_device_free_mem());
	hmb_commit(ctx, r);
	r = hmb_case_record(ctx, "launch-sync");
	hmb_context_num(r, "free_mib_at_start", (double)(hmb_device_free_mem() >> 20));
	c.ops.verify = probe_verify;
	hmb_measure(ctx, r, &c);
	hmb_commit(ctx, r);
	return 0;
}

static const char *const leak_cases[] = { "planted", NULL };
static const char *const probe_cases[] = { "free-memory", "launch-sync", NULL };

/* A headline of its own, for the test that the summary prints what a module
 * declares (engine/headline.h; tests/test_summary.py). */
static const struct hmb_headline probe_headlines[] = {
	{ "probe launch+sync", "launch-sync", "", "time", NULL,
	  "test only: a fill kernel launched and waited for", NULL },
	{ .name = NULL },
};

const struct hmb_bench hmb_bench_leak = {
	.name = "leak",
	.summary = "test only: leaves memory, an attached stream and a pool setting behind",
	.help = "Exists for the isolation test (HMB_TEST_MODULES=1).",
	.cases = leak_cases,
	.run = leak,
};

const struct hmb_bench hmb_bench_probe = {
	.name = "probe",
	.summary = "test only: what the next module finds (free memory, launch + sync)",
	.help = "Exists for the isolation test (HMB_TEST_MODULES=1).",
	.cases = probe_cases,
	.headlines = probe_headlines,
	.run = probe,
};
