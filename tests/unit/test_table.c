/*
 * test_table.c - what people read of a run (table.c, table_groups.c): the
 * default table within 120 columns, a group's shared parameters once in its
 * heading, units in the column headings, whole numbers whole, byte counts in
 * binary units, a small copy's time beside its GB/s, the GPU as a
 * column, figures that do not fit in a band of their own (a band's headings
 * on two lines only where one of its own breaks), varying parameters as key
 * columns up to 80 wide; progress lines cut to COLUMNS; the CSV's direction
 * column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/record.h"
#include "engine/report.h"
#include "harness.h"
#include "output/table.h"

static char *render(const struct hmb_record *first, int wide)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	hmb_table_print(f, NULL, first, wide);
	fclose(f);
	return text;
}

/* The longest line of text, in bytes (the tables here are ASCII). */
static size_t longest(const char *text)
{
	size_t best = 0;

	while (text && *text) {
		size_t n = strcspn(text, "\n");
		if (n > best)
			best = n;
		text += n + (text[n] == '\n');
	}
	return best;
}

static size_t count(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *p = text; p && (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void free_all(struct hmb_record *r)
{
	while (r) {
		struct hmb_record *next = r->next;
		hmb_record_free(r);
		r = next;
	}
}

/* memcpy's h2d/pinned/async at three sizes, as the module writes it. */
static struct hmb_record *copies(int device)
{
	struct hmb_record *first = NULL, **at = &first;

	for (int i = 0; i < 3; i++) {
		struct hmb_record *r = hmb_record_new("memcpy", "h2d/pinned/async");
		double size = 4096.0 * (1 << (4 * i));
		hmb_param_num(r, "size", size);
		hmb_param_str(r, "direction", "h2d");
		hmb_param_str(r, "api", "hipMemcpyAsync");
		hmb_context_str(r, "timed", "hipMemcpyAsync h2d; HIP events around it");
		hmb_context_num(r, "buffer_sets", 101);
		if (device >= 0)
			hmb_param_gpu(r, "device", device);
		hmb_record_bytes(r, size);
		for (int k = 0; k < 6; k++)
			hmb_sample(r, size / 50e9 * (1 + 0.001 * k));
		*at = r;
		at = &r->next;
	}
	return first;
}

/* A group's shared parameters once, in its heading; context for --wide. */
static void test_headings(void)
{
	struct hmb_record *first = copies(-1);
	char *text = render(first, 0), *wide = render(first, 1);

	CHECK(text && strstr(text, "\nh2d/pinned/async api=hipMemcpyAsync\n"));
	CHECK(count(text, "api=") == 1);              /* not on every row */
	CHECK(count(text, "hipMemcpyAsync") == 1);
	CHECK(text && !strstr(text, "timed") && !strstr(text, "buffer_sets"));
	CHECK(text && !strstr(text, "direction"));    /* the case names it */
	CHECK(count(text, "GB/s") == 2);              /* median and best: each heading once */
	CHECK(text && strstr(text, "\n    4K  ") && strstr(text, "\n   64K  ") &&
	      strstr(text, "\n    1M  "));            /* a row per size */
	CHECK(longest(text) <= 120);
	/* --wide: every parameter of every record, context too */
	CHECK(count(wide, "timed=hipMemcpyAsync h2d; HIP events around it") == 3);
	CHECK(count(wide, "buffer_sets=101") == 3 && count(wide, "api=hipMemcpyAsync") == 3);
	free(text);
	free(wide);
	free_all(first);
}

/* Times in the unit of their column's heading, whole numbers whole. */
static void test_units_and_numbers(void)
{
	struct hmb_record *a = hmb_record_new("pool", "course/hipMalloc");
	struct hmb_record *b = hmb_record_new("pool", "course/created-pool");
	struct hmb_record *c = hmb_record_new("vmm", "grow/realloc-copy/doubling");
	char *text;

	a->next = b;
	b->next = c;
	for (struct hmb_record *r = a; r != c; r = r->next) {
		hmb_param_num(r, "size", 4096);
		hmb_context_num(r, "grid_blocks", 1048576);
		hmb_param_num(r, "touches", 65536);
		hmb_record_ops(r, 1000);
	}
	for (int k = 0; k < 6; k++) {
		hmb_sample(a, 0.024);   /* 24 us per operation */
		hmb_sample(b, 0.0055);  /* 5.5 us */
		hmb_sample(c, 0.0007);  /* 0.7 ms a sample, no operations */
	}
	hmb_metric(b, "speedup_over_hipMalloc", 24.0 / 5.5, "x");
	hmb_metric(c, "total_s", 0.0015, "s");
	hmb_metric(c, "peak_bytes", 17112760320.0, "bytes");
	hmb_param_num(c, "step", 67108864);
	text = render(a, 0);
	CHECK(text && strstr(text, "us/op"));                 /* per operation */
	CHECK(text && strstr(text, "  24") && strstr(text, " 5.500 "));
	CHECK(text && strstr(text, "4.364"));                 /* the speedup */
	CHECK(text && strstr(text, "size=4K touches=65536")); /* whole, in the heading */
	CHECK(text && !strstr(text, "grid_blocks"));          /* geometry: --wide */
	CHECK(text && strstr(text, "total") && strstr(text, " 1.500"));  /* ms, not 0.0015 s */
	CHECK(text && strstr(text, " 15.9G") && !strstr(text, "17112760320")); /* binary units */
	CHECK(text && !strstr(text, "e+") && !strstr(text, "e-0"));
	CHECK(longest(text) <= 120);
	free(text);
	text = render(a, 1);
	CHECK(text && strstr(text, "grid_blocks=1048576") && !strstr(text, "e+"));
	/* --wide for people too: the step and the peak in binary units */
	CHECK(text && strstr(text, "step=64M") && strstr(text, "peak_bytes=15.9G") &&
	      !strstr(text, "17112760320") && !strstr(text, "67108864"));
	free(text);
	{
		/* the progress line as --wide; the CSV every byte */
		size_t len = 0;
		FILE *f;
		text = NULL;
		f = open_memstream(&text, &len);
		CHECK(f != NULL);
		if (f) {
			setenv("COLUMNS", "300", 1);
			hmb_progress_print(f, c);
			unsetenv("COLUMNS");
			hmb_csv_print(f, c, 1);
			fclose(f);
		}
		CHECK(text && strstr(text, "[vmm] grow/realloc-copy/doubling") &&
		      strstr(text, "peak_bytes=15.9G") && strstr(text, "step=64M"));
		CHECK(text && strstr(text, "step=67108864") &&
		      strstr(text, "peak_bytes=17112760320 bytes"));
		free(text);
	}
	free_all(a);
}

/* Several GPUs: each GPU's records in a table of their own, the GPU a column. */
static void test_gpu_column(void)
{
	struct hmb_record *first = copies(0), *last = first;
	char *text;

	for (int d = 1; d < 3; d++) {
		while (last->next)
			last = last->next;
		last->next = copies(d);
	}
	text = render(first, 0);
	CHECK(count(text, "== memcpy ==") == 3);
	CHECK(count(text, "\n  gpu  size") == 3);
	CHECK(text && strstr(text, "\n    0    4K  ") && strstr(text, "\n    1    4K  ") &&
	      strstr(text, "\n    2   64K  "));
	CHECK(text && !strstr(text, "device="));
	free(text);
	free_all(first);
	/* one GPU: no column */
	first = copies(-1);
	text = render(first, 0);
	CHECK(text && !strstr(text, "gpu"));
	free(text);
	free_all(first);
}

/* Whatever a record holds, no line passes 120 columns: figures that do not
 * fit go into a second band, a long reason wraps, long values are cut. */
static void test_width(void)
{
	struct hmb_record *r = hmb_record_new("node", "host/h2d/all");
	struct hmb_record *u = hmb_record_new("node", "host/h2d/all");
	struct hmb_record *v = hmb_record_new("node", "host/h2d/all");
	char name[64], *text;
	int all = 1;

	r->next = u;
	u->next = v;
	hmb_param_num(r, "size", 1 << 28);
	hmb_record_bytes(r, 1 << 28);
	for (int k = 0; k < 6; k++)
		hmb_sample(r, 0.005);
	for (int g = 0; g < 16; g++) {
		snprintf(name, sizeof(name), "gpu%d_gbps_alone_and_together", g);
		hmb_metric(r, name, 54.0 + g, "GB/s");
	}
	hmb_param_str(u, "placement", "remote, a very long text that tells where the host "
		      "memory of this case would have been placed");
	hmb_record_status(u, HMB_UNSUPPORTED, "no remote placement: node 0 is the only node "
			  "with memory, and this reason goes on long enough to need a second line "
			  "and a third one as well");
	hmb_param_str(v, "placement", "local");
	hmb_record_status(v, HMB_FAILED, "hipMemcpyAsync failed");
	text = render(r, 0);
	CHECK(longest(text) <= 120);
	for (int g = 0; g < 16; g++) { /* its name whole, or its words on two lines */
		char words[64];
		snprintf(name, sizeof(name), "gpu%d_gbps", g);
		snprintf(words, sizeof(words), "gpu%d gbps", g);
		all &= strstr(text ? text : "", name) || strstr(text ? text : "", words);
	}
	CHECK(all);                                        /* every figure, in bands */
	CHECK(text && strstr(text, "third one as well"));  /* the reason, whole */
	CHECK(text && strstr(text, "failed: hipMemcpyAsync failed"));
	free(text);
	free_all(r);
}

/* Cases of one record each go side by side only while they fit in one band:
 * two whose columns are too wide together keep a heading each. */
static void test_side_by_side(void)
{
	static const char *const names[] = { "host/h2d/all", "host/d2h/all", "host/bidir/all" };
	static const char *const where[] = { "local, on the node closest to the GPU",
					     "remote, on the node farthest from it",
					     "remote, on the node farthest from it" };
	struct hmb_record *first = NULL, **at = &first;
	char *text;

	for (int i = 0; i < 3; i++) {
		struct hmb_record *r = hmb_record_new("node", names[i]);
		hmb_param_str(r, "placement", where[i]);
		hmb_record_bytes(r, 1 << 28);
		for (int k = 0; k < 6; k++)
			hmb_sample(r, 0.005);
		/* a name with no place to break its heading: 55 columns */
		hmb_metric(r, "whatallgpustogethermakeofthesumofeachgpualoneabcdefghij", 0.99, "ratio");
		*at = r;
		at = &r->next;
	}
	text = render(first, 0);
	CHECK(text && strstr(text, "\nhost/h2d/all placement=local, on the node closest to the "
			     "GPU\n"));
	CHECK(text && strstr(text, "\nhost/* placement=remote, on the node farthest from it\n"));
	CHECK(longest(text) <= 120);
	free(text);
	free_all(first);
}

/* Records side by side whose metrics nest: one that holds only some of the
 * group's metrics (the first of them among them) joins the group's table. */
static void test_nested_metrics(void)
{
	static const char *const names[] = { "host/d2h/all", "host/bidir/all" };
	struct hmb_record *first = NULL, **at = &first;
	char *text;

	for (int i = 0; i < 2; i++) {
		struct hmb_record *r = hmb_record_new("node", names[i]);
		hmb_param_str(r, "placement", "remote");
		hmb_record_bytes(r, 1 << 28);
		for (int k = 0; k < 6; k++)
			hmb_sample(r, 0.005);
		hmb_metric(r, "sum_alone_gbps", 200, "GB/s");
		if (i == 0)
			hmb_metric(r, "vs_sum_alone", 0.7, "ratio");
		*at = r;
		at = &r->next;
	}
	text = render(first, 0);
	CHECK(text && strstr(text, "\nhost/* placement=remote\n"));
	CHECK(count(text, "placement=remote") == 1);
	free(text);
	free_all(first);
}

/* r's progress line as printed where COLUMNS is columns (malloc'd; NULL where
 * no memory stream could be opened). */
static char *progress_at(const struct hmb_record *r, const char *columns)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	setenv("COLUMNS", columns, 1);
	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	hmb_progress_print(f, r);
	fclose(f);
	return text;
}

/* Progress lines: COLUMNS wide at most, cut (never wrapped), figures first. */
static void test_progress(void)
{
	struct hmb_record *r = hmb_record_new("memcpy", "h2d/pinned/async");
	char *text = NULL, *old = getenv("COLUMNS") ? strdup(getenv("COLUMNS")) : NULL;
	size_t len = 0;
	FILE *f;

	hmb_param_num(r, "size", 4096);
	hmb_param_str(r, "api", "hipMemcpyAsync, with a long tail of words that goes on and on");
	hmb_context_str(r, "timed", "context: not on the progress line");
	hmb_record_bytes(r, 4096);
	for (int k = 0; k < 6; k++)
		hmb_sample(r, 4e-6);
	setenv("COLUMNS", "60", 1);
	f = open_memstream(&text, &len);
	if (f) {
		hmb_progress_print(f, r);
		unsetenv("COLUMNS");          /* not a terminal: 80 */
		hmb_progress_print(f, r);
		fclose(f);
	}
	CHECK(text && strncmp(text, "[memcpy] h2d/pinned/async size=4K: median 4.00 us", 49) == 0);
	CHECK(text && strcspn(text, "\n") == 60 && strstr(text, "...\n"));
	CHECK(text && strchr(text, '\n') && strcspn(strchr(text, '\n') + 1, "\n") == 80);
	CHECK(text && !strstr(text, "context"));
	CHECK(count(text, "\n") == 2);                /* one line each */
	free(text);
	/* too narrow for more than the "...": the line whole, as a pipe gets it */
	text = progress_at(r, "3");
	CHECK(text && strncmp(text, "[memcpy] h2d/pinned/async size=4K: median", 41) == 0 &&
	      strstr(text, "; api=hipMemcpyAsync, with a long tail") && !strstr(text, "..."));
	free(text);
	/* COLUMNS of 0 is no width (as Python's shutil reads it): not a terminal, 80 */
	text = progress_at(r, "0");
	CHECK(text && strcspn(text, "\n") == 80 && strstr(text, "...\n"));
	free(text);
	/* wide enough for all of it: the stability words, then the parameters */
	text = progress_at(r, "400");
	CHECK(text && strstr(text, "median 4.00 us, 1.02 GB/s (CI +-") &&
	      strstr(strstr(text, "(CI +-"), "; api=hipMemcpyAsync, with a long tail") &&
	      !strstr(text, "..."));
	if (old)
		setenv("COLUMNS", old, 1);
	free(old);
	free(text);
	hmb_record_free(r);
}

/* CSV: the direction of each case that has one. */
static void test_csv_direction(void)
{
	static const char *const cases[][3] = {
		{ "memcpy", "d2h/pinned/async", "\"d2h\"" },
		{ "overlap", "h2d-only/pinned", "\"h2d\"" },
		{ "overlap", "bidirectional/concurrent", "\"bidir\"" },
		{ "node", "host/bidir/alone", "\"bidir\"" },
		{ "node", "p2p/ce/write", "\"p2p\"" },
		{ "pool", "course/hipMalloc", "\"\"" },
	};
	struct hmb_record *first = NULL, **at = &first;
	char *text = NULL, *line;
	size_t len = 0;
	FILE *f;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		*at = hmb_record_new(cases[i][0], cases[i][1]);
		at = &(*at)->next;
	}
	hmb_param_str(first, "direction", "d2h");
	f = open_memstream(&text, &len);
	if (f) {
		hmb_csv_print(f, first, 1);
		fclose(f);
	}
	CHECK(text && strncmp(text, "module,case,direction,status,", 29) == 0);
	line = text ? strchr(text, '\n') : NULL;
	for (size_t i = 0; line && i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[128];
		snprintf(want, sizeof(want), "\n\"%s\",\"%s\",%s,", cases[i][0], cases[i][1],
			 cases[i][2]);
		CHECK(strncmp(line, want, strlen(want)) == 0);
		line = strchr(line + 1, '\n');
	}
	free(text);
	free_all(first);
}

/* Varying parameters whose columns come to exactly KEY_MAX (80) columns stay
 * columns; wider, the first of them ends each row instead. */
static void test_key_columns_at_their_limit(void)
{
	static const char *const a[] = { "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
					 "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" };
	static const char *const b[] = { "cccccccccccccccccccccccccccccccc",
					 "dddddddddddddddddddddddddddddddd" };
	static const char *const c[] = { "eeeeeeeeee", "ffffffffff" };
	struct hmb_record *first = NULL, **at = &first;
	char *text;

	for (int wider = 0; wider < 2; wider++) {
		first = NULL;
		at = &first;
		for (int i = 0; i < 2; i++) {
			struct hmb_record *r = hmb_record_new("memcpy", "h2d/pinned/async");
			char last[16];
			hmb_param_str(r, "pa", a[i]);  /* 2 + 32 */
			hmb_param_str(r, "pb", b[i]);  /* 2 + 32 */
			snprintf(last, sizeof(last), "%s%s", c[i], wider ? "x" : "");
			hmb_param_str(r, "pc", last);  /* 2 + 10: 80 in all, or 81 */
			hmb_record_bytes(r, 4096);
			for (int k = 0; k < 6; k++)
				hmb_sample(r, 4e-6);
			*at = r;
			at = &r->next;
		}
		text = render(first, 0);
		if (!wider) {
			CHECK(text && strstr(text, "\n  aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa  "
					     "cccccccccccccccccccccccccccccccc  eeeeeeeeee  "));
			CHECK(count(text, "pa=") == 0);
		} else {
			CHECK(text && strstr(text, "\n  cccccccccccccccccccccccccccccccc  "
					     "eeeeeeeeeex  "));
			CHECK(count(text, "pa=aaaa") == 1 && count(text, "pa=bbbb") == 1);
		}
		CHECK(longest(text) <= 120);
		free(text);
		free_all(first);
	}
}

/* Figures in two bands: a band whose headings are each on one line prints one
 * heading line, though a heading of the next band is broken in two. */
static void test_band_heading_lines(void)
{
	struct hmb_record *r = hmb_record_new("node", "host/h2d/all");
	char name[32], *text;

	for (int k = 0; k < 8; k++) {  /* 8 x (2 + 13): the first band, 120 columns */
		snprintf(name, sizeof(name), "w%d", k);
		hmb_metric(r, name, 1234567890123.0 + k, "ops"); /* heading "wK ops" */
	}
	hmb_metric(r, "broken_in_two_heading", 1, "ratio");     /* heading 21, value 1 */
	hmb_metric(r, "resident_thread_capacity", 2, "ratio");  /* shortest mid-word */
	text = render(r, 0);
	/* the first band's heading right under the group's */
	CHECK(text && strstr(text, "\nhost/h2d/all\n         w0 ops         w1 ops"));
	/* the next band's: in two, between words, its underscores as blanks */
	CHECK(text && strstr(text, "broken in") && strstr(text, "two heading") &&
	      !strstr(text, "broken_in"));
	/* never inside a word, though "resident thr" over "ead capacity" is shorter */
	CHECK(text && (strstr(text, "resident thread") || strstr(text, "thread capacity")) &&
	      !strstr(text, " thr\n") && !strstr(text, "thr "));
	CHECK(longest(text) <= 120);
	free(text);
	free_all(r);
}

/* memcpy's copies up to 1M: the median time of one copy beside their GB/s, in
 * the unit that suits the column; blank for larger copies. A rate in B/s reads
 * as GB/s, as every rate of the tables. */
static void test_time_per_copy(void)
{
	static const double sizes[] = { 4096, 1 << 20, 4 << 20 };
	struct hmb_record *first = NULL, **at = &first;
	const char *row;
	char *text;

	for (int i = 0; i < 3; i++) {
		struct hmb_record *r = hmb_record_new("memcpy", "h2d/pinned/async");
		hmb_param_num(r, "size", sizes[i]);
		hmb_record_bytes(r, sizes[i]);
		for (int k = 0; k < 6; k++)
			hmb_sample(r, 2e-6 + sizes[i] / 50e9);
		if (i == 2)
			hmb_metric(r, "pinned_Bps", 14.5e9, "B/s");
		*at = r;
		at = &r->next;
	}
	text = render(first, 0);
	CHECK(text && strstr(text, "  size  median GB/s  best GB/s  median us/copy  mark  "
			     "pinned GB/s\n"));
	row = text ? strstr(text, "\n    4K  ") : NULL;
	CHECK(row && strstr(row, " 2.082  ") && strstr(row, " 2.082  ") < strchr(row + 1, '\n'));
	row = text ? strstr(text, "\n    4M  ") : NULL;
	CHECK(row && !strstr(row, "85.89") && strstr(row, "  14.50\n")); /* no time: 4M */
	CHECK(text && !strstr(text, "14500000000") && !strstr(text, "_Bps"));
	free(text);
	free_all(first);
	/* a sample of 1000 copies: the time of one copy, not of the sample */
	first = hmb_record_new("memcpy", "h2d/pinned/many");
	hmb_param_num(first, "size", 4096);
	hmb_record_bytes(first, 4096 * 1000.0);
	hmb_record_ops(first, 1000);
	for (int k = 0; k < 6; k++)
		hmb_sample(first, 2.5e-3);
	text = render(first, 0);
	CHECK(text && strstr(text, "median us/copy") && strstr(text, " 2.500\n"));
	free(text);
	free_all(first);
}

void hmb_test_table(void)
{
	test_time_per_copy();
	test_key_columns_at_their_limit();
	test_band_heading_lines();
	test_headings();
	test_units_and_numbers();
	test_gpu_column();
	test_width();
	test_side_by_side();
	test_nested_metrics();
}

void hmb_test_progress_and_csv(void)
{
	test_progress();
	test_csv_direction();
}
