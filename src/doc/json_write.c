/*
 * json_write.c - a run as its JSON document (docs/schema.md), built from the
 * report with cJSON and written through an atomic file write (atomic_file.c).
 */
#include "doc/json_write.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/atomic_file.h"
#include "engine/report.h"
#include "platform/hip.h"
#include "stats/resolution.h"
#include "stats/stability.h"
#include "util/sizes.h"
#include "util/text.h"
#include "util/util.h"
#include "util/version.h"

/* Outside text (argv, environment, host files) as valid UTF-8. */
static void add_text(cJSON *o, const char *key, const char *s)
{
	char *valid = hmb_utf8_valid(s);
	cJSON_AddStringToObject(o, key, valid);
	free(valid);
}

/* -1 (unknown) becomes null */
void hmb_json_add_int(cJSON *o, const char *key, long v)
{
	if (v < 0)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, (double)v);
}

void hmb_json_add_bool(cJSON *o, const char *key, int v)
{
	if (v < 0)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddBoolToObject(o, key, v != 0);
}

void hmb_json_add_str(cJSON *o, const char *key, const char *s)
{
	if (!s || !*s)
		cJSON_AddNullToObject(o, key);
	else
		add_text(o, key, s);
}

void hmb_json_add_positive(cJSON *o, const char *key, double v)
{
	if (v > 0)
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}


static cJSON *host_json(const struct hmb_host *h)
{
	cJSON *o = cJSON_CreateObject();
	hmb_json_add_str(o, "hostname", h->hostname);
	hmb_json_add_str(o, "os", h->os);
	hmb_json_add_str(o, "kernel", h->kernel);
	hmb_json_add_str(o, "cpu_model", h->cpu_model);
	hmb_json_add_int(o, "cpus_online", h->cpus_online);
	hmb_json_add_int(o, "numa_nodes", h->numa_nodes);
	hmb_json_add_positive(o, "memory_bytes", (double)h->memory_bytes);
	hmb_json_add_str(o, "transparent_hugepages", h->thp);
	hmb_json_add_int(o, "numa_balancing", h->numa_balancing);
	hmb_json_add_str(o, "transparent_hugepages_defrag", h->thp_defrag);
	hmb_json_add_str(o, "cpu_governor", h->cpu_governor);
	hmb_json_add_int(o, "iommu_units", h->iommu_units);
	hmb_json_add_str(o, "iommu_kernel_options", h->iommu_options);
	return o;
}

static cJSON *node_list(const struct hmb_nodes *s)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < s->n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(s->id[i]));
	return a;
}

/* Where the process and its memory were, as read back (numa_place.h). */
static cJSON *placement_json(const struct hmb_report *rep)
{
	const struct hmb_where *w = &rep->where;
	cJSON *o;

	if (!rep->have_where)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	hmb_json_add_int(o, "gpu_numa_node", w->gpu_node);
	hmb_json_add_str(o, "gpu_local_cpus", w->gpu_cpus);
	hmb_json_add_str(o, "cpus_allowed", w->cpus);
	cJSON_AddItemToObject(o, "cpus_numa_nodes", node_list(&w->cpu_nodes));
	cJSON_AddItemToObject(o, "mems_allowed", node_list(&w->mems));
	hmb_json_add_str(o, "memory_policy", w->policy);
	cJSON_AddItemToObject(o, "memory_policy_nodes", node_list(&w->policy_nodes));
	hmb_json_add_int(o, "page_node", w->page_node);
	return o;
}

static cJSON *link_json(const struct hmb_link *l)
{
	cJSON *o = cJSON_CreateObject();
	hmb_json_add_int(o, "generation", l->gen);
	hmb_json_add_int(o, "width", l->width);
	hmb_json_add_int(o, "max_generation", l->max_gen);
	hmb_json_add_int(o, "max_width", l->max_width);
	hmb_json_add_positive(o, "transfer_rate_gts", l->gts);
	hmb_json_add_positive(o, "peak_gbps_per_direction", l->peak_gbps);
	hmb_json_add_str(o, "source", l->source);
	hmb_json_add_positive(o, "max_payload_bytes", l->max_payload);
	hmb_json_add_positive(o, "max_payload_supported_bytes", l->max_payload_supported);
	hmb_json_add_positive(o, "max_read_request_bytes", l->max_read_request);
	hmb_json_add_str(o, "config_space_note", l->config_note);
	hmb_json_add_str(o, "iommu_domain", l->iommu_domain);
	return o;
}

/* The interpretation of memmodel.h: APU, managed access, host link and the
 * peak used, copy engines and path, queues, memory kinds. */
static void memory_model_json(cJSON *o, const struct hmb_device *d)
{
	const struct hmb_memmodel *m = &d->model;
	cJSON *x, *a;

	cJSON_AddBoolToObject(o, "apu", m->apu != 0);
	x = cJSON_AddObjectToObject(o, "managed_access");
	cJSON_AddStringToObject(x, "mode", hmb_access_name(m->managed_access));
	hmb_json_add_str(x, "reason", m->managed_reason);
	x = cJSON_AddObjectToObject(o, "system_allocator");
	hmb_json_add_bool(x, "kernels_use_malloc", m->system_allocator);
	hmb_json_add_str(x, "reason", m->system_allocator_reason);
	x = cJSON_AddObjectToObject(o, "host_link");
	cJSON_AddStringToObject(x, "kind", hmb_link_kind_name(m->link_kind));
	hmb_json_add_str(x, "reason", m->link_reason);
	hmb_json_add_positive(x, "peak_gbps", m->peak_gbps);
	hmb_json_add_str(x, "peak_source", m->peak_gbps > 0 ? m->peak_source : NULL);
	hmb_json_add_str(x, "no_peak_reason", m->peak_gbps > 0 ? NULL : m->peak_reason);
	hmb_json_add_positive(x, "driver_reported_gbps", m->link_reported_gbps);
	x = cJSON_AddObjectToObject(o, "copy_engines");
	hmb_json_add_int(x, "count", m->copy_engines);
	hmb_json_add_str(x, "source", m->copy_engines_source);
	hmb_json_add_str(x, "copy_path", m->copy_path);
	x = cJSON_AddObjectToObject(o, "hardware_queues");
	hmb_json_add_int(x, "count", m->hw_queues);
	hmb_json_add_str(x, "source", m->hw_queues_source);
	a = cJSON_AddArrayToObject(o, "memory_kinds");
	for (int k = 0; k < HMB_KIND_COUNT; k++) {
		const struct hmb_kind_info *ki = &m->kinds[k];
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "kind", hmb_kind_name((enum hmb_mem_kind)k));
		cJSON_AddStringToObject(e, "memory", ki->host ? "host" :
					k == HMB_KIND_MANAGED || k == HMB_KIND_MANAGED_COARSE_GRAINED ?
					"managed" : "device");
		hmb_json_add_str(e, "api", ki->api);
		cJSON_AddBoolToObject(e, "supported", ki->supported != 0);
		hmb_json_add_str(e, "coherence", ki->coherence);
		hmb_json_add_str(e, "reason", ki->supported ? NULL : ki->reason);
		cJSON_AddItemToArray(a, e);
	}
}

static cJSON *device_json(const struct hmb_device *d)
{
	cJSON *o = cJSON_CreateObject(), *x, *v;

	hmb_json_add_int(o, "ordinal", d->ordinal);
	hmb_json_add_int(o, "count", d->count);
	hmb_json_add_str(o, "name", d->name);
	hmb_json_add_str(o, "arch", d->arch);
	hmb_json_add_str(o, "pci_bus_id", d->pci_bus_id);
	hmb_json_add_positive(o, "total_memory_bytes", (double)d->total_mem);
	hmb_json_add_positive(o, "free_memory_bytes_at_start", (double)d->free_mem);
	hmb_json_add_int(o, "compute_units", d->compute_units);
	hmb_json_add_int(o, "l2_cache_bytes", d->l2_bytes);
	hmb_json_add_int(o, "memory_bus_width_bits", d->memory_bus_width_bits);
	hmb_json_add_int(o, "memory_clock_khz", d->memory_clock_khz);
	hmb_json_add_int(o, "async_engine_count", d->async_engines);
	hmb_json_add_bool(o, "concurrent_kernels", d->concurrent_kernels);
	hmb_json_add_bool(o, "integrated", d->integrated);
	hmb_json_add_bool(o, "managed_memory", d->managed_memory);
	hmb_json_add_bool(o, "concurrent_managed_access", d->concurrent_managed_access);
	hmb_json_add_bool(o, "pageable_memory_access", d->pageable_memory_access);
	hmb_json_add_bool(o, "pageable_memory_access_uses_host_page_tables",
		 d->pageable_uses_host_page_tables);
	hmb_json_add_bool(o, "direct_managed_access_from_host", d->direct_managed_access_from_host);
	hmb_json_add_bool(o, "can_map_host_memory", d->can_map_host_memory);
	hmb_json_add_bool(o, "host_register", d->host_register);
	hmb_json_add_bool(o, "memory_pools", d->memory_pools);
	hmb_json_add_bool(o, "fine_grained_memory", d->fine_grained);
	v = cJSON_AddObjectToObject(o, "vmm");
	hmb_json_add_bool(v, "supported", HMB_HAVE_VMM ? d->vmm : 0);
	hmb_json_add_bool(v, "compiled_in", HMB_HAVE_VMM);
	hmb_json_add_positive(v, "granularity_min_bytes", (double)d->vmm_granularity_min);
	hmb_json_add_positive(v, "granularity_recommended_bytes", (double)d->vmm_granularity_recommended);
	x = cJSON_AddObjectToObject(o, "xnack");
	hmb_json_add_bool(x, "arch_xnack", d->xnack_arch);
	hmb_json_add_str(x, "HSA_XNACK", getenv("HSA_XNACK"));
	hmb_json_add_bool(x, "enabled", d->model.xnack);
	hmb_json_add_str(x, "evidence", d->model.xnack_evidence);
	cJSON_AddItemToObject(o, "pcie_link", link_json(&d->link));
	memory_model_json(o, d);
	return o;
}

cJSON *hmb_json_kv(const struct hmb_kvlist *l, int with_units)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; i < l->n; i++) {
		const struct hmb_kv *kv = &l->v[i];
		cJSON *item;
		if (kv->type == HMB_KV_STR)
			item = cJSON_CreateString(kv->str);
		else if (kv->type == HMB_KV_BOOL)
			item = cJSON_CreateBool(kv->num != 0);
		else
			item = cJSON_CreateNumber(kv->num);
		if (with_units) {
			cJSON *m = cJSON_CreateObject();
			cJSON_AddItemToObject(m, "value", item);
			hmb_json_add_str(m, "unit", kv->unit);
			item = m;
		}
		cJSON_AddItemToObject(o, kv->key, item);
	}
	return o;
}

/* Does the median repeat: its interval and the stable mark (stability.h). */
static cJSON *stability_json(const struct hmb_stability *st)
{
	cJSON *o = cJSON_CreateObject(), *a;

	cJSON_AddStringToObject(o, "method", HMB_CI_METHOD);
	cJSON_AddNumberToObject(o, "count", (double)st->count);
	if (st->has_ci) {
		cJSON_AddNumberToObject(o, "confidence", st->coverage);
		a = cJSON_AddArrayToObject(o, "ci_ranks");
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)st->lo_rank));
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)st->hi_rank));
		cJSON_AddNumberToObject(o, "ci_low_s", st->ci_low);
		cJSON_AddNumberToObject(o, "ci_high_s", st->ci_high);
		cJSON_AddNumberToObject(o, "half_width_rel", st->half_width_rel);
	} else {
		cJSON_AddNullToObject(o, "confidence");
		cJSON_AddNullToObject(o, "ci_ranks");
		cJSON_AddNullToObject(o, "ci_low_s");
		cJSON_AddNullToObject(o, "ci_high_s");
		cJSON_AddNullToObject(o, "half_width_rel");
	}
	/* too few samples to judge is not stable: the reason says why */
	hmb_json_add_bool(o, "stable", st->stable > 0);
	hmb_json_add_bool(o, "meets_target", st->meets_target > 0);
	cJSON_AddStringToObject(o, "reason", st->reason);
	return o;
}

/* Drift in time, two groups, outliers: null where there are too few samples. */
static cJSON *shape_json(const struct hmb_stability *st)
{
	cJSON *o, *t, *b;

	if (st->shape == HMB_SHAPE_UNJUDGED)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", hmb_shape_name(st->shape));
	t = cJSON_AddObjectToObject(o, "trend");
	cJSON_AddStringToObject(t, "method", HMB_TREND_METHOD);
	cJSON_AddNumberToObject(t, "s", st->mk_s);
	cJSON_AddNumberToObject(t, "z", st->mk_z);
	cJSON_AddNumberToObject(t, "p", st->mk_p);
	if (isfinite(st->halves_p))
		cJSON_AddNumberToObject(t, "halves_p", st->halves_p);
	else
		cJSON_AddNullToObject(t, "halves_p");
	cJSON_AddNumberToObject(t, "half_change_rel", st->half_change_rel);
	b = cJSON_AddObjectToObject(o, "bimodality");
	cJSON_AddStringToObject(b, "method", HMB_BIMODAL_METHOD);
	cJSON_AddNumberToObject(b, "gap_rel", st->gap_rel);
	cJSON_AddNumberToObject(b, "samples_below_gap", (double)st->gap_below);
	if (isfinite(st->gap_ratio))
		cJSON_AddNumberToObject(b, "gap_to_spread", st->gap_ratio);
	else
		cJSON_AddNullToObject(b, "gap_to_spread");
	cJSON_AddNumberToObject(o, "outliers", (double)st->outliers);
	return o;
}

/* The rule every record's stability and shape follow, once per document. */
cJSON *hmb_json_stability_rule(void)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "interval", HMB_CI_METHOD);
	cJSON_AddNumberToObject(o, "confidence", HMB_STABLE_CONFIDENCE);
	cJSON_AddNumberToObject(o, "min_samples", HMB_STABLE_MIN_SAMPLES);
	cJSON_AddNumberToObject(o, "threshold_rel", HMB_STABLE_THRESHOLD_REL);
	cJSON_AddNumberToObject(o, "target_rel", HMB_STABLE_TARGET_REL);
	cJSON_AddStringToObject(o, "resolution", HMB_RESOLUTION_METHOD);
	cJSON_AddNumberToObject(o, "resolution_confidence", HMB_RESOLUTION_CONFIDENCE);
	cJSON_AddNumberToObject(o, "resolution_stable_rel", HMB_RESOLUTION_STABLE_REL);
	cJSON_AddNumberToObject(o, "neighbours", HMB_NOISE_NEIGHBOURS);
	cJSON_AddStringToObject(o, "stable_if", "several runs: the resolution (runs.resolution."
				"resolution_rel: t(resolution_confidence, df) * sqrt(2) * sigma_rel, "
				"sigma_rel the noise of the figure's mean over its runs, or over its "
				"documents where it holds several) is within resolution_stable_rel; "
				"one run: the interval's half-width, relative to the median, within "
				"threshold_rel (the samples of one process alone)");
	cJSON_AddStringToObject(o, "trend", HMB_TREND_METHOD);
	cJSON_AddNumberToObject(o, "drift_p", HMB_DRIFT_P);
	cJSON_AddNumberToObject(o, "drift_min_rel", HMB_DRIFT_MIN_REL);
	cJSON_AddStringToObject(o, "bimodality", HMB_BIMODAL_METHOD);
	cJSON_AddNumberToObject(o, "bimodal_gap_rel", HMB_BIMODAL_GAP_REL);
	cJSON_AddNumberToObject(o, "bimodal_gap_to_spread", HMB_BIMODAL_GAP_TO_SPREAD);
	cJSON_AddNumberToObject(o, "outlier_rel", HMB_OUTLIER_REL);
	return o;
}

/* name: v, or null where it is not finite (a weight past any count). */
static void finite_or_null(cJSON *o, const char *name, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, name, v);
	else
		cJSON_AddNullToObject(o, name);
}

/* One level of a figure's noise (stats/resolution.h): its own spread there,
 * the figures alike, the two weighed together. */
static cJSON *noise_level_json(const struct hmb_noise_level *l)
{
	cJSON *o = cJSON_CreateObject();

	finite_or_null(o, "sigma_rel", l->sigma);
	finite_or_null(o, "df", l->df);
	finite_or_null(o, "own_sigma_rel", l->own);
	cJSON_AddNumberToObject(o, "own_df", l->own_df);
	finite_or_null(o, "alike_sigma_rel", l->prior);
	finite_or_null(o, "alike_worth", l->prior_df);
	return o;
}

/* A value per run: a number, or null where the run had none. */
static cJSON *per_run(const double *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t k = 0; k < n; k++)
		cJSON_AddItemToArray(a, isfinite(v[k]) ? cJSON_CreateNumber(v[k]) : cJSON_CreateNull());
	return a;
}

/* --runs N: each run's own figures, beside the pooled samples (runs.c). */
static cJSON *runs_json(const struct hmb_run_figures *f)
{
	cJSON *o = cJSON_CreateObject(), *a, *m;

	cJSON_AddNumberToObject(o, "count", (double)f->count);
	a = cJSON_AddArrayToObject(o, "samples");
	for (size_t k = 0; k < f->count; k++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)f->samples[k]));
	cJSON_AddItemToObject(o, "median_s", per_run(f->median, f->count));
	m = cJSON_AddObjectToObject(o, "metrics");
	for (size_t i = 0; i < f->nmetrics; i++)
		cJSON_AddItemToObject(m, f->metric[i].name, per_run(f->metric[i].value, f->count));
	if (f->doc)
		cJSON_AddItemToObject(o, "documents", cJSON_CreateIntArray(f->doc, (int)f->count));
	if (f->judged) {
		const struct hmb_noise_out *r = &f->res;
		char from[192];
		m = cJSON_AddObjectToObject(o, "resolution");
		cJSON_AddNumberToObject(m, "resolution_rel", r->resolution);
		cJSON_AddNumberToObject(m, "sigma_rel", r->sigma);
		finite_or_null(m, "df", r->df);
		cJSON_AddNumberToObject(m, "runs", (double)r->runs);
		cJSON_AddNumberToObject(m, "documents", (double)r->docs);
		cJSON_AddItemToObject(m, "run", noise_level_json(&r->run));
		if (r->docs >= 2)
			cJSON_AddItemToObject(m, "document", noise_level_json(&r->doc));
		else
			cJSON_AddNullToObject(m, "document");
		cJSON_AddStringToObject(m, "from", hmb_noise_source_text(r, from, sizeof(from)));
	}
	return o;
}

/* The roles of r's parameters (engine/record.h): "context", each one that is
 * not identity, the GPU's too, and "gpu_param", the one that names its GPU
 * (absent: none). */
static void roles_json(cJSON *o, const struct hmb_record *r)
{
	cJSON *context = cJSON_AddArrayToObject(o, "context");
	const struct hmb_kv *gpu = hmb_record_gpu_param(r);

	for (size_t i = 0; i < r->params.n; i++)
		if (r->params.v[i].role != HMB_ROLE_IDENTITY)
			cJSON_AddItemToArray(context, cJSON_CreateString(r->params.v[i].key));
	if (gpu)
		cJSON_AddStringToObject(o, "gpu_param", gpu->key);
}

cJSON *hmb_json_record(const struct hmb_record *r)
{
	cJSON *o = cJSON_CreateObject(), *s;
	struct hmb_summary sum;

	hmb_record_summarize(r, &sum);
	cJSON_AddStringToObject(o, "module", r->module);
	cJSON_AddStringToObject(o, "case", r->name);
	cJSON_AddStringToObject(o, "status", hmb_status_name(r->status));
	hmb_json_add_str(o, "reason", r->reason);
	cJSON_AddItemToObject(o, "params", hmb_json_kv(&r->params, 0));
	roles_json(o, r);
	hmb_json_add_positive(o, "bytes", r->bytes);
	hmb_json_add_positive(o, "ops", r->ops);
	/* cJSON_CreateDoubleArray gives NULL for no samples: an empty array then. */
	cJSON_AddItemToObject(o, "samples_s", r->nsamples ? cJSON_CreateDoubleArray(r->samples,
			      (int)r->nsamples) : cJSON_CreateArray());
	if (sum.has_stats) {
		s = cJSON_AddObjectToObject(o, "stats_s");
		cJSON_AddNumberToObject(s, "count", (double)sum.stats.count);
		cJSON_AddNumberToObject(s, "min", sum.stats.min);
		cJSON_AddNumberToObject(s, "median", sum.stats.median);
		cJSON_AddNumberToObject(s, "mean", sum.stats.mean);
		cJSON_AddNumberToObject(s, "max", sum.stats.max);
		cJSON_AddNumberToObject(s, "stddev", sum.stats.stddev);
	} else {
		cJSON_AddNullToObject(o, "stats_s");
	}
	if (sum.has_stats) {
		cJSON_AddItemToObject(o, "stability", stability_json(&sum.stability));
		cJSON_AddItemToObject(o, "shape", shape_json(&sum.stability));
	} else {
		cJSON_AddNullToObject(o, "stability");
		cJSON_AddNullToObject(o, "shape");
	}
	hmb_json_add_positive(o, "gbps_median", sum.gbps_median);
	hmb_json_add_positive(o, "gbps_best", sum.gbps_best);
	hmb_json_add_positive(o, "us_per_op_median", sum.us_per_op_median);
	hmb_json_add_positive(o, "peak_gbps", r->peak_gbps);
	hmb_json_add_positive(o, "peak_fraction", sum.peak_fraction);
	cJSON_AddItemToObject(o, "metrics", hmb_json_kv(&r->metrics, 1));
	cJSON_AddItemToObject(o, "observed", hmb_json_kv(&r->observed, 0));
	if (r->runs)
		cJSON_AddItemToObject(o, "runs", runs_json(r->runs));
	return o;
}

static void add_reading(cJSON *o, const char *key, double v)
{
	if (v < 0)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, v);
}

static cJSON *telemetry_json(const struct hmb_report *rep)
{
	const struct hmb_telemetry *t = &rep->telemetry;
	cJSON *o = cJSON_CreateObject(), *a, *flags;

	hmb_json_add_str(o, "source", t->source);
	cJSON_AddBoolToObject(o, "available", t->available != 0);
	hmb_json_add_str(o, "reason", t->reason);  /* with telemetry: what came from elsewhere */
	hmb_json_add_str(o, "processes_source", t->procs_source);
	a = cJSON_AddArrayToObject(o, "samples");
	for (int i = 0; i < t->n; i++) {
		const struct hmb_gpu_sample *s = &t->s[i];
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "module", s->module);
		cJSON_AddStringToObject(x, "when", s->when);
		add_reading(x, "sm_clock_mhz", s->sm_clock_mhz);
		add_reading(x, "memory_clock_mhz", s->mem_clock_mhz);
		add_reading(x, "temperature_c", s->temperature_c);
		add_reading(x, "power_w", s->power_w);
		hmb_json_add_int(x, "pcie_generation", s->link_gen);
		hmb_json_add_int(x, "pcie_width", s->link_width);
		hmb_json_add_int(x, "pcie_max_generation", s->link_max_gen);
		hmb_json_add_int(x, "pcie_max_width", s->link_max_width);
		hmb_json_add_int(x, "throttle_reasons_mask", s->throttle_mask);
		hmb_json_add_str(x, "throttle_reasons", s->throttle_mask >= 0 ? s->throttle : NULL);
		hmb_json_add_bool(x, "throttled", s->throttled);
		if (s->nprocs < 0) {
			cJSON_AddNullToObject(x, "processes");
		} else {
			cJSON *p = cJSON_AddArrayToObject(x, "processes");
			for (int k = 0; k < s->nprocs && k < HMB_GPU_PROCS_MAX; k++) {
				cJSON *q = cJSON_CreateObject();
				cJSON_AddNumberToObject(q, "pid", (double)s->procs[k].pid);
				hmb_json_add_int(q, "used_memory_bytes", (long)s->procs[k].used_bytes);
				cJSON_AddBoolToObject(q, "own", s->procs[k].own != 0);
				cJSON_AddItemToArray(p, q);
			}
			cJSON_AddNumberToObject(x, "processes_count", s->nprocs);
		}
		cJSON_AddItemToArray(a, x);
	}
	flags = cJSON_AddArrayToObject(o, "module_flags");
	for (int i = 0; i < rep->nmodules; i++) {
		int throttled, slow;
		cJSON *x = cJSON_CreateObject();
		hmb_telemetry_flags(t, rep->modules[i], &throttled, &slow);
		cJSON_AddStringToObject(x, "module", rep->modules[i]);
		hmb_json_add_bool(x, "throttled", throttled);
		hmb_json_add_bool(x, "link_below_max", slow);
		{
			long pids[HMB_GPU_PROCS_MAX];
			int unsure, n = hmb_telemetry_others(t, rep->modules[i], pids, NULL,
							     HMB_GPU_PROCS_MAX, &unsure);
			if (n < 0) {
				cJSON_AddNullToObject(x, "gpu_shared_with");
			} else {
				cJSON *p = cJSON_AddArrayToObject(x, "gpu_shared_with");
				for (int k = 0; k < n; k++)
					cJSON_AddItemToArray(p, cJSON_CreateNumber((double)pids[k]));
				cJSON_AddBoolToObject(x, "gpu_shared_by_count", unsure != 0);
			}
		}
		cJSON_AddItemToArray(flags, x);
	}
	return o;
}

static cJSON *settings_json(const struct hmb_options *opt)
{
	cJSON *o = cJSON_CreateObject(), *m;

	cJSON_AddNumberToObject(o, "device", opt->device);
	if (opt->sizes.n) {
		cJSON *a = cJSON_AddArrayToObject(o, "sizes");
		for (size_t i = 0; i < opt->sizes.n; i++)
			cJSON_AddItemToArray(a, cJSON_CreateNumber((double)opt->sizes.v[i]));
	} else {
		cJSON_AddNullToObject(o, "sizes");
	}
	hmb_json_add_int(o, "reps", opt->reps > 0 ? opt->reps : -1);
	hmb_json_add_int(o, "warmup", opt->warmup);
	cJSON_AddNumberToObject(o, "runs", opt->runs > 1 ? opt->runs : 1);
	cJSON_AddBoolToObject(o, "quick", opt->quick != 0);
	cJSON_AddBoolToObject(o, "dry_run", opt->dry_run != 0);
	if (opt->devices) {
		cJSON_AddStringToObject(o, "devices", opt->devices);
		cJSON_AddStringToObject(o, "together", hmb_together_name(opt->together));
	}
	hmb_json_add_positive(o, "oversubscribe", opt->oversubscribe);
	m = cJSON_AddObjectToObject(o, "module_options");
	for (int i = 0; i < opt->nvalues; i++)
		cJSON_AddStringToObject(m, opt->value_name[i], opt->value[i]);
	return o;
}

cJSON *hmb_json_doc(const struct hmb_report *rep)
{
	cJSON *doc = cJSON_CreateObject(), *t, *a, *env, *rt, *x;

	cJSON_AddNumberToObject(doc, "schema_version", HMB_SCHEMA_VERSION);
	t = cJSON_AddObjectToObject(doc, "tool");
	cJSON_AddStringToObject(t, "name", "hipmembench");
	cJSON_AddStringToObject(t, "version", HMB_VERSION);
	cJSON_AddStringToObject(t, "git_revision", HMB_GIT_REVISION);
	cJSON_AddStringToObject(doc, "command", rep->command ? rep->command : "");
	a = cJSON_AddArrayToObject(doc, "command_line");
	for (int i = 0; rep->opt && i < rep->opt->argc; i++) {
		char *valid = hmb_utf8_valid(rep->opt->argv[i]);
		cJSON_AddItemToArray(a, cJSON_CreateString(valid));
		free(valid);
	}
	cJSON_AddStringToObject(doc, "started_utc", rep->started_utc);
	cJSON_AddBoolToObject(doc, "complete", rep->complete != 0);
	cJSON_AddBoolToObject(doc, "interrupted", rep->interrupted != 0);
	if (rep->opt)
		cJSON_AddItemToObject(doc, "settings", settings_json(rep->opt));
	cJSON_AddStringToObject(doc, "platform", HMB_PLATFORM_NAME);
	cJSON_AddItemToObject(doc, "host", host_json(&rep->host));
	cJSON_AddItemToObject(doc, "placement", placement_json(rep));
	rt = cJSON_AddObjectToObject(doc, "runtime");
	hmb_json_add_int(rt, "runtime_version",
			 rep->device.runtime_version > 0 ? rep->device.runtime_version : -1);
	hmb_json_add_int(rt, "driver_version",
			 rep->device.driver_version > 0 ? rep->device.driver_version : -1);
	if (rep->have_device)
		cJSON_AddItemToObject(doc, "device", device_json(&rep->device));
	else if (rep->ndevices && (x = cJSON_Duplicate(rep->devices[0], 1)))
		cJSON_AddItemToObject(doc, "device", x);
	else
		cJSON_AddNullToObject(doc, "device");
	if (rep->ndevices > 1) { /* --devices: every GPU measured */
		a = cJSON_AddArrayToObject(doc, "devices");
		for (int i = 0; i < rep->ndevices; i++)
			if ((x = cJSON_Duplicate(rep->devices[i], 1)))
				cJSON_AddItemToArray(a, x);
	}
	env = cJSON_AddObjectToObject(doc, "environment");
	for (int i = 0; hmb_env_recorded[i]; i++)
		hmb_json_add_str(env, hmb_env_recorded[i], getenv(hmb_env_recorded[i]));
	a = cJSON_AddArrayToObject(doc, "modules");
	for (int i = 0; i < rep->nmodules; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(rep->modules[i]));
	a = cJSON_AddArrayToObject(doc, "module_runs");
	for (int i = 0; i < rep->nruns; i++) {
		const struct hmb_module_run *m = &rep->runs[i];
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "module", m->name);
		cJSON_AddNumberToObject(x, "order", i + 1);
		cJSON_AddNumberToObject(x, "wall_s", m->wall_s);
		cJSON_AddStringToObject(x, "process", m->isolated ? "own" : "shared");
		hmb_json_add_int(x, "exit_status", m->exit_status);
		hmb_json_add_int(x, "device", m->device);
		if (m->env_var[0]) {
			cJSON *e = cJSON_AddObjectToObject(x, "environment");
			cJSON_AddStringToObject(e, m->env_var, m->env_value);
			cJSON_AddStringToObject(x, "environment_from", m->env_set ? "all" : "user");
		}
		if (m->note)
			cJSON_AddStringToObject(x, "plan", m->note);
		if (m->run)
			cJSON_AddNumberToObject(x, "run", m->run);
		if (m->beside[0])
			cJSON_AddStringToObject(x, "beside_gpus", m->beside);
		cJSON_AddItemToArray(a, x);
	}
	cJSON_AddItemToObject(doc, "telemetry", telemetry_json(rep));
	cJSON_AddItemToObject(doc, "stability_rule", hmb_json_stability_rule());
	if (rep->summary_json)
		cJSON_AddItemReferenceToObject(doc, "summary", rep->summary_json);
	a = cJSON_AddArrayToObject(doc, "results");
	for (const struct hmb_record *r = rep->head; r; r = r->next)
		cJSON_AddItemToArray(a, hmb_json_record(r));
	return doc;
}

char *hmb_json_render(const struct hmb_report *rep)
{
	cJSON *doc = hmb_json_doc(rep);
	char *text = cJSON_Print(doc);

	cJSON_Delete(doc);
	return text;
}

int hmb_json_write(const struct hmb_report *rep, const char *path, char *err, size_t errlen)
{
	char *text = hmb_json_render(rep);
	int rc;

	if (!text) {
		snprintf(err, errlen, "cannot render JSON: out of memory");
		return -1;
	}
	if (strcmp(path, "-") == 0) {
		rc = fputs(text, stdout) >= 0 && fputc('\n', stdout) != EOF ? 0 : -1;
		if (rc)
			snprintf(err, errlen, "cannot write JSON to stdout: %s", strerror(errno));
	} else {
		rc = hmb_write_text_file(path, text, err, errlen);
	}
	free(text);
	return rc;
}
