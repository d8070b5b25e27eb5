/*
 * identity.c - which parameters identify a result: its module, its case and
 * every parameter but those declared here as context (the GPU index, what is
 * tuned to the machine, descriptive text, how samples are timed, launch
 * geometry), which are kept in the record and shown, never a reason for two
 * results not to be the same one. compare matches systems' results by it;
 * --runs pairs a module's runs by it (a calibrated count may differ from run
 * to run).
 */
#include "doc/identity.h"

#include <string.h>

#include "engine/record.h"

/* Parameters that are context, not identity: kept in the record and shown
 * (--wide), never a reason for two systems' results not to match. A result is
 * identified by its module, case and every other parameter, whatever their
 * order in the document. */
enum context_kind { CTX_GPU, CTX_TUNED, CTX_TEXT, CTX_TIMING, CTX_GEOMETRY };

static const struct context_param {
	const char *module;    /* NULL: every module */
	const char *name;
	const char *only_with; /* context only where the result has this parameter too */
	enum context_kind kind;
} context_params[] = {
	/* the GPU a result ran on: compared GPU against GPU (--gpu picks one) */
	{ NULL, "device", NULL, CTX_GPU },
	{ "node", "gpu", NULL, CTX_GPU },
	/* tuned to the machine: the same workload, sized to what the system has */
	{ NULL, "buffer_sets", NULL, CTX_TUNED },   /* d2d buffers that outgrow the L2 */
	{ NULL, "iters", "load", CTX_TUNED },       /* a named load's calibrated steps */
	{ "node", "gpus", NULL, CTX_TUNED },        /* the node's GPU count */
	{ NULL, "busy_kernel", NULL, CTX_TUNED },   /* the spin kernel's calibrated steps */
	{ NULL, "copy_engines", NULL, CTX_TUNED },
	{ NULL, "copy_engines_source", NULL, CTX_TUNED },
	{ NULL, "async_engine_count", NULL, CTX_TUNED },
	{ NULL, "hw_queues", NULL, CTX_TUNED },
	{ NULL, "threads_launched", NULL, CTX_TUNED },
	{ NULL, "resident_thread_capacity", NULL, CTX_TUNED },
	/* text that describes the workload the case and the other parameters define */
	{ NULL, "timed", NULL, CTX_TEXT },
	{ NULL, "coherence", NULL, CTX_TEXT },
	{ NULL, "ideal_bound", NULL, CTX_TEXT },
	{ NULL, "before_each_sample", NULL, CTX_TEXT },
	{ NULL, "untimed_before_each_sample", NULL, CTX_TEXT },
	{ NULL, "untimed_setup", NULL, CTX_TEXT },
	{ NULL, "verification", NULL, CTX_TEXT },
	{ NULL, "attach", NULL, CTX_TEXT },
	{ NULL, "bytes_counted", NULL, CTX_TEXT },
	{ NULL, "figure_meaning", NULL, CTX_TEXT },
	{ NULL, "metric", NULL, CTX_TEXT },
	{ NULL, "baseline_case", NULL, CTX_TEXT },
	{ "xnack", "figure", NULL, CTX_TEXT },       /* what the case's figure means */
	{ "xnack", "pages_at_start", NULL, CTX_TEXT }, /* the case names where they start */
	/* how the samples are timed, which the case names */
	{ NULL, "clock", NULL, CTX_TIMING },
	{ NULL, "sync", NULL, CTX_TIMING },
	{ NULL, "latch", NULL, CTX_TIMING },
	/* launch geometry, sized to the GPU */
	{ NULL, "block_threads", NULL, CTX_GEOMETRY },
	{ NULL, "elements_per_thread", NULL, CTX_GEOMETRY },
	{ NULL, "grid", NULL, CTX_GEOMETRY },
	{ NULL, "grid_blocks", NULL, CTX_GEOMETRY },
	{ NULL, "grid_stride", NULL, CTX_GEOMETRY },
};

int hmb_identity_context(const char *module, const char *param,
			 int (*has)(const char *name, const void *result), const void *result)
{
	for (size_t i = 0; i < sizeof(context_params) / sizeof(context_params[0]); i++) {
		const struct context_param *c = &context_params[i];
		if (c->name[0] != param[0] || strcmp(c->name, param) ||
		    (c->module && strcmp(c->module, module)))
			continue;
		if (!c->only_with || has(c->only_with, result))
			return 1;
	}
	return 0;
}

enum hmb_param_role hmb_param_role(const char *module, const char *param,
				   const char **only_with)
{
	for (size_t i = 0; i < sizeof(context_params) / sizeof(context_params[0]); i++) {
		const struct context_param *c = &context_params[i];
		if (strcmp(c->name, param) || (c->module && strcmp(c->module, module)))
			continue;
		*only_with = c->only_with;
		return c->kind == CTX_GPU ? HMB_PARAM_GPU : HMB_PARAM_CONTEXT;
	}
	*only_with = NULL;
	return HMB_PARAM_IDENTITY;
}

int hmb_record_has_param(const char *name, const void *record)
{
	return hmb_kv_find(&((const struct hmb_record *)record)->params, name) != NULL;
}

int hmb_record_param_is_context(const struct hmb_record *r, const char *param)
{
	return hmb_identity_context(r->module, param, hmb_record_has_param, r);
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
