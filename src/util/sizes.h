/*
 * sizes.h - byte sizes as users type them: "4K", "64M", "1G" (binary
 * multiples), lists "4K,64M,1G" and ranges "4K:1G:x4" (multiply by 4) or
 * "1M:8M:+1M" (add 1 MiB), mixed freely: "4K,1M:4M:x2".
 */
#ifndef HMB_SIZES_H
#define HMB_SIZES_H

#include <stddef.h>

#define HMB_MAX_SIZES 64
/* No size above this (64T) is taken: more than any GPU or host holds. */
#define HMB_SIZE_LIMIT ((size_t)64 << 40)

struct hmb_sizes {
	size_t n;
	size_t v[HMB_MAX_SIZES];
};

/* Parse one size. Returns 0, or -1 with a one-line reason in err. */
int hmb_parse_size(const char *text, size_t *out, char *err, size_t errlen);
/* Parse a list of sizes and ranges. Returns 0, or -1 with a reason in err. */
int hmb_parse_sizes(const char *text, struct hmb_sizes *out, char *err, size_t errlen);
/* Format a size the way it would be typed: 4K, 64M, 1G, or bytes. */
const char *hmb_format_size(size_t bytes, char *buf, size_t len);
/* A byte count for people (tables, show, the summary, compare's labels and
 * tables; never JSON or CSV, which keep every byte): as it would be typed
 * where that takes at most 4 digits (4K, 64M, 1536M, 12G), else 3
 * significant digits of the largest binary unit it fills (15.9G, 300K);
 * below 1K the number (16, 0.5); above 64T, more than anything holds, the
 * number as it is (hmb_number_text: 8e+40). */
const char *hmb_bytes_text(double bytes, char *buf, size_t len);
/* Does a parameter of this name hold a byte count: size, step, start,
 * stride, or a name with the word bytes (span_bytes, bytes_per_access)? The
 * one list of them, for every printer. */
int hmb_is_bytes_name(const char *name);
/* A size as text ("64M") for case names and messages. */
const char *hmb_sz(size_t bytes);
/* The largest size of a list (0 for an empty list). */
size_t hmb_sizes_max(const struct hmb_sizes *s);

#endif
