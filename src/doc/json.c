/*
 * json.c - with json_stream.c, the only file that talks to cJSON: the run
 * document is built here from the report (schema in docs/schema.md) and
 * written atomically (a temporary file beside it, fsynced, renamed over it,
 * the directory fsynced); documents are read back here for compare, checked
 * before any use, one result at a time (json_stream.c) so that a document of
 * 300 000 results reads in seconds.
 */
#define _DEFAULT_SOURCE /* MAP_POPULATE */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "doc/json_stream.h"
#include "doc/load_fast.h"
#include "doc/loaded.h"
#include "engine/report.h"
#include "output/summary.h"
#include "platform/hip.h"
#include "stats/stability.h"
#include "util/sizes.h"
#include "util/text.h"
#include "util/util.h"
#include "util/version.h"

/* A document larger than this is not one hipmembench wrote. */
#define DOC_MAX_BYTES ((size_t)512 << 20)
/* What a temporary file name adds to the document's: ".tmp.", a pid, "." and
 * TMP_RANDOM random letters (make_tmp). */
#define TMP_RANDOM 6
#define TMP_SUFFIX_MAX 24

/* Outside text (argv, environment, host files) as valid UTF-8. */
static void add_text(cJSON *o, const char *key, const char *s)
{
	char *valid = hmb_utf8_valid(s);
	cJSON_AddStringToObject(o, key, valid);
	free(valid);
}

/* -1 (unknown) becomes null */
static void add_int(cJSON *o, const char *key, long v)
{
	if (v < 0)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, (double)v);
}

static void add_bool(cJSON *o, const char *key, int v)
{
	if (v < 0)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddBoolToObject(o, key, v != 0);
}

static void add_str(cJSON *o, const char *key, const char *s)
{
	if (!s || !*s)
		cJSON_AddNullToObject(o, key);
	else
		add_text(o, key, s);
}

static void add_positive(cJSON *o, const char *key, double v)
{
	if (v > 0)
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *host_json(const struct hmb_host *h)
{
	cJSON *o = cJSON_CreateObject();
	add_str(o, "hostname", h->hostname);
	add_str(o, "os", h->os);
	add_str(o, "kernel", h->kernel);
	add_str(o, "cpu_model", h->cpu_model);
	add_int(o, "cpus_online", h->cpus_online);
	add_int(o, "numa_nodes", h->numa_nodes);
	add_positive(o, "memory_bytes", (double)h->memory_bytes);
	add_str(o, "transparent_hugepages", h->thp);
	add_int(o, "numa_balancing", h->numa_balancing);
	add_str(o, "transparent_hugepages_defrag", h->thp_defrag);
	add_str(o, "cpu_governor", h->cpu_governor);
	add_int(o, "iommu_units", h->iommu_units);
	add_str(o, "iommu_kernel_options", h->iommu_options);
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
	add_int(o, "gpu_numa_node", w->gpu_node);
	add_str(o, "gpu_local_cpus", w->gpu_cpus);
	add_str(o, "cpus_allowed", w->cpus);
	cJSON_AddItemToObject(o, "cpus_numa_nodes", node_list(&w->cpu_nodes));
	cJSON_AddItemToObject(o, "mems_allowed", node_list(&w->mems));
	add_str(o, "memory_policy", w->policy);
	cJSON_AddItemToObject(o, "memory_policy_nodes", node_list(&w->policy_nodes));
	add_int(o, "page_node", w->page_node);
	return o;
}

static cJSON *link_json(const struct hmb_link *l)
{
	cJSON *o = cJSON_CreateObject();
	add_int(o, "generation", l->gen);
	add_int(o, "width", l->width);
	add_int(o, "max_generation", l->max_gen);
	add_int(o, "max_width", l->max_width);
	add_positive(o, "transfer_rate_gts", l->gts);
	add_positive(o, "peak_gbps_per_direction", l->peak_gbps);
	add_str(o, "source", l->source);
	add_positive(o, "max_payload_bytes", l->max_payload);
	add_positive(o, "max_payload_supported_bytes", l->max_payload_supported);
	add_positive(o, "max_read_request_bytes", l->max_read_request);
	add_str(o, "config_space_note", l->config_note);
	add_str(o, "iommu_domain", l->iommu_domain);
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
	add_str(x, "reason", m->managed_reason);
	x = cJSON_AddObjectToObject(o, "system_allocator");
	add_bool(x, "kernels_use_malloc", m->system_allocator);
	add_str(x, "reason", m->system_allocator_reason);
	x = cJSON_AddObjectToObject(o, "host_link");
	cJSON_AddStringToObject(x, "kind", hmb_link_kind_name(m->link_kind));
	add_str(x, "reason", m->link_reason);
	add_positive(x, "peak_gbps", m->peak_gbps);
	add_str(x, "peak_source", m->peak_gbps > 0 ? m->peak_source : NULL);
	add_str(x, "no_peak_reason", m->peak_gbps > 0 ? NULL : m->peak_reason);
	add_positive(x, "driver_reported_gbps", m->link_reported_gbps);
	x = cJSON_AddObjectToObject(o, "copy_engines");
	add_int(x, "count", m->copy_engines);
	add_str(x, "source", m->copy_engines_source);
	add_str(x, "copy_path", m->copy_path);
	x = cJSON_AddObjectToObject(o, "hardware_queues");
	add_int(x, "count", m->hw_queues);
	add_str(x, "source", m->hw_queues_source);
	a = cJSON_AddArrayToObject(o, "memory_kinds");
	for (int k = 0; k < HMB_KIND_COUNT; k++) {
		const struct hmb_kind_info *ki = &m->kinds[k];
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "kind", hmb_kind_name((enum hmb_mem_kind)k));
		cJSON_AddStringToObject(e, "memory", ki->host ? "host" :
					k == HMB_KIND_MANAGED || k == HMB_KIND_MANAGED_COARSE_GRAINED ?
					"managed" : "device");
		add_str(e, "api", ki->api);
		cJSON_AddBoolToObject(e, "supported", ki->supported != 0);
		add_str(e, "coherence", ki->coherence);
		add_str(e, "reason", ki->supported ? NULL : ki->reason);
		cJSON_AddItemToArray(a, e);
	}
}

static cJSON *device_json(const struct hmb_device *d)
{
	cJSON *o = cJSON_CreateObject(), *x, *v;

	add_int(o, "ordinal", d->ordinal);
	add_int(o, "count", d->count);
	add_str(o, "name", d->name);
	add_str(o, "arch", d->arch);
	add_str(o, "pci_bus_id", d->pci_bus_id);
	add_positive(o, "total_memory_bytes", (double)d->total_mem);
	add_positive(o, "free_memory_bytes_at_start", (double)d->free_mem);
	add_int(o, "compute_units", d->compute_units);
	add_int(o, "l2_cache_bytes", d->l2_bytes);
	add_int(o, "memory_bus_width_bits", d->memory_bus_width_bits);
	add_int(o, "memory_clock_khz", d->memory_clock_khz);
	add_int(o, "async_engine_count", d->async_engines);
	add_bool(o, "concurrent_kernels", d->concurrent_kernels);
	add_bool(o, "integrated", d->integrated);
	add_bool(o, "managed_memory", d->managed_memory);
	add_bool(o, "concurrent_managed_access", d->concurrent_managed_access);
	add_bool(o, "pageable_memory_access", d->pageable_memory_access);
	add_bool(o, "pageable_memory_access_uses_host_page_tables",
		 d->pageable_uses_host_page_tables);
	add_bool(o, "direct_managed_access_from_host", d->direct_managed_access_from_host);
	add_bool(o, "can_map_host_memory", d->can_map_host_memory);
	add_bool(o, "host_register", d->host_register);
	add_bool(o, "memory_pools", d->memory_pools);
	add_bool(o, "fine_grained_memory", d->fine_grained);
	v = cJSON_AddObjectToObject(o, "vmm");
	add_bool(v, "supported", HMB_HAVE_VMM ? d->vmm : 0);
	add_bool(v, "compiled_in", HMB_HAVE_VMM);
	add_positive(v, "granularity_min_bytes", (double)d->vmm_granularity_min);
	add_positive(v, "granularity_recommended_bytes", (double)d->vmm_granularity_recommended);
	x = cJSON_AddObjectToObject(o, "xnack");
	add_bool(x, "arch_xnack", d->xnack_arch);
	add_str(x, "HSA_XNACK", getenv("HSA_XNACK"));
	add_bool(x, "enabled", d->model.xnack);
	add_str(x, "evidence", d->model.xnack_evidence);
	cJSON_AddItemToObject(o, "pcie_link", link_json(&d->link));
	memory_model_json(o, d);
	return o;
}

static cJSON *kv_json(const struct hmb_kvlist *l, int with_units)
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
			add_str(m, "unit", kv->unit);
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
	add_bool(o, "stable", st->stable > 0);
	add_bool(o, "meets_target", st->meets_target > 0);
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
static cJSON *stability_rule_json(void)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "interval", HMB_CI_METHOD);
	cJSON_AddNumberToObject(o, "confidence", HMB_STABLE_CONFIDENCE);
	cJSON_AddNumberToObject(o, "min_samples", HMB_STABLE_MIN_SAMPLES);
	cJSON_AddNumberToObject(o, "threshold_rel", HMB_STABLE_THRESHOLD_REL);
	cJSON_AddNumberToObject(o, "target_rel", HMB_STABLE_TARGET_REL);
	cJSON_AddStringToObject(o, "stable_if", "the interval's half-width, relative to the "
				"median, is within threshold_rel (target_rel is the aim; "
				"meets_target says whether it is met)");
	cJSON_AddStringToObject(o, "trend", HMB_TREND_METHOD);
	cJSON_AddNumberToObject(o, "drift_p", HMB_DRIFT_P);
	cJSON_AddNumberToObject(o, "drift_min_rel", HMB_DRIFT_MIN_REL);
	cJSON_AddStringToObject(o, "bimodality", HMB_BIMODAL_METHOD);
	cJSON_AddNumberToObject(o, "bimodal_gap_rel", HMB_BIMODAL_GAP_REL);
	cJSON_AddNumberToObject(o, "bimodal_gap_to_spread", HMB_BIMODAL_GAP_TO_SPREAD);
	cJSON_AddNumberToObject(o, "outlier_rel", HMB_OUTLIER_REL);
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
	return o;
}

static cJSON *record_json(const struct hmb_record *r)
{
	cJSON *o = cJSON_CreateObject(), *s;
	struct hmb_summary sum;

	hmb_record_summarize(r, &sum);
	cJSON_AddStringToObject(o, "module", r->module);
	cJSON_AddStringToObject(o, "case", r->name);
	cJSON_AddStringToObject(o, "status", hmb_status_name(r->status));
	add_str(o, "reason", r->reason);
	cJSON_AddItemToObject(o, "params", kv_json(&r->params, 0));
	add_positive(o, "bytes", r->bytes);
	add_positive(o, "ops", r->ops);
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
	add_positive(o, "gbps_median", sum.gbps_median);
	add_positive(o, "gbps_best", sum.gbps_best);
	add_positive(o, "us_per_op_median", sum.us_per_op_median);
	add_positive(o, "peak_gbps", r->peak_gbps);
	add_positive(o, "peak_fraction", sum.peak_fraction);
	cJSON_AddItemToObject(o, "metrics", kv_json(&r->metrics, 1));
	cJSON_AddItemToObject(o, "observed", kv_json(&r->observed, 0));
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

	add_str(o, "source", t->source);
	cJSON_AddBoolToObject(o, "available", t->available != 0);
	add_str(o, "reason", t->available ? NULL : t->reason);
	add_str(o, "processes_source", t->procs_source);
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
		add_int(x, "pcie_generation", s->link_gen);
		add_int(x, "pcie_width", s->link_width);
		add_int(x, "pcie_max_generation", s->link_max_gen);
		add_int(x, "pcie_max_width", s->link_max_width);
		add_int(x, "throttle_reasons_mask", s->throttle_mask);
		add_str(x, "throttle_reasons", s->throttle_mask >= 0 ? s->throttle : NULL);
		add_bool(x, "throttled", s->throttled);
		if (s->nprocs < 0) {
			cJSON_AddNullToObject(x, "processes");
		} else {
			cJSON *p = cJSON_AddArrayToObject(x, "processes");
			for (int k = 0; k < s->nprocs && k < HMB_GPU_PROCS_MAX; k++) {
				cJSON *q = cJSON_CreateObject();
				cJSON_AddNumberToObject(q, "pid", (double)s->procs[k].pid);
				add_int(q, "used_memory_bytes", (long)s->procs[k].used_bytes);
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
		add_bool(x, "throttled", throttled);
		add_bool(x, "link_below_max", slow);
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
	add_int(o, "reps", opt->reps > 0 ? opt->reps : -1);
	add_int(o, "warmup", opt->warmup);
	cJSON_AddNumberToObject(o, "runs", opt->runs > 1 ? opt->runs : 1);
	cJSON_AddBoolToObject(o, "quick", opt->quick != 0);
	cJSON_AddBoolToObject(o, "dry_run", opt->dry_run != 0);
	add_positive(o, "oversubscribe", opt->oversubscribe);
	m = cJSON_AddObjectToObject(o, "module_options");
	for (int i = 0; i < opt->nvalues; i++)
		cJSON_AddStringToObject(m, opt->value_name[i], opt->value[i]);
	return o;
}

/* The summary's figures (summary.h), each with the record it was taken from:
 * module, case and parameters, as the results hold them. */
static cJSON *summary_json(const struct hmb_sum_col *c)
{
	cJSON *o = cJSON_CreateObject(), *a, *x, *n;

	add_int(o, "gpu", c->gpu);
	cJSON_AddNumberToObject(o, "gpus", c->ngpus);
	a = cJSON_AddArrayToObject(o, "figures");
	for (size_t i = 0; i < HMB_MAX_HEADLINES; i++) {
		const struct hmb_sum_cell *f = &c->cell[i];
		if (!f->found)
			continue;
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "name", f->h->name);
		cJSON_AddStringToObject(x, "module", f->rec->module);
		cJSON_AddStringToObject(x, "case", f->rec->name);
		cJSON_AddItemToObject(x, "params", kv_json(&f->rec->params, 0));
		cJSON_AddStringToObject(x, "figure", f->h->figure);
		if (f->base) {
			n = cJSON_AddObjectToObject(x, "over");
			cJSON_AddStringToObject(n, "case", f->base->name);
			cJSON_AddItemToObject(n, "params", kv_json(&f->base->params, 0));
		} else {
			cJSON_AddNullToObject(x, "over");
		}
		cJSON_AddNumberToObject(x, "value", f->value);
		cJSON_AddStringToObject(x, "unit", f->unit);
		add_bool(x, "higher_is_better", f->direction ? f->direction > 0 : -1);
		add_positive(x, "peak_gbps", f->peak_gbps);
		add_positive(x, "peak_fraction", f->fraction);
		cJSON_AddStringToObject(x, "marks", f->mark);
		cJSON_AddItemToArray(a, x);
	}
	x = cJSON_AddObjectToObject(o, "anomalies");
	cJSON_AddNumberToObject(x, "records", (double)c->records);
	cJSON_AddNumberToObject(x, "judged", (double)c->judged);
	cJSON_AddNumberToObject(x, "unstable", (double)c->unstable);
	cJSON_AddNumberToObject(x, "drift", (double)c->drift);
	cJSON_AddNumberToObject(x, "bimodal", (double)c->bimodal);
	cJSON_AddNumberToObject(x, "outliers", (double)c->outliers);
	cJSON_AddNumberToObject(x, "gpu_shared", (double)c->shared);
	cJSON_AddNumberToObject(x, "unsupported", (double)c->unsupported);
	cJSON_AddNumberToObject(x, "failed", (double)c->failed);
	cJSON_AddNumberToObject(x, "skipped", (double)c->skipped);
	add_str(x, "throttled", c->throttled);
	add_str(x, "link_below_max", c->link_below);
	a = cJSON_AddArrayToObject(x, "not_ok");
	for (int i = 0; i < c->nnot_ok; i++) {
		const struct hmb_record *r = c->not_ok[i].first;
		n = cJSON_CreateObject();
		cJSON_AddStringToObject(n, "module", r->module);
		cJSON_AddStringToObject(n, "case", r->name);
		cJSON_AddStringToObject(n, "status", hmb_status_name(r->status));
		add_str(n, "reason", r->reason);
		cJSON_AddNumberToObject(n, "count", (double)c->not_ok[i].count);
		cJSON_AddItemToArray(a, n);
	}
	return o;
}

char *hmb_json_render(const struct hmb_report *rep)
{
	cJSON *doc = cJSON_CreateObject(), *t, *a, *env, *rt, *x;
	char *text;

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
	add_int(rt, "runtime_version", rep->device.runtime_version > 0 ? rep->device.runtime_version : -1);
	add_int(rt, "driver_version", rep->device.driver_version > 0 ? rep->device.driver_version : -1);
	if (rep->have_device)
		cJSON_AddItemToObject(doc, "device", device_json(&rep->device));
	else if (rep->ndevice_json && (x = cJSON_Parse(rep->device_json[0])))
		cJSON_AddItemToObject(doc, "device", x);
	else
		cJSON_AddNullToObject(doc, "device");
	if (rep->ndevice_json > 1) { /* --devices: every GPU measured */
		a = cJSON_AddArrayToObject(doc, "devices");
		for (int i = 0; i < rep->ndevice_json; i++)
			if ((x = cJSON_Parse(rep->device_json[i])))
				cJSON_AddItemToArray(a, x);
	}
	env = cJSON_AddObjectToObject(doc, "environment");
	for (int i = 0; hmb_env_recorded[i]; i++)
		add_str(env, hmb_env_recorded[i], getenv(hmb_env_recorded[i]));
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
		add_int(x, "exit_status", m->exit_status);
		add_int(x, "device", m->device);
		if (m->env_var[0]) {
			cJSON *e = cJSON_AddObjectToObject(x, "environment");
			cJSON_AddStringToObject(e, m->env_var, m->env_value);
			cJSON_AddStringToObject(x, "environment_from", m->env_set ? "all" : "user");
		}
		if (m->note)
			cJSON_AddStringToObject(x, "plan", m->note);
		if (m->run)
			cJSON_AddNumberToObject(x, "run", m->run);
		cJSON_AddItemToArray(a, x);
	}
	cJSON_AddItemToObject(doc, "telemetry", telemetry_json(rep));
	cJSON_AddItemToObject(doc, "stability_rule", stability_rule_json());
	if (rep->summary && rep->summary->n)
		cJSON_AddItemToObject(doc, "summary", summary_json(&rep->summary->col[0]));
	a = cJSON_AddArrayToObject(doc, "results");
	for (const struct hmb_record *r = rep->head; r; r = r->next)
		cJSON_AddItemToArray(a, record_json(r));

	text = cJSON_Print(doc);
	cJSON_Delete(doc);
	return text;
}

/* The temporary file of a write in progress, for the signal handler. */
static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_live;

void hmb_json_discard_tmp(void)
{
	if (tmp_live)
		unlink(tmp_path);
}

static const char *not_regular(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

static int out_fail(char *err, size_t errlen, const char *path, const char *why)
{
	snprintf(err, errlen, "cannot write --output %s: %s", hmb_shown(path), why);
	hmb_utf8_trim(err);
	return -1;
}

/* The directory a path is in. */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Create the temporary file of path, PATH.tmp.PID.XXXXXX (XXXXXX random), as
 * mkstemp does: O_CREAT|O_EXCL|O_NOFOLLOW, so that nothing planted there (a
 * link, a FIFO, a directory, a file) is ever opened or written through; a
 * name taken already is tried again with other letters. Signals are held
 * while it is made, so that the handler's hmb_json_discard_tmp knows it the
 * moment it exists. A descriptor, or -1 with errno. */
static int make_tmp(const char *path, mode_t mode)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static uint64_t x;
	struct timespec ts;
	sigset_t all, old;
	int fd = -1, e = EEXIST;

	clock_gettime(CLOCK_REALTIME, &ts);
	x ^= ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40);
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (int tries = 0; fd < 0 && e == EEXIST && tries < 100; tries++) {
		char random[TMP_RANDOM + 1];
		for (int i = 0; i < TMP_RANDOM; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			random[i] = letters[(x >> 33) % (sizeof(letters) - 1)];
		}
		random[TMP_RANDOM] = '\0';
		snprintf(tmp_path, sizeof(tmp_path), "%s.tmp.%ld.%s", path, (long)getpid(), random);
		fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		e = fd < 0 ? errno : 0;
	}
	if (fd >= 0) {
		/* held while it lives: remove_stale leaves a locked temporary alone */
		struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		(void)fcntl(fd, F_SETLK, &lk);
		tmp_live = 1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}

static void drop_tmp(void)
{
	unlink(tmp_path);
	tmp_live = 0;
}

/* Temporaries of path left by runs that could not remove them (SIGKILL, a
 * crash, power loss): NAME.tmp.PID.XXXXXX in its folder, a regular file of
 * this user, whose process is not running here and that no process holds
 * locked (a run on another host of a shared folder holds its own). */
static void remove_stale(const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char dir[PATH_MAX], full[PATH_MAX];
	size_t blen = strlen(base);
	struct dirent *de;
	DIR *d;

	dir_of(path, dir, sizeof(dir));
	if (!(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		const char *n = de->d_name, *p = n + blen + 5, *end;
		struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		struct stat st;
		long pid = 0;
		int fd;

		if (strncmp(n, base, blen) != 0 || strncmp(n + blen, ".tmp.", 5) != 0)
			continue;
		for (end = p; isdigit((unsigned char)*end) && end - p < 10; end++)
			pid = pid * 10 + (*end - '0');
		if (end == p || pid <= 0 || *end != '.' || strlen(end + 1) != TMP_RANDOM ||
		    strspn(end + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
			    != TMP_RANDOM)
			continue;
		if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno == EPERM)
			continue; /* its process is running */
		if ((size_t)snprintf(full, sizeof(full), "%s/%s", dir, n) >= sizeof(full))
			continue;
		fd = open(full, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		    fcntl(fd, F_SETLK, &lk) == 0)
			unlink(full);
		close(fd);
	}
	closedir(d);
}

/* A path the document may be written to (see hmb_output_writable). A link
 * to a regular file passes; the rename then replaces the link itself. */
static int check_target(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char dir[PATH_MAX], why[128];
	struct stat st;

	if (!*path) {
		snprintf(err, errlen, "--output: empty file name ('-' writes to stdout)");
		return -1;
	}
	if (strlen(path) + TMP_SUFFIX_MAX >= sizeof(tmp_path)) {
		snprintf(why, sizeof(why), "path too long (%zu bytes, at most %zu)", strlen(path),
			 sizeof(tmp_path) - TMP_SUFFIX_MAX - 1);
		return out_fail(err, errlen, path, why);
	}
	if (!*base)
		return out_fail(err, errlen, path, "a directory, not a regular file");
	if (strlen(base) + TMP_SUFFIX_MAX > NAME_MAX) {
		snprintf(why, sizeof(why), "file name too long (%zu bytes, at most %d)", strlen(base),
			 NAME_MAX - TMP_SUFFIX_MAX);
		return out_fail(err, errlen, path, why);
	}
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			snprintf(why, sizeof(why), "%s, not a regular file%s", not_regular(st.st_mode),
				 S_ISCHR(st.st_mode) ? " ('-' writes to stdout)" : "");
			return out_fail(err, errlen, path, why);
		}
		if (access(path, W_OK) != 0)
			return out_fail(err, errlen, path, strerror(errno));
	} else if (errno != ENOENT) {
		return out_fail(err, errlen, path, strerror(errno));
	}
	dir_of(path, dir, sizeof(dir));
	if (stat(dir, &st) != 0)
		return out_fail(err, errlen, path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return out_fail(err, errlen, path, strerror(ENOTDIR));
	return 0;
}

/* Before anything is measured: the target, and a file really made (and
 * removed) beside it, as the write will make its temporary: access() says
 * yes to root on a read-only or pseudo file system, in a removed folder. */
int hmb_output_writable(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX], why[PATH_MAX + 64];
	int fd;

	if (strcmp(path, "-") == 0)
		return 0;
	if (check_target(path, err, errlen) != 0)
		return -1;
	if ((fd = make_tmp(path, 0600)) < 0) {
		int e = errno;
		dir_of(path, dir, sizeof(dir));
		snprintf(why, sizeof(why), "cannot create a file in its folder %s: %s",
			 hmb_shown(dir), strerror(e));
		return out_fail(err, errlen, path, why);
	}
	close(fd);
	drop_tmp();
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* After a rename: make the new directory entry durable (best effort: some
 * file systems cannot fsync a directory). */
static void sync_dir(const char *path)
{
	char dir[PATH_MAX];
	int fd;

	dir_of(path, dir, sizeof(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

/* text, then a newline, to path, the way git and sqlite write files: a new
 * temporary beside it (make_tmp) with the mode of the file it replaces (a new
 * file: 0644 less the umask), written, fsynced, renamed over it, the folder
 * fsynced. The first write of a path removes the stale temporaries of runs
 * killed before they could (remove_stale). */
static int write_file(const char *path, const char *text, char *err, size_t errlen)
{
	static char cleaned[PATH_MAX];
	char why[PATH_MAX + 64];
	struct stat st;
	int fd, e = 0, replace;

	if (check_target(path, err, errlen) != 0)
		return -1;
	if (strcmp(cleaned, path) != 0) {
		remove_stale(path);
		snprintf(cleaned, sizeof(cleaned), "%s", path);
	}
	replace = stat(path, &st) == 0;
	fd = make_tmp(path, replace ? 0600 : 0644);
	if (fd < 0) {
		e = errno;
		snprintf(why, sizeof(why), "cannot create its temporary file %s: %s",
			 hmb_shown(tmp_path), strerror(e));
		return out_fail(err, errlen, path, why);
	}
	if (replace)
		(void)fchmod(fd, st.st_mode & 0777); /* best effort: some file systems cannot */
	if (write_all(fd, text, strlen(text)) || write_all(fd, "\n", 1) || fsync(fd))
		e = errno ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	if (!e && rename(tmp_path, path))
		e = errno;
	if (e) {
		drop_tmp();
		return out_fail(err, errlen, path, strerror(e));
	}
	tmp_live = 0;
	sync_dir(path);
	return 0;
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
		rc = write_file(path, text, err, errlen);
	}
	free(text);
	return rc;
}

int hmb_write_text_file(const char *path, const char *text, char *err, size_t errlen)
{
	return write_file(path, text, err, errlen);
}

/* ---- reading documents back (for compare) ---------------------------------- */

static int load_fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int load_fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: %s", hmb_shown(path), why);
	hmb_utf8_trim(err);
	return -1;
}

/* The whole file, NUL-terminated, of at most DOC_MAX_BYTES and without NUL
 * bytes; NULL with a reason naming the file. */
/* path to read, or stdin for "-" (given on purpose): a FIFO, a device or a
 * socket may never end, and a FIFO with no writer never even opens, so they
 * are refused (opened without waiting, to look). NULL with a reason. */
static FILE *open_input(const char *path, char *err, size_t errlen)
{
	struct stat st;
	FILE *f;
	int fd, flags;

	if (strcmp(path, "-") == 0)
		return stdin;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		load_fail(err, errlen, path, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) ||
				    S_ISSOCK(st.st_mode))) {
		load_fail(err, errlen, path, "%s, not a regular file (to read standard input, "
			  "give - on purpose)", not_regular(st.st_mode));
		close(fd);
		return NULL;
	}
	if ((flags = fcntl(fd, F_GETFL)) >= 0)
		(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	if (!(f = fdopen(fd, "rb"))) {
		load_fail(err, errlen, path, "%s", strerror(errno));
		close(fd);
	}
	return f;
}

static void close_input(FILE *f)
{
	if (f != stdin)
		fclose(f);
}

static char *read_whole(const char *path, size_t *lenp, char *err, size_t errlen)
{
	FILE *f = open_input(path, err, errlen);
	char *buf = NULL, *nul;
	size_t len = 0, cap = 0, got;
	struct stat st;

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) != 0)
		memset(&st, 0, sizeof(st));
	if (S_ISDIR(st.st_mode)) {
		load_fail(err, errlen, path, "a directory, not a hipmembench document");
		close_input(f);
		return NULL;
	}
	/* a regular file: room for all of it (and one byte to see the end) at once */
	if (S_ISREG(st.st_mode) && st.st_size >= 0 && (size_t)st.st_size < DOC_MAX_BYTES)
		cap = (size_t)st.st_size + 2;
	buf = hmb_xrealloc(NULL, cap ? cap : 4096);
	cap = cap ? cap : 4096;
	do {
		if (cap - len < 2) {
			cap = 2 * cap;
			if (cap > DOC_MAX_BYTES + 2)
				cap = DOC_MAX_BYTES + 2;
			buf = hmb_xrealloc(buf, cap);
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		if ((nul = memchr(buf + len, '\0', got))) {
			load_fail(err, errlen, path, "a NUL byte at byte %zu: not a JSON document",
				  (size_t)(nul - buf));
			goto fail;
		}
		len += got;
		if (len > DOC_MAX_BYTES) {
			load_fail(err, errlen, path, "larger than %zu MiB: not a hipmembench document",
				  DOC_MAX_BYTES >> 20);
			goto fail;
		}
	} while (got > 0);
	if (ferror(f)) {
		load_fail(err, errlen, path, "read error: %s", strerror(errno));
		goto fail;
	}
	buf[len] = '\0';
	close_input(f);
	*lenp = len;
	return buf;
fail:
	free(buf);
	close_input(f);
	return NULL;
}

/* A regular file mapped rather than read (no copy of hundreds of MB; the
 * documents hipmembench writes are replaced by a rename, never rewritten in
 * place); anything else, or a file that cannot be mapped, read whole.
 * *mapped says which, for release_whole. A mapped file is not searched for
 * NUL bytes here: the reader stops at one, and has_nul says so. */
static char *map_whole(const char *path, size_t *lenp, int *mapped, char *err, size_t errlen)
{
	struct stat st;
	char *p;
	int fd;

	*mapped = 0;
	if (strcmp(path, "-") == 0 ||
	    (fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0)
		return read_whole(path, lenp, err, errlen);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (size_t)st.st_size > DOC_MAX_BYTES ||
	    (p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0)) ==
		    MAP_FAILED) {
		close(fd);
		return read_whole(path, lenp, err, errlen);
	}
	close(fd);
	*lenp = (size_t)st.st_size;
	*mapped = 1;
	return p;
}

/* A NUL byte in text: 1 with the reason in err, as read_whole gives it. */
static int has_nul(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
	const char *nul = memchr(text, '\0', len);

	if (nul)
		load_fail(err, errlen, path, "a NUL byte at byte %zu: not a JSON document",
			  (size_t)(nul - text));
	return nul != NULL;
}

static void release_whole(char *text, size_t len, int mapped)
{
	if (mapped)
		munmap(text, len);
	else
		free(text);
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

static const char *str_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : "?";
}

static double num_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* Absent or null, or of the type is() checks. */
static int optional(const cJSON *v, cJSON_bool (*is)(const cJSON *))
{
	return !v || cJSON_IsNull(v) || is(v);
}

/* Absent, null or a finite number. */
static int optional_number(const cJSON *v)
{
	return !v || cJSON_IsNull(v) || (cJSON_IsNumber(v) && isfinite(v->valuedouble));
}

/* What compare reads of result i, checked; 0, or -1 with a reason. */
static int check_result(const cJSON *r, int i, const char *path, char *err, size_t errlen)
{
	static const char *const numbers[] = { "gbps_median", "us_per_op_median", NULL };
	const cJSON *status = cJSON_GetObjectItemCaseSensitive(r, "status");
	const cJSON *params, *metrics, *stats, *m;

	if (!cJSON_IsObject(r))
		return load_fail(err, errlen, path, "results[%d] is not an object", i);
	if (!cJSON_IsString(status))
		return load_fail(err, errlen, path, "results[%d].status is not a string", i);
	if (strcmp(status->valuestring, "ok") != 0)
		return 0;
	if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "module")) ||
	    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "case")))
		return load_fail(err, errlen, path, "results[%d]: module and case must be strings", i);
	params = cJSON_GetObjectItemCaseSensitive(r, "params");
	if (!optional(params, cJSON_IsObject))
		return load_fail(err, errlen, path, "results[%d].params is not an object", i);
	for (int k = 0; numbers[k]; k++)
		if (!optional_number(cJSON_GetObjectItemCaseSensitive(r, numbers[k])))
			return load_fail(err, errlen, path, "results[%d].%s is not a finite number", i,
					 numbers[k]);
	stats = cJSON_GetObjectItemCaseSensitive(r, "stats_s");
	if (!optional(stats, cJSON_IsObject) ||
	    !optional_number(cJSON_GetObjectItemCaseSensitive(stats, "median")))
		return load_fail(err, errlen, path, "results[%d].stats_s is not an object of "
				 "numbers", i);
	metrics = cJSON_GetObjectItemCaseSensitive(r, "metrics");
	if (!optional(metrics, cJSON_IsObject))
		return load_fail(err, errlen, path, "results[%d].metrics is not an object", i);
	if (!cJSON_IsObject(metrics))
		return 0;
	cJSON_ArrayForEach(m, metrics)
		if (!cJSON_IsObject(m) ||
		    !optional_number(cJSON_GetObjectItemCaseSensitive(m, "value")) ||
		    !optional(cJSON_GetObjectItemCaseSensitive(m, "unit"), cJSON_IsString))
			return load_fail(err, errlen, path, "results[%d].metrics.%s is not "
					 "{\"value\": number, \"unit\": string}", i,
					 hmb_shown(m->string));
	return 0;
}

/* The parts of a document that compare reads, checked; 0, or -1 with a reason. */
static int check_document(const cJSON *doc, const char *path, char *err, size_t errlen)
{
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");
	const cJSON *results = cJSON_GetObjectItemCaseSensitive(doc, "results"), *r;
	int i = 0;

	if (!cJSON_IsObject(doc) ||
	    strcmp(str_of(cJSON_GetObjectItemCaseSensitive(doc, "tool"), "name"), "hipmembench") ||
	    !cJSON_IsNumber(version) || !cJSON_IsArray(results))
		return load_fail(err, errlen, path, "not a hipmembench document (needs tool.name "
				 "\"hipmembench\", schema_version and results[])");
	if (!(version->valuedouble >= 1 && version->valuedouble <= 1000000) ||
	    version->valuedouble != floor(version->valuedouble))
		return load_fail(err, errlen, path, "schema_version %g is not a whole number from 1 "
				 "to 1000000", version->valuedouble);
	cJSON_ArrayForEach(r, results)
		if (check_result(r, i++, path, err, errlen))
			return -1;
	return 0;
}

/* "10", or "default" where the module chose */
static const char *reps_text(const cJSON *settings, char *buf, size_t len)
{
	double reps = num_of(settings, "reps");
	if (reps < 0)
		return "default";
	snprintf(buf, len, "%.0f", reps);
	return buf;
}

/* A parameter as it is (loaded.h has how each type is shown and matched). */
static void param_of(struct hmb_loaded *l, const cJSON *p, struct hmb_param *out)
{
	char *t;

	if (cJSON_IsNumber(p)) {
		hmb_loaded_param_number(l, out, p->string, p->valuedouble);
	} else if (cJSON_IsBool(p)) {
		hmb_loaded_param_bool(l, out, p->string, cJSON_IsTrue(p));
	} else if (cJSON_IsString(p)) {
		hmb_loaded_param_text(l, out, p->string, p->valuestring, 1);
	} else {
		t = cJSON_PrintUnformatted(p);
		hmb_loaded_param_text(l, out, p->string, t ? t : "?", 0);
		free(t);
	}
}

/* A result as compare reads it (compare.c decides what identifies it):
 * renamed cases under their new name, with their host_memory parameter to
 * match, every parameter as written. */
static void add_result(struct hmb_loaded *l, const cJSON *r)
{
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(r, "params");
	const char *module = str_of(r, "module"), *name = str_of(r, "case"), *kind;
	const char *gpu_params[] = { "device", "gpu" };
	struct hmb_result *res;
	cJSON *renamed_params = NULL;
	const cJSON *p;
	char now[256];

	if (!cJSON_IsObject(params))
		params = NULL;
	name = hmb_loaded_current_name(module, name, str_of(params, "coherence"), now, sizeof(now),
				       &kind);
	if (kind && cJSON_GetObjectItemCaseSensitive(params, "host_memory")) {
		renamed_params = cJSON_Duplicate(params, 1);
		cJSON_ReplaceItemInObjectCaseSensitive(renamed_params, "host_memory",
						       cJSON_CreateString(kind));
		params = renamed_params;
	}
	res = hmb_loaded_add_result(l, module, name);
	/* the GPU a per-GPU result ran on: `device` where --devices gave several,
	 * node's `gpu` where it measures one GPU of the node at a time */
	for (size_t i = 0; i < 2 && res->gpu < 0; i++) {
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(params, gpu_params[i]);
		if (cJSON_IsNumber(g) && g->valuedouble >= 0 && g->valuedouble <= 1000000 &&
		    g->valuedouble == floor(g->valuedouble) &&
		    (i == 0 || strcmp(module, "node") == 0))
			res->gpu = (int)g->valuedouble;
	}
	cJSON_ArrayForEach(p, params)
		res->np++;
	res->p = hmb_loaded_params(l, res->np);
	res->np = 0;
	cJSON_ArrayForEach(p, params)
		param_of(l, p, &res->p[res->np++]);
	cJSON_Delete(renamed_params);
}

/* --runs: each figure of the result (from `first` on) in each run: the main
 * figure from the run's median (GB/s and us/op scale with it as the pooled
 * median does), a metric as the run had it. */
static void attach_runs(struct hmb_loaded *l, size_t first, int has_main, const cJSON *r)
{
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(r, "runs"), *v;
	const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(runs, "metrics");
	double pooled = num_of(cJSON_GetObjectItemCaseSensitive(r, "stats_s"), "median");

	for (size_t i = first; i < l->n; i++) {
		struct hmb_figure *f = &l->fig[i];
		const cJSON *values = i == first && has_main
					      ? cJSON_GetObjectItemCaseSensitive(runs, "median_s")
					      : cJSON_GetObjectItemCaseSensitive(metrics, f->name);
		int main_figure = i == first && has_main, timed = !strcmp(f->unit, "s") ||
								   !strcmp(f->unit, "us");
		size_t n = 0;
		if (!cJSON_IsArray(values) || (main_figure && !(pooled > 0)))
			continue;
		f->runs = hmb_loaded_alloc(l, HMB_RUNS_LOADED_MAX * sizeof(double));
		cJSON_ArrayForEach(v, values) {
			double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
			if (n == HMB_RUNS_LOADED_MAX)
				break;
			if (main_figure)
				x = x > 0 ? f->value * (timed ? x / pooled : pooled / x) : NAN;
			f->runs[n++] = x;
		}
		f->nruns = n;
	}
}

/* The figures of a result: GB/s where it moved bytes, else its median time,
 * which us/op replaces where the result counts operations (the same samples
 * in another unit: one figure of them), then its metrics; each with its runs
 * (--runs), and what says how far the result can be trusted: its median's
 * interval, another process on the GPU. */
static void load_result(struct hmb_loaded *l, const cJSON *r)
{
	size_t first = l->n;
	int has_main;
	const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(r, "metrics"), *m;
	const cJSON *stats = cJSON_GetObjectItemCaseSensitive(r, "stats_s");
	const cJSON *stability = cJSON_GetObjectItemCaseSensitive(r, "stability");
	const cJSON *shared = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(r, "observed"), "gpu_shared_with");
	struct hmb_result *res;

	if (strcmp(str_of(r, "status"), "ok") != 0)
		return;
	add_result(l, r);
	res = &l->res[l->nres - 1];
	res->half_width_rel = num_of(stability, "half_width_rel") >= 0
				      ? num_of(stability, "half_width_rel") : NAN;
	res->gpu_shared = cJSON_IsString(shared) && shared->valuestring[0];
	if (num_of(r, "gbps_median") > 0)
		hmb_loaded_add_figure(l, "GB/s", "GB/s", num_of(r, "gbps_median"));
	else if (num_of(r, "us_per_op_median") > 0)
		hmb_loaded_add_figure(l, "us/op", "us", num_of(r, "us_per_op_median"));
	else if (cJSON_IsObject(stats) && num_of(stats, "median") >= 0)
		hmb_loaded_add_figure(l, "median", "s", num_of(stats, "median"));
	if (!cJSON_IsObject(metrics))
		metrics = NULL;
	has_main = l->n > first;
	cJSON_ArrayForEach(m, metrics)
		if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(m, "value")))
			hmb_loaded_add_figure(l, m->string, str_of(m, "unit"), num_of(m, "value"));
	attach_runs(l, first, has_main, r);
}

/* The document's host, device and settings, for people (printable). */
static void describe(struct hmb_loaded *out, const cJSON *doc)
{
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(doc, "device");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
	const cJSON *rt = cJSON_GetObjectItemCaseSensitive(doc, "runtime");
	const cJSON *settings = cJSON_GetObjectItemCaseSensitive(doc, "settings");
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(doc, "environment");
	const cJSON *x = cJSON_IsObject(dev) ? cJSON_GetObjectItemCaseSensitive(dev, "xnack") : NULL;
	const cJSON *arch = cJSON_GetObjectItemCaseSensitive(x, "arch_xnack");
	const cJSON *ma = cJSON_IsObject(dev) ? cJSON_GetObjectItemCaseSensitive(dev, "managed_access")
					      : NULL;
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(ma, "mode");
	char *sizes = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(settings, "sizes"));
	char reps[32];

	snprintf(out->system, sizeof(out->system), "%s, %s (%s), %s, runtime %.0f, driver %.0f",
		 hmb_shown(str_of(host, "hostname")),
		 cJSON_IsObject(dev) ? hmb_shown(str_of(dev, "name")) : "no device",
		 cJSON_IsObject(dev) ? hmb_shown(str_of(dev, "arch")) : "-",
		 hmb_shown(str_of(doc, "platform")), num_of(rt, "runtime_version"),
		 num_of(rt, "driver_version"));
	snprintf(out->settings, sizeof(out->settings), "command %s, sizes %s, reps %s, quick %s",
		 hmb_shown(str_of(doc, "command")), sizes ? hmb_shown(sizes) : "?",
		 reps_text(settings, reps, sizeof(reps)),
		 cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(settings, "quick")) ? "yes" : "no");
	free(sizes);
	/* the managed access mode too: managed figures of two modes measure
	 * different things even where the XNACK settings read the same */
	snprintf(out->xnack, sizeof(out->xnack), "HSA_XNACK=%s, arch %s, managed access %s",
		 cJSON_IsString(cJSON_GetObjectItemCaseSensitive(env, "HSA_XNACK"))
			 ? hmb_shown(str_of(env, "HSA_XNACK")) : "unset",
		 cJSON_IsTrue(arch) ? "xnack+" : cJSON_IsFalse(arch) ? "xnack-" : "n/a",
		 cJSON_IsString(mode) ? hmb_shown(mode->valuestring) : "n/a");
}

/* text (len bytes) as a hipmembench document, checked (check_document); NULL
 * with a reason naming path. */
static cJSON *parse_document(const char *path, const char *text, size_t len, char *err,
			     size_t errlen)
{
	const char *end = NULL, *rest;
	cJSON *doc;

	if (skip_space(text, text + len) == text + len) {
		load_fail(err, errlen, path, "%s, not a hipmembench document",
			  len ? "only white space" : "empty file");
		return NULL;
	}
	doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!doc) {
		load_fail(err, errlen, path, "not valid JSON (truncated or malformed near byte %ld "
			  "of %zu)", end ? (long)(end - text) : -1L, len);
		return NULL;
	}
	rest = skip_space(end, text + len);
	if (rest < text + len) {
		load_fail(err, errlen, path, "data after the JSON document at byte %zu of %zu (one "
			  "document per file)", (size_t)(rest - text), len);
		cJSON_Delete(doc);
		return NULL;
	}
	if (check_document(doc, path, err, errlen)) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

/* What compare reads of a result (check_result, load_result); the rest of
 * it is checked and skipped. */
static const char *const result_keys[] = {
	"module", "case", "status", "params", "metrics", "stats_s.median", "gbps_median",
	"us_per_op_median", "stability.half_width_rel", "observed.gpu_shared_with", "runs", NULL
};

/* A result as the walker hands it over (json_stream.h): read straight from
 * its text where it has the usual shape (load_fast.c), else parsed, checked
 * and read here; until one is refused, whose reason is kept for after the
 * rest of the document is checked. */
struct taking {
	struct hmb_loaded *out;
	const char *path;
	int index, refused;
	char why[1024];
};

static const char *take_result(const char *p, const char *end, void *arg)
{
	struct taking *t = arg;
	const char *next = t->refused ? NULL : hmb_load_fast(t->out, p, end);
	cJSON *r;

	if (next) {
		t->index++;
		return next;
	}
	if (!(next = hmb_json_skip(p, end, 2)) || !(r = hmb_json_thin(p, (size_t)(next - p),
								     result_keys)))
		return NULL;
	if (!t->refused && check_result(r, t->index, t->path, t->why, sizeof(t->why)) != 0)
		t->refused = 1;
	else if (!t->refused)
		load_result(t->out, r);
	t->index++;
	cJSON_Delete(r);
	return next;
}

int hmb_json_load(const char *path, struct hmb_loaded *out, char *err, size_t errlen)
{
	size_t len = 0;
	char *text;
	const char *end = NULL, *rest;
	const cJSON *r;
	cJSON *doc;
	struct taking t = { out, path, 0, 0, "" };
	int whole = 0, bad, mapped;

	memset(out, 0, sizeof(*out));
	if (!(text = map_whole(path, &len, &mapped, err, errlen)))
		return -1;
	if (skip_space(text, text + len) == text + len) {
		load_fail(err, errlen, path, "%s, not a hipmembench document",
			  len ? "only white space" : "empty file");
		release_whole(text, len, mapped);
		return -1;
	}
	/* results one at a time; where the walker gives up, the whole text at once */
	if (!(doc = hmb_json_stream(text, len, "results", take_result, &t, &end))) {
		hmb_loaded_free(out);
		if (has_nul(path, text, len, err, errlen)) {
			release_whole(text, len, mapped);
			return -1;
		}
		t.refused = 0;
		whole = 1;
		doc = hmb_json_parse(text, len, &end);
	}
	if (!doc) {
		load_fail(err, errlen, path, "not valid JSON (truncated or malformed near byte %ld "
			  "of %zu)", end ? (long)(end - text) : -1L, len);
		release_whole(text, len, mapped);
		hmb_loaded_free(out);
		return -1;
	}
	rest = skip_space(end, text + len);
	if (rest < text + len) {
		if (!has_nul(path, text, len, err, errlen))
			load_fail(err, errlen, path, "data after the JSON document at byte %zu of %zu "
				  "(one document per file)", (size_t)(rest - text), len);
		cJSON_Delete(doc);
		release_whole(text, len, mapped);
		hmb_loaded_free(out);
		return -1;
	}
	release_whole(text, len, mapped);
	/* the document's own keys first, then a result refused on the way */
	bad = check_document(doc, path, err, errlen) != 0;
	if (!bad && t.refused) {
		snprintf(err, errlen, "%s", t.why);
		bad = 1;
	}
	if (bad) {
		cJSON_Delete(doc);
		hmb_loaded_free(out); /* the results read before the one refused */
		return -1;
	}
	out->schema_version = (int)cJSON_GetObjectItemCaseSensitive(doc, "schema_version")->valuedouble;
	describe(out, doc);
	if (whole)
		cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results"))
			load_result(out, r);
	cJSON_Delete(doc);
	return 0;
}

/* ---- taking a module's document into `all`'s report ------------------------ */

static void import_kv(struct hmb_record *r, const cJSON *obj, int which)
{
	const cJSON *v;
	cJSON_ArrayForEach(v, obj) {
		const char *k = v->string;
		if (which == 1) { /* metrics: {"value": n, "unit": u} */
			const cJSON *val = cJSON_GetObjectItemCaseSensitive(v, "value");
			const cJSON *unit = cJSON_GetObjectItemCaseSensitive(v, "unit");
			if (cJSON_IsNumber(val))
				hmb_metric(r, k, val->valuedouble,
					   cJSON_IsString(unit) ? unit->valuestring : "");
		} else if (cJSON_IsString(v)) {
			(which ? hmb_observe_str : hmb_param_str)(r, k, v->valuestring);
		} else if (cJSON_IsBool(v)) {
			(which ? hmb_observe_bool : hmb_param_bool)(r, k, cJSON_IsTrue(v));
		} else if (cJSON_IsNumber(v)) {
			(which ? hmb_observe_num : hmb_param_num)(r, k, v->valuedouble);
		}
	}
}

static enum hmb_status status_of(const char *s)
{
	if (!strcmp(s, "ok"))
		return HMB_OK;
	if (!strcmp(s, "unsupported"))
		return HMB_UNSUPPORTED;
	if (!strcmp(s, "skipped"))
		return HMB_SKIPPED;
	return HMB_FAILED;
}

static void import_record(struct hmb_report *rep, const cJSON *o)
{
	struct hmb_record *r = hmb_record_new(str_of(o, "module"), str_of(o, "case"));
	const cJSON *samples = cJSON_GetObjectItemCaseSensitive(o, "samples_s"), *v;
	enum hmb_status st = status_of(str_of(o, "status"));

	import_kv(r, cJSON_GetObjectItemCaseSensitive(o, "params"), 0);
	import_kv(r, cJSON_GetObjectItemCaseSensitive(o, "metrics"), 1);
	import_kv(r, cJSON_GetObjectItemCaseSensitive(o, "observed"), 2);
	if (num_of(o, "bytes") > 0)
		hmb_record_bytes(r, num_of(o, "bytes"));
	if (num_of(o, "ops") > 0)
		hmb_record_ops(r, num_of(o, "ops"));
	if (num_of(o, "peak_gbps") > 0)
		hmb_record_peak(r, num_of(o, "peak_gbps"));
	cJSON_ArrayForEach(v, samples)
		if (cJSON_IsNumber(v))
			hmb_sample(r, v->valuedouble);
	if (st != HMB_OK)
		hmb_record_status(r, st, "%s", str_of(o, "reason"));
	hmb_report_add(rep, r);
}

/* A sample's process list; own as written (the writer knew its pids). */
static void import_processes(struct hmb_gpu_sample *x, const cJSON *s)
{
	const cJSON *procs = cJSON_GetObjectItemCaseSensitive(s, "processes"), *p;
	int n = 0;

	x->nprocs = x->own_seen = -1;
	if (!cJSON_IsArray(procs))
		return;
	x->own_seen = 0;
	cJSON_ArrayForEach(p, procs) {
		const cJSON *used = cJSON_GetObjectItemCaseSensitive(p, "used_memory_bytes");
		if (n >= HMB_GPU_PROCS_MAX)
			break;
		x->procs[n].pid = (long)num_of(p, "pid");
		x->procs[n].used_bytes = cJSON_IsNumber(used) ? (long long)used->valuedouble : -1;
		x->procs[n].own = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "own"));
		x->own_seen |= x->procs[n].own;
		n++;
	}
	x->nprocs = num_of(s, "processes_count") > n ? (int)num_of(s, "processes_count") : n;
}

static void import_telemetry(struct hmb_telemetry *t, const cJSON *o)
{
	const cJSON *s;
	if (!cJSON_IsObject(o))
		return;
	if (!t->source[0] && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "source")))
		snprintf(t->source, sizeof(t->source), "%s", str_of(o, "source"));
	t->available |= cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "available"));
	if (!t->procs_source[0] &&
	    cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "processes_source")))
		snprintf(t->procs_source, sizeof(t->procs_source), "%s",
			 str_of(o, "processes_source"));
	if (!t->available && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "reason")))
		snprintf(t->reason, sizeof(t->reason), "%s", str_of(o, "reason"));
	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(o, "samples")) {
		struct hmb_gpu_sample *x = hmb_telemetry_add(t);
		const cJSON *thr = cJSON_GetObjectItemCaseSensitive(s, "throttled");
		snprintf(x->module, sizeof(x->module), "%s", str_of(s, "module"));
		snprintf(x->when, sizeof(x->when), "%s", str_of(s, "when"));
		x->sm_clock_mhz = num_of(s, "sm_clock_mhz");
		x->mem_clock_mhz = num_of(s, "memory_clock_mhz");
		x->temperature_c = num_of(s, "temperature_c");
		x->power_w = num_of(s, "power_w");
		x->link_gen = (int)num_of(s, "pcie_generation");
		x->link_width = (int)num_of(s, "pcie_width");
		x->link_max_gen = (int)num_of(s, "pcie_max_generation");
		x->link_max_width = (int)num_of(s, "pcie_max_width");
		x->throttle_mask = (long long)num_of(s, "throttle_reasons_mask");
		snprintf(x->throttle, sizeof(x->throttle), "%s",
			 cJSON_IsString(cJSON_GetObjectItemCaseSensitive(s, "throttle_reasons"))
				 ? str_of(s, "throttle_reasons") : "");
		x->throttled = cJSON_IsBool(thr) ? cJSON_IsTrue(thr) : -1;
		import_processes(x, s);
	}
}

int hmb_json_import(struct hmb_report *rep, const char *path, char *err, size_t errlen)
{
	size_t len = 0;
	char *text = read_whole(path, &len, err, errlen);
	const cJSON *r, *dev;
	cJSON *doc;

	if (!text)
		return -1;
	doc = cJSON_ParseWithLength(text, len);
	free(text);
	if (!cJSON_IsObject(doc) ||
	    !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "results"))) {
		snprintf(err, errlen, "%s: not a complete hipmembench document", path);
		cJSON_Delete(doc);
		return -1;
	}
	dev = cJSON_GetObjectItemCaseSensitive(doc, "device");
	if (cJSON_IsObject(dev)) {
		int seen = 0;
		for (int i = 0; i < rep->ndevice_json; i++) {
			cJSON *d = cJSON_Parse(rep->device_json[i]);
			seen |= num_of(d, "ordinal") == num_of(dev, "ordinal");
			cJSON_Delete(d);
		}
		if (!seen) {
			rep->device_json = hmb_xrealloc(rep->device_json, (size_t)(rep->ndevice_json + 1) *
							sizeof(*rep->device_json));
			rep->device_json[rep->ndevice_json++] = cJSON_PrintUnformatted(dev);
		}
	}
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results"))
		if (cJSON_IsObject(r))
			import_record(rep, r);
	import_telemetry(&rep->telemetry, cJSON_GetObjectItemCaseSensitive(doc, "telemetry"));
	{
		const cJSON *rt = cJSON_GetObjectItemCaseSensitive(doc, "runtime");
		if (num_of(rt, "runtime_version") > 0 && rep->device.runtime_version <= 0) {
			rep->device.runtime_version = (int)num_of(rt, "runtime_version");
			rep->device.driver_version = (int)num_of(rt, "driver_version");
		}
	}
	cJSON_Delete(doc);
	return 0;
}

int hmb_report_device_arch(const struct hmb_report *rep, int ordinal, char *buf, size_t len)
{
	int found = -1;

	for (int i = 0; i < rep->ndevice_json && found < 0; i++) {
		cJSON *d = cJSON_Parse(rep->device_json[i]);
		const cJSON *arch = cJSON_GetObjectItemCaseSensitive(d, "arch");
		if (cJSON_IsString(arch) && *arch->valuestring &&
		    (ordinal < 0 || num_of(d, "ordinal") == ordinal)) {
			snprintf(buf, len, "%s", arch->valuestring);
			found = 0;
		}
		cJSON_Delete(d);
	}
	return found;
}

/* ---- reading a document for the summary (summary.h) ------------------------ */

/* A string member, or NULL. */
static const char *text_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void sum_device(const cJSON *o, struct hmb_sum_device *d)
{
	const cJSON *link = cJSON_GetObjectItemCaseSensitive(o, "pcie_link");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(o, "host_link");
	const char *kind = text_of(host, "kind");

	memset(d, 0, sizeof(*d));
	d->ordinal = num_of(o, "ordinal") >= 0 ? (int)num_of(o, "ordinal") : 0;
	snprintf(d->name, sizeof(d->name), "%s", text_of(o, "name") ? hmb_shown(text_of(o, "name")) : "");
	snprintf(d->arch, sizeof(d->arch), "%s", text_of(o, "arch") ? hmb_shown(text_of(o, "arch")) : "");
	d->link_peak_gbps = num_of(host, "peak_gbps") > 0 ? num_of(host, "peak_gbps")
			    : num_of(link, "peak_gbps_per_direction") > 0
			    ? num_of(link, "peak_gbps_per_direction") : 0;
	if ((!kind || !strcmp(kind, "pcie")) && num_of(link, "generation") > 0 &&
	    num_of(link, "width") > 0)
		snprintf(d->link, sizeof(d->link), "PCIe gen%.0f x%.0f", num_of(link, "generation"),
			 num_of(link, "width"));
	else if (kind)
		snprintf(d->link, sizeof(d->link), "%s", hmb_shown(kind));
	d->memory_clock_khz = num_of(o, "memory_clock_khz") > 0 ? num_of(o, "memory_clock_khz") : 0;
	d->memory_bus_bits = num_of(o, "memory_bus_width_bits") > 0
			     ? num_of(o, "memory_bus_width_bits") : 0;
}

static void sum_meta(struct hmb_sum_doc *d, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void sum_meta(struct hmb_sum_doc *d, const char *key, const char *fmt, ...)
{
	struct hmb_sum_meta *m;
	char raw[1024];
	va_list ap;

	if (d->nmeta == HMB_SUM_MAX_META)
		return;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	m = &d->meta[d->nmeta++];
	snprintf(m->key, sizeof(m->key), "%s", key);
	hmb_printable(raw, sizeof(m->value) - 8, m->value, sizeof(m->value));
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static double gib(double bytes)
{
	return bytes / (double)(1 << 30);
}

/* The system a document describes, for people, in the order a report shows it. */
static void sum_metadata(struct hmb_sum_doc *d, const cJSON *doc)
{
	const cJSON *tool = cJSON_GetObjectItemCaseSensitive(doc, "tool");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
	const cJSON *rt = cJSON_GetObjectItemCaseSensitive(doc, "runtime");
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(doc, "device");
	const cJSON *link = cJSON_GetObjectItemCaseSensitive(dev, "pcie_link");
	const cJSON *hl = cJSON_GetObjectItemCaseSensitive(dev, "host_link");
	const cJSON *tel = cJSON_GetObjectItemCaseSensitive(doc, "telemetry");
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(doc, "command_line"), *w;
	struct hmb_loaded l;
	char cmd[1024] = "", devs[512] = "";
	size_t used = 0;

	memset(&l, 0, sizeof(l));
	describe(&l, doc);
	cJSON_ArrayForEach(w, line)
		if (cJSON_IsString(w) && used < sizeof(cmd))
			used += (size_t)snprintf(cmd + used, sizeof(cmd) - used, "%s%s", used ? " " : "",
						 w->valuestring);
	sum_meta(d, "document", "%s", d->path);
	sum_meta(d, "host", "%s", or_dash(text_of(host, "hostname")));
	sum_meta(d, "started", "%s", or_dash(text_of(doc, "started_utc")));
	sum_meta(d, "command line", "%s", or_dash(cmd));
	sum_meta(d, "settings", "%s", l.settings);
	sum_meta(d, "complete", "%s%s", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "complete"))
		 ? "yes" : "no", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "interrupted"))
		 ? " (interrupted)" : "");
	sum_meta(d, "tool", "hipmembench %s (%s), %s", or_dash(text_of(tool, "version")),
		 or_dash(text_of(tool, "git_revision")), or_dash(text_of(doc, "platform")));
	sum_meta(d, "runtime", "runtime %.0f, driver %.0f", num_of(rt, "runtime_version"),
		 num_of(rt, "driver_version"));
	sum_meta(d, "OS", "%s, kernel %s", or_dash(text_of(host, "os")),
		 or_dash(text_of(host, "kernel")));
	sum_meta(d, "CPU", "%s, %.0f CPUs, %.0f NUMA node(s)", or_dash(text_of(host, "cpu_model")),
		 num_of(host, "cpus_online"), num_of(host, "numa_nodes"));
	sum_meta(d, "host memory", "%.1f GiB", gib(num_of(host, "memory_bytes")));
	sum_meta(d, "huge pages", "THP %s, defrag %s", or_dash(text_of(host, "transparent_hugepages")),
		 or_dash(text_of(host, "transparent_hugepages_defrag")));
	sum_meta(d, "NUMA balancing", "%.0f", num_of(host, "numa_balancing"));
	sum_meta(d, "CPU governor", "%s", or_dash(text_of(host, "cpu_governor")));
	sum_meta(d, "IOMMU", "%.0f unit(s), kernel options %s", num_of(host, "iommu_units"),
		 or_dash(text_of(host, "iommu_kernel_options")));
	used = 0;
	for (int i = 0; i < d->ndev && used < sizeof(devs); i++)
		used += (size_t)snprintf(devs + used, sizeof(devs) - used, "%s%d: %s (%s)",
					 i ? "; " : "", d->dev[i].ordinal, or_dash(d->dev[i].name),
					 or_dash(d->dev[i].arch));
	sum_meta(d, "GPUs", "%d measured of %.0f visible", d->ndev, num_of(dev, "count"));
	sum_meta(d, "devices", "%s", or_dash(devs));
	sum_meta(d, "device memory", "%.1f GiB, %.0f-bit bus at %.0f MHz",
		 gib(num_of(dev, "total_memory_bytes")), num_of(dev, "memory_bus_width_bits"),
		 num_of(dev, "memory_clock_khz") / 1000);
	sum_meta(d, "compute units", "%.0f, L2 %.0f MiB", num_of(dev, "compute_units"),
		 num_of(dev, "l2_cache_bytes") / (1 << 20));
	sum_meta(d, "host link", "%s, gen%.0f x%.0f of gen%.0f x%.0f, %.1f GB/s per direction",
		 or_dash(text_of(hl, "kind")), num_of(link, "generation"), num_of(link, "width"),
		 num_of(link, "max_generation"), num_of(link, "max_width"),
		 d->ndev ? d->dev[0].link_peak_gbps : 0);
	sum_meta(d, "copy engines", "%.0f", num_of(dev, "async_engine_count"));
	sum_meta(d, "XNACK", "%s", l.xnack);
	sum_meta(d, "telemetry", "%s", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(tel, "available"))
		 ? or_dash(text_of(tel, "source")) : or_dash(text_of(tel, "reason")));
}

static int sum_doc_from(const cJSON *doc, const char *name, struct hmb_sum_doc *d)
{
	const cJSON *devs = cJSON_GetObjectItemCaseSensitive(doc, "devices");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host"), *x;

	d->path = hmb_xstrdup(name);
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(doc, "results"))
		if (cJSON_IsObject(x))
			import_record(&d->rep, x);
	import_telemetry(&d->rep.telemetry, cJSON_GetObjectItemCaseSensitive(doc, "telemetry"));
	if (!cJSON_IsArray(devs) || !cJSON_GetArraySize(devs))
		devs = NULL;
	if (devs) {
		cJSON_ArrayForEach(x, devs)
			if (cJSON_IsObject(x) && d->ndev < HMB_SUM_MAX_DEVICES)
				sum_device(x, &d->dev[d->ndev++]);
	} else if (cJSON_IsObject(x = cJSON_GetObjectItemCaseSensitive(doc, "device"))) {
		sum_device(x, &d->dev[d->ndev++]);
	}
	snprintf(d->hostname, sizeof(d->hostname), "%s",
		 text_of(host, "hostname") ? hmb_shown(text_of(host, "hostname")) : "");
	snprintf(d->started_utc, sizeof(d->started_utc), "%s",
		 text_of(doc, "started_utc") ? hmb_shown(text_of(doc, "started_utc")) : "");
	snprintf(d->command, sizeof(d->command), "%s",
		 text_of(doc, "command") ? hmb_shown(text_of(doc, "command")) : "");
	d->complete = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "complete"));
	sum_metadata(d, doc);
	return 0;
}

int hmb_sum_doc_parse(const char *text, size_t len, const char *name, struct hmb_sum_doc *d,
		      char *err, size_t errlen)
{
	cJSON *doc;

	memset(d, 0, sizeof(*d));
	if (!(doc = parse_document(name, text, len, err, errlen)))
		return -1;
	sum_doc_from(doc, name, d);
	cJSON_Delete(doc);
	return 0;
}

int hmb_sum_doc_load(const char *path, struct hmb_sum_doc *d, char *err, size_t errlen)
{
	size_t len = 0;
	char *text;
	int rc;

	memset(d, 0, sizeof(*d));
	if (!(text = read_whole(path, &len, err, errlen)))
		return -1;
	rc = hmb_sum_doc_parse(text, len, path, d, err, errlen);
	free(text);
	return rc;
}
