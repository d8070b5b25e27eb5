/* compare.c - matching figures across documents and printing their ratios. */
#include "compare.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaded.h"
#include "significance.h"
#include "util.h"

/* Identity order: key, figure name, then place in the document, so that
 * repeated identities pair up in the order they appear. */
static int cmp_identity(const void *x, const void *y)
{
	const struct hmb_figure *a = *(const struct hmb_figure *const *)x;
	const struct hmb_figure *b = *(const struct hmb_figure *const *)y;
	int c = strcmp(a->key, b->key);

	if (!c)
		c = strcmp(a->name, b->name);
	if (!c)
		c = (a > b) - (a < b);
	return c;
}

static int same_identity(const struct hmb_figure *a, const struct hmb_figure *b)
{
	return !strcmp(a->key, b->key) && !strcmp(a->name, b->name);
}

/* The figures of a document in identity order (O(n log n)). */
static const struct hmb_figure **sorted_figures(const struct hmb_loaded *l)
{
	const struct hmb_figure **s = hmb_xcalloc(l->n + 1, sizeof(*s));

	for (size_t i = 0; i < l->n; i++)
		s[i] = &l->fig[i];
	qsort(s, l->n, sizeof(*s), cmp_identity);
	return s;
}

/* Every result of a run has its own identity (module, case, parameters); a
 * document that repeats one is reported, and its repeats are matched in order. */
static void report_repeats(const char *file, const struct hmb_figure **s, size_t n)
{
	size_t repeats = 0, first = 0;

	for (size_t i = 1; i < n; i++)
		if (same_identity(s[i - 1], s[i]) && !repeats++)
			first = i;
	if (repeats)
		fprintf(stderr, "hipmembench: compare: warning: %s: %zu figure(s) repeat an identity "
			"seen earlier in the same document (first: %s, %s); repeats are matched in "
			"order of appearance\n", file, repeats, s[first]->label, s[first]->name);
}

/* match[i]: the index in other of base figure i, or SIZE_MAX; matched[j] marks
 * the other's figures that found a partner. A merge of the two sorted lists. */
static void match_figures(const struct hmb_loaded *base, const struct hmb_figure **sb,
			  const struct hmb_loaded *other, const struct hmb_figure **so,
			  size_t *match, char *matched)
{
	size_t i = 0, j = 0;

	for (size_t k = 0; k < base->n; k++)
		match[k] = SIZE_MAX;
	while (i < base->n && j < other->n) {
		int c = strcmp(sb[i]->key, so[j]->key);
		if (!c)
			c = strcmp(sb[i]->name, so[j]->name);
		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			size_t at = (size_t)(so[j] - other->fig);
			match[sb[i] - base->fig] = at;
			matched[at] = 1;
			i++;
			j++;
		}
	}
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

struct row {
	const char *base_file, *other_file, *label, *name, *unit;
	char base[32], other[32], ratio[32], p[32];
	const char *verdict;
};

static void print_row(enum hmb_format f, const struct row *r)
{
	if (f == HMB_FORMAT_CSV) {
		csv_field(r->base_file, 0);
		csv_field(r->other_file, 0);
		csv_field(r->label, 0);
		csv_field(r->name, 0);
		csv_field(r->unit, 0);
		printf("%s,%s,%s,%s,", r->base, r->other, r->ratio, r->p);
		csv_field(r->verdict, 1);
	} else if (f == HMB_FORMAT_MARKDOWN) {
		printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", r->label, r->name, r->unit,
		       r->base, r->other, r->ratio, r->p, r->verdict);
	} else {
		printf("%-70s %-20s %6s %12s %12s %8s %8s  %s\n", r->label, r->name, r->unit,
		       r->base, r->other, r->ratio, r->p, r->verdict);
	}
}

static void print_header(enum hmb_format f)
{
	struct row h = { "base_file", "other_file", "result", "figure", "unit", "base", "other",
			 "ratio", "p", "verdict" };

	print_row(f, &h);
	if (f == HMB_FORMAT_MARKDOWN)
		printf("|---|---|---|---:|---:|---:|---:|---|\n");
}

struct tally {
	int worse, not_significant, too_few, tested;
};

/* A number for a table (short) or for CSV (every digit that matters). */
static void fmt_num(char *buf, size_t len, enum hmb_format f, const char *table_fmt, double v)
{
	snprintf(buf, len, f == HMB_FORMAT_CSV ? "%.10g" : table_fmt, v);
}

/* One OTHER against BASE: the rows, and the counts behind the exit status. */
static void compare_pair(const struct hmb_loaded *base, const struct hmb_figure **sb,
			 const char *base_file, const struct hmb_loaded *other,
			 const char *other_file, enum hmb_format f, double threshold,
			 struct tally *t)
{
	const struct hmb_figure **so = sorted_figures(other);
	size_t *match = hmb_xcalloc(base->n + 1, sizeof(*match));
	char *matched = hmb_xcalloc(other->n + 1, 1);
	double *p = hmb_xcalloc(base->n + 1, sizeof(*p));
	int only_base = 0, only_other = 0;
	FILE *notes = f == HMB_FORMAT_CSV ? stderr : stdout;

	if (strcmp(other_file, base_file))
		report_repeats(other_file, so, other->n);
	match_figures(base, sb, other, so, match, matched);
	for (size_t i = 0; i < base->n; i++) {
		const struct hmb_figure *a = &base->fig[i];
		p[i] = NAN;
		if (match[i] != SIZE_MAX) {
			const struct hmb_figure *b = &other->fig[match[i]];
			p[i] = hmb_mann_whitney_p(a->samples, a->nsamples, b->samples, b->nsamples);
			t->tested += !isnan(p[i]);
		}
	}
	hmb_adjust_bh(p, base->n);

	if (f != HMB_FORMAT_CSV) {
		printf("\n%s vs %s\n", other_file, base_file);
		print_header(f);
	}
	for (size_t i = 0; i < base->n; i++) {
		const struct hmb_figure *a = &base->fig[i], *b;
		struct row r = { base_file, other_file, a->label, a->name, a->unit,
				 "", "", "", "", "" };

		if (match[i] == SIZE_MAX) {
			only_base++;
			continue;
		}
		b = &other->fig[match[i]];
		fmt_num(r.base, sizeof(r.base), f, "%.4g", a->value);
		fmt_num(r.other, sizeof(r.other), f, "%.4g", b->value);
		if (!isnan(p[i]))
			fmt_num(r.p, sizeof(r.p), f, "%.2g", p[i]);
		else if (f != HMB_FORMAT_CSV)
			strcpy(r.p, "-");
		if (a->value != 0) {
			double ratio = b->value / a->value;
			fmt_num(r.ratio, sizeof(r.ratio), f, "%.3f", ratio);
			if (threshold >= 0 && a->direction != 0) {
				double change = a->direction > 0 ? 1.0 - ratio : ratio - 1.0; /* >0 worse */
				if (fabs(change) * 100.0 > threshold) {
					if (p[i] < HMB_COMPARE_ALPHA) {
						r.verdict = change > 0 ? "WORSE" : "better";
						t->worse += change > 0;
					} else {
						r.verdict = "n.s.";
						t->not_significant++;
						t->too_few += !(hmb_mann_whitney_min_p(a->nsamples, b->nsamples) <
								HMB_COMPARE_ALPHA);
					}
				}
			}
		} else if (f != HMB_FORMAT_CSV) {
			strcpy(r.ratio, "-");
		}
		print_row(f, &r);
	}
	for (size_t j = 0; j < other->n; j++)
		only_other += !matched[j];
	if (only_base || only_other) {
		fprintf(notes, "\n%d figure(s) only in the base, %d only in %s:\n", only_base,
			only_other, other_file);
		for (size_t i = 0; i < base->n; i++)
			if (match[i] == SIZE_MAX)
				fprintf(notes, "  base only:  %s %s\n", base->fig[i].label,
					base->fig[i].name);
		for (size_t j = 0; j < other->n; j++)
			if (!matched[j])
				fprintf(notes, "  other only: %s %s\n", other->fig[j].label,
					other->fig[j].name);
	}
	free(p);
	free(matched);
	free(match);
	free(so);
}

/* The fewest samples per side with which a difference can reach HMB_COMPARE_ALPHA. */
static size_t reps_needed(void)
{
	size_t n = 1;
	while (n < HMB_MWU_EXACT_MAX && !(hmb_mann_whitney_min_p(n, n) < HMB_COMPARE_ALPHA))
		n++;
	return n;
}

static void print_summary(FILE *to, double threshold, const struct tally *t)
{
	fprintf(to, "\np: Mann-Whitney U test of the two results' timed samples (every figure of a "
		"result is derived from them), two-sided, adjusted for the number of figures each "
		"pair of documents compares (Benjamini-Hochberg; %d in all); '-': no samples.\n",
		t->tested);
	if (threshold >= 0)
		fprintf(to, "verdict: moved by more than %g%% with p < %g, the wrong way in capitals; "
			"n.s.: moved by more than %g%% but not significantly.\n", threshold,
			HMB_COMPARE_ALPHA, threshold);
}

int hmb_compare(int nfiles, char **files, enum hmb_format f, double threshold)
{
	struct hmb_loaded *docs = hmb_xcalloc((size_t)nfiles, sizeof(*docs));
	const struct hmb_figure **sb = NULL;
	struct tally t = { 0, 0, 0, 0 };
	FILE *notes = f == HMB_FORMAT_CSV ? stderr : stdout;
	char err[1024];
	int status = 0;

	for (int i = 0; i < nfiles; i++)
		if (hmb_json_load(files[i], &docs[i], err, sizeof(err)) != 0) {
			fprintf(stderr, "hipmembench: compare: %s\n", err);
			status = 2;
			goto out;
		}
	for (int i = 0; i < nfiles; i++)
		fprintf(notes, "%s %s: %s\n", i ? "other" : "base ", files[i], docs[i].system);
	for (int i = 1; i < nfiles; i++) {
		if (docs[i].schema_version != docs[0].schema_version)
			fprintf(stderr, "hipmembench: compare: warning: %s has schema version %d, the "
				"base %d\n", files[i], docs[i].schema_version, docs[0].schema_version);
		if (strcmp(docs[i].settings, docs[0].settings))
			fprintf(stderr, "hipmembench: compare: warning: settings differ (%s: %s; base: "
				"%s): figures may not mean the same\n", files[i], docs[i].settings,
				docs[0].settings);
		if (strcmp(docs[i].xnack, docs[0].xnack))
			fprintf(stderr, "hipmembench: compare: warning: XNACK mode differs (%s: %s; "
				"base: %s)\n", files[i], docs[i].xnack, docs[0].xnack);
	}
	sb = sorted_figures(&docs[0]);
	report_repeats(files[0], sb, docs[0].n);
	if (f == HMB_FORMAT_CSV)
		print_header(f);
	for (int i = 1; i < nfiles; i++)
		compare_pair(&docs[0], sb, files[0], &docs[i], files[i], f, threshold, &t);
	print_summary(notes, threshold, &t);
	if (threshold >= 0 && t.not_significant)
		fprintf(stderr, "hipmembench: compare: %d figure(s) moved by more than %g%% but not "
			"significantly (n.s.)\n", t.not_significant, threshold);
	if (threshold >= 0 && t.too_few)
		fprintf(stderr, "hipmembench: compare: %d of them have too few samples to reach p < "
			"%g at all: measure with --reps %zu or more\n", t.too_few, HMB_COMPARE_ALPHA,
			reps_needed());
	if (threshold >= 0 && t.worse) {
		fprintf(stderr, "hipmembench: compare: %d figure(s) worse than the base by more "
			"than %g%% (p < %g)\n", t.worse, threshold, HMB_COMPARE_ALPHA);
		status = 1;
	}
out:
	free(sb);
	for (int i = 0; i < nfiles; i++)
		hmb_loaded_free(&docs[i]);
	free(docs);
	hmb_significance_release();
	return status;
}
