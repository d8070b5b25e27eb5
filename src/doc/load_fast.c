/*
 * load_fast.c - a document's result read straight from its text, in one
 * pass, without building it with cJSON: a compare of two documents of
 * 300 000 results spends most of its time here. Only a result of the shape
 * hipmembench writes is read so (keys and the strings read without escapes,
 * parameters that are strings, numbers or booleans, metrics of a value and
 * a unit, a single run, no case renamed since, no key read given twice);
 * for anything else nothing is added and json_read.c parses the result with
 * cJSON, checks it and reads it (load_result there is the reference), so
 * that what compare reads and says stays the same.
 *
 * Every value is checked as json_stream.c checks it, so that a result read
 * here is one cJSON reads.
 */
#include "doc/load_fast.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc/json_stream.h"

#define MAX_READ 64 /* parameters or metrics of a result read here */

/* A string's text, between its quotes (no escapes). */
struct str {
	const char *p;
	size_t n;
};

/* A number read: its value; absent or null: none. */
struct num {
	double v;
	int has;
};

struct metric {
	struct str name, unit;
	struct num value;
	int has_unit;
};

struct param {
	struct str name;
	char type;         /* 's' string, 'n' number, 't' true, 'f' false */
	struct str text;   /* of a string */
	double v;          /* of a number */
};

/* What is read of a result; seen: the keys read so far, each once. */
struct result {
	unsigned seen;
	struct str module, kase, status;
	struct param param[MAX_READ];
	size_t nparams;
	struct metric metric[MAX_READ];
	size_t nmetrics;
	struct num gbps, us, median, hw;
	int has_stats, shared;
	struct str beside, host_shared; /* observed's who ran at once (n 0: none) */
	const struct str *coherence;
};

/* The string at p ('"') without escapes: its end, else NULL. */
static const char *plain_string(const char *p, const char *end, struct str *out)
{
	const char *q = hmb_json_plain_run(p + 1, end);

	if (q == end || *q != '"')
		return NULL;
	out->p = p + 1;
	out->n = (size_t)(q - p - 1);
	return q + 1;
}

static int is_n(struct str s, const char *text, size_t n)
{
	return s.n == n && !memcmp(s.p, text, n);
}

/* s is the text of a string literal */
#define is(s, literal) is_n((s), (literal), sizeof(literal) - 1)

/* s in buf, NUL-terminated, where it fits: buf, else NULL. */
static const char *cstr(struct str s, char *buf, size_t len)
{
	if (s.n >= len)
		return NULL;
	memcpy(buf, s.p, s.n);
	buf[s.n] = '\0';
	return buf;
}

/* The number at p (checked JSON, ending at q): whole ones of up to 15
 * digits exactly, without strtod; the rest as cJSON reads them. */
static double number_of(const char *p, const char *q)
{
	const char *d = p + (*p == '-');
	unsigned long long v = 0;
	char buf[72];

	if (q - d <= 15) {
		while (d < q && *d >= '0' && *d <= '9')
			v = v * 10 + (unsigned)(*d++ - '0');
		if (d == q)
			return *p == '-' ? -(double)v : (double)v;
	}
	memcpy(buf, p, (size_t)(q - p)); /* at most 63 characters: json_stream.c */
	buf[q - p] = '\0';
	return strtod(buf, NULL);
}

/* A number or null at *p: read into out, *p after it; -1 for anything else. */
static int number_or_null(const char **p, const char *end, int depth, struct num *out)
{
	const char *q = hmb_json_skip(*p, end, depth);

	if (!q)
		return -1;
	out->has = **p == '-' || (**p >= '0' && **p <= '9');
	if (!out->has && (q - *p != 4 || memcmp(*p, "null", 4)))
		return -1;
	if (out->has)
		out->v = number_of(*p, q);
	*p = q;
	return 0;
}

/* A member's key and value, for an object's reader: the key (plain), where
 * the value starts (*p, before end) and how deep it is. The reader takes the
 * value and moves *p after it, returning 1; or leaves it to be skipped,
 * returning 0; or gives up, returning -1. */
typedef int (*member_fn)(struct str key, const char **p, const char *end, int depth, void *ctx);

/* The object at p ('{'), its values at depth, each member to fn: where it
 * ends, or NULL. */
static const char *object(const char *p, const char *end, int depth, member_fn fn, void *ctx)
{
	struct str key;
	int took;

	if (p >= end || *p != '{')
		return NULL;
	p = hmb_json_space(p + 1, end);
	if (p < end && *p == '}')
		return p + 1;
	for (;;) {
		if (p >= end || *p != '"' || !(p = plain_string(p, end, &key)))
			return NULL;
		p = hmb_json_space(p, end);
		if (p >= end || *p != ':')
			return NULL;
		p = hmb_json_space(p + 1, end);
		if (p >= end) /* no value: every reader may look at its first byte */
			return NULL;
		if ((took = fn(key, &p, end, depth, ctx)) < 0 ||
		    (!took && !(p = hmb_json_skip(p, end, depth))))
			return NULL;
		p = hmb_json_space(p, end);
		if (p < end && *p == ',') {
			p = hmb_json_space(p + 1, end);
			continue;
		}
		return p < end && *p == '}' ? p + 1 : NULL;
	}
}

/* A value that is null, or an object read by fn: *p after it; -1 otherwise. */
static int null_or_object(const char **p, const char *end, int depth, member_fn fn, void *ctx)
{
	if (end - *p >= 4 && !memcmp(*p, "null", 4)) {
		*p += 4;
		return 0;
	}
	return (*p = object(*p, end, depth + 1, fn, ctx)) ? 0 : -1;
}

/* The first member of a name, once: 1 where key is it and it was not seen. */
static int first(struct str key, const char *name, int *seen)
{
	if (!is_n(key, name, strlen(name)) || *seen)
		return 0;
	*seen = 1;
	return 1;
}

struct one {
	const char *name;
	int seen;
	struct num num;     /* a number or null */
	struct str str;     /* or a string */
	int is_str;
};

/* stats_s.median, stability.half_width_rel, a metric's value: a number or
 * null (else given up); observed.gpu_shared_with: a string or anything. */
static int one_number(struct str key, const char **p, const char *end, int depth, void *ctx)
{
	struct one *o = ctx;
	return first(key, o->name, &o->seen) ? (number_or_null(p, end, depth, &o->num) ? -1 : 1) : 0;
}

static int one_string(struct str key, const char **p, const char *end, int depth, void *ctx)
{
	struct one *o = ctx;
	const char *q;

	(void)depth;
	if (!first(key, o->name, &o->seen) || **p != '"')
		return 0;
	if (!(q = plain_string(*p, end, &o->str)))
		return -1;
	o->is_str = 1;
	*p = q;
	return 1;
}

/* observed: gpu_shared_with (a string or anything), ran_beside_gpus and
 * host_link_shared_with_gpus (strings). */
struct observed {
	struct one shared, beside, host;
};

static int observed_member(struct str key, const char **p, const char *end, int depth,
			   void *ctx)
{
	struct observed *o = ctx;
	int took;

	if ((took = one_string(key, p, end, depth, &o->shared)) ||
	    (took = one_string(key, p, end, depth, &o->beside)))
		return took;
	return one_string(key, p, end, depth, &o->host);
}

/* stability.half_width_rel: whatever the type (json_read.c reads a number or none). */
static int any_number(struct str key, const char **p, const char *end, int depth, void *ctx)
{
	struct one *o = ctx;
	const char *q;

	if (!first(key, o->name, &o->seen))
		return 0;
	if (!(q = hmb_json_skip(*p, end, depth)))
		return -1;
	o->num.has = **p == '-' || (**p >= '0' && **p <= '9');
	if (o->num.has)
		o->num.v = number_of(*p, q);
	*p = q;
	return 1;
}

static int param(struct str key, const char **p, const char *end, int depth, void *ctx)
{
	struct result *r = ctx;
	struct param *x;
	const char *q;

	if (r->nparams == MAX_READ)
		return -1;
	x = &r->param[r->nparams++];
	x->name = key;
	if (**p == '"') {
		x->type = 's';
		q = plain_string(*p, end, &x->text);
	} else if (end - *p >= 4 && !memcmp(*p, "true", 4)) {
		x->type = 't';
		q = *p + 4;
	} else if (end - *p >= 5 && !memcmp(*p, "false", 5)) {
		x->type = 'f';
		q = *p + 5;
	} else if (**p == '-' || (**p >= '0' && **p <= '9')) {
		x->type = 'n';
		if ((q = hmb_json_skip(*p, end, depth)))
			x->v = number_of(*p, q);
	} else {
		return -1; /* null, an object or an array: cJSON prints it */
	}
	if (!q)
		return -1;
	if (is(key, "coherence") && !r->coherence && x->type == 's')
		r->coherence = &x->text;
	*p = q;
	return 1;
}

struct metric_parts {
	struct one value, unit;
};

/* A metric's value (a number or null) and unit (a string or null). */
static int metric_part(struct str key, const char **p, const char *end, int depth, void *ctx)
{
	struct metric_parts *m = ctx;

	if (is(key, "value"))
		return one_number(key, p, end, depth, &m->value);
	if (!first(key, "unit", &m->unit.seen))
		return 0;
	if (end - *p >= 4 && !memcmp(*p, "null", 4)) {
		*p += 4;
		return 1;
	}
	if (**p != '"' || !(*p = plain_string(*p, end, &m->unit.str)))
		return -1;
	m->unit.is_str = 1;
	return 1;
}

static int metric(struct str key, const char **p, const char *end, int depth, void *ctx)
{
	struct result *r = ctx;
	struct metric_parts parts = { { "value", 0, { 0, 0 }, { NULL, 0 }, 0 },
				      { "unit", 0, { 0, 0 }, { NULL, 0 }, 0 } };
	struct metric *m;

	if (r->nmetrics == MAX_READ || !(*p = object(*p, end, depth + 1, metric_part, &parts)))
		return -1;
	m = &r->metric[r->nmetrics++];
	m->name = key;
	m->value = parts.value.num;
	m->unit = parts.unit.str;
	m->has_unit = parts.unit.is_str;
	return 1;
}

enum { K_MODULE, K_CASE, K_STATUS, K_PARAMS, K_METRICS, K_STATS, K_GBPS, K_US, K_STABILITY,
       K_OBSERVED, K_RUNS, K_COUNT };
static const struct {
	const char *name;
	size_t len;
} keys[K_COUNT] = {
#define KEY(name) { name, sizeof(name) - 1 }
	KEY("module"), KEY("case"), KEY("status"), KEY("params"), KEY("metrics"),
	KEY("stats_s"), KEY("gbps_median"), KEY("us_per_op_median"), KEY("stability"),
	KEY("observed"), KEY("runs"),
#undef KEY
};

static int result_member(struct str key, const char **p, const char *end, int depth, void *ctx)
{
	struct result *r = ctx;
	struct one o = { NULL, 0, { 0, 0 }, { NULL, 0 }, 0 };
	int k;

	for (k = 0; k < K_COUNT && !is_n(key, keys[k].name, keys[k].len); k++)
		;
	if (k == K_COUNT)
		return 0;
	if (r->seen & 1u << k)
		return -1; /* given twice: cJSON's reading of it is json_read.c's */
	r->seen |= 1u << k;
	switch (k) {
	case K_MODULE:
	case K_CASE:
	case K_STATUS:
		if (**p != '"')
			return -1;
		return (*p = plain_string(*p, end, k == K_MODULE ? &r->module : k == K_CASE
										 ? &r->kase : &r->status))
			       ? 1 : -1;
	case K_PARAMS:
		return null_or_object(p, end, depth, param, r) ? -1 : 1;
	case K_METRICS:
		return null_or_object(p, end, depth, metric, r) ? -1 : 1;
	case K_STATS:
		o.name = "median";
		r->has_stats = **p == '{';
		if (null_or_object(p, end, depth, one_number, &o))
			return -1;
		r->median = o.num;
		return 1;
	case K_STABILITY:
		o.name = "half_width_rel";
		if (**p != '{')
			return 0; /* anything else: no interval */
		if (!(*p = object(*p, end, depth + 1, any_number, &o)))
			return -1;
		r->hw = o.num;
		return 1;
	case K_OBSERVED: {
		struct observed seen = { { .name = "gpu_shared_with" }, { .name = "ran_beside_gpus" },
					 { .name = "host_link_shared_with_gpus" } };
		if (**p != '{')
			return 0;
		if (!(*p = object(*p, end, depth + 1, observed_member, &seen)))
			return -1;
		r->shared = seen.shared.is_str && seen.shared.str.n > 0;
		if (seen.beside.is_str)
			r->beside = seen.beside.str;
		if (seen.host.is_str)
			r->host_shared = seen.host.str;
		return 1;
	}
	case K_GBPS:
		return number_or_null(p, end, depth, &r->gbps) ? -1 : 1;
	case K_US:
		return number_or_null(p, end, depth, &r->us) ? -1 : 1;
	default: /* runs: several of them are read by json_read.c */
		if (end - *p >= 4 && !memcmp(*p, "null", 4))
			return 0;
		return -1;
	}
}

/* What check_result refuses, and what json_read.c reads otherwise: -1. */
static int unusual(const struct result *r, char *status, size_t len)
{
	if (!(r->seen & 1u << K_STATUS) || !cstr(r->status, status, len))
		return -1;
	if (strcmp(status, "ok"))
		return 0;
	if (!(r->seen & 1u << K_MODULE) || !(r->seen & 1u << K_CASE) ||
	    (r->gbps.has && !isfinite(r->gbps.v)) || (r->us.has && !isfinite(r->us.v)) ||
	    (r->median.has && !isfinite(r->median.v)))
		return -1;
	for (size_t i = 0; i < r->nmetrics; i++)
		if (r->metric[i].value.has && !isfinite(r->metric[i].value.v))
			return -1;
	return 0;
}

/* What is read into l. */
static void add(struct hmb_loaded *l, const struct result *r, const char *module,
		const char *kase)
{
	struct hmb_result *res = hmb_loaded_add_result(l, module, kase);
	char name[256], text[512];
	int device = -1, gpu = -1, seen_device = 0, seen_gpu = 0;

	res->p = hmb_loaded_params(l, r->nparams);
	for (size_t i = 0; i < r->nparams; i++) {
		const struct param *x = &r->param[i];
		struct hmb_param *p = &res->p[res->np++];
		cstr(x->name, name, sizeof(name));
		if (x->type == 'n') {
			hmb_loaded_param_number(l, p, name, x->v);
			/* the GPU a per-GPU result ran on: `device` where --devices
			 * gave several, node's `gpu`; the first of each name */
			if (x->v >= 0 && x->v <= 1000000 && x->v == floor(x->v)) {
				if (!strcmp(name, "device") && !seen_device)
					device = (int)x->v;
				if (!strcmp(name, "gpu") && !seen_gpu)
					gpu = (int)x->v;
			}
		} else if (x->type == 's') {
			hmb_loaded_param_text(l, p, name, cstr(x->text, text, sizeof(text)), 1);
		} else {
			hmb_loaded_param_bool(l, p, name, x->type == 't');
		}
		seen_device |= !strcmp(name, "device");
		seen_gpu |= !strcmp(name, "gpu");
	}
	res->gpu = device >= 0 ? device : strcmp(module, "node") ? -1 : gpu;
	if (r->hw.has && r->hw.v >= 0)
		res->half_width_rel = r->hw.v;
	res->gpu_shared = r->shared;
	if (r->beside.n)
		res->beside = hmb_loaded_raw(l, cstr(r->beside, text, sizeof(text)));
	if (r->host_shared.n)
		res->host_shared = hmb_loaded_raw(l, cstr(r->host_shared, text, sizeof(text)));
	if (r->gbps.has && r->gbps.v > 0)
		hmb_loaded_add_figure(l, "GB/s", "GB/s", r->gbps.v);
	else if (r->us.has && r->us.v > 0)
		hmb_loaded_add_figure(l, "us/op", "us", r->us.v);
	else if (r->has_stats && r->median.has && r->median.v >= 0)
		hmb_loaded_add_figure(l, "median", "s", r->median.v);
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct metric *m = &r->metric[i];
		char unit[64];
		if (m->value.has)
			hmb_loaded_add_figure(l, cstr(m->name, name, sizeof(name)),
					      m->has_unit ? cstr(m->unit, unit, sizeof(unit)) : "?",
					      m->value.v);
	}
}

const char *hmb_load_fast(struct hmb_loaded *l, const char *p, const char *end)
{
	struct result r;
	char status[64], module[256], kase[256], coherence[512], now[256];
	const char *kind;

	memset(&r, 0, sizeof(r));
	if (!(p = object(p, end, 3, result_member, &r)) || unusual(&r, status, sizeof(status)))
		return NULL;
	if (strcmp(status, "ok"))
		return p;
	if (!cstr(r.module, module, sizeof(module)) || !cstr(r.kase, kase, sizeof(kase)))
		return NULL;
	for (size_t i = 0; i < r.nparams; i++)
		if (r.param[i].name.n >= 256 || (r.param[i].type == 's' && r.param[i].text.n >= 512))
			return NULL;
	for (size_t i = 0; i < r.nmetrics; i++)
		if (r.metric[i].name.n >= 256 || r.metric[i].unit.n >= 64)
			return NULL;
	if (r.beside.n >= 512 || r.host_shared.n >= 512)
		return NULL;
	/* a case renamed since: json_read.c reads it under its new name */
	hmb_loaded_current_name(module, kase,
				r.coherence ? cstr(*r.coherence, coherence, sizeof(coherence)) : "?",
				now, sizeof(now), &kind);
	if (kind)
		return NULL;
	add(l, &r, module, kase);
	return p;
}
