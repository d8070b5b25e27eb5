/*
 * chart.h - the charts a module declares for the HTML report
 * (output/report_html.c) beside its figures against size: which of its cases
 * share a chart, and what its headline figure varies with. Each module
 * declares its own in its folder (bench/<module>/), as fields of its struct
 * hmb_bench (module.h), as it declares its headlines (headline.h).
 */
#ifndef HMB_CHART_H
#define HMB_CHART_H

/* Which cases share a chart of figures against size: the first pattern a case
 * matches names its chart ("%s": the case's first part); latency: a view of
 * time per copy beside it. A module that declares none has one chart per unit
 * where its kinds fit one, else one per first part of its cases. A table of
 * them ends with a NULL kase. */
struct hmb_chart_group {
	const char *kase, *chart;
	int latency;
};

/* A chart of what a module's headline figure varies with besides size: a
 * figure of the records of cases kase (a metric; NULL: each sample, one step of
 * a buffer's growth) against a parameter x (NULL: the size the buffer grew to),
 * a line per value of parameter line (NULL: of the case's part line_part, from
 * 0), a chart per case's first chart_parts parts (-1: the whole case) and value
 * of chart_param. A table of them ends with a NULL kase. */
struct hmb_chart {
	const char *kase;
	const char *figure, *x;
	const char *xcount;             /* x counts this; NULL: bytes */
	const char *xlabel;
	const char *line;
	int line_part;
	int chart_parts;
	const char *chart_param;
	const char *what, *ylabel;
	int ylinear;
	double ref;                     /* a line across (0: none) */
	const char *ref_label;
};

/* A heatmap of a pairwise case (rows: source, columns: destination), drawn
 * from the module's matrix of it (module.h); a table of them ends with a
 * NULL kase. */
struct hmb_heatmap {
	const char *kase, *about;
};

/* Bars of a figure with every GPU at once against each GPU alone, a group per
 * direction: from the records of case all (its metric sum_alone: the GPUs
 * alone, summed; gpu_metric with the GPU's number: each GPU's share) and of
 * case alone (a record per GPU), those whose parameter only_param is
 * only_value or absent; a dashed line at links times the GPUs' links. */
struct hmb_all_vs_alone_group {
	const char *label, *all, *alone;
	int links;
};

struct hmb_all_vs_alone {
	const char *title, *about, *legend;
	const char *sum_alone, *gpu_metric;
	const char *only_param, *only_value;
	struct hmb_all_vs_alone_group group[3];
};

#endif
