/*
 * test_amd_layouts.c - the AMD telemetry backends against fake libraries:
 * each fake says a library version and fills the buffers it is handed the
 * way that version's library does (the structures below are written from
 * that version's real header, independently of the project's layout table),
 * and the backend's sample must read the right clocks, temperature, power,
 * link and throttle status. A version not known is refused with one line,
 * before any other call.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "telemetry/telemetry.h"
#include "telemetry/telemetry_amd.h"

void test_rsmi_layouts(void);
void test_amdsmi_layouts(void);
void test_amdsmi_open(void);

/* rocm_smi.h of 5.2 (rsmi_frequencies_t, rsmi_pcie_bandwidth_t: 264, 392 bytes) */
struct freq5 {
	uint32_t num_supported, current;
	uint64_t frequency[32];
};
struct pcie5 {
	struct freq5 transfer_rate;
	uint32_t lanes[32];
};
/* rocm_smi.h of 6.4 and 7.2 (280, 416 bytes) */
struct freq6 {
	bool has_deep_sleep;
	uint32_t num_supported, current;
	uint64_t frequency[33];
};
struct pcie6 {
	struct freq6 transfer_rate;
	uint32_t lanes[33];
};

/* The leading part of the GPU metrics table: rsmi_gpu_metrics_t of 5.2 (to
 * temperature_hbm; 6.4 and 7.2 go on as below, without the padding field
 * but at the same offsets), amdsmi_gpu_metrics_t of amdsmi 27 (64-bit
 * activity counters). */
#define METRICS_HEAD                                                                       \
	uint16_t structure_size;                                                           \
	uint8_t format_revision, content_revision;                                         \
	uint16_t temperature_edge, temperature_hotspot, temperature_mem, temperature_vrgfx, \
		temperature_vrsoc, temperature_vrmem;                                      \
	uint16_t average_gfx_activity, average_umc_activity, average_mm_activity;          \
	uint16_t average_socket_power;                                                     \
	uint64_t energy_accumulator, system_clock_counter;                                 \
	uint16_t average_gfxclk_frequency, average_socclk_frequency, average_uclk_frequency, \
		average_vclk0_frequency, average_dclk0_frequency, average_vclk1_frequency, \
		average_dclk1_frequency;                                                   \
	uint16_t current_gfxclk, current_socclk, current_uclk, current_vclk0, current_dclk0, \
		current_vclk1, current_dclk1;                                              \
	uint32_t throttle_status;                                                          \
	uint16_t current_fan_speed;                                                        \
	uint16_t pcie_link_width, pcie_link_speed;
struct rsmi_metrics {
	METRICS_HEAD
	uint32_t gfx_activity_acc, mem_activity_acc;
	uint16_t temperature_hbm[4];
	uint64_t firmware_timestamp;
	uint16_t voltage_soc, voltage_gfx, voltage_mem;
	uint64_t indep_throttle_status;
	uint16_t current_socket_power;
};
struct amdsmi27_metrics {
	METRICS_HEAD
	uint64_t gfx_activity_acc, mem_activity_acc;
	uint16_t temperature_hbm[4];
	uint64_t firmware_timestamp;
	uint16_t voltage_soc, voltage_gfx, voltage_mem;
	uint64_t indep_throttle_status;
	uint16_t current_socket_power;
};

/* What the fake library says and how it lays its tables out. */
static struct {
	uint32_t version[3];
	int old_version_struct;        /* amdsmi before 6.x: year, major, minor, release */
	int v6;                        /* rocm-smi 6.x tables, else 5.x */
	int calls;                     /* calls other than the version */
} fake;

static int fake_version(void *out)
{
	if (fake.old_version_struct) {
		uint32_t v[4] = { 23, fake.version[0], fake.version[1], fake.version[2] };
		memcpy(out, v, sizeof(v));
	} else {
		memcpy(out, fake.version, sizeof(fake.version));
	}
	return 0;
}

/* A table of 3 entries, the second current: system clock 800/1700/2100 MHz,
 * memory 400/900/1300 MHz. */
static void fill_freq5(struct freq5 *f, uint64_t a, uint64_t b, uint64_t c)
{
	f->num_supported = 3;
	f->current = 1;
	f->frequency[0] = a;
	f->frequency[1] = b;
	f->frequency[2] = c;
}

static void fill_freq6(struct freq6 *f, uint64_t a, uint64_t b, uint64_t c)
{
	f->has_deep_sleep = true;
	f->num_supported = 3;
	f->current = 1;
	f->frequency[0] = a;
	f->frequency[1] = b;
	f->frequency[2] = c;
}

static int fake_clk(uint32_t dev, int type, void *out)
{
	uint64_t a = type == 4 ? 400000000 : 800000000, b = type == 4 ? 900000000 : 1700000000,
		 c = type == 4 ? 1300000000 : 2100000000;
	(void)dev;
	fake.calls++;
	if (fake.v6) {
		struct freq6 f;
		memset(&f, 0, sizeof(f));
		fill_freq6(&f, a, b, c);
		memcpy(out, &f, sizeof(f));       /* 280 bytes */
	} else {
		struct freq5 f;
		memset(&f, 0, sizeof(f));
		fill_freq5(&f, a, b, c);
		memcpy(out, &f, sizeof(f));       /* 264 bytes */
	}
	return 0;
}

/* gen3, gen4 current, gen5; 16 lanes each but 8 at gen4 */
static int fake_pcie(uint32_t dev, void *out)
{
	(void)dev;
	fake.calls++;
	if (fake.v6) {
		struct pcie6 p;
		memset(&p, 0, sizeof(p));
		fill_freq6(&p.transfer_rate, 8000000000, 16000000000, 32000000000);
		p.lanes[0] = 16;
		p.lanes[1] = 8;
		p.lanes[2] = 16;
		memcpy(out, &p, sizeof(p));
	} else {
		struct pcie5 p;
		memset(&p, 0, sizeof(p));
		fill_freq5(&p.transfer_rate, 8000000000, 16000000000, 32000000000);
		p.lanes[0] = 16;
		p.lanes[1] = 8;
		p.lanes[2] = 16;
		memcpy(out, &p, sizeof(p));
	}
	return 0;
}

static int fake_temp(uint32_t dev, uint32_t sensor, int metric, int64_t *t)
{
	(void)dev;
	fake.calls++;
	*t = sensor == 0 && metric == 0 ? 47000 : 99000;
	return 0;
}

static int fake_power(uint32_t dev, uint32_t sensor, uint64_t *p)
{
	(void)dev;
	(void)sensor;
	fake.calls++;
	*p = 310000000;                        /* 310 W */
	return 0;
}

static int fake_no_socket_power(uint32_t dev, uint64_t *p)
{
	(void)dev;
	(void)p;
	fake.calls++;
	return 2;                              /* RSMI_STATUS_NOT_SUPPORTED */
}

/* rocm-smi's metrics table: a power limit throttles (6.x); 5.x has only the
 * ASIC-specific bits, none set. */
static int fake_rsmi_metrics(uint32_t dev, void *out)
{
	struct rsmi_metrics m;
	size_t n = fake.v6 ? sizeof(m) : offsetof(struct rsmi_metrics, firmware_timestamp);

	(void)dev;
	fake.calls++;
	memset(&m, 0xff, sizeof(m));
	m.structure_size = (uint16_t)n;
	m.format_revision = 1;
	m.content_revision = fake.v6 ? 3 : 1;
	m.throttle_status = 0;
	m.indep_throttle_status = 1ull << 1;
	m.current_socket_power = 0xffff;
	memcpy(out, &m, n);
	return 0;
}

static void blank(struct hmb_gpu_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->sm_clock_mhz = s->mem_clock_mhz = s->temperature_c = s->power_w = -1;
	s->link_gen = s->link_width = s->link_max_gen = s->link_max_width = -1;
	s->throttle_mask = -1;
	s->throttled = -1;
}

static const struct hmb_rsmi_calls rsmi_fake = {
	.version = fake_version, .clk = fake_clk, .temp = fake_temp, .power = fake_power,
	.socket_power = fake_no_socket_power, .pcie = fake_pcie, .metrics = fake_rsmi_metrics,
};

void test_rsmi_layouts(void)
{
	/* Debian 5.2 (1.0.0), upstream 5.x, Debian 6.4.1 (7.6.0), 7.2.4 (7.8.0) */
	static const struct {
		uint32_t v[3];
		int v6;
		const struct hmb_rsmi_layout *layout;
	} known[] = {
		{ { 1, 0, 0 }, 0, &hmb_rsmi_layout_v5 }, { { 5, 7, 0 }, 0, &hmb_rsmi_layout_v5 },
		{ { 7, 6, 0 }, 1, &hmb_rsmi_layout_v6 }, { { 7, 8, 0 }, 1, &hmb_rsmi_layout_v6 },
	};
	static const struct {
		uint32_t v[3];
		int v6;
		const char *says;
	} unknown[] = {
		{ { 8, 0, 0 }, 1, "8.0.0" }, { { 6, 0, 0 }, 1, "6.0.0" },
		{ { 1, 0, 0 }, 1, "1.0.0 with ROCm 6 calls" }, { { 0, 0, 0 }, 0, "0.0.0" },
	};
	struct hmb_rsmi_calls c = rsmi_fake;
	struct hmb_gpu_sample s;
	char why[512];

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		memcpy(fake.version, known[i].v, sizeof(fake.version));
		fake.old_version_struct = 0;
		fake.v6 = c.has_v6_calls = known[i].v6;
		why[0] = '\0';
		CHECK(hmb_rsmi_use(&c, why, sizeof(why)) == 0 && why[0] == '\0');
		CHECK(hmb_rsmi_layout() == known[i].layout);
		blank(&s);
		hmb_rsmi_sample(0, &s);
		if (s.sm_clock_mhz != 1700 || s.link_width != 8)
			fprintf(stderr, "    library %u.%u.%u: sm %.0f mem %.0f MHz, link gen%d x%d "
				"(max gen%d x%d)\n", known[i].v[0], known[i].v[1], known[i].v[2],
				s.sm_clock_mhz, s.mem_clock_mhz, s.link_gen, s.link_width,
				s.link_max_gen, s.link_max_width);
		CHECK(s.sm_clock_mhz == 1700 && s.mem_clock_mhz == 900);
		CHECK(s.temperature_c == 47 && s.power_w == 310);
		CHECK(s.link_gen == 4 && s.link_width == 8);
		CHECK(s.link_max_gen == 5 && s.link_max_width == 16);
		if (known[i].v6)   /* the ASIC-independent bits: PPT1 */
			CHECK(s.throttled == 1 && s.throttle_mask == 2 &&
			      strcmp(s.throttle, "power limit") == 0);
		else               /* 5.x: no independent bits; ASIC bits all clear */
			CHECK(s.throttled == 0 && s.throttle_mask == 0);
	}
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		memcpy(fake.version, unknown[i].v, sizeof(fake.version));
		fake.v6 = c.has_v6_calls = unknown[i].v6;
		fake.calls = 0;
		why[0] = '\0';
		CHECK(hmb_rsmi_use(&c, why, sizeof(why)) == -1 && hmb_rsmi_layout() == NULL);
		CHECK(strstr(why, unknown[i].says) && strstr(why, "telemetry off"));
		CHECK(!strchr(why, '\n') && strlen(why) < 160);
		blank(&s);
		hmb_rsmi_sample(0, &s);          /* refused: nothing is called */
		CHECK(fake.calls == 0 && s.sm_clock_mhz == -1 && s.power_w == -1);
	}
	c.version = NULL;
	CHECK(hmb_rsmi_use(&c, why, sizeof(why)) == -1 && strstr(why, "rsmi_version_get"));
}

/* amdsmi 27's metrics table: MI300, current socket power, a temperature
 * throttle. */
static int fake_amdsmi_metrics(void *dev, void *out)
{
	struct amdsmi27_metrics m;

	(void)dev;
	fake.calls++;
	memset(&m, 0xff, sizeof(m));
	m.structure_size = 1024;
	m.format_revision = 1;
	m.content_revision = 5;
	m.temperature_hotspot = 68;
	m.current_gfxclk = 2100;
	m.current_uclk = 1300;
	m.gfx_activity_acc = 123456789012ull;
	m.mem_activity_acc = 42;
	m.temperature_hbm[0] = 55;
	m.current_socket_power = 640;
	m.pcie_link_width = 16;
	m.pcie_link_speed = 320;
	m.indep_throttle_status = 1ull << 33;
	memcpy(out, &m, sizeof(m));
	return 0;
}

void test_amdsmi_layouts(void)
{
	struct hmb_amdsmi_calls c = { .version = fake_version, .metrics = fake_amdsmi_metrics };
	static const struct {
		uint32_t v[3];
		int old;
		const char *says;
	} unknown[] = {
		{ { 26, 0, 0 }, 0, "26.0.0" }, { { 28, 0, 0 }, 0, "28.0.0" },
		{ { 6, 0, 0 }, 1, "23.6.0" },
	};
	struct hmb_gpu_sample s;
	char why[512];

	fake.old_version_struct = 0;
	fake.version[0] = 27;
	fake.version[1] = 1;
	fake.version[2] = 0;
	why[0] = '\0';
	CHECK(hmb_amdsmi_use(&c, why, sizeof(why)) == 0 && why[0] == '\0');
	CHECK(hmb_amdsmi_layout() == &hmb_amdsmi_metrics_v27);
	blank(&s);
	hmb_amdsmi_sample(NULL, &s);
	if (s.power_w != 640)
		fprintf(stderr, "    amdsmi 27.1.0: power %.0f W, throttle mask 0x%llx\n", s.power_w,
			(unsigned long long)s.throttle_mask);
	CHECK(s.sm_clock_mhz == 2100 && s.mem_clock_mhz == 1300 && s.temperature_c == 68);
	CHECK(s.power_w == 640 && s.link_gen == 5 && s.link_width == 16);
	CHECK(s.throttled == 1 && s.throttle_mask == (long long)(1ull << 33) &&
	      strcmp(s.throttle, "temperature") == 0);

	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		memcpy(fake.version, unknown[i].v, sizeof(fake.version));
		fake.old_version_struct = unknown[i].old;
		fake.calls = 0;
		why[0] = '\0';
		CHECK(hmb_amdsmi_use(&c, why, sizeof(why)) == -1 && hmb_amdsmi_layout() == NULL);
		CHECK(strstr(why, unknown[i].says) && strstr(why, "amdsmi telemetry off"));
		CHECK(!strchr(why, '\n') && strlen(why) < 160);
		blank(&s);
		hmb_amdsmi_sample(NULL, &s);
		CHECK(fake.calls == 0 && s.power_w == -1);
	}
	fake.old_version_struct = 0;
	c.version = NULL;
	CHECK(hmb_amdsmi_use(&c, why, sizeof(why)) == -1 && strstr(why, "amdsmi_get_lib_version"));
}

/* amdsmi's open finds the GPU by its bus id as amdsmi_bdf_t packs it. Run with a
 * stand-in libamd_smi.so.27 on the library path (HMB_UNIT_AMDSMI_STANDIN set,
 * tests/test_emulated_runtime.py builds it) that knows one GPU, 0000:c3:1f.5
 * (0xc3fd), and no other; without it there is nothing to open here. */
static int amdsmi_try(struct hmb_telemetry *t, const char *bus_id)
{
	int rc;

	memset(t, 0, sizeof(*t));
	rc = hmb_telemetry_amdsmi.open(t, bus_id);
	if (rc == 0)
		hmb_telemetry_amdsmi.close(t);
	if (t->lib)
		dlclose(t->lib);
	return rc;
}

void test_amdsmi_open(void)
{
	struct hmb_telemetry t;

	if (!getenv("HMB_UNIT_AMDSMI_STANDIN"))
		return;
	CHECK(amdsmi_try(&t, "0000:c3:1f.5") == 0);
	if (t.reason[0])
		fprintf(stderr, "    amdsmi open 0000:c3:1f.5: %s\n", t.reason);
	CHECK(amdsmi_try(&t, "0000:c3:1f.4") == -1 &&
	      strcmp(t.reason, "amdsmi has no GPU at 0000:c3:1f.4") == 0);
	CHECK(amdsmi_try(&t, "c3:1f.5") == -1 &&
	      strcmp(t.reason, "unreadable PCI bus id 'c3:1f.5'") == 0);
}
