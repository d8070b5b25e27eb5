/* numfmt.h - printf's "%.Ng" and "%.Nf" for compare's tables, faster (numfmt.c). */
#ifndef HMB_NUMFMT_H
#define HMB_NUMFMT_H

#include <stddef.h>

/* snprintf(buf, len, "%.*g", digits, v), the same text; buf. */
const char *hmb_fmt_g(char *buf, size_t len, int digits, double v);
/* snprintf(buf, len, "%.*f", decimals, v), the same text; buf. */
const char *hmb_fmt_f(char *buf, size_t len, int decimals, double v);

#endif
