/*
 * test_amd_telemetry.c - the AMD telemetry route on a fake sysfs tree and
 * fake rocm-smi calls: each reading from its call (clocks, temperature,
 * power, PCIe link, throttle status), from sysfs where the call fails or is
 * missing, or where the library is of another major version than the
 * rocm_smi.h built with; the route without the library; the throttle bits in
 * words; the document saying what came from sysfs; and the GPU found by its
 * bus id in a stand-in librocm_smi64 (tests/test_emulated_runtime.py).
 * The library's values and the tree's differ, so that each check tells
 * which of them a reading came from.
 */
#include <cjson/cJSON.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doc/json_import.h"
#include "doc/json_write.h"
#include "engine/report.h"
#include "harness.h"
#include "telemetry/amd_sysfs.h"
#include "telemetry/amd_throttle.h"
#include "telemetry/telemetry.h"
#include "telemetry/telemetry_amd.h"

void test_amd_sysfs(void);
void test_amd_sysfs_alone(void);
void test_amd_calls(void);
void test_amd_throttle(void);
void test_amd_reason_in_document(void);
void test_rsmi_open(void);

#define GPU "bus/pci/devices/0000:c1:00.0"

/* Write `text` to root/<path made from fmt>, creating the directories on the way. */
static void put(const char *root, const char *text, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void put(const char *root, const char *text, const char *fmt, ...)
{
	char path[512], rel[256];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	if ((f = fopen(path, "w"))) {
		fputs(text, f);
		fclose(f);
	}
}

/* A GPU as amdgpu shows it at `gpu`: 1700 / 1300 MHz, 47 C edge (61 C
 * junction), 295 W now (310 W average), its link at gen3 x8 of gen4 x16. */
static void fake_gpu(const char *root, const char *gpu)
{
	put(root, "0: 800Mhz\n1: 1700Mhz *\n2: 2100Mhz\n", "%s/pp_dpm_sclk", gpu);
	put(root, "0: 400Mhz\n1: 900Mhz\n2: 1300Mhz *\n", "%s/pp_dpm_mclk", gpu);
	put(root, "edge\n", "%s/hwmon/hwmon3/temp1_label", gpu);
	put(root, "47000\n", "%s/hwmon/hwmon3/temp1_input", gpu);
	put(root, "junction\n", "%s/hwmon/hwmon3/temp2_label", gpu);
	put(root, "61000\n", "%s/hwmon/hwmon3/temp2_input", gpu);
	put(root, "295000000\n", "%s/hwmon/hwmon3/power1_input", gpu);
	put(root, "310000000\n", "%s/hwmon/hwmon3/power1_average", gpu);
	put(root, "8.0 GT/s PCIe\n", "%s/current_link_speed", gpu);
	put(root, "8\n", "%s/current_link_width", gpu);
	put(root, "16.0 GT/s PCIe\n", "%s/max_link_speed", gpu);
	put(root, "16\n", "%s/max_link_width", gpu);
}

static int scratch(char *root)
{
	if (mkdtemp(root))
		return 0;
	CHECK(!"mkdtemp");
	return -1;
}

static void blank(struct hmb_gpu_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->sm_clock_mhz = s->mem_clock_mhz = s->temperature_c = s->power_w = -1;
	s->link_gen = s->link_width = s->link_max_gen = s->link_max_width = -1;
	s->throttle_mask = -1;
	s->throttled = -1;
}

/* Every reading the tree of fake_gpu gives, and no throttle status. */
static int from_tree(const struct hmb_gpu_sample *s)
{
	return s->sm_clock_mhz == 1700 && s->mem_clock_mhz == 1300 && s->temperature_c == 47 &&
	       s->power_w == 295 && s->link_gen == 3 && s->link_width == 8 &&
	       s->link_max_gen == 4 && s->link_max_width == 16 && s->throttled == -1 &&
	       s->throttle_mask == -1;
}

static void show(const char *what, const struct hmb_gpu_sample *s)
{
	fprintf(stderr, "    %s: %.0f/%.0f MHz, %.1f C, %.1f W, gen%d x%d of gen%d x%d, throttle "
		"%lld (%d) '%s'\n", what, s->sm_clock_mhz, s->mem_clock_mhz, s->temperature_c,
		s->power_w, s->link_gen, s->link_width, s->link_max_gen, s->link_max_width,
		s->throttle_mask, s->throttled, s->throttle);
}

void test_amd_sysfs(void)
{
	char root[] = "/tmp/hmb-amd-XXXXXX", dir[320], dir2[320];

	if (scratch(root))
		return;
	fake_gpu(root, GPU);
	CHECK(hmb_amd_sysfs_dir("0000:C1:00.0", root, dir, sizeof(dir)) == 0);  /* HIP's case */
	CHECK(strstr(dir, "/bus/pci/devices/0000:c1:00.0") && strncmp(dir, root, strlen(root)) == 0);
	CHECK(hmb_amd_sysfs_dir("0000:c2:00.0", root, dir2, sizeof(dir2)) == -1);
	CHECK(hmb_amd_sysfs_dir("c1:00.0", root, dir2, sizeof(dir2)) == -1);
	CHECK(hmb_amd_sysfs_clock_mhz(dir, "pp_dpm_sclk") == 1700);
	CHECK(hmb_amd_sysfs_clock_mhz(dir, "pp_dpm_mclk") == 1300);
	CHECK(hmb_amd_sysfs_clock_mhz(dir, "pp_dpm_fclk") == -1);
	CHECK(hmb_amd_sysfs_temperature_c(dir) == 47);
	CHECK(hmb_amd_sysfs_power_w(dir) == 295);
	CHECK(hmb_amd_sysfs_clock_mhz(NULL, "pp_dpm_sclk") == -1 &&
	      hmb_amd_sysfs_temperature_c(NULL) == -1 && hmb_amd_sysfs_power_w(NULL) == -1);

	/* deep sleep: the level marked is S; no level marked: unknown */
	put(root, "S: 19Mhz *\n0: 800Mhz\n1: 1700Mhz\n", "%s/pp_dpm_sclk", GPU);
	put(root, "0: 400Mhz\n1: 900Mhz\n", "%s/pp_dpm_mclk", GPU);
	CHECK(hmb_amd_sysfs_clock_mhz(dir, "pp_dpm_sclk") == 19);
	CHECK(hmb_amd_sysfs_clock_mhz(dir, "pp_dpm_mclk") == -1);
	/* no current power: the average; neither: unknown */
	unlink(strcat(strcpy(dir2, dir), "/hwmon/hwmon3/power1_input"));
	CHECK(hmb_amd_sysfs_power_w(dir) == 310);
	put(root, "0\n", "%s/hwmon/hwmon3/power1_average", GPU);
	CHECK(hmb_amd_sysfs_power_w(dir) == -1);
	/* MI300: no edge sensor, the junction one second; labels of another order */
	put(root, "mem\n", "%s/hwmon/hwmon3/temp1_label", GPU);
	put(root, "80000\n", "%s/hwmon/hwmon3/temp1_input", GPU);
	put(root, "junction\n", "%s/hwmon/hwmon3/temp2_label", GPU);
	put(root, "71000\n", "%s/hwmon/hwmon3/temp2_input", GPU);
	put(root, "edge\n", "%s/hwmon/hwmon3/temp3_label", GPU);
	CHECK(hmb_amd_sysfs_temperature_c(dir) == 71);       /* temp3 has no input */
	put(root, "52500\n", "%s/hwmon/hwmon3/temp3_input", GPU);
	CHECK(hmb_amd_sysfs_temperature_c(dir) == 52.5);
	hmb_test_remove_tree(root);

	/* no labels at all: the first sensor */
	if (scratch(strcpy(root, "/tmp/hmb-amd-XXXXXX")))
		return;
	put(root, "40000\n", "%s/hwmon/hwmon0/temp1_input", GPU);
	CHECK(hmb_amd_sysfs_dir("0000:c1:00.0", root, dir, sizeof(dir)) == 0);
	CHECK(hmb_amd_sysfs_temperature_c(dir) == 40);
	CHECK(hmb_amd_sysfs_power_w(dir) == -1 && hmb_amd_sysfs_clock_mhz(dir, "pp_dpm_sclk") == -1);
	hmb_test_remove_tree(root);
}

/* Without librocm_smi64 the route reads everything from sysfs and says so. */
void test_amd_sysfs_alone(void)
{
	char root[] = "/tmp/hmb-amd-XXXXXX", note[256] = "x";
	struct hmb_telemetry t;
	struct hmb_gpu_sample s;

	if (scratch(root))
		return;
	fake_gpu(root, GPU);
	hmb_amd_use(NULL, 0, "0000:c1:00.0", root, note, sizeof(note));
	CHECK(note[0] == '\0');
	blank(&s);
	hmb_amd_sample(&s);
	CHECK(from_tree(&s));
	if (!from_tree(&s))
		show("sysfs alone", &s);

	memset(&t, 0, sizeof(t));
	snprintf(t.reason, sizeof(t.reason), "librocm_smi64 not found: no such file");
	CHECK(hmb_rsmi_open_with(&t, NULL, "0000:c1:00.0", root) == 0 && t.lib == NULL);
	CHECK(strcmp(t.reason, "librocm_smi64 not found: no such file: clocks, temperature, "
		     "power and PCIe link from sysfs, no throttle status") == 0);
	blank(&s);
	hmb_telemetry_rocm_smi.read(&t, &s);
	CHECK(from_tree(&s));
	hmb_telemetry_rocm_smi.close(&t);
	/* a GPU that sysfs does not have either: no telemetry, both reasons */
	memset(&t, 0, sizeof(t));
	snprintf(t.reason, sizeof(t.reason), "librocm_smi64 not found: no such file");
	CHECK(hmb_rsmi_open_with(&t, NULL, "0000:d1:00.0", root) == -1);
	CHECK(strncmp(t.reason, "librocm_smi64 not found: no such file; no sysfs folder ", 55) == 0);
	CHECK(strstr(t.reason, "/bus/pci/devices/0000:d1:00.0") != NULL);
	memset(&t, 0, sizeof(t));
	CHECK(hmb_rsmi_open_with(&t, NULL, "c1:00.0", root) == -1 &&
	      strcmp(t.reason, "unreadable PCI bus id 'c1:00.0'") == 0);
	hmb_test_remove_tree(root);
}

/* ---- fake rocm-smi calls: device 3; fake.fail makes every call fail ---- */

#define DEV 3
static struct {
	int fail, no_edge, socket_w, tables_called;
	unsigned major;
	uint32_t asic;
	uint64_t indep;
	int empty_table;
} fake;

static hmb_rsmi_status fake_temp(uint32_t dv, uint32_t sensor, hmb_rsmi_temp_metric metric,
				 int64_t *milli)
{
	if (fake.fail || dv != DEV || metric != HMB_RSMI_TEMP_CURRENT ||
	    (sensor == HMB_RSMI_TEMP_EDGE && fake.no_edge))
		return 2;                              /* RSMI_STATUS_NOT_SUPPORTED */
	if (sensor != HMB_RSMI_TEMP_EDGE && sensor != HMB_RSMI_TEMP_JUNCTION)
		return 2;
	*milli = sensor == HMB_RSMI_TEMP_EDGE ? 52000 : 66500;
	return 0;
}

static hmb_rsmi_status fake_socket_power(uint32_t dv, uint64_t *uw)
{
	if (fake.fail || dv != DEV || !fake.socket_w)
		return 2;
	*uw = (uint64_t)fake.socket_w * 1000000;
	return 0;
}

static hmb_rsmi_status fake_power_ave(uint32_t dv, uint32_t sensor, uint64_t *uw)
{
	if (fake.fail || dv != DEV || sensor != 0)
		return 2;
	*uw = 250000000;
	return 0;
}

#if HMB_RSMI_HEADER
static rsmi_status_t fake_version(rsmi_version_t *v)
{
	v->major = fake.major;
	v->minor = 9;
	v->patch = 1;
	v->build = "fake";
	return 0;
}

/* System clock 800/1500/2100 MHz at 1500; memory 400/900/1600 MHz at 1600. */
static rsmi_status_t fake_clk(uint32_t dv, rsmi_clk_type_t type, rsmi_frequencies_t *f)
{
	fake.tables_called++;
	if (fake.fail || dv != DEV || (type != RSMI_CLK_TYPE_SYS && type != RSMI_CLK_TYPE_MEM))
		return 2;
	f->num_supported = fake.empty_table ? 0 : 3;
	f->current = type == RSMI_CLK_TYPE_SYS ? 1 : 2;
	f->frequency[0] = type == RSMI_CLK_TYPE_SYS ? 800000000 : 400000000;
	f->frequency[1] = type == RSMI_CLK_TYPE_SYS ? 1500000000 : 900000000;
	f->frequency[2] = type == RSMI_CLK_TYPE_SYS ? 2100000000 : 1600000000;
	return 0;
}

/* gen5 x16 at most, now at gen4 x8 (a link table is not sorted by lanes) */
static rsmi_status_t fake_pcie(uint32_t dv, rsmi_pcie_bandwidth_t *b)
{
	fake.tables_called++;
	if (fake.fail || dv != DEV)
		return 2;
	b->transfer_rate.num_supported = 3;
	b->transfer_rate.current = fake.empty_table ? 3 : 1;
	b->transfer_rate.frequency[0] = 2500000000;
	b->transfer_rate.frequency[1] = 16000000000;
	b->transfer_rate.frequency[2] = 32000000000;
	b->lanes[0] = 16;
	b->lanes[1] = 8;
	b->lanes[2] = 4;
	return 0;
}

static rsmi_status_t fake_metrics(uint32_t dv, rsmi_gpu_metrics_t *m)
{
	fake.tables_called++;
	if (fake.fail || dv != DEV)
		return 2;
	m->throttle_status = fake.asic;
#if rocm_smi_VERSION_MAJOR >= 7
	if (fake.indep != UINT64_MAX)
		m->indep_throttle_status = fake.indep;
#endif
	return 0;
}
#endif

static const struct hmb_rsmi_calls fake_calls = {
	.temp = fake_temp, .socket_power = fake_socket_power, .power_ave = fake_power_ave,
#if HMB_RSMI_HEADER
	.version = fake_version, .clk = fake_clk, .pcie = fake_pcie, .metrics = fake_metrics,
#endif
};

static void use(const struct hmb_rsmi_calls *c, const char *root, char *note, size_t len)
{
	hmb_amd_use(c, DEV, "0000:c1:00.0", root, note, len);
}

void test_amd_calls(void)
{
	char root[] = "/tmp/hmb-amd-XXXXXX", note[256];
	struct hmb_rsmi_calls c = fake_calls;
	struct hmb_gpu_sample s;

	if (scratch(root))
		return;
	fake_gpu(root, GPU);
	memset(&fake, 0, sizeof(fake));
	fake.indep = UINT64_MAX;
#if HMB_RSMI_HEADER
	fake.major = rocm_smi_VERSION_MAJOR;
	fake.indep = 1ull << 1;                /* PPT1 */
#endif
	use(&c, root, note, sizeof(note));
	blank(&s);
	hmb_amd_sample(&s);
	/* temperature (edge) and power (the average: no current socket power) */
	CHECK(s.temperature_c == 52 && s.power_w == 250);
#if HMB_RSMI_HEADER
	CHECK(note[0] == '\0');
	CHECK(s.sm_clock_mhz == 1500 && s.mem_clock_mhz == 1600);
	CHECK(s.link_gen == 4 && s.link_width == 8 && s.link_max_gen == 5 && s.link_max_width == 16);
#if rocm_smi_VERSION_MAJOR >= 7
	CHECK(s.throttled == 1 && s.throttle_mask == 2 && strcmp(s.throttle, "power limit") == 0);
#else
	CHECK(s.throttled == 0 && s.throttle_mask == 0);  /* ASIC bits, none set */
#endif
	if (s.sm_clock_mhz != 1500 || s.link_width != 8)
		show("rocm-smi", &s);
	/* ASIC-specific bits only: recorded, their meaning unknown */
	fake.indep = UINT64_MAX;
	fake.asic = 0x4;
	blank(&s);
	hmb_amd_sample(&s);
	CHECK(s.throttled == -1 && s.throttle_mask == 4 &&
	      strcmp(s.throttle, "ASIC-specific throttle bits 0x4") == 0);
	/* tables that name no current level: clocks and link from sysfs */
	fake.empty_table = 1;
	blank(&s);
	hmb_amd_sample(&s);
	CHECK(s.sm_clock_mhz == 1700 && s.mem_clock_mhz == 1300);
	CHECK(s.link_gen == 3 && s.link_width == 8 && s.link_max_gen == 4);
	fake.empty_table = 0;

	/* a library of another major version: its structures are not the
	 * header's, so they are not asked for; the numbers still are */
	fake.major = rocm_smi_VERSION_MAJOR + 1;
	fake.tables_called = 0;
	use(&c, root, note, sizeof(note));
	CHECK(strstr(note, "is not of the major version of the rocm_smi.h") &&
	      strstr(note, ".9.1 ") &&
	      strstr(note, "clocks and PCIe link from sysfs, no throttle status"));
	blank(&s);
	hmb_amd_sample(&s);
	CHECK(fake.tables_called == 0);
	CHECK(s.sm_clock_mhz == 1700 && s.link_gen == 3 && s.link_max_width == 16);
	CHECK(s.temperature_c == 52 && s.power_w == 250 && s.throttled == -1);
	c.version = NULL;
	use(&c, root, note, sizeof(note));
	CHECK(strstr(note, "does not say its version") != NULL);
	c.version = fake_version;
	fake.major = rocm_smi_VERSION_MAJOR;
#else
	CHECK(strcmp(note, "built without rocm_smi.h: clocks and PCIe link from sysfs, "
		     "no throttle status") == 0);
	CHECK(s.sm_clock_mhz == 1700 && s.mem_clock_mhz == 1300 && s.link_gen == 3);
	CHECK(s.throttled == -1);
#endif

	/* MI300: no edge sensor, a current socket power */
	fake.no_edge = 1;
	fake.socket_w = 700;
	use(&c, root, note, sizeof(note));
	blank(&s);
	hmb_amd_sample(&s);
	CHECK(s.temperature_c == 66.5 && s.power_w == 700);

	/* every call fails: sysfs, metric by metric */
	fake.fail = 1;
	blank(&s);
	hmb_amd_sample(&s);
	CHECK(from_tree(&s));
	if (!from_tree(&s))
		show("calls failing", &s);
	/* calls the library lacks: the same */
	fake.fail = 0;
	memset(&c, 0, sizeof(c));
	use(&c, root, note, sizeof(note));
	blank(&s);
	hmb_amd_sample(&s);
	CHECK(from_tree(&s));
	/* neither: the readings are left as they were */
	hmb_amd_use(&c, DEV, "0000:e1:00.0", root, note, sizeof(note));
	blank(&s);
	s.power_w = 5;
	hmb_amd_sample(&s);
	CHECK(s.power_w == 5 && s.sm_clock_mhz == -1 && s.temperature_c == -1 && s.link_gen == -1);
	hmb_test_remove_tree(root);
}

void test_amd_throttle(void)
{
	struct hmb_gpu_sample s;
	char words[160];

	CHECK(hmb_amd_throttle_words(0, words, sizeof(words)) == 0 && words[0] == '\0');
	CHECK(hmb_amd_throttle_words(1ull << 57, words, sizeof(words)) == 0 &&
	      strcmp(words, "FIT") == 0);
	CHECK(hmb_amd_throttle_words(1ull << 17 | 1ull << 46, words, sizeof(words)) == 1 &&
	      strcmp(words, "current limit, PROCHOT") == 0);
	CHECK(hmb_amd_throttle_words(1ull << 0 | 1ull << 36 | 1ull << 44, words, sizeof(words)) == 1 &&
	      strcmp(words, "power limit, temperature, voltage regulator hot") == 0);
	CHECK(hmb_amd_throttle_words(1ull << 8 | 1ull << 24, words, sizeof(words)) == 0 &&
	      words[0] == '\0');              /* bits no group names */
	blank(&s);
	hmb_amd_throttle(&s, UINT64_MAX, UINT32_MAX);  /* neither given */
	CHECK(s.throttled == -1 && s.throttle_mask == -1 && s.throttle[0] == '\0');
	hmb_amd_throttle(&s, 1ull << 33, 0x4);         /* the independent bits win */
	CHECK(s.throttled == 1 && s.throttle_mask == (long long)(1ull << 33) &&
	      strcmp(s.throttle, "temperature") == 0);
	hmb_amd_throttle(&s, UINT64_MAX, 0);
	CHECK(s.throttled == 0 && s.throttle_mask == 0 && s.throttle[0] == '\0');
	hmb_amd_throttle(&s, UINT64_MAX, 0x30);        /* what an ASIC's bit means is its own */
	CHECK(s.throttled == -1 && s.throttle_mask == 0x30 &&
	      strcmp(s.throttle, "ASIC-specific throttle bits 0x30") == 0);
}

/* The document keeps the line saying what came from sysfs, and reads it back. */
void test_amd_reason_in_document(void)
{
	static const char note[] = "librocm_smi64 not found: x: clocks, temperature, power and "
				   "PCIe link from sysfs, no throttle status";
	struct hmb_report rep, back;
	struct hmb_options opt, opt2;
	char path[] = "/tmp/hmb-amd-doc-XXXXXX", err[256], *text;
	cJSON *doc, *t;
	int fd;

	memset(&opt, 0, sizeof(opt));
	hmb_report_init(&rep, &opt, "info");
	rep.telemetry.available = 1;
	snprintf(rep.telemetry.source, sizeof(rep.telemetry.source), "rocm-smi");
	snprintf(rep.telemetry.reason, sizeof(rep.telemetry.reason), "%s", note);
	snprintf(hmb_telemetry_add(&rep.telemetry)->module, 32, "info");
	text = hmb_json_render(&rep);
	doc = text ? cJSON_Parse(text) : NULL;
	t = cJSON_GetObjectItem(doc, "telemetry");
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(t, "available")));
	CHECK(cJSON_IsString(cJSON_GetObjectItem(t, "reason")) &&
	      strcmp(cJSON_GetObjectItem(t, "reason")->valuestring, note) == 0);
	cJSON_Delete(doc);
	free(text);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK(hmb_json_write(&rep, path, err, sizeof(err)) == 0);
	memset(&opt2, 0, sizeof(opt2));
	hmb_report_init(&back, &opt2, "all");
	CHECK(hmb_json_import(&back, path, err, sizeof(err)) == 0);
	CHECK(back.telemetry.available && strcmp(back.telemetry.reason, note) == 0);
	/* telemetry with nothing to say: no reason */
	rep.telemetry.reason[0] = '\0';
	text = hmb_json_render(&rep);
	doc = text ? cJSON_Parse(text) : NULL;
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "telemetry"), "reason")));
	cJSON_Delete(doc);
	free(text);
	unlink(path);
	hmb_report_free(&back);
	hmb_report_free(&rep);
}

/* Through dlopen: a stand-in librocm_smi64.so.1 on the library path
 * (HMB_UNIT_RSMI_STANDIN set; tests/test_emulated_runtime.py builds it) that
 * knows two GPUs, the second at 0000:c3:1f.5 (partition bits set in its
 * bdfid), 51 C and 287 W average there, a version of no rocm_smi.h, and
 * counts rsmi_init less rsmi_shut_down in hmb_standin_live. */
static int rsmi_try(struct hmb_telemetry *t, const char *bus_id, const char *root, int *live,
		    int *with_lib)
{
	char why[256] = "";
	void *keep = hmb_rsmi_load(why, sizeof(why));  /* held past the route's dlclose */
	void *lib = keep ? hmb_rsmi_load(why, sizeof(why)) : NULL;
	const int *count;
	int rc;

	memset(t, 0, sizeof(*t));
	*with_lib = -1;
	if (!lib) {
		CHECK(!"stand-in librocm_smi64 loaded");
		fprintf(stderr, "    %s\n", why);
		return -2;
	}
	count = (const int *)dlsym(keep, "hmb_standin_live");
	CHECK(count != NULL);
	rc = hmb_rsmi_open_with(t, lib, bus_id, root);
	if (rc == 0) {
		struct hmb_gpu_sample s;
		*with_lib = t->lib == lib;
		blank(&s);
		hmb_telemetry_rocm_smi.read(t, &s);
		/* the library's temperature and power where it knows the GPU */
		CHECK(s.temperature_c == (t->lib ? 51 : 47) && s.power_w == (t->lib ? 287 : 295));
		CHECK(s.sm_clock_mhz == 1700 && s.link_gen == 3);  /* from the tree */
		hmb_telemetry_rocm_smi.close(t);
		if (t->lib)
			dlclose(t->lib);
	}
	*live = count ? *count : -1;
	dlclose(keep);
	return rc;
}

void test_rsmi_open(void)
{
	char root[] = "/tmp/hmb-amd-XXXXXX";
	struct hmb_telemetry t;
	int live, with_lib;

	if (!getenv("HMB_UNIT_RSMI_STANDIN") || scratch(root))
		return;
	fake_gpu(root, "bus/pci/devices/0000:c3:1f.5");
	CHECK(rsmi_try(&t, "0000:c3:1f.5", root, &live, &with_lib) == 0 && with_lib == 1);
	CHECK(live == 0 && strstr(t.reason, "clocks and PCIe link from sysfs") != NULL);
	/* a GPU the library does not have: sysfs alone, or nothing */
	CHECK(rsmi_try(&t, "0000:c3:1f.4", root, &live, &with_lib) == -1 && live == 0);
	CHECK(strncmp(t.reason, "rocm-smi has no device at 0000:c3:1f.4; no sysfs folder ", 56) == 0);
	fake_gpu(root, "bus/pci/devices/0000:c3:1f.4");
	CHECK(rsmi_try(&t, "0000:c3:1f.4", root, &live, &with_lib) == 0 && with_lib == 0);
	CHECK(live == 0 && strcmp(t.reason, "rocm-smi has no device at 0000:c3:1f.4: clocks, "
				  "temperature, power and PCIe link from sysfs, no throttle "
				  "status") == 0);
	CHECK(rsmi_try(&t, "c3:1f.5", root, &live, &with_lib) == -1 &&
	      strcmp(t.reason, "unreadable PCI bus id 'c3:1f.5'") == 0);
	hmb_test_remove_tree(root);
}
