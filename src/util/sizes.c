/* sizes.c - parsing and printing of byte sizes; see sizes.h for the forms. */
#include "util/sizes.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"

/* what is outside text: shown printable */
static int fail(char *err, size_t errlen, const char *fmt, const char *what)
{
	snprintf(err, errlen, fmt, hmb_shown(what));
	return -1;
}

/* Parse [len] characters of text as one size. */
static int parse_size_n(const char *text, size_t len, size_t *out, char *err, size_t errlen)
{
	char buf[64], *end;
	unsigned long long value, shift = 0;

	if (len == 0)
		return fail(err, errlen, "invalid size '%s': empty", "");
	if (len >= sizeof(buf)) {
		snprintf(buf, sizeof(buf), "%.*s", 20, text);
		return fail(err, errlen, "invalid size '%s...': too long", buf);
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (!isdigit((unsigned char)buf[0]))
		return fail(err, errlen, "invalid size '%s': expected a number such as 4K, 64M, 1G", buf);
	errno = 0;
	value = strtoull(buf, &end, 10);
	if (errno)
		return fail(err, errlen, "invalid size '%s': out of range", buf);
	switch (toupper((unsigned char)*end)) {
	case 'K': shift = 10; end++; break;
	case 'M': shift = 20; end++; break;
	case 'G': shift = 30; end++; break;
	case 'T': shift = 40; end++; break;
	default: break;
	}
	if (shift && (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0))
		end += strlen(end);
	else if (!shift && (strcmp(end, "B") == 0))
		end++;
	if (*end)
		return fail(err, errlen, "invalid size '%s': unknown unit (use K, M, G or T)", buf);
	if (value == 0)
		return fail(err, errlen, "invalid size '%s': must be greater than zero", buf);
	if (value > (SIZE_MAX >> shift))
		return fail(err, errlen, "invalid size '%s': out of range", buf);
	if (value > (HMB_SIZE_LIMIT >> shift))
		return fail(err, errlen, "invalid size '%s': above 64T, more than any GPU or host "
			    "holds", buf);
	*out = (size_t)(value << shift);
	return 0;
}

int hmb_parse_size(const char *text, size_t *out, char *err, size_t errlen)
{
	return parse_size_n(text, strlen(text), out, err, errlen);
}

static int push(struct hmb_sizes *s, size_t v, char *err, size_t errlen)
{
	if (s->n >= HMB_MAX_SIZES) {
		snprintf(err, errlen, "too many sizes: at most %d", HMB_MAX_SIZES);
		return -1;
	}
	s->v[s->n++] = v;
	return 0;
}

/* "lo:hi:xF" or "lo:hi:+S" */
static int parse_range(const char *item, size_t len, struct hmb_sizes *out, char *err,
		       size_t errlen)
{
	const char *c1 = memchr(item, ':', len);
	const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - item)) : NULL;
	char text[128], stepbuf[64];
	size_t lo, hi, step, steplen;
	int multiply;

	/* the range alone, for messages */
	snprintf(text, sizeof(text), "%.*s", (int)(len < 100 ? len : 100), item);
	if (!c2) {
		snprintf(err, errlen, "invalid range '%s': expected LO:HI:xFACTOR or LO:HI:+STEP",
			 hmb_shown(text));
		return -1;
	}
	if (parse_size_n(item, (size_t)(c1 - item), &lo, err, errlen) ||
	    parse_size_n(c1 + 1, (size_t)(c2 - c1 - 1), &hi, err, errlen))
		return -1;
	steplen = len - (size_t)(c2 + 1 - item);
	if (steplen < 2 || steplen >= sizeof(stepbuf) || (c2[1] != 'x' && c2[1] != '+')) {
		snprintf(err, errlen, "invalid range '%s': step must be xFACTOR or +SIZE",
			 hmb_shown(text));
		return -1;
	}
	multiply = c2[1] == 'x';
	memcpy(stepbuf, c2 + 2, steplen - 1);
	stepbuf[steplen - 1] = '\0';
	if (multiply) {
		unsigned long f = 0;
		/* digits only: no sign, blanks or hex */
		if (strspn(stepbuf, "0123456789") == strlen(stepbuf) && strlen(stepbuf) <= 4)
			f = strtoul(stepbuf, NULL, 10);
		if (f < 2 || f > 1024) {
			snprintf(err, errlen, "invalid range '%s': factor must be 2 to 1024",
				 hmb_shown(text));
			return -1;
		}
		step = f;
	} else if (parse_size_n(stepbuf, strlen(stepbuf), &step, err, errlen)) {
		return -1;
	}
	if (hi < lo) {
		snprintf(err, errlen, "invalid range '%s': end is below start", hmb_shown(text));
		return -1;
	}
	/* v <= hi throughout, so neither hi - v nor hi / step can wrap */
	for (size_t v = lo;;) {
		if (push(out, v, err, errlen))
			return -1;
		if (multiply ? v > hi / step : step > hi - v)
			break;
		v = multiply ? v * step : v + step;
	}
	return 0;
}

int hmb_parse_sizes(const char *text, struct hmb_sizes *out, char *err, size_t errlen)
{
	const char *p = text;

	out->n = 0;
	if (!*text) {
		snprintf(err, errlen, "invalid size list: empty");
		return -1;
	}
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int rc;

		if (memchr(p, ':', len))
			rc = parse_range(p, len, out, err, errlen);
		else {
			size_t v;
			rc = parse_size_n(p, len, &v, err, errlen);
			if (!rc)
				rc = push(out, v, err, errlen);
		}
		if (rc)
			return -1;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

const char *hmb_format_size(size_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	int u = -1;

	while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%zu", bytes);
	else
		snprintf(buf, len, "%zu%c", bytes, units[u]);
	return buf;
}

const char *hmb_bytes_text(double bytes, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	double a = fabs(bytes), v = a;
	const char *sign = bytes < 0 ? "-" : "";
	int u = -1;

	if (!(a <= (double)HMB_SIZE_LIMIT)) /* more than any GPU or host holds: the number */
		return hmb_number_text(bytes, buf, len);
	if (a == floor(a) && a >= 1024 && a <= (double)HMB_SIZE_LIMIT) {
		char typed[32];
		hmb_format_size((size_t)a, typed, sizeof(typed));
		if (strlen(typed) <= 5 && !isdigit((unsigned char)typed[strlen(typed) - 1])) {
			snprintf(buf, len, "%s%s", sign, typed);
			return buf;
		}
	}
	while (u < 3 && v >= 1024) {
		v /= 1024;
		u++;
	}
	/* three significant digits: 1.59, 15.9, 159; 1023.6 of a unit is the next one's 1 */
	if (u >= 0 && v >= 999.5 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, v == floor(v) ? "%s%.0f" : v >= 99.95 ? "%s%.0f" : v >= 9.995 ?
			 "%s%.1f" : "%s%.2f", sign, v);
	else
		snprintf(buf, len, v >= 99.5 ? "%s%.0f%c" : v >= 9.995 ? "%s%.1f%c" : "%s%.2f%c",
			 sign, v, units[u]);
	return buf;
}

int hmb_is_bytes_name(const char *name)
{
	static const char *const sizes[] = { "size", "step", "start", "stride" };
	const char *w = strstr(name, "bytes");

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (!strcmp(name, sizes[i]))
			return 1;
	/* the word bytes, not part of another ("bytes", "span_bytes", "bytes_per_access") */
	return w && (w == name || w[-1] == '_') && (!w[5] || w[5] == '_');
}

size_t hmb_sizes_max(const struct hmb_sizes *s)
{
	size_t m = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] > m)
			m = s->v[i];
	return m;
}

const char *hmb_sz(size_t bytes)
{
	static char bufs[8][32];
	static int next;
	char *b = bufs[next++ % 8];
	return hmb_format_size(bytes, b, sizeof(bufs[0]));
}
