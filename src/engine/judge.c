/*
 * judge.c - each record of several runs given its resolution: how small a
 * change between two documents its figure can show (stats/resolution.h),
 * from its runs and the report's records alike.
 */
#include "engine/judge.h"

#include <math.h>
#include <stdlib.h>

#include "stats/resolution.h"
#include "util/util.h"

/* A record's size in bytes (0: none). */
static double size_of(const struct hmb_record *r)
{
	const struct hmb_kv *v = hmb_kv_find(&r->params, "size");

	return v && v->type == HMB_KV_NUM ? v->num : 0;
}

static size_t total_samples(const struct hmb_run_figures *f)
{
	size_t n = 0;

	for (size_t k = 0; k < f->count; k++)
		n += f->samples[k];
	return n;
}

void hmb_report_judge_resolution(struct hmb_report *rep)
{
	size_t n = 0, i = 0;
	struct hmb_noise_in *in;
	struct hmb_noise_out *out;

	for (struct hmb_record *r = rep->head; r; r = r->next)
		n++;
	in = hmb_xcalloc(n + 1, sizeof(*in));
	out = hmb_xcalloc(n + 1, sizeof(*out));
	for (struct hmb_record *r = rep->head; r; r = r->next, i++) {
		const struct hmb_run_figures *f = r->runs;
		in[i] = (struct hmb_noise_in){ r->module, r->name, NULL, hmb_record_gpu(r),
					       size_of(r), NULL, NULL, 0, NAN };
		if (!f || r->status != HMB_OK)
			continue;
		in[i].runs = f->median;
		in[i].doc = f->doc;
		in[i].nruns = f->count;
		in[i].within = total_samples(f) == r->nsamples
				       ? hmb_noise_within_runs(r->samples, f->samples, f->count) : NAN;
	}
	hmb_noise_model(in, n, out);
	i = 0;
	for (struct hmb_record *r = rep->head; r; r = r->next, i++) {
		if (!r->runs)
			continue;
		r->runs->res = out[i];
		r->runs->judged = r->status == HMB_OK && out[i].resolution > 0;
	}
	free(in);
	free(out);
}
