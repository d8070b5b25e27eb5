/* json_stream.h - a document's results parsed one at a time (json_stream.c). */
#ifndef HMB_JSON_STREAM_H
#define HMB_JSON_STREAM_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* text (len bytes) as a JSON object whose array `key` is not kept: each of
 * its elements goes to each(element, arg) as it is parsed, and is deleted
 * after; of an element that is an object, only the keys listed in `keys`
 * (NULL-terminated) are parsed and kept, in their order: "stats_s" keeps all
 * of stats_s, "stats_s.median" (a path) only that of it. Returns the rest of
 * the document, with an empty array under `key`, and *stop just after its
 * closing brace; or NULL where the walker does not follow the text, which
 * the caller then parses whole. */
cJSON *hmb_json_stream(const char *text, size_t len, const char *key, const char *const *keys,
		       void (*each)(const cJSON *, void *), void *arg, const char **stop);

#endif
