/* report_html.c - `summary -f html`: one self-contained HTML file (no
 * scripts, styles inline, nothing fetched) holding the summary table and
 * anomalies, the systems side by side, and per module a plot of each case
 * measured at several sizes: GB/s (else time per operation) against size on
 * a log2 axis, one line per document, and per GPU where a document holds
 * several, all on one scale, named in the legend. */
#include "output/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc/identity.h"
#include "doc/loaded.h"
#include "output/svg.h"
#include "util/util.h"

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}"
	"h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;"
	"vertical-align:top}th{background:#f4f4f4;text-align:left}td.v{text-align:right;"
	"white-space:nowrap}.peak{color:#666}.mark{color:#b35900;font-weight:bold}"
	".better{color:#1a7f37}.worse{color:#c62828}.plots{display:flex;flex-wrap:wrap;gap:12px}"
	"svg.plot{border:1px solid #eee;background:#fff;font:11px system-ui,sans-serif}"
	"svg.plot .title{font-weight:bold;font-size:12px}svg.plot .grid{stroke:#e6e6e6}"
	"svg.plot .tick{stroke:#888}svg.plot .frame{fill:none;stroke:#aaa}"
	"svg.plot .axes text{fill:#444}.note{color:#555}";

static void text(FILE *out, const char *s)
{
	hmb_xml_text(out, s);
}

/* ---- the summary table --------------------------------------------------- */

static void summary_table(FILE *out, const struct hmb_sum *s)
{
	char v[32], r[32];

	fprintf(out, "<table class=\"summary\">\n<thead><tr><th>figure</th><th>unit</th>");
	for (int i = 0; i < s->n; i++) {
		fprintf(out, "<th>");
		text(out, s->col[i].name);
		fprintf(out, "</th>");
	}
	fprintf(out, "<th>what</th></tr></thead>\n<tbody>\n");
	for (size_t h = 0; h < hmb_nheadlines; h++) {
		const struct hmb_sum_cell *base = &s->col[0].cell[h], *any = NULL;
		for (int i = 0; i < s->n && !any; i++)
			any = s->col[i].cell[h].found ? &s->col[i].cell[h] : NULL;
		if (!any)
			continue;
		fprintf(out, "<tr><td>");
		text(out, hmb_headlines[h].name);
		fprintf(out, "</td><td>");
		text(out, any->unit);
		fprintf(out, "</td>");
		for (int i = 0; i < s->n; i++) {
			const struct hmb_sum_cell *x = &s->col[i].cell[h];
			double ratio = hmb_sum_ratio(base, x);
			fprintf(out, "<td class=\"v\">");
			if (!x->found) {
				if (*x->missing) {
					fprintf(out, "no figure at ");
					text(out, x->missing);
					fprintf(out, "</td>");
				} else {
					fprintf(out, "-</td>");
				}
				continue;
			}
			fprintf(out, "<span class=\"value\">%s</span>",
				hmb_sum_value_text(x->value, 1, v, sizeof(v)));
			if (x->peak_gbps > 0)
				fprintf(out, " <span class=\"peak\">(%.0f%%)</span>", 100 * x->fraction);
			if (*x->mark) {
				fprintf(out, " <span class=\"mark\">");
				text(out, x->mark);
				fprintf(out, "</span>");
			}
			if (i && *hmb_sum_ratio_text(base, x, 1, r, sizeof(r)))
				fprintf(out, " <span class=\"ratio%s\">%s</span>",
					ratio > 1.05 ? " better" : ratio < 0.95 ? " worse" : "", r);
			fprintf(out, "</td>");
		}
		fprintf(out, "<td>");
		text(out, base->found ? base->at : any->at);
		fprintf(out, "%s", *(base->found ? base->at : any->at) ? "; " : "");
		text(out, hmb_headlines[h].about);
		fprintf(out, "</td></tr>\n");
	}
	fprintf(out, "</tbody></table>\n<p class=\"note\">value (share of the physical peak where "
		"the document knows one), marks (~ unstable, ? too few samples, D drift, B "
		"bimodal, o outliers, S another process on the GPU)%s.</p>\n",
		s->n > 1 ? ", then the ratio to the first document's value: above 1 better, "
		"whichever way the unit counts" : "");
}

static void anomalies(FILE *out, const struct hmb_sum *s)
{
	char buf[512];

	fprintf(out, "<h2 id=\"anomalies\">Anomalies</h2>\n<ul>\n");
	for (int i = 0; i < s->n; i++) {
		const struct hmb_sum_col *c = &s->col[i];
		fprintf(out, "<li><b>");
		text(out, c->name);
		fprintf(out, "</b> (");
		text(out, c->system);
		fprintf(out, ")<ul><li>telemetry: ");
		text(out, hmb_sum_telemetry_text(c, buf, sizeof(buf)));
		fprintf(out, "</li><li>stability: ");
		text(out, hmb_sum_stability_text(c, buf, sizeof(buf)));
		fprintf(out, "</li><li>resolution: ");
		text(out, hmb_sum_resolution_text(c, buf, sizeof(buf)));
		for (int k = 0; k < c->nnode; k++) {
			fprintf(out, "</li><li>node: ");
			text(out, c->node[k]);
		}
		fprintf(out, "</li><li>cases not ok: ");
		text(out, hmb_sum_not_ok_text(c, buf, sizeof(buf)));
		if (c->nnot_ok) {
			fprintf(out, "<ul>");
			for (int k = 0; k < c->nnot_ok; k++) {
				fprintf(out, "<li>");
				text(out, hmb_sum_not_ok_line(&c->not_ok[k], buf, sizeof(buf)));
				fprintf(out, "</li>");
			}
			if (c->not_ok_reasons > (size_t)c->nnot_ok)
				fprintf(out, "<li>and %zu more reasons</li>",
					c->not_ok_reasons - (size_t)c->nnot_ok);
			fprintf(out, "</ul>");
		}
		fprintf(out, "</li></ul></li>\n");
	}
	fprintf(out, "</ul>\n");
}

static void systems(FILE *out, const struct hmb_sum *s)
{
	const struct hmb_sum_doc *first = s->col[0].doc;

	fprintf(out, "<h2 id=\"systems\">Systems</h2>\n<table class=\"systems\">\n<tr><th></th>");
	for (int i = 0; i < s->n; i++) {
		fprintf(out, "<th>");
		text(out, s->col[i].name);
		fprintf(out, "</th>");
	}
	fprintf(out, "</tr>\n");
	for (int k = 0; k < first->nmeta; k++) {
		fprintf(out, "<tr><th>");
		text(out, first->meta[k].key);
		fprintf(out, "</th>");
		for (int i = 0; i < s->n; i++) {
			const struct hmb_sum_doc *d = s->col[i].doc;
			fprintf(out, "<td>");
			for (int j = 0; j < d->nmeta; j++)
				if (!strcmp(d->meta[j].key, first->meta[k].key))
					text(out, d->meta[j].value);
			fprintf(out, "</td>");
		}
		fprintf(out, "</tr>\n");
	}
	fprintf(out, "</table>\n");
}

/* ---- the plots ------------------------------------------------------------- */

/* A case measured at several sizes: one panel; its records, each with the
 * document it is from. */
struct entry {
	const struct hmb_sum_col *col;
	const struct hmb_record *rec;
	double size, y;
};

struct panel {
	const char *module, *kase;
	char unit[16];
	struct entry *e;
	size_t n, cap;
};

/* Is param of r context (compare.c: the GPU index, tuned counts, text,
 * geometry)? Then lines are not told apart by it. */
static int context(const struct hmb_record *r, const char *param)
{
	struct hmb_param p[64];
	struct hmb_result res = { .module = r->module, .kase = r->name, .p = p, .gpu = -1 };

	for (size_t k = 0; k < r->params.n && res.np < 64; k++)
		p[res.np++] = (struct hmb_param){ .name = r->params.v[k].key };
	return hmb_compare_is_context(&res, param);
}

/* The y of a record: GB/s where it moved bytes, else us per operation, else
 * its median time in us; the unit in unit. 0 where it has none. */
static double y_of(const struct hmb_record *r, char *unit, size_t len)
{
	struct hmb_summary s;

	hmb_record_summarize(r, &s);
	if (!s.has_stats)
		return 0;
	if (s.gbps_median > 0) {
		snprintf(unit, len, "GB/s");
		return s.gbps_median;
	}
	snprintf(unit, len, "%s", s.us_per_op_median > 0 ? "us per op" : "us (median)");
	return s.us_per_op_median > 0 ? s.us_per_op_median : s.stats.median * 1e6;
}

static void add_entry(struct panel **panels, size_t *n, const struct hmb_sum_col *c,
		      const struct hmb_record *r)
{
	const struct hmb_kv *size = hmb_kv_find(&r->params, "size");
	struct panel *p = NULL;
	char unit[16];
	double y = y_of(r, unit, sizeof(unit));

	if (!size || size->type != HMB_KV_NUM || !(size->num >= 1) || !(size->num <= 0x1p60) ||
	    !(y > 0) || !isfinite(y))
		return;
	for (size_t i = 0; i < *n && !p; i++)
		if (!strcmp((*panels)[i].module, r->module) && !strcmp((*panels)[i].kase, r->name))
			p = &(*panels)[i];
	if (!p) {
		*panels = hmb_xrealloc(*panels, (*n + 1) * sizeof(**panels));
		p = &(*panels)[(*n)++];
		memset(p, 0, sizeof(*p));
		p->module = r->module;
		p->kase = r->name;
		snprintf(p->unit, sizeof(p->unit), "%s", unit);
	}
	if (strcmp(p->unit, unit))
		return;
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->e = hmb_xrealloc(p->e, p->cap * sizeof(*p->e));
	}
	p->e[p->n++] = (struct entry){ c, r, size->num, y };
}

static int same_value(const struct hmb_kv *a, const struct hmb_kv *b)
{
	if (!a || !b)
		return a == b;
	if (a->type != b->type)
		return 0;
	return a->type == HMB_KV_STR ? !strcmp(a->str, b->str) : a->num == b->num;
}

/* Does param set lines apart: two records of one document and GPU, at one
 * size, that differ in it? (A count that grows with the size does not.) */
static int splits(const struct panel *p, const char *param)
{
	for (size_t i = 0; i < p->n; i++)
		for (size_t j = i + 1; j < p->n; j++)
			if (p->e[i].col == p->e[j].col && p->e[i].size == p->e[j].size &&
			    hmb_record_gpu(p->e[i].rec) == hmb_record_gpu(p->e[j].rec) &&
			    !same_value(hmb_kv_find(&p->e[i].rec->params, param),
					hmb_kv_find(&p->e[j].rec->params, param)))
				return 1;
	return 0;
}

/* The line of entry e: its document, its GPU where the document holds
 * several, and the parameters that set lines apart. */
static void line_of(const struct panel *p, const struct entry *e, char *label, size_t len)
{
	const struct hmb_record *r = e->rec;
	int g = hmb_record_gpu(r);
	size_t used = (size_t)snprintf(label, len, "%s", e->col->name);

	if (e->col->ngpus > 1 && g >= 0)
		used += (size_t)snprintf(label + used, len - used, " GPU %d", g);
	for (size_t k = 0; k < r->params.n && used < len; k++) {
		const struct hmb_kv *kv = &r->params.v[k];
		char num[32];
		if (!strcmp(kv->key, "size") || !strcmp(kv->key, "device") ||
		    (!strcmp(kv->key, "gpu") && !strcmp(r->module, "node")) || context(r, kv->key) ||
		    !splits(p, kv->key))
			continue;
		if (kv->type == HMB_KV_STR)
			snprintf(num, sizeof(num), "%.24s", kv->str);
		else
			hmb_number_text(kv->num, num, sizeof(num));
		used += (size_t)snprintf(label + used, len - used, " %s=%s", kv->key, num);
	}
}

/* The lines of a panel into s (p->n of room); how many. *plottable: one of
 * them has two sizes or more. */
static size_t panel_lines(const struct panel *p, struct hmb_svg_series *s, int *plottable)
{
	size_t ns = 0, k;

	*plottable = 0;
	for (size_t i = 0; i < p->n; i++) {
		char label[sizeof(s->label)];
		line_of(p, &p->e[i], label, sizeof(label));
		for (k = 0; k < ns && strcmp(s[k].label, label); k++)
			;
		if (k == ns)
			snprintf(s[ns++].label, sizeof(s->label), "%s", label);
		hmb_svg_point(&s[k], p->e[i].size, p->e[i].y);
		*plottable |= s[k].x[s[k].n - 1] != s[k].x[0];
	}
	return ns;
}

static void plots(FILE *out, const struct hmb_sum *s)
{
	struct panel *panels = NULL;
	size_t n = 0, drawn = 0;
	const char *module = NULL;

	for (int i = 0; i < s->n; i++)
		for (const struct hmb_record *r = s->col[i].doc->rep.head; r; r = r->next)
			if (r->status == HMB_OK)
				add_entry(&panels, &n, &s->col[i], r);
	fprintf(out, "<h2 id=\"plots\">Plots</h2>\n<p class=\"note\">Each case measured at several "
		"sizes: the median against size, one line per document (and per GPU of a document "
		"of several), all on the panel's one scale.</p>\n");
	for (size_t i = 0; i < n; i++) {
		struct hmb_svg_series *lines = hmb_xcalloc(panels[i].n + 1, sizeof(*lines));
		int plottable;
		size_t nl = panel_lines(&panels[i], lines, &plottable);
		char title[160];
		if (plottable) {
			if (!module || strcmp(module, panels[i].module)) {
				fprintf(out, "%s<h3>", module ? "</div>\n" : "");
				text(out, panels[i].module);
				fprintf(out, "</h3>\n<div class=\"plots\">\n");
				module = panels[i].module;
			}
			snprintf(title, sizeof(title), "%s %s", panels[i].module, panels[i].kase);
			hmb_svg_plot(out, &(struct hmb_svg_plot){ title, panels[i].unit, lines, nl });
			drawn++;
		}
		for (size_t k = 0; k < nl; k++)
			hmb_svg_series_free(&lines[k]);
		free(lines);
		free(panels[i].e);
	}
	if (module)
		fprintf(out, "</div>\n");
	if (!drawn)
		fprintf(out, "<p>No case was measured at several sizes.</p>\n");
	free(panels);
}

void hmb_report_html(FILE *out, const struct hmb_sum *s)
{
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>hipmembench report</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>hipmembench report</h1>\n<p class=\"note\">", style);
	for (int i = 0; i < s->n; i++) {
		fprintf(out, "%s<b>", i ? "; " : "");
		text(out, s->col[i].name);
		fprintf(out, "</b>: ");
		text(out, s->col[i].system);
		if (s->col[i].gpu >= 0)
			fprintf(out, ", GPU %d of %d", s->col[i].gpu, s->col[i].ngpus);
		fprintf(out, " (");
		text(out, s->col[i].doc->path);
		fprintf(out, ")");
	}
	fprintf(out, "</p>\n<h2 id=\"summary\">Summary</h2>\n");
	summary_table(out, s);
	anomalies(out, s);
	systems(out, s);
	plots(out, s);
	fprintf(out, "</body>\n</html>\n");
}
