/* options.c - module options: looked up by name, validated by type and limits. */
#include "engine/options.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"

const char *hmb_opt_value(const struct hmb_options *o, const char *name)
{
	for (int i = o->nvalues - 1; i >= 0; i--)
		if (strcmp(o->value_name[i], name) == 0)
			return o->value[i];
	return NULL;
}

int hmb_opt_set(struct hmb_options *o, const char *name, const char *value)
{
	for (int i = 0; i < o->nvalues; i++)
		if (strcmp(o->value_name[i], name) == 0) {
			o->value[i] = value;
			return 0;
		}
	if (o->nvalues == HMB_MAX_MODULE_OPTS)
		return -1;
	o->value_name[o->nvalues] = name;
	o->value[o->nvalues++] = value;
	return 0;
}

int hmb_parse_long(const char *text, long *out)
{
	const char *p = text + (text[0] == '-');
	char *end;

	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	*out = strtol(text, &end, 10);
	return errno || *end ? -1 : 0;
}

int hmb_parse_double(const char *text, double *out)
{
	char *end;

	const char *p = text + (text[0] == '-');

	/* decimal only: no blanks, hex, "inf" or "nan"; a sign is the caller's
	 * range to refuse ("-0" is 0), and a number too small for a double
	 * (1e-320) its nearest value: only overflow is refused here */
	if (!((*p >= '0' && *p <= '9') || *p == '.') ||
	    strspn(text, "0123456789.eE+-") != strlen(text))
		return -1;
	*out = strtod(text, &end);
	return *end || !isfinite(*out) ? -1 : 0;
}

int hmb_parse_long_list(const char *opt, const char *text, long min, long max, long *vals,
			int maxvals, char *err, size_t errlen)
{
	const char *p = text;
	int n = 0;

	if (!*text) {
		snprintf(err, errlen, "--%s: empty list", opt);
		return -1;
	}
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char item[32];
		long v;

		if (len == 0) {
			snprintf(err, errlen, "--%s: '%s' has an empty item", opt, hmb_shown(text));
			return -1;
		}
		if (len >= sizeof(item)) {
			snprintf(err, errlen, "--%s: '%s': an item is too long for a whole number", opt,
				 hmb_shown(text));
			return -1;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (hmb_parse_long(item, &v) || v < min || v > max) {
			snprintf(err, errlen, "--%s: '%s' is not a whole number from %ld to %ld", opt,
				 hmb_shown(item), min, max);
			return -1;
		}
		if (n == maxvals) {
			snprintf(err, errlen, "--%s: '%s' has more than %d values", opt,
				 hmb_shown(text), maxvals);
			return -1;
		}
		vals[n++] = v;
		if (!comma)
			return n;
		p = comma + 1;
	}
}

/* The range of an INT or INTS option. */
static void int_range(const struct hmb_opt_decl *d, long *min, long *max)
{
	if (d->min == 0 && d->max == 0) {
		*min = 1;
		*max = 1000000000;
	} else {
		*min = d->min;
		*max = d->max;
	}
}

static int size_limit(const struct hmb_opt_decl *d, size_t v, char *err, size_t errlen)
{
	char a[32], b[32];

	if (d->max > 0 && v > (size_t)d->max) {
		snprintf(err, errlen, "--%s: %s is above the limit of %s", d->name,
			 hmb_format_size(v, a, sizeof(a)), hmb_format_size((size_t)d->max, b, sizeof(b)));
		return -1;
	}
	return 0;
}

int hmb_opt_validate(const struct hmb_opt_decl *d, const char *value, char *err, size_t errlen)
{
	char why[256];
	long min, max, n;
	double x;

	switch (d->type) {
	case HMB_OPT_FLAG:
		return 0;
	case HMB_OPT_SIZE: {
		size_t size;
		if (hmb_parse_size(value, &size, why, sizeof(why)) != 0) {
			snprintf(err, errlen, "--%s: %s", d->name, why);
			return -1;
		}
		return size_limit(d, size, err, errlen);
	}
	case HMB_OPT_SIZES: {
		struct hmb_sizes list;
		if (hmb_parse_sizes(value, &list, why, sizeof(why)) != 0) {
			snprintf(err, errlen, "--%s: %s", d->name, why);
			return -1;
		}
		return size_limit(d, hmb_sizes_max(&list), err, errlen);
	}
	case HMB_OPT_INT:
		int_range(d, &min, &max);
		if (hmb_parse_long(value, &n) || n < min || n > max) {
			snprintf(err, errlen, "--%s: '%s' is not a whole number from %ld to %ld", d->name,
				 hmb_shown(value), min, max);
			return -1;
		}
		return 0;
	case HMB_OPT_INTS: {
		long vals[64];
		int maxvals = d->max_values > 0 && d->max_values <= 64 ? d->max_values
									: HMB_OPT_MAX_VALUES;
		int_range(d, &min, &max);
		return hmb_parse_long_list(d->name, value, min, max, vals, maxvals, err, errlen) < 0
			       ? -1 : 0;
	}
	case HMB_OPT_DOUBLE:
		if (hmb_parse_double(value, &x) || !(x > 0)) {
			snprintf(err, errlen, "--%s: '%s' is not a number above 0", d->name,
				 hmb_shown(value));
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "--%s: unknown option type", d->name);
	return -1;
}

static const char *const together_names[HMB_TOGETHER_MODES] = { "all", "host", "none" };

const char *hmb_together_name(enum hmb_together mode)
{
	return (unsigned)mode < HMB_TOGETHER_MODES ? together_names[mode] : "?";
}

int hmb_together_parse(const char *word)
{
	for (int i = 0; i < HMB_TOGETHER_MODES; i++)
		if (strcmp(word, together_names[i]) == 0)
			return i;
	return -1;
}
