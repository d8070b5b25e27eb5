/*
 * summary.h - one screen of a node's headline figures: `hipmembench summary
 * DOC...`, the end of `all`, the start of `compare`, and the HTML report.
 *
 * The headlines and the peak each case's GB/s is a fraction of are what the
 * modules declare (engine/headline.h), handed down from the command line's
 * module table; which way is better comes from the figure's unit
 * (hmb_unit_direction, doc/units.h). A document is read into the records the
 * tables print (summary_read.c: hmb_sum_doc_load), so a figure, its peak
 * fraction and its stability marks are derived as the tables derive them.
 * Several documents give one column each, the first the base: every other
 * value with its ratio to the base's, above 1 better.
 *
 * Reading the text: `figure value unit peak mark what` per headline (peak:
 * the share of the physical peak where the document knows one; mark: the
 * tables' stability marks), then the anomalies: throttling and links below
 * their maximum (telemetry), figures that do not repeat, and cases that
 * failed or are unsupported, counted, the first few named with their reason.
 */
#ifndef HMB_SUMMARY_H
#define HMB_SUMMARY_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/options.h"
#include "doc/about.h"
#include "engine/headline.h"
#include "engine/report.h"

#define HMB_SUMMARY_LINES 40    /* one screen */
#define HMB_SUMMARY_COLUMNS 100
#define HMB_SUM_MAX_DEVICES 64
#define HMB_SUM_MAX_META 40
#define HMB_SUM_NOT_OK 8        /* not-ok cases kept per document, one per reason */
#define HMB_SUM_FINDINGS 6      /* the modules' findings kept per document */

/* What the summary reads of one device object (summary_read.c). */
struct hmb_sum_device {
	int ordinal;
	char name[128], arch[64];
	double link_peak_gbps;          /* the host link's peak per direction; 0 unknown */
	char link[64];                  /* "PCIe gen5 x16", or the link's kind */
	double hbm_peak_gbps;           /* its memory's peak; 0 unknown */
};

/* A line of system metadata for people ("CPU", "Intel Xeon, 16 CPUs"). */
struct hmb_sum_meta {
	char key[24];
	char value[200];
};

/* One document as the summary reads it (summary_read.c fills it). */
struct hmb_sum_doc {
	char *path;                     /* as named */
	struct hmb_doc_about about;     /* what it says of its machine and run */
	struct hmb_report rep;          /* its records and telemetry samples */
	struct hmb_sum_device dev[HMB_SUM_MAX_DEVICES];
	int ndev;
	struct hmb_sum_meta meta[HMB_SUM_MAX_META];
	int nmeta;
	char hostname[64];
	char started_utc[32];
	char command[32];
	int complete;
};

/* Read a hipmembench document ("-": standard input): 0, or -1 with one line
 * in err naming the file. summary_read.c. */
int hmb_sum_doc_load(const char *path, struct hmb_sum_doc *d, char *err, size_t errlen);
/* The same from a document already in memory (name: what to call it). */
void hmb_sum_doc_of(const cJSON *doc, const char *name, struct hmb_sum_doc *d);
void hmb_sum_doc_free(struct hmb_sum_doc *d);

/* The physical peak of a record's GB/s, GB/s; 0 where none is known: the one
 * its module declares for its case among benches (a device copy: half of
 * hbm_gbps, its GPU's memory; ...), else the record's own. link_gbps: its
 * GPU's host link per direction (0 unknown). */
double hmb_figure_peak_gbps(const struct hmb_bench *const *benches, const struct hmb_record *r,
			    double link_gbps, double hbm_gbps);

#define HMB_MAX_HEADLINES 32

/* compare's verdict on one figure of a document against the base's (the
 * judge the summary command is given fills it: src/compare/verdicts.c; the
 * report shows it and judges nothing itself). */
enum hmb_sum_verdict_state {
	HMB_VERDICT_UNSET,    /* not judged: no judge ran (standard input, text) */
	HMB_VERDICT_NO_ROW,   /* compare pairs no figure of the other with it */
	HMB_VERDICT_ROW,      /* compare's row: its verdict in text */
};

struct hmb_sum_verdict {
	enum hmb_sum_verdict_state state;
	char text[16];        /* as compare prints it: WORSE, better, n.s., ?N%, ? or "" */
	int flag;             /* +1 better, -1 WORSE (compare flags it), 0 neither */
	double p;             /* the change's p under its noise; NAN: not judged */
	double resolution;    /* the least change the pair tells from noise; NAN */
	char row[224];        /* compare's row: its result's label and figure */
};

/* One headline of one document. */
struct hmb_sum_cell {
	const struct hmb_headline *h;   /* which one */
	int found;
	double value;
	char unit[16];
	int direction;                  /* +1 higher is better, -1 lower, 0 neither */
	double peak_gbps;               /* the peak it is a fraction of; 0 none */
	double fraction;
	char mark[8];                   /* the tables' marks of the record(s) */
	char at[64];                    /* what was picked: "1G", "streams=4 chunks=16" */
	char missing[64];               /* not found: the base's identity it lacks ("256M"),
					   "" where the headline has no figure at all */
	const struct hmb_record *rec;   /* where it comes from */
	const struct hmb_record *base;  /* the `over` case's record */
	/* compare's verdicts against the first document's cell (columns after the
	 * first): on rec's figure, and on base's for a headline taken over another */
	struct hmb_sum_verdict verdict[2];
};

/* One not-ok case, standing for those of the same module and reason. */
struct hmb_sum_not_ok {
	const struct hmb_record *first;
	size_t count;
};

/* One document's column: its headlines and its anomalies. */
struct hmb_sum_col {
	const struct hmb_sum_doc *doc;
	char name[12];                  /* short, for column heads and legends: "H200x2" */
	char system[160];               /* host, device, link */
	int gpu;                        /* the GPU summarised; -1: one GPU */
	int ngpus;
	struct hmb_sum_cell cell[HMB_MAX_HEADLINES];
	/* anomalies */
	size_t records, judged, unstable, drift, bimodal, outliers, shared;
	/* the summarised GPU's records that ran at once beside other GPUs of
	 * --devices (observed.ran_beside_gpus), and those of them that shared its
	 * way to the host (host_link_shared_with_gpus); the first GPU list seen */
	size_t beside, host_shared;
	char beside_gpus[64];
	/* the resolution (stats/resolution.h): figures of several runs, how many can
	 * show a change of 5% and of 10% between two documents like this one, and the
	 * modules too noisy for 10% here (their median resolution; documents: their
	 * noise measured between documents, else runs) */
	size_t resolved, within5, within10;
	struct hmb_sum_noisy { const char *module; double resolution; int documents; } noisy[8];
	int nnoisy;
	/* what a module's figures say together (its struct hmb_bench's findings) */
	char findings[HMB_SUM_FINDINGS][HMB_FINDING_LEN];
	const char *finding_module[HMB_SUM_FINDINGS];
	int nfindings;
	size_t unsupported, failed, skipped;
	struct hmb_sum_not_ok not_ok[HMB_SUM_NOT_OK];
	int nnot_ok;
	size_t not_ok_reasons;          /* distinct (status, module, reason) in all */
	double link_peak_gbps;          /* the summarised GPU's host link, per direction; 0 unknown */
	double hbm_peak_gbps;           /* its memory: clock x 2 x bus width; 0 unknown */
	char link[64];                  /* "PCIe gen5 x16" */
	char throttled[160];            /* "memcpy (power), node", "" none */
	char link_below[160];           /* modules after which the link ran below its maximum */
	int telemetry_samples;
};

struct hmb_sum {
	const struct hmb_bench *const *benches; /* the modules: their headlines and peaks */
	struct hmb_module_headline headline[HMB_MAX_HEADLINES]; /* in the order they print */
	size_t nheadlines;                /* each column's cell[] holds as many */
	int n;
	struct hmb_sum_col *col;
	/* what the others differ from the first in that can change a figure's
	 * meaning (another build, schema, settings, XNACK mode): one line, "" none */
	char differs[1024];
	double threshold;               /* percent the verdicts were judged at; -1: none */
};

/* What judges the headlines of the columns after the first against the
 * first, filling their cells' verdicts: compare's own judgement
 * (hmb_compare_summary_verdicts, given by the command line: compare
 * includes output, never the other way). gpu: --gpu N, -1 none; threshold:
 * percent. */
typedef void (*hmb_sum_judge_fn)(struct hmb_sum *s, int gpu, double threshold);

/* The summary of n documents (the first the base), GPU gpu of each that has
 * several (-1: the lowest), with the headlines of the modules of benches
 * (NULL-terminated). 0, or -1 with a line in err (a document without results
 * of that GPU). */
int hmb_summary_build(const struct hmb_sum_doc *docs, int n,
		      const struct hmb_bench *const *benches, int gpu, struct hmb_sum *s,
		      char *err, size_t errlen);
void hmb_summary_free(struct hmb_sum *s);

/* Writers: one screen of text (summary_text.c), Markdown (summary_text.c),
 * one self-contained HTML file with plots (report_html.c). */
void hmb_summary_text(FILE *out, const struct hmb_sum *s);
void hmb_summary_markdown(FILE *out, const struct hmb_sum *s);
void hmb_report_html(FILE *out, const struct hmb_sum *s);

/* The anomalies in words (summary_text.c): telemetry, stability marks, and
 * cases that are not ok. */
const char *hmb_sum_telemetry_text(const struct hmb_sum_col *c, char *buf, size_t len);
const char *hmb_sum_stability_text(const struct hmb_sum_col *c, char *buf, size_t len);
/* Who ran at once beside the summarised GPU (--devices); "" where none did. */
const char *hmb_sum_together_text(const struct hmb_sum_col *c, char *buf, size_t len);
/* "of 460 figures, 167 can show a 5% change from one document to the next, 197
 * 10%; too noisy for 10%: pool 24% (session), ...": each family's median
 * resolution, and what dominates its noise (its runs, or the session noise) */
const char *hmb_sum_resolution_text(const struct hmb_sum_col *c, char *buf, size_t len);
const char *hmb_sum_not_ok_text(const struct hmb_sum_col *c, char *buf, size_t len);
/* One not-ok group: "unsupported memcpy x/y (+3 alike): reason". */
const char *hmb_sum_not_ok_line(const struct hmb_sum_not_ok *g, char *buf, size_t len);

/* Values for people: at most 4 characters for the columns of several
 * documents (wide 0), a few more for one; ratios as hmb_fmt_ratio writes
 * them ("1.05x", "0.06x"), in those columns at most 5 characters (">99x",
 * "<0.01"). */
const char *hmb_sum_value_text(double v, int wide, char *buf, size_t len);
const char *hmb_sum_ratio_text(const struct hmb_sum_cell *base, const struct hmb_sum_cell *c,
			       int wide, char *buf, size_t len);
/* The other against the base, which way is better: above 1 better. */
double hmb_sum_ratio(const struct hmb_sum_cell *base, const struct hmb_sum_cell *c);

/* Where the summary is printed (summary_cmd.c), each with the headlines of
 * the modules of benches (the command line's module table). The command:
 * `summary DOC...`. judge (NULL: none) gives the HTML report compare's
 * verdicts, at HMB_RESOLUTION_STABLE_REL (5%, the threshold compare is used
 * at). Returns the exit status. */
int hmb_summary_command(int nfiles, char **files, const struct hmb_bench *const *benches,
			enum hmb_format format, int gpu, const char *output, hmb_sum_judge_fn judge);
/* show's last part for a document of `all`: its summary (as `summary DOC`
 * prints it) from the document already read. Returns the exit status. */
int hmb_summary_of_doc_print(FILE *out, const cJSON *doc, const char *name,
			     const struct hmb_bench *const *benches);
/* compare's first part: the summary of the n documents it read, on out
 * (nothing where the summary cannot be made: compare says what is wrong). */
void hmb_summary_for_compare(FILE *out, const struct hmb_sum_doc *docs, int n,
			     const struct hmb_bench *const *benches, enum hmb_format format,
			     int gpu);
/* all's last part: the summary of the report's document, with the headlines
 * of the report's modules (rep->benches), kept in the report
 * (rep->summary_json) for the document's "summary" object; NULL where there are
 * no results. Print it with hmb_summary_of_run_print, free it after the
 * document is written. */
struct hmb_summary_run;
struct hmb_summary_run *hmb_summary_of_run(struct hmb_report *rep);
void hmb_summary_of_run_print(FILE *out, const struct hmb_summary_run *run);
void hmb_summary_of_run_free(struct hmb_report *rep, struct hmb_summary_run *run);

/* A summary's column as the document's "summary" object (summary_json.c). */
cJSON *hmb_summary_json(const struct hmb_sum_col *c);

#endif
