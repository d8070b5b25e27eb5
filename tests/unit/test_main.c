/*
 * test_main.c - unit tests that need no GPU: sizes, statistics, records and
 * derived figures, options, the registry, the PCIe link probe and the JSON
 * document (built, then parsed back), significance tests; the memory model
 * of faked GPUs is in test_memmodel.c and test_amd_sources.c, the AMD
 * telemetry route in test_amd_telemetry.c.
 *   unit_tests                     every test
 *   unit_tests --list              their names, one a line
 *   unit_tests NAME                that test only (exit 2 for an unknown name)
 *   unit_tests --sample-json FILE  a document for the schema and compare tests
 *   unit_tests --runs-json FILE    one of three runs merged (test_runs.c)
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/registry.h"
#include "doc/atomic_file.h"
#include "doc/json_import.h"
#include "doc/json_write.h"
#include "engine/options.h"
#include "engine/record.h"
#include "engine/report.h"
#include "fake_devices.h"
#include "harness.h"
#include "output/summary.h"
#include "run/checkpoint.h"
#include "stats/stats.h"
#include "telemetry/telemetry.h"
#include "util/sizes.h"

int hmb_test_failed_checks;
void test_topology(void);
void test_schedule_eight_gpus(void);
void test_schedule_host_port(void);

/* test_memmodel.c, test_amd_sources.c */
void test_memmodel_access_mode(void);
void test_memmodel_kinds(void);
void test_memmodel_peak(void);
void test_memmodel_copies_and_queues(void);
void test_memmodel_info(void);
void test_memmodel_amd_write_combined(void);
void test_memmodel_xnack_off_residency(void);
void test_memmodel_xnack_refused(void);
void test_memmodel_registered_and_uncached(void);
void test_memmodel_copy_engines(void);
void test_memmodel_visible_gpus_and_fine_grain(void);
void test_kfd_partitions(void);
void test_kfd_topology(void);
void test_kfd_processes(void);
void test_pcie_upstream_cap(void);
void test_kind_alloc(void);
void test_json_memory_model(void);
/* test_memkinds.c */
void test_memkind_table(void);
void test_memkind_host_pages(void);
/* test_amd_telemetry.c */
void test_amd_sysfs(void);
void test_amd_sysfs_alone(void);
void test_amd_calls(void);
void test_amd_throttle(void);
void test_amd_reason_in_document(void);
void test_rsmi_open(void);

static void test_size_parsing(void)
{
	char err[256];
	size_t v;
	struct hmb_sizes s;

	CHECK(hmb_parse_size("4K", &v, err, sizeof(err)) == 0 && v == 4096);
	CHECK(hmb_parse_size("64M", &v, err, sizeof(err)) == 0 && v == 64u << 20);
	CHECK(hmb_parse_size("1G", &v, err, sizeof(err)) == 0 && v == 1u << 30);
	CHECK(hmb_parse_size("2GiB", &v, err, sizeof(err)) == 0 && v == 2ull << 30);
	CHECK(hmb_parse_size("512", &v, err, sizeof(err)) == 0 && v == 512);
	CHECK(hmb_parse_size("1k", &v, err, sizeof(err)) == 0 && v == 1024);
	CHECK(hmb_parse_size("0", &v, err, sizeof(err)) == -1 && strstr(err, "greater than zero"));
	CHECK(hmb_parse_size("4Q", &v, err, sizeof(err)) == -1 && strstr(err, "unit"));
	CHECK(hmb_parse_size("K", &v, err, sizeof(err)) == -1);
	CHECK(hmb_parse_size("-4K", &v, err, sizeof(err)) == -1);
	CHECK(hmb_parse_size("99999999999999999999", &v, err, sizeof(err)) == -1);
	CHECK(hmb_parse_size("20000000T", &v, err, sizeof(err)) == -1 && strstr(err, "range"));

	CHECK(hmb_parse_sizes("4K,64M,1G", &s, err, sizeof(err)) == 0 && s.n == 3 &&
	      s.v[2] == 1u << 30);
	CHECK(hmb_parse_sizes("4K:1G:x4", &s, err, sizeof(err)) == 0 && s.n == 10 &&
	      s.v[0] == 4096 && s.v[9] == 1u << 30);
	CHECK(hmb_parse_sizes("1M:4M:+1M", &s, err, sizeof(err)) == 0 && s.n == 4 &&
	      s.v[3] == 4u << 20);
	CHECK(hmb_parse_sizes("4K,1M:4M:x2", &s, err, sizeof(err)) == 0 && s.n == 4);
	CHECK(hmb_parse_sizes("1M:3M:x2", &s, err, sizeof(err)) == 0 && s.n == 2);
	CHECK(hmb_sizes_max(&s) == 2u << 20);
	/* a factor of two digits, read in decimal: 4K, 64K, 1M */
	CHECK(hmb_parse_sizes("4K:1M:x16", &s, err, sizeof(err)) == 0 && s.n == 3 &&
	      s.v[1] == 64u << 10 && s.v[2] == 1u << 20);
	CHECK(hmb_parse_sizes("", &s, err, sizeof(err)) == -1);
	CHECK(hmb_parse_sizes("4K,,8K", &s, err, sizeof(err)) == -1);
	CHECK(hmb_parse_sizes("1G:4K:x2", &s, err, sizeof(err)) == -1 && strstr(err, "below"));
	CHECK(hmb_parse_sizes("4K:1G:x1", &s, err, sizeof(err)) == -1 && strstr(err, "factor"));
	CHECK(hmb_parse_sizes("4K:1G", &s, err, sizeof(err)) == -1);
	CHECK(hmb_parse_sizes("1:1000000:+1", &s, err, sizeof(err)) == -1 &&
	      strstr(err, "too many"));

	char buf[32];
	CHECK(strcmp(hmb_format_size(4096, buf, sizeof(buf)), "4K") == 0);
	CHECK(strcmp(hmb_format_size(3u << 30, buf, sizeof(buf)), "3G") == 0);
	CHECK(strcmp(hmb_format_size(1000, buf, sizeof(buf)), "1000") == 0);
	CHECK(strcmp(hmb_format_size(1536, buf, sizeof(buf)), "1536") == 0); /* not 1K */
	CHECK(strcmp(hmb_format_size(1536u << 10, buf, sizeof(buf)), "1536K") == 0);
	/* byte counts for people: as typed within 4 digits, else 3 significant digits */
	CHECK(strcmp(hmb_bytes_text(67108864, buf, sizeof(buf)), "64M") == 0);
	CHECK(strcmp(hmb_bytes_text(1536.0 * (1 << 20), buf, sizeof(buf)), "1536M") == 0);
	CHECK(strcmp(hmb_bytes_text(12884901888.0, buf, sizeof(buf)), "12G") == 0);
	CHECK(strcmp(hmb_bytes_text(17112760320.0, buf, sizeof(buf)), "15.9G") == 0);
	CHECK(strcmp(hmb_bytes_text(126596677632.0, buf, sizeof(buf)), "118G") == 0);
	CHECK(strcmp(hmb_bytes_text(307014.5, buf, sizeof(buf)), "300K") == 0);
	CHECK(strcmp(hmb_bytes_text(1048575, buf, sizeof(buf)), "1.00M") == 0);
	CHECK(strcmp(hmb_bytes_text(1025, buf, sizeof(buf)), "1.00K") == 0);
	CHECK(strcmp(hmb_bytes_text(16, buf, sizeof(buf)), "16") == 0);
	CHECK(strcmp(hmb_bytes_text(0.5, buf, sizeof(buf)), "0.50") == 0);
	CHECK(strcmp(hmb_bytes_text(64.0 * (1ull << 40), buf, sizeof(buf)), "64T") == 0);
	CHECK(strcmp(hmb_bytes_text(8e40, buf, sizeof(buf)), "8e+40") == 0); /* beyond 64T */
	CHECK(strcmp(hmb_bytes_text(18446744073709551616.0, buf, sizeof(buf)), "1.84467e+19") == 0);
	CHECK(hmb_is_bytes_name("size") && hmb_is_bytes_name("step") && hmb_is_bytes_name("start") &&
	      hmb_is_bytes_name("stride") && hmb_is_bytes_name("span_bytes") &&
	      hmb_is_bytes_name("bytes_per_access") && hmb_is_bytes_name("stride_bytes"));
	CHECK(!hmb_is_bytes_name("sizes") && !hmb_is_bytes_name("grid_blocks") &&
	      !hmb_is_bytes_name("touches") && !hmb_is_bytes_name("bytesize"));
}

static void test_stats(void)
{
	const double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };
	struct hmb_stats s;

	CHECK(hmb_stats_compute(odd, 3, &s) == 0);
	CHECK(s.count == 3 && s.min == 1 && s.max == 5 && s.median == 3);
	CHECK_NEAR(s.mean, 3.0, 1e-12);
	CHECK_NEAR(s.stddev, 2.0, 1e-12);
	CHECK(hmb_stats_compute(even, 4, &s) == 0 && s.median == 2.5);
	CHECK_NEAR(s.stddev, sqrt(5.0 / 3.0), 1e-12);
	CHECK(hmb_stats_compute(odd, 1, &s) == 0 && s.stddev == 0 && s.median == 5);
	CHECK(hmb_stats_compute(odd, 0, &s) == -1);
}

static void test_record_summary(void)
{
	struct hmb_record *r = hmb_record_new("memcpy", "h2d/pinned/async");
	struct hmb_summary s;

	hmb_record_bytes(r, 1e9);
	hmb_record_peak(r, 50.0);
	hmb_sample(r, 0.04);
	hmb_sample(r, 0.02);
	hmb_sample(r, 0.05);
	hmb_record_summarize(r, &s);
	CHECK(s.has_stats && s.stats.median == 0.04);
	CHECK_NEAR(s.gbps_median, 25.0, 1e-9);
	CHECK_NEAR(s.gbps_best, 50.0, 1e-9);
	CHECK_NEAR(s.peak_fraction, 0.5, 1e-9);
	CHECK(s.us_per_op_median == 0);

	hmb_record_ops(r, 1000);
	hmb_record_summarize(r, &s);
	CHECK_NEAR(s.us_per_op_median, 40.0, 1e-9);

	hmb_param_num(r, "size", 4096);
	hmb_param_num(r, "size", 8192); /* replaces */
	CHECK(r->params.n == 1 && hmb_kv_find(&r->params, "size")->num == 8192);
	hmb_record_status(r, HMB_FAILED, "first %d", 1);
	hmb_record_status(r, HMB_FAILED, "second");
	CHECK(r->status == HMB_FAILED && strcmp(r->reason, "first 1") == 0);
	hmb_record_free(r);

	r = hmb_record_new("pool", "empty");
	hmb_record_summarize(r, &s);
	CHECK(!s.has_stats && s.gbps_median == 0);
	hmb_record_free(r);
}

static void test_options(void)
{
	struct hmb_opt_decl size = { "limit", HMB_OPT_SIZE, "SIZE", "", 0, 0, 0 };
	struct hmb_opt_decl ints = { "streams", HMB_OPT_INTS, "LIST", "", 1, 16, 3 };
	struct hmb_opt_decl dbl = { "factor", HMB_OPT_DOUBLE, "F", "", 0, 0, 0 };
	struct hmb_opt_decl one = { "iters", HMB_OPT_INT, "N", "", 0, 0, 0 };
	struct hmb_options o = { 0 };
	char err[256];

	CHECK(hmb_opt_validate(&size, "8G", err, sizeof(err)) == 0);
	CHECK(hmb_opt_validate(&size, "0", err, sizeof(err)) == -1);
	CHECK(hmb_opt_validate(&ints, "1,2,4", err, sizeof(err)) == 0);
	CHECK(hmb_opt_validate(&ints, "1,x", err, sizeof(err)) == -1 && strstr(err, "--streams"));
	CHECK(hmb_opt_validate(&ints, "0", err, sizeof(err)) == -1);
	CHECK(hmb_opt_validate(&ints, "17", err, sizeof(err)) == -1 && strstr(err, "1 to 16"));
	CHECK(hmb_opt_validate(&ints, "1,2,3,4", err, sizeof(err)) == -1 && strstr(err, "3 values"));
	CHECK(hmb_opt_validate(&ints, ",", err, sizeof(err)) == -1 && strstr(err, "empty item"));
	CHECK(hmb_opt_validate(&size, "0", err, sizeof(err)) == -1 && strstr(err, "--limit"));
	CHECK(hmb_opt_validate(&dbl, "1.5", err, sizeof(err)) == 0);
	CHECK(hmb_opt_validate(&dbl, "-1", err, sizeof(err)) == -1);
	CHECK(hmb_opt_validate(&dbl, "0", err, sizeof(err)) == -1 && strstr(err, "above 0"));
	CHECK(hmb_opt_validate(&one, "12", err, sizeof(err)) == 0);
	CHECK(hmb_opt_validate(&one, "12x", err, sizeof(err)) == -1);

	o.value_name[0] = "streams";
	o.value[0] = "1";
	o.value_name[1] = "streams";
	o.value[1] = "2,4";
	o.nvalues = 2;
	CHECK(strcmp(hmb_opt_value(&o, "streams"), "2,4") == 0); /* the last one wins */
	CHECK(hmb_opt_value(&o, "chunks") == NULL);
}

static void test_registry(void)
{
	int n = 0;
	for (int i = 0; hmb_benches[i]; i++, n++) {
		const struct hmb_bench *b = hmb_benches[i];
		CHECK(b->name && *b->name && b->summary && *b->summary && b->run && b->help);
		CHECK(hmb_bench_find(b->name) == b);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(hmb_benches[j]->name, b->name) != 0);
		for (const struct hmb_opt_decl *d = b->options; d && d->name; d++) {
			CHECK(d->help && *d->help);
			/* a list declares how long it may be: nothing is dropped */
			CHECK(d->type != HMB_OPT_INTS || d->max_values > 0);
			/* `all` takes every module's options: a name means one thing */
			for (int j = 0; j < i; j++)
				for (const struct hmb_opt_decl *e = hmb_benches[j]->options;
				     e && e->name; e++)
					CHECK(strcmp(e->name, d->name) != 0);
		}
	}
	CHECK(n >= 1);
	CHECK(hmb_bench_find("memcpy") != NULL);
	CHECK(hmb_bench_find("nonsense") == NULL);
	CHECK(hmb_bench_find("all") == NULL && hmb_bench_find("info") == NULL);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_pcie_link(void)
{
	char root[] = "/tmp/hmb-sysfs-XXXXXX", dir[256], path[300];
	struct hmb_link link = { 0 };

	CHECK_NEAR(hmb_pcie_peak_gbps(32.0, 16), 63.015, 0.001);   /* gen5 x16 */
	CHECK_NEAR(hmb_pcie_peak_gbps(16.0, 16), 31.508, 0.001);   /* gen4 x16 */
	CHECK_NEAR(hmb_pcie_peak_gbps(5.0, 8), 4.0, 1e-9);         /* gen2 x8, 8b/10b */
	CHECK(hmb_pcie_peak_gbps(7.0, 16) == 0);                    /* not a PCIe rate */
	/* a link idling at gen1 (as GPUs do): its state and its maximum's peak kept */
	hmb_link_from_generation(&link, 1, 16, 5, 16, "nvml");
	CHECK(link.gen == 1 && link.width == 16 && link.max_gen == 5 && link.gts == 2.5);
	CHECK_NEAR(link.peak_gbps, 63.015, 0.001);
	memset(&link, 0, sizeof(link));
	hmb_link_from_generation(&link, 0, 16, 5, 16, "nvml");      /* no generation: unknown */
	CHECK(link.gen == 0 && link.peak_gbps == 0);

	if (!mkdtemp(root)) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/0000:c1:00.0", root);
	for (char *p = dir + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/current_link_speed", dir);
	write_file(path, "16.0 GT/s PCIe\n");
	snprintf(path, sizeof(path), "%s/current_link_width", dir);
	write_file(path, "8\n");
	snprintf(path, sizeof(path), "%s/max_link_speed", dir);
	write_file(path, "32.0 GT/s PCIe\n");
	snprintf(path, sizeof(path), "%s/max_link_width", dir);
	write_file(path, "16\n");
	/* CUDA writes an 8-digit domain; sysfs has 4. */
	CHECK(hmb_link_from_sysfs("00000000:C1:00.0", &link, root) == 0);
	CHECK(link.gen == 4 && link.width == 8 && link.max_gen == 5 && link.max_width == 16);
	CHECK_NEAR(link.peak_gbps, 63.015, 0.001);  /* the maximum, not the idle link */
	CHECK(strcmp(link.source, "sysfs") == 0);
	CHECK(hmb_link_from_sysfs("0000:c2:00.0", &link, root) == -1);
	CHECK(hmb_link_from_sysfs("garbage", &link, root) == -1);
	hmb_test_remove_tree(root);

	/* from the management library (NVML, ROCm SMI) where sysfs has none */
	memset(&link, 0, sizeof(link));
	hmb_link_from_generation(&link, 3, 8, 4, 16, "nvml");
	CHECK(link.gen == 3 && link.width == 8 && link.max_gen == 4 && link.max_width == 16);
	CHECK_NEAR(link.gts, 8.0, 1e-9);
	CHECK_NEAR(link.peak_gbps, 31.508, 0.001); /* gen4 x16, the maximum, not gen3 x8 */
	CHECK(strcmp(link.source, "nvml") == 0);
	hmb_link_from_generation(&link, 3, 8, 0, 0, "nvml"); /* no maximum: the link as found */
	CHECK_NEAR(link.peak_gbps, 7.877, 0.001);
	memset(&link, 0, sizeof(link));
	hmb_link_from_generation(&link, 0, 16, 4, 16, "nvml"); /* no generation: nothing known */
	CHECK(link.gen == 0 && link.peak_gbps == 0 && link.source[0] == '\0');
}

/* A report with one record of each status, as a module would leave it. */
static void sample_report(struct hmb_report *rep, struct hmb_options *opt)
{
	struct hmb_record *r;
	static char *argv[] = { "hipmembench", "memcpy", "--sizes", "4K" };

	memset(opt, 0, sizeof(*opt));
	opt->warmup = -1;
	opt->argc = 4;
	opt->argv = argv;
	hmb_parse_sizes("4K", &opt->sizes, (char[64]){ 0 }, 64);
	hmb_report_init(rep, opt, "memcpy");
	rep->have_device = 1;
	snprintf(rep->device.name, sizeof(rep->device.name), "Test GPU");
	rep->device.total_mem = 1u << 30;
	rep->device.managed_memory = 1;
	rep->device.pageable_memory_access = 0;
	rep->device.host_register = -1;
	rep->device.xnack_arch = -1;
	rep->device.link.gen = -1;
	{
		struct hmb_facts f = hmb_fake_h100();
		hmb_memmodel_interpret(&f, &rep->device.model);
	}
	hmb_report_add_module(rep, "memcpy");

	r = hmb_record_new("memcpy", "h2d/pinned/async");
	hmb_param_num(r, "size", 4096);
	hmb_param_str(r, "host_memory", "pinned");
	hmb_param_bool(r, "latched", 1);
	hmb_record_bytes(r, 4096);
	hmb_record_peak(r, 63.0);
	hmb_sample(r, 2e-6);
	hmb_sample(r, 3e-6);
	hmb_metric(r, "speedup", 2.5, "x");
	hmb_observe_bool(r, "verified", 1);
	hmb_report_add(rep, r);

	r = hmb_record_new("memcpy", "module");
	hmb_record_status(r, HMB_UNSUPPORTED, "no such thing here");
	hmb_report_add(rep, r);

	r = hmb_record_new("memcpy", "d2h/pinned/sync");
	hmb_record_status(r, HMB_FAILED, "hipMemcpy(...) failed: out of memory at x.c:1");
	hmb_report_add(rep, r);

	/* ten samples, the first half slow: judged (an interval, drift) */
	r = hmb_record_new("memcpy", "h2d/pageable/sync");
	hmb_param_num(r, "size", 4096);
	hmb_param_str(r, "host_memory", "pageable");
	hmb_record_bytes(r, 4096);
	for (int i = 0; i < 10; i++)
		hmb_sample(r, (i < 5 ? 6e-6 : 4e-6) + 1e-8 * i);
	hmb_observe_str(r, "gpu_shared_with", "777");
	hmb_report_add(rep, r);
	rep->complete = 1;
}

/* Telemetry keeps every sample: `all --devices all` on 8 GPUs takes 2 per
 * module run and imports the modules' own, far more than a fixed array held
 * (64 before: the rest were dropped). 500 samples go into a document and come
 * back whole; the throttle warning reads the sample it judged. */
static void test_telemetry_keeps_every_sample(void)
{
	struct hmb_report rep, back;
	struct hmb_options opt, opt2;
	char path[] = "/tmp/hmb-telemetry-XXXXXX", err[256];
	const struct hmb_gpu_sample *after;
	int throttled, slow, fd;

	sample_report(&rep, &opt);
	rep.telemetry.available = 1;
	snprintf(rep.telemetry.source, sizeof(rep.telemetry.source), "nvml");
	for (int i = 0; i < 500; i++) {
		struct hmb_gpu_sample *s = hmb_telemetry_add(&rep.telemetry);
		snprintf(s->module, sizeof(s->module), "gpu%d-m%d", i / 2 % 8, i / 16);
		snprintf(s->when, sizeof(s->when), "%s", i % 2 ? "after" : "before");
		s->sm_clock_mhz = i;
		s->link_gen = s->link_max_gen = 5;
		s->link_width = s->link_max_width = 16;
		s->throttled = i == 499;
		snprintf(s->throttle, sizeof(s->throttle), "sample %d", i);
	}
	/* a later sample of another module: the warning must not read it */
	snprintf(hmb_telemetry_add(&rep.telemetry)->module, 32, "other");
	CHECK(rep.telemetry.n == 501);
	after = hmb_telemetry_flags(&rep.telemetry, "gpu1-m31", &throttled, &slow);
	CHECK(after && throttled == 1 && slow == 0 && strcmp(after->throttle, "sample 499") == 0);
	CHECK(hmb_telemetry_flags(&rep.telemetry, "nowhere", &throttled, &slow) == NULL &&
	      throttled == -1);

	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK(hmb_json_write(&rep, path, err, sizeof(err)) == 0);
	memset(&opt2, 0, sizeof(opt2));
	hmb_report_init(&back, &opt2, "all");
	CHECK(hmb_json_import(&back, path, err, sizeof(err)) == 0);
	CHECK(back.telemetry.n == 501);
	if (back.telemetry.n == 501) {
		CHECK(back.telemetry.s[499].sm_clock_mhz == 499);
		CHECK(strcmp(back.telemetry.s[499].throttle, "sample 499") == 0);
	}
	unlink(path);
	hmb_report_free(&back);
	hmb_report_free(&rep);
}

/* No module run is dropped: `all --devices` on 64 GPUs runs 449 module
 * processes; 600 recorded runs all reach the document, and the module they
 * ran is named once in modules. */
static void test_every_module_run_is_kept(void)
{
	struct hmb_report rep;
	struct hmb_options opt;
	char *text;
	cJSON *doc;

	sample_report(&rep, &opt);
	for (int i = 0; i < 600; i++) {
		hmb_report_add_module(&rep, "memcpy");
		hmb_report_module_run(&rep, "memcpy", 1.0 + i, 0, i % 8);
	}
	CHECK(rep.nmodules == 1 && rep.nruns == 600);
	text = hmb_json_render(&rep);
	doc = text ? cJSON_Parse(text) : NULL;
	CHECK(doc && cJSON_GetArraySize(cJSON_GetObjectItem(doc, "module_runs")) == 600);
	CHECK(doc && cJSON_GetArraySize(cJSON_GetObjectItem(doc, "modules")) == 1);
	CHECK(doc && cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "module_runs"),
							    599), "wall_s")->valuedouble == 600.0);
	cJSON_Delete(doc);
	free(text);
	hmb_report_free(&rep);
}

/* `all --devices` keeps each GPU's device object from its modules'
 * documents: 20 GPUs give 20 (16 before; the rest were dropped). */
static void test_all_keeps_every_gpus_device(void)
{
	struct hmb_report rep, back;
	struct hmb_options opt, opt2;
	char path[] = "/tmp/hmb-devices-XXXXXX", err[256];
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	memset(&opt2, 0, sizeof(opt2));
	hmb_report_init(&back, &opt2, "all");
	for (int gpu = 0; gpu < 20; gpu++) {
		sample_report(&rep, &opt);
		rep.device.ordinal = gpu;
		CHECK(hmb_json_write(&rep, path, err, sizeof(err)) == 0);
		CHECK(hmb_json_import(&back, path, err, sizeof(err)) == 0);
		CHECK(hmb_json_import(&back, path, err, sizeof(err)) == 0); /* the same GPU again */
		hmb_report_free(&rep);
	}
	CHECK(back.ndevices == 20);
	unlink(path);
	hmb_report_free(&back);
}

static void test_json_document(void)
{
	struct hmb_report rep;
	struct hmb_options opt;
	char *text;
	cJSON *doc, *results, *first, *dev;

	sample_report(&rep, &opt);
	text = hmb_json_render(&rep);
	CHECK(text != NULL);
	doc = cJSON_Parse(text);
	CHECK(doc != NULL);
	if (!doc) {
		free(text);
		return;
	}
	CHECK(cJSON_GetObjectItem(doc, "schema_version")->valueint == HMB_SCHEMA_VERSION);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(doc, "interrupted")));
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "command_line")) == 4);
	dev = cJSON_GetObjectItem(doc, "device");
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(dev, "managed_memory")));
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(dev, "pageable_memory_access")));
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(dev, "host_register"))); /* unknown */
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(dev, "pcie_link"),
					       "generation")));
	results = cJSON_GetObjectItem(doc, "results");
	CHECK(cJSON_GetArraySize(results) == 4);
	{
		/* the stability of ten samples, the first half slow */
		const cJSON *last = cJSON_GetArrayItem(results, 3);
		const cJSON *st = cJSON_GetObjectItem(last, "stability");
		const cJSON *sh = cJSON_GetObjectItem(last, "shape");
		CHECK(cJSON_IsFalse(cJSON_GetObjectItem(st, "stable")));
		CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(st, "ci_ranks")) == 2);
		CHECK(strcmp(cJSON_GetObjectItem(sh, "kind")->valuestring, "drift") == 0);
		CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(results, 0), "shape")));
		CHECK(cJSON_IsObject(cJSON_GetObjectItem(doc, "stability_rule")));
	}
	first = cJSON_GetArrayItem(results, 0);
	CHECK(strcmp(cJSON_GetObjectItem(first, "status")->valuestring, "ok") == 0);
	CHECK(cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(first, "params"), "size")));
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(first, "samples_s")) == 2);
	CHECK_NEAR(cJSON_GetObjectItem(cJSON_GetObjectItem(first, "stats_s"), "median")->valuedouble,
		   2.5e-6, 1e-15);
	CHECK_NEAR(cJSON_GetObjectItem(first, "gbps_median")->valuedouble, 4096 / 2.5e-6 / 1e9, 1e-9);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(first, "us_per_op_median")));
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(first, "metrics"),
						      "speedup"), "value")->valuedouble == 2.5);
	CHECK(strcmp(cJSON_GetObjectItem(cJSON_GetArrayItem(results, 2), "status")->valuestring,
		     "failed") == 0);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(results, 1), "stats_s")));
	cJSON_Delete(doc);
	free(text);
	/* three samples, 2, 3 and 10 us: the median is not the mean */
	hmb_sample(rep.head, 10e-6);
	text = hmb_json_render(&rep);
	doc = text ? cJSON_Parse(text) : NULL;
	CHECK(doc != NULL);
	if (doc) {
		cJSON *st = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"),
								   0), "stats_s");
		CHECK(cJSON_GetObjectItem(st, "count")->valuedouble == 3);
		CHECK_NEAR(cJSON_GetObjectItem(st, "median")->valuedouble, 3e-6, 1e-15);
		CHECK_NEAR(cJSON_GetObjectItem(st, "mean")->valuedouble, 5e-6, 1e-15);
		CHECK_NEAR(cJSON_GetObjectItem(st, "min")->valuedouble, 2e-6, 1e-15);
		CHECK_NEAR(cJSON_GetObjectItem(st, "max")->valuedouble, 10e-6, 1e-15);
	}
	cJSON_Delete(doc);
	free(text);
	hmb_report_free(&rep);
}

/* The names of an array of strings, joined by commas ("" where there are none). */
static const char *names(const cJSON *a, char *buf, size_t len)
{
	const cJSON *v;
	size_t used = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(v, a)
		if (cJSON_IsString(v) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
						 v->valuestring);
	return buf;
}

/* The records of a document, read back into a report of their own. */
static void read_back(struct hmb_report *back, struct hmb_options *opt, const cJSON *doc)
{
	memset(opt, 0, sizeof(*opt));
	hmb_report_init(back, opt, "show");
	hmb_json_import_doc(back, doc);
}

/* A parameter's role is declared where it is written (engine/record.h): the
 * document carries it ("context", "gpu_param") and reading it back restores
 * it; a result of a document written before, which declares none, gets what
 * such documents meant (doc/identity.c's one table). */
static void test_param_roles(void)
{
	static const char *const older =
		"{\"tool\":{\"name\":\"hipmembench\"},\"schema_version\":1,\"results\":["
		"{\"module\":\"overlap\",\"case\":\"a\",\"status\":\"ok\","
		"\"params\":{\"iters\":5,\"load\":\"balanced\",\"timed\":\"t\"}},"
		"{\"module\":\"overlap\",\"case\":\"b\",\"status\":\"ok\",\"params\":{\"iters\":5}},"
		"{\"module\":\"node\",\"case\":\"c\",\"status\":\"ok\","
		"\"params\":{\"gpu\":3,\"gpus\":4,\"figure\":\"f\"}},"
		"{\"module\":\"xnack\",\"case\":\"d\",\"status\":\"ok\","
		"\"params\":{\"figure\":\"f\",\"gpus\":4,\"gpu\":1,\"device\":2}}]}";
	struct hmb_report rep, back;
	struct hmb_options opt, opt2;
	struct hmb_record *r, *a, *b, *c, *d;
	char *text, buf[256];
	cJSON *doc, *first;

	sample_report(&rep, &opt);
	r = rep.head;
	hmb_context_str(r, "timed", "one copy");
	hmb_param_gpu(r, "gpu", 2);
	hmb_param_gpu(r, "device", 1); /* one GPU parameter a record: gpu is context now */
	CHECK(hmb_record_gpu(r) == 1 && !strcmp(hmb_record_gpu_param(r)->key, "device"));
	CHECK(hmb_record_param_is_context(r, "timed") && hmb_record_param_is_context(r, "gpu") &&
	      hmb_record_param_is_context(r, "device"));
	CHECK(!hmb_record_param_is_context(r, "size") && !hmb_record_param_is_context(r, "nothing"));
	text = hmb_json_render(&rep);
	doc = text ? cJSON_Parse(text) : NULL;
	CHECK(doc != NULL);
	first = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 0);
	CHECK(!strcmp(names(cJSON_GetObjectItem(first, "context"), buf, sizeof(buf)),
		      "timed,gpu,device"));
	CHECK(cJSON_IsString(cJSON_GetObjectItem(first, "gpu_param")) &&
	      !strcmp(cJSON_GetObjectItem(first, "gpu_param")->valuestring, "device"));
	/* a result with no context: an empty list, no GPU */
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetArrayItem(
		cJSON_GetObjectItem(doc, "results"), 3), "context")) == 0);
	CHECK(!cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 3),
				   "gpu_param"));
	read_back(&back, &opt2, doc);
	CHECK(back.head && hmb_record_gpu(back.head) == 1 &&
	      hmb_record_param_is_context(back.head, "timed") &&
	      hmb_record_param_is_context(back.head, "gpu") &&
	      !hmb_record_param_is_context(back.head, "host_memory"));
	hmb_report_free(&back);
	/* the same result written before the roles: timed and device were context
	 * then, and a gpu parameter only node's */
	cJSON_DeleteItemFromObject(first, "context");
	cJSON_DeleteItemFromObject(first, "gpu_param");
	read_back(&back, &opt2, doc);
	CHECK(back.head && hmb_record_gpu(back.head) == 1 &&
	      hmb_record_param_is_context(back.head, "timed") &&
	      !hmb_record_param_is_context(back.head, "gpu"));
	hmb_report_free(&back);
	cJSON_Delete(doc);
	free(text);
	hmb_report_free(&rep);
	/* what an older document's table says, module by module */
	doc = cJSON_Parse(older);
	CHECK(doc != NULL);
	read_back(&back, &opt2, doc);
	a = back.head;
	b = a ? a->next : NULL;
	c = b ? b->next : NULL;
	d = c ? c->next : NULL;
	CHECK(d != NULL);
	if (d) {
		CHECK(hmb_record_param_is_context(a, "iters") && hmb_record_param_is_context(a, "timed"));
		CHECK(!hmb_record_param_is_context(b, "iters")); /* given, not calibrated */
		CHECK(hmb_record_gpu(c) == 3 && hmb_record_param_is_context(c, "gpus") &&
		      !hmb_record_param_is_context(c, "figure"));
		CHECK(hmb_record_param_is_context(d, "figure") && !hmb_record_param_is_context(d, "gpus"));
		CHECK(hmb_record_gpu(d) == 2 && !hmb_record_param_is_context(d, "gpu"));
	}
	hmb_report_free(&back);
	cJSON_Delete(doc);
}

/* A JSON file parsed whole (NULL if it is not one). */
static cJSON *read_document(const char *path)
{
	char *text = NULL;
	long len;
	cJSON *doc = NULL;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (text = calloc(1, (size_t)len + 1)) && fread(text, 1, (size_t)len, f) == (size_t)len)
		doc = cJSON_Parse(text);
	free(text);
	fclose(f);
	return doc;
}

/* Entries of a folder, . and .. aside. */
static int files_in(const char *dir)
{
	int n = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	if (d)
		closedir(d);
	return n;
}

/* A run keeps its results on disk as it goes: the first checkpoint and every
 * forced one write the document (complete: false) at once; between cases a
 * checkpoint writes only when the last one is older than the interval. */
static void test_checkpoint(void)
{
	struct hmb_report rep;
	struct hmb_options opt;
	char dir[] = "/tmp/hmb-ckpt-XXXXXX", path[300];
	double every = hmb_checkpoint_interval_s;
	cJSON *doc;

	sample_report(&rep, &opt);
	rep.complete = 0; /* a run going on */
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	opt.output = path;
	hmb_checkpoint(&rep, 1);
	doc = read_document(path);
	CHECK(doc && cJSON_GetArraySize(cJSON_GetObjectItem(doc, "results")) == 4);
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(doc, "complete")));
	cJSON_Delete(doc);

	hmb_report_add(&rep, hmb_record_new("memcpy", "d2d/device/async"));
	hmb_checkpoint_interval_s = 3600;     /* the last write is recent: nothing */
	hmb_checkpoint(&rep, 0);
	doc = read_document(path);
	CHECK(doc && cJSON_GetArraySize(cJSON_GetObjectItem(doc, "results")) == 4);
	cJSON_Delete(doc);
	hmb_checkpoint_interval_s = 0;        /* the interval has passed: written */
	hmb_checkpoint(&rep, 0);
	doc = read_document(path);
	CHECK(doc && cJSON_GetArraySize(cJSON_GetObjectItem(doc, "results")) == 5);
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(doc, "complete")));
	cJSON_Delete(doc);
	hmb_checkpoint_interval_s = 3600;     /* forced (after a module): at once */
	hmb_report_add(&rep, hmb_record_new("memcpy", "d2d/device/sync"));
	hmb_checkpoint(&rep, 1);
	doc = read_document(path);
	CHECK(doc && cJSON_GetArraySize(cJSON_GetObjectItem(doc, "results")) == 6);
	cJSON_Delete(doc);
	CHECK(files_in(dir) == 1);            /* no temporary file left beside it */
	hmb_checkpoint_interval_s = every;
	remove(path);
	remove(dir);
	hmb_report_free(&rep);
}

static void test_json_atomic_write(void)
{
	struct hmb_report rep;
	struct hmb_options opt;
	char err[512], dir[] = "/tmp/hmb-json-XXXXXX", path[300];

	sample_report(&rep, &opt);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	CHECK(hmb_output_writable(path, err, sizeof(err)) == 0);
	CHECK(hmb_json_write(&rep, path, err, sizeof(err)) == 0);
	{
		/* the whole document, with the report's records, and nothing beside it */
		cJSON *doc = read_document(path);
		cJSON *results = cJSON_GetObjectItem(doc, "results");
		CHECK(doc && cJSON_GetArraySize(results) == 4);
		CHECK(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
		cJSON_Delete(doc);
		CHECK(files_in(dir) == 1);
	}
	CHECK(hmb_output_writable("/nonexistent-dir/x.json", err, sizeof(err)) == -1 &&
	      strstr(err, "/nonexistent-dir/x.json"));
	CHECK(hmb_json_write(&rep, "/nonexistent-dir/x.json", err, sizeof(err)) == -1);
	remove(path);
	remove(dir);
	hmb_report_free(&rep);
}

static int write_sample(const char *path)
{
	struct hmb_report rep;
	struct hmb_options opt;
	struct hmb_summary_run *sum;
	char err[512];
	int rc;

	sample_report(&rep, &opt);
	rep.benches = hmb_benches; /* as the command line sets it: the modules' headlines */
	/* the processes on the GPU after the module: this run and another */
	{
		struct hmb_gpu_sample *g = hmb_telemetry_add(&rep.telemetry);
		snprintf(g->module, sizeof(g->module), "memcpy");
		snprintf(g->when, sizeof(g->when), "after");
		g->sm_clock_mhz = g->mem_clock_mhz = g->temperature_c = g->power_w = -1;
		g->link_gen = g->link_width = g->link_max_gen = g->link_max_width = -1;
		g->throttle_mask = g->throttled = -1;
		g->nprocs = 2;
		g->procs[0] = (struct hmb_gpu_proc){ 4242, 1LL << 30, 1 };
		g->procs[1] = (struct hmb_gpu_proc){ 777, -1, 0 };
		g->own_seen = 1;
		snprintf(rep.telemetry.procs_source, sizeof(rep.telemetry.procs_source),
			 "nvmlDeviceGetComputeRunningProcesses_v3");
	}
	/* what all adds at its end: the summary of the document (summary.h) */
	sum = hmb_summary_of_run(&rep);
	rc = hmb_json_write(&rep, path, err, sizeof(err));
	if (rc)
		fprintf(stderr, "%s\n", err);
	hmb_summary_of_run_free(&rep, sum);
	hmb_report_free(&rep);
	return rc || !sum ? 1 : 0;
}

void test_declared_headlines(void); /* test_headline.c */
void test_declared_peaks(void);  /* test_headline.c */
void test_declared_charts(void); /* test_headline.c */
void test_kernel_geometry(void); /* test_geometry.c */
void test_host_verify(void);     /* test_verify.c */
void test_verify_result(void);   /* test_verify.c */
void test_engine(void);          /* test_engine.c */
void test_case_selection(void);  /* test_select.c */
void test_keep_selected(void);   /* test_select.c */
void test_progress_callback(void); /* test_select.c */
void test_skip_module(void);     /* test_select.c */
void test_on_request_cases(void); /* test_select.c */
void test_host_environment(void); /* test_environment.c */
void test_pcie_settings(void);    /* test_environment.c */
void test_report_and_csv(void);  /* test_select.c */
/* test_memcpy_host.c */
void test_memcpy_smaps(void);
void test_memcpy_smaps_self(void);
void test_memcpy_hugetlb_sysfs(void);
void test_memcpy_thp_mode(void);
void test_memcpy_on_request(void);
void test_memcpy_sets(void);
void test_memcpy_reference_copies(void);
void test_break_even(void);      /* test_pinning.c */
void test_pinning_on_request(void); /* test_pinning.c */
void test_managed_oversub_size(void); /* test_managed.c */
void test_overlap_balanced_steps(void); /* test_overlap.c */
void test_mode_plan(void);       /* test_modeplan.c */
void test_code_objects(void);    /* test_modeplan.c */
void test_host_coherent_kinds(void); /* test_modeplan.c */
void test_rocm_guide(void);      /* test_modeplan.c */
void test_mode_runs_json(void);  /* test_modeplan.c */

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {
		{ "size parsing", test_size_parsing },
		{ "statistics", test_stats },
		{ "record summary", test_record_summary },
		{ "module options", test_options },
		{ "registry", test_registry },
		{ "headlines: each module's own, in the summary's order", test_declared_headlines },
		{ "peaks: the one a module declares for a case", test_declared_peaks },
		{ "charts: each module's own, of the cases it declares", test_declared_charts },
		{ "pcie link from sysfs", test_pcie_link },
		{ "json document", test_json_document },
		{ "telemetry: 500 samples kept, written and read back", test_telemetry_keeps_every_sample },
		{ "all: 20 GPUs' device objects kept", test_all_keeps_every_gpus_device },
		{ "all: 600 module runs kept", test_every_module_run_is_kept },
		{ "json atomic write", test_json_atomic_write },
		{ "checkpoints: forced at once, else after the interval", test_checkpoint },
		{ "memory model: managed access mode (MI250X xnack-/+, MI300X, MI300A, H100)",
		  test_memmodel_access_mode },
		{ "memory model: memory kinds, unsupported ones and why", test_memmodel_kinds },
		{ "memory model: host link and the peak used", test_memmodel_peak },
		{ "memory model: copy engines, copy path, hardware queues",
		  test_memmodel_copies_and_queues },
		{ "memory model: what info prints", test_memmodel_info },
		{ "memory model: AMD write-combined is plain pinned memory",
		  test_memmodel_amd_write_combined },
		{ "memory model: XNACK off, residency by prefetch", test_memmodel_xnack_off_residency },
		{ "memory model: why HSA_XNACK=1 was refused", test_memmodel_xnack_refused },
		{ "memory model: registered and uncached kinds", test_memmodel_registered_and_uncached },
		{ "memory model: copy engines on ROCm", test_memmodel_copy_engines },
		{ "memory model: visible GPUs, fine-grained device pool",
		  test_memmodel_visible_gpus_and_fine_grain },
		{ "kfd topology: partitions, hive, GPUs that block XNACK", test_kfd_partitions },
		{ "kfd topology: host link type and SDMA engines", test_kfd_topology },
		{ "kfd: gpu_id and the processes with memory on the GPU", test_kfd_processes },
		{ "pcie link: maximum capped by the upstream port", test_pcie_upstream_cap },
		{ "amd telemetry: clocks, temperature and power from sysfs", test_amd_sysfs },
		{ "amd telemetry: without rocm-smi, every reading from sysfs", test_amd_sysfs_alone },
		{ "amd telemetry: each reading from its rocm-smi call, else from sysfs",
		  test_amd_calls },
		{ "amd telemetry: throttle bits in words", test_amd_throttle },
		{ "amd telemetry: the document says what came from sysfs",
		  test_amd_reason_in_document },
		{ "rocm-smi: the GPU found by its PCI bus id (with a stand-in library)",
		  test_rsmi_open },
		{ "memory kinds: allocation refused where the platform lacks them", test_kind_alloc },
		{ "memory kinds: one table of names, flags and where each exists",
		  test_memkind_table },
		{ "memory kinds: pageable pages touched, system pages left untouched",
		  test_memkind_host_pages },
		{ "json: device memory model", test_json_memory_model },
		{ "record: a parameter's role declared, carried by the document, or an older "
		  "document's", test_param_roles },
		{ "kernel launch geometry", test_kernel_geometry },
		{ "host pattern fill and check over threads", test_host_verify },
		{ "verification: a count of wrong words is the failure", test_verify_result },
		{ "significance", hmb_test_significance },
		{ "runs: three runs of a module merged into one record per result",
		  hmb_test_runs_merge },
		{ "runs: each figure's resolution from its runs and the figures alike",
		  hmb_test_runs_resolution },
		{ "merge: a document's records join the first's, tagged with their document",
		  hmb_test_runs_merge_documents },
		{ "resolution: runs and documents weighed against the figures alike",
		  hmb_test_resolution },
		{ "runs: merged runs judged over the runs, not as one run's document said",
		  hmb_test_runs_rejudged },
		{ "runs: all's rounds, each module's runs merged across the others'",
		  hmb_test_runs_interleaved },
		{ "numbers for the compare table: as printf writes them", hmb_test_numfmt },
		{ "outside text: valid UTF-8 kept, every other byte shown as hex", hmb_test_text },
		{ "refusals: the nearest names and the numbers there are", hmb_test_nearest },
		{ "report plots: a long subtitle wraps onto up to four lines", hmb_test_svg_wrap },
		{ "stability: the median's interval and the stable rule",
		  hmb_test_stability_interval },
		{ "stability: drift, bimodality and outliers", hmb_test_stability_shape },
		{ "telemetry: other processes on the GPU from a faked NVML list",
		  hmb_test_neighbours },
		{ "engine: failure at every HMB_FAULT point gives everything back", test_engine },
		{ "topology and NUMA placement (test_topology.c)", test_topology },
		{ "GPUs together: a faked 8-GPU node's host groups, waves, processes and wall time",
		  test_schedule_eight_gpus },
		{ "GPUs together: a GPU's host port from sysfs", test_schedule_host_port },
		{ "case selection", test_case_selection },
		{ "case selection: an unselected record is dropped", test_keep_selected },
		{ "progress: each finished record handed on once, in order", test_progress_callback },
		{ "case selection: a module's skipped size is kept under --case", test_skip_module },
		{ "on-request cases", test_on_request_cases },
		{ "host environment from /sys and /proc", test_host_environment },
		{ "pcie payload sizes and iommu domain", test_pcie_settings },
		{ "report: failures counted, CSV fields quoted", test_report_and_csv },
		{ "table: headings, units, whole numbers, the GPU column, 120 columns",
		  hmb_test_table },
		{ "progress lines cut to COLUMNS; CSV direction", hmb_test_progress_and_csv },
		{ "memcpy: /proc/self/smaps over a range", test_memcpy_smaps },
		{ "memcpy: this process's smaps, fresh and touched", test_memcpy_smaps_self },
		{ "memcpy: hugetlb pages from sysfs, or why not", test_memcpy_hugetlb_sysfs },
		{ "memcpy: transparent huge page mode", test_memcpy_thp_mode },
		{ "memcpy: on-request families", test_memcpy_on_request },
		{ "memcpy: buffer sets over a cache", test_memcpy_sets },
		{ "memcpy: the reference loop's copies per sample", test_memcpy_reference_copies },
		{ "memcpy: break-even of pinning, and when it never pays", test_break_even },
		{ "memcpy: pinning and batch cases run on request only", test_pinning_on_request },
		{ "managed: oversubscribed sizes only under --oversubscribe, else skipped",
		  test_managed_oversub_size },
		{ "overlap: the balanced load is a power of two, kept through a few % of noise",
		  test_overlap_balanced_steps },
		{ "all on AMD: runs per XNACK mode (faked devices)", test_mode_plan },
		{ "code objects: XNACK and SRAMECC settings against the device", test_code_objects },
		{ "HIP_HOST_COHERENT: the measured kinds it changes", test_host_coherent_kinds },
		{ "ROCm guide: xnack and managed records against its table", test_rocm_guide },
		{ "all on AMD: module_runs keeps each run's environment", test_mode_runs_json },
	};
	const size_t ntests = sizeof(tests) / sizeof(tests[0]);
	const char *only = argc == 2 && strcmp(argv[1], "--list") ? argv[1] : NULL;
	int passed = 0, failed = 0;

	if (argc == 3 && strcmp(argv[1], "--sample-json") == 0)
		return write_sample(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--runs-json") == 0)
		return hmb_test_write_runs_json(argv[2]);
	if (argc == 2 && !only) {
		for (size_t i = 0; i < ntests; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	for (size_t i = 0; i < ntests; i++) {
		int before = hmb_test_failed_checks;
		if (only && strcmp(only, tests[i].name))
			continue;
		tests[i].fn();
		if (hmb_test_failed_checks == before) {
			printf("ok   unit: %s\n", tests[i].name);
			passed++;
		} else {
			printf("FAIL unit: %s\n", tests[i].name);
			failed++;
		}
	}
	if (only && passed + failed == 0) {
		fprintf(stderr, "unit_tests: no test named '%s' (--list names them)\n", only);
		return 2;
	}
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
