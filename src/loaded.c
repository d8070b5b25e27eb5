/* loaded.c - a loaded document's figures: which way is better, and freeing them. */
#include "loaded.h"

#include <stdlib.h>
#include <string.h>

int hmb_unit_direction(const char *unit)
{
	static const char *const higher[] = { "GB/s", "x", "ratio", "faults/s", NULL };
	static const char *const lower[] = { "s", "ms", "us", "ns", "x-slower", NULL };

	for (int i = 0; higher[i]; i++)
		if (!strcmp(unit, higher[i]))
			return 1;
	for (int i = 0; lower[i]; i++)
		if (!strcmp(unit, lower[i]))
			return -1;
	return 0; /* bytes, fractions: information */
}

void hmb_loaded_free(struct hmb_loaded *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->fig[i].key);
		free(l->fig[i].label);
		free(l->fig[i].name);
		free(l->fig[i].unit);
		free(l->fig[i].samples);
	}
	free(l->fig);
	memset(l, 0, sizeof(*l));
}
