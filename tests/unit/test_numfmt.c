/*
 * test_numfmt.c - compare's fast "%.Ng" and "%.Nf" (src/util/numfmt.c) write
 * what printf writes: for a million values spread over every magnitude, for
 * ties and near-ties, powers of ten and the numbers either side of them;
 * and a ratio's one form for people (hmb_fmt_ratio): two decimals below 10.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "util/numfmt.h"

static unsigned long long state = 88172645463325252ull;

static double uniform(void) /* xorshift64: the same values on every run */
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (double)(state >> 11) / 9007199254740992.0;
}

static int same(int g, int n, double v)
{
	char mine[64], theirs[64];

	if (g)
		hmb_fmt_g(mine, sizeof(mine), n, v);
	else
		hmb_fmt_f(mine, sizeof(mine), n, v);
	snprintf(theirs, sizeof(theirs), g ? "%.*g" : "%.*f", n, v);
	if (strcmp(mine, theirs)) {
		fprintf(stderr, "    %s %d of %.17g: %s, printf %s\n", g ? "g" : "f", n, v, mine,
			theirs);
		return 0;
	}
	return 1;
}

void hmb_test_numfmt(void)
{
	static const double special[] = { 0.0, -0.0, 1.0, 9.995, 9.9949999, 0.995, 1.005, 0.125,
					  2.5, 0.5, 1e-5, 9.9995e-5, 1e-4, 99995, 9999.5, 1e15,
					  123456789.0, 0.00012345, -3.25, 1e300, 5e-324, INFINITY,
					  NAN };
	int bad = 0;

	for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		for (int n = 0; n <= 6; n++) {
			bad += !same(1, n, special[i]);
			bad += !same(0, n, special[i]);
		}
	/* every magnitude; halves and near-halves at each rounding digit */
	for (int i = 0; i < 1000000 && bad < 10; i++) {
		double v = pow(10.0, -30 + 60 * uniform()), w;
		int n = 1 + i % 6;
		bad += !same(1, n, i % 7 ? v : -v);
		w = (floor(uniform() * 1e6) + 0.5) / pow(10.0, (double)(i % 7)); /* ties in decimal */
		bad += !same(1, n, w);
		bad += !same(0, i % 7, w);
		bad += !same(0, i % 7, 10 * uniform());
		bad += !same(0, 3, 2 * uniform());
	}
	CHECK(bad == 0);
	/* ratios: enough digits for a 5% change, never a bare ".06x" */
	{
		static const struct { double r; const char *text; } ratios[] = {
			{ 1.048, "1.05x" }, { 0.96, "0.96x" }, { 0.0589, "0.06x" }, { 1.0, "1.00x" },
			{ 9.99, "9.99x" }, { 9.996, "10x" }, { 121.1, "121x" }, { 0.004, "<0.01x" },
			{ 0, "-" }, { -2, "-" }, { NAN, "-" }, { INFINITY, "-" },
		};
		char buf[32];
		for (size_t i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++)
			CHECK(!strcmp(hmb_fmt_ratio(buf, sizeof(buf), ratios[i].r), ratios[i].text));
	}
}
