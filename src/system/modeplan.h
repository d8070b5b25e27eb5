/*
 * modeplan.h - the runs `all` makes of one module, each in a process of its
 * own, and the environment of each. On AMD the xnack and managed modules run
 * once with HSA_XNACK=1 and once with HSA_XNACK=0 where the GPU selects XNACK
 * per process, so one document holds both modes; everything else, and every
 * module on NVIDIA, runs once as before. Also: which XNACK modes the code
 * objects of this build can load in (a build for gfx90a:xnack+ only cannot
 * run with XNACK off), and which measured memory kinds HIP_HOST_COHERENT
 * changes (none: memmodel.c's coherence rule). Pure functions of their
 * inputs, so every rule is unit-tested without a GPU.
 */
#ifndef HMB_MODEPLAN_H
#define HMB_MODEPLAN_H

#include <stddef.h>
#include <stdio.h>

#include "system/memmodel.h"

#define HMB_MODE_RUNS 2

/* One run of a module. var NULL: the environment as it is, nothing recorded. */
struct hmb_mode_run {
	const char *var;        /* "HSA_XNACK" */
	const char *value;      /* "1" */
	int set;                /* 1: the run sets var; 0: the user's, only recorded */
	const char *param;      /* the record param that carries it ("hsa_xnack") */
};

struct hmb_mode_plan {
	int n;                  /* runs, 1 or 2 */
	struct hmb_mode_run run[HMB_MODE_RUNS];
	char note[1024];        /* why once, or which run was left out; "" nothing to say */
};

struct hmb_mode_inputs {
	enum hmb_vendor vendor;
	const char *arch;              /* the device's arch name; NULL or "" unknown */
	const char *build_archs;       /* the architectures this build holds code for */
	const char *hsa_xnack;         /* the user's environment; NULL unset */
	const char *hip_host_coherent;
	int host_coherent_kinds;       /* hmb_host_coherent_kinds() */
};

void hmb_mode_plan(const char *module, const struct hmb_mode_inputs *in,
		   struct hmb_mode_plan *p);
/* --dry-run: the runs of a plan with their environment (nothing for one
 * plain run). */
void hmb_mode_plan_print(FILE *out, const struct hmb_mode_plan *p);
/* "HSA_XNACK=1" (or "" for a plain run) into buf. */
const char *hmb_mode_run_text(const struct hmb_mode_run *r, char *buf, size_t len);

/* Bit 0: code for the device's processor that loads with XNACK off, bit 1:
 * with XNACK on. An OFFLOAD_ARCH entry without an xnack feature ("gfx90a")
 * loads in both, "gfx90a:xnack+" only with XNACK on; an entry whose sramecc
 * setting differs from the device's loads in neither. 0: no code for the
 * processor; -1: the build's architectures are not known. */
int hmb_code_xnack_modes(const char *build_archs, const char *device_arch);
/* 1 and one sentence in why when the build holds code for the device's
 * processor but none with the device's XNACK (or SRAMECC) setting: it names
 * both and the fix. 0 otherwise. */
int hmb_code_feature_mismatch(const char *build_archs, const char *device_arch, char *why,
			      size_t len);

/* 1 and a sentence in why when the build holds code for one XNACK or SRAMECC
 * setting only: what `all` adds where a module's process died by SIGABRT
 * (the runtime may abort on finding no code it can load before a module can
 * say why). 0 otherwise. */
int hmb_code_mode_hint(const char *build_archs, char *why, size_t len);

/* How many memory kinds that hipmembench measures on AMD change coherence
 * with HIP_HOST_COHERENT; the kinds that follow it but are not measured, and
 * why, into why. */
int hmb_host_coherent_kinds(char *why, size_t len);

#endif
