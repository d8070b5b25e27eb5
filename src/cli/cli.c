/* cli.c - reading the command line into options; every check that needs no GPU. */
#include "cli/cli.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/documents.h"
#include "engine/module.h"
#include "util/nearest.h"
#include "util/text.h"
#include "util/util.h"

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

/* How many runs such a module is one of (HMB_CHILD_RUNS_ENV): 1 unless its
 * parent said 2 to HMB_RUNS_MAX. */
static int child_run_share(const char *child)
{
	const char *v = child ? getenv(HMB_CHILD_RUNS_ENV) : NULL;
	long n;

	return v && hmb_parse_long(v, &n) == 0 && n >= 1 && n <= HMB_RUNS_MAX ? (int)n : 1;
}

/* hmb_parse_device_list, with what is wrong in why (a GPU named twice, too many). */
static int device_list_why(const char *text, int *out, int max, char *why, size_t whylen)
{
	int n = 0;
	const char *q = text;

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

int hmb_parse_device_list(const char *text, int *out, int max)
{
	char why[96]; /* unread, but room for every reason (-O3 inlines and checks it) */

	return device_list_why(text, out, max, why, sizeof(why));
}

/* One long option: a global (id >= 0) or a module's (decl). */
struct longopt {
	const char *name;
	int id;
	const struct hmb_opt_decl *decl;
	const struct hmb_bench *owner;
};

struct hmb_parser {
	struct hmb_cli *cli;
	const struct hmb_bench *const *benches;
	struct longopt *opts;
	size_t nopts;
	char *seen;                     /* seen[k]: module option opts[k] was given */
	char *taken;                    /* taken[k]: opts[k] was given, first as first[k] */
	const char **first;
	char *err;
	size_t errlen;
};

static int usage(struct hmb_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int usage(struct hmb_parser *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
	hmb_utf8_trim(p->err);
	return 2;
}

/* Globals first, then each module option once (the first module that has it). */
static void build_table(struct hmb_parser *p)
{
	size_t n = HMB_G_COUNT;

	for (int i = 0; p->benches[i]; i++)
		for (const struct hmb_opt_decl *d = p->benches[i]->options; d && d->name; d++)
			n++;
	p->opts = hmb_xcalloc(n, sizeof(*p->opts));
	p->seen = hmb_xcalloc(n, 1);
	p->taken = hmb_xcalloc(n, 1);
	p->first = hmb_xcalloc(n, sizeof(*p->first));
	for (int g = 0; g < HMB_G_COUNT; g++)
		p->opts[p->nopts++] = (struct longopt){ hmb_global_options[g].name, g, NULL, NULL };
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
static int find_long(struct hmb_parser *p, const char *name, size_t len, const struct longopt **out)
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
	if (nmatch == 0) {
		struct hmb_nearest near;
		hmb_nearest_start(&near, typed);
		for (size_t k = 0; k < p->nopts; k++)
			hmb_nearest_offer(&near, p->opts[k].name);
		return usage(p, "unknown option '--%s%s'; nearest: %s", hmb_shown(typed),
			     len > 60 ? "..." : "", hmb_nearest_text(&near, "--", list, sizeof(list)));
	}
	if (nmatch > 1)
		return usage(p, "option '--%s' is ambiguous: it could be %s", hmb_shown(typed), list);
	*out = match;
	return 0;
}

const char *const hmb_format_names[] = {
	[HMB_FORMAT_TABLE] = "table", [HMB_FORMAT_JSON] = "json", [HMB_FORMAT_CSV] = "csv",
	[HMB_FORMAT_MARKDOWN] = "markdown", [HMB_FORMAT_NONE] = NULL, [HMB_FORMAT_HTML] = "html",
};

static int set_format(struct hmb_parser *p, const char *v)
{
	for (size_t f = 0; f <= HMB_FORMAT_HTML; f++)
		if (hmb_format_names[f] && strcmp(v, hmb_format_names[f]) == 0) {
			p->cli->opt.format = (enum hmb_format)f;
			return 0;
		}
	return usage(p, "--format: unknown format '%s': use table, json, csv, markdown or html",
		     hmb_shown(v));
}

static int set_output(struct hmb_parser *p, const char *v)
{
	/* `-o --dry-run memcpy`: an option taken for a file name */
	if (v[0] == '-' && v[1])
		return usage(p, "--output: '%s' looks like an option, not a file name (for a "
			     "file of that name, give ./%s)", hmb_shown(v), hmb_shown(v));
	p->cli->opt.output = v;
	return 0;
}

static int set_sizes(struct hmb_parser *p, const char *v)
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

/* Repeatable: every pattern counts. */
static int set_case(struct hmb_parser *p, const char *v)
{
	struct hmb_options *o = &p->cli->opt;

	if (!*v)
		return usage(p, "--case: empty pattern");
	if (v[0] == '-')
		return usage(p, "--case: '%s' looks like an option, not a case pattern", hmb_shown(v));
	if (o->ncases == (int)(sizeof(o->cases) / sizeof(o->cases[0])))
		return usage(p, "--case: at most %d patterns",
			     (int)(sizeof(o->cases) / sizeof(o->cases[0])));
	o->cases[o->ncases++] = v;
	return 0;
}

static int set_devices(struct hmb_parser *p, const char *v)
{
	int list[64];
	char why[128], shown[64];

	if (strcmp(v, "all") != 0 && device_list_why(v, list, 64, why, sizeof(why)) < 0) {
		snprintf(shown, 41, "%s", v);
		hmb_utf8_trim(shown);
		if (strlen(v) > 40)
			strcat(shown, "...");
		return usage(p, "--devices: '%s': %s", hmb_shown(shown), why);
	}
	p->cli->opt.devices = v;
	return 0;
}

static int set_together(struct hmb_parser *p, const char *v)
{
	int mode = hmb_together_parse(v);

	if (mode < 0)
		return usage(p, "--together: unknown value '%s': use all, host or none", hmb_shown(v));
	p->cli->opt.together = (enum hmb_together)mode;
	return 0;
}

/* A number of option name into *out: above 0 (from 0 where zero_ok) and at most max. */
static int set_number(struct hmb_parser *p, const char *name, const char *v, double *out,
		      int zero_ok, double max, const char *must)
{
	double x;

	if (hmb_parse_double(v, &x) || !(x > 0 || (zero_ok && x == 0)) || x > max)
		return usage(p, "--%s: '%s' must be %s", name, hmb_shown(v), must);
	*out = x == 0 ? 0 : x; /* "-0" is 0 */
	return 0;
}

static int set_peak_gbps(struct hmb_parser *p, const char *v)
{
	return set_number(p, "peak-gbps", v, &p->cli->opt.peak_gbps, 0, 100000,
			  "a bandwidth in GB/s above 0 and at most 100000");
}

static int set_oversubscribe(struct hmb_parser *p, const char *v)
{
	return set_number(p, "oversubscribe", v, &p->cli->opt.oversubscribe, 0, 64,
			  "a factor above 0 and at most 64");
}

static int set_threshold(struct hmb_parser *p, const char *v)
{
	return set_number(p, "threshold", v, &p->cli->opt.threshold, 1, 1000,
			  "a percentage from 0 to 1000");
}

#define FIELD(f) offsetof(struct hmb_cli, f)

const struct hmb_global_option hmb_global_options[HMB_G_COUNT] = {
	[HMB_G_DEVICE] = { "device", 'd', "N", "GPU ordinal (default 0)",
			   FIELD(opt.device), 0, 1000000, NULL },
	[HMB_G_OUTPUT] = { "output", 'o', "FILE", "write the JSON document to FILE, a regular "
			   "file, or to stdout with '-'; rewritten as the run goes, so nothing "
			   "measured is lost (each time whole: FILE.tmp.PID.XXXXXX renamed over "
			   "it, keeping its mode); summary: the summary", 0, 0, 0, set_output },
	[HMB_G_FORMAT] = { "format", 'f', "F", "stdout: table (default), json or csv; markdown for "
			   "compare and summary; html for summary", 0, 0, 0, set_format },
	[HMB_G_SIZES] = { "sizes", 's', "LIST", "sizes, e.g. 4K,64M,1G or ranges 4K:1G:x4, "
			  "1M:8M:+1M; multiples of 4 bytes up to 64T, at most 64 of them",
			  0, 0, 0, set_sizes },
	[HMB_G_REPS] = { "reps", 'r', "N", "timed repetitions per case (1 to 1000000)",
			 FIELD(opt.reps), 1, 1000000, NULL },
	[HMB_G_WARMUP] = { "warmup", 'w', "N", "untimed repetitions first, exactly N (0 to 1000000)",
			   FIELD(opt.warmup), 0, 1000000, NULL },
	[HMB_G_QUICK] = { "quick", 'q', NULL, "small sizes, few repetitions: a smoke run",
			  FIELD(opt.quick), 0, 0, NULL },
	[HMB_G_DRY_RUN] = { "dry-run", 'n', NULL, "check the command line, list what would run "
			    "and write the document without opening a GPU (checks a batch job's "
			    "settings)", FIELD(opt.dry_run), 0, 0, NULL },
	[HMB_G_CASE] = { "case", 'c', "PATTERN", "only cases whose name matches the shell "
			 "pattern, e.g. 'h2d/pinned/*' (repeatable; `list --cases` names them and "
			 "marks on-request cases, which run only for a pattern that selects no "
			 "other case; a pattern that matches none is refused)", 0, 0, 0, set_case },
	[HMB_G_CASES] = { "cases", 0, NULL, NULL, FIELD(list_cases), 0, 0, NULL },
	[HMB_G_DEVICES] = { "devices", 0, "all|LIST", "all or a module on each GPU of LIST in "
			    "turn (all: every visible GPU), each in a process of its own; records "
			    "carry their device", 0, 0, 0, set_devices },
	[HMB_G_TOGETHER] = { "together", 0, "all|host|none", "with --devices, which GPUs run a "
			     "module at the same time: all (the default) runs every module on every "
			     "GPU at once, as a node is used (a host figure whose GPU shared its host "
			     "port or NUMA node says so); host: a module that moves data over the "
			     "host link runs at once only on GPUs that share neither, so that each "
			     "GPU's host figures are those it has alone (slower: the GPUs of a host "
			     "group take turns); none: one GPU after another", 0, 0, 0, set_together },
	[HMB_G_NO_ISOLATION] = { "no-isolation", 0, NULL, "all: every module in this one process "
				 "(for debugging; modules may then change each other's figures)",
				 FIELD(opt.no_isolation), 0, 0, NULL },
	[HMB_G_RUNS] = { "runs", 0, "N", "all and the modules: each module N times (1 to 100; "
			 "all: 2, or more where a module's figures move from process to process "
			 "and its run is short, unless --quick), each in a process of its own, "
			 "the modules taken in turn, there and back, and each run sampling 1/N of "
			 "the time; a result keeps every "
			 "run's median beside the pooled samples and is stable only where the runs "
			 "agree within 1%; compare judges a change against how much a figure "
			 "moves from run to run (--runs 3 on both sides for a gate)",
			 FIELD(opt.runs), 1, HMB_RUNS_MAX, NULL },
	[HMB_G_PEAK_GBPS] = { "peak-gbps", 0, "X", "the host link's peak per direction in GB/s, "
			      "where it is not PCIe (Infinity Fabric, NVLink-C2C) or cannot be "
			      "read", 0, 0, 0, set_peak_gbps },
	[HMB_G_OVERSUBSCRIBE] = { "oversubscribe", 0, "F", "managed, xnack and all: allow managed "
				  "memory up to F x free device memory. Off by default: "
				  "oversubscribing can make a shared GPU unresponsive for everyone "
				  "on it.", 0, 0, 0, set_oversubscribe },
	[HMB_G_THRESHOLD] = { "threshold", 0, "PCT", "compare: exit 1 when a figure is worse by "
			      "more than PCT%", 0, 0, 0, set_threshold },
	[HMB_G_GPU] = { "gpu", 0, "N", "compare, summary: GPU N of a document of several GPUs "
			"(default 0)", FIELD(opt.compare_gpu), 0, 1023, NULL },
	[HMB_G_WIDE] = { "wide", 0, NULL, "tables (a run, show) and compare: every figure with "
			 "every parameter, context too, one line each, unwrapped (the default fits "
			 "120 columns)", FIELD(opt.wide), 0, 0, NULL },
	[HMB_G_ALLOW_PARTIAL] = { "allow-partial", 0, NULL, "compare: go on when fewer than half "
				  "of the base's figures match", FIELD(opt.allow_partial), 0, 0,
				  NULL },
	[HMB_G_HELP] = { "help", 'h', NULL, "help (after a command: that command's help)",
			 FIELD(help), 0, 0, NULL },
	[HMB_G_VERSION] = { "version", 'V', NULL, "version", FIELD(version), 0, 0, NULL },
};

/* opts[k] given v (NULL: a flag). Given again, the same value is no harm;
 * another is refused, as neither could be the one meant, but where each value
 * counts (HMB_G_REPEATABLE). */
static int repeated(struct hmb_parser *p, size_t k, const char *v)
{
	if (k < HMB_G_COUNT && (HMB_G_REPEATABLE & 1u << k))
		return 0;
	if (!p->taken[k]) {
		p->taken[k] = 1;
		p->first[k] = v;
		return 0;
	}
	if (!v || !p->first[k] || strcmp(v, p->first[k]) == 0)
		return 0;
	return usage(p, "--%s given twice, as '%s' and as '%s': give it once", p->opts[k].name,
		     hmb_shown(p->first[k]), hmb_shown(v));
}

/* Global option id given value v (NULL for a flag). */
static int set_global(struct hmb_parser *p, int id, const char *v)
{
	const struct hmb_global_option *g = &hmb_global_options[id];
	int *field = (int *)((char *)p->cli + g->field);
	long n;
	int rc = repeated(p, (size_t)id, v);

	if (rc)
		return rc;
	p->cli->given |= 1u << id;
	if (g->set)
		return g->set(p, v);
	if (!g->value) {
		*field = 1;
		return 0;
	}
	if (hmb_parse_long(v, &n) || n < g->min || n > g->max)
		return usage(p, "--%s: '%s' must be a whole number from %ld to %ld", g->name,
			     hmb_shown(v), g->min, g->max);
	*field = (int)n;
	return 0;
}

static int set_option(struct hmb_parser *p, const struct longopt *lo, const char *v)
{
	char why[512];

	if (lo->id >= 0)
		return set_global(p, lo->id, v);
	if (repeated(p, (size_t)(lo - p->opts), v))
		return 2;
	if (hmb_opt_validate(lo->decl, v ? v : "", why, sizeof(why)) != 0)
		return usage(p, "%s", why);
	p->seen[lo - p->opts] = 1;
	if (hmb_opt_set(&p->cli->opt, lo->name, v ? v : "") != 0)
		return usage(p, "too many module options");
	return 0;
}

static int takes_value(const struct longopt *lo)
{
	return lo->id >= 0 ? hmb_global_options[lo->id].value != NULL : lo->decl->type != HMB_OPT_FLAG;
}

/* "--name", "--name=value" or "--name value"; *i moves past a value taken. */
static int long_option(struct hmb_parser *p, int argc, char **argv, int *i)
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
static int short_options(struct hmb_parser *p, int argc, char **argv, int *i)
{
	for (const char *c = argv[*i] + 1; *c; c++) {
		int id = -1;
		for (int g = 0; g < HMB_G_COUNT; g++)
			if (hmb_global_options[g].short_name && hmb_global_options[g].short_name == *c)
				id = g;
		if (id < 0) {
			char typed[8];
			size_t n = hmb_utf8_seq((const unsigned char *)c, strlen(c));
			char names[64];
			size_t used = 0;
			snprintf(typed, sizeof(typed), "%.*s", (int)(n ? n : 1), c);
			for (int g = 0; g < HMB_G_COUNT && used < sizeof(names); g++)
				if (hmb_global_options[g].short_name)
					used += (size_t)snprintf(names + used, sizeof(names) - used,
								 "%s-%c", used ? " " : "",
								 hmb_global_options[g].short_name);
			return usage(p, "unknown option '-%s'; the short options are %s",
				     hmb_shown(typed), names);
		}
		if (!hmb_global_options[id].value) {
			int rc = set_global(p, id, NULL);
			if (rc)
				return rc;
			continue;
		}
		if (c[1])
			return set_global(p, id, c + 1);
		if (*i + 1 >= argc)
			return usage(p, "-%c (--%s) needs a value", *c, hmb_global_options[id].name);
		return set_global(p, id, argv[++*i]);
	}
	return 0;
}

static const struct hmb_bench *find_bench(const struct hmb_bench *const *benches, const char *name)
{
	for (int i = 0; benches[i]; i++)
		if (strcmp(benches[i]->name, name) == 0)
			return benches[i];
	return NULL;
}

/* A command or module by name (a module: *bench too); NULL when none. */
static const struct hmb_command *find_command(struct hmb_parser *p, const char *name,
					      const struct hmb_bench **bench)
{
	const struct hmb_command *cmd = hmb_command_find(name);

	if (cmd)
		return cmd;
	if ((*bench = find_bench(p->benches, name)))
		return &hmb_module_command;
	return NULL;
}

/* Options that do not go with the command: 0, or 2 naming the first. */
static int refuse_options(struct hmb_parser *p)
{
	const struct hmb_command *cmd = p->cli->cmd;
	unsigned extra = p->cli->given & ~cmd->options & ~(1u << HMB_G_HELP);

	for (int g = 0; g < HMB_G_COUNT; g++)
		if (extra & (1u << g))
			return usage(p, "--%s does not go with %s", hmb_global_options[g].name,
				     p->cli->command);
	if (cmd->module_options)
		return 0;
	for (size_t k = HMB_G_COUNT; k < p->nopts; k++)
		if (p->seen[k])
			return usage(p, "--%s does not go with %s (it is an option of the %s module)",
				     p->opts[k].name, p->cli->command, p->opts[k].owner->name);
	return 0;
}

static int check_help(struct hmb_parser *p)
{
	struct hmb_cli *c = p->cli;
	const struct hmb_bench *b;
	int rc = refuse_options(p);

	if (rc)
		return rc;
	if (c->nargs > 1)
		return usage(p, "help takes one command; unexpected argument '%s'",
			     hmb_shown(c->args[1]));
	if (c->nargs == 1 && !find_command(p, c->args[0], &b)) {
		char near[256];
		return usage(p, "help: unknown command '%s'; nearest: %s", hmb_shown(c->args[0]),
			     hmb_command_nearest(c->args[0], p->benches, near, sizeof(near)));
	}
	c->help = 1;
	c->help_topic = c->nargs ? c->args[0] : NULL;
	return 0;
}

/* Does a module run (the command's, or each of all's) have these cases? */
static int case_candidate(const struct hmb_cli *c, const struct hmb_bench *b)
{
	return b->cases && (c->kind == HMB_CMD_ALL || b == c->bench);
}

/* Every --case pattern matches a case of the module (of some module for
 * all): a typo is refused, naming the nearest cases. */
static int check_cases(struct hmb_parser *p)
{
	struct hmb_cli *c = p->cli;
	const struct hmb_options *o = &c->opt;

	for (int k = 0; k < o->ncases; k++) {
		struct hmb_nearest near;
		int known = 0, matched = 0;
		char text[256];

		hmb_nearest_start(&near, o->cases[k]);
		for (int i = 0; p->benches[i] && !matched; i++) {
			const struct hmb_bench *b = p->benches[i];
			if (!case_candidate(c, b))
				continue;
			for (int j = 0; b->cases[j] && !matched; j++) {
				known = 1;
				matched = fnmatch(o->cases[k], b->cases[j], 0) == 0;
				hmb_nearest_offer(&near, b->cases[j]);
			}
		}
		if (matched || !known)
			continue;
		return usage(p, "--case: '%s' matches no case of %s; nearest: %s (hipmembench list "
			     "--cases lists them all)", hmb_shown(o->cases[k]),
			     c->kind == HMB_CMD_ALL ? "any module" : c->bench->name,
			     hmb_nearest_text(&near, "", text, sizeof(text)));
	}
	return 0;
}

/* What a run's options ask that its modules would not do: refused. */
static int check_modules(struct hmb_parser *p)
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

/* The global options that only commands reading documents take, no run
 * (--threshold, --gpu, --allow-partial). */
static unsigned documents_only_options(void)
{
	unsigned taken = 0;

	for (const struct hmb_command *cmd = hmb_commands; cmd->name; cmd++)
		if (cmd->args == HMB_ARGS_DOCUMENTS)
			taken |= cmd->options;
	return taken & ~hmb_module_command.options;
}

/* "compare and summary": the commands that take global option g, into out. */
static const char *commands_taking(int g, char *out, size_t len)
{
	const struct hmb_command *taking[16];
	size_t n = 0, used = 0;

	for (const struct hmb_command *cmd = hmb_commands; cmd->name && n < 16; cmd++)
		if (cmd->options & 1u << g)
			taking[n++] = cmd;
	out[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s",
					 i == 0 ? "" : i + 1 == n ? " and " : ", ", taking[i]->name);
	return out;
}

/* info, all and the modules: what reaches a run. */
static int check_run(struct hmb_parser *p)
{
	struct hmb_cli *c = p->cli;
	struct hmb_options *o = &c->opt;
	unsigned documents_only = documents_only_options();
	int rc;

	if (c->nargs)
		return usage(p, "unexpected argument '%s' after '%s'", hmb_shown(c->args[0]),
			     c->command);
	for (int g = 0; g < HMB_G_COUNT; g++)
		if (c->given & documents_only & 1u << g) {
			char names[128];
			return usage(p, "--%s goes with %s", hmb_global_options[g].name,
				     commands_taking(g, names, sizeof(names)));
		}
	if (o->format == HMB_FORMAT_MARKDOWN || o->format == HMB_FORMAT_HTML)
		return usage(p, "--format %s goes with %s",
			     o->format == HMB_FORMAT_HTML ? "html" : "markdown",
			     o->format == HMB_FORMAT_HTML ? "summary" : "compare and summary");
	if ((rc = refuse_options(p)))
		return rc;
	if (c->kind == HMB_CMD_INFO && o->format == HMB_FORMAT_CSV)
		return usage(p, "--format csv does not go with info (it has no results): use table "
			     "or json");
	if ((c->given & 1u << HMB_G_NO_ISOLATION) && c->kind != HMB_CMD_ALL)
		return usage(p, "--no-isolation goes with all");
	if ((c->given & 1u << HMB_G_DEVICES) && (c->given & 1u << HMB_G_DEVICE) &&
	    !o->child_output)
		return usage(p, "--devices and --device do not go together: --devices names every "
			     "GPU to run on");
	if ((c->given & 1u << HMB_G_TOGETHER) && !(c->given & 1u << HMB_G_DEVICES) &&
	    !o->child_output)
		return usage(p, "--together says which GPUs of --devices run at once: it goes with "
			     "--devices");
	if ((c->given & 1u << HMB_G_DEVICES) && (c->given & 1u << HMB_G_NO_ISOLATION))
		return usage(p, "--devices runs each GPU in a process of its own: it does not go "
			     "with --no-isolation");
	if (o->runs > 1 && (c->given & 1u << HMB_G_NO_ISOLATION))
		return usage(p, "--runs runs each module in processes of its own: it does not go "
			     "with --no-isolation");
	/* all: every module at least twice, each run in a process of its own, so
	 * that a figure marked stable is one that several processes agree on (the
	 * samples of one process are tight where the next process reads 10%
	 * apart); a module may ask for more (hmb_bench.all_runs) */
	if (c->kind == HMB_CMD_ALL && !(c->given & 1u << HMB_G_RUNS) && !o->quick &&
	    !o->no_isolation) {
		o->runs = HMB_ALL_RUNS;
		o->runs_by_module = 1;
	}
	if (o->child_output) {
		/* a module of `all` in its own process: the parent's command line,
		 * with the parent's choice of GPU, one run; checked there already */
		o->devices = NULL;
		o->runs = 1;
		o->runs_by_module = 0;
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
static int check_summary(struct hmb_parser *p)
{
	struct hmb_cli *c = p->cli;
	int rc = refuse_options(p);

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
	return 0;
}

static int check_merge(struct hmb_parser *p)
{
	struct hmb_cli *c = p->cli;
	int rc = refuse_options(p);

	if (rc)
		return rc;
	if (!c->opt.output)
		return usage(p, "merge needs --output FILE (or - for standard output)");
	if (c->nargs < 2)
		return usage(p, "merge needs at least two documents");
	for (int i = 0; i < c->nargs; i++)
		if (strcmp(c->args[i], "-") == 0)
			return usage(p, "merge reads documents from files; '-' (standard input) is "
				     "not one");
	c->opt.format = HMB_FORMAT_JSON; /* what it writes, to a file or to stdout */
	return 0;
}

static int check_command(struct hmb_parser *p)
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
	if (!(c->cmd = find_command(p, c->command, &c->bench))) {
		char near[256];
		return usage(p, "unknown command '%s'; nearest: %s", hmb_shown(c->command),
			     hmb_command_nearest(c->command, p->benches, near, sizeof(near)));
	}
	c->kind = c->cmd->kind;
	if (c->help && c->kind != HMB_CMD_HELP) {
		c->help_topic = c->command;
		return 0;
	}
	if (c->cmd->args == HMB_ARGS_DOCUMENTS &&
	    hmb_documents_check(c->cmd, c->command, c->args, c->nargs, c->opt.output, p->err,
				p->errlen))
		return 2;
	switch (c->kind) {
	case HMB_CMD_HELP:
		return check_help(p);
	case HMB_CMD_LIST:
		if (c->nargs)
			return usage(p, "unexpected argument '%s' after 'list'", hmb_shown(c->args[0]));
		return refuse_options(p);
	case HMB_CMD_COMPARE:
		if ((rc = refuse_options(p)))
			return rc;
		if (c->opt.format == HMB_FORMAT_JSON || c->opt.format == HMB_FORMAT_HTML)
			return usage(p, "compare: --format %s is not a comparison format: use table, "
				     "csv or markdown (summary -f html makes a report)",
				     c->opt.format == HMB_FORMAT_HTML ? "html" : "json");
		if (c->nargs < 2)
			return usage(p, "compare needs a base document and at least one other");
		return 0;
	case HMB_CMD_SHOW:
		if ((rc = refuse_options(p)))
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
	case HMB_CMD_MERGE:
		return check_merge(p);
	default:
		return check_run(p);
	}
}

int hmb_cli_parse(int argc, char **argv, const struct hmb_bench *const *benches,
		  struct hmb_cli *out, char *err, size_t errlen)
{
	struct hmb_parser p = { out, benches, NULL, 0, NULL, NULL, NULL, err, errlen };
	int only_args = 0, rc = 0;

	memset(out, 0, sizeof(*out));
	out->opt.child_output = child_output();
	out->opt.run_share = child_run_share(out->opt.child_output);
	out->opt.child_table = !out->opt.child_output || !getenv(HMB_CHILD_TABLE_ENV) ||
			       strcmp(getenv(HMB_CHILD_TABLE_ENV), "0") != 0;
	out->opt.child_beside = out->opt.child_output && getenv(HMB_CHILD_BESIDE_ENV) &&
				*getenv(HMB_CHILD_BESIDE_ENV);
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
	free(p.taken);
	free(p.first);
	return rc;
}

void hmb_cli_free(struct hmb_cli *cli)
{
	free(cli->args);
	cli->args = NULL;
	cli->nargs = 0;
}
