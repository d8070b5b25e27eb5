/* cli.c - reading the command line into options; every check that needs no GPU. */
#include "cli/cli.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/module.h"
#include "util/text.h"
#include "util/util.h"

const char *const hmb_builtin_commands[] = { "list", "info", "all", "help", "compare", "show",
					      "summary", NULL };

static const struct global {
	const char *name;
	char short_name;
	int takes_value;
} globals[HMB_G_COUNT] = {
	[HMB_G_DEVICE] = { "device", 'd', 1 },
	[HMB_G_OUTPUT] = { "output", 'o', 1 },
	[HMB_G_FORMAT] = { "format", 'f', 1 },
	[HMB_G_SIZES] = { "sizes", 's', 1 },
	[HMB_G_REPS] = { "reps", 'r', 1 },
	[HMB_G_WARMUP] = { "warmup", 'w', 1 },
	[HMB_G_QUICK] = { "quick", 'q', 0 },
	[HMB_G_DRY_RUN] = { "dry-run", 'n', 0 },
	[HMB_G_OVERSUBSCRIBE] = { "oversubscribe", 0, 1 },
	[HMB_G_THRESHOLD] = { "threshold", 0, 1 },
	[HMB_G_HELP] = { "help", 'h', 0 },
	[HMB_G_VERSION] = { "version", 'V', 0 },
	[HMB_G_CASE] = { "case", 'c', 1 },
	[HMB_G_CASES] = { "cases", 0, 0 },
	[HMB_G_DEVICES] = { "devices", 0, 1 },
	[HMB_G_NO_ISOLATION] = { "no-isolation", 0, 0 },
	[HMB_G_PEAK_GBPS] = { "peak-gbps", 0, 1 },
	[HMB_G_GPU] = { "gpu", 0, 1 },
	[HMB_G_ALLOW_PARTIAL] = { "allow-partial", 0, 0 },
	[HMB_G_WIDE] = { "wide", 0, 0 },
	[HMB_G_RUNS] = { "runs", 0, 1 },
};

/* A module of `all` in a process of its own (isolate.c) is told where its
 * document goes by HMB_CHILD_OUTPUT=PID:FILE, PID its parent's: not an option
 * a user can give, and taken only from the process that started this one. */
static const char *child_output(void)
{
	const char *v = getenv(HMB_CHILD_OUTPUT_ENV), *colon;
	long pid;

	if (!v || !(colon = strchr(v, ':')) || !colon[1])
		return NULL;
	pid = strtol(v, NULL, 10);
	return pid > 0 && pid == (long)getppid() ? colon + 1 : NULL;
}

int hmb_parse_device_list(const char *text, int *out, int max)
{
	return hmb_device_list_why(text, out, max, NULL, 0);
}

int hmb_device_list_why(const char *text, int *out, int max, char *why, size_t whylen)
{
	int n = 0;
	const char *q = text;
	char dummy[8];

	if (!why) {
		why = dummy;
		whylen = sizeof(dummy);
	}
	snprintf(why, whylen, "must be 'all' or a list of GPU ordinals such as 0,1,3");
	while (*q) {
		char *end;
		long v;
		if (*q < '0' || *q > '9')
			return -1;
		errno = 0;
		v = strtol(q, &end, 10);
		if (errno || v > 1023) {
			snprintf(why, whylen, "GPU ordinals go from 0 to 1023");
			return -1;
		}
		if (*end && *end != ',')
			return -1;
		if (n == max) {
			snprintf(why, whylen, "at most %d GPUs", max);
			return -1;
		}
		for (int i = 0; i < n; i++)
			if (out[i] == v) {
				snprintf(why, whylen, "GPU %ld is named twice", v);
				return -1;
			}
		out[n++] = (int)v;
		q = *end ? end + 1 : end;
		if (*end && !*q)
			return -1;
	}
	return n ? n : -1;
}

/* The options of compare alone. */
#define COMPARE_ONLY ((1u << HMB_G_THRESHOLD) | (1u << HMB_G_GPU) | (1u << HMB_G_ALLOW_PARTIAL))

/* One long option: a global (id >= 0) or a module's (decl). */
struct longopt {
	const char *name;
	int id;
	const struct hmb_opt_decl *decl;
	const struct hmb_bench *owner;
};

struct parser {
	struct hmb_cli *cli;
	const struct hmb_bench *const *benches;
	struct longopt *opts;
	size_t nopts;
	char *seen;                     /* seen[k]: opts[k] was given */
	char *err;
	size_t errlen;
};

static int usage(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int usage(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
	hmb_utf8_trim(p->err);
	return 2;
}

/* Globals first, then each module option once (the first module that has it). */
static void build_table(struct parser *p)
{
	size_t n = HMB_G_COUNT;

	for (int i = 0; p->benches[i]; i++)
		for (const struct hmb_opt_decl *d = p->benches[i]->options; d && d->name; d++)
			n++;
	p->opts = hmb_xcalloc(n, sizeof(*p->opts));
	p->seen = hmb_xcalloc(n, 1);
	for (int g = 0; g < HMB_G_COUNT; g++)
		p->opts[p->nopts++] = (struct longopt){ globals[g].name, g, NULL, NULL };
	for (int i = 0; p->benches[i]; i++)
		for (const struct hmb_opt_decl *d = p->benches[i]->options; d && d->name; d++) {
			int seen = 0;
			for (size_t k = 0; k < p->nopts; k++)
				seen |= strcmp(p->opts[k].name, d->name) == 0;
			if (!seen)
				p->opts[p->nopts++] = (struct longopt){ d->name, -1, d, p->benches[i] };
		}
}

/* The option that name[0..len) names: exactly, or as the prefix of one. */
static int find_long(struct parser *p, const char *name, size_t len, const struct longopt **out)
{
	const struct longopt *match = NULL;
	char typed[64], list[512];
	size_t nmatch = 0, used = 0;

	for (size_t k = 0; k < p->nopts; k++)
		if (strlen(p->opts[k].name) == len && strncmp(p->opts[k].name, name, len) == 0) {
			*out = &p->opts[k];
			return 0;
		}
	for (size_t k = 0; k < p->nopts; k++)
		if (len && strncmp(p->opts[k].name, name, len) == 0) {
			match = &p->opts[k];
			nmatch++;
			used += (size_t)snprintf(list + used, used < sizeof(list) ? sizeof(list) - used : 0,
						 "%s--%s", used ? ", " : "", match->name);
			if (used >= sizeof(list))
				used = sizeof(list) - 1;
		}
	snprintf(typed, sizeof(typed), "%.*s", (int)(len < 60 ? len : 60), name);
	if (nmatch == 0)
		return usage(p, "unknown option '--%s%s'", hmb_shown(typed), len > 60 ? "..." : "");
	if (nmatch > 1)
		return usage(p, "option '--%s' is ambiguous: it could be %s", hmb_shown(typed), list);
	*out = match;
	return 0;
}

static int parse_whole(struct parser *p, const char *opt, const char *text, long min, long max,
		       int *out)
{
	long v;
	if (hmb_parse_long(text, &v) || v < min || v > max)
		return usage(p, "--%s: '%s' must be a whole number from %ld to %ld", opt,
			     hmb_shown(text), min, max);
	*out = (int)v;
	return 0;
}

static int set_format(struct parser *p, const char *v)
{
	static const struct { const char *name; enum hmb_format f; } names[] = {
		{ "table", HMB_FORMAT_TABLE }, { "json", HMB_FORMAT_JSON }, { "csv", HMB_FORMAT_CSV },
		{ "markdown", HMB_FORMAT_MARKDOWN }, { "html", HMB_FORMAT_HTML },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(v, names[i].name) == 0) {
			p->cli->opt.format = names[i].f;
			return 0;
		}
	return usage(p, "--format: unknown format '%s': use table, json, csv, markdown or html",
		     hmb_shown(v));
}

static int set_sizes(struct parser *p, const char *v)
{
	struct hmb_sizes *s = &p->cli->opt.sizes;
	char why[256];

	if (hmb_parse_sizes(v, s, why, sizeof(why)) != 0)
		return usage(p, "--sizes: %s", why);
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] % 4)
			return usage(p, "--sizes: %s is not a multiple of 4 bytes (data is verified "
				     "as 32-bit words)", hmb_format_size(s->v[i], why, sizeof(why)));
	return 0;
}

static int set_global(struct parser *p, int id, const char *v)
{
	struct hmb_options *o = &p->cli->opt;
	double x;

	p->cli->given |= 1u << id;
	switch (id) {
	case HMB_G_DEVICE: return parse_whole(p, "device", v, 0, 1000000, &o->device);
	case HMB_G_OUTPUT:
		/* `-o --dry-run memcpy`: an option taken for a file name */
		if (v[0] == '-' && v[1])
			return usage(p, "--output: '%s' looks like an option, not a file name (for a "
				     "file of that name, give ./%s)", hmb_shown(v), hmb_shown(v));
		o->output = v;
		return 0;
	case HMB_G_FORMAT: return set_format(p, v);
	case HMB_G_SIZES: return set_sizes(p, v);
	case HMB_G_REPS: return parse_whole(p, "reps", v, 1, 1000000, &o->reps);
	case HMB_G_WARMUP: return parse_whole(p, "warmup", v, 0, 1000000, &o->warmup);
	case HMB_G_QUICK: o->quick = 1; return 0;
	case HMB_G_DRY_RUN: o->dry_run = 1; return 0;
	case HMB_G_OVERSUBSCRIBE:
		if (hmb_parse_double(v, &x) || !(x > 0) || x > 64)
			return usage(p, "--oversubscribe: '%s' must be a factor above 0 and at most 64",
				     hmb_shown(v));
		o->oversubscribe = x;
		return 0;
	case HMB_G_THRESHOLD:
		if (hmb_parse_double(v, &x) || !(x >= 0) || x > 1000)
			return usage(p, "--threshold: '%s' must be a percentage from 0 to 1000",
				     hmb_shown(v));
		o->threshold = x == 0 ? 0 : x; /* "-0" is 0 */
		return 0;
	case HMB_G_HELP: p->cli->help = 1; return 0;
	case HMB_G_VERSION: p->cli->version = 1; return 0;
	case HMB_G_CASE: /* repeatable: every pattern counts */
		if (!*v)
			return usage(p, "--case: empty pattern");
		if (v[0] == '-')
			return usage(p, "--case: '%s' looks like an option, not a case pattern",
				     hmb_shown(v));
		if (o->ncases == (int)(sizeof(o->cases) / sizeof(o->cases[0])))
			return usage(p, "--case: at most %d patterns",
				     (int)(sizeof(o->cases) / sizeof(o->cases[0])));
		o->cases[o->ncases++] = v;
		return 0;
	case HMB_G_CASES: p->cli->list_cases = 1; return 0;
	case HMB_G_DEVICES: {
		int list[64];
		char why[128], shown[64];
		if (strcmp(v, "all") != 0 && hmb_device_list_why(v, list, 64, why, sizeof(why)) < 0) {
			snprintf(shown, 41, "%s", v);
			hmb_utf8_trim(shown);
			if (strlen(v) > 40)
				strcat(shown, "...");
			return usage(p, "--devices: '%s': %s", hmb_shown(shown), why);
		}
		o->devices = v;
		return 0;
	}
	case HMB_G_NO_ISOLATION: o->no_isolation = 1; return 0;
	case HMB_G_PEAK_GBPS:
		if (hmb_parse_double(v, &x) || !(x > 0) || x > 100000)
			return usage(p, "--peak-gbps: '%s' must be a bandwidth in GB/s above 0 and "
				     "at most 100000", hmb_shown(v));
		o->peak_gbps = x;
		return 0;
	case HMB_G_GPU: return parse_whole(p, "gpu", v, 0, 1023, &o->compare_gpu);
	case HMB_G_ALLOW_PARTIAL: o->allow_partial = 1; return 0;
	case HMB_G_WIDE: o->wide = 1; return 0;
	case HMB_G_RUNS: return parse_whole(p, "runs", v, 1, HMB_RUNS_MAX, &o->runs);
	}
	return usage(p, "internal: unknown option id %d", id);
}

static int set_option(struct parser *p, const struct longopt *lo, const char *v)
{
	char why[512];

	if (lo->id >= 0)
		return set_global(p, lo->id, v);
	if (hmb_opt_validate(lo->decl, v ? v : "", why, sizeof(why)) != 0)
		return usage(p, "%s", why);
	p->seen[lo - p->opts] = 1;
	if (hmb_opt_set(&p->cli->opt, lo->name, v ? v : "") != 0)
		return usage(p, "too many module options");
	return 0;
}

static int takes_value(const struct longopt *lo)
{
	return lo->id >= 0 ? globals[lo->id].takes_value : lo->decl->type != HMB_OPT_FLAG;
}

/* "--name", "--name=value" or "--name value"; *i moves past a value taken. */
static int long_option(struct parser *p, int argc, char **argv, int *i)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct longopt *lo = NULL;
	int rc = find_long(p, name, len, &lo);

	if (rc)
		return rc;
	if (!takes_value(lo)) {
		if (eq)
			return usage(p, "--%s takes no value (given '%s')", lo->name, hmb_shown(eq + 1));
		return set_option(p, lo, NULL);
	}
	if (eq)
		return set_option(p, lo, eq + 1);
	if (*i + 1 >= argc)
		return usage(p, "--%s needs a value", lo->name);
	return set_option(p, lo, argv[++*i]);
}

/* "-q", "-qn", "-s4K", "-s 4K". */
static int short_options(struct parser *p, int argc, char **argv, int *i)
{
	for (const char *c = argv[*i] + 1; *c; c++) {
		int id = -1;
		for (int g = 0; g < HMB_G_COUNT; g++)
			if (globals[g].short_name && globals[g].short_name == *c)
				id = g;
		if (id < 0) {
			char typed[8];
			size_t n = hmb_utf8_seq((const unsigned char *)c, strlen(c));
			snprintf(typed, sizeof(typed), "%.*s", (int)(n ? n : 1), c);
			return usage(p, "unknown option '-%s'", hmb_shown(typed));
		}
		if (!globals[id].takes_value) {
			int rc = set_global(p, id, NULL);
			if (rc)
				return rc;
			continue;
		}
		if (c[1])
			return set_global(p, id, c + 1);
		if (*i + 1 >= argc)
			return usage(p, "-%c (--%s) needs a value", *c, globals[id].name);
		return set_global(p, id, argv[++*i]);
	}
	return 0;
}

static const char *const command_names[] = {
	[HMB_CMD_HELP] = "help", [HMB_CMD_LIST] = "list", [HMB_CMD_COMPARE] = "compare",
	[HMB_CMD_SHOW] = "show", [HMB_CMD_SUMMARY] = "summary", [HMB_CMD_INFO] = "info",
	[HMB_CMD_ALL] = "all",
};

static const struct hmb_bench *find_bench(const struct hmb_bench *const *benches, const char *name)
{
	for (int i = 0; benches[i]; i++)
		if (strcmp(benches[i]->name, name) == 0)
			return benches[i];
	return NULL;
}

/* A command or module by name: 0, or 2 when there is none. */
static int command_kind(struct parser *p, const char *name, enum hmb_command *kind,
			const struct hmb_bench **bench)
{
	for (int k = HMB_CMD_HELP; k <= HMB_CMD_ALL; k++)
		if (strcmp(name, command_names[k]) == 0) {
			*kind = (enum hmb_command)k;
			return 0;
		}
	if ((*bench = find_bench(p->benches, name))) {
		*kind = HMB_CMD_MODULE;
		return 0;
	}
	return 2;
}

/* Options that do not go with this command: 0, or 2 naming the first. */
static int refuse_options(struct parser *p, unsigned allowed, int modules_allowed,
			  const char *command)
{
	unsigned extra = p->cli->given & ~allowed & ~(1u << HMB_G_HELP);

	for (int g = 0; g < HMB_G_COUNT; g++)
		if (extra & (1u << g))
			return usage(p, "--%s does not go with %s", globals[g].name, command);
	if (modules_allowed)
		return 0;
	for (size_t k = HMB_G_COUNT; k < p->nopts; k++)
		if (p->seen[k])
			return usage(p, "--%s does not go with %s (it is an option of the %s module)",
				     p->opts[k].name, command, p->opts[k].owner->name);
	return 0;
}

static int check_help(struct parser *p)
{
	struct hmb_cli *c = p->cli;
	enum hmb_command kind;
	const struct hmb_bench *b;
	int rc = refuse_options(p, 0, 0, "help");

	if (rc)
		return rc;
	if (c->nargs > 1)
		return usage(p, "help takes one command; unexpected argument '%s'",
			     hmb_shown(c->args[1]));
	if (c->nargs == 1 && command_kind(p, c->args[0], &kind, &b) != 0)
		return usage(p, "help: unknown command '%s'", hmb_shown(c->args[0]));
	c->help = 1;
	c->help_topic = c->nargs ? c->args[0] : NULL;
	return 0;
}

/* Edit distance of a and b (each cut at 63 bytes). */
static int distance(const char *a, const char *b)
{
	int row[64], la = (int)strlen(a), lb = (int)strlen(b);

	la = la > 63 ? 63 : la;
	lb = lb > 63 ? 63 : lb;
	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = i;
		for (int j = 1; j <= lb; j++) {
			int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* Does a module run (the command's, or each of all's) have these cases? */
static int case_candidate(const struct hmb_cli *c, const struct hmb_bench *b)
{
	return b->cases && (c->kind == HMB_CMD_ALL || b == c->bench);
}

/* Every --case pattern matches a case of the module (of some module for
 * all): a typo is refused, naming the nearest cases. */
static int check_cases(struct parser *p)
{
	struct hmb_cli *c = p->cli;
	const struct hmb_options *o = &c->opt;

	for (int k = 0; k < o->ncases; k++) {
		const char *best[3] = { NULL, NULL, NULL };
		int dist[3] = { 0, 0, 0 }, known = 0, matched = 0;
		char near[256];
		size_t used = 0;

		for (int i = 0; p->benches[i] && !matched; i++) {
			const struct hmb_bench *b = p->benches[i];
			if (!case_candidate(c, b))
				continue;
			for (int j = 0; b->cases[j] && !matched; j++) {
				int d = distance(o->cases[k], b->cases[j]), at = 3;
				known = 1;
				matched = fnmatch(o->cases[k], b->cases[j], 0) == 0;
				while (at > 0 && (!best[at - 1] || d < dist[at - 1]))
					at--;
				if (at < 3) {
					for (int m = 2; m > at; m--) {
						best[m] = best[m - 1];
						dist[m] = dist[m - 1];
					}
					best[at] = b->cases[j];
					dist[at] = d;
				}
			}
		}
		if (matched || !known)
			continue;
		near[0] = '\0';
		for (int m = 0; m < 3 && best[m] && used < sizeof(near); m++)
			used += (size_t)snprintf(near + used, sizeof(near) - used, "%s%s",
						 m ? ", " : "", best[m]);
		return usage(p, "--case: '%s' matches no case of %s; nearest: %s (hipmembench list "
			     "--cases lists them all)", hmb_shown(o->cases[k]),
			     c->kind == HMB_CMD_ALL ? "any module" : c->bench->name, near);
	}
	return 0;
}

/* What a run's options ask that its modules would not do: refused. */
static int check_modules(struct parser *p)
{
	struct hmb_cli *c = p->cli;
	char why[512];

	if ((c->given & 1u << HMB_G_OVERSUBSCRIBE) && c->kind == HMB_CMD_MODULE &&
	    !c->bench->oversubscribe) {
		char list[128];
		size_t used = 0;
		list[0] = '\0';
		for (int i = 0; p->benches[i] && used < sizeof(list); i++)
			if (p->benches[i]->oversubscribe)
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
							 used ? ", " : "", p->benches[i]->name);
		return usage(p, "--oversubscribe does not go with %s, which allocates no managed "
			     "memory (it goes with %s%sall)", c->bench->name, list, used ? ", " : "");
	}
	for (int i = 0; p->benches[i]; i++) {
		const struct hmb_bench *b = p->benches[i];
		if (b->check && (c->kind == HMB_CMD_ALL || b == c->bench) &&
		    b->check(&c->opt, why, sizeof(why)) != 0)
			return usage(p, "%s", why);
	}
	return 0;
}

/* info, all and the modules: what reaches a run. */
static int check_run(struct parser *p)
{
	struct hmb_cli *c = p->cli;
	struct hmb_options *o = &c->opt;
	unsigned run_opts = ((1u << HMB_G_COUNT) - 1) & ~COMPARE_ONLY & ~(1u << HMB_G_CASES);
	unsigned info_opts = (1u << HMB_G_DEVICE) | (1u << HMB_G_OUTPUT) | (1u << HMB_G_FORMAT) |
			     (1u << HMB_G_DRY_RUN) | (1u << HMB_G_PEAK_GBPS);
	int rc;

	if (c->nargs)
		return usage(p, "unexpected argument '%s' after '%s'", hmb_shown(c->args[0]),
			     c->command);
	for (int g = 0; g < HMB_G_COUNT; g++)
		if (c->given & COMPARE_ONLY & 1u << g)
			return usage(p, "--%s goes with compare%s", globals[g].name,
				     g == HMB_G_GPU ? " and summary" : "");
	if (o->format == HMB_FORMAT_MARKDOWN || o->format == HMB_FORMAT_HTML)
		return usage(p, "--format %s goes with %s",
			     o->format == HMB_FORMAT_HTML ? "html" : "markdown",
			     o->format == HMB_FORMAT_HTML ? "summary" : "compare and summary");
	if (c->kind == HMB_CMD_INFO) {
		if ((rc = refuse_options(p, info_opts, 0, "info")))
			return rc;
		if (o->format == HMB_FORMAT_CSV)
			return usage(p, "--format csv does not go with info (it has no results): use "
				     "table or json");
	} else if ((rc = refuse_options(p, run_opts, 1, c->command))) {
		return rc;
	}
	if ((c->given & 1u << HMB_G_NO_ISOLATION) && c->kind != HMB_CMD_ALL)
		return usage(p, "--no-isolation goes with all");
	if ((c->given & 1u << HMB_G_DEVICES) && (c->given & 1u << HMB_G_DEVICE) &&
	    !o->child_output)
		return usage(p, "--devices and --device do not go together: --devices names every "
			     "GPU to run on");
	if ((c->given & 1u << HMB_G_DEVICES) && (c->given & 1u << HMB_G_NO_ISOLATION))
		return usage(p, "--devices runs each GPU in a process of its own: it does not go "
			     "with --no-isolation");
	if (o->runs > 1 && (c->given & 1u << HMB_G_NO_ISOLATION))
		return usage(p, "--runs runs each module in processes of its own: it does not go "
			     "with --no-isolation");
	if (o->child_output) {
		/* a module of `all` in its own process: the parent's command line,
		 * with the parent's choice of GPU, one run; checked there already */
		o->devices = NULL;
		o->runs = 1;
		return 0;
	}
	for (size_t k = HMB_G_COUNT; k < p->nopts; k++)
		if (p->seen[k] && c->kind == HMB_CMD_MODULE &&
		    p->opts[k].owner != c->bench)
			return usage(p, "--%s is an option of the %s module, not of %s",
				     p->opts[k].name, p->opts[k].owner->name, c->command);
	if (c->kind != HMB_CMD_INFO && ((rc = check_cases(p)) || (rc = check_modules(p))))
		return rc;
	if (o->output && strcmp(o->output, "-") == 0) {
		/* stdout carries the document: nothing else may go there */
		if ((c->given & 1u << HMB_G_FORMAT) && o->format != HMB_FORMAT_JSON)
			return usage(p, "--output - writes the JSON document to stdout: it cannot go "
				     "with --format %s", o->format == HMB_FORMAT_CSV ? "csv" : "table");
		o->format = HMB_FORMAT_JSON;
	}
	return 0;
}

/* summary DOC...: formats for people, a file for them, a GPU of several. */
static int check_summary(struct parser *p)
{
	struct hmb_cli *c = p->cli;
	int rc = refuse_options(p, (1u << HMB_G_FORMAT) | (1u << HMB_G_OUTPUT) | (1u << HMB_G_GPU),
				0, "summary");

	if (rc)
		return rc;
	if (c->opt.format == HMB_FORMAT_JSON || c->opt.format == HMB_FORMAT_CSV)
		return usage(p, "summary: --format %s is not a summary format: use table, markdown "
			     "or html", c->opt.format == HMB_FORMAT_JSON ? "json" : "csv");
	if (c->opt.output && strcmp(c->opt.output, "-") == 0)
		return usage(p, "summary: --output - is standard output, where the summary goes "
			     "without it");
	if (c->nargs < 1)
		return usage(p, "summary needs at least one document");
	for (int i = 0, stdin_seen = 0; i < c->nargs; i++)
		if (strcmp(c->args[i], "-") == 0 && stdin_seen++)
			return usage(p, "summary: '-' (standard input) can be given once");
	return 0;
}

static int check_command(struct parser *p)
{
	struct hmb_cli *c = p->cli;
	int rc;

	if (c->version)
		return 0;
	if (!c->command) {
		if (c->help)
			return 0;
		return usage(p, "no command given; usage: hipmembench [options] <command> "
			     "[module options]");
	}
	if (command_kind(p, c->command, &c->kind, &c->bench) != 0)
		return usage(p, "unknown command '%s'", hmb_shown(c->command));
	if (c->help && c->kind != HMB_CMD_HELP) {
		c->help_topic = c->command;
		return 0;
	}
	switch (c->kind) {
	case HMB_CMD_HELP:
		return check_help(p);
	case HMB_CMD_LIST:
		if (c->nargs)
			return usage(p, "unexpected argument '%s' after 'list'", hmb_shown(c->args[0]));
		return refuse_options(p, 1u << HMB_G_CASES, 0, "list");
	case HMB_CMD_COMPARE:
		if ((rc = refuse_options(p, (1u << HMB_G_FORMAT) | (1u << HMB_G_WIDE) | COMPARE_ONLY, 0,
					 "compare")))
			return rc;
		if (c->opt.format == HMB_FORMAT_JSON || c->opt.format == HMB_FORMAT_HTML)
			return usage(p, "compare: --format %s is not a comparison format: use table, "
				     "csv or markdown (summary -f html makes a report)",
				     c->opt.format == HMB_FORMAT_HTML ? "html" : "json");
		if (c->nargs < 2)
			return usage(p, "compare needs a base document and at least one other");
		for (int i = 0, stdin_seen = 0; i < c->nargs; i++)
			if (strcmp(c->args[i], "-") == 0 && stdin_seen++)
				return usage(p, "compare: '-' (standard input) can be given once");
		return 0;
	case HMB_CMD_SHOW:
		if ((rc = refuse_options(p, (1u << HMB_G_FORMAT) | (1u << HMB_G_WIDE), 0, "show")))
			return rc;
		if (c->opt.format != HMB_FORMAT_TABLE && c->opt.format != HMB_FORMAT_CSV)
			return usage(p, "show: --format %s: use table or csv",
				     c->opt.format == HMB_FORMAT_JSON ? "json" : "markdown");
		if (c->nargs != 1)
			return usage(p, c->nargs ? "show takes one document; unexpected argument '%s'"
					       : "show needs a document%s", c->nargs ?
				     hmb_shown(c->args[1]) : "");
		if (strcmp(c->args[0], "-") == 0)
			return usage(p, "show reads a document from a file; '-' (standard input) is "
				     "not one");
		return 0;
	case HMB_CMD_SUMMARY:
		return check_summary(p);
	default:
		return check_run(p);
	}
}

int hmb_cli_parse(int argc, char **argv, const struct hmb_bench *const *benches,
		  struct hmb_cli *out, char *err, size_t errlen)
{
	struct parser p = { out, benches, NULL, 0, NULL, err, errlen };
	int only_args = 0, rc = 0;

	memset(out, 0, sizeof(*out));
	out->opt.child_output = child_output();
	out->opt.child_table = !out->opt.child_output || !getenv(HMB_CHILD_TABLE_ENV) ||
			       strcmp(getenv(HMB_CHILD_TABLE_ENV), "0") != 0;
	out->opt.runs = 1;
	out->opt.warmup = -1;
	out->opt.threshold = -1;
	out->opt.compare_gpu = -1;
	out->opt.argc = argc;
	out->opt.argv = argv;
	out->args = hmb_xcalloc((size_t)(argc > 0 ? argc : 1), sizeof(*out->args));
	err[0] = '\0';
	build_table(&p);
	for (int i = 1; i < argc && !rc; i++) {
		const char *a = argv[i];
		if (only_args || a[0] != '-' || a[1] == '\0') {
			if (!out->command) {
				out->command = argv[i];
				out->command_index = i;
			} else
				out->args[out->nargs++] = argv[i];
		} else if (strcmp(a, "--") == 0) {
			only_args = 1;
		} else if (a[1] == '-') {
			rc = long_option(&p, argc, argv, &i);
		} else {
			rc = short_options(&p, argc, argv, &i);
		}
	}
	if (!rc)
		rc = check_command(&p);
	free(p.opts);
	free(p.seen);
	return rc;
}

void hmb_cli_free(struct hmb_cli *cli)
{
	free(cli->args);
	cli->args = NULL;
	cli->nargs = 0;
}
