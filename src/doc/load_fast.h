/* load_fast.h - a document's result read straight from its text (load_fast.c). */
#ifndef HMB_LOAD_FAST_H
#define HMB_LOAD_FAST_H

#include <stddef.h>

#include "doc/loaded.h"

/* The result whose text starts at p (text ends at end; the element of the
 * results array, at depth 2), read into l where it has the shape hipmembench
 * writes, every value checked to be JSON as json_stream.c checks it: where
 * it ends. Else NULL, with nothing added: the caller then parses it with
 * cJSON, checks it and reads it (json_read.c), which says what is wrong. */
const char *hmb_load_fast(struct hmb_loaded *l, const char *p, const char *end);

#endif
