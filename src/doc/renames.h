/* renames.h - the cases renamed since older documents were written (renames.c). */
#ifndef HMB_RENAMES_H
#define HMB_RENAMES_H

#include <stddef.h>

/* The current name of case `name` (direction/kind/api) of module, whose
 * coherence parameter is `coherence`, in buf (older documents' cases are
 * read under the name that replaced them), and in *kind the host memory kind
 * it now names; name itself, and *kind NULL, where it was not renamed. */
const char *hmb_case_current_name(const char *module, const char *name, const char *coherence,
				  char *buf, size_t len, const char **kind);

#endif
