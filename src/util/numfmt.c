/*
 * numfmt.c - printf's "%.Ng" and "%.Nf" of the numbers in compare's tables,
 * without printf where the rounding is plain: a comparison of 300 000
 * figures prints over a million of them, and printf's exact decimal
 * conversion is most of the time it takes to print. The value is scaled to
 * N digits with double arithmetic; where the digit that decides the
 * rounding lies within a millionth of a half (a tie, or too close to tell
 * what printf's exact conversion gives), printf writes it. The text is the
 * same either way (tests/unit/test_numfmt.c checks it against printf).
 * A ratio's one form for people (hmb_fmt_ratio) is made with them.
 */
#include "util/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NUMFMT_DIGITS_MAX 6 /* beyond: printf, the scaled value too coarse to judge */

static const double tens[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
			       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
			       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

/* v times 10^k, k from -300 to 300. */
static double scale10(double v, int k)
{
	while (k > 22) {
		v *= 1e22;
		k -= 22;
	}
	while (k < -22) {
		v /= 1e22;
		k += 22;
	}
	return k >= 0 ? v * tens[k] : v / tens[-k];
}

/* x rounded to the nearest whole number where that is plain: 0, else -1. */
static int plain_round(double x, double *out)
{
	double f = x - floor(x);

	if (fabs(f - 0.5) < 1e-6)
		return -1;
	*out = f < 0.5 ? floor(x) : floor(x) + 1;
	return 0;
}

/* The whole number w (below 10^7) as text, at least `width` digits. */
static char *whole(char *at, long w, int width)
{
	char d[16];
	int n = 0;

	do {
		d[n++] = (char)('0' + w % 10);
		w /= 10;
	} while (w || n < width);
	while (n)
		*at++ = d[--n];
	return at;
}

const char *hmb_fmt_g(char *buf, size_t len, int digits, double v)
{
	char text[64], *at = text;
	double a = fabs(v), r;
	int e;

	if (digits < 1 || digits > NUMFMT_DIGITS_MAX || !isfinite(v) || a < 1e-290 || a > 1e290)
		goto use_printf;
	e = (int)floor(log10(a));
	if (plain_round(scale10(a, digits - 1 - e), &r))
		goto use_printf;
	if (r >= tens[digits]) { /* 9999.6 to 10000: one more digit before the point */
		r /= 10;
		e++;
	} else if (r < tens[digits - 1]) { /* log10 a hair short of a power of ten */
		goto use_printf;
	}
	if (v < 0)
		*at++ = '-';
	if (e < -4 || e >= digits) { /* d.ddde+XX */
		char m[16];
		*whole(m, (long)r, digits) = '\0';
		*at++ = m[0];
		*at++ = '.';
		memcpy(at, m + 1, (size_t)digits - 1);
		at += digits - 1;
		while (at[-1] == '0')
			at--;
		if (at[-1] == '.')
			at--;
		*at++ = 'e';
		*at++ = e < 0 ? '-' : '+';
		at = whole(at, e < 0 ? -e : e, 2);
	} else { /* digits - 1 - e decimals */
		int decimals = digits - 1 - e;
		long ip = (long)(r / tens[decimals]), fp = (long)(r - (double)ip * tens[decimals]);
		at = whole(at, ip, 1);
		if (decimals > 0) {
			*at++ = '.';
			at = whole(at, fp, decimals);
			while (at[-1] == '0')
				at--;
			if (at[-1] == '.')
				at--;
		}
	}
	*at = '\0';
	snprintf(buf, len, "%s", text);
	return buf;
use_printf:
	snprintf(buf, len, "%.*g", digits, v);
	return buf;
}

const char *hmb_fmt_f(char *buf, size_t len, int decimals, double v)
{
	char text[64], *at = text;
	double a = fabs(v), r;
	long ip, fp;

	if (decimals < 0 || decimals > NUMFMT_DIGITS_MAX || !isfinite(v) || a >= 1e6 ||
	    a * tens[decimals] >= 1e9 || plain_round(a * tens[decimals], &r))
		goto use_printf;
	ip = (long)(r / tens[decimals]);
	fp = (long)(r - (double)ip * tens[decimals]);
	if (v < 0 && r > 0)
		*at++ = '-';
	else if (v < 0 || (v == 0 && signbit(v)))
		goto use_printf; /* -0.00: printf's sign */
	at = whole(at, ip, 1);
	if (decimals > 0) {
		*at++ = '.';
		at = whole(at, fp, decimals);
	}
	*at = '\0';
	snprintf(buf, len, "%s", text);
	return buf;
use_printf:
	snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

const char *hmb_fmt_ratio(char *buf, size_t len, double r)
{
	char num[32];

	if (!(r > 0) || !isfinite(r))
		snprintf(buf, len, "-");
	else if (r < 0.005)
		snprintf(buf, len, "<0.01x");
	else
		snprintf(buf, len, "%sx", hmb_fmt_f(num, sizeof(num), r < 9.995 ? 2 : 0, r));
	return buf;
}
