/* significance.c - Mann-Whitney U test, Student's t distribution, Benjamini-Hochberg. */
#include "stats/significance.h"

#include <math.h>
#include <stdlib.h>

#include "util/util.h"

struct obs {
	double v;
	int from_a;
};

static int cmp_obs(const void *x, const void *y)
{
	double a = ((const struct obs *)x)->v, b = ((const struct obs *)y)->v;
	return (a > b) - (a < b);
}

/* The distribution of U for na and nb values with no ties, where U counts the
 * pairs in which the value from a is the larger. f(i, j, u), the probability of
 * U = u with i values from a and j from b, follows from where the largest value
 * comes from: a (probability i/(i+j); it beats all j values of b) or b:
 * f(i,j,u) = i/(i+j) f(i-1,j,u-j) + j/(i+j) f(i,j-1,u). Returns P(U <= v) for
 * v = 0 .. na*nb. */
static double *exact_cdf(size_t na, size_t nb)
{
	size_t width = na * nb + 1;
	double *prev = hmb_xcalloc((nb + 1) * width, sizeof(double));
	double *cur = hmb_xcalloc((nb + 1) * width, sizeof(double));
	double *cdf = hmb_xcalloc(width, sizeof(double)), sum = 0.0;

	for (size_t j = 0; j <= nb; j++)
		prev[j * width] = 1.0; /* i = 0: U = 0 */
	for (size_t i = 1; i <= na; i++) {
		for (size_t k = 0; k < (nb + 1) * width; k++)
			cur[k] = 0.0;
		cur[0] = 1.0; /* j = 0 */
		for (size_t j = 1; j <= nb; j++) {
			double pa = (double)i / (double)(i + j), pb = (double)j / (double)(i + j);
			for (size_t v = 0; v <= i * j; v++)
				cur[j * width + v] = (v >= j ? pa * prev[j * width + v - j] : 0.0) +
						     pb * cur[(j - 1) * width + v];
		}
		double *t = prev;
		prev = cur;
		cur = t;
	}
	for (size_t v = 0; v < width; v++) {
		sum += prev[nb * width + v];
		cdf[v] = sum;
	}
	free(prev);
	free(cur);
	return cdf;
}

/* The distributions are computed once per pair of set sizes and kept
 * (at most about 2 MB; hmb_significance_release frees them). */
static double *cache[HMB_MWU_EXACT_MAX + 1][HMB_MWU_EXACT_MAX + 1];

static const double *cdf_for(size_t na, size_t nb)
{
	if (!cache[na][nb])
		cache[na][nb] = exact_cdf(na, nb);
	return cache[na][nb];
}

void hmb_significance_release(void)
{
	for (size_t i = 0; i <= HMB_MWU_EXACT_MAX; i++)
		for (size_t j = 0; j <= HMB_MWU_EXACT_MAX; j++) {
			free(cache[i][j]);
			cache[i][j] = NULL;
		}
}

double hmb_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	struct obs *o;
	size_t n = 0, ma = 0, mb = 0;
	double rank_a = 0.0, ties = 0.0, u, p;

	o = hmb_xcalloc(na + nb + 1, sizeof(*o));
	for (size_t i = 0; i < na; i++)
		if (!isnan(a[i])) {
			o[n].v = a[i];
			o[n++].from_a = 1;
			ma++;
		}
	for (size_t i = 0; i < nb; i++)
		if (!isnan(b[i])) {
			o[n++].v = b[i];
			mb++;
		}
	if (ma == 0 || mb == 0) {
		free(o);
		return NAN;
	}
	qsort(o, n, sizeof(*o), cmp_obs);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && o[j + 1].v == o[i].v)
			j++;
		double mid = 0.5 * (double)(i + j) + 1.0, t = (double)(j - i + 1);
		for (size_t k = i; k <= j; k++)
			if (o[k].from_a)
				rank_a += mid;
		ties += t * t * t - t;
		i = j + 1;
	}
	free(o);
	u = rank_a - 0.5 * (double)ma * (double)(ma + 1);
	if (ties == 0.0 && ma <= HMB_MWU_EXACT_MAX && mb <= HMB_MWU_EXACT_MAX) {
		/* U is symmetric about na*nb/2: the smaller tail is P(U <= min(u, na*nb - u)) */
		double mirror = (double)(ma * mb) - u;
		p = 2.0 * cdf_for(ma, mb)[(size_t)((u < mirror ? u : mirror) + 0.5)];
	} else {
		double N = (double)(ma + mb), mu = 0.5 * (double)ma * (double)mb;
		double var = (double)ma * (double)mb / 12.0 * ((N + 1.0) - ties / (N * (N - 1.0)));
		double z;
		if (!(var > 0.0))
			return 1.0; /* every value the same */
		z = (fabs(u - mu) - 0.5) / sqrt(var);
		p = z > 0.0 ? erfc(z / sqrt(2.0)) : 1.0;
	}
	return p > 1.0 ? 1.0 : p;
}

/* The regularized incomplete beta function I_x(a, b), by its continued
 * fraction (modified Lentz), on the side of x where it converges fast. */
static double incomplete_beta(double a, double b, double x)
{
	const double tiny = 1e-300;
	double front, c = 1.0, d, f;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	if (x > (a + 1.0) / (a + b + 2.0))
		return 1.0 - incomplete_beta(b, a, 1.0 - x);
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)) / a;
	d = 1.0 - (a + b) * x / (a + 1.0);
	d = 1.0 / (fabs(d) < tiny ? tiny : d);
	f = d;
	for (int m = 1; m <= 300; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double num = odd ? -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1))
					 : (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
			d = 1.0 + num * d;
			d = 1.0 / (fabs(d) < tiny ? tiny : d);
			c = 1.0 + num / c;
			c = fabs(c) < tiny ? tiny : c;
			f *= c * d;
		}
		if (fabs(c * d - 1.0) < 1e-15)
			break;
	}
	return front * f;
}

double hmb_student_t_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0.0;
	return incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
}

/* The regularized upper incomplete gamma function Q(a, x): its series below
 * a + 1, its continued fraction (modified Lentz) above. */
static double gamma_upper(double a, double x)
{
	const double tiny = 1e-300;
	double front = exp(a * log(x) - x - lgamma(a));

	if (x <= 0)
		return 1.0;
	if (x < a + 1) {
		double term = 1 / a, sum = term;
		for (int n = 1; n < 1000 && fabs(term) > fabs(sum) * 1e-16; n++) {
			term *= x / (a + n);
			sum += term;
		}
		return 1.0 - front * sum;
	} else {
		double b = x + 1 - a, c = 1 / tiny, d = 1 / b, f = d;
		for (int n = 1; n < 1000; n++) {
			double an = -n * (n - a), delta;
			b += 2;
			d = an * d + b;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = b + an / c;
			c = fabs(c) < tiny ? tiny : c;
			delta = c * d;
			f *= delta;
			if (fabs(delta - 1) < 1e-15)
				break;
		}
		return front * f;
	}
}

double hmb_chi2_upper_p(double x, double df)
{
	if (isnan(x) || !(df > 0))
		return NAN;
	return gamma_upper(df / 2, x / 2);
}

/* P(|T| >= t): Student's t, or the normal distribution past 1e7 degrees. */
static double two_sided(double t, double df)
{
	return df > 1e7 ? erfc(t / sqrt(2.0)) : hmb_student_t_p(t, df);
}

double hmb_student_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	while (two_sided(hi, df) > p && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = 0.5 * (lo + hi);
		if (two_sided(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

static int by_p(const void *x, const void *y)
{
	double a = **(const double *const *)x, b = **(const double *const *)y;
	return (a > b) - (a < b);
}

size_t hmb_fdr_discoveries(const double *p, size_t n, double q, char *found)
{
	const double **by = hmb_xcalloc(n + 1, sizeof(*by));
	size_t m = 0, k = 0;

	for (size_t i = 0; i < n; i++) {
		found[i] = 0;
		if (!isnan(p[i]))
			by[m++] = &p[i];
	}
	qsort(by, m, sizeof(*by), by_p);
	for (size_t j = 0; j < m; j++)
		if (*by[j] <= q * (double)(j + 1) / (double)m)
			k = j + 1;
	for (size_t j = 0; j < k; j++)
		found[by[j] - p] = 1;
	free(by);
	return k;
}
