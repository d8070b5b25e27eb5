/*
 * summary_json.c - the summary's headline figures as the document's
 * "summary" object (docs/schema.md).
 */
#include "output/summary.h"

#include <cjson/cJSON.h>

#include "doc/json_write.h"
#include "engine/record.h"

/* The summary's figures (summary.h), each with the record it was taken from:
 * module, case and parameters, as the results hold them. */
cJSON *hmb_summary_json(const struct hmb_sum_col *c)
{
	cJSON *o = cJSON_CreateObject(), *a, *x, *n, *y, *z;

	hmb_json_add_int(o, "gpu", c->gpu);
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
		cJSON_AddItemToObject(x, "params", hmb_json_kv(&f->rec->params, 0));
		cJSON_AddStringToObject(x, "figure", f->h->figure);
		if (f->base) {
			n = cJSON_AddObjectToObject(x, "over");
			cJSON_AddStringToObject(n, "case", f->base->name);
			cJSON_AddItemToObject(n, "params", hmb_json_kv(&f->base->params, 0));
		} else {
			cJSON_AddNullToObject(x, "over");
		}
		cJSON_AddNumberToObject(x, "value", f->value);
		cJSON_AddStringToObject(x, "unit", f->unit);
		hmb_json_add_bool(x, "higher_is_better", f->direction ? f->direction > 0 : -1);
		hmb_json_add_positive(x, "peak_gbps", f->peak_gbps);
		hmb_json_add_positive(x, "peak_fraction", f->fraction);
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
	cJSON_AddNumberToObject(x, "ran_beside_gpus", (double)c->beside);
	cJSON_AddNumberToObject(x, "host_link_shared", (double)c->host_shared);
	y = cJSON_AddObjectToObject(x, "resolution");
	cJSON_AddNumberToObject(y, "figures", (double)c->resolved);
	cJSON_AddNumberToObject(y, "within_5", (double)c->within5);
	cJSON_AddNumberToObject(y, "within_10", (double)c->within10);
	n = cJSON_AddArrayToObject(x, "findings");
	for (int i = 0; i < c->nfindings; i++) {
		cJSON *f = cJSON_CreateObject();
		cJSON_AddStringToObject(f, "module", c->finding_module[i]);
		cJSON_AddStringToObject(f, "text", c->findings[i]);
		cJSON_AddItemToArray(n, f);
	}
	z = cJSON_AddArrayToObject(y, "too_noisy_for_10");
	for (int i = 0; i < c->nnoisy; i++) {
		cJSON *f = cJSON_CreateObject();
		cJSON_AddStringToObject(f, "module", c->noisy[i].module);
		cJSON_AddNumberToObject(f, "median_resolution_rel", c->noisy[i].resolution);
		cJSON_AddStringToObject(f, "noise_from", c->noisy[i].documents ? "documents" : "runs");
		cJSON_AddItemToArray(z, f);
	}
	cJSON_AddNumberToObject(x, "unsupported", (double)c->unsupported);
	cJSON_AddNumberToObject(x, "failed", (double)c->failed);
	cJSON_AddNumberToObject(x, "skipped", (double)c->skipped);
	hmb_json_add_str(x, "throttled", c->throttled);
	hmb_json_add_str(x, "link_below_max", c->link_below);
	a = cJSON_AddArrayToObject(x, "not_ok");
	for (int i = 0; i < c->nnot_ok; i++) {
		const struct hmb_record *r = c->not_ok[i].first;
		n = cJSON_CreateObject();
		cJSON_AddStringToObject(n, "module", r->module);
		cJSON_AddStringToObject(n, "case", r->name);
		cJSON_AddStringToObject(n, "status", hmb_status_name(r->status));
		hmb_json_add_str(n, "reason", r->reason);
		cJSON_AddNumberToObject(n, "count", (double)c->not_ok[i].count);
		cJSON_AddItemToArray(a, n);
	}
	return o;
}
