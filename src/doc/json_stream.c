/*
 * json_stream.c - reading a large document one result at a time: the top
 * level is walked here and each element of its `results` array is handed
 * to the reader as text, which reads it straight from there (load_fast.c)
 * or has it parsed here into a small object of the keys it asks for
 * (hmb_json_thin); either way every value is checked to be JSON as cJSON
 * reads it, and the values not read (samples, shape, ...) are skipped
 * without building them.
 * A document of 300 000 results so never becomes one tree of millions of
 * nodes.
 *
 * The check is stricter than cJSON's: plain JSON numbers of at most 63
 * characters, no control bytes in strings, nesting well below cJSON's
 * limit. Anything the walker does not follow makes it give up; the caller
 * then parses the text whole, which accepts what cJSON accepts and says
 * what is wrong where it is.
 */
#include "doc/json_stream.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* cJSON notes where its last parse failed in a variable of its own, which
 * every parse writes: documents read side by side (compare) parse one at a
 * time. */
static pthread_mutex_t parsing = PTHREAD_MUTEX_INITIALIZER;

cJSON *hmb_json_parse(const char *text, size_t len, const char **end)
{
	cJSON *v;

	pthread_mutex_lock(&parsing);
	v = cJSON_ParseWithLengthOpts(text, len, end, 0);
	pthread_mutex_unlock(&parsing);
	return v;
}

/* Deeper than this, the walker leaves the text to cJSON (its limit: 1000). */
#define DEPTH_MAX (CJSON_NESTING_LIMIT - 8)

/* cJSON's white space: every byte up to and including the blank, but for
 * NUL, which the caller refuses in a document (the walker gives up). */
const char *hmb_json_space(const char *p, const char *end)
{
	while (p < end && *p && (unsigned char)*p <= 32)
		p++;
	return p;
}

static int hex4(const char *p, const char *end, unsigned *out)
{
	unsigned v = 0;

	if (end - p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* A string at p ('"'): just after it, or NULL. Escapes as cJSON reads them
 * (a \u surrogate only in a pair). */
const char *hmb_json_plain_run(const char *p, const char *end)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;

	/* eight bytes at a time: a byte is quote, backslash or below 32 where
	 * (x - k) & ~x & highs finds a zero byte in x = bytes ^ k, or a byte
	 * below k for the control bytes (a set high bit rules that out) */
	while (end - p >= 8) {
		uint64_t x, q, b;
		memcpy(&x, p, 8);
		q = x ^ (ones * '"');
		b = x ^ (ones * '\\');
		if (((q - ones) & ~q & highs) | ((b - ones) & ~b & highs) |
		    ((x - ones * 32) & ~x & highs))
			break;
		p += 8;
	}
	while (p < end && (unsigned char)*p >= 32 && *p != '"' && *p != '\\')
		p++;
	return p;
}

const char *hmb_json_skip_string(const char *p, const char *end)
{
	unsigned u, low;

	for (p++; p < end; p++) {
		unsigned char c;
		p = hmb_json_plain_run(p, end);
		if (p == end)
			return NULL;
		c = (unsigned char)*p;
		if (c == '"')
			return p + 1;
		if (c < 32)
			return NULL;
		if (c != '\\')
			continue;
		if (++p == end)
			return NULL;
		if (*p && strchr("\"\\/bfnrt", *p))
			continue;
		if (*p != 'u' || hex4(p + 1, end, &u))
			return NULL;
		p += 4;
		if (u >= 0xDC00 && u <= 0xDFFF)
			return NULL;
		if (u >= 0xD800 && u <= 0xDBFF) {
			if (end - p < 7 || p[1] != '\\' || p[2] != 'u' || hex4(p + 3, end, &low) ||
			    low < 0xDC00 || low > 0xDFFF)
				return NULL;
			p += 6;
		}
	}
	return NULL;
}

static const char *digits(const char *p, const char *end)
{
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

/* A number as JSON writes it: just after it, or NULL. */
static const char *skip_number(const char *p, const char *end)
{
	const char *start = p, *q;

	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if (p < end && *p >= '1' && *p <= '9')
		p = digits(p, end);
	else
		return NULL;
	if (p < end && *p == '.') {
		if ((q = digits(p + 1, end)) == p + 1)
			return NULL;
		p = q;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if ((q = digits(p, end)) == p)
			return NULL;
		p = q;
	}
	/* cJSON reads at most 63 characters of a number; and one that runs on
	 * ("01", "1.") is left to it */
	if (p - start > 63 || (p < end && ((*p >= '0' && *p <= '9') || *p == '+' || *p == '-' ||
					   *p == 'e' || *p == 'E' || *p == '.')))
		return NULL;
	return p;
}


/* An array or object at p, whose values sit at depth: just after it, or NULL. */
static const char *skip_container(const char *p, const char *end, int depth)
{
	char close = *p == '{' ? '}' : ']';

	if (depth > DEPTH_MAX)
		return NULL;
	p = hmb_json_space(p + 1, end);
	if (p < end && *p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			if (p == end || *p != '"' || !(p = hmb_json_skip_string(p, end)))
				return NULL;
			p = hmb_json_space(p, end);
			if (p == end || *p != ':')
				return NULL;
			p = hmb_json_space(p + 1, end);
		}
		if (!(p = hmb_json_skip(p, end, depth)))
			return NULL;
		p = hmb_json_space(p, end);
		if (p < end && *p == ',') {
			p = hmb_json_space(p + 1, end);
			continue;
		}
		return p < end && *p == close ? p + 1 : NULL;
	}
}

/* Any value at p, at depth (the containers around it): just after it, or NULL. */
const char *hmb_json_skip(const char *p, const char *end, int depth)
{
	static const char *const words[] = { "null", "true", "false" };

	if (p >= end)
		return NULL;
	switch (*p) {
	case '"':
		return hmb_json_skip_string(p, end);
	case '{':
	case '[':
		return skip_container(p, end, depth + 1);
	case 'n':
	case 't':
	case 'f':
		for (int i = 0; i < 3; i++) {
			size_t n = strlen(words[i]);
			if ((size_t)(end - p) >= n && !strncmp(p, words[i], n))
				return p + n;
		}
		return NULL;
	default:
		return skip_number(p, end);
	}
}

/* The value at p (at depth), checked, then parsed by cJSON; NULL where
 * either refuses it. *next: just after it. */
static cJSON *value_at(const char *p, const char *end, int depth, const char **next)
{
	const char *after = hmb_json_skip(p, end, depth), *got = NULL;
	cJSON *v;

	if (!after)
		return NULL;
	v = hmb_json_parse(p, (size_t)(after - p), &got);
	if (v && got != after) {
		cJSON_Delete(v);
		return NULL;
	}
	*next = after;
	return v;
}

/* Is key `name`, under prefix (a path of keys ending in '.', or ""), asked
 * for: WHOLE (keys has prefix + name), IN_PART (keys has prefix + name +
 * "." + more) or NOT at all? */
enum want { NOT, IN_PART, WHOLE };

static enum want wanted(const char *prefix, const char *name, const char *const *keys)
{
	size_t plen = strlen(prefix), len = strlen(name);
	enum want w = NOT;

	for (int i = 0; keys[i]; i++) {
		const char *k = keys[i];
		if (strncmp(k, prefix, plen) || strncmp(k + plen, name, len))
			continue;
		if (!k[plen + len])
			return WHOLE;
		if (k[plen + len] == '.')
			w = IN_PART;
	}
	return w;
}

/* The object at p ('{', its values at depth) with only the keys that keys
 * asks for under prefix, each parsed (or, asked for in part, thinned in
 * turn); the rest checked and skipped. NULL where the walker gives up. */
static cJSON *thin_object(const char *p, const char *end, const char *const *keys,
			  const char *prefix, int depth, const char **next)
{
	cJSON *o = cJSON_CreateObject(), *parsed = NULL, *v;
	const char *key_end, *q, *name;
	char plain[128], sub[256];

	if (depth > DEPTH_MAX)
		goto give_up;
	p = hmb_json_space(p + 1, end);
	if (p < end && *p == '}') {
		*next = p + 1;
		return o;
	}
	for (;;) {
		enum want w;
		size_t len;
		if (p == end || *p != '"' || !(key_end = hmb_json_skip_string(p, end)))
			break;
		q = hmb_json_space(key_end, end);
		if (q == end || *q != ':')
			break;
		q = hmb_json_space(q + 1, end);
		/* a key with escapes (or a long one) as cJSON reads it; a plain one as it is */
		len = (size_t)(key_end - p - 2);
		if (len < sizeof(plain) && !memchr(p + 1, '\\', len)) {
			memcpy(plain, p + 1, len);
			plain[len] = '\0';
			name = plain;
		} else if ((parsed = hmb_json_parse(p, (size_t)(key_end - p), NULL))) {
			name = parsed->valuestring;
		} else {
			break;
		}
		w = wanted(prefix, name, keys);
		if (w == NOT) {
			if (!(q = hmb_json_skip(q, end, depth)))
				break;
		} else {
			if (w == IN_PART && *q == '{' &&
			    (size_t)snprintf(sub, sizeof(sub), "%s%s.", prefix, name) < sizeof(sub))
				v = thin_object(q, end, keys, sub, depth + 1, &q);
			else
				v = value_at(q, end, depth, &q);
			if (!v)
				break;
			cJSON_AddItemToObject(o, name, v);
		}
		cJSON_Delete(parsed);
		parsed = NULL;
		p = hmb_json_space(q, end);
		if (p < end && *p == ',') {
			p = hmb_json_space(p + 1, end);
			continue;
		}
		if (p < end && *p == '}') {
			*next = p + 1;
			return o;
		}
		break;
	}
give_up:
	cJSON_Delete(parsed);
	cJSON_Delete(o);
	return NULL;
}

cJSON *hmb_json_thin(const char *text, size_t len, const char *const *keys)
{
	const char *next;
	cJSON *v;

	if (len && *text == '{')
		v = thin_object(text, text + len, keys, "", 3, &next);
	else
		v = value_at(text, text + len, 2, &next);
	if (v && next != text + len) {
		cJSON_Delete(v);
		v = NULL;
	}
	return v;
}

/* The elements of the array at p ('[', at depth 1), each read by each(); p
 * after the array, or NULL. */
static const char *stream_array(const char *p, const char *end,
				const char *(*each)(const char *, const char *, void *), void *arg)
{
	p = hmb_json_space(p + 1, end);
	if (p < end && *p == ']')
		return p + 1;
	for (;;) {
		if (!(p = each(p, end, arg)))
			return NULL;
		p = hmb_json_space(p, end);
		if (p < end && *p == ',') {
			p = hmb_json_space(p + 1, end);
			continue;
		}
		return p < end && *p == ']' ? p + 1 : NULL;
	}
}

cJSON *hmb_json_stream(const char *text, size_t len, const char *key,
		       const char *(*each)(const char *, const char *, void *), void *arg,
		       const char **stop)
{
	const char *p = text, *end = text + len, *next;
	cJSON *doc = cJSON_CreateObject(), *name = NULL, *v;
	int streamed = 0;

	p = hmb_json_space(p, end);
	if (p == end || *p != '{')
		goto give_up;
	p = hmb_json_space(p + 1, end);
	if (p < end && *p == '}') {
		*stop = p + 1;
		return doc;
	}
	for (;;) {
		if (p == end || *p != '"' || !(name = value_at(p, end, 1, &next)))
			goto give_up;
		p = hmb_json_space(next, end);
		if (p == end || *p != ':')
			goto give_up;
		p = hmb_json_space(p + 1, end);
		if (!strcmp(name->valuestring, key) && p < end && *p == '[') {
			/* a second array of that name would be one cJSON ignores */
			if (streamed++ || !(p = stream_array(p, end, each, arg)))
				goto give_up;
			cJSON_AddItemToObject(doc, key, cJSON_CreateArray());
		} else {
			if (!(v = value_at(p, end, 1, &next)))
				goto give_up;
			cJSON_AddItemToObject(doc, name->valuestring, v);
			p = next;
		}
		cJSON_Delete(name);
		name = NULL;
		p = hmb_json_space(p, end);
		if (p < end && *p == ',') {
			p = hmb_json_space(p + 1, end);
			continue;
		}
		if (p < end && *p == '}') {
			*stop = p + 1;
			return doc;
		}
		goto give_up;
	}
give_up:
	cJSON_Delete(name);
	cJSON_Delete(doc);
	return NULL;
}
