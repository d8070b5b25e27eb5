/*
 * test_significance.c - the Mann-Whitney U test against values worked out by
 * full enumeration of the arrangements (exact cases) and by the textbook
 * formula (ties); Student's t against the incomplete beta
 * function worked out to 30 digits; Benjamini-Hochberg against the worked
 * example of its paper and cases a step-down or uncontrolled rule gets wrong.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "stats/significance.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void exact_cases(void)
{
	const double lo[] = { 1, 2, 3 }, hi[] = { 4, 5, 6 };
	const double x[] = { 19, 22, 16, 29, 24 }, y[] = { 20, 11, 17, 12 };
	const double u[] = { 1.5, 3.1, 2.2, 8.4, 5.5, 6.1, 0.3 };
	const double v[] = { 4.4, 9.2, 7.7, 10.1, 12.5, 6.6 };
	const double five_a[] = { 1, 2, 3, 4, 5 }, five_b[] = { 6, 7, 8, 9, 10 };

	CHECK_NEAR(hmb_mann_whitney_p(lo, 3, hi, 3), 0.1, 1e-12);
	CHECK_NEAR(hmb_mann_whitney_p(hi, 3, lo, 3), 0.1, 1e-12);
	CHECK_NEAR(hmb_mann_whitney_p(x, N(x), y, N(y)), 1.0 / 9.0, 1e-12);
	CHECK_NEAR(hmb_mann_whitney_p(u, N(u), v, N(v)), 0.022144522144522144, 1e-12);
	CHECK_NEAR(hmb_mann_whitney_p(v, N(v), u, N(u)), 0.022144522144522144, 1e-12);
	/* fully apart: the smallest p there is for 5 and 5 */
	CHECK_NEAR(hmb_mann_whitney_p(five_a, 5, five_b, 5), 2.0 / 252.0, 1e-12);
	/* interleaved sets: nothing to see */
	const double odd[] = { 1, 3, 5, 7, 9 }, even[] = { 2, 4, 6, 8, 10 };
	CHECK(hmb_mann_whitney_p(odd, 5, even, 5) > 0.5);
}

static void approximate_cases(void)
{
	const double a[] = { 1, 2, 2, 3, 5, 8 }, b[] = { 2, 4, 6, 7, 9, 9, 10 };
	double big_a[60], big_b[60], same[20];

	/* ties: the normal approximation with tie and continuity corrections */
	CHECK_NEAR(hmb_mann_whitney_p(a, N(a), b, N(b)), 0.07216011300239515, 1e-12);
	/* beyond the exact limit */
	for (int i = 0; i < 60; i++) {
		big_a[i] = i + 1;
		big_b[i] = i + 21.5;
	}
	CHECK_NEAR(hmb_mann_whitney_p(big_a, 60, big_b, 60), 8.747567722893554e-08, 1e-15);
	/* the same samples on both sides: p = 1 */
	for (int i = 0; i < 20; i++)
		same[i] = 1e-6 * (1.0 + 0.01 * (i % 7));
	CHECK(hmb_mann_whitney_p(same, 20, same, 20) == 1.0);
	for (int i = 0; i < 20; i++)
		same[i] = 3.0;
	CHECK(hmb_mann_whitney_p(same, 20, same, 10) == 1.0);
	CHECK(isnan(hmb_mann_whitney_p(same, 0, same, 10)));
	CHECK(isnan(hmb_mann_whitney_p(same, 10, NULL, 0)));
}

static void exact_meets_approximation(void)
{
	double a[HMB_MWU_EXACT_MAX], b[HMB_MWU_EXACT_MAX], exact, approx;
	const size_t n = HMB_MWU_EXACT_MAX;

	/* 30 and 30 without ties: exact; moving one value of b by 1 onto a value of
	 * a makes a tie (approximation) and barely changes the ranks, so the two
	 * p-values must lie close together */
	for (size_t i = 0; i < n; i++) {
		a[i] = (double)i * 2.0;
		b[i] = (double)i * 2.0 + 13.0;
	}
	exact = hmb_mann_whitney_p(a, n, b, n);
	/* 2 * P(U <= 276) by counting all C(60, 30) arrangements */
	CHECK_NEAR(exact, 0.009603686592127122, 1e-12);
	b[0] = 14.0; /* ties a[7]: approximation */
	approx = hmb_mann_whitney_p(a, n, b, n);
	CHECK_NEAR(approx, 0.01009594416427707, 1e-12);
	hmb_significance_release();
	CHECK(hmb_mann_whitney_p(a, n, b, n) == approx);
	b[0] = 13.0;
	CHECK(hmb_mann_whitney_p(a, n, b, n) == exact);
}

/* Student's t against values of the regularized incomplete
 * beta function worked out to 30 digits (mpmath.betainc). */
static void student_t(void)
{
	CHECK_NEAR(hmb_student_t_p(4.604094871, 4), 0.010000000002635536, 1e-12);
	CHECK_NEAR(hmb_student_t_p(-2.776445105, 4), 0.050000000010119479, 1e-12);
	CHECK_NEAR(hmb_student_t_p(1, 1), 0.5, 1e-12);
	CHECK_NEAR(hmb_student_t_p(2.228138852, 10), 0.049999999998836525, 1e-12);
	CHECK_NEAR(hmb_student_t_p(12.3, 2.5), 0.0026685615518361593, 1e-12);
	CHECK_NEAR(hmb_student_t_p(0.3, 7.7), 0.77211581637669543, 1e-12);
	CHECK_NEAR(hmb_student_t_p(40, 3), 3.4380680789158528e-5, 1e-15);
	CHECK(hmb_student_t_p(0, 3) == 1.0 && hmb_student_t_p(INFINITY, 3) == 0.0);
}

/* Benjamini and Hochberg (1995), section 3.2: fifteen p-values at q = 0.05,
 * four discoveries (Bonferroni finds three); given out of order. */
static void false_discoveries(void)
{
	const double paper[] = { 0.0459, 0.0001, 0.3240, 0.0095, 1.0, 0.0278, 0.0004, 0.4262,
				 0.0201, 0.5719, 0.0019, 0.6528, 0.0298, 0.7590, 0.0344 };
	const char paper_found[] = { 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0 };
	/* step-up: the second smallest is above its bound (0.025), the third within its
	 * own (0.0375), so all three are found */
	const double up[] = { 0.9, 0.035, 0.001, 0.03 };
	/* each below q, but one only within its bound: p <= q alone would find three */
	const double each[] = { 0.04, 0.01, 0.045, 0.3 };
	/* an unknown p is not a test: two counted, 0.02 within 0.05 / 2 */
	const double unknown[] = { NAN, 0.02, NAN, 0.6 };
	char found[N(paper)];

	CHECK(hmb_fdr_discoveries(paper, N(paper), 0.05, found) == 4);
	CHECK(memcmp(found, paper_found, N(paper)) == 0);
	CHECK(hmb_fdr_discoveries(up, N(up), 0.05, found) == 3);
	CHECK(!found[0] && found[1] && found[2] && found[3]);
	CHECK(hmb_fdr_discoveries(each, N(each), 0.05, found) == 1);
	CHECK(found[1] && !found[0] && !found[2] && !found[3]);
	memset(found, 1, sizeof(found));
	CHECK(hmb_fdr_discoveries(unknown, N(unknown), 0.05, found) == 1);
	CHECK(found[1] && !found[0] && !found[2] && !found[3]);
	CHECK(hmb_fdr_discoveries(unknown, 0, 0.05, found) == 0);
}

void hmb_test_significance(void)
{
	false_discoveries();
	exact_cases();
	approximate_cases();
	exact_meets_approximation();
	student_t();
	hmb_significance_release();
}
