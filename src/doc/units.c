/* units.c - which way is better for a figure's unit: compare's verdicts and
 * the summary's ratios read it alike. */
#include "doc/units.h"

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
