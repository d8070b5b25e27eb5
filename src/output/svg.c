/* svg.c - line plots as inline SVG (svg.h says how to read one). */
#include "output/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/sizes.h"
#include "util/util.h"

#define WIDTH 440
#define LEFT 58       /* room for the value labels */
#define RIGHT 14
#define TOP 30        /* the title */
#define PLOT_H 190
#define XLABELS 34    /* size labels and the axis name */
#define ROW 16        /* a legend line */

static const char *const colours[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
				       "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };
static const char *const dashes[] = { "", "6 3", "2 2", "8 3 2 3" };
#define NCOLOURS (sizeof(colours) / sizeof(colours[0]))

void hmb_xml_text(FILE *out, const char *text)
{
	for (const char *p = text; *p; p++)
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*p, out);
		}
}

void hmb_svg_point(struct hmb_svg_series *s, double x, double y)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->x = hmb_xrealloc(s->x, s->cap * sizeof(*s->x));
		s->y = hmb_xrealloc(s->y, s->cap * sizeof(*s->y));
	}
	s->x[s->n] = x;
	s->y[s->n++] = y;
}

void hmb_svg_series_free(struct hmb_svg_series *s)
{
	free(s->x);
	free(s->y);
	memset(s, 0, sizeof(*s));
}

/* A step of 1, 2, 2.5 or 5 x 10^k that reaches v in at most 5 steps. */
static double nice_step(double v)
{
	static const double m[] = { 1, 2, 2.5, 5 };
	double e = pow(10, floor(log10(v / 5)));

	for (int k = 0;; k++)
		if (ceil(v / (m[k % 4] * e * pow(10, k / 4)) - 1e-9) <= 5)
			return m[k % 4] * e * pow(10, k / 4);
}

static void number(char *buf, size_t len, double v)
{
	snprintf(buf, len, fabs(v) >= 100 || v == floor(v) ? "%.0f" : fabs(v) >= 1 ? "%.1f" :
		 "%.2g", v);
}

/* Sort a series' points by x (few points: insertion). */
static void sort_points(struct hmb_svg_series *s)
{
	for (size_t i = 1; i < s->n; i++)
		for (size_t j = i; j > 0 && s->x[j - 1] > s->x[j]; j--) {
			double t = s->x[j];
			s->x[j] = s->x[j - 1];
			s->x[j - 1] = t;
			t = s->y[j];
			s->y[j] = s->y[j - 1];
			s->y[j - 1] = t;
		}
}

void hmb_svg_plot(FILE *out, const struct hmb_svg_plot *p)
{
	double xmin = INFINITY, xmax = 0, ymax = 0, lo, hi, top, ystep;
	int height = TOP + PLOT_H + XLABELS + (int)p->ns * ROW + 6;
	int step;
	char buf[64];

	for (size_t i = 0; i < p->ns; i++) {
		sort_points(&p->s[i]);
		for (size_t k = 0; k < p->s[i].n; k++) {
			xmin = fmin(xmin, p->s[i].x[k]);
			xmax = fmax(xmax, p->s[i].x[k]);
			ymax = fmax(ymax, p->s[i].y[k]);
		}
	}
	if (!(xmax > 0) || !(xmin > 0))
		return;
	lo = floor(log2(xmin));
	hi = ceil(log2(xmax));
	if (hi <= lo)
		hi = lo + 1;
	ystep = ymax > 0 ? nice_step(ymax * 1.04) : 0.25;
	top = ystep * ceil(ymax * 1.04 / ystep - 1e-9);
	if (!(top > 0))
		top = 4 * ystep;
#define PX(v) (LEFT + (log2(v) - lo) / (hi - lo) * (WIDTH - LEFT - RIGHT))
#define PY(v) (TOP + PLOT_H - (v) / top * PLOT_H)
	fprintf(out, "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n<title>", WIDTH, height, WIDTH,
		height);
	hmb_xml_text(out, p->title);
	fprintf(out, "</title>\n<text class=\"title\" x=\"%d\" y=\"18\">", LEFT);
	hmb_xml_text(out, p->title);
	fprintf(out, "</text>\n<g class=\"axes\">\n");
	/* the value axis: 0 to top in round steps, grid lines across */
	for (int i = 0; i * ystep <= top * (1 + 1e-9); i++) {
		double v = i * ystep;
		number(buf, sizeof(buf), v);
		fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", LEFT,
			WIDTH - RIGHT, PY(v), PY(v), LEFT - 4, PY(v) + 4, buf);
	}
	fprintf(out, "<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" "
		"text-anchor=\"middle\">", TOP + PLOT_H / 2, TOP + PLOT_H / 2);
	hmb_xml_text(out, p->ylabel);
	fprintf(out, "</text>\n");
	/* the size axis: a tick at every power of 2, a label at every other one
	 * from the smallest (every one where the range is short) */
	step = hi - lo > 8 ? 2 : 1;
	for (int e = (int)lo; e <= (int)hi; e++) {
		double x = PX(ldexp(1, e));
		fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" class=\"tick\"/>", x,
			x, TOP + PLOT_H, TOP + PLOT_H + 4);
		if ((e - (int)lo) % step == 0 && e >= 0 && e < 60)
			fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x,
				TOP + PLOT_H + 16, hmb_format_size((size_t)1 << e, buf, sizeof(buf)));
		fputc('\n', out);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">size (bytes, log2)</text>\n",
		(LEFT + WIDTH - RIGHT) / 2, TOP + PLOT_H + 30);
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n"
		"</g>\n", LEFT, TOP, WIDTH - LEFT - RIGHT, PLOT_H);
	/* the series */
	for (size_t i = 0; i < p->ns; i++) {
		const struct hmb_svg_series *s = &p->s[i];
		const char *c = colours[i % NCOLOURS], *d = dashes[(i / NCOLOURS) % 4];
		fprintf(out, "<g class=\"series\" stroke=\"%s\" fill=\"%s\">\n<polyline fill=\"none\" "
			"stroke-width=\"1.6\"%s%s%s points=\"", c, c, *d ? " stroke-dasharray=\"" : "",
			d, *d ? "\"" : "");
		for (size_t k = 0; k < s->n; k++)
			fprintf(out, "%s%.1f,%.1f", k ? " " : "", PX(s->x[k]), PY(s->y[k]));
		fprintf(out, "\"/>\n");
		for (size_t k = 0; k < s->n; k++) {
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\"><title>", PX(s->x[k]),
				PY(s->y[k]));
			hmb_xml_text(out, s->label);
			number(buf, sizeof(buf), s->y[k]);
			fprintf(out, ": %s ", buf);
			hmb_xml_text(out, p->ylabel);
			fprintf(out, " at %s</title></circle>\n",
				hmb_format_size((size_t)s->x[k], buf, sizeof(buf)));
		}
		fprintf(out, "</g>\n");
	}
	/* the legend: a line each, under the panel */
	fprintf(out, "<g class=\"legend\">\n");
	for (size_t i = 0; i < p->ns; i++) {
		int x = LEFT, y = TOP + PLOT_H + XLABELS + 10 + (int)i * ROW;
		const char *d = dashes[(i / NCOLOURS) % 4];
		fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" "
			"stroke-width=\"2\"%s%s%s/><text x=\"%d\" y=\"%d\">", x, x + 18, y - 4, y - 4,
			colours[i % NCOLOURS], *d ? " stroke-dasharray=\"" : "", d, *d ? "\"" : "",
			x + 22, y);
		hmb_xml_text(out, p->s[i].label);
		fprintf(out, "</text>\n");
	}
	fprintf(out, "</g>\n</svg>\n");
#undef PX
#undef PY
}
