/* fuzz_check.h - what every fuzz target requires of a message: one printable line. */
#ifndef HMB_FUZZ_CHECK_H
#define HMB_FUZZ_CHECK_H

#include <stddef.h>
#include <string.h>

#include "util/text.h"

#define REQUIRE(c) \
	do { \
		if (!(c)) \
			__builtin_trap(); \
	} while (0)

/* A prefix of a UTF-8 sequence cut off by the end of a buffer. */
static inline int cut_sequence(const unsigned char *p, size_t n)
{
	if (n == 0 || n > 3 || p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return 1;
}

/* No control character (C0, DEL, C1), no line break, valid UTF-8 (but for a
 * sequence cut off at the very end, where a message was truncated to fit). */
static inline int printable_line(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	for (size_t i = 0; i < n;) {
		size_t seq = hmb_utf8_seq(p + i, n - i);
		if (!seq)
			return cut_sequence(p + i, n - i);
		if ((seq == 1 && (p[i] < 0x20 || p[i] == 0x7f)) ||
		    (seq == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0))
			return 0;
		i += seq;
	}
	return 1;
}

#endif
