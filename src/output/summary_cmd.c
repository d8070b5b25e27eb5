/* summary_cmd.c - where the summary is printed: `hipmembench summary DOC...`
 * (text, Markdown or HTML, on stdout or into -o FILE, written whole; the HTML
 * with compare's verdicts, from the judge it is given), the
 * summary compare prints before its table, and the one that ends `all`
 * (and goes into its document). summary.h says how to read it. */
#include "output/summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "doc/atomic_file.h"
#include "doc/json_write.h"
#include "stats/resolution.h"
#include "util/text.h"
#include "util/util.h"

/* compare prints the summary of documents up to this size (an `all` of 8 GPUs
 * is about 10 MiB). */
#define COMPARE_SUMMARY_MAX_BYTES ((off_t)64 << 20)

static void render(FILE *out, const struct hmb_sum *s, enum hmb_format format)
{
	if (format == HMB_FORMAT_HTML)
		hmb_report_html(out, s);
	else if (format == HMB_FORMAT_MARKDOWN)
		hmb_summary_markdown(out, s);
	else
		hmb_summary_text(out, s);
}

/* The summary into path, whole or not at all (doc/atomic_file.c). */
static int write_to(const char *path, const struct hmb_sum *s, enum hmb_format format)
{
	char *text = NULL, err[1024];
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int rc;

	if (!m) {
		fprintf(stderr, "hipmembench: summary: out of memory\n");
		return 1;
	}
	render(m, s, format);
	fclose(m);
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0'; /* the writer ends the file with one */
	rc = hmb_write_text_file(path, text, err, sizeof(err));
	if (rc)
		fprintf(stderr, "hipmembench: summary: %s\n", err);
	free(text);
	return rc ? 1 : 0;
}

int hmb_summary_command(int nfiles, char **files, const struct hmb_bench *const *benches,
			enum hmb_format format, int gpu, const char *output, hmb_sum_judge_fn judge)
{
	struct hmb_sum_doc *docs = hmb_xcalloc((size_t)nfiles, sizeof(*docs));
	struct hmb_sum s;
	char err[1024];
	int status = 0, loaded = 0;

	if (output && strcmp(output, "-") && hmb_output_writable(output, err, sizeof(err))) {
		fprintf(stderr, "hipmembench: summary: %s\n", err);
		status = 2;
		goto out;
	}
	for (; loaded < nfiles; loaded++)
		if (hmb_sum_doc_load(files[loaded], &docs[loaded], err, sizeof(err))) {
			fprintf(stderr, "hipmembench: summary: %s\n", err);
			status = 2;
			goto out;
		}
	if (hmb_summary_build(docs, nfiles, benches, gpu, &s, err, sizeof(err))) {
		fprintf(stderr, "hipmembench: summary: %s\n", err);
		status = 2;
		goto out;
	}
	/* the report's ratios carry compare's verdicts (the text gives none) */
	if (judge && format == HMB_FORMAT_HTML && nfiles > 1)
		judge(&s, gpu, 100 * HMB_RESOLUTION_STABLE_REL);
	if (output && strcmp(output, "-"))
		status = write_to(output, &s, format);
	else
		render(stdout, &s, format);
	hmb_summary_free(&s);
out:
	for (int i = 0; i < loaded; i++)
		hmb_sum_doc_free(&docs[i]);
	free(docs);
	return status;
}

int hmb_summary_of_doc_print(FILE *out, const cJSON *doc, const char *name,
			     const struct hmb_bench *const *benches)
{
	struct hmb_sum_doc d;
	struct hmb_sum s;
	char err[1024];
	int status = 0;

	hmb_sum_doc_of(doc, name, &d);
	if (hmb_summary_build(&d, 1, benches, -1, &s, err, sizeof(err))) {
		fprintf(stderr, "hipmembench: summary: %s\n", err);
		status = 2;
	} else {
		render(out, &s, HMB_FORMAT_TABLE);
		hmb_summary_free(&s);
	}
	hmb_sum_doc_free(&d);
	return status;
}

void hmb_summary_for_compare(FILE *out, const struct hmb_sum_doc *docs, int n,
			     const struct hmb_bench *const *benches, enum hmb_format format,
			     int gpu)
{
	struct hmb_sum s;
	char err[1024];

	if (format != HMB_FORMAT_TABLE && format != HMB_FORMAT_MARKDOWN)
		return;
	for (int i = 0; i < n; i++) {
		struct stat st;
		/* a node's document is a few MB; one of a whole fleet's results is
		 * compared figure by figure, not summarised */
		if (strcmp(docs[i].path, "-") && stat(docs[i].path, &st) == 0 &&
		    st.st_size > COMPARE_SUMMARY_MAX_BYTES) {
			fprintf(stderr, "hipmembench: compare: no summary first: %s holds %lld MiB, "
				"more than a node's document (hipmembench summary prints it)\n",
				hmb_shown(docs[i].path), (long long)(st.st_size >> 20));
			return;
		}
	}
	if (!hmb_summary_build(docs, n, benches, gpu, &s, err, sizeof(err))) {
		render(out, &s, format);
		fputc('\n', out);
		hmb_summary_free(&s);
	}
}

struct hmb_summary_run {
	struct hmb_sum_doc doc;
	struct hmb_sum sum;
};

struct hmb_summary_run *hmb_summary_of_run(struct hmb_report *rep)
{
	struct hmb_summary_run *run;
	const char *name = rep->opt && rep->opt->output && strcmp(rep->opt->output, "-")
			   ? rep->opt->output : "this run";
	char err[1024];
	cJSON *doc;

	if (!rep->head || !(doc = hmb_json_doc(rep)))
		return NULL;
	run = hmb_xcalloc(1, sizeof(*run));
	hmb_sum_doc_of(doc, name, &run->doc);
	cJSON_Delete(doc);
	if (hmb_summary_build(&run->doc, 1, rep->benches, -1, &run->sum, err, sizeof(err))) {
		fprintf(stderr, "hipmembench: no summary: %s\n", err);
		hmb_sum_doc_free(&run->doc);
		free(run);
		run = NULL;
	} else {
		rep->summary_json = run->sum.n ? hmb_summary_json(&run->sum.col[0]) : NULL;
	}
	return run;
}

void hmb_summary_of_run_print(FILE *out, const struct hmb_summary_run *run)
{
	if (!run)
		return;
	fputc('\n', out);
	hmb_summary_text(out, &run->sum);
}

void hmb_summary_of_run_free(struct hmb_report *rep, struct hmb_summary_run *run)
{
	if (!run)
		return;
	cJSON_Delete(rep->summary_json);
	rep->summary_json = NULL;
	hmb_summary_free(&run->sum);
	hmb_sum_doc_free(&run->doc);
	free(run);
}
