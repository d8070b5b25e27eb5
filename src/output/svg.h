/*
 * svg.h - a small writer of line plots as inline SVG, for the HTML report:
 * one panel, a log2 size axis (ticks 4K, 64K, 1M, ...), a linear value
 * axis from 0 scaled to hold every series, one coloured line with dots per
 * series and a legend under the panel naming each one. Every text is
 * escaped; the SVG needs nothing outside itself.
 */
#ifndef HMB_SVG_H
#define HMB_SVG_H

#include <stddef.h>
#include <stdio.h>

struct hmb_svg_series {
	char label[96];
	double *x, *y;        /* x: bytes, > 0; in any order (drawn sorted by x) */
	size_t n, cap;
};

struct hmb_svg_plot {
	const char *title;
	const char *ylabel;   /* the unit, e.g. "GB/s" */
	struct hmb_svg_series *s;
	size_t ns;
};

/* Add a point to a series. */
void hmb_svg_point(struct hmb_svg_series *s, double x, double y);
void hmb_svg_series_free(struct hmb_svg_series *s);

/* The plot as one <svg class="plot"> element; its legend is a
 * <g class="legend"> of one <text> per series. */
void hmb_svg_plot(FILE *out, const struct hmb_svg_plot *p);

/* text with &, <, > and " escaped for XML and HTML. */
void hmb_xml_text(FILE *out, const char *text);

#endif
