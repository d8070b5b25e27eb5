/*
 * test_modeplan.c - the runs `all` plans per module (modeplan.h) for faked
 * devices: both XNACK modes on an MI250X and MI300A, one run on NVIDIA, on
 * GPUs without a mode to select, where the user set HSA_XNACK and where the
 * build's code objects load in one mode only; the code objects' XNACK and
 * SRAMECC matching; which measured kinds HIP_HOST_COHERENT changes; and the
 * ROCm guide's expectations (rocmguide.h) against faked records.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doc/json_import.h"
#include "doc/json_write.h"
#include "doc/rocmguide.h"
#include "engine/record.h"
#include "engine/report.h"
#include "fake_devices.h"
#include "harness.h"
#include "system/modeplan.h"

static struct hmb_mode_plan plan(const char *module, const struct hmb_facts *f,
				 const char *build, const char *user_xnack, int coherent_kinds)
{
	struct hmb_mode_plan p;
	struct hmb_mode_inputs in = { f->vendor, f->arch, build, user_xnack, NULL, coherent_kinds };
	hmb_mode_plan(module, &in, &p);
	return p;
}

static int runs_xnack_both(const struct hmb_mode_plan *p)
{
	return p->n == 2 && p->run[0].var && strcmp(p->run[0].var, "HSA_XNACK") == 0 &&
	       strcmp(p->run[0].value, "1") == 0 && p->run[0].set &&
	       strcmp(p->run[0].param, "hsa_xnack") == 0 && p->run[1].var &&
	       strcmp(p->run[1].value, "0") == 0 && p->run[1].set;
}

static int plain(const struct hmb_mode_plan *p)
{
	return p->n == 1 && !p->run[0].var;
}

void test_mode_plan(void)
{
	struct hmb_facts mi250x = hmb_fake_mi250x(0), mi300a = hmb_fake_mi300a(),
			 h100 = hmb_fake_h100(), navi = hmb_fake_mi250x(0), mi100 = hmb_fake_mi250x(0);
	struct hmb_mode_plan p;
	char out[2048];
	FILE *f;
	size_t n;

	navi.arch = "gfx1100";
	mi100.arch = "gfx908:sramecc+:xnack-";
	/* XNACK per process: both modes for xnack and managed, whatever mode now */
	CHECK(runs_xnack_both((p = plan("xnack", &mi250x, "gfx90a", NULL, 0), &p)));
	CHECK(runs_xnack_both((p = plan("managed", &mi250x, "gfx90a gfx942", NULL, 0), &p)));
	CHECK(runs_xnack_both((p = plan("xnack", &mi300a, "gfx942", NULL, 0), &p)) && !p.note[0]);
	/* other modules once, as before */
	CHECK(plain((p = plan("pool", &mi250x, "gfx90a", NULL, 0), &p)) && !p.note[0]);
	CHECK(plain((p = plan("overlap", &mi250x, "gfx90a", NULL, 0), &p)));
	/* NVIDIA: nothing changes, nothing said */
	CHECK(plain((p = plan("xnack", &h100, "sm_90", NULL, 0), &p)) && !p.note[0]);
	CHECK(plain((p = plan("memcpy", &h100, "sm_90", NULL, 1), &p)) && !p.note[0]);
	CHECK(plain((p = plan("managed", &h100, "sm_90", "1", 0), &p)) && !p.note[0]);
	/* no mode to select: once */
	CHECK(plain((p = plan("xnack", &navi, "gfx1100", NULL, 0), &p)) && !p.note[0]);
	CHECK(plain((p = plan("managed", &mi100, "gfx908", NULL, 0), &p)));
	/* the user's mode: once, recorded, said */
	p = plan("xnack", &mi250x, "gfx90a", "1", 0);
	CHECK(p.n == 1 && p.run[0].var && !p.run[0].set && strcmp(p.run[0].value, "1") == 0);
	CHECK(strstr(p.note, "HSA_XNACK=1 is set") != NULL);
	/* the arch not known yet: once, said */
	mi250x.arch = NULL;
	CHECK(plain((p = plan("xnack", &mi250x, "gfx90a", NULL, 0), &p)));
	CHECK(strstr(p.note, "not known") != NULL);
	mi250x.arch = "gfx90a:sramecc+:xnack-";
	/* code for one mode only: the other is left out, naming both and the fix */
	p = plan("xnack", &mi250x, "gfx90a:xnack+", NULL, 0);
	CHECK(p.n == 1 && p.run[0].var && p.run[0].set && strcmp(p.run[0].value, "1") == 0);
	CHECK(strstr(p.note, "HSA_XNACK=0 is left out") && strstr(p.note, "xnack+ only") &&
	      strstr(p.note, "OFFLOAD_ARCH=gfx90a`"));
	p = plan("managed", &mi250x, "gfx90a:xnack-", NULL, 0);
	CHECK(p.n == 1 && p.run[0].var && strcmp(p.run[0].value, "0") == 0);
	/* ... either way, with both entries */
	CHECK(runs_xnack_both((p = plan("xnack", &mi250x, "gfx90a:xnack+,gfx90a:xnack-", NULL, 0),
			       &p)));
	/* no code for this GPU at all: once (the module's process says why) */
	CHECK(plain((p = plan("xnack", &mi250x, "gfx942", NULL, 0), &p)));
	/* HIP_HOST_COHERENT: no measured kind follows it, so once, said */
	p = plan("memcpy", &mi250x, "gfx90a", NULL, hmb_host_coherent_kinds(NULL, 0));
	CHECK(plain(&p) && strstr(p.note, "HIP_HOST_COHERENT changes none") &&
	      strstr(p.note, "write-combined"));
	/* were one to follow it: both values, or the user's */
	p = plan("memcpy", &mi250x, "gfx90a", NULL, 1);
	CHECK(p.n == 2 && strcmp(p.run[0].var, "HIP_HOST_COHERENT") == 0 &&
	      strcmp(p.run[0].value, "0") == 0 && strcmp(p.run[1].value, "1") == 0 &&
	      strcmp(p.run[1].param, "hip_host_coherent") == 0);
	{
		struct hmb_mode_inputs in = { HMB_VENDOR_AMD, "gfx90a", "gfx90a", NULL, "1", 1 };
		hmb_mode_plan("memcpy", &in, &p);
		CHECK(p.n == 1 && !p.run[0].set && strcmp(p.run[0].value, "1") == 0);
	}
	/* what --dry-run prints */
	p = plan("xnack", &mi250x, "gfx90a", NULL, 0);
	f = tmpfile();
	if (!f) {
		CHECK(!"tmpfile");
		return;
	}
	hmb_mode_plan_print(f, &p);
	p = plan("pool", &mi250x, "gfx90a", NULL, 0);
	hmb_mode_plan_print(f, &p);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	CHECK(strcmp(out, "    run 1 of 2: HSA_XNACK=1\n    run 2 of 2: HSA_XNACK=0\n") == 0);
}

void test_code_objects(void)
{
	char why[512];

	CHECK(hmb_code_xnack_modes("gfx90a", "gfx90a:sramecc+:xnack-") == 3);
	CHECK(hmb_code_xnack_modes("gfx90a:xnack+", "gfx90a:sramecc+:xnack-") == 2);
	CHECK(hmb_code_xnack_modes("gfx942 gfx90a:xnack-", "gfx90a:sramecc+:xnack+") == 1);
	CHECK(hmb_code_xnack_modes("gfx90a:sramecc-:xnack+", "gfx90a:sramecc+:xnack+") == 0);
	CHECK(hmb_code_xnack_modes("gfx90a:sramecc+:xnack+", "gfx90a:sramecc+:xnack+") == 2);
	CHECK(hmb_code_xnack_modes("gfx942", "gfx90a:sramecc+:xnack-") == 0);
	/* gfx90 is not gfx90a */
	CHECK(hmb_code_xnack_modes("gfx90", "gfx90a:xnack-") == 0);
	CHECK(hmb_code_xnack_modes("unknown architectures", "gfx90a:xnack-") == -1);
	CHECK(hmb_code_xnack_modes("sm_90", "sm_90") == -1);
	/* the mismatch named: both settings and the fix */
	CHECK(hmb_code_feature_mismatch("gfx90a:xnack+", "gfx90a:sramecc+:xnack-", why,
					sizeof(why)) == 1);
	CHECK(strstr(why, "xnack+ only") && strstr(why, "runs with XNACK off") &&
	      strstr(why, "gfx90a:sramecc+:xnack-") && strstr(why, "HSA_XNACK=1") &&
	      strstr(why, "`make OFFLOAD_ARCH=gfx90a`"));
	CHECK(hmb_code_feature_mismatch("gfx942:xnack-", "gfx942:sramecc+:xnack+", why,
					sizeof(why)) == 1);
	CHECK(strstr(why, "xnack- only") && strstr(why, "runs with XNACK on") &&
	      strstr(why, "HSA_XNACK=0"));
	CHECK(hmb_code_feature_mismatch("gfx90a:sramecc-", "gfx90a:sramecc+:xnack-", why,
					sizeof(why)) == 1 && strstr(why, "SRAMECC"));
	/* no mismatch of a feature: the plain "no code for this GPU" applies */
	CHECK(hmb_code_feature_mismatch("gfx942", "gfx90a:sramecc+:xnack-", why, sizeof(why)) == 0);
	CHECK(hmb_code_feature_mismatch("gfx90a", "gfx90a:sramecc+:xnack-", why, sizeof(why)) == 0);
	CHECK(hmb_code_feature_mismatch("gfx90a:xnack+", "gfx90a", why, sizeof(why)) == 0);
	CHECK(hmb_code_feature_mismatch("sm_90", "sm_90", why, sizeof(why)) == 0);
	/* what a module's process that aborted is told about the build */
	CHECK(hmb_code_mode_hint("gfx942 gfx90a:xnack+", why, sizeof(why)) == 1 &&
	      strstr(why, "OFFLOAD_ARCH \"gfx942 gfx90a:xnack+\""));
	CHECK(hmb_code_mode_hint("gfx90a:sramecc-", why, sizeof(why)) == 1);
	CHECK(hmb_code_mode_hint("gfx90a gfx942", why, sizeof(why)) == 0);
	CHECK(hmb_code_mode_hint("sm_80 sm_90", why, sizeof(why)) == 0);
}

void test_host_coherent_kinds(void)
{
	char why[640];

	/* pinned (flags 0), the coherence flags and uncached fix it; write-combined
	 * follows it but is measured as pinned-noncoherent / pinned-coherent */
	CHECK(hmb_host_coherent_kinds(why, sizeof(why)) == 0);
	CHECK(strstr(why, "write-combined follows it, and is measured as pinned-noncoherent "
		       "(HIP_HOST_COHERENT unset or 0) and pinned-coherent (1)") != NULL);
	CHECK(strstr(why, "write-combined-coherent") == NULL);
}

static struct hmb_record *rec(struct hmb_report *rep, const char *module, const char *name,
			      const char *xnack, const char *mode, enum hmb_status st)
{
	struct hmb_record *r = hmb_record_new(module, name);
	if (xnack)
		hmb_param_str(r, "hsa_xnack", xnack);
	if (mode)
		hmb_param_str(r, "access_mode", mode);
	if (st != HMB_OK)
		hmb_record_status(r, st, "%s", "reason given by the module");
	hmb_report_add(rep, r);
	return r;
}

static const char *guide(const struct hmb_record *r)
{
	const struct hmb_kv *kv = hmb_kv_find(&r->observed, "rocm_guide");
	return kv ? kv->str : "";
}

static struct hmb_record *timed(struct hmb_report *rep, const char *name, const char *xnack,
				double size, double seconds)
{
	struct hmb_record *r = rec(rep, "managed", name, xnack, strcmp(xnack, "1") == 0 ?
				   "migrate-on-fault" : "host-resident, accessed over the link",
				   HMB_OK);
	hmb_param_num(r, "size", size);
	for (int i = 0; i < 5; i++)
		hmb_sample(r, seconds * (1 + i * 0.001));
	return r;
}

void test_rocm_guide(void)
{
	const char *mof = "migrate-on-fault", *res = "host-resident, accessed over the link";
	const char *apu = "in place, one memory (APU)";
	struct hmb_options opt;
	struct hmb_report rep;
	struct hmb_record *r[16], *second, *prefetched;
	double big = 64.0 * 1024 * 1024;
	char said[4096] = "";
	size_t n;
	FILE *f;
	int bad;

	memset(&opt, 0, sizeof(opt));
	hmb_report_init(&rep, &opt, "all");
	/* managed memory: migrate-on-fault with HSA_XNACK=1, zero copy with 0 */
	r[0] = rec(&rep, "xnack", "managed/fault-latency/4K/seq", "1", mof, HMB_OK);
	r[1] = rec(&rep, "xnack", "managed/fault-latency/4K/seq", "0", res, HMB_OK);
	/* the driver refused XNACK: the request disagrees with what ran */
	r[2] = rec(&rep, "managed", "on-demand/first-kernel", "1", res, HMB_OK);
	r[3] = rec(&rep, "xnack", "xnack/state", "0", mof, HMB_OK);
	/* malloc'd memory: unsupported with XNACK off, used with it on */
	r[4] = rec(&rep, "xnack", "system/fault", "0", res, HMB_UNSUPPORTED);
	r[5] = rec(&rep, "xnack", "system/fault", "1", res, HMB_UNSUPPORTED);
	r[6] = rec(&rep, "xnack", "system/fault-latency/4K/seq", "0", res, HMB_OK);
	r[7] = rec(&rep, "xnack", "system/fault-latency/4K/seq", "1", mof, HMB_OK);
	/* pinned host memory: zero copy in both modes */
	r[8] = rec(&rep, "xnack", "zero-copy/read", "0", res, HMB_OK);
	/* nothing to check: no mode recorded (NVIDIA, or once), an APU, other modules */
	r[9] = rec(&rep, "xnack", "managed/fault-latency/4K/seq", NULL, mof, HMB_OK);
	r[10] = rec(&rep, "managed", "on-demand/first-kernel", "0", apu, HMB_OK);
	r[11] = rec(&rep, "memcpy", "h2d/pinned/async", "1", NULL, HMB_OK);
	r[12] = rec(&rep, "xnack", "managed/fault", "1", mof, HMB_FAILED);
	f = tmpfile();
	bad = hmb_guide_check_report(&rep, f);
	if (f) {
		rewind(f);
		n = fread(said, 1, sizeof(said) - 1, f);
		said[n] = '\0';
		fclose(f);
	}
	/* one warning per module and mode */
	CHECK(strstr(said, "[managed] warning: 1 record(s) run with HSA_XNACK=1 disagree") &&
	      strstr(said, "[xnack] warning: 2 record(s) run with HSA_XNACK=0 disagree") &&
	      strstr(said, "[xnack] warning: 1 record(s) run with HSA_XNACK=1 disagree with the "
		     "ROCm guide (observed.rocm_guide), e.g. system/fault disagrees"));
	n = 0;
	for (const char *c = said; *c; c++)
		n += *c == '\n';
	CHECK(n == 3);
	CHECK(strncmp(guide(r[0]), "agrees with HSA_XNACK=1", 23) == 0);
	CHECK(strncmp(guide(r[1]), "agrees with HSA_XNACK=0", 23) == 0);
	CHECK(strstr(guide(r[2]), "disagrees with the ROCm guide: with HSA_XNACK=1") &&
	      strstr(guide(r[2]), "page-fault migration") && strstr(guide(r[2]), "did not grant"));
	CHECK(strstr(guide(r[3]), "disagrees with the ROCm guide: with HSA_XNACK=0") &&
	      strstr(guide(r[3]), "zero copy"));
	CHECK(strncmp(guide(r[4]), "agrees with HSA_XNACK=0", 23) == 0);
	CHECK(strstr(guide(r[5]), "disagrees") && strstr(guide(r[5]), "unsupported"));
	CHECK(strstr(guide(r[6]), "disagrees") && strstr(guide(r[6]), "not accessible"));
	CHECK(strncmp(guide(r[7]), "agrees with HSA_XNACK=1", 23) == 0);
	CHECK(strncmp(guide(r[8]), "agrees with HSA_XNACK=0", 23) == 0);
	for (int i = 9; i <= 12; i++)
		CHECK(!hmb_kv_find(&r[i]->observed, "rocm_guide"));
	CHECK(bad == 4);
	hmb_report_free(&rep);

	/* measured migration: a second kernel as fast as one after a prefetch */
	hmb_report_init(&rep, &opt, "all");
	second = timed(&rep, "on-demand/second-kernel", "1", big, 1.0e-3);
	prefetched = timed(&rep, "prefetch/kernel-after-prefetch", "1", big, 0.9e-3);
	r[0] = timed(&rep, "on-demand/second-kernel", "0", big, 5.0e-3);
	r[1] = timed(&rep, "prefetch/kernel-after-prefetch", "0", big, 1.0e-3);
	/* HSA_XNACK=1 yet the pages stayed remote */
	r[2] = timed(&rep, "on-demand/second-kernel", "1", 2 * big, 8.0e-3);
	r[3] = timed(&rep, "prefetch/kernel-after-prefetch", "1", 2 * big, 2.0e-3);
	/* too small to tell, and a ratio between the two */
	r[4] = timed(&rep, "on-demand/second-kernel", "1", 4096, 8.0e-6);
	r[5] = timed(&rep, "prefetch/kernel-after-prefetch", "1", 4096, 2.0e-6);
	r[6] = timed(&rep, "on-demand/second-kernel", "0", 2 * big, 1.8e-3);
	r[7] = timed(&rep, "prefetch/kernel-after-prefetch", "0", 2 * big, 1.0e-3);
	bad = hmb_guide_check_report(&rep, NULL);
	CHECK(strstr(guide(second), "agrees with HSA_XNACK=1: a second kernel") &&
	      strstr(guide(second), "migrated"));
	CHECK(strstr(guide(r[0]), "agrees with HSA_XNACK=0: a second kernel"));
	CHECK(strstr(guide(r[2]), "disagrees") && strstr(guide(r[2]), "4.00x"));
	/* no migration verdict: the access mode alone is checked */
	CHECK(strncmp(guide(r[4]), "agrees with HSA_XNACK=1: the guide", 34) == 0);
	CHECK(strncmp(guide(r[6]), "agrees with HSA_XNACK=0: the guide", 34) == 0);
	CHECK(strncmp(guide(prefetched), "agrees with HSA_XNACK=1: the guide", 34) == 0);
	CHECK(bad == 1);
	hmb_report_free(&rep);
}

/* module_runs keeps each run's environment and plan; the arch of a GPU
 * comes back from the device objects the modules' documents brought */
void test_mode_runs_json(void)
{
	struct hmb_options opt;
	struct hmb_report rep;
	char arch[64], *text;
	cJSON *doc, *runs, *first, *second;

	memset(&opt, 0, sizeof(opt));
	hmb_report_init(&rep, &opt, "all");
	CHECK(hmb_report_device_arch(&rep, -1, arch, sizeof(arch)) == -1);
	rep.devices = calloc(2, sizeof(*rep.devices));
	rep.devices[0] = cJSON_Parse("{\"ordinal\": 0, \"arch\": \"gfx90a:sramecc+:xnack-\"}");
	rep.devices[1] = cJSON_Parse("{\"ordinal\": 1, \"arch\": \"gfx942:sramecc+:xnack+\"}");
	rep.ndevices = 2;
	CHECK(hmb_report_device_arch(&rep, 1, arch, sizeof(arch)) == 0 &&
	      strcmp(arch, "gfx942:sramecc+:xnack+") == 0);
	CHECK(hmb_report_device_arch(&rep, -1, arch, sizeof(arch)) == 0 &&
	      strcmp(arch, "gfx90a:sramecc+:xnack-") == 0);
	CHECK(hmb_report_device_arch(&rep, 2, arch, sizeof(arch)) == -1);
	hmb_report_module_run(&rep, "xnack", 1.0, 0, 0);
	hmb_report_module_run_env(&rep, "HSA_XNACK", "1", 1);
	hmb_report_module_run_note(&rep, "a note");
	hmb_report_module_run(&rep, "xnack", 1.0, 0, 0);
	hmb_report_module_run_env(&rep, "HSA_XNACK", "0", 0);
	hmb_report_module_run(&rep, "pool", 1.0, 0, 0);
	text = hmb_json_render(&rep);
	doc = cJSON_Parse(text);
	runs = cJSON_GetObjectItem(doc, "module_runs");
	first = cJSON_GetArrayItem(runs, 0);
	second = cJSON_GetArrayItem(runs, 1);
	CHECK(cJSON_GetArraySize(runs) == 3);
	CHECK(strcmp(cJSON_GetObjectItem(cJSON_GetObjectItem(first, "environment"),
					 "HSA_XNACK")->valuestring, "1") == 0);
	CHECK(strcmp(cJSON_GetObjectItem(first, "environment_from")->valuestring, "all") == 0);
	CHECK(strcmp(cJSON_GetObjectItem(first, "plan")->valuestring, "a note") == 0);
	CHECK(strcmp(cJSON_GetObjectItem(cJSON_GetObjectItem(second, "environment"),
					 "HSA_XNACK")->valuestring, "0") == 0);
	CHECK(strcmp(cJSON_GetObjectItem(second, "environment_from")->valuestring, "user") == 0);
	CHECK(!cJSON_GetObjectItem(second, "plan"));
	CHECK(!cJSON_GetObjectItem(cJSON_GetArrayItem(runs, 2), "environment"));
	cJSON_Delete(doc);
	free(text);
	hmb_report_free(&rep);
}
