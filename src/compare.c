/* compare.c - matching figures across documents and printing their ratios. */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int hmb_unit_direction(const char *unit)
{
	if (!strcmp(unit, "GB/s") || !strcmp(unit, "x") || !strcmp(unit, "ratio"))
		return 1;
	if (!strcmp(unit, "s") || !strcmp(unit, "us"))
		return -1;
	return 0;
}

void hmb_loaded_free(struct hmb_loaded *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->fig[i].key);
		free(l->fig[i].label);
		free(l->fig[i].name);
		free(l->fig[i].unit);
	}
	free(l->fig);
	memset(l, 0, sizeof(*l));
}

static const struct hmb_figure *find(const struct hmb_loaded *l, const char *key,
				     const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->fig[i].key, key) && !strcmp(l->fig[i].name, name))
			return &l->fig[i];
	return NULL;
}

static void print_row(enum hmb_format f, const char *label, const char *name, const char *unit,
		      const char *base, const char *other, const char *ratio, const char *verdict)
{
	if (f == HMB_FORMAT_CSV)
		printf("\"%s\",\"%s\",\"%s\",%s,%s,%s,%s\n", label, name, unit, base, other, ratio,
		       verdict);
	else if (f == HMB_FORMAT_MARKDOWN)
		printf("| %s | %s | %s | %s | %s | %s | %s |\n", label, name, unit, base, other, ratio,
		       verdict);
	else
		printf("%-70s %-20s %6s %12s %12s %8s  %s\n", label, name, unit, base, other, ratio,
		       verdict);
}

/* One OTHER against BASE; returns how many figures were worse than the threshold. */
static int compare_pair(const struct hmb_loaded *base, const struct hmb_loaded *other,
			enum hmb_format f, double threshold)
{
	int worse = 0, only_base = 0, only_other = 0;

	print_row(f, "result", "figure", "unit", "base", "other", "ratio", "verdict");
	if (f == HMB_FORMAT_MARKDOWN)
		printf("|---|---|---|---:|---:|---:|---|\n");
	for (size_t i = 0; i < base->n; i++) {
		const struct hmb_figure *a = &base->fig[i], *b = find(other, a->key, a->name);
		char bv[32], ov[32], ratio[32] = "-";
		const char *verdict = "";

		if (!b) {
			only_base++;
			continue;
		}
		snprintf(bv, sizeof(bv), "%.4g", a->value);
		snprintf(ov, sizeof(ov), "%.4g", b->value);
		if (a->value != 0) {
			double r = b->value / a->value;
			snprintf(ratio, sizeof(ratio), "%.3f", r);
			if (threshold >= 0 && a->direction != 0) {
				double change = a->direction > 0 ? 1.0 - r : r - 1.0; /* >0: worse */
				if (change * 100.0 > threshold) {
					verdict = "WORSE";
					worse++;
				} else if (-change * 100.0 > threshold) {
					verdict = "better";
				}
			}
		}
		print_row(f, a->label, a->name, a->unit, bv, ov, ratio, verdict);
	}
	for (size_t i = 0; i < other->n; i++)
		if (!find(base, other->fig[i].key, other->fig[i].name))
			only_other++;
	if (only_base || only_other) {
		printf("\n%d figure(s) only in the base, %d only in the other:\n", only_base,
		       only_other);
		for (size_t i = 0; i < base->n; i++)
			if (!find(other, base->fig[i].key, base->fig[i].name))
				printf("  base only:  %s %s\n", base->fig[i].label, base->fig[i].name);
		for (size_t i = 0; i < other->n; i++)
			if (!find(base, other->fig[i].key, other->fig[i].name))
				printf("  other only: %s %s\n", other->fig[i].label, other->fig[i].name);
	}
	return worse;
}

int hmb_compare(int nfiles, char **files, enum hmb_format f, double threshold)
{
	struct hmb_loaded *docs = hmb_xcalloc((size_t)nfiles, sizeof(*docs));
	char err[1024];
	int worse = 0, status = 0;

	for (int i = 0; i < nfiles; i++)
		if (hmb_json_load(files[i], &docs[i], err, sizeof(err)) != 0) {
			fprintf(stderr, "hipmembench: compare: %s\n", err);
			status = 2;
			goto out;
		}
	for (int i = 0; i < nfiles; i++)
		printf("%s %s: %s\n", i ? "other" : "base ", files[i], docs[i].system);
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
	for (int i = 1; i < nfiles; i++) {
		printf("\n%s vs %s\n", files[i], files[0]);
		worse += compare_pair(&docs[0], &docs[i], f, threshold);
	}
	if (threshold >= 0 && worse) {
		fprintf(stderr, "hipmembench: compare: %d figure(s) worse than the base by more "
			"than %g%%\n", worse, threshold);
		status = 1;
	}
out:
	for (int i = 0; i < nfiles; i++)
		hmb_loaded_free(&docs[i]);
	free(docs);
	return status;
}
