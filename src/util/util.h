/* util.h - allocation that cannot return NULL (out of host memory is fatal). */
#ifndef HMB_UTIL_H
#define HMB_UTIL_H

#include <sys/types.h>

#include <stddef.h>

void *hmb_xcalloc(size_t n, size_t size);
void *hmb_xrealloc(void *p, size_t size);
char *hmb_xstrdup(const char *s);

/* What a file that is not a regular one is, in words ("a directory", "a FIFO"). */
const char *hmb_file_kind(mode_t m);

#endif
