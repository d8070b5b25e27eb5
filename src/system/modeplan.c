/*
 * modeplan.c - the rules of modeplan.h.
 *
 * XNACK: on gfx90a, gfx94x and gfx950 the driver grants HSA_XNACK=1 or 0 per
 * process (memmodel.c, hmb_gfx_xnack_per_process), so one `all` can measure
 * both modes: the xnack and managed modules, whose figures mean different
 * things in each (docs/amd.md), run once per mode. Other GPUs have no mode to
 * select (older gfx9 follow amdgpu.noretry, gfx10 and later never run with
 * XNACK): one run, as on NVIDIA. A mode the user set is respected: one run in
 * it. A mode this build's code objects cannot load in is left out, saying so.
 *
 * Code objects: an OFFLOAD_ARCH entry is an LLVM target ID, a processor and
 * optional features ("gfx90a:xnack+", "gfx90a:sramecc-:xnack-"). A feature
 * left out means "any": the code loads with either setting; a feature given
 * must equal the device's, which ROCr reports in its arch name from the mode
 * the process runs in ("gfx90a:sramecc+:xnack-"). So code built xnack+ only
 * does not load with XNACK off: the runtime answers "no binary for GPU".
 *
 * HIP_HOST_COHERENT: clr's rule (memmodel.c, hmb_amd_host_coherent) lets it
 * decide only where hipHostMalloc's flags say nothing about coherence
 * (WriteCombined alone, Portable alone). memcpy allocates neither under a name
 * of its own: on AMD write-combined is recorded as the pinned-noncoherent or
 * pinned-coherent allocation, both measured in every run. Running twice would
 * measure the same allocations twice, so memcpy runs once and the plan says
 * why; should a measured kind ever follow it, memcpy runs once per value.
 */
#include "system/modeplan.h"

#include <stdlib.h>
#include <string.h>

/* 1 "name+", 0 "name-", -1 neither, as a feature (":name+") of a target ID. */
static int feature(const char *id, const char *name)
{
	char plus[24], minus[24];

	snprintf(plus, sizeof(plus), ":%s+", name);
	snprintf(minus, sizeof(minus), ":%s-", name);
	return strstr(id, plus) ? 1 : strstr(id, minus) ? 0 : -1;
}

/* Calls fn on each entry of a list separated by spaces, commas or semicolons. */
static int each_entry(const char *list, int (*fn)(const char *entry, void *arg), void *arg)
{
	char tok[96];
	int any = 0;

	while (list && *list) {
		size_t n = strcspn(list, " ,;\t");
		if (n && n < sizeof(tok)) {
			memcpy(tok, list, n);
			tok[n] = '\0';
			any |= fn(tok, arg);
		}
		list += n;
		if (*list)
			list++;
	}
	return any;
}

struct match {
	const char *dev;
	size_t plen;        /* the device's processor: dev[0..plen) */
	int modes, gfx, same_processor;
};

static int match_entry(const char *tok, void *arg)
{
	struct match *m = arg;
	int e = feature(tok, "sramecc"), de = feature(m->dev, "sramecc"), x = feature(tok, "xnack");

	if (strncmp(tok, "gfx", 3) == 0)
		m->gfx = 1;
	if (strcspn(tok, ":") != m->plen || strncmp(tok, m->dev, m->plen) != 0)
		return 0;
	m->same_processor = 1;
	if (e >= 0 && de >= 0 && e != de)
		return 0;
	m->modes |= x < 0 ? 3 : x ? 2 : 1;
	return 1;
}

static int match(const char *build, const char *dev, struct match *m)
{
	memset(m, 0, sizeof(*m));
	m->dev = dev;
	m->plen = dev ? strcspn(dev, ":") : 0;
	if (!build || !m->plen || strncmp(dev, "gfx", 3) != 0)
		return -1;
	each_entry(build, match_entry, m);
	return m->gfx ? m->modes : -1;
}

int hmb_code_xnack_modes(const char *build_archs, const char *device_arch)
{
	struct match m;
	return match(build_archs, device_arch, &m);
}

int hmb_code_feature_mismatch(const char *build_archs, const char *device_arch, char *why,
			      size_t len)
{
	struct match m;
	int modes = match(build_archs, device_arch, &m), dx = hmb_arch_xnack(device_arch);
	const int p = (int)m.plen;

	if (modes < 0 || !m.same_processor)
		return 0;
	if (modes == 0) {
		snprintf(why, len, "this build's GPU code for %.*s (OFFLOAD_ARCH \"%s\") has the "
			 "other SRAMECC setting than the device (%s): its kernels will not load; "
			 "rebuild with `make OFFLOAD_ARCH=%.*s`", p, device_arch, build_archs,
			 device_arch, p, device_arch);
		return 1;
	}
	if (dx < 0 || (modes & (dx ? 2 : 1)))
		return 0;
	snprintf(why, len, "this build's GPU code for %.*s is %s only (OFFLOAD_ARCH \"%s\") and "
		 "this process runs with XNACK %s (%s): its kernels will not load; run with "
		 "HSA_XNACK=%d, or rebuild with `make OFFLOAD_ARCH=%.*s` (code for either mode)",
		 p, device_arch, dx ? "xnack-" : "xnack+", build_archs, dx ? "on" : "off",
		 device_arch, dx ? 0 : 1, p, device_arch);
	return 1;
}

/* The measured kind whose allocation hipHostMalloc(flags) is under a value. */
static enum hmb_mem_kind coherent_kind(unsigned flags, const char *value)
{
	return hmb_amd_host_coherent(flags, value) ? HMB_KIND_PINNED_COHERENT
						   : HMB_KIND_PINNED_NONCOHERENT;
}

int hmb_code_mode_hint(const char *build_archs, char *why, size_t len)
{
	if (!build_archs || (!strstr(build_archs, ":xnack") && !strstr(build_archs, ":sramecc")))
		return 0;
	snprintf(why, len, "this build's GPU code is for one XNACK or SRAMECC setting only "
		 "(OFFLOAD_ARCH \"%s\"): a process in the other finds no code it can load, which "
		 "the HIP runtime may answer by aborting; rebuild without the feature (e.g. `make "
		 "OFFLOAD_ARCH=gfx90a`) to run in either", build_archs);
	return 1;
}

int hmb_host_coherent_kinds(char *why, size_t len)
{
	struct hmb_facts f;
	struct hmb_memmodel *m = calloc(1, sizeof(*m));
	size_t used = 0;
	int n = 0;

	if (len)
		why[0] = '\0';
	if (!m)
		return 0;
	/* an AMD GPU with every kind this project knows: what memcpy measures there */
	memset(&f, 0, sizeof(f));
	f.vendor = HMB_VENDOR_AMD;
	f.name = "AMD GPU";
	f.arch = "gfx90a";
	f.managed_memory = f.host_register = f.fine_grained = 1;
	f.have_host_uncached = f.have_device_uncached = 1;
	hmb_memmodel_interpret(&f, m);
	for (int k = 0; k < HMB_KIND_COUNT; k++) {
		const struct hmb_kind_info *o = &m->kinds[k];
		if (strncmp(o->api, "hipHostMalloc(", 14) != 0 ||
		    hmb_amd_host_coherent(o->hm_flags, "0") == hmb_amd_host_coherent(o->hm_flags, "1"))
			continue;
		if (o->supported)
			n++;
		else if (used < len) /* recorded as the allocation it is (memmodel.c) */
			used += (size_t)snprintf(why + used, len - used, "%s%s follows it, and is "
						 "measured as %s (HIP_HOST_COHERENT unset or 0) and %s "
						 "(1), both in every run", used ? "; " : "", o->name,
						 hmb_kind_name(coherent_kind(o->hm_flags, "0")),
						 hmb_kind_name(coherent_kind(o->hm_flags, "1")));
	}
	free(m);
	return n;
}

static void one_run(struct hmb_mode_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->n = 1;
}

static void xnack_plan(const char *module, const struct hmb_mode_inputs *in,
		       struct hmb_mode_plan *p)
{
	const char *arch = in->arch && *in->arch ? in->arch : NULL;
	const int plen = arch ? (int)strcspn(arch, ":") : 0;
	int modes;

	if (!arch) {
		snprintf(p->note, sizeof(p->note), "the GPU's architecture is not known before %s "
			 "runs (no earlier module's document, no readable KFD topology): it runs "
			 "once, in the environment's XNACK mode", module);
		return;
	}
	if (hmb_gfx_xnack_per_process(hmb_gfx_version(arch)) != 1)
		return; /* no mode to select: as on NVIDIA */
	if (in->hsa_xnack) {
		p->run[0] = (struct hmb_mode_run){ "HSA_XNACK", in->hsa_xnack, 0, "hsa_xnack" };
		snprintf(p->note, sizeof(p->note), "HSA_XNACK=%.40s is set: %s runs once, in that "
			 "mode (unset it to measure both modes)", in->hsa_xnack, module);
		return;
	}
	modes = hmb_code_xnack_modes(in->build_archs, arch);
	if (modes == 0)
		return; /* no code for this GPU: the module's own process says so */
	if (modes > 0 && modes != 3) {
		const int on = modes == 2;
		p->run[0] = (struct hmb_mode_run){ "HSA_XNACK", on ? "1" : "0", 1, "hsa_xnack" };
		snprintf(p->note, sizeof(p->note), "HSA_XNACK=%d is left out: this build's GPU code "
			 "for %.*s is %s only (OFFLOAD_ARCH \"%s\"), its kernels would not load; "
			 "rebuild with `make OFFLOAD_ARCH=%.*s` to measure both modes", on ? 0 : 1,
			 plen, arch, on ? "xnack+" : "xnack-", in->build_archs, plen, arch);
		return;
	}
	p->n = 2;
	p->run[0] = (struct hmb_mode_run){ "HSA_XNACK", "1", 1, "hsa_xnack" };
	p->run[1] = (struct hmb_mode_run){ "HSA_XNACK", "0", 1, "hsa_xnack" };
}

static void host_coherent_plan(const struct hmb_mode_inputs *in, struct hmb_mode_plan *p)
{
	char why[640];
	int kinds = in->host_coherent_kinds;

	if (kinds <= 0) {
		hmb_host_coherent_kinds(why, sizeof(why));
		snprintf(p->note, sizeof(p->note), "HIP_HOST_COHERENT changes none of the kinds "
			 "memcpy measures (pinned has hipHostMalloc's default flags, fine-grained "
			 "whatever it says; the other pinned kinds are set by their flag; registered "
			 "is hipHostRegister's), so memcpy runs once%s%.600s", *why ? "; " : "", why);
		return;
	}
	if (in->hip_host_coherent) {
		p->run[0] = (struct hmb_mode_run){ "HIP_HOST_COHERENT", in->hip_host_coherent, 0,
						   "hip_host_coherent" };
		snprintf(p->note, sizeof(p->note), "HIP_HOST_COHERENT=%.40s is set: memcpy runs "
			 "once, with it", in->hip_host_coherent);
		return;
	}
	p->n = 2;
	p->run[0] = (struct hmb_mode_run){ "HIP_HOST_COHERENT", "0", 1, "hip_host_coherent" };
	p->run[1] = (struct hmb_mode_run){ "HIP_HOST_COHERENT", "1", 1, "hip_host_coherent" };
}

void hmb_mode_plan(const char *module, const struct hmb_mode_inputs *in,
		   struct hmb_mode_plan *p)
{
	one_run(p);
	if (in->vendor != HMB_VENDOR_AMD || !module)
		return;
	if (strcmp(module, "xnack") == 0 || strcmp(module, "managed") == 0)
		xnack_plan(module, in, p);
	else if (strcmp(module, "memcpy") == 0)
		host_coherent_plan(in, p);
}

const char *hmb_mode_run_text(const struct hmb_mode_run *r, char *buf, size_t len)
{
	if (!r->var)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%s=%s", r->var, r->value);
	return buf;
}

void hmb_mode_plan_print(FILE *out, const struct hmb_mode_plan *p)
{
	char text[96];

	for (int i = 0; i < p->n; i++)
		if (p->run[i].var)
			fprintf(out, "    run %d of %d: %s%s\n", i + 1, p->n,
				hmb_mode_run_text(&p->run[i], text, sizeof(text)),
				p->run[i].set ? "" : " (the user's, recorded)");
	if (p->note[0])
		fprintf(out, "    note: %s\n", p->note);
}
