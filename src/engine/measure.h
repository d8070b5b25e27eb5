/*
 * measure.h - the one measurement engine every module uses.
 *
 * A module describes a case: its name, one operation in words, a timing
 * policy and a few callbacks (setup, prepare, op, verify, teardown). The
 * engine owns everything else: warm-up, repetitions, the clock (HIP events
 * or the host's monotonic clock), the latch that keeps the host's enqueue
 * cost out of event timings, where the synchronisation goes (after every
 * operation, once per sample, or not at all), the op index that lets a
 * module cycle through several buffer sets to defeat caches, and the
 * samples. It writes into the record's params what its timed region
 * contains ("timed", "clock", "sync", "ops_per_sample", "latch",
 * "buffer_sets"), so a figure always says what it measured.
 *
 * A sample is `ops_per_sample` calls of op(); with events the sample is the
 * time between the events recorded before and after them. prepare() runs
 * before every sample (warm-ups too), outside the timed region. verify()
 * runs once after the last sample: it checks the data that the timed
 * operations moved. Any callback returns 0, or -1 after HMB_CHECK or
 * hmb_set_error said why; the record is then failed with that reason and
 * keeps no samples (HMB_FAULT, fault.h, fails one on purpose after it ran,
 * to test these paths). teardown() always runs once setup() was called, and
 * whatever the case allocated through the context (alloc.h) is freed after
 * it, on every path.
 */
#ifndef HMB_MEASURE_H
#define HMB_MEASURE_H

#include "engine/module.h"

enum hmb_clock {
	HMB_CLOCK_EVENTS,  /* HIP events on the case's stream */
	HMB_CLOCK_HOST,    /* CLOCK_MONOTONIC around the sample */
	/* Where this process cannot time the operation (it runs in another
	 * process): op() hands over the time it was told, by hmb_op_seconds();
	 * the sample is their sum. .sync must be HMB_SYNC_NONE. */
	HMB_CLOCK_REPORTED,
};

enum hmb_sync {
	HMB_SYNC_PER_SAMPLE, /* one hipStreamSynchronize at the end of each sample (default) */
	HMB_SYNC_PER_OP,     /* hipStreamSynchronize after every operation, inside the timing */
	HMB_SYNC_NONE,       /* host-side calls that block by themselves; nothing added */
};

struct hmb_timing {
	enum hmb_clock clock;
	enum hmb_sync sync;
	int latch;           /* events: queue samples behind a host-released latch kernel */
	int ops_per_sample;  /* 0 means 1 */
	int buffer_sets;     /* how many buffer sets op() cycles through (0 means 1) */
	int reps, warmup;    /* the module's defaults; --reps, --warmup and --quick win */
	int fixed;           /* reps and warmup are what the case is (e.g. one sample per
				growth step), whatever --reps, --warmup and --quick say */
	int settle;          /* warm up past the count until the operations stop getting
				faster (settle() in measure.c); not under --quick or
				--warmup N */
};

struct hmb_case;

struct hmb_case_ops {
	int (*setup)(struct hmb_ctx *ctx, void *state);
	int (*prepare)(struct hmb_ctx *ctx, void *state, int sample);
	/* i counts operations from 0 over warm-ups and samples alike */
	int (*op)(struct hmb_ctx *ctx, void *state, hipStream_t stream, long i);
	int (*verify)(struct hmb_ctx *ctx, void *state);
	void (*teardown)(struct hmb_ctx *ctx, void *state);
};

struct hmb_case {
	const char *what;          /* one operation in words, e.g. "hipMemcpyAsync h2d" */
	struct hmb_timing timing;
	struct hmb_case_ops ops;
	void *state;
};

/* HMB_CLOCK_REPORTED: the seconds of the operation op() just ran, once per op(). */
void hmb_op_seconds(double seconds);

/* Measure a case into r (the module has set its params). Returns 0 (r holds
 * the samples and says what was timed) or -1 (r is failed with the reason).
 * The record is not committed. */
int hmb_measure(struct hmb_ctx *ctx, struct hmb_record *r, const struct hmb_case *c);

/* Measure a case of `steps` one-time steps (e.g. an allocation growing):
 * one sample a step, no warm-up, whatever --reps says; measured, r also
 * holds their sum (metric "total_s") and their count (observed "steps"). */
int hmb_measure_steps(struct hmb_ctx *ctx, struct hmb_record *r, struct hmb_case *c, int steps);

/* Record the launch geometry of a data kernel over `items` words in r's
 * params (grid, grid_blocks, block_threads, elements_per_thread,
 * grid_stride); grid is an enum hmb_grid (kernels/kernels.h). */
void hmb_param_geometry(struct hmb_record *r, size_t items, int grid);

/* Free the engine's latch when the module ends (the runner calls it). */
void hmb_engine_free(struct hmb_ctx *ctx);

/* The median of a measured record's samples, or -1 when it has none. */
double hmb_median(const struct hmb_record *r);

#endif
