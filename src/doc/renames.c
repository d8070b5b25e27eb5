/* renames.c - the one table of cases renamed since older documents were
 * written: compare matches their results under the new name. */
#include "doc/renames.h"

#include <stdio.h>
#include <string.h>

/* On AMD hipHostMallocWriteCombined does nothing (memmodel.c), so memcpy's
 * write-combined cases there were the pinned-noncoherent or pinned-coherent
 * copies, told apart by the coherence the record carries; NVIDIA's (one
 * coherence mode) keep their name. */
static const struct {
	const char *module, *kind, *coherence, *now;
} renamed[] = {
	{ "memcpy", "write-combined", "coarse-grained", "pinned-noncoherent" },
	{ "memcpy", "write-combined", "fine-grained", "pinned-coherent" },
	{ "memcpy", "write-combined-coherent", "fine-grained", "pinned-coherent" },
};

const char *hmb_case_current_name(const char *module, const char *name, const char *coherence,
				  char *buf, size_t len, const char **now)
{
	const char *kind = strchr(name, '/'), *api;

	*now = NULL;
	if (!kind || !(api = strchr(kind + 1, '/')))
		return name;
	kind++;
	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++) {
		if (strcmp(module, renamed[i].module) != 0 || strlen(renamed[i].kind) != (size_t)(api - kind) ||
		    strncmp(kind, renamed[i].kind, (size_t)(api - kind)) != 0 ||
		    strncmp(coherence, renamed[i].coherence, strlen(renamed[i].coherence)) != 0)
			continue;
		snprintf(buf, len, "%.*s%s%s", (int)(kind - name), name, renamed[i].now, api);
		*now = renamed[i].now;
		return buf;
	}
	return name;
}
