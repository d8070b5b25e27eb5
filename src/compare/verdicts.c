/* verdicts.c - compare's verdicts on a summary's headlines, for the HTML
 * report: a ratio there is green or red only where compare flags its figure
 * (better, WORSE), and says what compare says of the rest (n.s., ?N%, ?), so
 * that the two tell one story. The documents are read again as compare reads
 * them and judged by compare's own code (hmb_compare_judge: the noise of each
 * figure, Benjamini-Hochberg over all the figures of the pair); each
 * headline's record is found among compare's results by its module, case,
 * GPU and the parameters that identify it. */
#include "compare/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/loaded.h"
#include "doc/renames.h"
#include "engine/record.h"
#include "output/summary.h"
#include "util/util.h"

/* Is parameter p of a compare result the value of record r's parameter?
 * (host_memory: the kind a renamed case now names.) */
static int same_param(const struct hmb_param *p, const struct hmb_record *r, const char *kind)
{
	const struct hmb_kv *kv = hmb_kv_find(&r->params, p->name);

	if (!strncmp(p->exact, "j:", 2))
		return 1; /* JSON as a parameter: the record has none to set against it */
	if (!kv)
		return 0;
	switch (kv->type) {
	case HMB_KV_NUM:
		return !strncmp(p->exact, "n:", 2) && strtod(p->exact + 2, NULL) == kv->num;
	case HMB_KV_BOOL:
		return !strcmp(p->exact, kv->num != 0 ? "b:1" : "b:0");
	case HMB_KV_STR:
		if (kind && !strcmp(p->name, "host_memory"))
			return !strcmp(p->exact + 2, kind);
		return !strncmp(p->exact, "s:", 2) && !strcmp(p->exact + 2, kv->str);
	}
	return 0;
}

/* Is result res of a document (compare's, identified) the result record r
 * of the same document was read into: its module, case under its current
 * name, GPU, and every parameter that identifies it? */
static int same_result(const struct hmb_result *res, const struct hmb_record *r)
{
	const struct hmb_kv *coherence = hmb_kv_find(&r->params, "coherence");
	const char *kind, *name;
	char now[256];

	if (strcmp(res->module, r->module) || res->gpu != hmb_record_gpu(r))
		return 0;
	name = hmb_case_current_name(r->module, r->name, coherence && coherence->type ==
				     HMB_KV_STR ? coherence->str : "", now, sizeof(now), &kind);
	if (strcmp(res->kase, name))
		return 0;
	for (size_t k = 0; k < res->np; k++)
		if (!res->p[k].context && !same_param(&res->p[k], r, kind))
			return 0;
	return 1;
}

/* Is compare's figure f the one a headline reads of its record: the
 * record's own (GB/s, us/op or its median: the same samples) or the metric
 * it names? */
static int same_figure(const struct hmb_figure *f, const struct hmb_headline *h)
{
	int own = f->main;

	if (!strcmp(h->figure, "GB/s") || !strcmp(h->figure, "time"))
		return own;
	return !own && !strcmp(f->name, h->figure);
}

static void take(void *arg, int other, const struct hmb_compare_judged *j)
{
	struct hmb_sum *s = arg;
	const struct hmb_result *a = &j->base->res[j->a->result], *b = &j->other->res[j->b->result];

	if (other >= s->n)
		return;
	for (size_t h = 0; h < hmb_nheadlines; h++) {
		const struct hmb_sum_cell *base = &s->col[0].cell[h];
		struct hmb_sum_cell *c = &s->col[other].cell[h];
		const struct hmb_record *mine[2] = { base->rec, base->base };
		const struct hmb_record *theirs[2] = { c->rec, c->base };
		if (!base->found || !c->found || !same_figure(j->a, base->h))
			continue;
		for (int k = 0; k < 2; k++) {
			struct hmb_sum_verdict *v = &c->verdict[k];
			if (!mine[k] || !theirs[k] || !same_result(a, mine[k]))
				continue;
			/* compare paired the base's figure with another of the other's
			 * than the summary did: no verdict on the summary's */
			if (!same_result(b, theirs[k]))
				continue;
			v->state = HMB_VERDICT_ROW;
			snprintf(v->text, sizeof(v->text), "%s", j->verdict);
			v->flag = !strcmp(j->verdict, "better") ? 1 : !strcmp(j->verdict, "WORSE") ? -1 : 0;
			v->p = j->p;
			v->resolution = j->resolution;
			if (snprintf(v->row, sizeof(v->row), "%s %s", j->a->label, j->a->name) >=
			    (int)sizeof(v->row))
				memcpy(v->row + sizeof(v->row) - 4, "...", 4);
		}
	}
}

void hmb_compare_summary_verdicts(struct hmb_sum *s, int gpu, double threshold)
{
	char **files = hmb_xcalloc((size_t)s->n + 1, sizeof(*files));
	int stdin_read = 0;

	for (int i = 0; i < s->n; i++) {
		files[i] = s->col[i].doc->path;
		stdin_read |= !strcmp(files[i], "-"); /* read once, by the summary */
	}
	if (!stdin_read && s->n > 1) {
		for (int i = 1; i < s->n; i++)
			for (size_t h = 0; h < hmb_nheadlines; h++)
				for (int k = 0; k < 2; k++)
					s->col[i].cell[h].verdict[k] = (struct hmb_sum_verdict){
						HMB_VERDICT_NO_ROW, "", 0, NAN, NAN, "" };
		if (hmb_compare_judge(s->n, files, gpu, threshold, take, s) == 0)
			s->threshold = threshold;
		else /* compare refuses them: no verdict at all */
			for (int i = 1; i < s->n; i++)
				for (size_t h = 0; h < hmb_nheadlines; h++)
					memset(s->col[i].cell[h].verdict, 0,
					       sizeof(s->col[i].cell[h].verdict));
	}
	free(files);
}
