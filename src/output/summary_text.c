/* summary_text.c - the summary as one screen of text (at most
 * HMB_SUMMARY_LINES lines of HMB_SUMMARY_COLUMNS columns) and as Markdown.
 *
 * One document: `figure value unit peak mark what`, a line per headline the
 * document has, then its anomalies. Several: a column per document (the
 * first the base), each other value followed by its ratio to the base's
 * (above 1 better, whichever way the unit counts: "1.05x", two decimals to
 * show a 5% change), then a line per document naming its system and
 * anomalies; more than 7 documents print in blocks of 7 columns, each led by
 * the base. */
#include "output/summary.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/record.h"
#include "util/text.h"

#define LABEL 18          /* a headline's name */
#define AT 7              /* the size the headline is compared at: "256M" */
#define CELL 11           /* another document's value and its ratio: " 55.3 1.05x" */
#define PER_BLOCK 6       /* documents side by side: 18 + 1 + 5 + 1 + 7 + 5 + 5 x 11 = 92 columns */
#define PER_BLOCK_NO_AT 7 /* more: 18 + 1 + 5 + 6 + 6 x 11 = 96 columns, the sizes below */

/* ---- the anomalies in words ----------------------------------------------- */

const char *hmb_sum_telemetry_text(const struct hmb_sum_col *c, char *buf, size_t len)
{
	if (!c->telemetry_samples)
		snprintf(buf, len, "no telemetry: throttling unknown");
	else if (!*c->throttled && !*c->link_below)
		snprintf(buf, len, "not throttled; link at its maximum after every module");
	else
		snprintf(buf, len, "%s%s%s%s%s", *c->throttled ? "THROTTLED after " : "not throttled",
			 c->throttled, "; ", *c->link_below ? "link below its maximum after " :
			 "link at its maximum", c->link_below);
	hmb_utf8_trim(buf);
	return buf;
}

const char *hmb_sum_stability_text(const struct hmb_sum_col *c, char *buf, size_t len)
{
	snprintf(buf, len, "%zu of %zu judged figures unstable (~); %zu drift (D), %zu bimodal (B),"
		 " %zu outliers (o), %zu beside another process (S)", c->unstable, c->judged,
		 c->drift, c->bimodal, c->outliers, c->shared);
	return buf;
}

const char *hmb_sum_together_text(const struct hmb_sum_col *c, char *buf, size_t len)
{
	size_t used;

	buf[0] = '\0';
	if (!c->beside)
		return buf;
	used = (size_t)snprintf(buf, len, "%zu figures beside GPUs %s", c->beside, c->beside_gpus);
	if (c->host_shared && used < len)
		snprintf(buf + used, len - used, "; %zu shared its host link: may read lower than "
			 "alone", c->host_shared);
	return buf;
}

const char *hmb_sum_resolution_text(const struct hmb_sum_col *c, char *buf, size_t len)
{
	size_t used;

	if (!c->resolved)
		return snprintf(buf, len, "one run: how far the figures repeat from one process to "
				"the next is not measured (--runs 2 or more; all runs two)"), buf;
	/* what the noise was measured over: runs, or documents (merge) */
	used = (size_t)snprintf(buf, len, "of %zu figures, %zu can show a 5%% change from one "
				"document to the next, %zu 10%%", c->resolved, c->within5, c->within10);
	for (int i = 0; i < c->nnoisy && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s %.0f%% (%s)",
					 i ? ", " : "; median of modules too noisy for 10%: ",
					 c->noisy[i].module, 100 * c->noisy[i].resolution,
					 c->noisy[i].documents ? "documents" : "runs");
	return buf;
}

const char *hmb_sum_not_ok_text(const struct hmb_sum_col *c, char *buf, size_t len)
{
	snprintf(buf, len, "%zu failed, %zu unsupported, %zu skipped of %zu", c->failed,
		 c->unsupported, c->skipped, c->records);
	return buf;
}

const char *hmb_sum_not_ok_line(const struct hmb_sum_not_ok *g, char *buf, size_t len)
{
	char alike[32] = "";

	if (g->count > 1)
		snprintf(alike, sizeof(alike), " (+%zu alike)", g->count - 1);
	snprintf(buf, len, "%s %s %s%s: %s", hmb_status_name(g->first->status), g->first->module,
		 g->first->name, alike, g->first->reason ? g->first->reason : "");
	hmb_utf8_trim(buf);
	return buf;
}

/* ---- one screen ---------------------------------------------------------- */

struct screen {
	FILE *out;
	int lines;
	int reserve;     /* lines a wrapped text leaves for what must follow it */
};

/* Columns of text (characters, not bytes), and the byte where column
 * `upto` begins. */
static size_t columns(const char *text, size_t upto, size_t *at)
{
	size_t cols = 0, i = 0, n;

	while (text[i] && cols < upto) {
		n = hmb_utf8_seq((const unsigned char *)text + i, strlen(text + i));
		i += n ? n : 1;
		cols++;
	}
	if (at)
		*at = i;
	return cols;
}

static void put(struct screen *s, char *text)
{
	size_t i = strlen(text);

	while (i && text[i - 1] == ' ')
		text[--i] = '\0';
	fprintf(s->out, "%s\n", text);
	s->lines++;
}

/* Where to cut text so that it and " ..." fit room columns: after the last
 * item of a list ("a, b, c") that fits, else after the last whole word (in a
 * word only where one word is longer than half the line); the byte offset. */
static size_t cut_at_word(const char *text, size_t room)
{
	size_t at, cut;

	columns(text, room - 4, &at);
	for (cut = at; cut > 0 && !(text[cut] == ',' && text[cut + 1] == ' '); cut--)
		;
	if (cut * 2 >= at)
		return cut;
	for (cut = at; cut > 0 && text[cut] != ' '; cut--)
		;
	if (cut * 2 < at)
		cut = at; /* one long word: cut in it rather than leave most of the line empty */
	while (cut > 0 && text[cut - 1] == ' ')
		cut--;
	return cut;
}

/* A line of at most HMB_SUMMARY_COLUMNS columns, printable, without blanks
 * at its end; " ..." where it was cut, after a whole word. */
static void line(struct screen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(struct screen *s, const char *fmt, ...)
{
	char raw[2048], text[2048];
	size_t at;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	hmb_printable(raw, sizeof(raw), text, sizeof(text));
	if (columns(text, HMB_SUMMARY_COLUMNS + 1, NULL) > HMB_SUMMARY_COLUMNS) {
		at = cut_at_word(text, HMB_SUMMARY_COLUMNS);
		strcpy(text + at, " ...");
	}
	put(s, text);
}

/* head then text, broken between words into lines of at most
 * HMB_SUMMARY_COLUMNS columns, those after the first indented by indent; where
 * the screen has no line left for the rest, the last line ends " ...". */
static void wrapped(struct screen *s, const char *head, int indent, const char *text)
{
	char raw[2048], all[2048], out[HMB_SUMMARY_COLUMNS * 4 + 8];
	const char *p = all;
	int first = 1;

	snprintf(raw, sizeof(raw), "%s%s", head, text);
	hmb_printable(raw, sizeof(raw), all, sizeof(all));
	while (*p && s->lines < HMB_SUMMARY_LINES - s->reserve) {
		size_t room = HMB_SUMMARY_COLUMNS - (first ? 0 : (size_t)indent), at, cut;
		if (columns(p, room + 1, &at) <= room) {
			snprintf(out, sizeof(out), "%*s%.*s", first ? 0 : indent, "", (int)at, p);
			put(s, out);
			return;
		}
		if (s->lines == HMB_SUMMARY_LINES - s->reserve - 1) { /* the last: it goes on */
			cut = cut_at_word(p, room);
			snprintf(out, sizeof(out), "%*s%.*s ...", first ? 0 : indent, "", (int)cut, p);
			put(s, out);
			return;
		}
		columns(p, room, &at); /* the byte after the last column that fits */
		for (cut = at; cut > 0 && p[cut] != ' '; cut--)
			;
		if (!cut) /* one word longer than a line */
			columns(p, room, &cut);
		snprintf(out, sizeof(out), "%*s%.*s", first ? 0 : indent, "", (int)cut, p);
		put(s, out);
		p += cut;
		while (*p == ' ')
			p++;
		first = 0;
	}
}

/* A path that fits width columns: its end, "..." before it where cut. */
static const char *tail(const char *path, size_t width)
{
	size_t n = strlen(path);
	static char buf[256];

	if (n <= width)
		return path;
	snprintf(buf, sizeof(buf), "...%s", path + n - (width > 3 ? width - 3 : 0));
	return buf;
}

static int any_found(const struct hmb_sum *s, size_t h)
{
	for (int i = 0; i < s->n; i++)
		if (s->col[i].cell[h].found)
			return 1;
	return 0;
}

static const struct hmb_sum_cell *first_found(const struct hmb_sum *s, size_t h)
{
	for (int i = 0; i < s->n; i++)
		if (s->col[i].cell[h].found)
			return &s->col[i].cell[h];
	return NULL;
}

static void not_ok_lines(struct screen *sc, const struct hmb_sum_col *c, const char *who)
{
	char text[512];

	size_t shown = 0;

	/* a reason a line; the screen's last line says how many more where it cannot hold them */
	for (int k = 0; k < c->nnot_ok && sc->lines < HMB_SUMMARY_LINES; k++) {
		if (sc->lines == HMB_SUMMARY_LINES - 1 && c->not_ok_reasons > shown + 1)
			break;
		line(sc, "    %s%s", who, hmb_sum_not_ok_line(&c->not_ok[k], text, sizeof(text)));
		shown++;
	}
	if (c->not_ok_reasons > shown && sc->lines < HMB_SUMMARY_LINES)
		line(sc, "    %s... %zu more reasons", who, c->not_ok_reasons - shown);
}

static void one_document(struct screen *sc, const struct hmb_sum *s)
{
	const struct hmb_sum_col *c = &s->col[0];
	char text[512], v[32], peak[16], marked[1024] = "";
	size_t used = 0;

	line(sc, "hipmembench summary: %s", c->system);
	if (c->gpu >= 0)
		line(sc, "  GPU %d of %d (--gpu N picks another)", c->gpu, c->ngpus);
	line(sc, "  host link %s %.1f GB/s per direction; HBM %.0f GB/s; %s, %s",
	     *c->link ? c->link : "-", c->link_peak_gbps, c->hbm_peak_gbps,
	     *c->doc->command ? c->doc->command : "-", *c->doc->started_utc ? c->doc->started_utc : "-");
	line(sc, "  %s%s", tail(c->doc->path, HMB_SUMMARY_COLUMNS - 16),
	     c->doc->complete ? "" : " (incomplete)");
	line(sc, "%-*s %9s %-5s %5s %-4s %s", LABEL, "figure", "value", "unit", "peak", "mark",
	     "what");
	for (size_t h = 0; h < s->nheadlines; h++) {
		const struct hmb_sum_cell *x = &c->cell[h];
		if (!x->found)
			continue;
		if (x->peak_gbps > 0)
			snprintf(peak, sizeof(peak), "%.0f%%", 100 * x->fraction);
		else
			snprintf(peak, sizeof(peak), "-");
		line(sc, "%-*s %9s %-5s %5s %-4s %s%s%s", LABEL, s->headline[h].h->name,
		     hmb_sum_value_text(x->value, 1, v, sizeof(v)), x->unit, peak, x->mark, x->at,
		     *x->at ? "; " : "", s->headline[h].h->about);
		if (*x->mark && used < sizeof(marked))
			used += (size_t)snprintf(marked + used, sizeof(marked) - used, "%s%s %s",
						 used ? ", " : "", s->headline[h].h->name, x->mark);
	}
	line(sc, "anomalies:");
	wrapped(sc, "  telemetry: ", 4, hmb_sum_telemetry_text(c, text, sizeof(text)));
	wrapped(sc, "  stability: ", 4, hmb_sum_stability_text(c, text, sizeof(text)));
	wrapped(sc, "  resolution: ", 4, hmb_sum_resolution_text(c, text, sizeof(text)));
	/* the cases not ok, the first reason and how many more, whatever comes before */
	sc->reserve = !c->nnot_ok ? 1 : c->not_ok_reasons > 1 ? 3 : 2;
	if (*hmb_sum_together_text(c, text, sizeof(text)))
		wrapped(sc, "  together: ", 4, text);
	for (int i = 0; i < c->nfindings; i++) {
		char head[48];
		snprintf(head, sizeof(head), "  %s: ", c->finding_module[i]);
		wrapped(sc, head, 4, c->findings[i]);
	}
	if (*marked)
		wrapped(sc, "  marked headlines: ", 4, marked);
	sc->reserve = 0;
	line(sc, "  cases not ok: %s%s", hmb_sum_not_ok_text(c, text, sizeof(text)),
	     c->nnot_ok ? "; the first of each reason:" : "");
	not_ok_lines(sc, c, "");
}

/* Columns from..to (exclusive) beside the base. */
/* The size a headline is compared at, the base's (or the first document's that
 * has it): "256M"; "-" where it has none. */
static void size_of_row(const struct hmb_sum *s, size_t h, char *buf, size_t len)
{
	const struct hmb_sum_cell *base = &s->col[0].cell[h], *any = first_found(s, h);
	const char *at = base->found ? base->at : any ? any->at : "";

	if (*at >= '0' && *at <= '9')
		snprintf(buf, len, "%.*s", (int)strcspn(at, " "), at);
	else
		snprintf(buf, len, "-");
}

/* Columns from..to (exclusive) beside the base; with_at: a column of the size
 * each headline is compared at. */
static void block(struct screen *sc, const struct hmb_sum *s, int from, int to, int with_at)
{
	char head[HMB_SUMMARY_COLUMNS + 16], v[32], r[32];
	int at_cols = with_at ? 1 + AT - 1 : 0, width = LABEL + 1 + 5 + at_cols + 6 + CELL * (to - from);

	memset(head, ' ', sizeof(head));
	memcpy(head, "figure", 6);
	if (with_at)
		memcpy(head + LABEL + 1 + 5 + 1, "at", 2);
	for (int i = -1; i < to - from; i++) {
		const char *name = s->col[i < 0 ? 0 : from + i].name;
		int end = LABEL + 1 + 5 + at_cols + 6 + CELL * (i + 1);
		memcpy(head + end - strlen(name), name, strlen(name));
	}
	head[width] = '\0';
	line(sc, "%s", head);
	for (size_t h = 0; h < s->nheadlines; h++) {
		const struct hmb_sum_cell *base = &s->col[0].cell[h], *any = first_found(s, h);
		char row[HMB_SUMMARY_COLUMNS + 64], size[AT + 1] = "";
		int used;
		if (!any_found(s, h))
			continue;
		/* the size every column is at: the base's (the others are paired by identity) */
		if (with_at)
			size_of_row(s, h, size, sizeof(size));
		used = snprintf(row, sizeof(row), "%-*s %-5s%s%-*s%6s", LABEL, s->headline[h].h->name,
				any->unit, with_at ? " " : "", with_at ? AT - 1 : 0, size,
				base->found ? hmb_sum_value_text(base->value, 0, v, sizeof(v)) : "-");
		for (int i = from; i < to && used < (int)sizeof(row); i++) {
			const struct hmb_sum_cell *x = &s->col[i].cell[h];
			used += snprintf(row + used, sizeof(row) - (size_t)used, "%5s %-5s",
					 x->found ? hmb_sum_value_text(x->value, 0, v, sizeof(v)) :
					 *x->missing ? "n/a" : "-",
					 hmb_sum_ratio_text(base, x, 0, r, sizeof(r)));
		}
		line(sc, "%s", row);
	}
}

static void several_documents(struct screen *sc, const struct hmb_sum *s)
{
	char tel[256], nok[256];
	int two;

	line(sc, "hipmembench summary of %d documents: after each value, its ratio to the first's "
	     "(above 1: better)", s->n);
	if (*s->differs) { /* one line: cut where it would not fit */
		char note[sizeof(s->differs) + 8];
		snprintf(note, sizeof(note), "note: %s", s->differs);
		if (strlen(note) > HMB_SUMMARY_COLUMNS)
			snprintf(note + cut_at_word(note, HMB_SUMMARY_COLUMNS - 4), 5, " ...");
		line(sc, "%s", note);
	}
	if (s->n <= PER_BLOCK) {
		block(sc, s, 1, s->n, 1);
	} else { /* the sizes in a line of their own, the documents side by side */
		char at[1024], size[AT + 1];
		size_t used = 0;
		for (int from = 1; from < s->n; from += PER_BLOCK_NO_AT - 1)
			block(sc, s, from, from + PER_BLOCK_NO_AT - 1 < s->n ?
			      from + PER_BLOCK_NO_AT - 1 : s->n, 0);
		for (size_t h = 0; h < s->nheadlines && used < sizeof(at); h++)
			if (any_found(s, h)) {
				size_of_row(s, h, size, sizeof(size));
				used += (size_t)snprintf(at + used, sizeof(at) - used, "%s%s %s",
							 used ? ", " : "", s->headline[h].h->name, size);
			}
		wrapped(sc, "at (the base's size, every column): ", 4, at);
	}
	/* a line or two per document, as the screen allows */
	two = sc->lines + 1 + 2 * s->n <= HMB_SUMMARY_LINES;
	line(sc, "systems, anomalies (figures unstable of those judged, cases not ok):");
	for (int i = 0; i < s->n; i++) {
		const struct hmb_sum_col *c = &s->col[i];
		char gpu[32] = "";
		if (c->gpu >= 0)
			snprintf(gpu, sizeof(gpu), ", GPU %d of %d", c->gpu, c->ngpus);
		snprintf(nok, sizeof(nok), "%zu/%zu unstable, %zu failed, %zu unsupported%s%s",
			 c->unstable, c->judged, c->failed, c->unsupported,
			 *c->throttled ? ", THROTTLED: " : "", c->throttled);
		if (two) {
			line(sc, "  %-9s %s%s", c->name, c->system, gpu);
			line(sc, "  %-9s %s; %s", "", nok, tail(c->doc->path, HMB_SUMMARY_COLUMNS - 14 -
							     strlen(nok)));
		} else {
			line(sc, "  %-9s %s; %s", c->name, nok, tail(c->doc->path, HMB_SUMMARY_COLUMNS -
								   14 - strlen(nok)));
		}
	}
	/* what failed, where the screen has room */
	for (int i = 0; i < s->n && sc->lines < HMB_SUMMARY_LINES - 1; i++) {
		char who[32];
		struct hmb_sum_col c = s->col[i];
		if (!c.failed)
			continue;
		snprintf(who, sizeof(who), "%s: ", c.name);
		for (int k = 0; k < c.nnot_ok && sc->lines < HMB_SUMMARY_LINES; k++)
			if (c.not_ok[k].first->status == HMB_FAILED)
				line(sc, "    %s%s", who, hmb_sum_not_ok_line(&c.not_ok[k], tel, sizeof(tel)));
	}
}

void hmb_summary_text(FILE *out, const struct hmb_sum *s)
{
	struct screen sc = { out, 0, 0 };

	if (s->n == 1)
		one_document(&sc, s);
	else if (s->n > 1)
		several_documents(&sc, s);
}

/* ---- Markdown -------------------------------------------------------------- */

/* Text for a table cell: "|" escaped, on one line. */
static void md(FILE *out, const char *text)
{
	char shown[1024];

	hmb_printable(text, sizeof(shown) / 2, shown, sizeof(shown));
	for (const char *p = shown; *p; p++) {
		if (*p == '|')
			fputc('\\', out);
		fputc(*p, out);
	}
}

void hmb_summary_markdown(FILE *out, const struct hmb_sum *s)
{
	char v[32], r[32], text[512];

	fprintf(out, "# hipmembench summary\n\n");
	if (s->n > 1)
		fprintf(out, "%d documents; beside each value of the others, its ratio to the "
			"first's (above 1: better).\n\n", s->n);
	if (*s->differs) {
		fprintf(out, "Note: ");
		md(out, s->differs);
		fprintf(out, ".\n\n");
	}
	fprintf(out, "| figure | unit |%s", s->n > 1 ? " at |" : "");
	for (int i = 0; i < s->n; i++) {
		fputc(' ', out);
		md(out, s->col[i].name);
		fprintf(out, " |");
	}
	fprintf(out, "%s\n|---|---|%s", s->n == 1 ? " what |" : "", s->n > 1 ? "---|" : "");
	for (int i = 0; i < s->n; i++)
		fprintf(out, "---:|");
	fprintf(out, "%s\n", s->n == 1 ? "---|" : "");
	for (size_t h = 0; h < s->nheadlines; h++) {
		const struct hmb_sum_cell *base = &s->col[0].cell[h], *any = first_found(s, h);
		if (!any)
			continue;
		fprintf(out, "| %s | %s |", s->headline[h].h->name, any->unit);
		if (s->n > 1) {
			fputc(' ', out);
			md(out, base->found ? base->at : any->at);
			fprintf(out, " |");
		}
		for (int i = 0; i < s->n; i++) {
			const struct hmb_sum_cell *x = &s->col[i].cell[h];
			if (!x->found) {
				if (*x->missing) {
					fprintf(out, " no figure at ");
					md(out, x->missing);
					fprintf(out, " |");
				} else {
					fprintf(out, " - |");
				}
				continue;
			}
			fprintf(out, " %s", hmb_sum_value_text(x->value, 1, v, sizeof(v)));
			if (x->peak_gbps > 0)
				fprintf(out, " (%.0f%%)", 100 * x->fraction);
			if (*x->mark)
				fprintf(out, " %s", x->mark);
			if (i && *hmb_sum_ratio_text(base, x, 1, r, sizeof(r)))
				fprintf(out, " %s", r);
			fprintf(out, " |");
		}
		if (s->n == 1) {
			fputc(' ', out);
			snprintf(text, sizeof(text), "%s%s%s", base->at, *base->at ? "; " : "",
				 s->headline[h].h->about);
			md(out, text);
			fprintf(out, " |");
		}
		fputc('\n', out);
	}
	fprintf(out, "\nEach cell: the value, its share of the physical peak (where the document "
		"knows one), the stability marks (~ unstable, ? too few samples, D drift, B bimodal, "
		"o outliers, S another process on the GPU)%s.\n", s->n > 1 ? ", the ratio to the "
		"first document's value" : "");
	fprintf(out, "\n## Anomalies\n\n");
	for (int i = 0; i < s->n; i++) {
		const struct hmb_sum_col *c = &s->col[i];
		fprintf(out, "- **");
		md(out, c->name);
		fprintf(out, "** (");
		md(out, c->system);
		fprintf(out, ", `");
		md(out, c->doc->path);
		fprintf(out, "`)\n  - telemetry: ");
		md(out, hmb_sum_telemetry_text(c, text, sizeof(text)));
		fprintf(out, "\n  - stability: ");
		md(out, hmb_sum_stability_text(c, text, sizeof(text)));
		fprintf(out, "\n  - resolution: ");
		md(out, hmb_sum_resolution_text(c, text, sizeof(text)));
		if (*hmb_sum_together_text(c, text, sizeof(text))) {
			fprintf(out, "\n  - together: ");
			md(out, text);
		}
		for (int k = 0; k < c->nfindings; k++) {
			fprintf(out, "\n  - %s: ", c->finding_module[k]);
			md(out, c->findings[k]);
		}
		fprintf(out, "\n  - cases not ok: ");
		md(out, hmb_sum_not_ok_text(c, text, sizeof(text)));
		fputc('\n', out);
		for (int k = 0; k < c->nnot_ok; k++) {
			fprintf(out, "    - ");
			md(out, hmb_sum_not_ok_line(&c->not_ok[k], text, sizeof(text)));
			fputc('\n', out);
		}
	}
	fprintf(out, "\n## Systems\n\n|  |");
	for (int i = 0; i < s->n; i++) {
		fputc(' ', out);
		md(out, s->col[i].name);
		fprintf(out, " |");
	}
	fprintf(out, "\n|---|");
	for (int i = 0; i < s->n; i++)
		fprintf(out, "---|");
	fputc('\n', out);
	for (int k = 0; k < s->col[0].doc->nmeta; k++) {
		const char *key = s->col[0].doc->meta[k].key;
		fprintf(out, "| %s |", key);
		for (int i = 0; i < s->n; i++) {
			const struct hmb_sum_doc *d = s->col[i].doc;
			fputc(' ', out);
			for (int j = 0; j < d->nmeta; j++)
				if (!strcmp(d->meta[j].key, key))
					md(out, d->meta[j].value);
			fprintf(out, " |");
		}
		fputc('\n', out);
	}
}
