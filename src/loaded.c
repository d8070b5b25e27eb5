/* loaded.c - a loaded document's results and figures: which way is better,
 * numbers for people, and freeing them. */
#include "loaded.h"

#include <math.h>
#include <stdio.h>
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

const char *hmb_number_text(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
	return buf;
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
	for (size_t i = 0; i < l->nres; i++) {
		struct hmb_result *r = &l->res[i];
		for (size_t k = 0; k < r->np; k++) {
			free(r->p[k].name);
			free(r->p[k].text);
			free(r->p[k].exact);
		}
		free(r->p);
		free(r->module);
		free(r->kase);
	}
	free(l->res);
	free(l->fig);
	memset(l, 0, sizeof(*l));
}
