/*
 * main.c - the command line: `hipmembench [options] <command> [module options]`.
 *
 * Commands: list, info, all, help, compare, and one per module. Exit status: 0 all
 * good (unsupported cases included), 1 a measurement failed, 2 bad usage,
 * 3 no usable GPU, 130/143 interrupted by SIGINT/SIGTERM (results measured
 * until then are written, marked "interrupted").
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "checkpoint.h"
#include "compare.h"
#include "isolate.h"
#include "registry.h"
#include "report.h"
#include "runner.h"
#include "version.h"

enum { EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_NO_GPU = 3 };

extern volatile sig_atomic_t hmb_signal_received;

static void on_signal(int sig)
{
	if (hmb_signal_received) {
		/* A second signal: stop now. */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	hmb_signal_received = sig;
}

static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("hipmembench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see hipmembench --help)\n", stderr);
	exit(EXIT_USAGE);
}

static void print_global_help(FILE *out)
{
	fputs("usage: hipmembench [options] <command> [module options]\n"
	      "\n"
	      "Measures how memory moves between host and GPU through the HIP runtime;\n"
	      "every figure can be written as JSON (--output).\n"
	      "\n"
	      "commands:\n"
	      "  list               modules and what they measure\n"
	      "  info               the device and what decides its memory behaviour\n"
	      "  all                every module, defaults sized for about two minutes\n"
	      "  help [command]     this text, or a command's help\n"
	      "  compare BASE.json OTHER.json...  figures of runs side by side, with ratios;\n"
	      "                     --threshold PCT exits 1 when one is worse by more than PCT%\n"
	      "                     (--format table, csv or markdown)\n", out);
	for (int i = 0; hmb_benches[i]; i++)
		fprintf(out, "  %-18s %s\n", hmb_benches[i]->name, hmb_benches[i]->summary);
	fputs("\n"
	      "options:\n"
	      "  -d, --device N       GPU ordinal (default 0)\n"
	      "  -o, --output FILE    write the JSON document to FILE ('-' for stdout);\n"
	      "                       rewritten as the run goes, so nothing measured is lost\n"
	      "  -f, --format F       stdout: table (default), json or csv\n"
	      "  -s, --sizes LIST     sizes, e.g. 4K,64M,1G or ranges 4K:1G:x4, 1M:8M:+1M\n"
	      "  -r, --reps N         timed repetitions per case\n"
	      "  -w, --warmup N       untimed repetitions first\n"
	      "  -q, --quick          small sizes, few repetitions: a smoke run\n"
	      "  -n, --dry-run        list what would run and write the document without\n"
	      "                       opening a GPU (checks a batch job's settings)\n"
	      "  -c, --case PATTERN   only cases whose name matches the shell pattern\n"
	      "                       (repeatable; `list --cases` names them all)\n"
	      "      --devices LIST   all or a module, on each GPU of LIST in turn ('all':\n"
	      "                       every visible GPU), each in a process of its own\n"
	      "      --no-isolation   all: run every module in this one process\n"
	      "                       (default: each in its own, so none can change\n"
	      "                       another's figures)\n"
	      "      --oversubscribe F  allow managed memory up to F x free device memory.\n"
	      "                       Off by default: oversubscribing can make a shared GPU\n"
	      "                       unresponsive for everyone on it.\n"
	      "      --peak-gbps X    the host link's peak per direction in GB/s, for peak\n"
	      "                       fractions where it is not PCIe (Infinity Fabric, NVLink-C2C)\n"
	      "                       or not readable; overrides the PCIe figure\n"
	      "  -h, --help           help (after a command: that command's help)\n"
	      "  -V, --version        version\n"
	      "\n"
	      "exit status: 0 ok, 1 a measurement failed, 2 usage error, 3 no usable GPU,\n"
	      "130/143 interrupted (results so far are written).\n", out);
}

static void print_bench_help(FILE *out, const struct hmb_bench *b)
{
	fprintf(out, "usage: hipmembench [options] %s [module options]\n\n%s\n\n%s\n", b->name,
		b->summary, b->help ? b->help : "");
	if (b->options && b->options[0].name) {
		fputs("\nmodule options:\n", out);
		for (const struct hmb_opt_decl *d = b->options; d->name; d++) {
			char left[64];
			snprintf(left, sizeof(left), "--%s%s%s", d->name, d->arg ? " " : "",
				 d->arg ? d->arg : "");
			fprintf(out, "  %-22s %s\n", left, d->help);
		}
	}
	fputs("\nglobal options: see hipmembench --help\n", out);
}

/* The declaration of a module option by name (the first module that has it). */
static const struct hmb_opt_decl *find_module_opt(const char *name, const struct hmb_bench **owner)
{
	for (int i = 0; hmb_benches[i]; i++)
		for (const struct hmb_opt_decl *d = hmb_benches[i]->options; d && d->name; d++)
			if (strcmp(d->name, name) == 0) {
				*owner = hmb_benches[i];
				return d;
			}
	return NULL;
}

static int parse_count(const char *opt, const char *text, int min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < min || v > 1000000)
		usage_error("%s: '%s' must be a whole number from %d to 1000000", opt, text, min);
	return (int)v;
}

/* "0,2,3" into ordinals: how many, or -1 when malformed or repeated. */
static int parse_device_list(const char *text, int *out, int max)
{
	int n = 0;
	const char *p = text;

	while (*p) {
		char *end;
		long v;
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v < 0 || v > 1023 || n == max || (*end && *end != ','))
			return -1;
		for (int i = 0; i < n; i++)
			if (out[i] == v)
				return -1;
		out[n++] = (int)v;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return -1;
	}
	return n ? n : -1;
}

enum { OPT_OVERSUBSCRIBE = 256, OPT_THRESHOLD, OPT_NO_ISOLATION, OPT_CHILD_OUTPUT,
       OPT_CASES, OPT_DEVICES, OPT_PEAK_GBPS, OPT_MODULE = 512 };

struct parsed {
	struct hmb_options opt;
	const char *command;
	int help;
	const char *module_opt_owner[HMB_MAX_MODULE_OPTS];
	char **args;  /* positional arguments after the command */
	int nargs;
	int command_index; /* where the command word stands in argv (as permuted) */
	int list_cases;
};

static void parse_args(int argc, char **argv, struct parsed *p)
{
	static const struct option globals[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "sizes", required_argument, NULL, 's' },
		{ "reps", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "quick", no_argument, NULL, 'q' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "oversubscribe", required_argument, NULL, OPT_OVERSUBSCRIBE },
		{ "peak-gbps", required_argument, NULL, OPT_PEAK_GBPS },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "case", required_argument, NULL, 'c' },
		{ "no-isolation", no_argument, NULL, OPT_NO_ISOLATION },
		{ "child-output", required_argument, NULL, OPT_CHILD_OUTPUT },
		{ "cases", no_argument, NULL, OPT_CASES },
		{ "devices", required_argument, NULL, OPT_DEVICES },
	};
	const size_t nglobal = sizeof(globals) / sizeof(globals[0]);
	struct option longopts[nglobal + 64];
	const struct hmb_opt_decl *decls[64];
	size_t n = nglobal, ndecl = 0;
	char err[256];
	int c;

	memcpy(longopts, globals, sizeof(globals));
	for (int i = 0; hmb_benches[i]; i++)
		for (const struct hmb_opt_decl *d = hmb_benches[i]->options; d && d->name; d++) {
			const struct hmb_bench *owner;
			if (find_module_opt(d->name, &owner) != d || ndecl == 64)
				continue;
			decls[ndecl] = d;
			longopts[n++] = (struct option){ d->name,
				d->type == HMB_OPT_FLAG ? no_argument : required_argument, NULL,
				OPT_MODULE + (int)ndecl };
			ndecl++;
		}
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };

	memset(p, 0, sizeof(*p));
	p->opt.warmup = -1;
	p->opt.threshold = -1;
	p->opt.argc = argc;
	p->opt.argv = argv;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:o:f:s:r:w:c:qnhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': p->opt.device = parse_count("--device", optarg, 0); break;
		case 'o': p->opt.output = optarg; break;
		case 'f':
			if (strcmp(optarg, "table") == 0)
				p->opt.format = HMB_FORMAT_TABLE;
			else if (strcmp(optarg, "json") == 0)
				p->opt.format = HMB_FORMAT_JSON;
			else if (strcmp(optarg, "csv") == 0)
				p->opt.format = HMB_FORMAT_CSV;
			else if (strcmp(optarg, "markdown") == 0)
				p->opt.format = HMB_FORMAT_MARKDOWN;
			else
				usage_error("--format: unknown format '%s': use table, json, csv or "
					    "markdown", optarg);
			break;
		case 's':
			if (hmb_parse_sizes(optarg, &p->opt.sizes, err, sizeof(err)) != 0)
				usage_error("--sizes: %s", err);
			break;
		case 'r': p->opt.reps = parse_count("--reps", optarg, 1); break;
		case 'w': p->opt.warmup = parse_count("--warmup", optarg, 0); break;
		case 'q': p->opt.quick = 1; break;
		case 'n': p->opt.dry_run = 1; break;
		case OPT_OVERSUBSCRIBE: {
			char *end;
			errno = 0;
			p->opt.oversubscribe = strtod(optarg, &end);
			if (errno || *end || !(p->opt.oversubscribe > 0) || p->opt.oversubscribe > 64)
				usage_error("--oversubscribe: '%s' must be a factor above 0 and at most 64",
					    optarg);
			break;
		}
		case OPT_PEAK_GBPS: {
			char *end;
			errno = 0;
			p->opt.peak_gbps = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(p->opt.peak_gbps > 0) ||
			    p->opt.peak_gbps > 100000)
				usage_error("--peak-gbps: '%s' must be a bandwidth in GB/s above 0 and "
					    "at most 100000", optarg);
			break;
		}
		case OPT_THRESHOLD: {
			char *end;
			errno = 0;
			p->opt.threshold = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(p->opt.threshold >= 0) ||
			    p->opt.threshold > 1000)
				usage_error("--threshold: '%s' must be a percentage from 0 to 1000",
					    optarg);
			break;
		}
		case 'h': p->help = 1; break;
		case 'c':
			if (!*optarg)
				usage_error("--case: empty pattern");
			if (p->opt.ncases == (int)(sizeof(p->opt.cases) / sizeof(p->opt.cases[0])))
				usage_error("--case: at most 16 patterns");
			p->opt.cases[p->opt.ncases++] = optarg;
			break;
		case OPT_NO_ISOLATION: p->opt.no_isolation = 1; break;
		case OPT_CHILD_OUTPUT: p->opt.child_output = optarg; break;
		case OPT_CASES: p->list_cases = 1; break;
		case OPT_DEVICES: {
			int list[64];
			if (strcmp(optarg, "all") != 0 && parse_device_list(optarg, list, 64) < 0)
				usage_error("--devices: '%s' must be 'all' or a list of GPU ordinals "
					    "such as 0,1,3", optarg);
			p->opt.devices = optarg;
			break;
		}
		case 'V':
			printf("hipmembench %s (%s, %s)\n", HMB_VERSION, HMB_GIT_REVISION,
			       HMB_PLATFORM_NAME);
			exit(0);
		case '?':
			if (optopt)
				usage_error("unknown option '-%c'", optopt);
			usage_error("unknown option '%s'", argv[optind - 1]);
			break;
		case ':':
			usage_error("option '%s' needs a value", argv[optind - 1]);
			break;
		default: {
			const struct hmb_opt_decl *d = decls[c - OPT_MODULE];
			const struct hmb_bench *owner = NULL;
			if (p->opt.nvalues == HMB_MAX_MODULE_OPTS)
				usage_error("too many module options");
			if (hmb_opt_validate(d, optarg ? optarg : "", err, sizeof(err)) != 0)
				usage_error("%s", err);
			find_module_opt(d->name, &owner);
			p->module_opt_owner[p->opt.nvalues] = owner->name;
			p->opt.value_name[p->opt.nvalues] = d->name;
			p->opt.value[p->opt.nvalues++] = optarg ? optarg : "";
		}
		}
	}
	p->command_index = optind;
	if (optind < argc)
		p->command = argv[optind++];
	p->args = argv + optind;
	p->nargs = argc - optind;
}

static int finish_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "hipmembench: cannot write to stdout: %s\n", strerror(errno));
		return status ? status : EXIT_FAILED;
	}
	return status;
}

/* Write the final document; stdout formats other than the table come here too. */
static int emit(struct hmb_report *rep, int status)
{
	char err[512];

	if (rep->opt->format == HMB_FORMAT_JSON && hmb_json_write(rep, "-", err, sizeof(err)))
		fprintf(stderr, "hipmembench: %s\n", err);
	if (rep->opt->format == HMB_FORMAT_CSV)
		hmb_csv_print(stdout, rep->head, 1);
	if (rep->opt->output && strcmp(rep->opt->output, "-") &&
	    hmb_json_write(rep, rep->opt->output, err, sizeof(err))) {
		fprintf(stderr, "hipmembench: %s\n", err);
		status = status ? status : EXIT_FAILED;
	} else if (rep->opt->output && strcmp(rep->opt->output, "-") == 0 &&
		   rep->opt->format != HMB_FORMAT_JSON && hmb_json_write(rep, "-", err, sizeof(err))) {
		fprintf(stderr, "hipmembench: %s\n", err);
	}
	return finish_stdout(status);
}

/* --dry-run: the modules that would run, with their settings; no GPU. */
static int dry_run(struct hmb_report *rep, const struct hmb_bench *bench, int every)
{
	const struct hmb_options *o = rep->opt;

	printf("plan (dry run, no GPU opened): device %d, sizes %s, reps %s, warmup %s%s\n",
	       o->device, o->sizes.n ? "as given" : "module defaults",
	       o->reps ? "as given" : "module defaults", o->warmup >= 0 ? "as given" : "module defaults",
	       o->quick ? ", quick" : "");
	for (int i = 0; hmb_benches[i]; i++) {
		if (strcmp(rep->command, "info") == 0 || !(every || hmb_benches[i] == bench))
			continue;
		rep->modules[rep->nmodules++] = hmb_benches[i]->name;
		printf("  would run %-8s %s\n", hmb_benches[i]->name, hmb_benches[i]->summary);
	}
	for (int i = 0; i < o->nvalues; i++)
		printf("  option --%s %s\n", o->value_name[i], o->value[i]);
	rep->complete = 1;
	return emit(rep, 0);
}

/* The GPUs that --devices names (all: every visible one); 0 without it. */
static int device_list(const struct hmb_options *o, int *out, int max)
{
	int n = 0;

	if (!o->devices)
		return 0;
	if (strcmp(o->devices, "all") != 0)
		return parse_device_list(o->devices, out, max);
	if (hipGetDeviceCount(&n) != hipSuccess || n < 1)
		return 0; /* the module's own process says why there is no GPU */
	for (int i = 0; i < n && i < max; i++)
		out[i] = i;
	return n < max ? n : max;
}

/* all (or one module with --devices), each module in a process of its own
 * (isolate.c), on each GPU of --devices in turn; node-level modules once. */
static int run_isolated(struct hmb_report *rep, struct hmb_cmdline *cl,
			const struct hmb_bench *only)
{
	int devices[64], ndev = device_list(rep->opt, devices, 64), status = 0;

	cl->tag_device = ndev > 1;
	for (int i = 0; hmb_benches[i] && !hmb_interrupted(); i++) {
		const struct hmb_bench *b = hmb_benches[i];
		if ((only && b != only) || !hmb_bench_selected(b, rep->opt))
			continue;
		for (int d = 0; d < (b->node_level || ndev == 0 ? 1 : ndev) && !hmb_interrupted();
		     d++) {
			int code;
			cl->device = b->node_level || ndev == 0 ? -1 : devices[d];
			code = hmb_run_isolated(b, rep, cl);
			if (code == EXIT_NO_GPU || code == EXIT_USAGE) {
				status = emit(rep, code);
				hmb_report_free(rep);
				return code;
			}
		}
	}
	if (hmb_interrupted()) {
		rep->interrupted = 1;
		fprintf(stderr, "hipmembench: interrupted by signal %d; results so far are kept\n",
			(int)hmb_signal_received);
		status = 128 + (int)hmb_signal_received;
	} else {
		rep->complete = 1;
		if (hmb_report_failures(rep)) {
			fprintf(stderr, "hipmembench: %zu case(s) failed; see their reason\n",
				hmb_report_failures(rep));
			status = EXIT_FAILED;
		}
	}
	status = emit(rep, status);
	hmb_report_free(rep);
	return status;
}

int main(int argc, char **argv)
{
	struct parsed p;
	struct hmb_report rep;
	const struct hmb_bench *bench = NULL;
	char err[512];
	int status = 0, run_all, info;

	hmb_registry_init();
	parse_args(argc, argv, &p);
	if (!p.command || strcmp(p.command, "help") == 0) {
		const char *topic = p.command && p.nargs ? p.args[0] : NULL;
		if (topic && !(bench = hmb_bench_find(topic)))
			usage_error("help: unknown command '%s'", topic);
		if (!p.command && !p.help) {
			print_global_help(stderr);
			return EXIT_USAGE;
		}
		if (bench)
			print_bench_help(stdout, bench);
		else
			print_global_help(stdout);
		return finish_stdout(0);
	}
	run_all = strcmp(p.command, "all") == 0;
	info = strcmp(p.command, "info") == 0;
	if (strcmp(p.command, "list") == 0) {
		for (int i = 0; hmb_benches[i]; i++) {
			const struct hmb_bench *b = hmb_benches[i];
			if (!p.list_cases) {
				printf("%-10s %s\n", b->name, b->summary);
				continue;
			}
			for (int k = 0; b->cases && b->cases[k]; k++)
				printf("%-10s %s\n", b->name, b->cases[k]);
		}
		return finish_stdout(0);
	}
	if (p.list_cases)
		usage_error("--cases goes with list");
	if (strcmp(p.command, "compare") == 0) {
		if (p.help) {
			print_global_help(stdout);
			return finish_stdout(0);
		}
		if (p.nargs < 2)
			usage_error("compare needs a base document and at least one other");
		if (p.opt.format == HMB_FORMAT_JSON)
			usage_error("compare: --format json is not a comparison format: use table, csv "
				    "or markdown");
		return finish_stdout(hmb_compare(p.nargs, p.args, p.opt.format, p.opt.threshold));
	}
	if (p.opt.threshold >= 0)
		usage_error("--threshold goes with compare");
	if (p.opt.format == HMB_FORMAT_MARKDOWN)
		usage_error("--format markdown goes with compare");
	if (!run_all && !info && !(bench = hmb_bench_find(p.command)))
		usage_error("unknown command '%s'", p.command);
	if (p.help) {
		if (bench)
			print_bench_help(stdout, bench);
		else
			print_global_help(stdout);
		return finish_stdout(0);
	}
	if (p.nargs)
		usage_error("unexpected argument '%s' after '%s'", p.args[0], p.command);
	for (int i = 0; i < p.opt.nvalues && !p.opt.child_output; i++)
		if (!run_all && (!bench || strcmp(p.module_opt_owner[i], bench->name) != 0))
			usage_error("--%s is an option of the %s module", p.opt.value_name[i],
				    p.module_opt_owner[i]);
	for (size_t i = 0; i < p.opt.sizes.n; i++)
		if (p.opt.sizes.v[i] % 4)
			usage_error("--sizes: %s is not a multiple of 4 bytes (data is verified "
				    "as 32-bit words)", hmb_sz(p.opt.sizes.v[i]));
	if (p.opt.output && hmb_output_writable(p.opt.output, err, sizeof(err)) != 0)
		usage_error("%s", err);

	if (p.opt.child_output) {
		/* a module of `all` in its own process: its document goes to the
		 * parent's file only; the parent prints JSON and CSV */
		p.opt.output = p.opt.child_output;
		if (p.opt.format != HMB_FORMAT_TABLE)
			p.opt.format = HMB_FORMAT_NONE;
	}
	hmb_report_init(&rep, &p.opt, p.command);
	if (p.opt.dry_run)
		return dry_run(&rep, bench, run_all || info);
	if (p.opt.child_output)
		p.opt.devices = NULL; /* a module's own process: one GPU, the parent's choice */
	if (p.opt.devices && (p.opt.no_isolation || info))
		usage_error("--devices goes with all or a module, each GPU in its own process");
	if ((run_all && !p.opt.no_isolation) || (bench && p.opt.devices)) {
		struct hmb_cmdline cl = { argc, argv, p.command_index, -1, 0 };
		/* no SA_RESTART: waitpid must return on a signal, to pass it on */
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		return run_isolated(&rep, &cl, run_all ? NULL : bench);
	}
	if (hmb_device_open(p.opt.device, &rep.device, err, sizeof(err)) != 0) {
		if (info && p.opt.format == HMB_FORMAT_TABLE)
			hmb_info_print(stdout, &rep);
		fprintf(stderr, "hipmembench: %s\n", err);
		rep.complete = 1;
		emit(&rep, EXIT_NO_GPU);
		return EXIT_NO_GPU;
	}
	rep.have_device = 1;
	hmb_telemetry_open(&rep.telemetry, rep.device.pci_bus_id);
	if (rep.device.link.peak_gbps <= 0 && rep.telemetry.available) {
		/* No sysfs link: take the management library's reading. */
		struct hmb_gpu_sample *s;
		hmb_telemetry_sample(&rep.telemetry, "start", "now");
		s = &rep.telemetry.s[rep.telemetry.n - 1];
		hmb_link_from_generation(&rep.device.link, s->link_gen, s->link_width,
					 s->link_max_gen, s->link_max_width, rep.telemetry.source);
	}
	hmb_device_interpret(&rep.device, p.opt.peak_gbps); /* link known now; --peak-gbps */
	if (hmb_sizes_max(&p.opt.sizes) > rep.device.total_mem) {
		char total[32];
		snprintf(total, sizeof(total), "%.1f GiB", (double)rep.device.total_mem / (1 << 30));
		usage_error("--sizes: %s is larger than the device's memory (%s)",
			    hmb_sz(hmb_sizes_max(&p.opt.sizes)), total);
	}

	if (info) {
		hmb_telemetry_sample(&rep.telemetry, "info", "now");
		if (p.opt.format == HMB_FORMAT_TABLE)
			hmb_info_print(stdout, &rep);
		rep.complete = 1;
		status = emit(&rep, 0);
		hmb_telemetry_close(&rep.telemetry);
		return status;
	}

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (int i = 0; hmb_benches[i] && !hmb_interrupted(); i++)
		if (run_all || hmb_benches[i] == bench)
			hmb_run_module(hmb_benches[i], &rep);
	if (hmb_interrupted()) {
		rep.interrupted = 1;
		fprintf(stderr, "hipmembench: interrupted by signal %d; results so far are kept\n",
			(int)hmb_signal_received);
		status = 128 + (int)hmb_signal_received;
	} else {
		rep.complete = 1;
		if (hmb_report_failures(&rep)) {
			fprintf(stderr, "hipmembench: %zu case(s) failed; see their reason\n",
				hmb_report_failures(&rep));
			status = EXIT_FAILED;
		}
	}
	status = emit(&rep, status);
	hmb_telemetry_close(&rep.telemetry);
	hmb_report_free(&rep);
	return status;
}
