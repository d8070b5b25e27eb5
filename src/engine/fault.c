/* fault.c - HMB_FAULT: one step of a run fails on purpose (fault.h). */
#include "engine/fault.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/module.h"

static const char *const kind_names[HMB_FAULT_KINDS] = { "any", "alloc", "setup", "prepare",
							 "op", "verify", "corrupt" };

int hmb_fault_armed;
static struct hmb_fault_spec armed;
static long seen;   /* points of the armed kind so far; the N-th failed */

int hmb_fault_parse(const char *text, struct hmb_fault_spec *spec, char *err, size_t errlen)
{
	const char *colon = strchr(text, ':');
	char *end;
	long n;

	for (int k = 0; colon && k < HMB_FAULT_KINDS; k++) {
		if ((size_t)(colon - text) != strlen(kind_names[k]) ||
		    strncmp(text, kind_names[k], (size_t)(colon - text)) != 0)
			continue;
		errno = 0;
		n = strtol(colon + 1, &end, 10);
		if (colon[1] < '0' || colon[1] > '9' || *end || errno || n < 0) {
			snprintf(err, errlen, "HMB_FAULT: '%s' is not a count (KIND:N, N >= 0)",
				 colon + 1);
			return -1;
		}
		spec->kind = (enum hmb_fault_kind)k;
		spec->n = n;
		return 0;
	}
	snprintf(err, errlen, "HMB_FAULT: expected KIND:N with KIND one of any, alloc, setup, "
		 "prepare, op, verify, corrupt");
	return -1;
}

void hmb_fault_arm(const struct hmb_fault_spec *spec)
{
	hmb_fault_armed = spec != NULL;
	if (spec)
		armed = *spec;
	seen = 0;
}

int hmb_fault_init(char *err, size_t errlen)
{
	const char *text = getenv("HMB_FAULT");
	struct hmb_fault_spec spec;

	if (!text || !*text)
		return 0;
	if (hmb_fault_parse(text, &spec, err, errlen) != 0)
		return -1;
	hmb_fault_arm(&spec);
	/* CUDA and HIP load a kernel's code on its first launch and keep it:
	 * loaded at start-up instead, it is not counted as memory a module kept. */
	setenv("CUDA_MODULE_LOADING", "EAGER", 1);
	setenv("HIP_ENABLE_DEFERRED_LOADING", "0", 1);
	return 0;
}

int hmb_fault_point(enum hmb_fault_kind kind, const char *where)
{
	if (armed.kind != kind && (armed.kind != HMB_FAULT_ANY || kind == HMB_FAULT_CORRUPT))
		return 0;
	if (++seen != armed.n)
		return 0;
	if (kind == HMB_FAULT_CORRUPT)
		return 1;
	hmb_set_error("HMB_FAULT=%s:%ld: injected failure at %s %ld of %s",
		      kind_names[armed.kind], armed.n, kind_names[kind], seen, where);
	return 1;
}

void hmb_fault_report(const char *module, size_t free_before, size_t free_after)
{
	fprintf(stderr, "hipmembench: fault-hook module=%s spec=%s:%ld fired=%d points=%ld "
		"free_before=%zu free_after=%zu\n", module, kind_names[armed.kind], armed.n,
		armed.n > 0 && seen >= armed.n, seen, free_before, free_after);
}
