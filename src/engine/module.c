/* module.c - the helpers every module uses: errors, cases, options, interrupts. */
#include "engine/module.h"
#include "system/copytrace.h"

#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/report.h"

volatile sig_atomic_t hmb_signal_received;

int hmb_on_request(const struct hmb_bench *b, const char *case_name)
{
	for (int i = 0; b && b->on_request && b->on_request[i]; i++)
		if (fnmatch(b->on_request[i], case_name, 0) == 0)
			return 1;
	return 0;
}

/* Does pattern select a case of b that runs by default? */
static int selects_default_case(const struct hmb_bench *b, const char *pattern)
{
	for (int i = 0; b->cases && b->cases[i]; i++)
		if (fnmatch(pattern, b->cases[i], 0) == 0 && !hmb_on_request(b, b->cases[i]))
			return 1;
	return 0;
}

/* An on-request case runs only for a pattern that selects no case of a plain
 * run: --case 'h2d/pinned/...' keeps to the cases it always meant, and new
 * on-request cases never change what an existing script runs. */
int hmb_selected(const struct hmb_ctx *ctx, const char *case_name)
{
	const struct hmb_options *o = ctx->opt;
	int on_request = hmb_on_request(ctx->bench, case_name);

	if (!o || o->ncases == 0)
		return !on_request;
	for (int i = 0; i < o->ncases; i++)
		if (fnmatch(o->cases[i], case_name, 0) == 0 &&
		    (!on_request || !selects_default_case(ctx->bench, o->cases[i])))
			return 1;
	return 0;
}

int hmb_keep_selected(struct hmb_ctx *ctx, struct hmb_record *r)
{
	if (hmb_selected(ctx, r->name))
		return 1;
	hmb_record_free(r);
	return 0;
}

int hmb_bench_selected(const struct hmb_bench *b, const struct hmb_options *opt)
{
	struct hmb_ctx ctx = { .opt = opt, .bench = b };
	if (!b->cases || !opt || opt->ncases == 0)
		return 1;
	for (int i = 0; b->cases[i]; i++)
		if (hmb_selected(&ctx, b->cases[i]))
			return 1;
	return 0;
}

struct hmb_record *hmb_case_record(struct hmb_ctx *ctx, const char *fmt, ...)
{
	char name[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	hmb_copy_trace_case(ctx->module, name);
	return hmb_record_new(ctx->module, name);
}

/* A "skipped" record of case `name` at `size`, its reason formatted from ap. */
static struct hmb_record *skipped(struct hmb_ctx *ctx, const char *name, size_t size,
				  const char *fmt, va_list ap)
{
	struct hmb_record *r = hmb_case_record(ctx, "%s", name);
	char reason[512];

	vsnprintf(reason, sizeof(reason), fmt, ap);
	hmb_param_num(r, "size", (double)size);
	hmb_record_status(r, HMB_SKIPPED, "%s", reason);
	return r;
}

void hmb_skip(struct hmb_ctx *ctx, const char *case_name, size_t size, const char *fmt, ...)
{
	struct hmb_record *r;
	va_list ap;

	va_start(ap, fmt);
	r = skipped(ctx, case_name, size, fmt, ap);
	va_end(ap);
	hmb_commit(ctx, r);
}

void hmb_skip_module(struct hmb_ctx *ctx, size_t size, const char *fmt, ...)
{
	struct hmb_record *r;
	va_list ap;

	va_start(ap, fmt);
	r = skipped(ctx, HMB_MODULE_RECORD, size, fmt, ap);
	va_end(ap);
	hmb_commit_kept(ctx, r);
}

#define MANAGED_MARGIN (512ull << 20)

int hmb_managed_allowed(struct hmb_ctx *ctx, const char *case_name, size_t size)
{
	size_t free_mem = hmb_device_free_mem(), limit;

	if (ctx->opt->oversubscribe > 0)
		limit = (size_t)(ctx->opt->oversubscribe * (double)free_mem);
	else
		limit = free_mem > MANAGED_MARGIN ? free_mem - MANAGED_MARGIN : 0;
	if (size <= limit)
		return 1;
	hmb_skip(ctx, case_name, size,
		 "refused: %s of managed memory is more than the %.2f GiB allowed (free device "
		 "memory%s); --oversubscribe F allows F x free memory, at the risk of an "
		 "unresponsive GPU", hmb_sz(size), (double)limit / (1 << 30),
		 ctx->opt->oversubscribe > 0 ? " x factor" : " less 512 MiB");
	return 0;
}

void hmb_case_failed(struct hmb_record *r)
{
	char why[1024];
	hmb_record_status(r, HMB_FAILED, "%s", hmb_take_error(why, sizeof(why)));
	r->nsamples = 0; /* a failed case keeps no figures */
}

void hmb_commit(struct hmb_ctx *ctx, struct hmb_record *r)
{
	if (!hmb_selected(ctx, r->name)) {
		hmb_record_free(r);
		return;
	}
	hmb_commit_kept(ctx, r);
}

void hmb_commit_kept(struct hmb_ctx *ctx, struct hmb_record *r)
{
	hmb_report_finish(ctx->report, r);
}

int hmb_reps(const struct hmb_ctx *ctx, int dflt)
{
	if (ctx->opt->reps > 0)
		return ctx->opt->reps;
	return ctx->opt->quick ? (dflt < 3 ? dflt : 3) : dflt;
}

int hmb_warmup(const struct hmb_ctx *ctx, int dflt)
{
	if (ctx->opt->warmup >= 0)
		return ctx->opt->warmup;
	return ctx->opt->quick ? (dflt < 1 ? dflt : 1) : dflt;
}

void hmb_sizes_or(const struct hmb_ctx *ctx, struct hmb_sizes *out, const char *dflt,
		  const char *quick_dflt)
{
	char err[256];

	if (ctx->opt->sizes.n) {
		*out = ctx->opt->sizes;
		return;
	}
	if (hmb_parse_sizes(ctx->opt->quick ? quick_dflt : dflt, out, err, sizeof(err)) != 0) {
		fprintf(stderr, "hipmembench: internal: bad default sizes: %s\n", err);
		abort();
	}
}

/* A module's own default or option text that does not parse is a bug in the
 * module: the command line was checked against its declaration already. */
static void internal_error(const char *name, const char *text, const char *why)
{
	fprintf(stderr, "hipmembench: internal: --%s '%s': %s\n", name, text, why);
	abort();
}

size_t hmb_opt_size(const struct hmb_ctx *ctx, const char *name, size_t dflt)
{
	const char *v = hmb_opt_value(ctx->opt, name);
	char err[256];
	size_t s;

	if (!v)
		return dflt;
	if (hmb_parse_size(v, &s, err, sizeof(err)) != 0)
		internal_error(name, v, err);
	return s;
}

long hmb_opt_int(const struct hmb_ctx *ctx, const char *name, long dflt)
{
	const char *v = hmb_opt_value(ctx->opt, name);
	long n;

	if (!v)
		return dflt;
	if (hmb_parse_long(v, &n) != 0)
		internal_error(name, v, "not a whole number");
	return n;
}

int hmb_opt_ints(const struct hmb_ctx *ctx, const char *name, const char *dflt, int *out, int max)
{
	const char *v = hmb_opt_value(ctx->opt, name);
	long vals[64];
	char err[256];
	int n = hmb_parse_long_list(name, v ? v : dflt, INT_MIN, INT_MAX, vals,
				    max < 64 ? max : 64, err, sizeof(err));

	if (n < 0)
		internal_error(name, v ? v : dflt, err);
	for (int i = 0; i < n; i++)
		out[i] = (int)vals[i];
	return n;
}

int hmb_opt_flag(const struct hmb_ctx *ctx, const char *name)
{
	return hmb_opt_value(ctx->opt, name) != NULL;
}

int hmb_interrupted(void)
{
	return hmb_signal_received != 0;
}

size_t hmb_cache_bytes(const struct hmb_device *dev)
{
	size_t l2 = dev->l2_bytes > 0 ? (size_t)dev->l2_bytes : 0;
	if (strncmp(dev->arch, "gfx942", 6) == 0 || strncmp(dev->arch, "gfx950", 6) == 0)
		l2 += 256u << 20;
	return l2;
}
