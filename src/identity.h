/* identity.h - which parameters identify a result (identity.c). */
#ifndef HMB_IDENTITY_H
#define HMB_IDENTITY_H

/* Is parameter `param` of a result of `module` context, not identity? has()
 * says whether that result has a parameter of a given name (some parameters
 * are context only beside another: a named load's calibrated iters). */
int hmb_identity_context(const char *module, const char *param,
			 int (*has)(const char *name, const void *result), const void *result);

#endif
