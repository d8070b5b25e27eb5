/* verdicts.c - compare's verdicts on a summary's headlines, for the HTML
 * report: a ratio there is green or red only where compare flags its figure
 * (better, WORSE), and says what compare says of the rest (n.s., ?N%, ?), so
 * that the two tell one story. The documents the summary read are judged by
 * compare's own code (hmb_compare_judge: the noise of each figure,
 * Benjamini-Hochberg over all the figures of the pair); a headline takes the
 * verdict on its own record's figure. */
#include "compare/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/record.h"
#include "output/summary.h"
#include "util/util.h"

/* Is compare's figure f the one a headline reads of its record: the
 * record's own (GB/s, us/op or its median: the same samples) or the metric
 * it names? */
static int same_figure(const struct hmb_compare_figure *f, const struct hmb_headline *h)
{
	int own = f->main;

	if (!strcmp(h->figure, "GB/s") || !strcmp(h->figure, "time"))
		return own;
	return !own && !strcmp(f->name, h->figure);
}

static void take(void *arg, int other, const struct hmb_compare_judged *j)
{
	struct hmb_sum *s = arg;
	const struct hmb_record *a = j->base->res[j->a->result].rec;
	const struct hmb_record *b = j->other->res[j->b->result].rec;

	if (other >= s->n)
		return;
	for (size_t h = 0; h < s->nheadlines; h++) {
		const struct hmb_sum_cell *base = &s->col[0].cell[h];
		struct hmb_sum_cell *c = &s->col[other].cell[h];
		const struct hmb_record *mine[2] = { base->rec, base->base };
		const struct hmb_record *theirs[2] = { c->rec, c->base };
		if (!base->found || !c->found || !same_figure(j->a, base->h))
			continue;
		for (int k = 0; k < 2; k++) {
			struct hmb_sum_verdict *v = &c->verdict[k];
			if (!mine[k] || !theirs[k] || a != mine[k])
				continue;
			/* compare paired the base's figure with another of the other's
			 * than the summary did: no verdict on the summary's */
			if (b != theirs[k])
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
	const struct hmb_sum_doc **docs = hmb_xcalloc((size_t)s->n + 1, sizeof(*docs));

	for (int i = 0; i < s->n; i++)
		docs[i] = s->col[i].doc;
	if (s->n > 1) {
		for (int i = 1; i < s->n; i++)
			for (size_t h = 0; h < s->nheadlines; h++)
				for (int k = 0; k < 2; k++)
					s->col[i].cell[h].verdict[k] = (struct hmb_sum_verdict){
						HMB_VERDICT_NO_ROW, "", 0, NAN, NAN, "" };
		if (hmb_compare_judge(docs, s->n, gpu, threshold, take, s) == 0)
			s->threshold = threshold;
		else /* compare refuses them: no verdict at all */
			for (int i = 1; i < s->n; i++)
				for (size_t h = 0; h < s->nheadlines; h++)
					memset(s->col[i].cell[h].verdict, 0,
					       sizeof(s->col[i].cell[h].verdict));
	}
	free(docs);
}
