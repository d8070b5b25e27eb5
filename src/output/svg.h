/*
 * svg.h - plots as inline SVG for the HTML report (svg.c): curves against
 * size (or a count) on log-log axes (or a linear value axis), heatmaps of
 * GPU pairs and stacked bars. Each is one
 * <svg class="plot KIND"> (KIND: curves, heatmap, bars) with its title in a
 * <text class="title">; a curves plot has a <g class="series"> per series
 * and a <g class="legend"> of one <g class="entry"> per series.
 *
 * Every text is escaped and laid out within its SVG: a text's width is
 * reckoned at HMB_SVG_CHAR_EM of its font size a character (more than a
 * sans-serif font's average), and a text that would not fit its room is cut
 * with an ellipsis, its whole kept in a <title>. Nothing outside the SVG is
 * needed. Colours: the series of document i are hmb_svg_colour(i) in every
 * plot; within a plot, kinds are told apart by marker and dash (style).
 */
#ifndef HMB_SVG_H
#define HMB_SVG_H

#include <stddef.h>
#include <stdio.h>

#define HMB_SVG_CHAR_EM 0.62
#define HMB_SVG_MAX_SEGS 16
/* The most lines a curves plot is given: eight colours and as many markers
 * tell them apart; a chart of more is split (report_html.c). */
#define HMB_SVG_MAX_LINES 8

/* The colour of document i (the same in every plot and table of a report). */
const char *hmb_svg_colour(int i);

/* ---- curves: y against size (or a count), log2 x, log10 (or linear) y ---- */

struct hmb_svg_series {
	char label[224];
	int colour;           /* the document's index (hmb_svg_colour) */
	int style;            /* the kind's: marker and dash, the same for every document */
	double *x, *y;        /* x: bytes (or a count), > 0; y > 0 (any: linear); in any
			       * order (drawn sorted by x) */
	double *lo, *hi;      /* the band around y at each point; NAN: none */
	size_t n, cap;
};

/* A horizontal line across the plot (a physical peak), labelled. */
struct hmb_svg_hline {
	double y;
	int colour;           /* a document's index; -1: grey (several documents) */
	char label[96];
};

struct hmb_svg_plot {
	const char *title;
	const char *ylabel;   /* the unit, e.g. "GB/s" */
	struct hmb_svg_series *s;
	size_t ns;
	const struct hmb_svg_hline *h;
	size_t nh;
	const char *xcount;   /* x counts this ("chunks"), labelled 1, 2, 4, ...; NULL: bytes */
	const char *xlabel;   /* the x axis' name; NULL: "size (bytes, log2)" */
	int ylinear;          /* a linear value axis from 0 or below (values may be negative) */
};

/* Add a point to a series, with its band (lo, hi: NAN none). */
void hmb_svg_point(struct hmb_svg_series *s, double x, double y, double lo, double hi);
void hmb_svg_series_free(struct hmb_svg_series *s);

/* The plot as one <svg class="plot curves">: sizes on a log2 axis labelled
 * 4K, 16K, ... 1G (counts 1, 2, 4, ...), values on a log10 axis (or linear),
 * a band under each series where its points have one, the horizontal lines
 * dashed with their labels, and the legend under the plot, a column per
 * document. A series of many points has a marker on every few. Nothing where
 * no point can be drawn. */
void hmb_svg_curves(FILE *out, const struct hmb_svg_plot *p);

/* ---- a heatmap of GPU pairs ---- */

struct hmb_svg_heatmap {
	const char *title;
	const char *subtitle;
	const char *unit;     /* of the values, e.g. "GB/s" */
	int colour;           /* the document's: the scale runs from white to it */
	int n;                /* GPUs: rows (source) and columns (destination) */
	const double *v;      /* n x n, by rows; <= 0: no figure */
};

/* One <svg class="plot heatmap">: a cell per pair with its value, shaded
 * from 0 to the largest value, rows source, columns destination. */
void hmb_svg_heatmap(FILE *out, const struct hmb_svg_heatmap *m);

/* ---- stacked bars in groups ---- */

struct hmb_svg_bar {
	char label[24];       /* under the bar */
	double seg[HMB_SVG_MAX_SEGS]; /* stacked from 0, a segment each (a GPU's) */
	int nseg;
	char seg_label[HMB_SVG_MAX_SEGS][12];
	int light;            /* drawn lighter */
	char top[48];         /* over the bar */
};

struct hmb_svg_group {
	char label[24];       /* under the group */
	struct hmb_svg_bar bar[2];
	int nbar;
	double ref;           /* a dashed line across the group (0: none) */
	char ref_label[32];
};

struct hmb_svg_bars {
	const char *title;
	const char *subtitle;
	const char *ylabel;
	int colour;           /* the document's */
	const struct hmb_svg_group *g;
	int ng;
	const char *note;     /* a line under the plot ("" or NULL: none) */
};

/* One <svg class="plot bars">: each group's bars side by side on a linear
 * axis from 0. */
void hmb_svg_bars(FILE *out, const struct hmb_svg_bars *b);

/* text with &, <, > and " escaped for XML and HTML. */
void hmb_xml_text(FILE *out, const char *text);

#endif
