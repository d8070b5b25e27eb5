/*
 * table_groups.c - the default table of a run, no line over 120 columns.
 *
 * A module's records come in groups: the sizes of one case, or cases of one
 * record each that follow one another and fit side by side. A group has a
 * heading with what all its rows share (the case, or the part of the case
 * names they share, host/ and a star; the parameters that define the
 * workload, each once), then its column headings (on two lines where one
 * would be too wide) and one row per result:
 *
 *   gpu         the GPU it ran on, where the records carry one (--devices)
 *   case        the rest of the case name, where the group has several cases
 *   PARAM       each parameter that differs from row to row (size, chunks, ...)
 *   median      the figure: GB/s where the record moves bytes, else the time
 *   best        of a sample (or per operation, "us/op"), in the unit the
 *               heading names; best is the fastest sample
 *   median us/copy  memcpy's copies of up to 1M (HMB_SMALL_COPY_MAX): the
 *               median time of one copy beside its GB/s; blank for larger ones
 *   peak %      GB/s as a share of the physical peak, where the summary has one
 *               (hmb_figure_peak_gbps: the host link, a device copy's memory)
 *   mark        stability marks (stability.h), S: the GPU was shared
 *   METRIC      each derived figure in a column of its own, unit in the heading
 *               (byte counts in binary units: 15.9G; B/s as GB/s)
 *
 * A heading is the parameter's or figure's name as the document spells it.
 * Where a group's headings do not fit one line, one wider than its column's
 * values goes on two lines, broken between words: its underscores shown as
 * blanks ("touch one" over "page in"), so that no word is ever split.
 *
 * A reason (unsupported, failed) that not every row shares ends its row.
 * Figure columns that do not fit beside the others go into a second band of
 * columns below, with the columns that say what a row is repeated. Context
 * parameters (their role, engine/record.h: tuned to the machine, descriptive
 * text, timing, launch geometry) are left to --wide (table.c), which prints every record
 * whole on one line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/module.h"
#include "engine/report.h"
#include "output/table.h"
#include "util/sizes.h"
#include "util/text.h"

#define WIDTH 120      /* the longest line */
#define KEY_MAX 80     /* the columns that say what a row is: at most this wide */
#define TEXT_MAX 32    /* a text parameter's column (longer values are cut) */
#define CASE_MAX 60    /* the case column */
#define NOTE_MIN 30    /* narrower than this, a row's note goes on a line of its own */
#define MAX_KEYS 64    /* parameters (and metrics) a group shows; more are for --wide */
#define MAX_COLS (2 * MAX_KEYS + 8)
#define MERGE_MAX 64   /* cases of one record side by side: at most this many rows */
#define GAP 2          /* between columns */
#define INDENT 2       /* column headings and rows, under the group's heading */

/* What a group's median and best columns hold. */
enum kind { K_NONE, K_GBPS, K_PER_OP, K_TIME };

enum col_kind { C_GPU, C_CASE, C_PARAM, C_MEDIAN, C_BEST, C_COPY, C_PEAK, C_MARK, C_METRIC };

struct col {
	enum col_kind kind;
	const char *key;       /* C_PARAM, C_METRIC: its name */
	char head[96];
	size_t split;          /* where a heading too wide for its values breaks: 0 none */
	double scale;          /* a time's seconds to the unit in the heading (B/s to GB/s); else 1 */
	int bytes;             /* C_METRIC: a byte count, in binary units */
	int width, left;       /* left: text, aligned left */
};

struct group {
	struct hmb_table_peaks *peaks; /* of the records' GPUs */
	const struct hmb_record *first;
	size_t n;
	enum kind kind;
	int one_case;          /* every row has the case of the heading */
	size_t prefix;         /* bytes of each case name the heading shows ("host/") */
	struct col col[MAX_COLS];
	int ncol, nkey;        /* the first nkey columns say what a row is */
	const char *shared[MAX_KEYS], *overflow[MAX_KEYS];
	int nshared, noverflow;/* parameters in the heading; varying ones past KEY_MAX */
	int reason_shared;     /* every row has the same status and reason: in the heading */
};

static const struct hmb_record *nth(const struct hmb_record *r, size_t i)
{
	while (r && i--)
		r = r->next;
	return r;
}

static enum kind kind_of(const struct hmb_record *r)
{
	if (r->status != HMB_OK || r->nsamples == 0)
		return K_NONE;
	if (r->bytes > 0)
		return K_GBPS;
	return r->ops > 0 ? K_PER_OP : K_TIME;
}

static const char *gpu_text(const struct hmb_record *r, char *buf, size_t len)
{
	const struct hmb_kv *g = hmb_record_gpu_param(r);
	return g ? hmb_param_value(g, buf, len) : "-";
}

/* The GPU a per-GPU module ran on, where a run of several GPUs tagged its
 * records (isolate.c: HMB_PARAM_DEVICE); -1 none. */
static double run_gpu(const struct hmb_record *r)
{
	const struct hmb_kv *d = hmb_kv_find(&r->params, HMB_PARAM_DEVICE);
	return d && d->type == HMB_KV_NUM ? d->num : -1;
}

/* A new table starts where the module or the GPU of the run changes, as a
 * run prints a table per module and GPU. */
static int same_table(const struct hmb_record *a, const struct hmb_record *b)
{
	return !strcmp(a->module, b->module) && run_gpu(a) == run_gpu(b);
}

/* Records from r on with r's case, in one table. */
static size_t case_run(const struct hmb_record *r)
{
	size_t n = 1;
	for (const struct hmb_record *x = r->next; x && same_table(r, x) &&
	     !strcmp(x->name, r->name); x = x->next)
		n++;
	return n;
}

/* Cases side by side keep to one size: the size is what a module sweeps. */
static int same_size(const struct hmb_record *a, const struct hmb_record *b)
{
	const struct hmb_kv *x = hmb_kv_find(&a->params, "size");
	const struct hmb_kv *y = hmb_kv_find(&b->params, "size");
	return !x || !y || x->num == y->num;
}

/* Do the metrics of next and those of the n records from first hold one
 * another (a speedup beside the baseline that has none), or do they differ? */
static int nested_metrics(const struct hmb_record *first, size_t n, const struct hmb_record *next)
{
	size_t in_next = 0, in_group = 0, union_n = 0;
	const struct hmb_record *r = first;
	const char *seen[MAX_KEYS];

	for (size_t i = 0; i < n; i++, r = r->next)
		for (size_t k = 0; k < r->metrics.n; k++) {
			int dup = 0;
			for (size_t j = 0; j < union_n && !dup; j++)
				dup = !strcmp(seen[j], r->metrics.v[k].key);
			if (!dup && union_n < MAX_KEYS)
				seen[union_n++] = r->metrics.v[k].key;
		}
	for (size_t j = 0; j < union_n; j++)
		in_next += hmb_kv_find(&next->metrics, seen[j]) != NULL;
	for (size_t k = 0; k < next->metrics.n; k++)
		for (size_t j = 0; j < union_n; j++)
			in_group += !strcmp(seen[j], next->metrics.v[k].key);
	return in_next == union_n || in_group == next->metrics.n;
}

static const struct hmb_kv *shown_param(const struct hmb_record *r, const char *key)
{
	const struct hmb_kv *kv = hmb_kv_find(&r->params, key);
	return kv && hmb_param_shown(r, kv) ? kv : NULL;
}

/* The unit of a column of times: the largest in which its smallest value
 * reads at least 0.1 (0.726 ms, not 726 us; 3.68 us, not 0.00368 ms). */
static const char *time_unit(double min_s, double *scale)
{
	static const struct { const char *name; double scale; } units[] = {
		{ "s", 1 }, { "ms", 1e3 }, { "us", 1e6 }, { "ns", 1e9 },
	};
	size_t i = 0;

	while (i + 1 < sizeof(units) / sizeof(units[0]) && min_s > 0 &&
	       min_s * units[i].scale < 0.1)
		i++;
	*scale = units[i].scale;
	return units[i].name;
}

/* Does the name of a metric say its unit already (us_per_fault in us,
 * peak_bytes in bytes, sum_alone_gbps in GB/s)? */
static int name_says_unit(const char *name, const char *unit)
{
	char alt[64];
	const char *forms[3] = { unit, alt, NULL };
	size_t nl = strlen(name);

	if (!strcmp(unit, "GB/s"))
		forms[2] = "gbps";
	else if (!strcmp(unit, "B/s"))
		forms[2] = "Bps";
	/* faults/s: faults_per_s */
	snprintf(alt, sizeof(alt), "%.*s_per_%s", (int)strcspn(unit, "/"), unit,
		 strchr(unit, '/') ? strchr(unit, '/') + 1 : "");
	for (int i = 0; i < 3; i++) {
		size_t ul = forms[i] ? strlen(forms[i]) : 0;
		if (!ul || ul > nl)
			continue;
		if (!strcmp(name, forms[i]) ||
		    (!strncmp(name, forms[i], ul) && name[ul] == '_') ||
		    (nl > ul && !strcmp(name + nl - ul, forms[i]) && name[nl - ul - 1] == '_'))
			return 1;
	}
	return 0;
}

/* The smallest positive value of a time metric in the group, in seconds. */
static double metric_min(const struct group *g, const char *key)
{
	double min = 0;
	const struct hmb_record *r = g->first;

	for (size_t i = 0; i < g->n; i++, r = r->next) {
		const struct hmb_kv *m = hmb_kv_find(&r->metrics, key);
		if (m && m->num > 0 && (min == 0 || m->num < min))
			min = m->num;
	}
	return min;
}

/* A metric's heading: its name and unit (a time in the unit that suits
 * the column, "_s" off the name; B/s as GB/s, "_Bps" off the name), the unit
 * left out where the name says it. */
static void metric_head(const struct group *g, struct col *c, const char *unit)
{
	char name[64];
	size_t len;

	hmb_printable(c->key, 60, name, sizeof(name));
	len = strlen(name);
	c->scale = 1;
	c->bytes = !strcmp(unit, "bytes");
	if (!strcmp(unit, "B/s")) { /* GB/s, as every rate of the tables */
		if (len > 4 && !strcmp(name + len - 4, "_Bps"))
			name[len - 4] = '\0';
		c->scale = 1e-9;
		snprintf(c->head, sizeof(c->head), "%s GB/s", name);
	} else if (!strcmp(unit, "s")) {
		const char *u = time_unit(metric_min(g, c->key), &c->scale);
		if (len > 2 && !strcmp(name + len - 2, "_s"))
			name[len - 2] = '\0';
		snprintf(c->head, sizeof(c->head), "%s %s", name, u);
	} else if (!*unit || !strcmp(unit, "ratio") || !strcmp(unit, "fraction") ||
		   name_says_unit(name, unit)) {
		snprintf(c->head, sizeof(c->head), "%s", name);
	} else {
		char u[32];
		snprintf(c->head, sizeof(c->head), "%s %s", name, hmb_printable(unit, 24, u,
										   sizeof(u)));
	}
}

/* A copy small enough for its time per copy beside its GB/s (memcpy, sizes
 * up to HMB_SMALL_COPY_MAX). */
static int small_copy(const struct hmb_record *r)
{
	const struct hmb_kv *size = hmb_kv_find(&r->params, "size");

	return !strcmp(r->module, "memcpy") && r->bytes > 0 && size && size->type == HMB_KV_NUM &&
	       size->num > 0 && size->num <= HMB_SMALL_COPY_MAX;
}

/* One cell's text. */
static const char *cell(const struct group *g, const struct col *c, const struct hmb_record *r,
			const struct hmb_summary *s, char *buf, size_t len)
{
	const struct hmb_kv *kv;
	double v = 0;

	switch (c->kind) {
	case C_GPU:
		return gpu_text(r, buf, len);
	case C_CASE:
		return hmb_printable(r->name + g->prefix, 200, buf, len);
	case C_PARAM:
		kv = shown_param(r, c->key);
		return kv ? hmb_param_value(kv, buf, len) : "-";
	case C_MEDIAN:
	case C_BEST:
		if (!s->has_stats)
			return "-";
		if (g->kind == K_GBPS) {
			v = c->kind == C_MEDIAN ? s->gbps_median : s->gbps_best;
			if (!(v > 0))
				return "-";
			snprintf(buf, len, "%.2f", v);
			return buf;
		}
		v = c->kind == C_MEDIAN ? s->stats.median : s->stats.min;
		if (g->kind == K_PER_OP && !(r->ops > 0))
			return "-";
		return hmb_figure_text(v / (g->kind == K_PER_OP ? r->ops : 1) * c->scale, buf,
				       len);
	case C_COPY:
		if (!s->has_stats || !small_copy(r))
			return "";
		return hmb_figure_text(s->stats.median / (r->ops > 0 ? r->ops : 1) * c->scale, buf,
				       len);
	case C_PEAK:
		v = hmb_table_peak_share(g->peaks, r, s);
		if (!(v > 0))
			return "-";
		snprintf(buf, len, "%.0f", 100 * v);
		return buf;
	case C_MARK:
		hmb_table_marks(r, s, buf, len);
		return buf;
	case C_METRIC:
		kv = hmb_kv_find(&r->metrics, c->key);
		if (kv && c->bytes)
			return hmb_bytes_text(kv->num, buf, len);
		return kv ? hmb_figure_text(kv->num * c->scale, buf, len) : "-";
	}
	return "-";
}

/* What ends a row: its reason where the heading has none, and the varying
 * parameters that found no column. */
static void note_text(const struct group *g, const struct hmb_record *r, char *buf, size_t len)
{
	size_t used = 0;
	char v[256], reason[512];

	buf[0] = '\0';
	for (int i = 0; i < g->noverflow && used < len; i++) {
		const struct hmb_kv *kv = shown_param(r, g->overflow[i]);
		if (kv)
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
						 hmb_shown(kv->key), hmb_param_value(kv, v, sizeof(v)));
	}
	if (r->status != HMB_OK && !g->reason_shared && used < len)
		snprintf(buf + used, len - used, "%s%s: %s", used ? " " : "",
			 hmb_status_name(r->status),
			 hmb_printable(r->reason ? r->reason : "", 400, reason, sizeof(reason)));
}

/* Every row of the group that has kv's key has kv's value, and every
 * measured row has it: a case that was not measured (unsupported) may lack
 * parameters that the others share. */
static int shared_by_all(const struct group *g, const struct hmb_kv *kv)
{
	char a[4096], b[4096];
	const struct hmb_record *r = g->first;

	hmb_param_value(kv, a, sizeof(a));
	for (size_t i = 0; i < g->n; i++, r = r->next) {
		const struct hmb_kv *x = shown_param(r, kv->key);
		if (x ? strcmp(hmb_param_value(x, b, sizeof(b)), a) != 0 : r->status == HMB_OK)
			return 0;
	}
	return 1;
}

/* The bytes of the case names that every row shares, up to a '/', leaving
 * each row some of its own. */
static size_t case_prefix(const struct group *g)
{
	const char *name = g->first->name;
	size_t best = 0;

	for (size_t end = 0; name[end]; end++) {
		const struct hmb_record *r = g->first;
		int all = name[end] == '/';
		for (size_t i = 0; all && i < g->n; i++, r = r->next)
			all = !strncmp(r->name, name, end + 1) && r->name[end + 1];
		if (all)
			best = end + 1;
	}
	return best;
}

static struct col *add_col(struct group *g, enum col_kind kind, const char *key, const char *head)
{
	struct col *c = &g->col[g->ncol++];

	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->key = key;
	c->scale = 1;
	snprintf(c->head, sizeof(c->head), "%s", head);
	return c;
}

/* The key names of the group's shown parameters (or metrics), in the order
 * they first come. */
static int keys_of(const struct group *g, int metrics, const char **keys)
{
	int n = 0;
	const struct hmb_record *r = g->first;

	for (size_t i = 0; i < g->n; i++, r = r->next) {
		const struct hmb_kvlist *l = metrics ? &r->metrics : &r->params;
		for (size_t k = 0; k < l->n && n < MAX_KEYS; k++) {
			int seen = 0;
			if (!metrics && !hmb_param_shown(r, &l->v[k]))
				continue;
			for (int j = 0; j < n && !seen; j++)
				seen = !strcmp(keys[j], l->v[k].key);
			if (!seen)
				keys[n++] = l->v[k].key;
		}
	}
	return n;
}

static int key_width(const struct group *g)
{
	int w = INDENT - GAP;
	for (int i = 0; i < g->nkey; i++)
		w += GAP + g->col[i].width;
	return w;
}

/* A heading wider than its column's values breaks in two lines between
 * words, its underscores shown as blanks, at the blank where the longer line
 * is shortest (where the group's headings do not fit on one line); a heading
 * of one word stays whole. */
static void split_head(struct col *c)
{
	char words[sizeof(c->head)];
	int whole, best;
	size_t cut = 0;

	snprintf(words, sizeof(words), "%s", c->head);
	for (char *p = words; *p; p++)
		if (*p == '_')
			*p = ' ';
	whole = (int)hmb_text_columns(words);
	best = whole;
	c->split = 0;
	for (size_t i = 1; words[i]; i++) {
		int a = 0, b;
		if (words[i] != ' ' || words[i - 1] == ' ')
			continue;
		for (size_t k = 0; k < i; k++)
			a += ((unsigned char)words[k] & 0xC0) != 0x80;
		b = whole - a - 1;
		if ((a > b ? a : b) < best) {
			best = a > b ? a : b;
			cut = i;
		}
	}
	if (!cut)
		return;
	memcpy(c->head, words, sizeof(words));
	c->split = cut;
	c->width = best > c->width ? best : c->width;
}

/* The heading's line `line` (0 the upper of two, 1 the lower or only one). */
static const char *head_line(const struct col *c, int line, char *buf, size_t len)
{
	if (!c->split)
		return line ? c->head : "";
	if (line == 0)
		snprintf(buf, len, "%.*s", (int)c->split, c->head);
	else
		snprintf(buf, len, "%s", c->head + c->split + (c->head[c->split] == ' '));
	return buf;
}

/* Each column as wide as its heading and its widest cell, within its limit. */
static void measure(struct group *g)
{
	const struct hmb_record *r = g->first;
	char buf[512];
	int one = INDENT - GAP;

	for (int k = 0; k < g->ncol; k++)
		g->col[k].width = 1;
	for (size_t i = 0; i < g->n; i++, r = r->next) {
		struct hmb_summary s;
		hmb_record_summarize(r, &s);
		for (int k = 0; k < g->ncol; k++) {
			struct col *c = &g->col[k];
			int w = (int)hmb_text_columns(cell(g, c, r, &s, buf, sizeof(buf)));
			int max = c->kind == C_CASE ? CASE_MAX : c->kind == C_PARAM ? TEXT_MAX : 1000;
			if (w > c->width)
				c->width = w < max ? w : max;
			if (c->kind == C_PARAM && shown_param(r, c->key) &&
			    shown_param(r, c->key)->type != HMB_KV_NUM)
				c->left = 1;
		}
	}
	/* headings on one line where they fit so, else broken where that narrows */
	for (int k = 0; k < g->ncol; k++) {
		int head = (int)hmb_text_columns(g->col[k].head);
		one += GAP + (head > g->col[k].width ? head : g->col[k].width);
	}
	for (int k = 0; k < g->ncol; k++) {
		struct col *c = &g->col[k];
		int head = (int)hmb_text_columns(c->head);
		if (head > c->width && one > WIDTH)
			split_head(c);
		if (!c->split && head > c->width)
			c->width = head;
	}
}

/* Lay out the group of n records from first: its heading's parts and its columns. */
static void layout(struct group *g, struct hmb_table_peaks *peaks, const struct hmb_record *first,
		   size_t n)
{
	const char *keys[MAX_KEYS], *units[MAX_KEYS];
	const struct hmb_record *r;
	int nkeys, stats = 0, peak = 0, reasons = 1;
	double min = 0, copy_min = 0;

	memset(g, 0, sizeof(*g));
	g->peaks = peaks;
	g->first = first;
	g->n = n;
	r = first;
	for (size_t i = 0; i < n; i++, r = r->next) {
		struct hmb_summary s;
		double op;
		hmb_record_summarize(r, &s);
		if (g->kind == K_NONE)
			g->kind = kind_of(r);
		stats |= s.has_stats;
		peak |= hmb_table_peak_share(peaks, r, &s) > 0;
		op = s.stats.median / (r->ops > 0 ? r->ops : 1);
		if (s.has_stats && small_copy(r) && kind_of(r) == K_GBPS && op > 0 &&
		    (copy_min == 0 || op < copy_min))
			copy_min = op;
		if (s.has_stats && (min == 0 || s.stats.min / (r->ops > 0 ? r->ops : 1) < min))
			min = s.stats.min / (r->ops > 0 ? r->ops : 1);
		reasons &= r->status != HMB_OK && r->status == first->status &&
			   !strcmp(r->reason ? r->reason : "", first->reason ? first->reason : "");
	}
	g->reason_shared = reasons;
	g->one_case = case_run(first) >= n;
	g->prefix = g->one_case ? strlen(first->name) : case_prefix(g);
	/* what a row is: its GPU, its case, the parameters that vary */
	for (r = first, n = 0; n < g->n && !hmb_record_gpu_param(r); n++, r = r->next)
		;
	if (n < g->n)
		add_col(g, C_GPU, NULL, "gpu");
	if (!g->one_case)
		add_col(g, C_CASE, NULL, "case")->left = 1;
	g->nkey = g->ncol;
	nkeys = keys_of(g, 0, keys);
	for (int k = 0; k < nkeys; k++) {
		const struct hmb_record *x = first;
		while (!shown_param(x, keys[k]))
			x = x->next;
		if (shared_by_all(g, shown_param(x, keys[k])))
			g->shared[g->nshared++] = keys[k];
		else
			add_col(g, C_PARAM, keys[k], hmb_shown(keys[k]));
	}
	g->nkey = g->ncol;
	/* the figures */
	if (stats) {
		double scale;
		const char *u = time_unit(min, &scale);
		char head[32];
		struct col *c;
		if (g->kind == K_GBPS)
			snprintf(head, sizeof(head), "GB/s");
		else
			snprintf(head, sizeof(head), "%s%s", u, g->kind == K_PER_OP ? "/op" : "");
		c = add_col(g, C_MEDIAN, NULL, "");
		snprintf(c->head, sizeof(c->head), "median %s", head);
		c->scale = g->kind == K_GBPS ? 1 : scale;
		c = add_col(g, C_BEST, NULL, "");
		snprintf(c->head, sizeof(c->head), "best %s", head);
		c->scale = g->kind == K_GBPS ? 1 : scale;
		if (g->kind == K_GBPS && copy_min > 0) {
			u = time_unit(copy_min, &scale);
			c = add_col(g, C_COPY, NULL, "");
			snprintf(c->head, sizeof(c->head), "median %s/copy", u);
			c->scale = scale;
		}
		if (peak)
			add_col(g, C_PEAK, NULL, "peak %");
		add_col(g, C_MARK, NULL, "mark")->left = 1;
	}
	nkeys = keys_of(g, 1, keys);
	for (int k = 0; k < nkeys; k++) {
		units[k] = "";
		for (r = first, n = 0; n < g->n; n++, r = r->next) {
			const struct hmb_kv *m = hmb_kv_find(&r->metrics, keys[k]);
			if (m && m->unit && *m->unit) {
				units[k] = m->unit;
				break;
			}
		}
		metric_head(g, add_col(g, C_METRIC, keys[k], ""), units[k]);
	}
	measure(g);
	/* parameters that would make the key columns wider than KEY_MAX end the
	 * row instead, as do all of a group of cases not measured (beside their reason) */
	for (int k = 0; k < g->nkey; k++) {
		if (g->col[k].kind != C_PARAM || (key_width(g) <= KEY_MAX && stats))
			continue;
		g->overflow[g->noverflow++] = g->col[k].key;
		memmove(&g->col[k], &g->col[k + 1], (size_t)(g->ncol - k - 1) * sizeof(g->col[0]));
		g->ncol--;
		g->nkey--;
		k--;
	}
}

/* The width of the group's columns side by side, in one band. */
static int full_width(const struct group *g)
{
	int w = INDENT - GAP;
	for (int i = 0; i < g->ncol; i++)
		w += GAP + g->col[i].width;
	return w;
}

/* A line being made: text appended, written without trailing blanks. */
struct line {
	char text[8192];
	size_t used;
	int col;               /* columns taken */
};

static void line_put(struct line *l, const char *s, size_t bytes)
{
	size_t room = l->used < sizeof(l->text) - 1 ? sizeof(l->text) - 1 - l->used : 0;

	if (bytes > room)
		bytes = room;
	memcpy(l->text + l->used, s, bytes);
	l->used += bytes;
	l->text[l->used] = '\0';
	for (size_t i = 0; i < bytes; i++)
		l->col += ((unsigned char)s[i] & 0xC0) != 0x80;
}

static void line_pad(struct line *l, int to)
{
	while (l->col < to)
		line_put(l, " ", 1);
}

static void line_end(FILE *out, struct line *l)
{
	while (l->used && l->text[l->used - 1] == ' ')
		l->used--;
	fwrite(l->text, 1, l->used, out);
	fputc('\n', out);
	l->used = 0;
	l->col = 0;
	l->text[0] = '\0';
}

/* s in a field of width columns, aligned left or right; cut to fit ("..."). */
static void line_field(struct line *l, const char *s, int width, int left)
{
	int n = (int)hmb_text_columns(s), start = l->col;

	if (n <= width) {
		if (!left)
			line_pad(l, start + width - n);
		line_put(l, s, strlen(s));
		line_pad(l, start + width);
		return;
	}
	for (int cols = 0; *s && cols < width - 3; cols++) {
		size_t seq = 1;
		while ((s[seq] & 0xC0) == 0x80)
			seq++;
		line_put(l, s, seq);
		s += seq;
	}
	line_put(l, "...", width >= 3 ? 3 : 0);
}

/* Words after what l holds, lines broken between words to stay within
 * WIDTH; continuation lines start at indent. A word longer than a line is
 * cut. Ends the line. */
static void line_words(FILE *out, struct line *l, int indent, const char *text)
{
	const char *p = text;
	int start = l->col;

	while (*p) {
		size_t len = strcspn(p, " ");
		int w = 0;
		for (size_t i = 0; i < len; i++)
			w += ((unsigned char)p[i] & 0xC0) != 0x80;
		if (l->col > start && l->col + 1 + w > WIDTH) {
			line_end(out, l);
			line_pad(l, indent);
			start = indent;
		} else if (l->col > start) {
			line_put(l, " ", 1);
		}
		if (l->col + w > WIDTH) {
			char word[1024];
			snprintf(word, sizeof(word), "%.*s", (int)(len < 1000 ? len : 1000), p);
			line_field(l, word, WIDTH - l->col, 1);
		} else {
			line_put(l, p, len);
		}
		p += len;
		while (*p == ' ')
			p++;
	}
	line_end(out, l);
}

/* A parameter of the heading, from the first row that has it (a failed row
 * may lack what the others share). */
static const struct hmb_kv *shared_param(const struct group *g, const char *key)
{
	const struct hmb_record *r = g->first;
	const struct hmb_kv *kv = NULL;

	for (size_t i = 0; i < g->n && !(kv = shown_param(r, key)); i++)
		r = r->next;
	return kv;
}

static void print_heading(FILE *out, const struct group *g)
{
	char text[4096], v[256], reason[512];
	size_t used = 0;

	text[0] = '\0';
	if (g->one_case)
		used += (size_t)snprintf(text, sizeof(text), "%s", hmb_shown(g->first->name));
	else if (g->prefix)
		used += (size_t)snprintf(text, sizeof(text), "%.*s*", (int)g->prefix,
					 hmb_shown(g->first->name));
	for (int i = 0; i < g->nshared && used < sizeof(text); i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s=%s", used ? " " : "",
					 hmb_shown(g->shared[i]),
					 hmb_param_value(shared_param(g, g->shared[i]), v, sizeof(v)));
	if (g->reason_shared && used < sizeof(text))
		snprintf(text + used, sizeof(text) - used, "%s%s: %s", used ? " " : "",
			 hmb_status_name(g->first->status),
			 hmb_printable(g->first->reason ? g->first->reason : "", 400, reason,
				       sizeof(reason)));
	hmb_utf8_trim(text);
	if (text[0]) {
		struct line l = { .used = 0 };
		line_words(out, &l, 4, text);
	}
}

/* Key columns, then columns [from, to): a heading line, then each row; the
 * last band ends each row with its note. */
static void print_band(FILE *out, const struct group *g, int from, int to, int last)
{
	const struct hmb_record *r = g->first;
	char buf[512], note[2048];
	struct line l = { .used = 0 };
	int two = 0;

	for (int k = 0; k < to; k++)
		two |= (k < g->nkey || k >= from) && g->col[k].split;
	for (int h = !two; h < 2; h++) {
		int start = 1;
		line_pad(&l, INDENT);
		for (int k = 0; k < to; k++) {
			const struct col *c = &g->col[k];
			if (k >= g->nkey && k < from)
				continue;
			line_pad(&l, l.col + (start ? 0 : GAP));
			line_field(&l, head_line(c, h, buf, sizeof(buf)), c->width, c->left);
			start = 0;
		}
		line_end(out, &l);
	}
	for (size_t i = 0; i < g->n; i++, r = r->next) {
		struct hmb_summary s;
		hmb_record_summarize(r, &s);
		line_pad(&l, INDENT);
		for (int k = 0, start = 1; k < to; k++) {
			const struct col *c = &g->col[k];
			if (k >= g->nkey && k < from)
				continue;
			line_pad(&l, l.col + (start ? 0 : GAP));
			line_field(&l, cell(g, c, r, &s, buf, sizeof(buf)), c->width, c->left);
			start = 0;
		}
		note_text(g, r, note, sizeof(note));
		if (!last || !note[0]) {
			line_end(out, &l);
			continue;
		}
		if (WIDTH - l.col - GAP < NOTE_MIN) {
			line_end(out, &l);
			line_pad(&l, INDENT + 4);
		} else {
			line_pad(&l, l.col + GAP);
		}
		line_words(out, &l, l.col, note);
	}
}

static void print_group(FILE *out, const struct group *g)
{
	int from = g->nkey;

	fputc('\n', out);
	print_heading(out, g);
	if (!g->ncol) {
		/* nothing that differs and no figure: the heading says it all */
		const struct hmb_record *r = g->first;
		char note[2048];
		for (size_t i = 0; i < g->n; i++, r = r->next) {
			struct line l = { .used = 0 };
			note_text(g, r, note, sizeof(note));
			line_pad(&l, INDENT);
			if (note[0])
				line_words(out, &l, INDENT + 4, note);
		}
		return;
	}
	/* bands: as many figure columns beside the key columns as fit */
	do {
		int w = key_width(g), to = from;
		while (to < g->ncol && (to == from || w + GAP + g->col[to].width <= WIDTH))
			w += GAP + g->col[to++].width;
		print_band(out, g, from, to, to == g->ncol);
		from = to;
	} while (from < g->ncol);
}

/* Can next, a case of one record, go beside the cases of g (into more)? Of
 * one table, kind and size, with metrics that hold one another, while the
 * columns fit in one band and the varying parameters in the key columns. */
static int joins(const struct group *g, const struct hmb_record *next, struct group *more)
{
	if (!next || !same_table(g->first, next) || case_run(next) > 1 || g->n == MERGE_MAX ||
	    kind_of(next) != kind_of(g->first) || !same_size(g->first, next) ||
	    !nested_metrics(g->first, g->n, next))
		return 0;
	layout(more, g->peaks, g->first, g->n + 1);
	return full_width(more) <= WIDTH && (!more->noverflow || more->kind == K_NONE);
}

/* What the module of the table from first up to end prints after it (node's
 * matrices). */
static void module_tables(FILE *out, const struct hmb_report *rep, const struct hmb_record *first,
			  const struct hmb_record *end)
{
	const struct hmb_bench *b = first && rep ? hmb_bench_named(rep->benches, first->module)
						 : NULL;

	if (b && b->tables)
		b->tables(out, first, end);
}

void hmb_table_print_groups(FILE *out, const struct hmb_report *rep,
			    const struct hmb_record *first)
{
	const struct hmb_record *table = NULL;
	struct hmb_table_peaks *peaks = calloc(1, sizeof(*peaks));
	struct group g, more;

	if (peaks)
		peaks->rep = rep;
	for (const struct hmb_record *r = first; r; r = nth(r, g.n)) {
		if (!table || !same_table(table, r)) {
			module_tables(out, rep, table, r);
			table = r;
			fprintf(out, "\n== %s ==\n", hmb_shown(r->module));
		}
		layout(&g, peaks, r, case_run(r));
		/* cases of one record each, side by side while they fit */
		while (case_run(r) == 1 && joins(&g, nth(r, g.n), &more))
			g = more;
		print_group(out, &g);
	}
	module_tables(out, rep, table, NULL);
	free(peaks);
}
