/* record.c - building records, and the one place where figures are derived. */
#include "engine/record.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct hmb_record *hmb_record_new(const char *module, const char *name)
{
	struct hmb_record *r = hmb_xcalloc(1, sizeof(*r));
	r->module = hmb_xstrdup(module);
	r->name = hmb_xstrdup(name);
	r->status = HMB_OK;
	r->written_stable = -1;
	return r;
}

static void kvlist_free(struct hmb_kvlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].str);
		free(l->v[i].unit);
	}
	free(l->v);
}

void hmb_run_figures_free(struct hmb_run_figures *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nmetrics; i++) {
		free(f->metric[i].name);
		free(f->metric[i].unit);
		free(f->metric[i].value);
	}
	free(f->metric);
	free(f->samples);
	free(f->median);
	free(f->doc);
	free(f);
}

void hmb_record_free(struct hmb_record *r)
{
	if (!r)
		return;
	free(r->module);
	free(r->name);
	kvlist_free(&r->params);
	kvlist_free(&r->metrics);
	kvlist_free(&r->observed);
	free(r->samples);
	free(r->reason);
	free(r->written_reason);
	hmb_run_figures_free(r->runs);
	free(r);
}

/* Set key in a list, replacing an earlier value of the same key. */
static struct hmb_kv *kv_set(struct hmb_kvlist *l, const char *key, enum hmb_kv_type type)
{
	struct hmb_kv *kv = (struct hmb_kv *)hmb_kv_find(l, key);

	if (kv) {
		free(kv->str);
		free(kv->unit);
	} else {
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 8;
			l->v = hmb_xrealloc(l->v, l->cap * sizeof(*l->v));
		}
		kv = &l->v[l->n++];
		kv->key = hmb_xstrdup(key);
	}
	kv->type = type;
	kv->str = NULL;
	kv->unit = NULL;
	kv->num = 0;
	kv->role = HMB_ROLE_IDENTITY;
	return kv;
}

const struct hmb_kv *hmb_kv_find(const struct hmb_kvlist *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return &l->v[i];
	return NULL;
}

void hmb_param_str(struct hmb_record *r, const char *key, const char *value)
{
	kv_set(&r->params, key, HMB_KV_STR)->str = hmb_xstrdup(value);
}

void hmb_param_num(struct hmb_record *r, const char *key, double value)
{
	kv_set(&r->params, key, HMB_KV_NUM)->num = value;
}

void hmb_param_bool(struct hmb_record *r, const char *key, int value)
{
	kv_set(&r->params, key, HMB_KV_BOOL)->num = value != 0;
}

void hmb_context_str(struct hmb_record *r, const char *key, const char *value)
{
	hmb_param_str(r, key, value);
	hmb_param_set_role(r, key, HMB_ROLE_CONTEXT);
}

void hmb_context_num(struct hmb_record *r, const char *key, double value)
{
	hmb_param_num(r, key, value);
	hmb_param_set_role(r, key, HMB_ROLE_CONTEXT);
}

void hmb_context_bool(struct hmb_record *r, const char *key, int value)
{
	hmb_param_bool(r, key, value);
	hmb_param_set_role(r, key, HMB_ROLE_CONTEXT);
}

void hmb_param_gpu(struct hmb_record *r, const char *key, int gpu)
{
	hmb_param_num(r, key, gpu);
	hmb_param_set_role(r, key, HMB_ROLE_GPU);
}

void hmb_param_set_role(struct hmb_record *r, const char *key, enum hmb_param_role role)
{
	struct hmb_kv *kv = (struct hmb_kv *)hmb_kv_find(&r->params, key);

	if (!kv)
		return;
	for (size_t i = 0; role == HMB_ROLE_GPU && i < r->params.n; i++)
		if (r->params.v[i].role == HMB_ROLE_GPU)
			r->params.v[i].role = HMB_ROLE_CONTEXT;
	kv->role = role;
}

int hmb_record_param_is_context(const struct hmb_record *r, const char *key)
{
	const struct hmb_kv *kv = hmb_kv_find(&r->params, key);

	return kv && kv->role != HMB_ROLE_IDENTITY;
}

void hmb_metric(struct hmb_record *r, const char *name, double value, const char *unit)
{
	struct hmb_kv *kv = kv_set(&r->metrics, name, HMB_KV_NUM);
	kv->num = value;
	kv->unit = hmb_xstrdup(unit);
}

void hmb_observe_str(struct hmb_record *r, const char *key, const char *value)
{
	kv_set(&r->observed, key, HMB_KV_STR)->str = hmb_xstrdup(value);
}

void hmb_observe_num(struct hmb_record *r, const char *key, double value)
{
	kv_set(&r->observed, key, HMB_KV_NUM)->num = value;
}

void hmb_observe_bool(struct hmb_record *r, const char *key, int value)
{
	kv_set(&r->observed, key, HMB_KV_BOOL)->num = value != 0;
}

void hmb_record_bytes(struct hmb_record *r, double bytes)
{
	r->bytes = bytes;
}

void hmb_record_ops(struct hmb_record *r, double ops)
{
	r->ops = ops;
}

void hmb_record_peak(struct hmb_record *r, double gbps)
{
	r->peak_gbps = gbps;
}

void hmb_sample(struct hmb_record *r, double seconds)
{
	if (r->nsamples == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->samples = hmb_xrealloc(r->samples, r->cap * sizeof(*r->samples));
	}
	r->samples[r->nsamples++] = seconds;
}

void hmb_record_status(struct hmb_record *r, enum hmb_status status, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* The first failure explains the record; keep it. */
	if (r->status == HMB_FAILED && status == HMB_FAILED)
		return;
	free(r->reason);
	r->reason = hmb_xstrdup(buf);
	r->status = status;
}

const char *hmb_status_name(enum hmb_status s)
{
	switch (s) {
	case HMB_OK: return "ok";
	case HMB_UNSUPPORTED: return "unsupported";
	case HMB_FAILED: return "failed";
	case HMB_SKIPPED: return "skipped";
	}
	return "unknown";
}

void hmb_record_summarize(const struct hmb_record *r, struct hmb_summary *out)
{
	memset(out, 0, sizeof(*out));
	if (hmb_stats_compute(r->samples, r->nsamples, &out->stats) != 0)
		return;
	out->has_stats = 1;
	hmb_stability_compute(r->samples, r->nsamples, &out->stability);
	if (r->runs) {
		hmb_stability_shape_within_runs(&out->stability, r->samples, r->runs->samples,
						r->runs->count);
		hmb_stability_resolution(&out->stability,
					 r->runs->judged ? &r->runs->res : NULL);
	}
	if (r->written_stable >= 0 && out->stability.stable >= 0) { /* as its run said */
		out->stability.stable = out->stability.meets_target = r->written_stable;
		if (r->written_reason)
			snprintf(out->stability.reason, sizeof(out->stability.reason), "%s",
				 r->written_reason);
	}
	if (r->bytes > 0 && out->stats.median > 0) {
		out->gbps_median = r->bytes / out->stats.median / 1e9;
		out->gbps_best = r->bytes / out->stats.min / 1e9;
		if (r->peak_gbps > 0)
			out->peak_fraction = out->gbps_median / r->peak_gbps;
	}
	if (r->ops > 0)
		out->us_per_op_median = out->stats.median / r->ops * 1e6;
}

const struct hmb_kv *hmb_record_gpu_param(const struct hmb_record *r)
{
	for (size_t i = 0; i < r->params.n; i++)
		if (r->params.v[i].role == HMB_ROLE_GPU)
			return &r->params.v[i];
	return NULL;
}

int hmb_record_gpu(const struct hmb_record *r)
{
	const struct hmb_kv *g = hmb_record_gpu_param(r);

	if (g && g->type == HMB_KV_NUM && g->num >= 0 && g->num <= 1000000 && g->num == floor(g->num))
		return (int)g->num;
	return -1;
}
