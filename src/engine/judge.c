/*
 * judge.c - each record of several runs given its resolution: how small a
 * change between two documents its figure can show (stats/resolution.h),
 * from its family's runs pooled over the report and its own.
 */
#include "engine/judge.h"

#include <stdlib.h>

#include "stats/resolution.h"
#include "util/util.h"

/* A record's size in bytes (0: none). */
static double size_of(const struct hmb_record *r)
{
	const struct hmb_kv *v = hmb_kv_find(&r->params, "size");

	return v && v->type == HMB_KV_NUM ? v->num : 0;
}

void hmb_report_judge_resolution(struct hmb_report *rep)
{
	size_t n = 0, i = 0;
	struct hmb_pool_entry *e;
	double mean;

	for (struct hmb_record *r = rep->head; r; r = r->next)
		n++;
	e = hmb_xcalloc(n + 1, sizeof(*e));
	for (struct hmb_record *r = rep->head; r; r = r->next, i++) {
		e[i].family = hmb_family_of(r->module, r->name, "median");
		e[i].size = size_of(r);
		if (r->runs && r->status == HMB_OK)
			hmb_pool_entry_runs(&e[i], r->runs->median, r->runs->count, &mean);
	}
	hmb_pool_estimate(e, n);
	i = 0;
	for (struct hmb_record *r = rep->head; r; r = r->next, i++) {
		if (!r->runs)
			continue;
		r->runs->judged = r->status == HMB_OK && e[i].df >= 1;
		if (r->runs->judged)
			hmb_resolution_of(&e[i], e[i].df + 1, &r->runs->res);
	}
	free(e);
}
