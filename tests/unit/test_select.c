/*
 * test_select.c - what the GPU runs cannot show without a GPU: `--case`
 * selection (shell globs over case names, any of them; every case when none
 * is given), the run's count of failures (skipped and unsupported cases are
 * not failures), the quoting of CSV fields and the table's time columns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/module.h"
#include "engine/options.h"
#include "engine/record.h"
#include "engine/report.h"
#include "harness.h"
#include "output/table.h"

void test_case_selection(void)
{
	static const char *const cases[] = { "h2d/pinned/async", "d2h/pinned/async",
					     "h2d/pageable/sync", NULL };
	struct hmb_bench b = { .name = "memcpy", .cases = cases };
	struct hmb_options opt;
	struct hmb_ctx ctx = { .opt = &opt };

	memset(&opt, 0, sizeof(opt));
	CHECK(hmb_selected(&ctx, "h2d/pinned/async")); /* no --case: every case */
	CHECK(hmb_bench_selected(&b, &opt));
	opt.cases[opt.ncases++] = "h2d/*";
	CHECK(hmb_selected(&ctx, "h2d/pinned/async"));
	CHECK(hmb_selected(&ctx, "h2d/pageable/sync"));
	CHECK(!hmb_selected(&ctx, "d2h/pinned/async"));
	CHECK(hmb_bench_selected(&b, &opt));
	opt.cases[opt.ncases++] = "*/pinned/async"; /* any of the patterns */
	CHECK(hmb_selected(&ctx, "d2h/pinned/async"));
	CHECK(!hmb_selected(&ctx, "d2h/pageable/sync"));
	opt.ncases = 0;
	opt.cases[opt.ncases++] = "nothing/*";
	CHECK(!hmb_selected(&ctx, "h2d/pinned/async"));
	CHECK(!hmb_bench_selected(&b, &opt)); /* no case of this module */
}

/* On-request cases run only when a --case pattern selects them. */
void test_on_request_cases(void)
{
	static const char *const cases[] = { "h2d/pinned/async", "pin/cost/hipHostMalloc",
					     "pin/break-even/h2d", NULL };
	static const char *const on_request[] = { "pin/*", NULL };
	struct hmb_bench b = { .name = "memcpy", .cases = cases, .on_request = on_request };
	struct hmb_options opt;
	struct hmb_ctx ctx = { .opt = &opt, .bench = &b };

	memset(&opt, 0, sizeof(opt));
	CHECK(hmb_on_request(&b, "pin/cost/hipHostMalloc"));
	CHECK(!hmb_on_request(&b, "h2d/pinned/async"));
	CHECK(hmb_selected(&ctx, "h2d/pinned/async"));     /* a plain run: the others */
	CHECK(!hmb_selected(&ctx, "pin/cost/hipHostMalloc"));
	CHECK(!hmb_selected(&ctx, "pin/break-even/h2d"));
	opt.cases[opt.ncases++] = "pin/cost/*";            /* asked for by name */
	CHECK(hmb_selected(&ctx, "pin/cost/hipHostMalloc"));
	CHECK(!hmb_selected(&ctx, "pin/break-even/h2d"));
	CHECK(!hmb_selected(&ctx, "h2d/pinned/async"));
	CHECK(hmb_bench_selected(&b, &opt));
	/* a pattern that selects cases of a plain run keeps to them */
	opt.ncases = 0;
	opt.cases[opt.ncases++] = "*";
	CHECK(hmb_selected(&ctx, "h2d/pinned/async"));
	CHECK(!hmb_selected(&ctx, "pin/cost/hipHostMalloc"));
	opt.cases[opt.ncases++] = "pin/b*";                /* another pattern asks for one */
	CHECK(hmb_selected(&ctx, "pin/break-even/h2d") && !hmb_selected(&ctx, "pin/cost/hipHostMalloc"));
}

/* A record of a case --case leaves out is dropped; a selected one is kept. */
void test_keep_selected(void)
{
	struct hmb_options opt;
	struct hmb_ctx ctx = { .opt = &opt };
	struct hmb_record *r;

	memset(&opt, 0, sizeof(opt));
	opt.cases[opt.ncases++] = "h2d/*";
	r = hmb_record_new("memcpy", "h2d/pinned/async");
	CHECK(hmb_keep_selected(&ctx, r) == 1);
	CHECK(strcmp(r->name, "h2d/pinned/async") == 0); /* still the caller's */
	hmb_record_free(r);
	CHECK(hmb_keep_selected(&ctx, hmb_record_new("memcpy", "d2h/pinned/async")) == 0);
	opt.ncases = 0;                                    /* no --case: every case */
	r = hmb_record_new("memcpy", "d2h/pinned/async");
	CHECK(hmb_keep_selected(&ctx, r) == 1);
	hmb_record_free(r);
}

/* A size no case of the module can run at: one skipped record, kept under
 * any --case (it stands for every case). */
void test_skip_module(void)
{
	struct hmb_options opt;
	struct hmb_report rep;
	struct hmb_ctx ctx = { .opt = &opt, .report = &rep, .module = "memcpy" };

	memset(&opt, 0, sizeof(opt));
	hmb_report_init(&rep, &opt, "memcpy");
	opt.cases[opt.ncases++] = "h2d/*";
	hmb_skip_module(&ctx, 4096, "too little device memory for %s", "4K");
	CHECK(rep.count == 1 && rep.head && strcmp(rep.head->name, HMB_MODULE_RECORD) == 0);
	CHECK(rep.head && rep.head->status == HMB_SKIPPED &&
	      strcmp(rep.head->reason, "too little device memory for 4K") == 0);
	hmb_report_free(&rep);
}

/* The one way a finished record reaches the output while a run goes on: the
 * report takes it, then hands it to the progress callback, once, in order; a
 * record --case drops never reaches it, and one added otherwise (imported
 * from a module's process) does not either. */
static const struct hmb_record *progress_seen[4];
static int progress_count;

static void progress_seen_add(struct hmb_report *rep, const struct hmb_record *r)
{
	CHECK(rep->tail == r); /* already the report's */
	if (progress_count < 4)
		progress_seen[progress_count] = r;
	progress_count++;
}

void test_progress_callback(void)
{
	struct hmb_options opt;
	struct hmb_report rep;
	struct hmb_ctx ctx = { .opt = &opt, .report = &rep, .module = "memcpy" };
	struct hmb_record *a, *b;

	memset(&opt, 0, sizeof(opt));
	hmb_report_init(&rep, &opt, "memcpy");
	rep.progress = progress_seen_add;
	progress_count = 0;
	opt.cases[opt.ncases++] = "h2d/*";
	a = hmb_record_new("memcpy", "h2d/pinned/async");
	hmb_commit(&ctx, a);
	hmb_commit(&ctx, hmb_record_new("memcpy", "d2h/pinned/async")); /* dropped */
	b = hmb_record_new("memcpy", "module");      /* the runner's own */
	hmb_commit_kept(&ctx, b);
	hmb_report_add(&rep, hmb_record_new("memcpy", "h2d/pinned/sync")); /* not finished here */
	CHECK(rep.count == 3 && progress_count == 2);
	CHECK(progress_seen[0] == a && progress_seen[1] == b);
	hmb_report_free(&rep);
}

void test_report_and_csv(void)
{
	static struct hmb_options opt;
	struct hmb_report rep;
	struct hmb_record *r;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	memset(&rep, 0, sizeof(rep));
	rep.opt = &opt;
	r = hmb_record_new("memcpy", "h2d/pinned/async");
	hmb_sample(r, 0.001);
	hmb_report_add(&rep, r);
	r = hmb_record_new("memcpy", "h2d/\"odd\"/async");
	hmb_record_status(r, HMB_SKIPPED, "refused: \"too big\"");
	hmb_report_add(&rep, r);
	r = hmb_record_new("memcpy", "d2h/pinned/async");
	hmb_record_status(r, HMB_FAILED, "hipMemcpyAsync failed");
	hmb_report_add(&rep, r);
	CHECK(rep.count == 3);
	CHECK(hmb_report_failures(&rep) == 1); /* the skipped case is not a failure */

	out = open_memstream(&text, &len);
	CHECK(out != NULL);
	if (!out)
		return;
	hmb_csv_print(out, rep.head, 1);
	fclose(out);
	/* a quote inside a field is doubled, the field quoted */
	CHECK(text && strstr(text, "\"h2d/\"\"odd\"\"/async\""));
	CHECK(text && strstr(text, "\"refused: \"\"too big\"\"\""));
	free(text);

	/* the table: the median and the best time each in its column */
	r = rep.head;
	hmb_sample(r, 0.004);
	hmb_sample(r, 0.002); /* 1, 4 and 2 ms: median 2 ms, best 1 ms */
	text = NULL;
	out = open_memstream(&text, &len);
	CHECK(out != NULL);
	if (!out)
		return;
	hmb_table_print(out, &rep, rep.head, 0);
	fclose(out);
	{
		/* under the case's heading: the column headings in ms, then 2 and 1 */
		const char *head = text ? strstr(text, "\nh2d/pinned/async\n") : NULL;
		double med = 0, best = 0;

		CHECK(head && strstr(head, "\n  median ms  best ms  mark\n"));
		CHECK(head && strstr(head, "mark\n") &&
		      sscanf(strstr(head, "mark\n") + 5, "%lf %lf", &med, &best) == 2 &&
		      med == 2 && best == 1); /* median, then best */
	}
	free(text);
	/* --wide: each time with its unit, the median first */
	text = NULL;
	out = open_memstream(&text, &len);
	CHECK(out != NULL);
	if (!out)
		return;
	hmb_table_print(out, &rep, rep.head, 1);
	fclose(out);
	{
		const char *line = text ? strstr(text, "\nh2d/pinned/async ") : NULL;
		const char *med = line ? strstr(line, " 2.000 ms") : NULL;
		const char *best = line ? strstr(line, " 1.000 ms") : NULL;
		const char *end = line ? strchr(line + 1, '\n') : NULL;

		CHECK(med && best && end && med < best && best < end);
	}
	free(text);
	hmb_report_free(&rep);
}
