/* numfmt.h - printf's "%.Ng" and "%.Nf" for compare's tables, faster (numfmt.c);
 * the one form of a ratio for people. */
#ifndef HMB_NUMFMT_H
#define HMB_NUMFMT_H

#include <stddef.h>

/* snprintf(buf, len, "%.*g", digits, v), the same text; buf. */
const char *hmb_fmt_g(char *buf, size_t len, int digits, double v);
/* snprintf(buf, len, "%.*f", decimals, v), the same text; buf. */
const char *hmb_fmt_f(char *buf, size_t len, int decimals, double v);

/* A ratio for people, one form everywhere (the summary, compare): two
 * decimals below 10, enough to show the 5% a comparison judges at ("1.05x",
 * "0.96x", "0.06x", never ".06x"), whole from 10 ("12x"); "<0.01x" below
 * 0.005; "-" where r is not a positive number. buf. */
const char *hmb_fmt_ratio(char *buf, size_t len, double r);

#endif
