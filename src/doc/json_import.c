/*
 * json_import.c - all: a module's document, written by its own process, taken
 * into the report (its records, telemetry samples and device).
 */
#include "doc/json_import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/identity.h"
#include "doc/json_read.h"
#include "engine/judge.h"
#include "engine/report.h"
#include "system/device.h"
#include "util/text.h"
#include "util/util.h"

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

/* The roles a result declares (json_write.c: "context", each parameter that
 * is not identity, and "gpu_param", the one that names its GPU); a result of
 * an older document, which declares none, gets what they meant then
 * (identity.c). */
static void import_roles(struct hmb_record *r, const cJSON *o)
{
	const cJSON *context = cJSON_GetObjectItemCaseSensitive(o, "context"), *v;
	const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(o, "gpu_param");

	if (!cJSON_IsArray(context)) {
		hmb_identity_legacy_roles(r);
		return;
	}
	cJSON_ArrayForEach(v, context)
		if (cJSON_IsString(v))
			hmb_param_set_role(r, v->valuestring, HMB_ROLE_CONTEXT);
	if (cJSON_IsString(gpu))
		hmb_param_set_role(r, gpu->valuestring, HMB_ROLE_GPU);
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

/* The unit of r's metric name ("" where it has none). */
static const char *metric_unit(const struct hmb_record *r, const char *name)
{
	const struct hmb_kv *m = hmb_kv_find(&r->metrics, name);

	return m && m->unit ? m->unit : "";
}

/* A result's runs (several runs): how many samples each gave, its median,
 * its metrics and, in a merge, its document, so that what the runs' agreement
 * says of the result is said again. Taken only where the counts add up to
 * the samples. */
static void import_runs(struct hmb_record *r, const cJSON *runs)
{
	const cJSON *samples = cJSON_GetObjectItemCaseSensitive(runs, "samples");
	const cJSON *medians = cJSON_GetObjectItemCaseSensitive(runs, "median_s");
	const cJSON *docs = cJSON_GetObjectItemCaseSensitive(runs, "documents"), *m;
	int n = cJSON_GetArraySize(samples);
	struct hmb_run_figures *f;
	size_t total = 0;

	if (!cJSON_IsArray(samples) || !cJSON_IsArray(medians) || n < 1 ||
	    cJSON_GetArraySize(medians) != n)
		return;
	f = hmb_xcalloc(1, sizeof(*f));
	f->count = f->cap = (size_t)n;
	f->samples = hmb_xcalloc((size_t)n, sizeof(*f->samples));
	f->median = hmb_xcalloc((size_t)n, sizeof(*f->median));
	for (int k = 0; k < n; k++) {
		const cJSON *c = cJSON_GetArrayItem(samples, k), *x = cJSON_GetArrayItem(medians, k);
		f->samples[k] = cJSON_IsNumber(c) && c->valuedouble >= 0 ? (size_t)c->valuedouble : 0;
		f->median[k] = cJSON_IsNumber(x) ? x->valuedouble : NAN;
		total += f->samples[k];
	}
	if (cJSON_IsArray(docs) && cJSON_GetArraySize(docs) == n) {
		f->doc = hmb_xcalloc((size_t)n, sizeof(*f->doc));
		for (int k = 0; k < n; k++) {
			const cJSON *d = cJSON_GetArrayItem(docs, k);
			f->doc[k] = cJSON_IsNumber(d) && d->valuedouble >= 0 && d->valuedouble < 1e6
					    ? (int)d->valuedouble : 0;
		}
	}
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(runs, "metrics")) {
		struct hmb_run_metric *x;
		if (!cJSON_IsArray(m) || cJSON_GetArraySize(m) != n || !m->string)
			continue;
		f->metric = hmb_xrealloc(f->metric, (f->nmetrics + 1) * sizeof(*f->metric));
		x = &f->metric[f->nmetrics++];
		x->name = hmb_xstrdup(m->string);
		x->unit = hmb_xstrdup(metric_unit(r, m->string));
		x->value = hmb_xcalloc((size_t)n, sizeof(double));
		for (int k = 0; k < n; k++) {
			const cJSON *v = cJSON_GetArrayItem(m, k);
			x->value[k] = cJSON_IsNumber(v) ? v->valuedouble : NAN;
		}
	}
	if (total != r->nsamples) {
		hmb_run_figures_free(f);
		return;
	}
	r->runs = f;
}

static void import_record(struct hmb_report *rep, const cJSON *o)
{
	struct hmb_record *r = hmb_record_new(hmb_json_str(o, "module"), hmb_json_str(o, "case"));
	const cJSON *samples = cJSON_GetObjectItemCaseSensitive(o, "samples_s"), *v;
	enum hmb_status st = status_of(hmb_json_str(o, "status"));

	import_kv(r, cJSON_GetObjectItemCaseSensitive(o, "params"), 0);
	import_roles(r, o);
	import_kv(r, cJSON_GetObjectItemCaseSensitive(o, "metrics"), 1);
	import_kv(r, cJSON_GetObjectItemCaseSensitive(o, "observed"), 2);
	if (hmb_json_num(o, "bytes") > 0)
		hmb_record_bytes(r, hmb_json_num(o, "bytes"));
	if (hmb_json_num(o, "ops") > 0)
		hmb_record_ops(r, hmb_json_num(o, "ops"));
	if (hmb_json_num(o, "peak_gbps") > 0)
		hmb_record_peak(r, hmb_json_num(o, "peak_gbps"));
	cJSON_ArrayForEach(v, samples)
		if (cJSON_IsNumber(v))
			hmb_sample(r, v->valuedouble);
	import_runs(r, cJSON_GetObjectItemCaseSensitive(o, "runs"));
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "stability")) && cJSON_IsObject(v)) {
		const cJSON *stable = cJSON_GetObjectItemCaseSensitive(v, "stable");
		const cJSON *why = cJSON_GetObjectItemCaseSensitive(v, "reason");
		if (cJSON_IsBool(stable))
			r->written_stable = cJSON_IsTrue(stable);
		if (cJSON_IsString(why))
			r->written_reason = hmb_xstrdup(why->valuestring);
	}
	if (st != HMB_OK)
		hmb_record_status(r, st, "%s", hmb_json_str(o, "reason"));
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
		x->procs[n].pid = (long)hmb_json_num(p, "pid");
		x->procs[n].used_bytes = cJSON_IsNumber(used) ? (long long)used->valuedouble : -1;
		x->procs[n].own = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "own"));
		x->own_seen |= x->procs[n].own;
		n++;
	}
	x->nprocs = hmb_json_num(s, "processes_count") > n ? (int)hmb_json_num(s, "processes_count") : n;
}

static void import_telemetry(struct hmb_telemetry *t, const cJSON *o)
{
	const cJSON *s;
	if (!cJSON_IsObject(o))
		return;
	if (!t->source[0] && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "source")))
		snprintf(t->source, sizeof(t->source), "%s", hmb_json_str(o, "source"));
	t->available |= cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "available"));
	if (!t->procs_source[0] &&
	    cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "processes_source")))
		snprintf(t->procs_source, sizeof(t->procs_source), "%s",
			 hmb_json_str(o, "processes_source"));
	if ((!t->available || !t->reason[0]) &&
	    cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "reason")))
		snprintf(t->reason, sizeof(t->reason), "%s", hmb_json_str(o, "reason"));
	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(o, "samples")) {
		struct hmb_gpu_sample *x = hmb_telemetry_add(t);
		const cJSON *thr = cJSON_GetObjectItemCaseSensitive(s, "throttled");
		snprintf(x->module, sizeof(x->module), "%s", hmb_json_str(s, "module"));
		snprintf(x->when, sizeof(x->when), "%s", hmb_json_str(s, "when"));
		x->sm_clock_mhz = hmb_json_num(s, "sm_clock_mhz");
		x->mem_clock_mhz = hmb_json_num(s, "memory_clock_mhz");
		x->temperature_c = hmb_json_num(s, "temperature_c");
		x->power_w = hmb_json_num(s, "power_w");
		x->link_gen = (int)hmb_json_num(s, "pcie_generation");
		x->link_width = (int)hmb_json_num(s, "pcie_width");
		x->link_max_gen = (int)hmb_json_num(s, "pcie_max_generation");
		x->link_max_width = (int)hmb_json_num(s, "pcie_max_width");
		x->throttle_mask = (long long)hmb_json_num(s, "throttle_reasons_mask");
		snprintf(x->throttle, sizeof(x->throttle), "%s",
			 cJSON_IsString(cJSON_GetObjectItemCaseSensitive(s, "throttle_reasons"))
				 ? hmb_json_str(s, "throttle_reasons") : "");
		x->throttled = cJSON_IsBool(thr) ? cJSON_IsTrue(thr) : -1;
		import_processes(x, s);
	}
}

void hmb_json_import_doc(struct hmb_report *rep, const cJSON *doc)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results"))
		if (cJSON_IsObject(r))
			import_record(rep, r);
	import_telemetry(&rep->telemetry, cJSON_GetObjectItemCaseSensitive(doc, "telemetry"));
	hmb_report_judge_resolution(rep); /* the marks of several runs, as written */
}

void hmb_json_import_document(struct hmb_report *rep, const cJSON *doc)
{
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(doc, "device");
	const cJSON *rt = cJSON_GetObjectItemCaseSensitive(doc, "runtime");

	if (cJSON_IsObject(dev)) {
		int seen = 0;
		for (int i = 0; i < rep->ndevices; i++)
			seen |= hmb_json_num(rep->devices[i], "ordinal") == hmb_json_num(dev, "ordinal");
		if (!seen) {
			rep->devices = hmb_xrealloc(rep->devices, (size_t)(rep->ndevices + 1) *
						    sizeof(*rep->devices));
			rep->devices[rep->ndevices++] = cJSON_Duplicate(dev, 1);
		}
	}
	hmb_json_import_doc(rep, doc);
	if (hmb_json_num(rt, "runtime_version") > 0 && rep->device.runtime_version <= 0) {
		rep->device.runtime_version = (int)hmb_json_num(rt, "runtime_version");
		rep->device.driver_version = (int)hmb_json_num(rt, "driver_version");
	}
}

int hmb_json_import(struct hmb_report *rep, const char *path, char *err, size_t errlen)
{
	cJSON *doc = hmb_doc_load(path, err, errlen);

	if (!doc)
		return -1;
	hmb_json_import_document(rep, doc);
	cJSON_Delete(doc);
	return 0;
}

int hmb_report_device_arch(const struct hmb_report *rep, int ordinal, char *buf, size_t len)
{
	int found = -1;

	for (int i = 0; i < rep->ndevices && found < 0; i++) {
		const cJSON *d = rep->devices[i];
		const cJSON *arch = cJSON_GetObjectItemCaseSensitive(d, "arch");
		if (cJSON_IsString(arch) && *arch->valuestring &&
		    (ordinal < 0 || hmb_json_num(d, "ordinal") == ordinal)) {
			snprintf(buf, len, "%s", arch->valuestring);
			found = 0;
		}
	}
	return found;
}

void hmb_report_gpu_peaks(const struct hmb_report *rep, int gpu, double *link_gbps,
			  double *hbm_gbps)
{
	*link_gbps = *hbm_gbps = 0;
	if (rep->have_device && (gpu < 0 || rep->device.ordinal == gpu)) {
		*link_gbps = rep->device.model.peak_gbps > 0 ? rep->device.model.peak_gbps : 0;
		*hbm_gbps = hmb_hbm_peak_gbps(rep->device.memory_clock_khz,
					      rep->device.memory_bus_width_bits);
		return;
	}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < rep->ndevices; i++) {
			const cJSON *d = rep->devices[i];
			if (pass || gpu < 0 || hmb_json_num(d, "ordinal") == gpu) {
				*link_gbps = hmb_device_link_peak(d);
				*hbm_gbps = hmb_device_hbm_peak(d);
				return;
			}
		}
}
