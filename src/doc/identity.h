/* identity.h - which parameters identify a result (identity.c). */
#ifndef HMB_IDENTITY_H
#define HMB_IDENTITY_H

/* Is parameter `param` of a result of `module` context, not identity? has()
 * says whether that result has a parameter of a given name (some parameters
 * are context only beside another: a named load's calibrated iters). */
int hmb_identity_context(const char *module, const char *param,
			 int (*has)(const char *name, const void *result), const void *result);

/* What a parameter of a result of `module` is (context_params in identity.c):
 * identity, the GPU it ran on, or other context (tuned to the machine,
 * descriptive text, timing, launch geometry). A context parameter with
 * *only_with set is context only where the result has that parameter too. */
enum hmb_param_role { HMB_PARAM_IDENTITY, HMB_PARAM_GPU, HMB_PARAM_CONTEXT };
enum hmb_param_role hmb_param_role(const char *module, const char *param,
				   const char **only_with);

struct hmb_record;
/* Has record (a struct hmb_record) a parameter of this name? A has() for
 * hmb_identity_context. */
int hmb_record_has_param(const char *name, const void *record);
/* Parameter `param` of record r is context (shown, not matched). */
int hmb_record_param_is_context(const struct hmb_record *r, const char *param);
/* The case names text as one of its /-separated parts ("h2d" of h2d/pinned/async). */
int hmb_case_names(const char *kase, const char *text);

#endif
