/*
 * merge.c - `hipmembench merge A.json B.json ... -o OUT.json`: one document
 * of the runs of several documents of one machine and one build, made alike
 * (replicates). Each result keeps every run of every document, each run
 * tagged with the document it came from (runs.documents, 0 the first), its
 * samples pooled and its figures derived from them as ever; its resolution
 * is then measured over the documents too: how far their means spread beyond
 * what their runs say (stats/resolution.h), which no single document can see
 * (a link that drifts over minutes, a driver's state from one session to
 * the next). compare, show and summary read the merged document like any
 * other.
 *
 * Documents that measured different things are refused, naming the first
 * difference: another build (tool.git_revision), schema, command, settings
 * (all but the number of runs), machine (host name, GPU, platform); so is a
 * document given twice. The merged document is the first's, its results the
 * merged ones, with merged_from (each document: file, start, revision, runs),
 * module_runs and telemetry samples of every document (each tagged with its
 * document), and the stability rule of the build that merged them.
 */
#include "run/merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/atomic_file.h"
#include "doc/json_import.h"
#include "doc/json_read.h"
#include "doc/json_write.h"
#include "engine/judge.h"
#include "engine/report.h"
#include "run/runs.h"
#include "util/text.h"
#include "util/util.h"

#define EXIT_USAGE 2

static const cJSON *at(const cJSON *o, const char *a, const char *b)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);
	return b ? cJSON_GetObjectItemCaseSensitive(x, b) : x;
}

/* The value of one member for people, in buf. */
static const char *shown(const cJSON *v, char *buf, size_t len)
{
	char *text = v ? cJSON_PrintUnformatted(v) : NULL;

	snprintf(buf, len, "%s", text ? hmb_shown(text) : "none");
	free(text);
	hmb_utf8_trim(buf);
	return buf;
}

/* What must be the same for documents to be replicates of one measurement. */
static const struct { const char *a, *b, *what; } same[] = {
	{ "schema_version", NULL, "schema version" },
	{ "tool", "git_revision", "build" },
	{ "command", NULL, "command" },
	{ "platform", NULL, "platform" },
	{ "host", "hostname", "host" },
	{ "device", "name", "GPU" },
	{ "device", "pci_bus_id", "GPU's PCI address" },
};

/* The settings but the number of runs (a merge of runs is what they add). */
static cJSON *settings_of(const cJSON *doc)
{
	cJSON *s = cJSON_Duplicate(at(doc, "settings", NULL), 1);

	cJSON_DeleteItemFromObjectCaseSensitive(s, "runs");
	return s;
}

/* Is doc a replicate of first: 0, or -1 with the reason in err. */
static int alike(const cJSON *first, const char *first_file, const cJSON *doc, const char *file,
		 char *err, size_t errlen)
{
	char x[96], y[96];
	cJSON *a, *b;
	int differ;

	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		const cJSON *u = at(first, same[i].a, same[i].b), *v = at(doc, same[i].a, same[i].b);
		if (!cJSON_Compare(u, v, 1)) {
			snprintf(err, errlen, "%s and %s differ in %s (%s, %s): merge documents of one "
				 "machine and one build, made alike", first_file, file, same[i].what,
				 shown(u, x, sizeof(x)), shown(v, y, sizeof(y)));
			return -1;
		}
	}
	a = settings_of(first);
	b = settings_of(doc);
	differ = !cJSON_Compare(a, b, 1);
	cJSON_Delete(a);
	cJSON_Delete(b);
	if (differ) {
		snprintf(err, errlen, "%s and %s were made with other settings: merge documents "
			 "made alike", first_file, file);
		return -1;
	}
	if (cJSON_Compare(at(first, "started_utc", NULL), at(doc, "started_utc", NULL), 1)) {
		snprintf(err, errlen, "%s and %s are one document (the same start, %s): each "
			 "document is merged once", first_file, file,
			 shown(at(doc, "started_utc", NULL), x, sizeof(x)));
		return -1;
	}
	return 0;
}

/* How many documents doc is: those it merges, else one. */
static int documents_in(const cJSON *doc)
{
	const cJSON *from = at(doc, "merged_from", NULL);

	return cJSON_IsArray(from) && cJSON_GetArraySize(from) > 0 ? cJSON_GetArraySize(from) : 1;
}

/* Each item (an object) of array appended to into, its document numbered
 * from first on (where it names one, first plus that; first -1: as it is). */
static void append_tagged(cJSON *into, const cJSON *array, int first)
{
	const cJSON *x;

	cJSON_ArrayForEach(x, array) {
		cJSON *c = cJSON_Duplicate(x, 1);
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(c, "document");
		int own = cJSON_IsNumber(d) ? (int)d->valuedouble : 0;
		if (cJSON_IsObject(c) && first >= 0) {
			cJSON_DeleteItemFromObjectCaseSensitive(c, "document");
			cJSON_AddNumberToObject(c, "document", first + own);
		}
		cJSON_AddItemToArray(into, c);
	}
}

/* The merged document: the first's, with what each document adds. */
static cJSON *merged(cJSON **docs, char **files, int n, const struct hmb_report *rep)
{
	cJSON *out = cJSON_Duplicate(docs[0], 1), *from, *runs, *samples, *telemetry;
	int complete = 1, interrupted = 0;

	cJSON_DeleteItemFromObjectCaseSensitive(out, "summary");
	cJSON_DeleteItemFromObjectCaseSensitive(out, "results");
	cJSON_DeleteItemFromObjectCaseSensitive(out, "stability_rule");
	cJSON_DeleteItemFromObjectCaseSensitive(out, "module_runs");
	cJSON_DeleteItemFromObjectCaseSensitive(out, "merged_from");
	from = cJSON_AddArrayToObject(out, "merged_from");
	runs = cJSON_AddArrayToObject(out, "module_runs");
	telemetry = cJSON_GetObjectItemCaseSensitive(out, "telemetry");
	cJSON_DeleteItemFromObjectCaseSensitive(telemetry, "samples");
	samples = cJSON_IsObject(telemetry) ? cJSON_AddArrayToObject(telemetry, "samples") : NULL;
	for (int i = 0, first = 0; i < n; first += documents_in(docs[i]), i++) {
		const cJSON *s = at(docs[i], "settings", "runs"), *earlier = at(docs[i], "merged_from",
									       NULL);
		if (cJSON_IsArray(earlier)) { /* a merged document: its documents */
			append_tagged(from, earlier, -1);
		} else {
			cJSON *f = cJSON_CreateObject();
			cJSON_AddStringToObject(f, "file", files[i]);
			cJSON_AddItemToObject(f, "started_utc",
					      cJSON_Duplicate(at(docs[i], "started_utc", NULL), 1));
			cJSON_AddItemToObject(f, "git_revision",
					      cJSON_Duplicate(at(docs[i], "tool", "git_revision"), 1));
			cJSON_AddNumberToObject(f, "runs", cJSON_IsNumber(s) ? s->valuedouble : 1);
			cJSON_AddItemToArray(from, f);
		}
		append_tagged(runs, at(docs[i], "module_runs", NULL), first);
		if (samples)
			append_tagged(samples, at(docs[i], "telemetry", "samples"), first);
		complete &= cJSON_IsTrue(at(docs[i], "complete", NULL));
		interrupted |= cJSON_IsTrue(at(docs[i], "interrupted", NULL));
	}
	cJSON_ReplaceItemInObjectCaseSensitive(out, "complete", cJSON_CreateBool(complete));
	cJSON_ReplaceItemInObjectCaseSensitive(out, "interrupted", cJSON_CreateBool(interrupted));
	cJSON_AddItemToObject(out, "stability_rule", hmb_json_stability_rule());
	{
		cJSON *a = cJSON_AddArrayToObject(out, "results");
		for (const struct hmb_record *r = rep->head; r; r = r->next)
			cJSON_AddItemToArray(a, hmb_json_record(r));
	}
	return out;
}

int hmb_merge_command(int n, char **files, const struct hmb_options *opt, const char *output)
{
	cJSON **docs = hmb_xcalloc((size_t)n, sizeof(*docs)), *out = NULL;
	struct hmb_report rep;
	char err[1024];
	char *text = NULL;
	int status = 0;

	hmb_report_init(&rep, opt, "merge");
	if (strcmp(output, "-") && hmb_output_writable(output, err, sizeof(err))) {
		fprintf(stderr, "hipmembench: merge: %s\n", err);
		status = EXIT_USAGE;
	}
	for (int i = 0, first = 0; i < n && !status; first += documents_in(docs[i]), i++) {
		struct hmb_record *last = rep.tail;
		if (!(docs[i] = hmb_doc_load(files[i], err, sizeof(err))) ||
		    (i && alike(docs[0], files[0], docs[i], files[i], err, sizeof(err)))) {
			fprintf(stderr, "hipmembench: merge: %s\n", err);
			status = EXIT_USAGE;
			break;
		}
		hmb_json_import_document(&rep, docs[i]);
		hmb_runs_merge_document(&rep, i ? last : NULL, first);
	}
	if (!status) {
		hmb_report_judge_resolution(&rep);
		out = merged(docs, files, n, &rep);
		if (!(text = cJSON_Print(out))) {
			fprintf(stderr, "hipmembench: merge: cannot render the document: out of "
				"memory\n");
			status = 1;
		} else if (!strcmp(output, "-")) {
			fputs(text, stdout);
			fputc('\n', stdout);
		} else if (hmb_write_text_file(output, text, err, sizeof(err))) {
			fprintf(stderr, "hipmembench: merge: %s\n", err);
			status = 1;
		}
	}
	free(text);
	cJSON_Delete(out);
	for (int i = 0; i < n; i++)
		cJSON_Delete(docs[i]);
	free(docs);
	hmb_report_free(&rep);
	return status;
}
