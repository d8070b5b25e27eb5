/*
 * test_headline.c - the headlines, peaks and charts the modules declare
 * (engine/headline.h, engine/chart.h) and how they are read: each headline
 * names a case of its module and shows once, in the module table's order
 * except one that follows another module's, right behind it; a case's peak is
 * the one its module declares, and its GB/s reads against that; each chart
 * holds cases its module declares.
 */
#include <fnmatch.h>
#include <string.h>

#include "cli/registry.h"
#include "engine/headline.h"
#include "harness.h"
#include "output/summary.h"

extern const struct hmb_bench hmb_bench_leak, hmb_bench_probe;

static int declares_case(const struct hmb_bench *b, const char *pattern)
{
	for (int i = 0; b->cases && b->cases[i]; i++)
		if (!fnmatch(pattern, b->cases[i], 0))
			return 1;
	return 0;
}

/* The first case of b that pattern selects. */
static const char *case_of(const struct hmb_bench *b, const char *pattern)
{
	for (int i = 0; b->cases && b->cases[i]; i++)
		if (!fnmatch(pattern, b->cases[i], 0))
			return b->cases[i];
	return "";
}

static int module_index(const struct hmb_bench *const *benches, const char *module)
{
	for (int i = 0; benches[i]; i++)
		if (!strcmp(benches[i]->name, module))
			return i;
	return -1;
}

/* The modules' declarations, the test-only ones too, and their order. */
void test_declared_headlines(void)
{
	const struct hmb_bench *benches[HMB_MAX_BENCHES + 2] = { NULL };
	struct hmb_module_headline all[HMB_MAX_HEADLINES];
	size_t n, declared = 0;
	int nb = 0, last = 0;

	while (hmb_benches[nb]) {
		benches[nb] = hmb_benches[nb];
		nb++;
	}
	if (!hmb_bench_find("probe")) { /* HMB_TEST_MODULES unset */
		benches[nb++] = &hmb_bench_leak;
		benches[nb++] = &hmb_bench_probe;
	}
	n = hmb_headlines_of(benches, all, HMB_MAX_HEADLINES);
	for (int i = 0; benches[i]; i++) {
		const struct hmb_bench *b = benches[i];
		for (const struct hmb_headline *h = b->headlines; h && h->name; h++, declared++) {
			size_t at = n, follows = n, same = 0;
			CHECK(strlen(h->name) <= 18 && h->kase && h->params && h->figure && h->about);
			CHECK(declares_case(b, h->kase) && (!h->over || declares_case(b, h->over)));
			for (size_t k = 0; k < n; k++) {
				same += !strcmp(all[k].h->name, h->name);
				if (all[k].h == h) {
					CHECK(!strcmp(all[k].module, b->name));
					at = k;
				}
				if (h->after && !strcmp(all[k].h->name, h->after))
					follows = k;
			}
			CHECK(at < n && same == 1);
			/* right behind another module's headline */
			CHECK(!h->after || (follows < n && at == follows + 1 &&
					    strcmp(all[follows].module, b->name)));
		}
		for (const struct hmb_case_peak *p = b->peaks; p && p->kase; p++) {
			CHECK(declares_case(b, p->kase));
			CHECK(hmb_case_peak(benches, b->name, case_of(b, p->kase)) == p->peak);
		}
	}
	CHECK(n == declared && n > 0);
	/* the others in the module table's order */
	for (size_t k = 0; k < n; k++) {
		int m = module_index(benches, all[k].module);
		if (all[k].h->after)
			continue;
		CHECK(m >= last);
		last = m;
	}
	CHECK(hmb_case_peak(benches, "memcpy", "no/such/case") == HMB_PEAK_RECORD);
	CHECK(hmb_case_peak(NULL, "memcpy", "d2d/device/async") == HMB_PEAK_RECORD);
	CHECK(hmb_headlines_of(NULL, all, HMB_MAX_HEADLINES) == 0);
}

/* A record's peak, GB/s, as its module declares it: the same record reads
 * against another peak where another declaration holds. */
void test_declared_peaks(void)
{
	static const struct hmb_case_peak peaks[] = {
		{ "link/*", HMB_PEAK_LINK },
		{ "both/*", HMB_PEAK_LINK_BOTH },
		{ "gpus/one", HMB_PEAK_LINK_GPUS },
		{ "gpus/both", HMB_PEAK_LINK_GPUS_BOTH },
		{ "hbm/*", HMB_PEAK_HBM_COPY },
		{ .kase = NULL },
	};
	static const struct hmb_bench m = { .name = "m", .peaks = peaks };
	static const struct hmb_bench *const benches[] = { &m, NULL };
	static const struct {
		const char *kase;
		double peak;
	} want[] = {
		{ "link/x", 50 }, { "both/x", 100 }, { "gpus/one", 150 }, { "gpus/both", 300 },
		{ "hbm/x", 1000 }, { "own/x", 7 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct hmb_record *r = hmb_record_new("m", want[i].kase);
		r->peak_gbps = 7;
		hmb_param_num(r, "gpus", 3);
		CHECK_NEAR(hmb_figure_peak_gbps(benches, r, 50, 2000), want[i].peak, 1e-9);
		/* no declarations: the record's own */
		CHECK_NEAR(hmb_figure_peak_gbps(NULL, r, 50, 2000), 7, 1e-9);
		hmb_record_free(r);
	}
}

/* Every chart group and chart of a module holds cases it declares, and a
 * module with headline charts says what they show. */
void test_declared_charts(void)
{
	int charts = 0;

	for (int i = 0; hmb_benches[i]; i++) {
		const struct hmb_bench *b = hmb_benches[i];
		for (const struct hmb_chart_group *g = b->chart_groups; g && g->kase; g++)
			CHECK(declares_case(b, g->kase) && g->chart && *g->chart);
		for (const struct hmb_chart *c = b->charts; c && c->kase; c++, charts++)
			CHECK(declares_case(b, c->kase) && c->what && c->ylabel);
		CHECK(!b->charts == !b->charts_about);
	}
	CHECK(charts > 0);
}
