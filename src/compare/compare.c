/* compare.c - matching the figures of documents (figures.c) by their identity
 * (the parameters' roles, engine/record.h), judging each change, and printing their ratios; the
 * judgement is shared with the HTML report (hmb_compare_judge). */
#include "compare/compare.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/figures.h"
#include "compare/noise.h"
#include "output/summary.h"
#include "stats/significance.h"
#include "util/nearest.h"
#include "util/numfmt.h"
#include "util/sizes.h"
#include "util/text.h"
#include "util/util.h"

/* ---- matching ------------------------------------------------------------- */

/* A document's figures in the order of their identity (result key and
 * figure name), figures of one identity in document order, so that repeated
 * identities pair up in the order they appear. */
struct by_identity {
	const char *key, *name;
	size_t fig;
};

struct identities {
	struct by_identity *sorted;
	size_t n;
	size_t *taken;              /* at an identity's first place: how many of it are matched */
	size_t repeats, first_repeat;
};

static int same_identity(const struct by_identity *a, const struct by_identity *b)
{
	return !strcmp(a->key, b->key) && !strcmp(a->name, b->name);
}

static int by_identity_order(const void *x, const void *y)
{
	const struct by_identity *a = x, *b = y;
	int c = strcmp(a->key, b->key);

	if (!c)
		c = strcmp(a->name, b->name);
	return c ? c : (a->fig > b->fig) - (a->fig < b->fig);
}

/* The figures of d that this comparison takes (not skipped), by identity. */
static void index_figures(const struct hmb_compare_doc *d, struct identities *t)
{
	t->sorted = hmb_xcalloc(d->n + 1, sizeof(*t->sorted));
	t->taken = hmb_xcalloc(d->n + 1, sizeof(*t->taken));
	t->n = t->repeats = 0;
	t->first_repeat = SIZE_MAX;
	for (size_t i = 0; i < d->n; i++)
		if (!d->fig[i].skip)
			t->sorted[t->n++] = (struct by_identity){ d->fig[i].key, d->fig[i].name, i };
	qsort(t->sorted, t->n, sizeof(*t->sorted), by_identity_order);
	for (size_t k = 1; k < t->n; k++)
		if (same_identity(&t->sorted[k - 1], &t->sorted[k])) {
			t->repeats++;
			if (t->sorted[k].fig < t->first_repeat)
				t->first_repeat = t->sorted[k].fig;
		}
}

static void identities_free(struct identities *t)
{
	free(t->sorted);
	free(t->taken);
}

/* Every result of a run has its own identity (module, case, parameters); a
 * document that repeats one is reported, and its repeats are matched in order. */
static void report_repeats(const char *file, const struct hmb_compare_doc *d,
			   const struct identities *t)
{
	if (t->repeats)
		fprintf(stderr, "hipmembench: compare: warning: %s: %zu figure(s) repeat an identity "
			"seen earlier in the same document (first: %s, %s); repeats are matched in "
			"order of appearance\n", file, t->repeats, d->fig[t->first_repeat].label,
			d->fig[t->first_repeat].name);
}

/* match[i]: the index in other of base figure i, or SIZE_MAX; matched[j] marks
 * the other's figures that found a partner. */
static void match_figures(const struct hmb_compare_doc *base, struct identities *in_other,
			  size_t *match, char *matched)
{
	for (size_t i = 0; i < base->n; i++) {
		struct by_identity want = { base->fig[i].key, base->fig[i].name, 0 };
		size_t lo = 0, hi = in_other->n, at;
		match[i] = SIZE_MAX;
		if (base->fig[i].skip)
			continue;
		while (lo < hi) { /* the identity's first place */
			size_t mid = lo + (hi - lo) / 2;
			if (by_identity_order(&in_other->sorted[mid], &want) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		at = lo + in_other->taken[lo];
		if (at >= in_other->n || !same_identity(&in_other->sorted[at], &want))
			continue;
		in_other->taken[lo]++;
		match[i] = in_other->sorted[at].fig;
		matched[match[i]] = 1;
	}
}

/* ---- which GPU ---------------------------------------------------------- */

/* How many GPUs a document's results ran on, and the lowest. */
static int gpus_of(const struct hmb_compare_doc *l, int *lowest)
{
	char seen[1024] = { 0 };
	int n = 0;

	*lowest = -1;
	for (size_t i = 0; i < l->nres; i++) {
		int g = l->res[i].gpu;
		if (g < 0)
			continue;
		if (*lowest < 0 || g < *lowest)
			*lowest = g;
		if (g >= (int)sizeof(seen)) {
			n += 2; /* beyond any node: counted as several */
			continue;
		}
		n += !seen[g];
		seen[g] = 1;
	}
	return n;
}

static int has_gpu(const struct hmb_compare_doc *l, int gpu)
{
	for (size_t i = 0; i < l->nres; i++)
		if (l->res[i].gpu == gpu)
			return 1;
	return 0;
}

/* ---- output ------------------------------------------------------------- */

#define TABLE_WIDTH 120

/* text as lines of at most width columns, the ones after the first indented. */
static void print_wrapped(FILE *to, const char *text, int indent, int width)
{
	int col = 0, first = 1;

	while (*text) {
		const char *w = text;
		int len;
		while (*w == ' ')
			w++;
		len = (int)strcspn(w, " ");
		if (!len)
			break;
		if (!first && col + 1 + len > width && len <= width - indent) {
			fprintf(to, "\n%*s", indent, "");
			col = indent;
			first = 1;
		}
		while (len > width - col - !first) { /* a word longer than a line */
			int room = width - col - !first;
			if (room <= 0) {
				fprintf(to, "\n%*s", indent, "");
				col = indent;
				first = 1;
				continue;
			}
			fprintf(to, "%s%.*s", first ? "" : " ", room, w);
			w += room;
			len -= room;
			col = width;
			first = 0;
		}
		fprintf(to, "%s%.*s", first ? "" : " ", len, w);
		col += len + !first;
		first = 0;
		text = w + len;
	}
	fputc('\n', to);
}

static void csv_field(const char *s, int last)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
	putchar(last ? '\n' : ',');
}

/* The figure for people, its unit once: "GB/s", "us/op", "median (s)". */
static void figure_text(const struct hmb_compare_figure *f, char *buf, size_t len)
{
	size_t n = strlen(f->name), u = strlen(f->unit);

	if (!u || !strcmp(f->name, f->unit) || !strcmp(f->unit, "?") ||
	    (!strncmp(f->name, f->unit, u) && f->name[u] == '/') ||
	    (n > u && f->name[n - u - 1] == '_' && !strcmp(f->name + n - u, f->unit)))
		snprintf(buf, len, "%s", f->name);
	else
		snprintf(buf, len, "%s (%s)", f->name, f->unit);
}

/* The other against the base, which way is better: "1.07x faster" (GB/s,
 * times), "0.90x worse" (speedups, ratios), "1.07x" (information). */
static void change_text(const struct hmb_compare_figure *a, const struct hmb_compare_figure *b, char *buf,
			size_t len)
{
	static const char *const speeds[] = { "GB/s", "faults/s", "s", "ms", "us", "ns", NULL };
	char factor[16];
	int speed = 0;
	double c;

	if (!(a->value > 0) || !(b->value > 0) || !isfinite(a->value) || !isfinite(b->value)) {
		snprintf(buf, len, "-");
		return;
	}
	for (int i = 0; speeds[i]; i++)
		speed |= !strcmp(a->unit, speeds[i]);
	c = a->direction < 0 ? a->value / b->value : b->value / a->value;
	hmb_fmt_ratio(factor, sizeof(factor), c);
	if (a->direction == 0)
		snprintf(buf, len, "%s", factor);
	else if (c >= 0.995 && c < 1.005)
		snprintf(buf, len, "1.00x same");
	else
		snprintf(buf, len, "%s %s", factor,
			 c > 1 ? (speed ? "faster" : "better") : (speed ? "slower" : "worse"));
}

struct row {
	const struct hmb_compare_figure *a, *b;
	const char *verdict;
	char cannot[16];     /* "?14%": cannot judge at the threshold (its resolution) */
	struct hmb_noise noise;
};

/* A row's numbers as printed: made when the row is printed (a comparison of
 * 300 000 figures keeps no text for them). */
struct cells {
	char base[32], other[32], ratio[32], change[48], p[32];
};

struct tally {
	int worse, better, not_significant, cannot, unknown, judged;
	int by_runs, by_docs, by_one_side; /* which noise the judged rows had */
};

/* A number for a table (short) or for CSV (every digit that matters). */
static void fmt_num(char *buf, size_t len, enum hmb_format f, int table_digits, double v)
{
	if (f == HMB_FORMAT_CSV)
		snprintf(buf, len, "%.10g", v);
	else
		hmb_fmt_g(buf, len, table_digits, v);
}

/* A figure's value: a byte count in binary units for people (15.9G), every
 * digit for CSV. */
static void fmt_value(char *buf, size_t len, enum hmb_format f, const struct hmb_compare_figure *x)
{
	if (f != HMB_FORMAT_CSV && !strcmp(x->unit, "bytes"))
		hmb_bytes_text(x->value, buf, len);
	else
		fmt_num(buf, len, f, 4, x->value);
}

static void format_cells(enum hmb_format f, int wide, const struct row *r, struct cells *c)
{
	memset(c, 0, sizeof(*c));
	fmt_value(c->base, sizeof(c->base), f, r->a);
	fmt_value(c->other, sizeof(c->other), f, r->b);
	change_text(r->a, r->b, c->change, sizeof(c->change));
	if (!isnan(r->noise.p))
		fmt_num(c->p, sizeof(c->p), f, 2, r->noise.p);
	else if (f != HMB_FORMAT_CSV)
		strcpy(c->p, "-");
	if (f == HMB_FORMAT_TABLE && !wide)
		return; /* the ratio is for CSV and --wide */
	if (r->a->value != 0 && f == HMB_FORMAT_CSV)
		snprintf(c->ratio, sizeof(c->ratio), "%.10g", r->b->value / r->a->value);
	else if (r->a->value != 0)
		hmb_fmt_f(c->ratio, sizeof(c->ratio), 3, r->b->value / r->a->value);
	else if (f != HMB_FORMAT_CSV)
		strcpy(c->ratio, "-");
}

/* Parameters shown in a label, for the table's groups. */
static size_t label_params(const struct hmb_compare_doc *l, size_t result, const struct hmb_compare_param **out,
			   size_t max)
{
	const struct hmb_compare_result *r = &l->res[result];
	size_t n = 0;

	for (size_t k = 0; k < r->np && n < max; k++)
		if (r->p[k].labelled)
			out[n++] = &r->p[k];
	return n;
}

static int same_case(const struct hmb_compare_doc *l, size_t x, size_t y)
{
	const struct hmb_compare_result *a = &l->res[x], *b = &l->res[y];
	return !strcmp(a->module, b->module) && !strcmp(a->kase, b->kase) && a->gpu == b->gpu;
}

#define MAX_LABEL_PARAMS 64
#define ROW_LABEL 36

/* A line without the blanks at its end. */
static void print_trimmed(char *line)
{
	size_t n = strlen(line);
	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	puts(line);
}

static void table_header(void)
{
	char line[256];
	snprintf(line, sizeof(line), "  %-*s %-26s %10s %10s  %-13s %7s %s", ROW_LABEL, "",
		 "figure", "base", "other", "other vs base", "p", "verdict");
	print_trimmed(line);
}

/* " name A vs B" appended to buf (which ends "...:"), after a comma where an
 * earlier one is there: 1, or 0 where there is no room. */
static int add_difference(char *buf, size_t len, const char *name, const char *a,
			  const char *b)
{
	size_t used = strlen(buf);

	if (used + 1 >= len)
		return 0;
	snprintf(buf + used, len - used, "%s %s %s vs %s", buf[used - 1] == ':' ? "" : ",", name,
		 a, b);
	return 1;
}

/* The machine-tuned numbers of result a (context, not text, not the GPU
 * index) that b holds otherwise, added to buf (add_difference), each name
 * once (one already in buf is skipped); how many were added. */
static size_t tuned_differences(const struct hmb_compare_result *a, const struct hmb_compare_result *b,
				char *buf, size_t len)
{
	size_t found = 0;

	for (size_t k = 0; k < a->np; k++) {
		const struct hmb_compare_param *p = &a->p[k];
		if (p->is_text || !p->context || p->gpu)
			continue;
		for (size_t j = 0; j < b->np; j++)
			if (!strcmp(b->p[j].name, p->name) && strcmp(b->p[j].text, p->text) &&
			    !strstr(buf, p->name))
				found += add_difference(buf, len, p->name, p->text, b->p[j].text);
	}
	return found;
}

/* Who ran at once beside results a and b where it differs (observed:
 * ran_beside_gpus, host_link_shared_with_gpus), added to buf
 * (add_difference; "none" where a side ran alone); how many were added. A
 * figure measured beside other GPUs is compared with the same figure
 * measured alone, and this names why they may differ. */
static size_t company_differences(const struct hmb_compare_result *a, const struct hmb_compare_result *b,
				  char *buf, size_t len)
{
	const struct { const char *name, *x, *y; } seen[] = {
		{ "ran_beside_gpus", a->beside, b->beside },
		{ "host_link_shared_with_gpus", a->host_shared, b->host_shared },
	};
	size_t found = 0;

	for (size_t k = 0; k < sizeof(seen) / sizeof(seen[0]); k++) {
		const char *x = seen[k].x ? seen[k].x : "none", *y = seen[k].y ? seen[k].y : "none";
		if (strcmp(x, y))
			found += add_difference(buf, len, seen[k].name, x, y);
	}
	return found;
}

/* Machine-tuned parameters that differ between the two sides of a group's
 * results (numbers; the GPU index and descriptive text aside): a line under
 * the group's heading. */
static void print_context_differences(const struct hmb_compare_doc *base,
				      const struct hmb_compare_doc *other, const struct row *rows,
				      size_t n)
{
	char text[1024] = "context differs, base vs other:";
	size_t used, found = 0, results = 0;

	for (size_t i = 0; i < n; i++) {
		if (i && rows[i].a->result == rows[i - 1].a->result)
			continue;
		results++;
		found += tuned_differences(&base->res[rows[i].a->result],
					   &other->res[rows[i].b->result], text, sizeof(text));
	}
	used = strlen(text);
	if (found) {
		if (results > 1 && used < sizeof(text))
			snprintf(text + used, sizeof(text) - used, " (the first row's; --wide: each "
				 "row's)");
		printf("    ");
		print_wrapped(stdout, text, 4, TABLE_WIDTH - 4);
	}
}

/* Who ran at once beside the group's first results, where the two sides
 * differ: a line under the group's heading. */
static void print_company_differences(const struct hmb_compare_doc *base,
				      const struct hmb_compare_doc *other, const struct row *rows)
{
	char note[512] = "ran at once, base vs other:";

	if (company_differences(&base->res[rows[0].a->result], &other->res[rows[0].b->result],
				note, sizeof(note))) {
		printf("    ");
		print_wrapped(stdout, note, 4, TABLE_WIDTH - 4);
	}
}

/* One group of rows (the figures of one case, in the base's order): the
 * parameters every row shares in its heading, the rest in each row. */
static void print_group(const struct hmb_compare_doc *base, const struct hmb_compare_doc *other,
			int with_gpu, const struct row *rows, size_t n)
{
	const struct hmb_compare_param *first[MAX_LABEL_PARAMS];
	char shared[MAX_LABEL_PARAMS] = { 0 };
	size_t nf = label_params(base, rows[0].a->result, first, MAX_LABEL_PARAMS);
	const struct hmb_compare_result *r0 = &base->res[rows[0].a->result];
	size_t hlen = 4 * (strlen(r0->module) + strlen(r0->kase)) + 64, used;
	char *heading;

	for (size_t k = 0; k < nf; k++) {
		shared[k] = 1;
		for (size_t i = 1; i < n && shared[k]; i++) {
			const struct hmb_compare_param *p[MAX_LABEL_PARAMS];
			size_t np = label_params(base, rows[i].a->result, p, MAX_LABEL_PARAMS), j;
			for (j = 0; j < np; j++)
				if (!strcmp(p[j]->name, first[k]->name) &&
				    !strcmp(p[j]->text, first[k]->text))
					break;
			shared[k] = j < np;
		}
		if (shared[k])
			hlen += strlen(first[k]->name) + strlen(first[k]->text) + 2;
	}
	heading = hmb_xcalloc(hlen, 1);
	used = (size_t)snprintf(heading, hlen, "%s %s", hmb_shown(r0->module), hmb_shown(r0->kase));
	if (with_gpu && r0->gpu >= 0)
		used += (size_t)snprintf(heading + used, hlen - used, " GPU %d", r0->gpu);
	for (size_t k = 0; k < nf; k++)
		if (shared[k])
			used += (size_t)snprintf(heading + used, hlen - used, " %s=%s", first[k]->name,
						 first[k]->text);
	putchar('\n');
	print_wrapped(stdout, heading, 4, TABLE_WIDTH);
	free(heading);
	print_context_differences(base, other, rows, n);
	print_company_differences(base, other, rows);
	for (size_t i = 0; i < n; i++) {
		const struct hmb_compare_param *p[MAX_LABEL_PARAMS];
		size_t np = label_params(base, rows[i].a->result, p, MAX_LABEL_PARAMS);
		char label[512] = "", fig[64], line[512];
		struct cells c;
		size_t at = 0;

		for (size_t k = 0; k < np; k++) {
			int is_shared = 0;
			for (size_t j = 0; j < nf; j++)
				is_shared |= shared[j] && !strcmp(first[j]->name, p[k]->name);
			if (!is_shared && at < sizeof(label))
				at += (size_t)snprintf(label + at, sizeof(label) - at, "%s%s=%s",
						       at ? " " : "", p[k]->name, p[k]->text);
		}
		if (i && rows[i].a->result == rows[i - 1].a->result)
			label[0] = '\0'; /* the same result: its label once */
		if (strlen(label) > ROW_LABEL) {
			printf("  ");
			print_wrapped(stdout, label, 4, TABLE_WIDTH - 2);
			label[0] = '\0';
		}
		figure_text(rows[i].a, fig, sizeof(fig));
		format_cells(HMB_FORMAT_TABLE, 0, &rows[i], &c);
		snprintf(line, sizeof(line), "  %-*s %-26.26s %10s %10s  %-13s %7s %s", ROW_LABEL,
			 label, fig, c.base, c.other, c.change, c.p, rows[i].verdict);
		print_trimmed(line);
	}
}

/* Context parameters of a result pair for --wide: "k=v", "k=v|w" where they differ. */
static void context_text(const struct hmb_compare_result *a, const struct hmb_compare_result *b, char *buf,
			 size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < a->np && used < len; k++) {
		const struct hmb_compare_param *p = &a->p[k];
		const char *w = NULL;
		if (!p->context)
			continue;
		for (size_t j = 0; j < b->np; j++)
			if (!strcmp(b->p[j].name, p->name))
				w = b->p[j].text;
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s%s%s", used ? "; " : "",
					 p->name, p->text, w && strcmp(w, p->text) ? " | " : "",
					 w && strcmp(w, p->text) ? w : "");
	}
}

static const char *noise_model_name(enum hmb_noise_model m)
{
	return m == HMB_NOISE_RUNS ? "runs" : m == HMB_NOISE_DOCUMENTS ? "documents"
					    : m == HMB_NOISE_ONE_SIDE ? "one-side" : "";
}

/* CSV: one column per part of a result's identity: module, case, size, then
 * every other parameter that identifies results of the base (not context),
 * in the order the base first names them. */
struct id_columns {
	const char **name;
	size_t n;
};

static void id_columns_of(const struct hmb_compare_doc *l, struct id_columns *c)
{
	c->n = 0;
	c->name = hmb_xcalloc(64, sizeof(*c->name));
	for (size_t i = 0; i < l->nres; i++)
		for (size_t k = 0; k < l->res[i].np; k++) {
			const struct hmb_compare_param *p = &l->res[i].p[k];
			size_t j;
			if (p->context || !strcmp(p->name, "size"))
				continue;
			for (j = 0; j < c->n && strcmp(c->name[j], p->name); j++)
				;
			if (j == c->n && c->n < 64)
				c->name[c->n++] = p->name;
		}
}

/* A parameter's value for CSV: every digit of a number, else as people read it
 * (a string as it is, yes/no). */
static const char *csv_value(const struct hmb_compare_result *r, const char *name)
{
	for (size_t k = 0; k < r->np; k++)
		if (!strcmp(r->p[k].name, name))
			return !strncmp(r->p[k].exact, "n:", 2) ? r->p[k].exact + 2 : r->p[k].text;
	return "";
}

/* ",module,case,size,..." and the end of the line. */
static void print_id_columns(const struct hmb_compare_result *r, const struct id_columns *c)
{
	putchar(',');
	csv_field(r->module, 0);
	csv_field(r->kase, 0);
	csv_field(csv_value(r, "size"), c->n == 0);
	for (size_t j = 0; j < c->n; j++)
		csv_field(csv_value(r, c->name[j]), j + 1 == c->n);
}

static void print_row(enum hmb_format f, int wide, const char *base_file,
		      const char *other_file, const struct hmb_compare_doc *base,
		      const struct hmb_compare_doc *other, const struct row *r,
		      const struct id_columns *ids)
{
	char fig[64], ctx[4096], noise[128];
	struct cells c;

	format_cells(f, wide, r, &c);
	if (f == HMB_FORMAT_CSV) {
		csv_field(base_file, 0);
		csv_field(other_file, 0);
		csv_field(r->a->label, 0);
		csv_field(r->a->name, 0);
		csv_field(r->a->unit, 0);
		printf("%s,%s,%s,%s,", c.base, c.other, c.ratio, c.p);
		csv_field(r->verdict, 0);
		if (!isnan(r->noise.resolution))
			printf("%.6g", r->noise.resolution);
		if (wide) /* the noise model, the change's noise and its degrees of freedom,
			   * each side's runs and documents */
			printf(",%s,%.6g,%.6g,%zu,%zu,%zu,%zu", noise_model_name(r->noise.model),
			       r->noise.noise_rel, r->noise.df, r->noise.a->runs, r->noise.b->runs,
			       r->noise.a->docs, r->noise.b->docs);
		print_id_columns(&base->res[r->a->result], ids);
		return;
	}
	hmb_noise_text(&r->noise, noise, sizeof(noise));
	figure_text(r->a, fig, sizeof(fig));
	if (f == HMB_FORMAT_MARKDOWN) {
		printf("| %s | %s | %s | %s | %s | %s | %s |", r->a->label, fig, c.base, c.other,
		       c.change, c.p, r->verdict);
	} else {
		printf("%s  %s  %s  %s  %s  %s  %s  %s", r->a->label, fig, c.base, c.other,
		       c.ratio, c.change, c.p, r->verdict);
	}
	if (wide) {
		context_text(&base->res[r->a->result], &other->res[r->b->result], ctx, sizeof(ctx));
		printf(f == HMB_FORMAT_MARKDOWN ? " %s | %s |" : "  %s  %s", noise, ctx[0] ? ctx : "-");
	}
	putchar('\n');
}

/* The rows of one pair, in the base's order. */
static void print_rows(enum hmb_format f, int wide, int with_gpu, const char *base_file,
		       const char *other_file, const struct hmb_compare_doc *base,
		       const struct hmb_compare_doc *other, const struct row *rows, size_t n,
		       const struct id_columns *ids)
{
	if (f == HMB_FORMAT_CSV) {
		for (size_t i = 0; i < n; i++)
			print_row(f, wide, base_file, other_file, base, other, &rows[i], ids);
		return;
	}
	if (f == HMB_FORMAT_MARKDOWN) {
		printf("| result | figure | base | other | other vs base | p | verdict |%s\n"
		       "|---|---|---:|---:|---|---:|---|%s\n", wide ? " noise | context |" : "",
		       wide ? "---|---|" : "");
		for (size_t i = 0; i < n; i++)
			print_row(f, wide, base_file, other_file, base, other, &rows[i], ids);
		return;
	}
	if (wide) {
		printf("result  figure  base  other  ratio  other-vs-base  p  verdict  noise  context\n");
		for (size_t i = 0; i < n; i++)
			print_row(f, wide, base_file, other_file, base, other, &rows[i], ids);
		return;
	}
	table_header();
	for (size_t i = 0, start = 0; i < n; i++)
		if (i + 1 == n || !same_case(base, rows[i + 1].a->result, rows[start].a->result)) {
			print_group(base, other, with_gpu, rows + start, i + 1 - start);
			start = i + 1;
		}
}

static void print_note(FILE *to, enum hmb_format f, const char *text)
{
	if (f == HMB_FORMAT_TABLE)
		print_wrapped(to, text, 0, TABLE_WIDTH);
	else
		fprintf(to, "%s\n", text);
}

/* The rows with a direction and a p that are discoveries at false-discovery
 * rate HMB_COMPARE_FDR: sig[i] 1. */
static void discoveries(const struct row *rows, size_t n, char *sig)
{
	double *p = hmb_xcalloc(n + 1, sizeof(*p));

	for (size_t i = 0; i < n; i++)
		p[i] = rows[i].a->direction != 0 ? rows[i].noise.p : NAN;
	hmb_fdr_discoveries(p, n, HMB_COMPARE_FDR, sig);
	free(p);
}

/* The verdict of each row at the threshold (its counts in t). */
static void judge_rows(struct row *rows, size_t n, double threshold, struct tally *t)
{
	char *sig = hmb_xcalloc(n + 1, 1);

	discoveries(rows, n, sig);
	for (size_t i = 0; i < n; i++) {
		struct row *r = &rows[i];
		double ratio, change;
		if (threshold < 0 || r->a->direction == 0 || !(r->a->value > 0) || !(r->b->value > 0))
			continue;
		if (isnan(r->noise.p)) { /* no runs to know its noise by */
			r->verdict = "?";
			t->unknown++;
			continue;
		}
		t->judged++;
		t->by_runs += r->noise.model == HMB_NOISE_RUNS;
		t->by_docs += r->noise.model == HMB_NOISE_DOCUMENTS;
		t->by_one_side += r->noise.model == HMB_NOISE_ONE_SIDE;
		ratio = r->b->value / r->a->value;
		change = r->a->direction > 0 ? 1.0 - ratio : ratio - 1.0; /* >0 worse */
		if (fabs(change) * 100.0 > threshold && sig[i]) {
			r->verdict = change > 0 ? "WORSE" : "better";
			t->worse += change > 0;
			t->better += change < 0;
		} else if (threshold > 0 && !(r->noise.resolution * 100.0 <= threshold)) {
			snprintf(r->cannot, sizeof(r->cannot), "?%.2g%%",
				 100.0 * r->noise.resolution);
			r->verdict = r->cannot;
			t->cannot++;
		} else if (fabs(change) * 100.0 > threshold) {
			r->verdict = "n.s.";
			t->not_significant++;
		}
	}
	free(sig);
}

/* The rows flagged either way, a line each with the whole label: what a
 * script greps for; where the two results' machine-tuned work differs (a
 * calibrated load's steps), the line says so: the change may be the work's. */
static void print_flagged(const struct hmb_compare_doc *base, const struct hmb_compare_doc *other,
			  const struct row *rows, size_t n)
{
	int any = 0;

	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char fig[64], line[1400], tuned[256] = "; context differs:";
		char company[512] = "; ran at once:";
		struct cells c;
		if (strcmp(r->verdict, "WORSE") && strcmp(r->verdict, "better"))
			continue;
		if (!any++)
			printf("\nflagged (module case parameters figure: other vs base, p, the change's "
			       "noise):\n");
		figure_text(r->a, fig, sizeof(fig));
		format_cells(HMB_FORMAT_TABLE, 0, r, &c);
		if (!tuned_differences(&base->res[r->a->result], &other->res[r->b->result], tuned,
				       sizeof(tuned)))
			tuned[0] = '\0';
		if (!company_differences(&base->res[r->a->result], &other->res[r->b->result],
					 company, sizeof(company)))
			company[0] = '\0';
		snprintf(line, sizeof(line), "%s %s %s: %s, p %s, +-%.2g%%%s%s", r->verdict,
			 r->a->label, fig, c.change, c.p, 100.0 * r->noise.noise_rel, tuned, company);
		printf("  ");
		print_wrapped(stdout, line, 4, TABLE_WIDTH - 2);
	}
}

/* The rows of one OTHER against BASE, each with its noise and its verdict
 * at the threshold (their counts in t): compare's judgement, the one its
 * table prints and the report shows (hmb_compare_judge). The rows point into
 * other_noise. */
static struct row *pair_rows(const struct hmb_compare_doc *base, const struct hmb_noise_doc *base_noise,
			     const struct hmb_compare_doc *other, const struct hmb_noise_doc *other_noise,
			     const size_t *match, double threshold, size_t *nrows, struct tally *t)
{
	struct row *rows = hmb_xcalloc(base->n + 1, sizeof(*rows));
	/* one machine: the two documents' runs measure one noise */
	int same_machine = !strcmp(base->about->system, other->about->system);

	*nrows = 0;
	for (size_t i = 0; i < base->n; i++) {
		struct row *r = &rows[*nrows];

		if (match[i] == SIZE_MAX)
			continue;
		(*nrows)++;
		r->a = &base->fig[i];
		r->b = &other->fig[match[i]];
		r->verdict = "";
		r->cannot[0] = '\0';
		hmb_noise_judge(base, base_noise, i, other, other_noise, match[i], same_machine,
				&r->noise);
	}
	judge_rows(rows, *nrows, threshold, t);
	return rows;
}

/* One OTHER against BASE: the rows, and the counts behind the exit status. */
static void compare_pair(const struct hmb_compare_doc *base, const char *base_file,
			 const struct hmb_noise_doc *base_noise, const struct hmb_compare_doc *other,
			 const char *other_file, const struct hmb_compare_options *o,
			 const size_t *match, int with_gpu, const struct id_columns *ids,
			 struct tally *t)
{
	enum hmb_format f = o->format;
	size_t nrows;
	struct hmb_noise_doc *other_noise = hmb_noise_of(other);
	struct row *rows = pair_rows(base, base_noise, other, other_noise, match, o->threshold,
				     &nrows, t);

	if (f != HMB_FORMAT_CSV) {
		size_t len = strlen(other_file) + strlen(base_file) + 8;
		char *title = hmb_xcalloc(len, 1);
		snprintf(title, len, "%s vs %s", other_file, base_file);
		putchar('\n');
		print_note(stdout, f, title);
		free(title);
	}
	print_rows(f, o->wide, with_gpu, base_file, other_file, base, other, rows, nrows, ids);
	if (f == HMB_FORMAT_TABLE && !o->wide)
		print_flagged(base, other, rows, nrows);
	/* the rows point into the other's model: done with them */
	free(rows);
	hmb_noise_doc_free(other_noise);
}

static void print_summary(FILE *to, enum hmb_format f, double threshold, const struct tally *t)
{
	char text[1400];

	fputc('\n', to);
	snprintf(text, sizeof(text), "p: how likely a change this large is between two documents "
		 "of one build, under the figure's noise ('-': no figure to judge). The noise is "
		 "measured on the documents: each figure's runs (a process each), weighed against "
		 "the figures alike in its document; where a side merges several documents "
		 "(hipmembench merge), the spread between them; two documents of one machine "
		 "weigh their runs together (pooled). Student's t over the degrees of freedom the "
		 "estimate has (--wide shows them): judged by runs %d, by documents %d, by one "
		 "side's runs %d.", t->by_runs, t->by_docs, t->by_one_side);
	print_note(to, f, text);
	if (t->unknown) {
		snprintf(text, sizeof(text), "?: %d figure(s) with no runs on either side (documents "
			 "of one run): their noise from one process to the next is not known, so "
			 "they are not judged. Make documents with two runs or more (all: two).",
			 t->unknown);
		print_note(to, f, text);
	}
	if (t->by_runs + t->by_one_side > 0)
		print_note(to, f, "One document a side sees how the figures move from run to run, "
			   "not how the machine moves between documents (minutes apart): merge three "
			   "documents a side for a gate that sees that too.");
	if (f != HMB_FORMAT_CSV)
		print_note(to, f, "other vs base: faster, slower (GB/s, times), better, worse "
			   "(speedups, ratios) by that factor; information (bytes, fractions) as "
			   "other/base.");
	if (threshold >= 0) {
		snprintf(text, sizeof(text), "verdict: moved by more than %g%% and beyond the noise "
			 "(p within Benjamini-Hochberg's bound for a false-discovery rate of %g over "
			 "the %d figures judged), the wrong way in capitals; n.s.: moved by more than "
			 "%g%% but within the noise; ?N%%: cannot judge %g%%, this pair tells a change "
			 "of N%% or more from noise (95%%): %d figure(s).", threshold, HMB_COMPARE_FDR,
			 t->judged, threshold, threshold, t->cannot);
		print_note(to, f, text);
	}
}

/* ---- how much matched ------------------------------------------------- */

/* "memcpy 20, node 5": how many unmatched figures per module, in order of
 * first appearance. */
static void per_module(const struct hmb_compare_doc *l, const char *unmatched, char *buf, size_t len)
{
	const char *name[32];
	size_t count[32], n = 0, other = 0, used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		const char *m = l->res[l->fig[i].result].module;
		size_t k;
		if (!unmatched[i])
			continue;
		for (k = 0; k < n && strcmp(name[k], m); k++)
			;
		if (k == n && n == sizeof(name) / sizeof(name[0])) {
			other++;
			continue;
		}
		if (k == n) {
			name[n] = m;
			count[n++] = 0;
		}
		count[k]++;
	}
	for (size_t k = 0; k < n && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s %zu", k ? ", " : "",
					 hmb_shown(name[k]), count[k]);
	if (other && used < len)
		snprintf(buf + used, len - used, ", other modules %zu", other);
}

#define UNMATCHED_SHOWN 10

static void list_unmatched(const char *what, const struct hmb_compare_doc *l, const char *unmatched,
			   int all)
{
	size_t shown = 0, total = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (!unmatched[i])
			continue;
		if (all || shown < UNMATCHED_SHOWN) {
			fprintf(stderr, "  %s only:  %s %s\n", what, l->fig[i].label, l->fig[i].name);
			shown++;
		}
		total++;
	}
	if (total > shown)
		fprintf(stderr, "  ... and %zu more only in the %s (--wide lists them all)\n",
			total - shown, what);
}

/* What matched of one pair and why the rest did not, on stderr. 1 when fewer
 * than half of the base's figures matched. */
static int report_matching(const struct hmb_compare_doc *base, const char *base_file,
			   const struct hmb_compare_doc *other, const char *other_file,
			   const size_t *match, const char *matched, int wide)
{
	char *ub = hmb_xcalloc(base->n + 1, 1), *uo = hmb_xcalloc(other->n + 1, 1);
	char mods_b[512], mods_o[512];
	size_t nb = 0, no = 0, nmatched = 0, skipped = 0;

	for (size_t i = 0; i < base->n; i++) {
		if (base->fig[i].skip)
			continue;
		nb++;
		nmatched += match[i] != SIZE_MAX;
		ub[i] = match[i] == SIZE_MAX;
	}
	for (size_t j = 0; j < other->n; j++) {
		skipped += other->fig[j].skip;
		uo[j] = !other->fig[j].skip && !matched[j];
		no += uo[j];
	}
	per_module(base, ub, mods_b, sizeof(mods_b));
	per_module(other, uo, mods_o, sizeof(mods_o));
	if (nmatched == nb && !no)
		fprintf(stderr, "hipmembench: compare: %s vs %s: all %zu figures of the base "
			"matched\n", other_file, base_file, nb);
	else
		fprintf(stderr, "hipmembench: compare: %s vs %s: %zu of the base's %zu figures "
			"matched; %zu only in the base%s%s%s, %zu only in %s%s%s%s\n", other_file,
			base_file, nmatched, nb, nb - nmatched, *mods_b ? " (" : "", mods_b,
			*mods_b ? ")" : "", no, other_file, *mods_o ? " (" : "", mods_o,
			*mods_o ? ")" : "");
	list_unmatched("base", base, ub, wide);
	list_unmatched("other", other, uo, wide);
	free(ub);
	free(uo);
	(void)skipped;
	return nmatched * 2 < nb;
}

/* ---- the command ---------------------------------------------------------- */

/* Which GPU of each document takes part: with --gpu N, GPU N of every
 * document that holds several; else, where every document holds several, GPU
 * against GPU (the index is identity), and otherwise the lowest GPU of those
 * that hold several against the single-GPU documents. 0, or 2 with a line
 * (quiet: without it, and without the note of what is left out). */
static int choose_gpus(struct hmb_compare_doc *docs, const char **files, int nfiles, int want,
		       int *with_gpu, int quiet)
{
	int all_multi = 1, any_multi = 0, lowest;

	for (int i = 0; i < nfiles; i++) {
		int n = gpus_of(&docs[i], &lowest);
		all_multi &= n > 1;
		any_multi |= n > 1;
	}
	*with_gpu = want < 0 && all_multi;
	/* --gpu asks for a GPU of each document of several: refused, before a
	 * line is printed, where one lacks it or none holds several */
	if (want >= 0 && !any_multi) {
		if (!quiet)
			fprintf(stderr, "hipmembench: compare: --gpu %d: none of the documents holds "
				"results of several GPUs\n", want);
		return 2;
	}
	for (int i = 0; i < nfiles && want >= 0; i++)
		if (gpus_of(&docs[i], &lowest) > 1 && !has_gpu(&docs[i], want)) {
			char there[1024] = { 0 }, text[256];
			for (size_t k = 0; k < docs[i].nres; k++)
				if (docs[i].res[k].gpu >= 0 && docs[i].res[k].gpu < (int)sizeof(there))
					there[docs[i].res[k].gpu] = 1;
			if (!quiet)
				fprintf(stderr, "hipmembench: compare: --gpu %d: %s has no results of "
					"GPU %d (its GPUs: %s)\n", want, hmb_shown(files[i]), want,
					hmb_numbers_text(there, (int)sizeof(there), text, sizeof(text)));
			return 2;
		}
	for (int i = 0; i < nfiles; i++) {
		int n = gpus_of(&docs[i], &lowest), pick = want >= 0 ? want : lowest;
		size_t left = 0;
		if (n < 2 || *with_gpu)
			continue;
		for (size_t k = 0; k < docs[i].n; k++) {
			int g = docs[i].res[docs[i].fig[k].result].gpu;
			docs[i].fig[k].skip = g >= 0 && g != pick;
			left += docs[i].fig[k].skip;
		}
		if (!quiet)
			fprintf(stderr, "hipmembench: compare: %s holds %d GPUs' results: GPU %d "
				"compared, %zu figures of the others left out%s\n", files[i], n, pick,
				left, want < 0 ? " (--gpu N picks another)" : "");
	}
	return 0;
}

/* ---- the documents side by side ---------------------------------------- */

/* The documents of a comparison, their GPUs chosen, identified, and the
 * base's figures matched in each other's (match[i], i >= 1): what compare
 * and its judgement share. */
struct opened {
	int n;
	const char **files;
	struct hmb_compare_doc *docs;
	size_t **match;
	int with_gpu;
	int partial;       /* fewer than half of the base's figures matched in one */
};

/* 0, or 2 (a GPU that is not there), named on stderr unless quiet; quiet
 * also leaves out what matched and what repeats. */
static int open_documents(int n, const struct hmb_sum_doc *const *in, int gpu, int wide,
			  int quiet, struct opened *o)
{
	struct identities *ids = hmb_xcalloc((size_t)n, sizeof(*ids));
	const char **files = hmb_xcalloc((size_t)n, sizeof(*files));

	*o = (struct opened){ n, files, hmb_xcalloc((size_t)n, sizeof(*o->docs)),
			      hmb_xcalloc((size_t)n, sizeof(*o->match)), 0, 0 };
	for (int i = 0; i < n; i++) {
		files[i] = in[i]->path;
		hmb_compare_doc_of(&o->docs[i], &in[i]->rep, &in[i]->about);
	}
	if (choose_gpus(o->docs, files, n, gpu, &o->with_gpu, quiet)) {
		free(ids);
		return 2;
	}
	for (int i = 0; i < n; i++) {
		hmb_compare_identify(&o->docs[i], o->with_gpu);
		index_figures(&o->docs[i], &ids[i]);
		if (!quiet && (!i || strcmp(files[i], files[0])))
			report_repeats(files[i], &o->docs[i], &ids[i]);
	}
	for (int i = 1; i < n; i++) {
		char *matched = hmb_xcalloc(o->docs[i].n + 1, 1);
		o->match[i] = hmb_xcalloc(o->docs[0].n + 1, sizeof(**o->match));
		match_figures(&o->docs[0], &ids[i], o->match[i], matched);
		if (!quiet)
			o->partial |= report_matching(&o->docs[0], files[0], &o->docs[i], files[i],
						      o->match[i], matched, wide);
		free(matched);
	}
	for (int i = 0; i < n; i++)
		identities_free(&ids[i]);
	free(ids);
	return 0;
}

static void close_documents(struct opened *o)
{
	for (int i = 0; i < o->n; i++) {
		free(o->match[i]);
		hmb_compare_doc_free(&o->docs[i]);
	}
	free(o->match);
	free(o->docs);
	free(o->files);
}

/* The documents named, read (the first that cannot be is named: NULL). */
static struct hmb_sum_doc *read_documents(int nfiles, char **files)
{
	struct hmb_sum_doc *docs = hmb_xcalloc((size_t)nfiles, sizeof(*docs));
	char err[1024];

	for (int i = 0; i < nfiles; i++)
		if (hmb_sum_doc_load(files[i], &docs[i], err, sizeof(err))) {
			fprintf(stderr, "hipmembench: compare: %s\n", err);
			while (i--)
				hmb_sum_doc_free(&docs[i]);
			free(docs);
			return NULL;
		}
	return docs;
}

int hmb_compare(int nfiles, char **files, const struct hmb_compare_options *o)
{
	struct opened op = { 0 };
	struct tally t = { 0 };
	struct hmb_noise_doc *base_noise;
	struct id_columns idcols = { NULL, 0 };
	enum hmb_format f = o->format;
	FILE *notes = f == HMB_FORMAT_CSV ? stderr : stdout;
	struct hmb_sum_doc *read = read_documents(nfiles, files);
	const struct hmb_sum_doc **in = hmb_xcalloc((size_t)nfiles, sizeof(*in));
	struct hmb_compare_doc *docs;
	size_t **match;
	int status, with_gpu;

	if (!read) {
		free(in);
		return 2;
	}
	for (int i = 0; i < nfiles; i++)
		in[i] = &read[i];
	status = open_documents(nfiles, in, o->gpu, o->wide, 0, &op);
	docs = op.docs;
	match = op.match;
	with_gpu = op.with_gpu;
	if (status)
		goto out;
	if (op.partial && !o->allow_partial) {
		fprintf(stderr, "hipmembench: compare: fewer than half of the base's figures "
			"matched: these documents measure different things (--allow-partial "
			"compares them anyway)\n");
		status = 2;
		goto out;
	}
	/* the documents' summary first (summary.h) */
	hmb_summary_for_compare(stdout, read, nfiles, o->benches, f, o->gpu);
	for (int i = 0; i < nfiles; i++) {
		char line[1024];
		snprintf(line, sizeof(line), "%s %s:", i ? "other" : "base ", files[i]);
		print_note(notes, f, line);
		snprintf(line, sizeof(line), "      %s", docs[i].about->system);
		print_note(notes, f, line);
	}
	for (int i = 1; i < nfiles; i++) {
		char differ[1400];
		if (*hmb_doc_differences(docs[0].about, docs[i].about, differ, sizeof(differ)))
			fprintf(stderr, "hipmembench: compare: warning: %s differs from the base: %s\n",
				files[i], differ);
	}
	id_columns_of(&docs[0], &idcols);
	if (f == HMB_FORMAT_CSV) {
		printf("base_file,other_file,result,figure,unit,base,other,ratio,p,verdict,"
		       "resolution_rel%s,module,case,size%s", o->wide ? ",noise,noise_rel,noise_df,"
		       "base_runs,other_runs,base_documents,other_documents" : "",
		       idcols.n ? "," : "\n");
		for (size_t j = 0; j < idcols.n; j++)
			csv_field(idcols.name[j], j + 1 == idcols.n);
	}
	base_noise = hmb_noise_of(&docs[0]);
	for (int i = 1; i < nfiles; i++)
		compare_pair(&docs[0], files[0], base_noise, &docs[i], files[i], o, match[i],
			     with_gpu, &idcols, &t);
	hmb_noise_doc_free(base_noise);
	print_summary(notes, f, o->threshold, &t);
	if (o->threshold >= 0 && t.not_significant)
		fprintf(stderr, "hipmembench: compare: %d figure(s) moved by more than %g%% but "
			"within their run-to-run noise (n.s.)\n", t.not_significant, o->threshold);
	if (o->threshold >= 0 && t.worse) {
		fprintf(stderr, "hipmembench: compare: %d figure(s) worse than the base by more "
			"than %g%% and beyond the noise\n", t.worse, o->threshold);
		status = 1;
	}
out:
	free(idcols.name);
	close_documents(&op);
	for (int i = 0; i < nfiles; i++)
		hmb_sum_doc_free(&read[i]);
	free(read);
	free(in);
	return status;
}

/* ---- the judgement, shared with the report ---------------------------------- */

int hmb_compare_judge(const struct hmb_sum_doc *const *docs, int n, int gpu, double threshold,
		      hmb_compare_judged_fn fn, void *arg)
{
	struct opened op;
	struct tally t = { 0 };
	struct hmb_noise_doc *base_noise;

	if (open_documents(n, docs, gpu, 0, 1, &op)) {
		close_documents(&op);
		return -1;
	}
	base_noise = hmb_noise_of(&op.docs[0]);
	for (int i = 1; i < n; i++) {
		struct hmb_noise_doc *other_noise = hmb_noise_of(&op.docs[i]);
		size_t nrows;
		struct row *rows = pair_rows(&op.docs[0], base_noise, &op.docs[i], other_noise,
					     op.match[i], threshold, &nrows, &t);
		for (size_t k = 0; k < nrows; k++) {
			const struct row *r = &rows[k];
			struct hmb_compare_judged j = {
				&op.docs[0], &op.docs[i], r->a, r->b, r->verdict,
				r->noise.p, r->noise.resolution,
			};
			fn(arg, i, &j);
		}
		free(rows);
		hmb_noise_doc_free(other_noise);
	}
	hmb_noise_doc_free(base_noise);
	close_documents(&op);
	return 0;
}
