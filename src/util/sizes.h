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
/* A size as text ("64M") for case names and messages. */
const char *hmb_sz(size_t bytes);
/* The largest size of a list (0 for an empty list). */
size_t hmb_sizes_max(const struct hmb_sizes *s);

#endif
