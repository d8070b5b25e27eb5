/* text.c - outside text made safe to show: printable lines, valid UTF-8; a
 * number for people. */
#include "util/text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"

size_t hmb_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c;

	if (n == 0)
		return 0;
	c = s[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return n >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		/* no overlong forms (e0 a0..), no surrogates (ed 80..9f) */
		unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
		return n >= 3 && s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		/* no overlong forms (f0 90..), nothing beyond U+10FFFF (f4 80..8f) */
		unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
		return n >= 4 && s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 &&
		       (s[3] & 0xc0) == 0x80 ? 4 : 0;
	}
	return 0;
}

/* A control character: C0, DEL, or C1 (U+0080..U+009F, c2 80..c2 9f). */
static int is_control(const unsigned char *s, size_t seq)
{
	return (seq == 1 && (s[0] < 0x20 || s[0] == 0x7f)) ||
	       (seq == 2 && s[0] == 0xc2 && s[1] < 0xa0);
}

char *hmb_printable(const char *text, size_t max, char *out, size_t outlen)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text), i = 0, o = 0;

	while (i < n && i < max) {
		size_t seq = hmb_utf8_seq(s + i, n - i), need;
		if (seq == 0 || is_control(s + i, seq)) {
			size_t bytes = seq ? seq : 1;
			need = 4 * bytes;
			if (o + need >= outlen)
				break;
			for (size_t k = 0; k < bytes; k++)
				o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", s[i + k]);
			i += bytes;
			continue;
		}
		need = seq;
		if (o + need >= outlen)
			break;
		memcpy(out + o, s + i, seq);
		o += seq;
		i += seq;
	}
	if (i < n && o + 3 < outlen) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	if (outlen)
		out[o < outlen ? o : outlen - 1] = '\0';
	return out;
}

const char *hmb_shown(const char *text)
{
	/* per thread: compare reads its documents side by side */
	static _Thread_local char bufs[8][4 * HMB_SHOWN_MAX + 4];
	static _Thread_local unsigned next;
	char *b = bufs[next++ % 8];

	return hmb_printable(text ? text : "(null)", HMB_SHOWN_MAX, b, sizeof(bufs[0]));
}

void hmb_utf8_trim(char *s)
{
	unsigned char *u = (unsigned char *)s;
	size_t n = strlen(s), i = n;

	while (i > 0 && n - i < 3 && (u[i - 1] & 0xc0) == 0x80)
		i--;
	if (i > 0 && u[i - 1] >= 0xc0 && hmb_utf8_seq(u + i - 1, n - i + 1) == 0)
		s[i - 1] = '\0';
}

char *hmb_utf8_valid(const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text), i = 0, o = 0;
	char *out = hmb_xcalloc(3 * n + 1, 1); /* every byte may become 3 (U+FFFD) */

	while (i < n) {
		size_t seq = hmb_utf8_seq(s + i, n - i);
		if (seq) {
			memcpy(out + o, s + i, seq);
			o += seq;
			i += seq;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}

const char *hmb_number_text(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
	return buf;
}
