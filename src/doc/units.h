/* units.h - which way is better for a figure's unit (units.c). */
#ifndef HMB_UNITS_H
#define HMB_UNITS_H

/* +1 higher is better (GB/s, speedups), -1 lower (times), 0 information
 * (bytes, fractions). */
int hmb_unit_direction(const char *unit);

#endif
