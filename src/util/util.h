/* util.h - allocation that cannot return NULL (out of host memory is fatal). */
#ifndef HMB_UTIL_H
#define HMB_UTIL_H

#include <stddef.h>

void *hmb_xcalloc(size_t n, size_t size);
void *hmb_xrealloc(void *p, size_t size);
char *hmb_xstrdup(const char *s);

#endif
