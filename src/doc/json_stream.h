/* json_stream.h - a document's results read one at a time (json_stream.c). */
#ifndef HMB_JSON_STREAM_H
#define HMB_JSON_STREAM_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* text (len bytes) as a JSON object whose array `key` is not kept: each of
 * its elements (nested at depth 2) goes to each(where it starts, the end of
 * the text, arg), which reads it and returns where it ends (NULL: not JSON
 * that cJSON reads, or not followed). Returns the rest of the document,
 * with an empty array under `key`, and *stop just after its closing brace;
 * or NULL where the walker does not follow the text, which the caller then
 * parses whole. */
cJSON *hmb_json_stream(const char *text, size_t len, const char *key,
		       const char *(*each)(const char *, const char *, void *), void *arg,
		       const char **stop);

/* An element that stream handed over (text[0..len), checked: the end
 * hmb_json_skip gave), parsed: of an object, only the keys
 * listed in `keys` (NULL-terminated), in their order: "stats_s" keeps all of
 * stats_s, "stats_s.median" (a path) only that of it; NULL where cJSON
 * refuses it. */
cJSON *hmb_json_thin(const char *text, size_t len, const char *const *keys);

/* cJSON_ParseWithLengthOpts(text, len, end, 0), one parse at a time in the
 * process (cJSON keeps where its last parse failed in a variable of its own):
 * every parse of a document read for compare goes through it. */
cJSON *hmb_json_parse(const char *text, size_t len, const char **end);

/* Scanning JSON text without building it, as the walker does (strict):
 * white space from p on (cJSON's, NUL aside); the end of the string at p
 * ('"'); the end of the value at p, which `depth` containers hold. NULL:
 * not JSON the walker follows. */
const char *hmb_json_space(const char *p, const char *end);
/* From p on, the first quote, backslash or control byte of a string (end: none). */
const char *hmb_json_plain_run(const char *p, const char *end);
const char *hmb_json_skip_string(const char *p, const char *end);
const char *hmb_json_skip(const char *p, const char *end, int depth);

#endif
