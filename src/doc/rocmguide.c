/*
 * rocmguide.c - the rules of rocmguide.h. The table is the ROCm guide's
 * "Comparison of expected behavior of managed and unified memory functions
 * in ROCm" (HIP documentation, how-to/hip_runtime_api/memory_management/
 * unified_memory). hipmembench's access modes (memmodel.h) name the same
 * behaviours: "page-fault migration" is migrate-on-fault, "zero copy" from
 * pinned host memory is host-resident, accessed over the link. The mode a
 * record ran in is the one asked for (params.hsa_xnack): the guide's columns
 * are the request, so a run whose driver refused HSA_XNACK=1 disagrees, and
 * says so, rather than being read as the other column. On an APU host and
 * device memory are one and the table's origins do not apply: not checked.
 */
#include "doc/rocmguide.h"

#include <stdlib.h>
#include <string.h>

#include "system/memmodel.h"

static const struct hmb_guide_row rows[HMB_GUIDE_COUNT] = {
	[HMB_GUIDE_SYSTEM] = { "new, malloc()", { "host", "first touch" },
			       { "not accessible on device", "page-fault migration" },
			       "xnack system/*: unsupported with the model's reason (XNACK off), "
			       "else measured as migrate-on-fault" },
	[HMB_GUIDE_HIP_MALLOC] = { "hipMalloc()", { "device", "device" },
				   { "zero copy", "zero copy" },
				   "memcpy device kinds; nothing depends on the mode: not checked" },
	[HMB_GUIDE_MANAGED] = { "hipMallocManaged(), __managed__", { "pinned host", "first touch" },
				{ "zero copy", "page-fault migration" },
				"params.access_mode of every xnack managed/* and managed record; "
				"managed on-demand/second-kernel against "
				"prefetch/kernel-after-prefetch (did the pages migrate?)" },
	[HMB_GUIDE_HOST_REGISTER] = { "hipHostRegister()", { "pinned host", "pinned host" },
				      { "zero copy", "zero copy" },
				      "memcpy registered: copied, no kernel reads it in place: "
				      "not checked" },
	[HMB_GUIDE_HOST_MALLOC] = { "hipHostMalloc()", { "pinned host", "pinned host" },
				    { "zero copy", "zero copy" },
				    "xnack zero-copy/read: a kernel reads it in place in both modes" },
};

/* Below this size a kernel's launch hides the difference between reading
 * device memory and reading host memory over the link. */
#define MIGRATION_MIN_BYTES (16.0 * 1024 * 1024)

const struct hmb_guide_row *hmb_guide_row(enum hmb_guide_alloc a)
{
	return (unsigned)a < HMB_GUIDE_COUNT ? &rows[a] : NULL;
}

static const char *param_str(const struct hmb_record *r, const char *key)
{
	const struct hmb_kv *kv = hmb_kv_find(&r->params, key);
	return kv && kv->type == HMB_KV_STR ? kv->str : NULL;
}

static double param_num(const struct hmb_record *r, const char *key)
{
	const struct hmb_kv *kv = hmb_kv_find(&r->params, key);
	return kv && kv->type == HMB_KV_NUM ? kv->num : -1;
}

static int prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

int hmb_guide_alloc_of(const struct hmb_record *r)
{
	if (strcmp(r->module, "managed") == 0)
		return strcmp(r->name, "module") == 0 ? -1 : HMB_GUIDE_MANAGED;
	if (strcmp(r->module, "xnack") != 0)
		return -1;
	if (prefix(r->name, "managed/") || strcmp(r->name, "xnack/state") == 0)
		return HMB_GUIDE_MANAGED;
	if (prefix(r->name, "system/"))
		return HMB_GUIDE_SYSTEM;
	if (prefix(r->name, "zero-copy/"))
		return HMB_GUIDE_HOST_MALLOC;
	return -1;
}

/* The mode a record ran in: 1 HSA_XNACK=1, 0 HSA_XNACK=0, -1 not recorded. */
static int mode_of(const struct hmb_record *r)
{
	const char *x = param_str(r, "hsa_xnack");
	return !x ? -1 : strcmp(x, "1") == 0 ? 1 : strcmp(x, "0") == 0 ? 0 : -1;
}

int hmb_guide_check(const struct hmb_record *r, char *why, size_t len)
{
	const int a = hmb_guide_alloc_of(r), on = mode_of(r);
	const char *mode = param_str(r, "access_mode");
	const struct hmb_guide_row *g;

	if (a < 0 || on < 0 || (mode && strcmp(mode, hmb_access_name(HMB_ACCESS_APU_IN_PLACE)) == 0))
		return -1;
	g = &rows[a];
	if (a == HMB_GUIDE_SYSTEM) {
		if (r->status == HMB_UNSUPPORTED && !on) {
			snprintf(why, len, "agrees with HSA_XNACK=0: the guide has %s memory %s; "
				 "this run recorded it unsupported", g->call, g->access[0]);
			return 0;
		}
		if (r->status == HMB_UNSUPPORTED) {
			snprintf(why, len, "disagrees with the ROCm guide: with HSA_XNACK=1 it has "
				 "malloc'd memory used by kernels (first touch, page-fault "
				 "migration), this run recorded it unsupported: %.300s",
				 r->reason ? r->reason : "");
			return 1;
		}
		if (r->status != HMB_OK)
			return -1;
		if (!on) {
			snprintf(why, len, "disagrees with the ROCm guide: with HSA_XNACK=0 it has "
				 "malloc'd memory not accessible on the device, yet this run's kernels "
				 "used it (access mode %s)", mode ? mode : "unknown");
			return 1;
		}
	}
	if (a == HMB_GUIDE_HOST_MALLOC) {
		if (r->status != HMB_OK)
			return -1;
		snprintf(why, len, "agrees with HSA_XNACK=%d: the guide has %s memory %s, %s, in "
			 "both modes", on, g->call, g->origin[on], g->access[on]);
		return 0;
	}
	if (!mode || r->status == HMB_FAILED || r->status == HMB_SKIPPED)
		return -1;
	{
		const char *want = hmb_access_name(on ? HMB_ACCESS_MIGRATE_ON_FAULT
						      : HMB_ACCESS_HOST_RESIDENT);
		if (strcmp(mode, want) == 0) {
			snprintf(why, len, "agrees with HSA_XNACK=%d: the guide has %s memory %s, "
				 "accessed by %s (%s)", on, g->call, g->origin[on], g->access[on],
				 want);
			return 0;
		}
		snprintf(why, len, "disagrees with the ROCm guide: with HSA_XNACK=%d it has %s "
			 "memory %s, accessed by %s (%s); this run's access mode is %s%s", on,
			 g->call, g->origin[on], g->access[on], want, mode,
			 on ? " (the driver did not grant XNACK: see device.xnack.evidence)" : "");
		return 1;
	}
}

int hmb_guide_check_migration(const struct hmb_record *second,
			      const struct hmb_record *after_prefetch, char *why, size_t len)
{
	struct hmb_summary s2, sp;
	const int on = mode_of(second);
	const char *mode = param_str(second, "access_mode");
	double ratio;

	if (on < 0 || on != mode_of(after_prefetch) || second->status != HMB_OK ||
	    after_prefetch->status != HMB_OK || param_num(second, "size") < MIGRATION_MIN_BYTES ||
	    param_num(second, "size") != param_num(after_prefetch, "size") ||
	    (mode && strcmp(mode, hmb_access_name(HMB_ACCESS_APU_IN_PLACE)) == 0))
		return -1;
	hmb_record_summarize(second, &s2);
	hmb_record_summarize(after_prefetch, &sp);
	if (!s2.has_stats || !sp.has_stats || !(sp.stats.median > 0))
		return -1;
	ratio = s2.stats.median / sp.stats.median;
	/* near 1: the pages were in device memory; well above: still read over the link */
	if (ratio > 1.5 && ratio < 2)
		return -1;
	if ((ratio <= 1.5) == (on == 1)) {
		snprintf(why, len, "agrees with HSA_XNACK=%d: a second kernel on the pages ran %.2fx "
			 "the time of one after a prefetch (%s)", on, ratio, on ? "they migrated on "
			 "the first kernel's faults" : "they stayed in host memory, zero copy");
		return 0;
	}
	snprintf(why, len, "disagrees with the ROCm guide: with HSA_XNACK=%d it has "
		 "hipMallocManaged memory %s, but a second kernel on the pages ran %.2fx the time "
		 "of one after a prefetch: %s", on, on ? "migrate on page faults" : "stay in pinned "
		 "host memory (zero copy)", ratio, on ? "they were still read over the link" :
		 "they were in device memory, so something migrated them");
	return 1;
}

/* Disagreements, counted per module and mode: one warning line each. */
struct tally {
	const char *module;
	const char *mode;
	int n;
	char example[768];
};

static void note(struct hmb_record *r, int verdict, const char *why, struct tally *t, int nt,
		 int *bad)
{
	const struct hmb_kv *x = hmb_kv_find(&r->params, "hsa_xnack");

	if (verdict < 0)
		return;
	hmb_observe_str(r, "rocm_guide", why);
	if (verdict != 1)
		return;
	(*bad)++;
	for (int i = 0; i < nt; i++) {
		if (t[i].module && (strcmp(t[i].module, r->module) != 0 ||
				    strcmp(t[i].mode, x->str) != 0))
			continue;
		if (!t[i].module) {
			t[i].module = r->module;
			t[i].mode = x->str;
			snprintf(t[i].example, sizeof(t[i].example), "%s %s", r->name, why);
		}
		t[i].n++;
		return;
	}
}

int hmb_guide_check_report(struct hmb_report *rep, FILE *out)
{
	struct tally t[8];
	char why[640];
	int bad = 0;

	memset(t, 0, sizeof(t));
	for (struct hmb_record *r = rep->head; r; r = r->next) {
		if (strcmp(r->module, "managed") == 0 &&
		    strcmp(r->name, "on-demand/second-kernel") == 0) {
			for (struct hmb_record *p = rep->head; p; p = p->next)
				if (strcmp(p->module, "managed") == 0 &&
				    strcmp(p->name, "prefetch/kernel-after-prefetch") == 0 &&
				    param_num(p, "size") == param_num(r, "size") &&
				    hmb_record_gpu(p) == hmb_record_gpu(r) &&
				    mode_of(p) == mode_of(r)) {
					note(r, hmb_guide_check_migration(r, p, why, sizeof(why)), why,
					     t, 8, &bad);
					break;
				}
			if (hmb_kv_find(&r->observed, "rocm_guide"))
				continue;
		}
		note(r, hmb_guide_check(r, why, sizeof(why)), why, t, 8, &bad);
	}
	for (int i = 0; i < 8 && out && t[i].module; i++)
		fprintf(out, "[%s] warning: %d record(s) run with HSA_XNACK=%s disagree with the "
			"ROCm guide (observed.rocm_guide), e.g. %s\n", t[i].module, t[i].n, t[i].mode,
			t[i].example);
	return bad;
}
