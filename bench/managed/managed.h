/*
 * managed.h - what the parts of the managed module share: the buffer of one
 * size, the advice the module gives, the GPU cases timed on pages the host
 * wrote last (managed.c), the range attributes read back (managed_range.c),
 * and the families in files of their own: advice beyond managed.c's table
 * (managed_advice.c), stream attachment (managed_attach.c), explicit copies
 * against managed memory on one workload (managed_versus.c).
 */
#ifndef HMB_BENCH_MANAGED_H
#define HMB_BENCH_MANAGED_H

#include <stddef.h>
#include <stdint.h>

#include "engine/measure.h"
#include "kernels/kernels.h"

#define PAGE_WORDS (4096 / sizeof(uint32_t)) /* the host touches one word per 4 KiB */
#define SLOW_REPS 3  /* fault-driven cases: about 0.2-0.6 s per sample at 1 GiB */

enum advice { NO_ADVICE, READ_MOSTLY, PREFERRED_DEVICE, PREFERRED_HOST, ACCESSED_BY,
	      COARSE_GRAIN, ACCESSED_BY_HOST, GUIDE_COMBINED };
extern const char *const managed_advice_name[];

/* GPU steps of a case: untimed before the sample, or timed. */
/* KERNEL16: the increment kernel in 16-byte loads and stores (a shape variant) */
enum { PREFETCH = 1, KERNEL = 2, READ = 4, KERNEL16 = 8 };

/* What the cases of one size share. */
struct managed {
	int dev;
	size_t size;
	uint32_t *buf;
	uint32_t seed;       /* the next case's pattern seed */
	enum hmb_grid grid;
	double on_demand;    /* median of on-demand/first-kernel, or -1 */
	double resident;     /* median of back/host-sum-resident, or -1 */
};

struct gpu_spec {
	const char *name;
	enum advice advice;
	int host_first;      /* before each sample: the host writes every page */
	unsigned before;     /* untimed GPU steps after that (PREFETCH) */
	unsigned timed;      /* PREFETCH, KERNEL (increment) or READ (check) */
	int speedup;         /* report speedup_over_on_demand */
	const char *what;
};

struct gpu_case {
	const struct gpu_spec *spec;
	struct managed *m;
	struct hmb_record *r;
	uint32_t *p;
	size_t bytes;
	uint32_t seed, add;          /* the words hold pattern(seed) + add */
	unsigned long long *bad;     /* the read-only kernel's mismatch count (device) */
	hipStream_t own, saved;      /* attach/...: its stream, the module's */
	unsigned attach;             /* attach/...: hipMemAttach{Global,Host,Single} */
	int launch_timed;            /* host clock from the launch to the synchronisation:
					work the runtime does at launch is inside */
};

/* managed.c */
struct hmb_record *managed_record(struct hmb_ctx *ctx, const char *name, size_t bytes);
void managed_host_writes_every_page(uint32_t *p, size_t words);
int managed_check_words(const uint32_t *p, size_t bytes, uint32_t seed, uint32_t add, int host);
/* Give (set) or lift (!set) an advice on [p, p + n). */
int managed_advise(const void *p, size_t n, int dev, enum advice a, int set);
/* Does the advice include read-mostly (host writes then need care)? */
int managed_reads_mostly(enum advice a);
/* Bring every page of [p, p + n) to the host by a host write of each page
 * (untimed), under advice a (read-mostly: lifted, one prefetch home, the
 * writes, set again: page-by-page invalidation would cost seconds per GiB). */
int managed_pages_home(uint32_t *p, size_t n, int dev, enum advice a, hipStream_t stream);
struct hmb_record *managed_run_gpu_case(struct hmb_ctx *ctx, struct gpu_case *k,
					const struct hmb_case_ops *ops);
extern const struct hmb_case_ops managed_gpu_ops;
int managed_gpu_setup(struct hmb_ctx *ctx, void *st);
int managed_gpu_prepare(struct hmb_ctx *ctx, void *st, int sample);
int managed_gpu_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i);
int managed_gpu_verify(struct hmb_ctx *ctx, void *st);

/* managed_range.c: where the runtime says the range is, read with the
 * singular hipMemRangeGetAttribute (one call per attribute) and the plural
 * hipMemRangeGetAttributes (one call for all), both kept, and whether they
 * agree. Never fails (a failed read is named in the observations). */
void managed_observe_range(struct hmb_record *r, const void *p, size_t size, int dev);

/* managed_advice.c: the advice cases beyond managed.c's table, on m->buf. */
void managed_advice_run(struct hmb_ctx *ctx, struct managed *m);

/* managed_attach.c: attach/stream-single, attach/global, attach/host. */
void managed_attach_run(struct hmb_ctx *ctx, struct managed *m);

/* managed_versus.c: explicit copies against managed memory, every size of
 * the run and, under --oversubscribe, 1.5 and 2 x free device memory. */
void managed_versus_run(struct hmb_ctx *ctx, struct managed *m, const struct hmb_sizes *sizes);

/* The size of the oversubscribed run at `factor` x free device memory
 * (rounded down to 2 MiB), when the rule allows it: the GPU migrates pages
 * on demand (migrates), --oversubscribe F (0: absent) allows factor, and
 * the host can hold every page with 4 GiB to spare (host_avail: available
 * host memory). Returns HMB_OK with *size set; else HMB_UNSUPPORTED (no
 * migration on demand) or HMB_SKIPPED, with why. *size is set in every case
 * (the size the record is about). */
int managed_oversub_size(double factor, size_t dev_free, size_t host_avail, double oversubscribe,
			 int migrates, size_t *size, char *why, size_t len);

#endif
