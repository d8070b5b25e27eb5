/*
 * test_resolution.c - a figure's noise from its own runs and documents,
 * weighed against the figures alike (src/stats/resolution.c), on made-up
 * figures whose noise is known: the special functions it rests on; a steady
 * figure beside noisy siblings keeps its own narrow resolution; one slow run
 * neither hides (its figure is wide) nor spreads (its neighbours keep
 * theirs); documents that drift apart are seen only where a document merges
 * several; replicates that agree as their runs say; one run has no
 * resolution.
 */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "stats/resolution.h"
#include "stats/significance.h"

#define NSIZES 10
#define MAXRUNS 12

/* The standard normal's quantile at p (0 < p < 1). */
static double z_at(double p)
{
	double z = hmb_student_t_quantile(2 * (p < 0.5 ? p : 1 - p), INFINITY);
	return p < 0.5 ? -z : z;
}

/* A deterministic spread of n standard normal values (their quantiles,
 * shuffled by a stride prime to n). */
static double spread(size_t i, size_t n)
{
	return z_at(((double)((i * 7) % n) + 0.5) / (double)n);
}

struct fig {
	double runs[MAXRUNS];
	int doc[MAXRUNS];
	char kase[48];
};

static void set(struct hmb_noise_in *in, struct fig *f, const char *kase, double size, size_t n,
		double within, int merged)
{
	snprintf(f->kase, sizeof(f->kase), "%s", kase);
	*in = (struct hmb_noise_in){ "memcpy", f->kase, NULL, -1, size, f->runs,
				     merged ? f->doc : NULL, n, within };
}

static void special_functions(void)
{
	CHECK_NEAR(hmb_digamma(1), -0.5772156649, 1e-9);
	CHECK_NEAR(hmb_digamma(0.5), -1.9635100260, 1e-9);
	CHECK_NEAR(hmb_trigamma(0.5), 4.9348022005, 1e-9);
	CHECK_NEAR(hmb_trigamma(1), 1.6449340668, 1e-9);
	CHECK_NEAR(hmb_trigamma(7.5), 0.1426, 1e-4);
	CHECK_NEAR(hmb_chi2_upper_p(4, 1), 0.0455003, 1e-6);
	CHECK_NEAR(hmb_chi2_upper_p(2, 2), exp(-1.0), 1e-9);
	CHECK_NEAR(hmb_chi2_upper_p(50, 1), 1.5375e-12, 1e-15);
	CHECK_NEAR(hmb_chi2_upper_p(30, 10), 0.000857, 1e-5);
	CHECK_NEAR(hmb_student_t_quantile(0.05, INFINITY), 1.959964, 1e-5);
	CHECK_NEAR(hmb_student_t_quantile(0.05, 1), 12.7062, 1e-3);
	CHECK_NEAR(hmb_student_t_quantile(0.05, 3), 3.18245, 1e-4);
	CHECK_NEAR(hmb_student_t_quantile(0.05, 2.5), 3.57465, 1e-4);
	CHECK(isnan(hmb_student_t_quantile(0, 3)) && isnan(hmb_student_t_quantile(0.05, 0)));
}

/* A run's own noise from its samples: the median's standard error, a tick
 * where most samples are equal, none below three. */
static void within_a_run(void)
{
	double s[9] = { 1.00, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97, 1.00, 1.00 };
	double tick[6] = { 2.0, 2.0, 2.0, 2.0, 2.032, 2.0 };
	size_t counts[2] = { 5, 4 };

	/* MAD 0.01: 1.2533 * 1.4826 * 0.01 / sqrt(9) */
	CHECK_NEAR(hmb_noise_within(s, 9), 1.2533 * 1.4826 * 0.01 / 3, 1e-9);
	CHECK_NEAR(hmb_noise_within(tick, 6), 1.2533 * 1.4826 * 0.016 / 2 / sqrt(6.0), 1e-9);
	CHECK(isnan(hmb_noise_within(s, 2)));
	CHECK(hmb_noise_within_runs(s, counts, 2) > 0);
}

/* Ten sizes of one case, two runs each, run-to-run noise `sigma` (each run
 * sigma * spread apart from its figure's mean), `within` each. */
static void family(struct hmb_noise_in *in, struct fig *f, const char *kase, double sigma,
		   double within, size_t first)
{
	for (size_t i = 0; i < NSIZES; i++) {
		double d = sigma * spread(first + i, 3 * NSIZES) / sqrt(2.0);
		f[i].runs[0] = 1e-3 * exp(-d);
		f[i].runs[1] = 1e-3 * exp(d);
		set(&in[i], &f[i], kase, 4096.0 * (double)(1u << (2 * i)), 2, within, 0);
	}
}

/* A steady figure beside noisy siblings keeps its own narrow resolution:
 * its within-run noise scales its prior, and its runs agree. */
static void steady_beside_noisy(void)
{
	struct hmb_noise_in in[2 * NSIZES + 1];
	struct hmb_noise_out out[2 * NSIZES + 1];
	struct fig f[2 * NSIZES + 1];
	double noisy = 0;

	family(in, f, "h2d/pinned/async", 0.03, 0.01, 0);
	family(in + NSIZES, f + NSIZES, "d2h/pinned/async", 0.03, 0.01, NSIZES);
	/* the steady one: samples 20x quieter, runs 0.05% apart */
	f[2 * NSIZES].runs[0] = 2e-3;
	f[2 * NSIZES].runs[1] = 2e-3 * exp(0.0005);
	set(&in[2 * NSIZES], &f[2 * NSIZES], "h2d/pinned/async", 1 << 26, 2, 0.0005, 0);
	hmb_noise_model(in, 2 * NSIZES + 1, out);
	for (size_t i = 0; i < 2 * NSIZES; i++) {
		CHECK(out[i].runs == 2 && out[i].docs == 1 && out[i].run.own_df == 1);
		CHECK(out[i].run.prior_df > 0 && out[i].df == out[i].run.df);
		noisy += out[i].resolution / (2 * NSIZES);
	}
	/* the siblings: about t * sigma (their own 3% a run, known from 1 df + prior) */
	CHECK(noisy > 0.05 && noisy < 0.2);
	CHECK(out[2 * NSIZES].resolution < 0.01);
	CHECK(out[2 * NSIZES].stable && !out[0].stable);
	/* a posterior between its own and its prior, more degrees of freedom than its own */
	for (size_t i = 0; i < 2 * NSIZES + 1; i++) {
		const struct hmb_noise_level *r = &out[i].run;
		double lo = r->own < r->prior ? r->own : r->prior, hi = r->own < r->prior ? r->prior
											 : r->own;
		CHECK(r->sigma >= lo * 0.999 && r->sigma <= hi * 1.001 && r->df > r->own_df);
		CHECK_NEAR(out[i].sigma, r->sigma / sqrt(2.0), 1e-12);
		CHECK_NEAR(out[i].resolution,
			   hmb_student_t_quantile(0.05, out[i].df) * sqrt(2.0) * out[i].sigma, 1e-12);
	}
}

/* One slow run: its figure's runs are far apart for what its neighbours say,
 * so its own variance stands (wide, not hidden by its quiet neighbours); the
 * figures beyond its nearest neighbours keep their resolution within a
 * factor of 1.5, its nearest neighbours (their neighbourhood jumped) widen
 * but stay far below it. */
static void one_slow_run(void)
{
	struct hmb_noise_in in[2 * NSIZES];
	struct hmb_noise_out calm[2 * NSIZES], slow[2 * NSIZES];
	struct fig f[2 * NSIZES];

	family(in, f, "h2d/pinned/async", 0.005, 0.003, 0);
	family(in + NSIZES, f + NSIZES, "d2h/pinned/async", 0.005, 0.003, NSIZES);
	hmb_noise_model(in, 2 * NSIZES, calm);
	f[4].runs[1] *= 1.3;
	hmb_noise_model(in, 2 * NSIZES, slow);
	CHECK(calm[4].resolution < 0.05 && slow[4].resolution > 0.3);
	CHECK_NEAR(slow[4].run.sigma, slow[4].run.own, 1e-12); /* its own alone */
	CHECK(slow[4].run.df == slow[4].run.own_df);
	for (size_t i = 0; i < 2 * NSIZES; i++) {
		if (i == 4)
			continue;
		CHECK(slow[i].run.prior_df > 0 && isfinite(slow[i].run.prior_df));
		if (i == 3 || i == 5)
			CHECK(slow[i].resolution < slow[4].resolution / 10);
		else
			CHECK(slow[i].resolution / calm[i].resolution < 1.5 &&
			      slow[i].resolution / calm[i].resolution > 1 / 1.5);
	}
}

/* Three documents of two runs each: a figure whose documents drift apart
 * (5% a document) while its runs agree within each is seen to (documents);
 * figures whose documents spread as their runs say keep about the runs'
 * resolution over six runs (its two nearest neighbours wider). */
static void documents_apart(void)
{
	struct hmb_noise_in in[NSIZES + 1];
	struct hmb_noise_out out[NSIZES + 1];
	struct fig f[NSIZES + 1];

	for (size_t i = 0; i <= NSIZES; i++) {
		for (int d = 0; d < 3; d++)
			for (int k = 0; k < 2; k++) {
				double e = 0.004 * spread(i * 6 + (size_t)(2 * d + k), 6 * (NSIZES + 1));
				double drift = i == NSIZES ? 0.05 * d : 0;
				f[i].runs[2 * d + k] = 1e-3 * exp(e + drift);
				f[i].doc[2 * d + k] = d;
			}
		set(&in[i], &f[i], "h2d/pinned/async", 4096.0 * (double)(1u << i), 6, 0.002, 1);
	}
	hmb_noise_model(in, NSIZES + 1, out);
	for (size_t i = 0; i < NSIZES; i++) {
		CHECK(out[i].docs == 3 && out[i].runs == 6 && out[i].run.own_df == 3);
		CHECK(out[i].doc.own_df == 2 && out[i].df == out[i].doc.df);
		/* the drifting one's nearest neighbours are warier, not blind */
		CHECK(out[i].resolution < (i + 2 < NSIZES ? 0.025 : 0.1));
	}
	CHECK(out[NSIZES].doc.own > 0.045);
	CHECK(out[NSIZES].resolution > 0.09);
	CHECK(out[NSIZES].run.sigma < 0.02); /* its runs alone would not say so */
}

/* Three documents of two runs each whose runs are 2% apart in every document
 * while the documents' means agree within 0.1%: a merge's figure is as
 * quiet as its documents are, not as noisy as its runs alone would say
 * (their noise over two runs, ten times the documents'). */
static void documents_closer_than_runs(void)
{
	struct hmb_noise_in in[NSIZES];
	struct hmb_noise_out out[NSIZES];
	struct fig f[NSIZES];

	for (size_t i = 0; i < NSIZES; i++) {
		for (int d = 0; d < 3; d++) {
			double mean = 0.001 * spread(i * 3 + (size_t)d, 3 * NSIZES);
			double apart = 0.01 * (1 + 0.2 * spread(i * 3 + (size_t)d + 1, 3 * NSIZES));
			f[i].runs[2 * d] = 1e-3 * exp(mean - apart);
			f[i].runs[2 * d + 1] = 1e-3 * exp(mean + apart);
			f[i].doc[2 * d] = f[i].doc[2 * d + 1] = d;
		}
		set(&in[i], &f[i], "h2d/pinned/async", 4096.0 * (double)(1u << i), 6, 0.002, 1);
	}
	hmb_noise_model(in, NSIZES, out);
	for (size_t i = 0; i < NSIZES; i++) {
		CHECK(out[i].docs == 3 && out[i].run.sigma > 0.01);
		CHECK(out[i].doc.sigma < out[i].run.sigma / sqrt(2.0) / 4);
	}
}

/* One run a figure: no run-to-run noise, no resolution; a figure of no
 * valid runs neither; a non-positive run is no run. */
static void one_run(void)
{
	struct hmb_noise_in in[NSIZES + 2];
	struct hmb_noise_out out[NSIZES + 2];
	struct fig f[NSIZES + 2];

	family(in, f, "h2d/pinned/async", 0.01, 0.005, 0);
	f[NSIZES].runs[0] = 1e-3;
	f[NSIZES].runs[1] = -1;
	set(&in[NSIZES], &f[NSIZES], "h2d/pinned/async", 1 << 30, 2, 0.005, 0);
	set(&in[NSIZES + 1], &f[NSIZES + 1], "h2d/pinned/async", 1 << 30, 0, NAN, 0);
	hmb_noise_model(in, NSIZES + 2, out);
	CHECK(out[NSIZES].runs == 1 && out[NSIZES].run.own_df == 0);
	/* one run: the prior alone says a run's noise, but no figure of one run is a mean */
	CHECK(out[NSIZES].run.sigma > 0 && out[NSIZES].resolution > 0);
	CHECK(out[NSIZES + 1].runs == 0 && isnan(out[NSIZES + 1].resolution));
	CHECK(!out[NSIZES + 1].stable);
}

/* Runs of one value (a count, a tick-quantised time) spread by exactly
 * nothing, at every level: their own variance is 0, not a mean's rounding
 * (1e-31 would count as a figure far quieter than any, and pull the weight
 * the document gives its priors); so beside the family they change neither
 * what the priors are worth nor anyone's resolution. Three documents of three
 * runs each, the tied figure's values chosen so that a plain mean of their
 * logarithms rounds (3 x log(2.2e-5) / 3 is not log(2.2e-5)). */
static void ties_spread_by_nothing(void)
{
	struct hmb_noise_in in[NSIZES + 1];
	struct hmb_noise_out alone[NSIZES + 1], beside[NSIZES + 1];
	struct fig f[NSIZES + 1];

	for (size_t i = 0; i <= NSIZES; i++) {
		for (int k = 0; k < 9; k++) {
			double e = 0.01 * spread(i * 9 + (size_t)k, 9 * (NSIZES + 1));
			f[i].runs[k] = i == NSIZES ? 2.2e-5 : 1e-3 * exp(e);
			f[i].doc[k] = k / 3;
		}
		set(&in[i], &f[i], "h2d/pinned/async", 4096.0 * (double)(1u << i), 9, 0.004, 1);
	}
	/* no neighbour of the family's (no case path in common), its prior theirs */
	snprintf(f[NSIZES].kase, sizeof(f[NSIZES].kase), "d2d/tied");
	hmb_noise_model(in, NSIZES, alone);
	hmb_noise_model(in, NSIZES + 1, beside);
	CHECK(beside[NSIZES].run.own == 0 && beside[NSIZES].run.own_df == 6);
	CHECK(beside[NSIZES].doc.own == 0 && beside[NSIZES].doc.own_df == 2);
	for (size_t i = 0; i < NSIZES; i++) {
		CHECK(beside[i].run.prior_df == alone[i].run.prior_df);
		CHECK_NEAR(beside[i].resolution, alone[i].resolution, 1e-12);
	}
}

/* Where the noise came from, for people. */
static void said(void)
{
	struct hmb_noise_out o = { .runs = 2, .docs = 1,
				   .run = { 0.008, 1, 0.0062, 1.7, 0.0071, 2.7 }, .df = 2.7 };
	char buf[192];

	CHECK(!strcmp(hmb_noise_source_text(&o, buf, sizeof(buf)),
		      "2 runs: one run +-0.71% (its own 0.8%, 1 df; alike 0.62%, worth 1.7 runs), "
		      "2.7 df"));
	o.docs = 3;
	o.runs = 6;
	o.doc = (struct hmb_noise_level){ 0.011, 2, 0.009, INFINITY, 0.009, INFINITY };
	o.df = INFINITY;
	CHECK(!strcmp(hmb_noise_source_text(&o, buf, sizeof(buf)),
		      "3 documents (6 runs): a document +-0.9% (its own 1.1%, 2 df; alike 0.9%, "
		      "worth many documents), many df"));
}

void hmb_test_resolution(void)
{
	special_functions();
	within_a_run();
	steady_beside_noisy();
	one_slow_run();
	documents_apart();
	documents_closer_than_runs();
	one_run();
	ties_spread_by_nothing();
	said();
}
