/* report_html.c - `summary -f html`: one self-contained HTML file (no
 * scripts, styles inline, nothing fetched) holding the summary table (each
 * ratio with compare's verdict on its figure, coloured only where compare
 * flags it: src/compare/verdicts.c fills them, the report judges nothing)
 * and anomalies, the systems side by side, then:
 *  - per module, the charts of what its headline varies with and charts
 *    against size on log-log axes (svg.h), as the module declares them
 *    (engine/chart.h), each holding every kind of the module measured at
 *    MIN_SIZES sizes or more (memcpy: every host memory kind of a direction
 *    and API on one chart) of every document, on the GPU its column
 *    summarises: each document in its colour
 *    (the same everywhere in the report), each kind in its marker and dash;
 *    the physical peak as a dashed line where the document knows it; a band
 *    of +-1 sigma of the figure's run-to-run noise where the document holds
 *    several runs; for copies, a second chart of time per copy at small sizes;
 *  - for a document of several GPUs, heatmaps of the peer copies (GB/s, rows
 *    source, columns destination: the matrices a module declares, as the run
 *    prints them) and host copies with every GPU at once against each GPU
 *    alone. */
#include "output/summary.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/module.h"
#include "output/svg.h"
#include "output/table.h"
#include "stats/resolution.h"
#include "util/text.h"
#include "util/util.h"

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}"
	"h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;"
	"vertical-align:top}th{background:#f4f4f4;text-align:left}td.v{text-align:right;"
	"white-space:nowrap}.peak{color:#666}.mark{color:#b35900;font-weight:bold}"
	".better{color:#1a7f37}.worse{color:#c62828}.plots{display:flex;flex-wrap:wrap;gap:12px}"
	".parts{display:block;white-space:normal;font-size:12px;color:#555}"
	"svg.plot{border:1px solid #eee;background:#fff;font:11px system-ui,sans-serif}"
	"svg.plot .title{font-weight:bold;font-size:12px}svg.plot .grid{stroke:#e6e6e6}"
	"svg.plot .tick{stroke:#888}svg.plot .frame{fill:none;stroke:#aaa}"
	"svg.plot .axes text{fill:#444}svg.plot .sub,svg.plot .note{fill:#555}.note{color:#555}"
	".swatch{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:4px;"
	"vertical-align:-1px}";

static void text(FILE *out, const char *s)
{
	hmb_xml_text(out, s);
}

static void swatch(FILE *out, int col)
{
	fprintf(out, "<span class=\"swatch\" style=\"background:%s\"></span>", hmb_svg_colour(col));
}

/* The first n parts of a case ("managed/fault-latency"; n -1: all), or its
 * part n alone (one). */
static void case_parts(const char *kase, int n, int one, char *buf, size_t len)
{
	const char *p = kase;

	for (int k = 0; one && k < n && p; k++)
		p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL;
	if (one) {
		snprintf(buf, len, "%.*s", p ? (int)strcspn(p, "/") : 0, p ? p : "");
		return;
	}
	for (int k = 0; n >= 0 && k < n && p; k++)
		p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL;
	snprintf(buf, len, "%.*s", n < 0 || !p ? (int)strlen(kase) : (int)(p - kase - 1), kase);
}

/* ---- the summary table --------------------------------------------------- */

/* What compare says of a figure (judged at threshold percent), for a tooltip. */
static void verdict_title(FILE *out, const struct hmb_sum_verdict *v, double threshold)
{
	const char *t = v->text;

	if (v->state == HMB_VERDICT_UNSET) {
		fprintf(out, "not judged: compare reads the documents again from their files "
			"(standard input is read once)");
		return;
	}
	if (v->state == HMB_VERDICT_NO_ROW) {
		fprintf(out, "not judged: compare pairs no figure of this document with it");
		return;
	}
	if (!strcmp(t, "better") || !strcmp(t, "WORSE"))
		fprintf(out, "compare: %s, moved by more than %g%% and beyond its noise", t,
			threshold);
	else if (!strcmp(t, "n.s."))
		fprintf(out, "compare: n.s., moved by more than %g%% but within its noise", threshold);
	else if (!strcmp(t, "?"))
		fprintf(out, "compare: ?, not judged: no runs on either side (documents of one "
			"run), its noise from one process to the next is not known");
	else if (t[0] == '?')
		fprintf(out, "compare: %s, cannot judge %g%%: this pair tells a change of %s or "
			"more from noise (95%%)", t, threshold, t + 1);
	else
		fprintf(out, "compare: within %g%% (this pair tells %.2g%% from noise)", threshold,
			100 * v->resolution);
	if (isfinite(v->p))
		fprintf(out, ", p %.2g", v->p);
	fprintf(out, "; its row: ");
	text(out, v->row);
}

/* The ratio of a headline of another document to the base's, and compare's
 * verdict on its figure: green (better) or red (WORSE) only where compare
 * flags it, compare's word otherwise (n.s., ?N%, ?). A headline taken over
 * another case's figure (VMM against realloc) is no figure of compare's:
 * its two figures' verdicts under it, and no colour. */
static void ratio(FILE *out, const struct hmb_sum *s, const struct hmb_sum_cell *base,
		  const struct hmb_sum_cell *x, const char *r)
{
	const struct hmb_sum_verdict *v = &x->verdict[0];
	double change = 100 * (hmb_sum_ratio(base, x) - 1);

	if (x->base) {
		fprintf(out, " <span class=\"ratio\" title=\"%+.0f%%; a ratio of two figures, "
			"each judged by compare apart\">%s</span><span class=\"parts\">", change, r);
		for (int k = 0; k < 2; k++) {
			const struct hmb_record *rec = k ? x->base : x->rec;
			char kind[64];
			case_parts(rec->name, 1, 1, kind, sizeof(kind)); /* grow/vmm-extend/...: vmm-extend */
			fprintf(out, "%s<span class=\"part\" title=\"", k ? ", " : "");
			verdict_title(out, &x->verdict[k], s->threshold);
			fprintf(out, "\">");
			text(out, *kind ? kind : rec->name);
			fprintf(out, "%s%s</span>", *x->verdict[k].text ? " " : "", x->verdict[k].text);
		}
		fprintf(out, "</span>");
		return;
	}
	fprintf(out, " <span class=\"ratio%s\" title=\"%+.0f%%; ", v->flag > 0 ? " better" :
		v->flag < 0 ? " worse" : "", change);
	verdict_title(out, v, s->threshold);
	fprintf(out, "\">%s%s%s</span>", r, v->state == HMB_VERDICT_ROW && *v->text ? " " : "",
		v->state == HMB_VERDICT_ROW ? v->text : "");
}

static void summary_table(FILE *out, const struct hmb_sum *s)
{
	char v[32], r[32];

	fprintf(out, "<table class=\"summary\">\n<thead><tr><th>figure</th><th>unit</th>");
	for (int i = 0; i < s->n; i++) {
		fprintf(out, "<th>");
		swatch(out, i);
		text(out, s->col[i].name);
		fprintf(out, "</th>");
	}
	fprintf(out, "<th>what</th></tr></thead>\n<tbody>\n");
	for (size_t h = 0; h < s->nheadlines; h++) {
		const struct hmb_sum_cell *base = &s->col[0].cell[h], *any = NULL;
		for (int i = 0; i < s->n && !any; i++)
			any = s->col[i].cell[h].found ? &s->col[i].cell[h] : NULL;
		if (!any)
			continue;
		fprintf(out, "<tr><td>");
		text(out, s->headline[h].h->name);
		fprintf(out, "</td><td>");
		text(out, any->unit);
		fprintf(out, "</td>");
		for (int i = 0; i < s->n; i++) {
			const struct hmb_sum_cell *x = &s->col[i].cell[h];
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
				ratio(out, s, base, x, r);
			fprintf(out, "</td>");
		}
		fprintf(out, "<td>");
		text(out, base->found ? base->at : any->at);
		fprintf(out, "%s", *(base->found ? base->at : any->at) ? "; " : "");
		text(out, s->headline[h].h->about);
		fprintf(out, "</td></tr>\n");
	}
	fprintf(out, "</tbody></table>\n<p class=\"note\">value (share of the physical peak where "
		"the document knows one), marks (~ unstable, ? too few samples, D drift, B "
		"bimodal, o outliers, S another process on the GPU)");
	if (s->n > 1 && s->threshold >= 0)
		fprintf(out, ", then the ratio to the first document's value (above 1 better, "
			"whichever way the unit counts) and compare's verdict on that figure, from "
			"compare's own judgement (<code>compare --threshold %g</code>): "
			"<span class=\"better\">better</span> or <span class=\"worse\">WORSE</span> "
			"where it moved by more than %g%% and beyond its noise (false alarms held by "
			"Benjamini-Hochberg over all the pair's figures); n.s.: by more than %g%%, "
			"within the noise; ?N%%: this pair tells only a change of N%% or more from "
			"noise; ?: no runs on either side, not judged; nothing: within %g%%. A "
			"headline over two figures (VMM against realloc) shows each one's verdict. "
			"The tooltips say more", s->threshold, s->threshold, s->threshold,
			s->threshold);
	else if (s->n > 1)
		fprintf(out, ", then the ratio to the first document's value (above 1 better, "
			"whichever way the unit counts), not judged: compare reads the documents "
			"again from their files, and standard input is read once");
	fprintf(out, ".</p>\n");
}

static void anomalies(FILE *out, const struct hmb_sum *s)
{
	char buf[512];

	fprintf(out, "<h2 id=\"anomalies\">Anomalies</h2>\n<ul>\n");
	for (int i = 0; i < s->n; i++) {
		const struct hmb_sum_col *c = &s->col[i];
		fprintf(out, "<li>");
		swatch(out, i);
		fprintf(out, "<b>");
		text(out, c->name);
		fprintf(out, "</b> (");
		text(out, c->system);
		fprintf(out, ")<ul><li>telemetry: ");
		text(out, hmb_sum_telemetry_text(c, buf, sizeof(buf)));
		fprintf(out, "</li><li>stability: ");
		text(out, hmb_sum_stability_text(c, buf, sizeof(buf)));
		fprintf(out, "</li><li>resolution: ");
		text(out, hmb_sum_resolution_text(c, buf, sizeof(buf)));
		if (*hmb_sum_together_text(c, buf, sizeof(buf))) {
			fprintf(out, "</li><li>together: ");
			text(out, buf);
		}
		for (int k = 0; k < c->nfindings; k++) {
			fprintf(out, "</li><li>");
			text(out, c->finding_module[k]);
			fprintf(out, ": ");
			text(out, c->findings[k]);
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

/* ---- the curves: y against size, per module ------------------------------- */

/* A figure measured at a size, on the GPU its column summarises. */
struct point {
	int col;                        /* the document's column */
	const struct hmb_record *rec;
	double size, y;
	double sigma;                   /* run-to-run, of log y (resolution.h); NAN none */
	double peak;                    /* the physical peak, GB/s; 0 none */
	char kind[192];                 /* the case and the parameters that set lines apart */
};

/* The points of one case of a module in one unit. */
struct bucket {
	const char *module, *kase;
	char unit[16];
	char chart[64];                 /* the chart it goes on (its name in the module) */
	int latency;                    /* its chart has a view of time per copy beside it */
	struct point *p;
	size_t n, cap;
};

/* Which cases share a chart: the module's chart groups (engine/chart.h); a
 * module that declares none has one chart per unit where its kinds fit one
 * (MAX_KINDS), else one per first part of its cases. */
#define MAX_KINDS 8
#define MIN_SIZES 3                 /* a curve: fewer sizes are no curve */
#define SMALL_SIZE (1 << 20)        /* the latency view: sizes up to this */

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

/* The physical peak of a record's GB/s as the document knows it: its own
 * (memcpy: the host link), or for a device copy as its module declares one
 * (engine/headline.h) its GPU's memory, halved (a copy reads and writes each
 * byte). */
static double peak_of(const struct hmb_sum *s, const struct hmb_sum_col *c,
		      const struct hmb_record *r)
{
	if (r->peak_gbps > 0)
		return r->peak_gbps;
	if (hmb_case_peak(s->benches, r->module, r->name) == HMB_PEAK_HBM_COPY)
		return c->hbm_peak_gbps / 2;
	return 0;
}

static void add_point(struct bucket **buckets, size_t *n, const struct hmb_sum *s, int col,
		      const struct hmb_record *r)
{
	const struct hmb_kv *size = hmb_kv_find(&r->params, "size");
	struct bucket *b = NULL;
	char unit[16];
	double y = y_of(r, unit, sizeof(unit));
	int g = hmb_record_gpu(r);

	if (!size || size->type != HMB_KV_NUM || !(size->num >= 1) || !(size->num <= 0x1p60) ||
	    !(y > 0) || !isfinite(y) || (s->col[col].gpu >= 0 && g >= 0 && g != s->col[col].gpu))
		return;
	for (size_t i = 0; i < *n && !b; i++)
		if (!strcmp((*buckets)[i].module, r->module) && !strcmp((*buckets)[i].kase, r->name) &&
		    !strcmp((*buckets)[i].unit, unit))
			b = &(*buckets)[i];
	if (!b) {
		*buckets = hmb_xrealloc(*buckets, (*n + 1) * sizeof(**buckets));
		b = &(*buckets)[(*n)++];
		memset(b, 0, sizeof(*b));
		b->module = r->module;
		b->kase = r->name;
		snprintf(b->unit, sizeof(b->unit), "%s", unit);
	}
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		b->p = hmb_xrealloc(b->p, b->cap * sizeof(*b->p));
	}
	b->p[b->n++] = (struct point){ col, r, size->num, y,
				       r->runs && r->runs->judged ? r->runs->res.sigma : NAN,
				       peak_of(s, &s->col[col], r), "" };
}

static int same_value(const struct hmb_kv *a, const struct hmb_kv *b)
{
	if (!a || !b)
		return a == b;
	if (a->type != b->type)
		return 0;
	return a->type == HMB_KV_STR ? !strcmp(a->str, b->str) : a->num == b->num;
}

/* Does param set lines apart: two points of one document, at one size, that
 * differ in it? (A count that grows with the size does not.) */
static int splits(const struct bucket *b, const char *param)
{
	for (size_t i = 0; i < b->n; i++)
		for (size_t j = i + 1; j < b->n; j++)
			if (b->p[i].col == b->p[j].col && b->p[i].size == b->p[j].size &&
			    !same_value(hmb_kv_find(&b->p[i].rec->params, param),
					hmb_kv_find(&b->p[j].rec->params, param)))
				return 1;
	return 0;
}

/* Each point's kind: its case and the parameters that set lines apart. */
static void kinds_of(struct bucket *b)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct hmb_record *r = b->p[i].rec;
		size_t used = (size_t)snprintf(b->p[i].kind, sizeof(b->p[i].kind), "%s", r->name);
		for (size_t k = 0; k < r->params.n && used < sizeof(b->p[i].kind); k++) {
			const struct hmb_kv *kv = &r->params.v[k];
			char num[32];
			/* context (the GPU, tuned counts, text, geometry) tells no lines apart */
			if (!strcmp(kv->key, "size") || kv->role != HMB_ROLE_IDENTITY ||
			    !splits(b, kv->key))
				continue;
			if (kv->type == HMB_KV_STR)
				snprintf(num, sizeof(num), "%.24s", kv->str);
			else
				hmb_number_text(kv->num, num, sizeof(num));
			used += (size_t)snprintf(b->p[i].kind + used, sizeof(b->p[i].kind) - used,
						 " %s=%s", kv->key, num);
		}
	}
}

/* Is a kind of a bucket a curve: one document has it at MIN_SIZES sizes? */
static int is_curve(const struct bucket *b, const char *kind)
{
	for (size_t i = 0; i < b->n; i++) {
		double sizes[MIN_SIZES];
		int ns = 0;
		if (strcmp(b->p[i].kind, kind))
			continue;
		for (size_t j = i; j < b->n && ns < MIN_SIZES; j++) {
			int seen = 0;
			if (b->p[j].col != b->p[i].col || strcmp(b->p[j].kind, kind))
				continue;
			for (int k = 0; k < ns; k++)
				seen |= sizes[k] == b->p[j].size;
			if (!seen)
				sizes[ns++] = b->p[j].size;
		}
		if (ns >= MIN_SIZES)
			return 1;
	}
	return 0;
}

/* The curves of buckets of a module and unit: how many kinds. */
static size_t module_kinds(const struct bucket *b, size_t n, size_t at)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(b[i].module, b[at].module) || strcmp(b[i].unit, b[at].unit))
			continue;
		for (size_t k = 0; k < b[i].n; k++) {
			int first = 1;
			for (size_t j = 0; j < k && first; j++)
				first = strcmp(b[i].p[j].kind, b[i].p[k].kind) != 0;
			count += first && is_curve(&b[i], b[i].p[k].kind);
		}
	}
	return count;
}

/* The chart each bucket goes on. */
static void charts_of(const struct hmb_sum *s, struct bucket *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct hmb_bench *m = hmb_bench_named(s->benches, b[i].module);
		const char *pattern = NULL;
		size_t first = strcspn(b[i].kase, "/");
		for (const struct hmb_chart_group *g = m ? m->chart_groups : NULL;
		     g && g->kase && !pattern; g++)
			if (!fnmatch(g->kase, b[i].kase, 0)) {
				pattern = g->chart;
				b[i].latency = g->latency && !strcmp(b[i].unit, "GB/s");
			}
		if (!pattern)
			pattern = module_kinds(b, n, i) > MAX_KINDS ? "%s" : "";
		if (strstr(pattern, "%s")) {
			size_t at = (size_t)(strstr(pattern, "%s") - pattern);
			snprintf(b[i].chart, sizeof(b[i].chart), "%.*s%.*s%s", (int)at, pattern,
				 (int)first, b[i].kase, pattern + at + 2);
		} else {
			snprintf(b[i].chart, sizeof(b[i].chart), "%s", pattern);
		}
	}
}

/* Do two buckets go on one chart? */
static int same_chart(const struct bucket *a, const struct bucket *b)
{
	return !strcmp(a->module, b->module) && !strcmp(a->chart, b->chart) &&
	       !strcmp(a->unit, b->unit);
}

/* The parts of a kind's case ("h2d/pinned/async") that differ within a chart. */
static int shared_part(const char *const *kinds, size_t n, size_t part)
{
	char first[192];

	for (size_t i = 0; i < n; i++) {
		const char *p = kinds[i];
		size_t len;
		for (size_t k = 0; k < part && p; k++)
			p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL;
		if (!p)
			return 0;
		len = strcspn(p, "/ ");
		if (!i)
			snprintf(first, sizeof(first), "%.*s", (int)len, p);
		else if (strlen(first) != len || strncmp(first, p, len))
			return 0;
	}
	return 1;
}

/* A kind for a legend: its case's parts that differ within the chart (kinds:
 * every kind on it), then its parameters. */
static void kind_label(const char *kind, const char *const *kinds, size_t n, char *buf,
		       size_t len)
{
	const char *p = kind;
	size_t used = 0, part = 0, clen = strcspn(kind, " ");

	buf[0] = '\0';
	while (p < kind + clen) {
		size_t plen = strcspn(p, "/ ");
		if (!shared_part(kinds, n, part) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%.*s", used ? " " : "",
						 (int)plen, p);
		p += plen + (p[plen] == '/');
		part++;
	}
	if (kind[clen] && used < len)
		snprintf(buf + used, len - used, "%s", kind + clen + (used ? 0 : 1));
}

/* The peaks of a chart's documents, a line each; documents of one peak share
 * its line. */
static size_t peak_lines(const struct hmb_sum *s, const struct bucket *b, size_t n, size_t at,
			 struct hmb_svg_hline *h)
{
	double peak[64] = { 0 };
	size_t nh = 0;

	for (size_t i = 0; i < n; i++)
		if (same_chart(&b[i], &b[at]) && !strcmp(b[i].unit, "GB/s"))
			for (size_t k = 0; k < b[i].n; k++)
				if (b[i].p[k].col < 64)
					peak[b[i].p[k].col] = fmax(peak[b[i].p[k].col], b[i].p[k].peak);
	for (int c = 0; c < s->n && c < 64; c++) {
		char names[64] = "", v[32];
		int count = 0;
		if (!(peak[c] > 0))
			continue;
		for (int d = c; d < s->n && d < 64; d++)
			if (peak[d] > 0 && fabs(peak[d] / peak[c] - 1) < 0.005) {
				size_t used = strlen(names);
				snprintf(names + used, sizeof(names) - used, "%s%s", count ? ", " : "",
					 s->col[d].name);
				count++;
				if (d > c)
					peak[d] = 0;
			}
		snprintf(v, sizeof(v), peak[c] >= 100 ? "%.0f" : "%.1f", peak[c]);
		h[nh].y = peak[c];
		h[nh].colour = count > 1 ? -1 : c;
		snprintf(h[nh].label, sizeof(h[nh].label), "%s peak %s GB/s", names, v);
		nh++;
	}
	return nh;
}

/* The series of a chart (latency: its time per copy at small sizes) into
 * *out; how many. */
static size_t chart_series(const struct hmb_sum *s, const struct bucket *b, size_t n,
			   size_t at, int latency, struct hmb_svg_series **out)
{
	const char **kinds = NULL;
	size_t nk = 0, ns = 0, cap = 0;
	struct hmb_svg_series *ser = NULL;

	/* the kinds that are curves, in the order first measured */
	for (size_t i = 0; i < n; i++) {
		if (!same_chart(&b[i], &b[at]))
			continue;
		for (size_t k = 0; k < b[i].n; k++) {
			size_t j;
			for (j = 0; j < nk && strcmp(kinds[j], b[i].p[k].kind); j++)
				;
			if (j == nk && is_curve(&b[i], b[i].p[k].kind)) {
				kinds = hmb_xrealloc(kinds, (nk + 1) * sizeof(*kinds));
				kinds[nk++] = b[i].p[k].kind;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (!same_chart(&b[i], &b[at]))
			continue;
		for (size_t k = 0; k < b[i].n; k++) {
			const struct point *p = &b[i].p[k];
			size_t st, j;
			double y = p->y, lo = NAN, hi = NAN;
			for (st = 0; st < nk && strcmp(kinds[st], p->kind); st++)
				;
			if (st == nk || (latency && p->size > SMALL_SIZE))
				continue;
			for (j = 0; j < ns && (ser[j].colour != p->col || ser[j].style != (int)st); j++)
				;
			if (j == ns) {
				char label[192];
				if (ns == cap) {
					cap = cap ? 2 * cap : 16;
					ser = hmb_xrealloc(ser, cap * sizeof(*ser));
				}
				memset(&ser[ns], 0, sizeof(ser[ns]));
				ser[ns].colour = p->col;
				ser[ns].style = (int)st;
				kind_label(p->kind, kinds, nk, label, sizeof(label));
				snprintf(ser[ns].label, sizeof(ser[ns].label), "%s%s%s",
					 s->col[p->col].name, *label ? " " : "", label);
				ns++;
			}
			if (latency)
				y = p->size / p->y / 1e3; /* bytes / (GB/s) in us */
			if (p->sigma >= 0) {
				lo = y * exp(-p->sigma);
				hi = y * exp(p->sigma);
			}
			hmb_svg_point(&ser[j], p->size, y, lo, hi);
		}
	}
	/* a series of fewer sizes is no curve */
	for (size_t j = 0; j < ns;) {
		int curve = 0;
		for (size_t k = 1; k < ser[j].n; k++)
			for (size_t m = 0; m < k; m++)
				if (ser[j].x[m] != ser[j].x[k])
					curve++;
		if (ser[j].n >= MIN_SIZES && curve >= MIN_SIZES - 1) {
			j++;
			continue;
		}
		hmb_svg_series_free(&ser[j]);
		memmove(&ser[j], &ser[j + 1], (ns - j - 1) * sizeof(*ser));
		ns--;
	}
	free(kinds);
	*out = ser;
	return ns;
}

/* Has a bucket a curve? */
static int has_curve(const struct bucket *b)
{
	for (size_t k = 0; k < b->n; k++)
		if (is_curve(b, b->p[k].kind))
			return 1;
	return 0;
}

/* The title of a chart: its module and name, or its one case with curves. */
static void chart_title(const struct bucket *b, size_t n, size_t at, char *buf, size_t len)
{
	const char *one = NULL;
	int several = 0, parts = 1;

	for (size_t i = 0; i < n; i++)
		if (same_chart(&b[i], &b[at]) && has_curve(&b[i])) {
			size_t first = strcspn(b[i].kase, "/");
			several |= one && strcmp(one, b[i].kase);
			parts &= !one || (strcspn(one, "/") == first && !strncmp(one, b[i].kase, first));
			one = b[i].kase;
		}
	if (*b[at].chart)
		snprintf(buf, len, "%s %s", b[at].module, b[at].chart);
	else if (one && !several)
		snprintf(buf, len, "%s %s", b[at].module, one);
	else if (one && parts)
		snprintf(buf, len, "%s %.*s", b[at].module, (int)strcspn(one, "/"), one);
	else
		snprintf(buf, len, "%s", b[at].module);
}

/* ---- at most HMB_SVG_MAX_LINES lines a chart ---------------------------------- */

/* The part of a chart each of its series goes on (part[i]), none of more than
 * HMB_SVG_MAX_LINES lines: a kind's lines (its style; a line a document) on
 * one part where they fit one, the kinds in order, as few parts as can be and
 * about as full as each other; a kind of more lines than a part holds gets
 * parts of its own, its documents in order. How many parts. */
static int split_lines(const struct hmb_svg_series *ser, size_t ns, int *part)
{
	int style[64], count[64], at[64], nst = 0;

	for (size_t i = 0; i < ns; i++)
		part[i] = 0;
	if (ns <= HMB_SVG_MAX_LINES)
		return 1;
	for (size_t i = 0; i < ns; i++) { /* the kinds, by style */
		int k;
		for (k = 0; k < nst && style[k] != ser[i].style; k++)
			;
		if (k == nst && nst < 64) {
			style[nst] = ser[i].style;
			count[nst++] = 0;
		}
		if (k < nst)
			count[k]++;
	}
	for (int i = 1; i < nst; i++)
		for (int j = i; j > 0 && style[j - 1] > style[j]; j--) {
			int t = style[j], c = count[j];
			style[j] = style[j - 1];
			count[j] = count[j - 1];
			style[j - 1] = t;
			count[j - 1] = c;
		}
	for (int parts = (int)((ns + HMB_SVG_MAX_LINES - 1) / HMB_SVG_MAX_LINES);; parts++)
		for (int target = (int)(ns + (size_t)parts - 1) / parts; target <= HMB_SVG_MAX_LINES;
		     target++) {
			int used = 0, fill = 0;
			for (int k = 0; k < nst; k++) {
				if (count[k] > HMB_SVG_MAX_LINES) { /* parts of its own */
					used += fill > 0;
					at[k] = used;
					used += (count[k] + HMB_SVG_MAX_LINES - 1) / HMB_SVG_MAX_LINES;
					fill = 0;
					continue;
				}
				if (fill && fill + count[k] > target) {
					used++;
					fill = 0;
				}
				at[k] = used;
				fill += count[k];
			}
			if (used + (fill > 0) > parts)
				continue;
			for (int k = 0; k < nst; k++) {
				size_t seen = 0;
				for (size_t i = 0; i < ns; i++)
					if (ser[i].style == style[k])
						part[i] = at[k] + (count[k] > HMB_SVG_MAX_LINES
								   ? (int)(seen++ / HMB_SVG_MAX_LINES) : 0);
			}
			return used + (fill > 0);
		}
}

/* The parts of the series of another view of a chart's kinds (the small
 * sizes'): each on the part of the chart's series of its kind and document
 * (like, like_part; the first where it has none). */
static void parts_like(const struct hmb_svg_series *ser, size_t ns,
		       const struct hmb_svg_series *like, const int *like_part, size_t nlike,
		       int *part)
{
	for (size_t i = 0; i < ns; i++) {
		part[i] = 0;
		for (size_t j = 0; j < nlike; j++)
			if (like[j].style == ser[i].style && like[j].colour == ser[i].colour)
				part[i] = like_part[j];
	}
}

/* Part k of nparts of a chart's series (part[i]: each one's), drawn: title
 * "NAME: WHAT", "NAME (k of n): WHAT" for several; plot: all but the title
 * and the series. 1 drawn, 0 where the part holds none. */
static size_t draw_part(FILE *out, const char *name, const char *what,
			const struct hmb_svg_series *ser, size_t ns, const int *part, int k,
			int nparts, const struct hmb_svg_plot *plot)
{
	struct hmb_svg_series *on = hmb_xcalloc(ns + 1, sizeof(*on));
	struct hmb_svg_plot p = *plot;
	char title[256];
	size_t n = 0;

	for (size_t i = 0; i < ns; i++)
		if (part[i] == k)
			on[n++] = ser[i];
	if (nparts > 1)
		snprintf(title, sizeof(title), "%s (%d of %d): %s", name, k + 1, nparts, what);
	else
		snprintf(title, sizeof(title), "%s: %s", name, what);
	p.title = title;
	p.s = on;
	p.ns = n;
	if (n)
		hmb_svg_curves(out, &p);
	free(on);
	return n > 0;
}

static void free_series(struct hmb_svg_series *ser, size_t ns)
{
	for (size_t k = 0; k < ns; k++)
		hmb_svg_series_free(&ser[k]);
	free(ser);
}

/* A chart against size, and for copies its small sizes' view beside each of
 * its parts (the same kinds on both); how many drawn. */
static size_t draw_chart(FILE *out, const struct hmb_sum *s, const struct bucket *b, size_t n,
			 size_t at)
{
	struct hmb_svg_series *ser, *small = NULL;
	struct hmb_svg_hline h[64];
	char title[160], what[64];
	size_t ns = chart_series(s, b, n, at, 0, &ser), drawn = 0, nsmall = 0;
	size_t nh = !strcmp(b[at].unit, "GB/s") ? peak_lines(s, b, n, at, h) : 0;
	int *part = hmb_xcalloc(ns + 1, sizeof(int)), *small_part = NULL, nparts;

	chart_title(b, n, at, title, sizeof(title));
	snprintf(what, sizeof(what), "%s against size", b[at].unit);
	nparts = split_lines(ser, ns, part);
	if (ns && b[at].latency) {
		nsmall = chart_series(s, b, n, at, 1, &small);
		small_part = hmb_xcalloc(nsmall + 1, sizeof(int));
		parts_like(small, nsmall, ser, part, ns, small_part);
	}
	for (int k = 0; ns && k < nparts; k++) {
		drawn += draw_part(out, title, what, ser, ns, part, k, nparts, &(struct hmb_svg_plot){
			.ylabel = b[at].unit, .h = h, .nh = nh });
		drawn += draw_part(out, title, "time per copy, small sizes", small, nsmall,
				   small_part, k, nparts, &(struct hmb_svg_plot){
					   .ylabel = "us per copy" });
	}
	free_series(ser, ns);
	free_series(small, nsmall);
	free(small_part);
	free(part);
	return drawn;
}

/* ---- a module's headline against what it varies ------------------------------- */

/* Charts of what a module's headline figure varies with besides size: the
 * module's charts (engine/chart.h). */

/* A point of a figure chart, on the GPU its column summarises. */
struct fpoint {
	int col;
	const struct hmb_record *rec;
	double x, y;
	char chart[96], line[160];
};

static const char *kv_text(const struct hmb_kv *kv, char *buf, size_t len)
{
	if (!kv)
		snprintf(buf, len, "-");
	else if (kv->type == HMB_KV_STR)
		snprintf(buf, len, "%.40s", kv->str);
	else if (kv->type == HMB_KV_BOOL)
		snprintf(buf, len, "%s", kv->num != 0 ? "yes" : "no");
	else
		hmb_number_text(kv->num, buf, len);
	return buf;
}

static void add_fpoint(struct fpoint **p, size_t *n, size_t *cap, const struct fpoint *x)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*p = hmb_xrealloc(*p, *cap * sizeof(**p));
	}
	(*p)[(*n)++] = *x;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The growth steps of a record of vmm's grow cases: each step's time (ms,
 * the median over its runs) against the size the buffer reached. */
static void growth_points(const struct hmb_record *r, struct fpoint *pt, struct fpoint **p,
			  size_t *n, size_t *cap)
{
	const struct hmb_kv *start = hmb_kv_find(&r->params, "start");
	const struct hmb_kv *size = hmb_kv_find(&r->params, "size");
	const struct hmb_kv *step = hmb_kv_find(&r->params, "step");
	size_t runs = r->runs && r->runs->count > 0 && r->runs->samples ? r->runs->count : 1;
	size_t per, total = 0;
	double v[HMB_RUNS_MAX];

	if (!start || !size || start->type != HMB_KV_NUM || size->type != HMB_KV_NUM ||
	    !(start->num > 0) || !(size->num >= start->num))
		return;
	per = runs > 1 ? r->runs->samples[0] : r->nsamples;
	for (size_t j = 0; j < runs; j++)
		total += runs > 1 ? r->runs->samples[j] : r->nsamples;
	for (size_t j = 1; j < runs; j++)
		if (r->runs->samples[j] != per)
			runs = 1; /* runs of other counts: the first alone */
	if (total != r->nsamples || runs > HMB_RUNS_MAX)
		runs = 1;
	for (size_t k = 0; k < per && k < r->nsamples; k++) {
		double reached = step && step->type == HMB_KV_NUM && step->num > 0
				 ? start->num + (double)(k + 1) * step->num
				 : ldexp(start->num, (int)(k + 1 > 60 ? 60 : k + 1));
		for (size_t j = 0; j < runs; j++)
			v[j] = r->samples[j * per + k];
		qsort(v, runs, sizeof(v[0]), by_value);
		pt->x = fmin(reached, size->num);
		pt->y = 1e3 * (runs % 2 ? v[runs / 2] : (v[runs / 2 - 1] + v[runs / 2]) / 2);
		if (pt->y > 0)
			add_fpoint(p, n, cap, pt);
	}
}

/* The points of chart c of module mod of every document's records. */
static size_t figure_points(const struct hmb_chart *c, const char *mod, const struct hmb_sum *s,
			    struct fpoint **p)
{
	size_t n = 0, cap = 0;

	*p = NULL;
	for (int col = 0; col < s->n; col++)
		for (const struct hmb_record *r = s->col[col].doc->rep.head; r; r = r->next) {
			struct fpoint pt = { col, r, 0, 0, "", "" };
			const struct hmb_kv *m = c->figure ? hmb_kv_find(&r->metrics, c->figure) : NULL;
			const struct hmb_kv *x = c->x ? hmb_kv_find(&r->params, c->x) : NULL;
			int g = hmb_record_gpu(r);
			char v[48];
			if (r->status != HMB_OK || strcmp(r->module, mod) ||
			    fnmatch(c->kase, r->name, 0) ||
			    (s->col[col].gpu >= 0 && g >= 0 && g != s->col[col].gpu) ||
			    (c->figure && (!m || !isfinite(m->num))) ||
			    (c->x && (!x || x->type != HMB_KV_NUM || !(x->num > 0))))
				continue;
			case_parts(r->name, c->chart_parts, 0, pt.chart, sizeof(pt.chart));
			if (c->chart_param) {
				size_t used = strlen(pt.chart);
				snprintf(pt.chart + used, sizeof(pt.chart) - used, ", %s",
					 kv_text(hmb_kv_find(&r->params, c->chart_param), v, sizeof(v)));
			}
			if (c->line)
				snprintf(pt.line, sizeof(pt.line), "%s=%s", c->line,
					 kv_text(hmb_kv_find(&r->params, c->line), v, sizeof(v)));
			else
				case_parts(r->name, c->line_part, 1, pt.line, sizeof(pt.line));
			if (!c->figure) {
				growth_points(r, &pt, p, &n, &cap);
				continue;
			}
			pt.x = x->num;
			pt.y = m->num;
			add_fpoint(p, &n, &cap, &pt);
		}
	return n;
}

/* The parameters that set two points of one document, line and x of a
 * chart apart (not context, not the x, not the GPU) added to each point's
 * line, so that a line is one x once. */
static void split_points(const struct hmb_chart *c, struct fpoint *p, size_t n)
{
	const char *extra[8];
	size_t ne = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			const struct hmb_record *a = p[i].rec, *b = p[j].rec;
			if (a == b || p[i].col != p[j].col || p[i].x != p[j].x ||
			    strcmp(p[i].chart, p[j].chart) || strcmp(p[i].line, p[j].line))
				continue;
			for (size_t k = 0; k < a->params.n && ne < 8; k++) {
				const struct hmb_kv *kv = &a->params.v[k];
				size_t e;
				if ((c->x && !strcmp(kv->key, c->x)) || kv->role != HMB_ROLE_IDENTITY ||
				    same_value(kv, hmb_kv_find(&b->params, kv->key)))
					continue;
				for (e = 0; e < ne && strcmp(extra[e], kv->key); e++)
					;
				if (e == ne)
					extra[ne++] = kv->key;
			}
		}
	for (size_t i = 0; i < n; i++)
		for (size_t e = 0; e < ne; e++) {
			size_t used = strlen(p[i].line);
			char v[48];
			snprintf(p[i].line + used, sizeof(p[i].line) - used, " %s=%s", extra[e],
				 kv_text(hmb_kv_find(&p[i].rec->params, extra[e]), v, sizeof(v)));
		}
}

/* Lines "NAME=VALUE ..." by their value where both are numbers (a stable
 * order: qsort's is not, so the text decides a tie). */
static int by_number(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	const char *va = strchr(a, '='), *vb = strchr(b, '=');
	char *ea, *eb;
	double na = va ? strtod(va + 1, &ea) : 0, nb = vb ? strtod(vb + 1, &eb) : 0;

	if (va && vb && ea != va + 1 && eb != vb + 1 && na != nb)
		return (na > nb) - (na < nb);
	return strcmp(a, b);
}

/* The figure charts of module m; how many drawn. */
static size_t draw_figure_charts(FILE *out, const struct hmb_sum *s, const char *m)
{
	const struct hmb_bench *b = hmb_bench_named(s->benches, m);
	size_t drawn = 0;

	for (const struct hmb_chart *c = b ? b->charts : NULL; c && c->kase; c++) {
		struct fpoint *p;
		size_t n;
		const char **lines = NULL;
		size_t nl = 0;
		n = figure_points(c, m, s, &p);
		split_points(c, p, n);
		/* the lines of all its charts, each in one style on every chart: in
		 * the order first measured, a parameter's numbers from the least */
		for (size_t j = 0; j < n; j++) {
			size_t l;
			for (l = 0; l < nl && strcmp(lines[l], p[j].line); l++)
				;
			if (l == nl) {
				lines = hmb_xrealloc(lines, (nl + 1) * sizeof(*lines));
				lines[nl++] = p[j].line;
			}
		}
		if (c->line)
			qsort(lines, nl, sizeof(*lines), by_number);
		for (size_t i = 0; i < n; i++) {
			struct hmb_svg_series *ser = NULL;
			size_t ns = 0;
			char name[160];
			int first = 1;
			for (size_t j = 0; j < i && first; j++)
				first = strcmp(p[j].chart, p[i].chart) != 0;
			if (!first)
				continue;
			for (size_t j = i; j < n; j++) {
				size_t l, k;
				if (strcmp(p[j].chart, p[i].chart))
					continue;
				for (l = 0; l < nl && strcmp(lines[l], p[j].line); l++)
					;
				for (k = 0; k < ns && (ser[k].colour != p[j].col || ser[k].style != (int)l);
				     k++)
					;
				if (k == ns) {
					ser = hmb_xrealloc(ser, (ns + 1) * sizeof(*ser));
					memset(&ser[ns], 0, sizeof(ser[ns]));
					ser[ns].colour = p[j].col;
					ser[ns].style = (int)l;
					snprintf(ser[ns].label, sizeof(ser[ns].label), "%s %s",
						 s->col[p[j].col].name, p[j].line);
					ns++;
				}
				/* a line is one x once: a repeat of a result is left out */
				for (l = 0; l < ser[k].n && ser[k].x[l] != p[j].x; l++)
					;
				if (l == ser[k].n)
					hmb_svg_point(&ser[k], p[j].x, p[j].y, NAN, NAN);
			}
			/* a series of fewer points is no curve */
			for (size_t k = 0; k < ns;) {
				if (ser[k].n >= MIN_SIZES) {
					k++;
					continue;
				}
				hmb_svg_series_free(&ser[k]);
				memmove(&ser[k], &ser[k + 1], (ns - k - 1) * sizeof(*ser));
				ns--;
			}
			snprintf(name, sizeof(name), "%s %s", m, p[i].chart);
			if (ns) {
				struct hmb_svg_hline h = { c->ref, -1, "" };
				int *part = hmb_xcalloc(ns + 1, sizeof(int));
				int nparts = split_lines(ser, ns, part);
				snprintf(h.label, sizeof(h.label), "%s", c->ref_label ? c->ref_label : "");
				for (int k = 0; k < nparts; k++)
					drawn += draw_part(out, name, c->what, ser, ns, part, k, nparts,
							   &(struct hmb_svg_plot){ .ylabel = c->ylabel,
							   .h = &h, .nh = c->ref != 0, .xcount = c->xcount,
							   .xlabel = c->xlabel, .ylinear = c->ylinear });
				free(part);
			}
			free_series(ser, ns);
		}
		free(lines);
		free(p);
	}
	return drawn;
}

/* ---- a section per module ---------------------------------------------------- */

/* What the modules' headline charts show, for the note above the charts, in
 * the module table's order; nothing where none has any. */
static void charts_about(FILE *out, const struct hmb_sum *s)
{
	int any = 0;

	for (int i = 0; s->benches && s->benches[i]; i++)
		if (s->benches[i]->charts_about) {
			fprintf(out, "%s", any++ ? "; " : " Then what the module's headline varies with: ");
			text(out, s->benches[i]->charts_about);
		}
	if (any)
		fprintf(out, ".");
}

static void curves(FILE *out, const struct hmb_sum *s)
{
	struct bucket *b = NULL;
	size_t n = 0, drawn = 0, nmod = 0;
	const char **modules = NULL;
	int bands = 0;

	for (int i = 0; i < s->n; i++)
		for (const struct hmb_record *r = s->col[i].doc->rep.head; r; r = r->next) {
			size_t k;
			for (k = 0; k < nmod && strcmp(modules[k], r->module); k++)
				;
			if (k == nmod) { /* the modules in the order first measured */
				modules = hmb_xrealloc(modules, (nmod + 1) * sizeof(*modules));
				modules[nmod++] = r->module;
			}
			if (r->status == HMB_OK)
				add_point(&b, &n, s, i, r);
		}
	for (size_t i = 0; i < n; i++) {
		kinds_of(&b[i]);
		for (size_t k = 0; k < b[i].n; k++)
			bands |= b[i].p[k].sigma >= 0;
	}
	charts_of(s, b, n);
	fprintf(out, "<h2 id=\"plots\">Charts per module</h2>\n<p class=\"note\">");
	for (int i = 0; i < s->n; i++) {
		fprintf(out, "%s", i ? " &nbsp; " : "");
		swatch(out, i);
		fprintf(out, "<b>");
		text(out, s->col[i].name);
		fprintf(out, "</b>");
		if (s->col[i].gpu >= 0)
			fprintf(out, " (GPU %d of %d)", s->col[i].gpu, s->col[i].ngpus);
	}
	fprintf(out, "<br>Per module, every kind measured at %d sizes or more against size, each "
		"document in its colour, each kind in its marker and dash: the median, both axes "
		"logarithmic; the dashed line across, the physical peak where the document knows "
		"it%s. Copies also as time per copy up to %s.", MIN_SIZES, bands ? "; the band, "
		"+-1 sigma of the figure's run-to-run noise where the document holds several runs "
		"(its runs.resolution.sigma_rel)" : "; no band: no document holds several runs",
		"1M");
	charts_about(out, s);
	fprintf(out, " A chart holds at most %d lines: one of more is split, a kind's lines kept "
		"together.</p>\n", HMB_SVG_MAX_LINES);
	for (size_t m = 0; m < nmod; m++) {
		char *text_of = NULL;
		size_t len = 0, here = 0;
		FILE *charts = open_memstream(&text_of, &len);
		if (!charts)
			break;
		/* what its headline varies with first, then against size */
		here += draw_figure_charts(charts, s, modules[m]);
		for (size_t i = 0; i < n; i++) {
			int first = 1;
			for (size_t j = 0; j < i && first; j++)
				first = !same_chart(&b[j], &b[i]);
			if (first && !strcmp(b[i].module, modules[m]))
				here += draw_chart(charts, s, b, n, i);
		}
		fclose(charts);
		if (here) {
			fprintf(out, "<h3 id=\"module-");
			text(out, modules[m]);
			fprintf(out, "\">");
			text(out, modules[m]);
			fprintf(out, "</h3>\n<div class=\"plots\">\n%s</div>\n", text_of);
		}
		drawn += here;
		free(text_of);
	}
	if (!drawn)
		fprintf(out, "<p>No case was measured at %d sizes or more.</p>\n", MIN_SIZES);
	for (size_t i = 0; i < n; i++)
		free(b[i].p);
	free(b);
	free(modules);
}

/* ---- the node: peer-to-peer and host copies with every GPU ------------------- */

static double metric_of(const struct hmb_record *r, const char *name)
{
	const struct hmb_kv *kv = hmb_kv_find(&r->metrics, name);

	return kv && kv->type == HMB_KV_NUM ? kv->num : NAN;
}

static double gbps_of(const struct hmb_record *r)
{
	struct hmb_summary s;

	hmb_record_summarize(r, &s);
	return s.gbps_median;
}

/* The first record of module b's case kase (of GPU gpu; -1: any) whose
 * parameter t->only_param is t->only_value or absent. */
static const struct hmb_record *all_vs_alone_record(const struct hmb_sum_doc *d,
						const struct hmb_bench *b,
						const struct hmb_all_vs_alone *t, const char *kase,
						int gpu)
{
	for (const struct hmb_record *r = d->rep.head; r; r = r->next) {
		const struct hmb_kv *only = hmb_kv_find(&r->params, t->only_param);
		if (r->status == HMB_OK && !strcmp(r->module, b->name) && !strcmp(r->name, kase) &&
		    (gpu < 0 || hmb_record_gpu(r) == gpu) &&
		    (!only || only->type != HMB_KV_STR || !strcmp(only->str, t->only_value)))
			return r;
	}
	return NULL;
}

/* Module b's figures with every GPU at once against the GPUs alone (its
 * all_vs_alone), a group per direction; 0 where the document has none. */
static int all_vs_alone(FILE *out, const struct hmb_sum *s, const struct hmb_bench *b, int col)
{
	const struct hmb_all_vs_alone *t = b->all_vs_alone;
	const struct hmb_sum_col *c = &s->col[col];
	struct hmb_svg_group g[3];
	int ng = 0;
	char title[160];

	memset(g, 0, sizeof(g));
	for (int d = 0; d < 3 && t->group[d].all; d++) {
		const struct hmb_all_vs_alone_group *tg = &t->group[d];
		const struct hmb_record *all = all_vs_alone_record(c->doc, b, t, tg->all, -1);
		struct hmb_svg_group *x = &g[ng];
		double total = all ? gbps_of(all) : NAN, gpus = 0;
		double alone = all ? metric_of(all, t->sum_alone) : NAN;
		char name[32], v[32];
		if (!(total > 0) || !(alone > 0))
			continue;
		snprintf(x->label, sizeof(x->label), "%s", tg->label);
		x->nbar = 2;
		snprintf(x->bar[0].label, sizeof(x->bar[0].label), "GPUs alone");
		snprintf(x->bar[1].label, sizeof(x->bar[1].label), "all at once");
		x->bar[0].light = 1;
		for (int k = 0; k < HMB_SVG_MAX_SEGS; k++) {
			const struct hmb_record *r = all_vs_alone_record(c->doc, b, t, tg->alone, k);
			double in_all;
			snprintf(name, sizeof(name), t->gpu_metric, k);
			in_all = metric_of(all, name);
			if (r && gbps_of(r) > 0) {
				x->bar[0].seg[k] = gbps_of(r);
				snprintf(x->bar[0].seg_label[k], sizeof(x->bar[0].seg_label[k]), "GPU%d", k);
				x->bar[0].nseg = k + 1;
			}
			if (in_all > 0) {
				x->bar[1].seg[k] = in_all;
				snprintf(x->bar[1].seg_label[k], sizeof(x->bar[1].seg_label[k]), "GPU%d", k);
				x->bar[1].nseg = k + 1;
				gpus++;
			}
		}
		if (!x->bar[0].nseg) { /* the sum alone, whole */
			x->bar[0].seg[0] = alone;
			snprintf(x->bar[0].seg_label[0], sizeof(x->bar[0].seg_label[0]), "sum");
			x->bar[0].nseg = 1;
		}
		if (!x->bar[1].nseg) {
			x->bar[1].seg[0] = total;
			snprintf(x->bar[1].seg_label[0], sizeof(x->bar[1].seg_label[0]), "all");
			x->bar[1].nseg = 1;
		}
		snprintf(x->bar[0].top, sizeof(x->bar[0].top), "%s",
			 hmb_sum_value_text(alone, 1, v, sizeof(v)));
		snprintf(x->bar[1].top, sizeof(x->bar[1].top), "%s (%.0f%%)",
			 hmb_sum_value_text(total, 1, v, sizeof(v)), 100 * total / alone);
		if (c->link_peak_gbps > 0 && gpus > 0) {
			x->ref = tg->links * gpus * c->link_peak_gbps;
			snprintf(x->ref_label, sizeof(x->ref_label), "links %s",
				 hmb_sum_value_text(x->ref, 1, v, sizeof(v)));
		}
		ng++;
	}
	if (!ng)
		return 0;
	snprintf(title, sizeof(title), "%s: %s", c->name, t->title);
	hmb_svg_bars(out, &(struct hmb_svg_bars){ title, t->about, "GB/s", col, g, ng, t->legend });
	return 1;
}

/* Before the first chart of column i's document: the section's heading (before
 * the first column's, any), then the column's. */
static void node_column(FILE *out, const struct hmb_sum_col *c, int i, int *started, int *any)
{
	if ((*started)++)
		return;
	fprintf(out, "%s<h3>", (*any)++ ? "" : "<h2 id=\"node\">Node: GPU to GPU, and host "
		"copies with every GPU</h2>\n");
	swatch(out, i);
	text(out, c->name);
	fprintf(out, "</h3>\n<div class=\"plots\">\n");
}

static void node(FILE *out, const struct hmb_sum *s)
{
	double (*v)[HMB_TOPO_MAX_GPUS] = hmb_xcalloc(HMB_TOPO_MAX_GPUS, sizeof(*v));
	int any = 0;

	for (int i = 0; i < s->n; i++) {
		const struct hmb_sum_col *c = &s->col[i];
		int started = 0;
		for (int m = 0; s->benches && s->benches[m]; m++)
			for (const struct hmb_heatmap *h = s->benches[m]->heatmaps;
			     h && h->kase && s->benches[m]->matrix; h++) {
				int n = s->benches[m]->matrix(c->doc->rep.head, NULL, h->kase, v);
				double flat[HMB_TOPO_MAX_GPUS * HMB_TOPO_MAX_GPUS];
				char title[96];
				if (n < 2)
					continue;
				node_column(out, c, i, &started, &any);
				for (int a = 0; a < n; a++)
					for (int b = 0; b < n; b++)
						flat[a * n + b] = v[a][b];
				snprintf(title, sizeof(title), "%s: %s GB/s", c->name, h->kase);
				hmb_svg_heatmap(out, &(struct hmb_svg_heatmap){ title, h->about, "GB/s", i,
									       n, flat });
			}
		if (c->ngpus > 1 || started)
			for (int m = 0; s->benches && s->benches[m]; m++)
				if (s->benches[m]->all_vs_alone) {
					node_column(out, c, i, &started, &any);
					all_vs_alone(out, s, s->benches[m], i);
				}
		if (started)
			fprintf(out, "</div>\n");
	}
	free(v);
}

void hmb_report_html(FILE *out, const struct hmb_sum *s)
{
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>hipmembench report</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>hipmembench report</h1>\n<p class=\"note\">", style);
	for (int i = 0; i < s->n; i++) {
		fprintf(out, "%s", i ? "; " : "");
		swatch(out, i);
		fprintf(out, "<b>");
		text(out, s->col[i].name);
		fprintf(out, "</b>: ");
		text(out, s->col[i].system);
		if (s->col[i].gpu >= 0)
			fprintf(out, ", GPU %d of %d", s->col[i].gpu, s->col[i].ngpus);
		fprintf(out, " (");
		text(out, s->col[i].doc->path);
		fprintf(out, ")");
	}
	fprintf(out, "</p>\n");
	if (*s->differs) { /* as the text summary says it: what may explain a change */
		fprintf(out, "<p class=\"note differs\">note: ");
		text(out, s->differs);
		fprintf(out, "</p>\n");
	}
	fprintf(out, "<h2 id=\"summary\">Summary</h2>\n");
	summary_table(out, s);
	anomalies(out, s);
	systems(out, s);
	curves(out, s);
	node(out, s);
	fprintf(out, "</body>\n</html>\n");
}
