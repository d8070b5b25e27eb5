/* options.c - module options: looked up by name, validated by type. */
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *hmb_opt_value(const struct hmb_options *o, const char *name)
{
	for (int i = o->nvalues - 1; i >= 0; i--)
		if (strcmp(o->value_name[i], name) == 0)
			return o->value[i];
	return NULL;
}

static int parse_int(const char *text, long *out)
{
	char *end;
	errno = 0;
	*out = strtol(text, &end, 10);
	return errno || end == text || *end ? -1 : 0;
}

int hmb_opt_validate(const struct hmb_opt_decl *d, const char *value, char *err, size_t errlen)
{
	size_t size;
	long n;
	char *end;

	switch (d->type) {
	case HMB_OPT_FLAG:
		return 0;
	case HMB_OPT_SIZE:
		return hmb_parse_size(value, &size, err, errlen);
	case HMB_OPT_SIZES: {
		struct hmb_sizes list;
		return hmb_parse_sizes(value, &list, err, errlen);
	}
	case HMB_OPT_INT:
		if (parse_int(value, &n) || n < 1 || n > 1000000000) {
			snprintf(err, errlen, "--%s: '%s' is not a whole number from 1 to 1e9",
				 d->name, value);
			return -1;
		}
		return 0;
	case HMB_OPT_INTS: {
		char buf[256], *tok, *save = NULL;
		snprintf(buf, sizeof(buf), "%s", value);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (parse_int(tok, &n) || n < 1 || n > 1000000) {
				snprintf(err, errlen, "--%s: '%s' is not a list of whole numbers from 1",
					 d->name, value);
				return -1;
			}
		if (!*value) {
			snprintf(err, errlen, "--%s: empty list", d->name);
			return -1;
		}
		return 0;
	}
	case HMB_OPT_DOUBLE:
		errno = 0;
		if (strtod(value, &end) <= 0 || errno || *end) {
			snprintf(err, errlen, "--%s: '%s' is not a positive number", d->name, value);
			return -1;
		}
		return 0;
	}
	return -1;
}
