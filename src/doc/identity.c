/*
 * identity.c - the roles of the parameters of documents written before a
 * result said which of its parameters are context (engine/record.h: each
 * module declares a parameter's role where it writes it, and the document
 * carries them): one table, applied where a result read back declares none
 * (json_import.c). And which part of a case a text parameter names.
 */
#include "doc/identity.h"

#include <string.h>

#include "engine/record.h"

/* The context of older documents: what every module wrote as context then,
 * by name (module NULL: any module's). Not a list to extend: a parameter
 * written today declares its role where it is written. */
static const struct legacy_role {
	const char *module;    /* NULL: every module */
	const char *name;
	const char *only_with; /* context only where the result has this parameter too */
	enum hmb_param_role role;
} legacy_roles[] = {
	/* the GPU a result ran on: compared GPU against GPU (--gpu picks one) */
	{ NULL, "device", NULL, HMB_ROLE_GPU },
	{ "node", "gpu", NULL, HMB_ROLE_GPU },
	/* tuned to the machine: the same workload, sized to what the system has */
	{ NULL, "buffer_sets", NULL, HMB_ROLE_CONTEXT },   /* d2d buffers that outgrow the L2 */
	{ NULL, "iters", "load", HMB_ROLE_CONTEXT },       /* a named load's calibrated steps */
	{ "node", "gpus", NULL, HMB_ROLE_CONTEXT },        /* the node's GPU count */
	{ NULL, "busy_kernel", NULL, HMB_ROLE_CONTEXT },   /* the spin kernel's calibrated steps */
	{ NULL, "copy_engines", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "copy_engines_source", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "async_engine_count", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "hw_queues", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "threads_launched", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "resident_thread_capacity", NULL, HMB_ROLE_CONTEXT },
	/* text that describes the workload the case and the other parameters define */
	{ NULL, "timed", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "coherence", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "ideal_bound", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "before_each_sample", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "untimed_before_each_sample", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "untimed_setup", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "verification", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "attach", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "bytes_counted", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "figure_meaning", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "metric", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "baseline_case", NULL, HMB_ROLE_CONTEXT },
	{ "xnack", "figure", NULL, HMB_ROLE_CONTEXT },       /* what the case's figure means */
	{ "xnack", "pages_at_start", NULL, HMB_ROLE_CONTEXT }, /* the case names where they start */
	/* how the samples are timed, which the case names */
	{ NULL, "clock", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "sync", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "latch", NULL, HMB_ROLE_CONTEXT },
	/* launch geometry, sized to the GPU */
	{ NULL, "block_threads", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "elements_per_thread", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "grid", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "grid_blocks", NULL, HMB_ROLE_CONTEXT },
	{ NULL, "grid_stride", NULL, HMB_ROLE_CONTEXT },
};

/* The row of legacy_roles that parameter name of r is; -1: none (identity). */
static int legacy_row(const struct hmb_record *r, const char *name)
{
	for (size_t i = 0; i < sizeof(legacy_roles) / sizeof(legacy_roles[0]); i++) {
		const struct legacy_role *c = &legacy_roles[i];
		if (c->name[0] != name[0] || strcmp(c->name, name) ||
		    (c->module && strcmp(c->module, r->module)))
			continue;
		if (!c->only_with || hmb_kv_find(&r->params, c->only_with))
			return (int)i;
	}
	return -1;
}

void hmb_identity_legacy_roles(struct hmb_record *r)
{
	int gpu = -1; /* the row of the GPU parameter: the table's first wins */

	for (size_t k = 0; k < r->params.n; k++) {
		int i = legacy_row(r, r->params.v[k].key);
		if (i < 0)
			continue;
		if (legacy_roles[i].role != HMB_ROLE_GPU || (gpu >= 0 && gpu < i)) {
			r->params.v[k].role = HMB_ROLE_CONTEXT;
			continue;
		}
		hmb_param_set_role(r, r->params.v[k].key, HMB_ROLE_GPU);
		gpu = i;
	}
}

int hmb_case_names(const char *kase, const char *text)
{
	size_t n = strlen(text);
	const char *c = kase;

	if (!n)
		return 0;
	while (c) {
		if (!strncmp(c, text, n) && (c[n] == '/' || !c[n]))
			return 1;
		c = strchr(c, '/');
		c = c ? c + 1 : NULL;
	}
	return 0;
}
