/* help.h - the help texts: global, per command and per module, within 80 columns. */
#ifndef HMB_HELP_H
#define HMB_HELP_H

#include <stdio.h>

struct hmb_bench;

/* Help on topic (a command or module name; NULL for the global help), read
 * against the modules in benches. 0, or -1 when there is no such topic. */
int hmb_help_print(FILE *out, const char *topic, const struct hmb_bench *const *benches);

#endif
