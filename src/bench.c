/* bench.c - the helpers every module uses: errors, cases, options, interrupts. */
#include "bench.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "report.h"

static char last_error[1024];
volatile sig_atomic_t hmb_signal_received;

void hmb_hip_error(const char *call, hipError_t err, const char *file, int line)
{
	snprintf(last_error, sizeof(last_error), "%s failed: %s (%s) at %s:%d", call,
		 hipGetErrorString(err), hipGetErrorName(err), file, line);
	(void)hipGetLastError(); /* clear a non-sticky error for the next case */
}

void hmb_set_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

const char *hmb_last_error(void)
{
	return last_error[0] ? last_error : "unknown error";
}

struct hmb_record *hmb_case(struct hmb_ctx *ctx, const char *fmt, ...)
{
	char name[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	last_error[0] = '\0';
	return hmb_record_new(ctx->module, name);
}

void hmb_case_failed(struct hmb_record *r)
{
	hmb_record_status(r, HMB_FAILED, "%s", hmb_last_error());
}

void hmb_commit(struct hmb_ctx *ctx, struct hmb_record *r)
{
	hmb_report_add(ctx->report, r);
	hmb_progress_print(stderr, r);
	hmb_checkpoint(ctx->report, 0);
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

size_t hmb_opt_size(const struct hmb_ctx *ctx, const char *name, size_t dflt)
{
	const char *v = hmb_opt_value(ctx->opt, name);
	char err[128];
	size_t s;
	return v && hmb_parse_size(v, &s, err, sizeof(err)) == 0 ? s : dflt;
}

long hmb_opt_int(const struct hmb_ctx *ctx, const char *name, long dflt)
{
	const char *v = hmb_opt_value(ctx->opt, name);
	return v ? strtol(v, NULL, 10) : dflt;
}

int hmb_opt_ints(const struct hmb_ctx *ctx, const char *name, const char *dflt, int *out, int max)
{
	const char *v = hmb_opt_value(ctx->opt, name);
	char buf[256], *tok, *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", v ? v : dflt);
	for (tok = strtok_r(buf, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save))
		out[n++] = atoi(tok);
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

const char *hmb_sz(size_t bytes)
{
	static char bufs[8][32];
	static int next;
	char *b = bufs[next++ % 8];
	return hmb_format_size(bytes, b, sizeof(bufs[0]));
}
