/* svg.c - plots as inline SVG (svg.h says how to read one). */
#include "output/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/table.h"
#include "util/sizes.h"
#include "util/util.h"

#define FONT 11       /* px: axis labels, legends */
#define TITLE_FONT 12
#define PAD 8         /* px kept free inside every edge */

/* curves */
#define C_WIDTH 660
#define C_LEFT 66     /* the value labels and the axis name */
#define C_RIGHT 18
#define C_TOP 34      /* the title */
#define C_PLOT_H 250
#define C_BELOW 40    /* the size labels and the axis name */
#define C_ROW 17      /* a legend line */

static const char *const colours[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
				       "#8c564b", "#e377c2", "#17becf" };
#define NCOLOURS (sizeof(colours) / sizeof(colours[0]))
static const char *const dashes[] = { "", "7 3", "2 2", "9 3 2 3" };
#define NDASHES (sizeof(dashes) / sizeof(dashes[0]))
#define NMARKERS 8

const char *hmb_svg_colour(int i)
{
	return i < 0 ? "#666666" : colours[(size_t)i % NCOLOURS];
}

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

/* The width text takes at a font size, reckoned wide. */
static double width_of(const char *s, double font)
{
	return (double)hmb_text_columns(s) * HMB_SVG_CHAR_EM * font;
}

/* text, escaped, within room px at a font size: cut (between characters)
 * with an ellipsis where it would not fit. */
static void text_fit(FILE *out, const char *s, double room, double font)
{
	size_t keep, n = 0;
	const char *p;
	char *cut;

	if (width_of(s, font) <= room) {
		hmb_xml_text(out, s);
		return;
	}
	keep = room > 2 * HMB_SVG_CHAR_EM * font ? (size_t)(room / (HMB_SVG_CHAR_EM * font)) - 1 : 0;
	for (p = s; *p; p++)
		if (((unsigned char)*p & 0xC0) != 0x80 && n++ == keep)
			break;
	cut = hmb_xstrdup(s);
	cut[p - s] = '\0';
	hmb_xml_text(out, cut);
	fputs("\xe2\x80\xa6", out); /* ... */
	free(cut);
}

/* <text ...>s</text>, fitted, with s whole in a <title> where it was cut. */
static void text_el(FILE *out, const char *attrs, const char *s, double room, double font)
{
	fprintf(out, "<text %s>", attrs);
	if (width_of(s, font) > room) {
		fputs("<title>", out);
		hmb_xml_text(out, s);
		fputs("</title>", out);
	}
	text_fit(out, s, room, font);
	fputs("</text>", out);
}

#define MAX_LINES 4
#define LINE 14       /* px from one line of FONT text to the next */

/* s in at most MAX_LINES lines of room px, broken between words (a word
 * wider than the room is cut where it is written: text_fit); how many. */
static int wrap(const char *s, double room, double font, char lines[MAX_LINES][200])
{
	int n = 0;

	while (n < MAX_LINES) {
		size_t len, fit = 0, at = 0;
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		len = strlen(s);
		for (size_t k = 0; k <= len; k++)
			if (s[k] == ' ' || !s[k]) {
				char part[200];
				snprintf(part, sizeof(part), "%.*s", (int)k, s);
				if (width_of(part, font) > room && fit)
					break;
				fit = k;
				at = k;
			}
		if (n == MAX_LINES - 1)
			at = len; /* the last line takes the rest (cut where written) */
		snprintf(lines[n++], 200, "%.*s", (int)(at < 199 ? at : 199), s);
		s += at;
	}
	return n;
}

/* Lines of text at x from y down, each fitted. */
static void text_lines(FILE *out, const char *cls, double x, double y, char lines[][200], int n,
		       double room)
{
	char attrs[96];

	for (int i = 0; i < n; i++) {
		snprintf(attrs, sizeof(attrs), "class=\"%s\" x=\"%.0f\" y=\"%.0f\"", cls, x,
			 y + i * LINE);
		text_el(out, attrs, lines[i], room, FONT);
		fputc('\n', out);
	}
}

void hmb_svg_point(struct hmb_svg_series *s, double x, double y, double lo, double hi)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->x = hmb_xrealloc(s->x, s->cap * sizeof(*s->x));
		s->y = hmb_xrealloc(s->y, s->cap * sizeof(*s->y));
		s->lo = hmb_xrealloc(s->lo, s->cap * sizeof(*s->lo));
		s->hi = hmb_xrealloc(s->hi, s->cap * sizeof(*s->hi));
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->lo[s->n] = lo;
	s->hi[s->n++] = hi;
}

void hmb_svg_series_free(struct hmb_svg_series *s)
{
	free(s->x);
	free(s->y);
	free(s->lo);
	free(s->hi);
	memset(s, 0, sizeof(*s));
}

/* A value for an axis: 0.05, 2, 1000, 20k, 5M. */
static const char *axis_number(double v, char *buf, size_t len)
{
	if (v >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
	return buf;
}

/* A value for people: 3 significant digits, whole above 100. */
static const char *value_text(double v, char *buf, size_t len)
{
	snprintf(buf, len, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.3g", v);
	return buf;
}

/* Sort a series' points by x (few points: insertion). */
static void sort_points(struct hmb_svg_series *s)
{
	for (size_t i = 1; i < s->n; i++)
		for (size_t j = i; j > 0 && s->x[j - 1] > s->x[j]; j--) {
#define SWAP(a) do { double t = (a)[j]; (a)[j] = (a)[j - 1]; (a)[j - 1] = t; } while (0)
			SWAP(s->x);
			SWAP(s->y);
			SWAP(s->lo);
			SWAP(s->hi);
#undef SWAP
		}
}

/* 1, 2 or 5 x 10^k: the largest at most v (down) or the least at least v. */
static double round_125(double v, int up)
{
	static const double m[] = { 1, 2, 5, 10 };
	double e = pow(10, floor(log10(v)));

	if (up) {
		for (int i = 0; i < 4; i++)
			if (m[i] * e >= v * (1 - 1e-9))
				return m[i] * e;
		return 10 * e;
	}
	for (int i = 3; i >= 0; i--)
		if (m[i] * e <= v * (1 + 1e-9))
			return m[i] * e;
	return e;
}

/* A marker of a style at (x, y), its element left open (for a <title>);
 * returns the text that closes it. */
static const char *marker(FILE *out, int style, double x, double y)
{
	switch (style % NMARKERS) {
	case 0:
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.2\">", x, y);
		return "</circle>";
	case 1:
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"5.8\" height=\"5.8\">", x - 2.9,
			y - 2.9);
		return "</rect>";
	case 2:
		fprintf(out, "<path d=\"M%.1f %.1fl3.6 6.2h-7.2z\">", x, y - 4.0);
		return "</path>";
	case 3:
		fprintf(out, "<path d=\"M%.1f %.1fl3.8 3.8l-3.8 3.8l-3.8-3.8z\">", x, y - 3.8);
		return "</path>";
	case 4:
		fprintf(out, "<path d=\"M%.1f %.1fl3.6-6.2h-7.2z\">", x, y + 4.0);
		return "</path>";
	case 5:
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.2\" fill=\"#fff\" "
			"stroke-width=\"1.5\">", x, y);
		return "</circle>";
	case 6:
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"5.8\" height=\"5.8\" "
			"fill=\"#fff\" stroke-width=\"1.5\">", x - 2.9, y - 2.9);
		return "</rect>";
	default:
		fprintf(out, "<path d=\"M%.1f %.1fl7 7m0-7l-7 7\" stroke-width=\"1.8\">", x - 3.5,
			y - 3.5);
		return "</path>";
	}
}

static const char *dash_attr(int style, char *buf, size_t len)
{
	const char *d = dashes[(size_t)style % NDASHES];

	if (*d)
		snprintf(buf, len, " stroke-dasharray=\"%s\"", d);
	else if (len)
		buf[0] = '\0';
	return buf;
}

/* ---- curves ------------------------------------------------------------------ */

struct legend {
	int ncols, nrows;
	int *col, *row;       /* each series' cell */
	double room;          /* for a label */
};

/* A column per document, a row per kind where every label fits its
 * column; else as many columns as the longest label allows, the entries in
 * rows (kind by kind, each kind's documents in order). */
static void legend_layout(const struct hmb_svg_plot *p, struct legend *g)
{
	int colour_rank[64], style_rank[64], nc = 0, nr = 0;
	double longest = 0, width = C_WIDTH - C_LEFT - PAD;

	g->col = hmb_xcalloc(p->ns + 1, sizeof(int));
	g->row = hmb_xcalloc(p->ns + 1, sizeof(int));
	for (int k = 0; k < 64; k++)
		colour_rank[k] = style_rank[k] = -1;
	for (size_t i = 0; i < p->ns; i++) {
		int c = p->s[i].colour & 63, st = p->s[i].style & 63;
		if (colour_rank[c] < 0)
			colour_rank[c] = nc++;
		if (style_rank[st] < 0)
			style_rank[st] = nr++;
		longest = fmax(longest, width_of(p->s[i].label, FONT));
	}
	/* columns in the order of the documents, rows in the order of the kinds */
	for (int c = 0, k = 0; c < 64; c++)
		if (colour_rank[c] >= 0)
			colour_rank[c] = k++;
	for (int st = 0, k = 0; st < 64; st++)
		if (style_rank[st] >= 0)
			style_rank[st] = k++;
	g->ncols = nc > 0 ? nc : 1;
	g->room = width / g->ncols - 30;
	for (size_t i = 0; i < p->ns; i++) {
		g->col[i] = colour_rank[p->s[i].colour & 63];
		g->row[i] = style_rank[p->s[i].style & 63];
	}
	g->nrows = nr;
	if (nc > 1 && longest > g->room) {
		int ncols = (int)(width / (longest + 30));
		size_t *at = hmb_xcalloc(p->ns + 1, sizeof(*at));
		g->ncols = ncols > 1 ? ncols : 1;
		g->room = width / g->ncols - 30;
		for (size_t i = 0; i < p->ns; i++) /* entries before this one, kind by kind */
			for (size_t j = 0; j < p->ns; j++)
				at[i] += g->row[j] < g->row[i] ||
					 (g->row[j] == g->row[i] && g->col[j] < g->col[i]);
		for (size_t i = 0; i < p->ns; i++) {
			g->col[i] = (int)(at[i] % (size_t)g->ncols);
			g->row[i] = (int)(at[i] / (size_t)g->ncols);
		}
		g->nrows = (int)((p->ns + (size_t)g->ncols - 1) / (size_t)g->ncols);
		free(at);
	}
}

/* The value axis: log10 from lo to hi, or linear in steps of step. */
struct yaxis {
	int linear;
	double lo, hi, step;
};

static double y_px(const struct yaxis *a, double v)
{
	double f = a->linear ? (v - a->lo) / (a->hi - a->lo)
			     : (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	return C_TOP + C_PLOT_H - f * C_PLOT_H;
}

/* Can v be drawn on the axis (positive where logarithmic)? */
static int drawable(const struct yaxis *a, double v)
{
	return isfinite(v) && (a->linear || v > 0);
}

static double nice_step(double v);

/* The value axis over [ymin, ymax]: 1, 2, 5 x 10^k at its ends (log), or
 * from 0 (or below) in nice steps (linear). */
static void y_range(struct yaxis *a, double ymin, double ymax)
{
	if (a->linear) {
		double lo = fmin(ymin, 0), hi = fmax(ymax, lo + 1e-12);
		a->step = nice_step(hi - lo);
		a->lo = a->step * floor(lo / a->step + 1e-9);
		a->hi = a->step * ceil(hi / a->step - 1e-9);
		if (a->hi <= a->lo)
			a->hi = a->lo + a->step;
		return;
	}
	a->lo = round_125(ymin, 0);
	a->hi = round_125(ymax, 1);
	if (a->hi <= a->lo)
		a->hi = round_125(a->lo * 1.5, 1);
}

/* Markers on every few points of a series of many (every point of a short one). */
#define MARKED_POINTS 24

void hmb_svg_curves(FILE *out, const struct hmb_svg_plot *p)
{
	double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = -INFINITY, xlo, xhi, span;
	double plot_w = C_WIDTH - C_LEFT - C_RIGHT, last_label = -100;
	struct yaxis ya = { p->ylinear, 0, 0, 0 };
	size_t order[64];
	struct legend g;
	int height, step;
	char buf[64], dash[48], attrs[160];

	for (size_t i = 0; i < p->ns; i++) {
		sort_points(&p->s[i]);
		for (size_t k = 0; k < p->s[i].n; k++) {
			if (!(p->s[i].x[k] > 0) || !drawable(&ya, p->s[i].y[k]))
				continue;
			xmin = fmin(xmin, p->s[i].x[k]);
			xmax = fmax(xmax, p->s[i].x[k]);
			ymin = fmin(ymin, p->s[i].y[k]);
			ymax = fmax(ymax, p->s[i].y[k]);
			if (drawable(&ya, p->s[i].lo[k]))
				ymin = fmin(ymin, p->s[i].lo[k]);
			if (isfinite(p->s[i].hi[k]))
				ymax = fmax(ymax, p->s[i].hi[k]);
		}
	}
	if (p->nh > 64)
		return;
	if (!(ymax >= ymin))
		return; /* nothing to draw */
	for (size_t i = 0; i < p->nh; i++)
		if (drawable(&ya, p->h[i].y)) {
			ymin = fmin(ymin, p->h[i].y);
			/* room for its label over it */
			ymax = fmax(ymax, ya.linear ? p->h[i].y + 0.12 * (ymax - fmin(ymin, 0))
						    : p->h[i].y * 1.12);
		}
	if (!(xmin > 0) || !(xmax >= xmin) || !isfinite(ymax) || !isfinite(xmax))
		return;
	xlo = floor(log2(xmin));
	xhi = ceil(log2(xmax));
	if (xhi <= xlo)
		xhi = xlo + 1;
	y_range(&ya, ymin, ymax);
	legend_layout(p, &g);
	height = C_TOP + C_PLOT_H + C_BELOW + g.nrows * C_ROW + PAD;
#define PX(v) (C_LEFT + (log2(v) - xlo) / (xhi - xlo) * plot_w)
#define PY(v) y_px(&ya, (v))
	fprintf(out, "<svg class=\"plot curves\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n<title>", C_WIDTH, height,
		C_WIDTH, height);
	hmb_xml_text(out, p->title);
	fprintf(out, "</title>\n");
	snprintf(attrs, sizeof(attrs), "class=\"title\" x=\"%d\" y=\"20\"", PAD);
	text_el(out, attrs, p->title, C_WIDTH - 2 * PAD, TITLE_FONT);
	fprintf(out, "\n<g class=\"axes\">\n");
	if (ya.linear) {
		/* a label and a grid line at every step */
		for (double v = ya.lo; v <= ya.hi + ya.step * 1e-6; v += ya.step) {
			double y = PY(v), shown = fabs(v) < ya.step * 1e-6 ? 0 : v;
			fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"tick\"/>"
				"<line x1=\"%d\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
				"<text class=\"ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
				C_LEFT - 4, C_LEFT, y, y, C_LEFT, C_LEFT + plot_w, y, y, C_LEFT - 6,
				y + 4, shown);
		}
	} else {
		/* a tick at every 1..9 x 10^k, a label and a grid line at 1, 2 and 5 x
		 * 10^k (at 10^k alone over more than 2.5 decades) */
		span = log10(ya.hi / ya.lo);
		for (double e = pow(10, floor(log10(ya.lo))); e <= ya.hi * 1.0001; e *= 10)
			for (int m = 1; m <= 9; m++) {
				double v = m * e, y;
				int label = m == 1 || (span <= 2.5 && (m == 2 || m == 5));
				if (v < ya.lo * 0.9999 || v > ya.hi * 1.0001)
					continue;
				y = PY(v);
				fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
					"class=\"tick\"/>", C_LEFT - 4, C_LEFT, y, y);
				if (label)
					fprintf(out, "<line x1=\"%d\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
						"class=\"grid\"/><text class=\"ytick\" x=\"%d\" y=\"%.1f\" "
						"text-anchor=\"end\">%s</text>", C_LEFT, C_LEFT + plot_w, y,
						y, C_LEFT - 6, y + 4, axis_number(v, buf, sizeof(buf)));
				fputc('\n', out);
			}
	}
	fprintf(out, "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" "
		"text-anchor=\"middle\">", C_TOP + C_PLOT_H / 2, C_TOP + C_PLOT_H / 2);
	text_fit(out, p->ylabel, C_PLOT_H - 40, FONT);
	fprintf(out, "%s</text>\n", ya.linear ? "" : " (log)");
	/* the x axis: a tick at every power of 2, a label every step of them from
	 * the smallest, so that about ten fit */
	step = xhi - xlo > 10 ? (int)ceil((xhi - xlo) / 10) : 1;
	if (step > 1 && step % 2)
		step++;
	for (int e = (int)xlo; e <= (int)xhi; e++) {
		double x = PX(ldexp(1, e));
		fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" class=\"tick\"/>", x,
			x, C_TOP + C_PLOT_H, C_TOP + C_PLOT_H + 4);
		if ((e - (int)xlo) % step == 0 && e >= 0 && e < 60)
			fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" class=\"grid\"/>"
				"<text class=\"xtick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s"
				"</text>", x, x, C_TOP, C_TOP + C_PLOT_H, x, C_TOP + C_PLOT_H + 16,
				p->xcount ? axis_number(ldexp(1, e), buf, sizeof(buf))
					  : hmb_format_size((size_t)1 << e, buf, sizeof(buf)));
		fputc('\n', out);
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">", C_LEFT + plot_w / 2,
		C_TOP + C_PLOT_H + 32);
	text_fit(out, p->xlabel ? p->xlabel : "size (bytes, log2)", plot_w, FONT);
	fprintf(out, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%d\" "
		"class=\"frame\"/>\n</g>\n", C_LEFT, C_TOP, plot_w, C_PLOT_H);
	/* the lines across, each labelled at the left (where curves against size
	 * are low): over the line, under it where the label before or the top is
	 * too near, and on a white halo */
	for (size_t i = 0; i < p->nh; i++)
		order[i] = i;
	for (size_t i = 1; i < p->nh; i++)
		for (size_t j = i; j > 0 && p->h[order[j - 1]].y < p->h[order[j]].y; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (size_t k = 0; k < p->nh; k++) {
		const struct hmb_svg_hline *h = &p->h[order[k]];
		double y, ly;
		if (!drawable(&ya, h->y))
			continue;
		y = PY(h->y);
		ly = y - 4;
		if (ly - FONT < C_TOP || ly - last_label < FONT + 2)
			ly = y + FONT + 2;
		if (ly - last_label < FONT + 2)
			ly = last_label + FONT + 2;
		last_label = ly;
		fprintf(out, "<g class=\"peak\"><line x1=\"%d\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"1.2\" stroke-dasharray=\"5 3\"/>", C_LEFT,
			C_LEFT + plot_w, y, y, hmb_svg_colour(h->colour));
		snprintf(attrs, sizeof(attrs), "x=\"%d\" y=\"%.1f\" fill=\"%s\" stroke=\"#fff\" "
			 "stroke-width=\"3\" paint-order=\"stroke\"", C_LEFT + 4, ly,
			 hmb_svg_colour(h->colour));
		text_el(out, attrs, h->label, plot_w - 8, FONT);
		fprintf(out, "</g>\n");
	}
	/* the bands, under every line */
	for (size_t i = 0; i < p->ns; i++) {
		const struct hmb_svg_series *s = &p->s[i];
		size_t k = 0;
		while (k < s->n) {
			size_t a = k, b;
			if (!drawable(&ya, s->lo[k]) || !isfinite(s->hi[k])) {
				k++;
				continue;
			}
			for (b = a; b < s->n && drawable(&ya, s->lo[b]) && isfinite(s->hi[b]); b++)
				;
			if (b - a >= 2) {
				fprintf(out, "<polygon class=\"band\" fill=\"%s\" fill-opacity=\"0.18\" "
					"points=\"", hmb_svg_colour(s->colour));
				for (size_t j = a; j < b; j++)
					fprintf(out, "%.1f,%.1f ", PX(s->x[j]), PY(s->hi[j]));
				for (size_t j = b; j-- > a;)
					fprintf(out, "%.1f,%.1f%s", PX(s->x[j]), PY(s->lo[j]),
						j > a ? " " : "");
				fprintf(out, "\"/>\n");
			}
			k = b;
		}
	}
	/* the series */
	for (size_t i = 0; i < p->ns; i++) {
		const struct hmb_svg_series *s = &p->s[i];
		const char *c = hmb_svg_colour(s->colour);
		size_t every = s->n > MARKED_POINTS ? (s->n + MARKED_POINTS - 1) / MARKED_POINTS : 1;
		int first = 1;
		fprintf(out, "<g class=\"series\" stroke=\"%s\" fill=\"%s\">\n<polyline fill=\"none\" "
			"stroke-width=\"1.7\"%s points=\"", c, c, dash_attr(s->style, dash, sizeof(dash)));
		for (size_t k = 0; k < s->n; k++)
			if (s->x[k] > 0 && drawable(&ya, s->y[k])) {
				fprintf(out, "%s%.1f,%.1f", first ? "" : " ", PX(s->x[k]), PY(s->y[k]));
				first = 0;
			}
		fprintf(out, "\"/>\n");
		for (size_t k = 0; k < s->n; k++) {
			const char *end;
			if (!(s->x[k] > 0) || !drawable(&ya, s->y[k]) ||
			    (k % every && k + 1 != s->n))
				continue;
			end = marker(out, s->style, PX(s->x[k]), PY(s->y[k]));
			fputs("<title>", out);
			hmb_xml_text(out, s->label);
			fprintf(out, ": %s ", value_text(s->y[k], buf, sizeof(buf)));
			hmb_xml_text(out, p->ylabel);
			if (p->xcount) {
				fputs(" at ", out);
				hmb_xml_text(out, p->xcount);
				fprintf(out, "=%g", s->x[k]);
			} else {
				fprintf(out, " at %s", hmb_format_size((size_t)s->x[k], buf, sizeof(buf)));
			}
			if (drawable(&ya, s->lo[k]) && isfinite(s->hi[k]))
				fprintf(out, ", run-to-run +-%.1f%%",
					50 * (s->hi[k] - s->lo[k]) / s->y[k]);
			fprintf(out, "</title>%s\n", end);
		}
		fprintf(out, "</g>\n");
	}
	/* the legend: a column per document, a row per kind */
	fprintf(out, "<g class=\"legend\">\n");
	for (size_t i = 0; i < p->ns; i++) {
		const struct hmb_svg_series *s = &p->s[i];
		double colw = (C_WIDTH - C_LEFT - PAD) / (double)g.ncols;
		double x = C_LEFT + g.col[i] * colw;
		int y = C_TOP + C_PLOT_H + C_BELOW + 8 + g.row[i] * C_ROW;
		const char *c = hmb_svg_colour(s->colour);
		fprintf(out, "<g class=\"entry\" stroke=\"%s\" fill=\"%s\"><line x1=\"%.1f\" "
			"x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke-width=\"1.7\"%s/>", c, c, x, x + 22,
			y - 4, y - 4, dash_attr(s->style, dash, sizeof(dash)));
		fputs(marker(out, s->style, x + 11, y - 4), out);
		snprintf(attrs, sizeof(attrs), "x=\"%.1f\" y=\"%d\" stroke=\"none\" fill=\"#222\"",
			 x + 28, y);
		text_el(out, attrs, s->label, g.room, FONT);
		fprintf(out, "</g>\n");
	}
	fprintf(out, "</g>\n</svg>\n");
	free(g.col);
	free(g.row);
#undef PX
#undef PY
}

/* ---- heatmaps ------------------------------------------------------------------ */

/* #rrggbb of colour mixed with white: t 0 white, 1 the colour. */
static void mix(const char *colour, double t, char *buf, size_t len, double *luminance)
{
	unsigned r, g, b;

	if (sscanf(colour, "#%02x%02x%02x", &r, &g, &b) != 3)
		r = g = b = 0x66;
	r = (unsigned)lround(255 - (255 - (double)r) * t);
	g = (unsigned)lround(255 - (255 - (double)g) * t);
	b = (unsigned)lround(255 - (255 - (double)b) * t);
	snprintf(buf, len, "#%02x%02x%02x", r & 255, g & 255, b & 255);
	*luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

void hmb_svg_heatmap(FILE *out, const struct hmb_svg_heatmap *m)
{
	const int left = 74, n = m->n;
	int cell = n > 0 && 320 / n < 64 ? 320 / n : 64, width = 360, height, top, nsub;
	double vmax = 0, lum;
	const char *c = hmb_svg_colour(m->colour);
	char buf[160], fill[16], sub[MAX_LINES][200];

	if (n < 1)
		return;
	if (cell < 18)
		cell = 18;
	for (int i = 0; i < n * n; i++)
		vmax = fmax(vmax, m->v[i]);
	if (!(vmax > 0))
		return;
	if (left + n * cell + 24 > width)
		width = left + n * cell + 24;
	nsub = wrap(m->subtitle ? m->subtitle : "", width - 2 * PAD, FONT, sub);
	top = 34 + nsub * LINE + 30;
	height = top + n * cell + 52;
	fprintf(out, "<svg class=\"plot heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n<title>", width, height, width,
		height);
	hmb_xml_text(out, m->title);
	fprintf(out, "</title>\n");
	snprintf(buf, sizeof(buf), "class=\"title\" x=\"%d\" y=\"18\"", PAD);
	text_el(out, buf, m->title, width - 2 * PAD, TITLE_FONT);
	fputc('\n', out);
	text_lines(out, "sub", PAD, 34, sub, nsub, width - 2 * PAD);
	fprintf(out, "\n<g class=\"axes\">\n<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">"
		"destination</text>\n<text x=\"14\" y=\"%.0f\" transform=\"rotate(-90 14 %.0f)\" "
		"text-anchor=\"middle\">source</text>\n", left + n * cell / 2.0, top - 20,
		top + n * cell / 2.0, top + n * cell / 2.0);
	for (int j = 0; j < n; j++) {
		char name[16];
		snprintf(name, sizeof(name), "GPU %d", j);
		snprintf(buf, sizeof(buf), "x=\"%.1f\" y=\"%d\" text-anchor=\"middle\"",
			 left + (j + 0.5) * cell, top - 5);
		text_el(out, buf, name, cell, FONT);
		snprintf(buf, sizeof(buf), "x=\"%d\" y=\"%.1f\" text-anchor=\"end\"", left - 5,
			 top + (j + 0.5) * cell + 4);
		text_el(out, buf, name, left - 30, FONT);
		fputc('\n', out);
	}
	fprintf(out, "</g>\n<g class=\"cells\">\n");
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double v = m->v[i * n + j], x = left + j * cell, y = top + i * cell;
			char val[32];
			if (v > 0) {
				mix(c, 0.08 + 0.92 * v / vmax, fill, sizeof(fill), &lum);
				value_text(v, val, sizeof(val));
			} else {
				snprintf(fill, sizeof(fill), "%s", i == j ? "#eeeeee" : "#ffffff");
				snprintf(val, sizeof(val), "%s", i == j ? "-" : "n/a");
				lum = 1;
			}
			fprintf(out, "<g class=\"cell\"><rect x=\"%.0f\" y=\"%.0f\" width=\"%d\" "
				"height=\"%d\" fill=\"%s\" stroke=\"#fff\"><title>GPU %d to GPU %d: %s%s"
				"%s</title></rect>", x, y, cell, cell, fill, i, j, val,
				v > 0 ? " " : "", v > 0 ? m->unit : "");
			if (width_of(val, FONT) <= cell - 4)
				fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
					"fill=\"%s\">%s</text>", x + cell / 2.0, y + cell / 2.0 + 4,
					lum < 0.55 ? "#fff" : "#222", val);
			fprintf(out, "</g>\n");
		}
	fprintf(out, "</g>\n<g class=\"scale\">\n");
	/* the scale: five steps from white to the colour */
	for (int k = 0; k < 5; k++) {
		mix(c, 0.08 + 0.92 * (k + 0.5) / 5, fill, sizeof(fill), &lum);
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"24\" height=\"10\" fill=\"%s\"/>",
			left + 30 + 24 * k, top + n * cell + 16, fill);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>", left + 26,
		top + n * cell + 25);
	snprintf(buf, sizeof(buf), "x=\"%d\" y=\"%d\"", left + 30 + 24 * 5 + 4, top + n * cell + 25);
	{
		char label[64], v[32];
		snprintf(label, sizeof(label), "%s %s", value_text(vmax, v, sizeof(v)), m->unit);
		text_el(out, buf, label, width - (left + 30 + 24 * 5 + 4) - PAD, FONT);
	}
	fprintf(out, "\n</g>\n</svg>\n");
}

/* ---- bars ------------------------------------------------------------------------ */

/* A step of 1, 2, 2.5 or 5 x 10^k that reaches v in at most 5 steps. */
static double nice_step(double v)
{
	static const double m[] = { 1, 2, 2.5, 5 };
	double e = pow(10, floor(log10(v / 5)));

	for (int k = 0;; k++)
		if (ceil(v / (m[k % 4] * e * pow(10, k / 4)) - 1e-9) <= 5)
			return m[k % 4] * e * pow(10, k / 4);
}

#define B_WIDTH 660
#define B_LEFT 66
#define B_RIGHT 18
#define B_PLOT_H 240

void hmb_svg_bars(FILE *out, const struct hmb_svg_bars *b)
{
	double top = 0, step, plot_w = B_WIDTH - B_LEFT - B_RIGHT, gw;
	const char *c = hmb_svg_colour(b->colour);
	char buf[160], sub[MAX_LINES][200], note[MAX_LINES][200];
	int nsub = wrap(b->subtitle ? b->subtitle : "", B_WIDTH - 2 * PAD, FONT, sub);
	int nnote = wrap(b->note ? b->note : "", B_WIDTH - 2 * PAD, FONT, note);
	int btop = 34 + nsub * LINE + 12, height = btop + B_PLOT_H + 44 + nnote * LINE + PAD;

	if (b->ng < 1)
		return;
	for (int i = 0; i < b->ng; i++) {
		for (int k = 0; k < b->g[i].nbar; k++) {
			double sum = 0;
			for (int s = 0; s < b->g[i].bar[k].nseg; s++)
				sum += b->g[i].bar[k].seg[s];
			top = fmax(top, sum);
		}
		top = fmax(top, b->g[i].ref);
	}
	if (!(top > 0) || !isfinite(top))
		return;
	step = nice_step(top * 1.12);
	top = step * ceil(top * 1.12 / step - 1e-9);
	gw = plot_w / b->ng;
#define PY(v) (btop + B_PLOT_H - (v) / top * B_PLOT_H)
	fprintf(out, "<svg class=\"plot bars\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n<title>", B_WIDTH, height,
		B_WIDTH, height);
	hmb_xml_text(out, b->title);
	fprintf(out, "</title>\n");
	snprintf(buf, sizeof(buf), "class=\"title\" x=\"%d\" y=\"18\"", PAD);
	text_el(out, buf, b->title, B_WIDTH - 2 * PAD, TITLE_FONT);
	fputc('\n', out);
	text_lines(out, "sub", PAD, 34, sub, nsub, B_WIDTH - 2 * PAD);
	fprintf(out, "<g class=\"axes\">\n");
	for (int i = 0; i * step <= top * (1 + 1e-9); i++) {
		double v = i * step;
		fprintf(out, "<line x1=\"%d\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
			"<text class=\"ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			B_LEFT, B_LEFT + plot_w, PY(v), PY(v), B_LEFT - 6, PY(v) + 4,
			axis_number(v, buf, sizeof(buf)));
	}
	fprintf(out, "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" "
		"text-anchor=\"middle\">", btop + B_PLOT_H / 2, btop + B_PLOT_H / 2);
	text_fit(out, b->ylabel, B_PLOT_H, FONT);
	fprintf(out, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%d\" "
		"class=\"frame\"/>\n</g>\n", B_LEFT, btop, plot_w, B_PLOT_H);
	for (int i = 0; i < b->ng; i++) {
		const struct hmb_svg_group *gr = &b->g[i];
		double gx = B_LEFT + i * gw, bw = fmin(80, gw / (gr->nbar + 1.2));
		fprintf(out, "<g class=\"group\">\n");
		for (int k = 0; k < gr->nbar; k++) {
			const struct hmb_svg_bar *bar = &gr->bar[k];
			double x = gx + gw / 2 + (k - gr->nbar / 2.0) * (bw + 6) + 3, base = 0;
			fprintf(out, "<g class=\"bar\" fill=\"%s\" fill-opacity=\"%s\">", c,
				bar->light ? "0.4" : "1");
			for (int s = 0; s < bar->nseg; s++) {
				double h = bar->seg[s] / top * B_PLOT_H;
				if (!(bar->seg[s] > 0))
					continue;
				fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
					"stroke=\"#fff\"><title>%s: ", x, PY(base + bar->seg[s]), bw, h,
					bar->seg_label[s]);
				fprintf(out, "%s</title></rect>", value_text(bar->seg[s], buf, sizeof(buf)));
				if (h >= 15 && width_of(bar->seg_label[s], 10) <= bw - 4)
					fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
						"font-size=\"10\" fill=\"%s\" fill-opacity=\"1\">%s</text>",
						x + bw / 2, PY(base + bar->seg[s] / 2) + 3.5,
						bar->light ? "#222" : "#fff", bar->seg_label[s]);
				base += bar->seg[s];
			}
			fprintf(out, "</g>");
			snprintf(buf, sizeof(buf), "x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\"",
				 x + bw / 2, PY(base) - 4);
			text_el(out, buf, bar->top, gw / gr->nbar, FONT);
			snprintf(buf, sizeof(buf), "x=\"%.1f\" y=\"%d\" text-anchor=\"middle\"",
				 x + bw / 2, btop + B_PLOT_H + 15);
			text_el(out, buf, bar->label, gw / gr->nbar - 4, FONT);
			fputc('\n', out);
		}
		if (gr->ref > 0) {
			fprintf(out, "<line class=\"ref\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
				"y2=\"%.1f\" stroke=\"#444\" stroke-dasharray=\"5 3\"/>", gx + 6,
				gx + gw - 6, PY(gr->ref), PY(gr->ref));
			snprintf(buf, sizeof(buf), "x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
				 "fill=\"#444\"", gx + gw - 8, PY(gr->ref) - 4);
			text_el(out, buf, gr->ref_label, gw - 16, FONT);
		}
		snprintf(buf, sizeof(buf), "x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
			 "font-weight=\"bold\"", gx + gw / 2, btop + B_PLOT_H + 32);
		text_el(out, buf, gr->label, gw - 8, FONT);
		fprintf(out, "\n</g>\n");
	}
	text_lines(out, "note", PAD, btop + B_PLOT_H + 52, note, nnote, B_WIDTH - 2 * PAD);
	fprintf(out, "</svg>\n");
#undef PY
}
