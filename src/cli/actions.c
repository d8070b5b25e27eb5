/*
 * actions.c - what each command does once its command line is checked: list,
 * help, show, compare, summary and the runs (info, all, a module), with the
 * signals that stop a run and the document it writes.
 *
 * Exit status: 0 all good (unsupported cases included), 1 a measurement
 * failed, 2 bad usage (one line on stderr, checked in full before a GPU is
 * opened or anything is written), 3 no usable GPU, 128 + N interrupted by
 * signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP, ...: results measured until
 * then are written, marked "interrupted").
 */
#include "cli/actions.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/help.h"
#include "cli/gpus_here.h"
#include "cli/registry.h"
#include "compare/compare.h"
#include "doc/atomic_file.h"
#include "doc/json_import.h"
#include "doc/json_read.h"
#include "doc/json_write.h"
#include "doc/rocmguide.h"
#include "engine/fault.h"
#include "engine/module.h"
#include "engine/report.h"
#include "output/summary.h"
#include "output/table.h"
#include "run/isolate.h"
#include "run/merge.h"
#include "run/runner.h"
#include "run/schedule.h"
#include "system/codecheck.h"
#include "system/kfd.h"
#include "system/modeplan.h"
#include "system/topology.h"
#include "util/text.h"
#include "util/util.h"

extern volatile sig_atomic_t hmb_signal_received;

/* Every signal whose default is to end the process and that can be caught:
 * each one leaves the document whole and no temporary file behind. */
static const int stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
};

static void on_signal(int sig)
{
	if (hmb_signal_received) {
		/* SIGPIPE again: stdout is still gone, the run is stopping anyway */
		if (sig == SIGPIPE)
			return;
		/* A second signal: stop now, leaving no temporary file behind. */
		hmb_json_discard_tmp();
		signal(sig, SIG_DFL);
		raise(sig);
	}
	hmb_signal_received = sig;
}

/* Before anything is written: a signal then only sets a flag, so a document
 * being written is finished (or its temporary file removed) before exit.
 * Where modules run in processes of their own, no SA_RESTART: waitpid must
 * return on a signal, to pass it on to the module running (isolate.c). A
 * signal ignored already (nohup: SIGHUP) stays ignored. */
static void install_signal_handlers(int restart)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = restart ? SA_RESTART : 0;
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		if (sigaction(stop_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(stop_signals[i], &sa, NULL);
}

void hmb_usage_error(const char *fmt, ...)
{
	char msg[1024], shown[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "hipmembench: %s (see hipmembench --help)\n",
		hmb_printable(msg, sizeof(msg), shown, sizeof(shown)));
	exit(EXIT_USAGE);
}

int hmb_finish_stdout(int status)
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
	const char *output = rep->opt->output;
	char err[512];

	hmb_where_read(rep->have_device ? rep->device.pci_bus_id : NULL, &rep->where);
	rep->have_where = 1;
	if (rep->opt->format == HMB_FORMAT_JSON && hmb_json_write(rep, "-", err, sizeof(err))) {
		fprintf(stderr, "hipmembench: %s\n", err);
		status = status ? status : EXIT_FAILED;
	}
	if (rep->opt->format == HMB_FORMAT_CSV)
		hmb_csv_print(stdout, rep->head, 1);
	if (output && strcmp(output, "-") != 0 && hmb_json_write(rep, output, err, sizeof(err))) {
		fprintf(stderr, "hipmembench: %s\n", err);
		status = status ? status : EXIT_FAILED;
	}
	return hmb_finish_stdout(status);
}

/* show DOC: a document's tables (or CSV), as the run that wrote it printed
 * them: `all` prints its tables from the modules' documents in the same way,
 * then its summary, which show prints too. */
int hmb_run_show(struct hmb_cli *cli)
{
	struct hmb_report rep;
	char err[1024];
	cJSON *doc;
	int of_all;

	if (!(doc = hmb_doc_load(cli->args[0], err, sizeof(err)))) {
		fprintf(stderr, "hipmembench: show: %s\n", err);
		return EXIT_USAGE;
	}
	of_all = !strcmp(hmb_json_str(doc, "command"), "all");
	hmb_report_init(&rep, &cli->opt, cli->command);
	rep.benches = hmb_benches;
	hmb_json_import_document(&rep, doc);
	if (cli->opt.format == HMB_FORMAT_CSV)
		hmb_csv_print(stdout, rep.head, 1);
	else
		hmb_table_print(stdout, &rep, rep.head, cli->opt.wide);
	hmb_report_free(&rep);
	if (of_all && cli->opt.format == HMB_FORMAT_TABLE && !cli->opt.wide) {
		putchar('\n');
		fflush(stdout);
		(void)hmb_summary_of_doc_print(stdout, doc, cli->args[0], hmb_benches);
	}
	cJSON_Delete(doc);
	return hmb_finish_stdout(0);
}

/* all: the summary goes into the document and, after the tables, to stdout
 * (summary.h). */
static int emit_with_summary(struct hmb_report *rep, const struct hmb_cli *cli, int status)
{
	struct hmb_summary_run *sum = cli->kind == HMB_CMD_ALL ? hmb_summary_of_run(rep) : NULL;

	if (rep->opt->format == HMB_FORMAT_TABLE)
		hmb_summary_of_run_print(stdout, sum);
	status = emit(rep, status);
	hmb_summary_of_run_free(rep, sum);
	return status;
}

/* A signal that came before the end: the document says so. */
static int interrupted_status(struct hmb_report *rep, int status)
{
	if (!hmb_interrupted())
		return status;
	rep->interrupted = 1;
	rep->complete = 0;
	fprintf(stderr, "hipmembench: interrupted by signal %d; results so far are kept\n",
		(int)hmb_signal_received);
	return 128 + (int)hmb_signal_received;
}

/* The runs `all` makes of module b on GPU `device` (modeplan.h). On AMD the
 * plan needs the GPU's arch before the module runs: from an earlier
 * module's document, else the KFD topology where every GPU is of one kind.
 * On NVIDIA one plain run, as ever. */
static void plan_module(const struct hmb_bench *b, const struct hmb_report *rep, int device,
			struct hmb_mode_plan *p)
{
	struct hmb_mode_inputs in = { HMB_VENDOR_NVIDIA, NULL, hmb_build_archs(),
				      getenv("HSA_XNACK"), getenv("HIP_HOST_COHERENT"), 0 };
#if !defined(HMB_PLATFORM_NVIDIA)
	char arch[256];

	in.vendor = HMB_VENDOR_AMD;
	if (hmb_report_device_arch(rep, device, arch, sizeof(arch)) == 0 ||
	    hmb_kfd_common_arch(NULL, arch, sizeof(arch)) == 0)
		in.arch = arch;
	if (strcmp(b->name, "memcpy") == 0)
		in.host_coherent_kinds = hmb_host_coherent_kinds(NULL, 0);
#else
	(void)rep;
	(void)device;
#endif
	hmb_mode_plan(b->name, &in, p);
}

/* How many processes module b runs in: --runs N, else in `all` the module's
 * own count (hmb_bench.all_runs) where it asks for more than the default. */
static int runs_of(const struct hmb_bench *b, const struct hmb_options *o)
{
	int n = o->runs > 1 ? o->runs : 1;

	return o->runs_by_module && b->all_runs > n ? b->all_runs : n;
}

/* --dry-run: the modules that would run, with their settings; no GPU. The
 * plan goes to stdout only where stdout is the table. */
static int dry_run(struct hmb_report *rep, const struct hmb_cli *cli)
{
	const struct hmb_options *o = rep->opt;
	FILE *out = o->format == HMB_FORMAT_TABLE ? stdout : stderr;
	int status;

	fprintf(out, "plan (dry run, no GPU opened): device %d, sizes ", o->device);
	for (size_t i = 0; i < o->sizes.n; i++)
		fprintf(out, "%s%s", i ? "," : "", hmb_sz(o->sizes.v[i]));
	if (o->reps)
		fprintf(out, "%s, reps %d", o->sizes.n ? "" : "module defaults", o->reps);
	else
		fprintf(out, "%s, reps module defaults", o->sizes.n ? "" : "module defaults");
	if (o->warmup >= 0)
		fprintf(out, ", warmup %d%s", o->warmup, o->quick ? ", quick" : "");
	else
		fprintf(out, ", warmup module defaults%s", o->quick ? ", quick" : "");
	if (o->runs > 1)
		fprintf(out, ", each module %d times%s, each in a process of its own", o->runs,
			o->runs_by_module ? " or more (below)" : "");
	if (o->devices)
		fprintf(out, ", GPUs %s (--together %s)", hmb_shown(o->devices),
			hmb_together_name(o->together));
	fputc('\n', out);
	for (int i = 0; hmb_benches[i]; i++) {
		const struct hmb_bench *b = hmb_benches[i];
		struct hmb_ctx ctx = { .opt = o, .bench = b };
		int n = 0, of = 0;
		if (cli->kind == HMB_CMD_INFO || !(cli->kind == HMB_CMD_ALL || b == cli->bench) ||
		    !hmb_bench_selected(b, o))
			continue;
		hmb_report_add_module(rep, b->name);
		if (runs_of(b, o) > (o->runs > 1 ? o->runs : 1))
			fprintf(out, "  would run %-8s %d times: %s\n", b->name, runs_of(b, o),
				b->summary);
		else
			fprintf(out, "  would run %-8s %s\n", b->name, b->summary);
		/* --case: the cases of the module that it selects */
		for (int k = 0; o->ncases && b->cases && b->cases[k]; k++)
			of++;
		for (int k = 0; of && b->cases[k]; k++)
			if (hmb_selected(&ctx, b->cases[k]))
				fprintf(out, "%s%s", n++ ? ", " : "    cases: ", b->cases[k]);
		if (n)
			fprintf(out, " (%d of %d)\n", n, of);
		if (cli->kind == HMB_CMD_ALL && !o->no_isolation) {
			struct hmb_mode_plan plan;
			plan_module(b, rep, o->device, &plan);
			hmb_mode_plan_print(out, &plan);
		}
	}
	for (int i = 0; i < o->nvalues; i++)
		fprintf(out, "  option --%s %s\n", o->value_name[i], o->value[i]);
	rep->complete = 1;
	status = emit(rep, interrupted_status(rep, 0));
	hmb_report_free(rep);
	return status;
}

/* Read the device's link from the management library where sysfs had none. */
static void link_from_telemetry(struct hmb_report *rep)
{
	struct hmb_gpu_sample *s;

	if (rep->device.link.peak_gbps > 0 ||
	    !(s = hmb_telemetry_sample(&rep->telemetry, "start", "now")))
		return;
	hmb_link_from_generation(&rep->device.link, s->link_gen, s->link_width, s->link_max_gen,
				 s->link_max_width, rep->telemetry.source);
}

/* The GPUs that --devices names (all: every visible one); 0 without it. */
static int device_list(const struct hmb_options *o, int *out, int max)
{
	int n = 0;

	if (!o->devices)
		return 0;
	if (strcmp(o->devices, "all") != 0)
		return hmb_parse_device_list(o->devices, out, max);
	if (hipGetDeviceCount(&n) != hipSuccess || n < 1)
		return 0; /* the module's own process says why there is no GPU */
	for (int i = 0; i < n && i < max; i++)
		out[i] = i;
	return n < max ? n : max;
}

/* Which GPUs run a module together (run/schedule.h): read without opening a
 * GPU (bus ids, sysfs); NULL where the runtime sees none. */
static struct hmb_topology *host_topology(int ndev)
{
	struct hmb_topology *t;

	if (ndev < 2 || !(t = calloc(1, sizeof(*t))))
		return NULL;
	if (hmb_topology_gpus(t, NULL) != 0) {
		free(t);
		return NULL;
	}
	return t;
}

/* The slots of a module's runs: the record before each one's first run;
 * base[i], where module i's slots start (SIZE_MAX: not run yet). */
struct slots {
	struct hmb_record **before;
	size_t n, next;
	size_t base[HMB_MAX_BENCHES];
};

static struct hmb_record **slot_at(struct slots *s, size_t i, int first_round)
{
	if (first_round && i >= s->n) {
		s->before = hmb_xrealloc(s->before, (i + 1) * sizeof(*s->before));
		s->before[i] = NULL;
		s->n = i + 1;
	}
	return i < s->n ? &s->before[i] : NULL;
}

/* A module on every GPU of devices[0..ndev): its waves, one after another,
 * each wave's GPUs at once, every mode of its plan in turn. EXIT_NO_GPU or
 * EXIT_USAGE where a process said so (the run stops), else 0. */
static int run_on_devices(const struct hmb_bench *b, struct hmb_report *rep,
			  const struct hmb_cmdline *base, const struct hmb_topology *topo,
			  const int *devices, int ndev, struct slots *slots, int k, int nruns)
{
	struct hmb_mode_plan plan[HMB_SCHED_MAX];
	struct hmb_waves w;
	struct hmb_cmdline cl[HMB_SCHED_MAX];
	char beside[HMB_SCHED_MAX][64], shared[HMB_SCHED_MAX][64];
	int codes[HMB_SCHED_MAX], same = 1, stop = 0;

	for (int d = 0; d < ndev; d++) {
		plan_module(b, rep, devices[d] >= 0 ? devices[d] : rep->opt->device, &plan[d]);
		same &= plan[d].n == plan[0].n;
	}
	/* GPUs whose modes differ (AMD archs of a kind): one after another */
	hmb_waves_plan(topo, devices, ndev, b->host_link,
		       same ? rep->opt->together : HMB_TOGETHER_NONE, &w);
	for (int m = 0; m < plan[0].n && !stop && !hmb_interrupted(); m++)
		for (int v = 0; v < w.n && !stop && !hmb_interrupted(); v++) {
			struct hmb_record *before[HMB_SCHED_MAX];
			size_t first = slots->next;
			int n = w.size[v];

			/* a module the first round did not reach is not run again */
			if (!slot_at(slots, first + (size_t)n - 1, k == 0))
				return 0;
			if (nruns > 1 && m == 0 && v == 0)
				fprintf(stderr, "[%s] run %d of %d\n", b->name, k + 1, nruns);
			if (n > 1)
				fprintf(stderr, "[%s] GPUs %s at once\n", b->name,
					hmb_waves_beside(&w, v, -1, 0, beside[0], sizeof(beside[0])));
			for (int i = 0; i < n; i++) {
				int d = w.at[v][i];
				cl[i] = *base;
				cl[i].device = w.gpu[v][i];
				cl[i].beside = n > 1 ? hmb_waves_beside(&w, v, i, 0, beside[i],
									 sizeof(beside[i])) : NULL;
				/* the named reason a host figure may read low */
				cl[i].host_shared = b->host_link && n > 1 ?
					hmb_waves_beside(&w, v, i, 1, shared[i], sizeof(shared[i])) : NULL;
				cl[i].mode = plan[d].run[m].var ? &plan[d].run[m] : NULL;
				cl[i].plan_note = m == 0 ? plan[d].note : NULL;
				before[i] = slots->before[first + (size_t)i];
			}
			if (m == 0 && v == 0 && plan[0].note[0])
				fprintf(stderr, "[%s] %s\n", b->name, plan[0].note);
			if (plan[0].run[m].var && plan[0].n > 1 && v == 0) {
				char text[96];
				hmb_mode_run_text(&plan[0].run[m], text, sizeof(text));
				fprintf(stderr, "[%s] run %d of %d: %s\n", b->name, m + 1, plan[0].n,
					text);
				if (rep->opt->format == HMB_FORMAT_TABLE)
					fprintf(stdout, "\n%s with %s:\n", b->name, text);
				fflush(stdout);
			}
			hmb_run_wave(b, rep, cl, n, before, k == 0, codes);
			for (int i = 0; i < n; i++) {
				slots->before[first + (size_t)i] = before[i];
				if (codes[i] == EXIT_NO_GPU || codes[i] == EXIT_USAGE)
					stop = codes[i];
			}
			slots->next = first + (size_t)n;
		}
	return stop;
}

/* Is module b one that this command runs? */
static int runs_here(const struct hmb_bench *b, const struct hmb_cli *cli,
		     const struct hmb_options *o)
{
	return (cli->kind != HMB_CMD_MODULE || b == cli->bench) && hmb_bench_selected(b, o);
}

/* all (or one module with --devices or --runs), each module in a process of
 * its own (isolate.c); with --devices on each GPU, GPUs that share nothing a
 * module uses at the same time (--together, run/schedule.h), node-level
 * modules once; with several runs (--runs; `all`: each module's own count,
 * two or more) the modules again in rounds, every other round in the reverse
 * order, so that a module's runs lie apart in time, its first and last as
 * far apart as the rounds allow, and a state of the machine that lasts a
 * module's run, or drifts over the document, shows as runs that disagree
 * (runs.c). This process never opens the GPU. */
static int run_isolated(struct hmb_report *rep, const struct hmb_cli *cli)
{
	struct hmb_cmdline cl = { cli->opt.argc, cli->opt.argv, cli->command_index, -1, 0, NULL,
				  NULL, 0, 0, NULL, 0, NULL, NULL };
	int devices[HMB_SCHED_MAX], ndev = device_list(rep->opt, devices, HMB_SCHED_MAX);
	int nruns = 1, nbench = 0, status = 0;
	struct hmb_topology *topo = host_topology(ndev);
	/* each module run's place: the record before its first run's records */
	struct slots slots = { NULL, 0, 0, { 0 } };

	for (nbench = 0; hmb_benches[nbench]; nbench++) {
		slots.base[nbench] = SIZE_MAX;
		if (runs_here(hmb_benches[nbench], cli, rep->opt) &&
		    runs_of(hmb_benches[nbench], rep->opt) > nruns)
			nruns = runs_of(hmb_benches[nbench], rep->opt);
	}
	cl.tag_device = ndev > 1;
	cl.parent_table = nruns > 1 && rep->opt->format == HMB_FORMAT_TABLE;
	if (ndev > 1) {
		struct hmb_sched_module mods[32];
		int nmods = 0;
		for (int i = 0; hmb_benches[i] && nmods < 32; i++)
			if (runs_here(hmb_benches[i], cli, rep->opt))
				mods[nmods++] = (struct hmb_sched_module){
					hmb_benches[i]->name, hmb_benches[i]->host_link,
					hmb_benches[i]->node_level, -1 };
		hmb_schedule_print(stderr, topo, devices, ndev,
				   rep->opt->together, mods, nmods);
	}
	for (int k = 0; k < nruns && !hmb_interrupted(); k++) {
		for (int j = 0; j < nbench && !hmb_interrupted(); j++) {
			int i = k % 2 ? nbench - 1 - j : j, runs, code = 0;
			const struct hmb_bench *b = hmb_benches[i];
			if (!runs_here(b, cli, rep->opt) || k >= (runs = runs_of(b, rep->opt)))
				continue;
			/* a module the first round did not reach is not run again */
			if (k == 0)
				slots.base[i] = slots.next;
			else if (slots.base[i] == SIZE_MAX)
				continue;
			slots.next = slots.base[i];
			cl.run = runs > 1 ? k + 1 : 0;
			cl.runs = runs;
			if (b->node_level || ndev == 0) {
				static const int here = -1;
				code = run_on_devices(b, rep, &cl, NULL, &here, 1, &slots, k, runs);
			} else {
				code = run_on_devices(b, rep, &cl, topo, devices, ndev, &slots, k,
						      runs);
			}
			if (code == EXIT_NO_GPU || code == EXIT_USAGE) {
				free(slots.before);
				free(topo);
				/* incomplete; a command refused before anything was
				 * measured leaves no document */
				if (code == EXIT_NO_GPU || rep->head)
					status = emit(rep, code);
				hmb_report_free(rep);
				return code;
			}
		}
	}
	free(slots.before);
	free(topo);
	/* several runs: the tables once, of the merged records */
	if (cl.parent_table && rep->head) {
		hmb_table_print(stdout, rep, rep->head, rep->opt->wide);
		fflush(stdout);
	}
	/* xnack and managed records against the ROCm guide's table (rocmguide.h):
	 * only records that carry the XNACK mode they ran in (AMD) */
	hmb_guide_check_report(rep, stderr);
	if (!hmb_interrupted()) {
		rep->complete = 1;
		if (hmb_report_failures(rep)) {
			fprintf(stderr, "hipmembench: %zu case(s) failed; see their reason\n",
				hmb_report_failures(rep));
			status = EXIT_FAILED;
		}
	}
	status = emit_with_summary(rep, cli, interrupted_status(rep, status));
	hmb_report_free(rep);
	return status;
}

/* info, all and the modules. */
int hmb_run_measure(struct hmb_cli *cli)
{
	struct hmb_options *o = &cli->opt;
	struct hmb_report rep;
	char err[512];
	int status = 0, info = cli->kind == HMB_CMD_INFO;
	int isolated = !o->dry_run && !o->child_output &&
		       ((cli->kind == HMB_CMD_ALL && !o->no_isolation) ||
			(cli->kind == HMB_CMD_MODULE && (o->devices || o->runs > 1)));

	install_signal_handlers(!isolated);
	if (hmb_fault_init(err, sizeof(err)) != 0)
		hmb_usage_error("%s", err);
	/* a dry run checks a batch job's settings where its GPUs may not be */
	if (!o->dry_run && !o->child_output && hmb_gpus_here_check(o, err, sizeof(err)) != 0)
		hmb_usage_error("%s", err);
	if (o->output && hmb_output_writable(o->output, err, sizeof(err)) != 0)
		hmb_usage_error("%s", err);
	if (o->child_output) {
		/* a module of `all` in its own process: its document goes to the
		 * parent's file only; the parent prints JSON and CSV */
		o->output = o->child_output;
		if (o->format != HMB_FORMAT_TABLE || !o->child_table)
			o->format = HMB_FORMAT_NONE;
	}
	hmb_report_init(&rep, o, cli->command);
	rep.benches = hmb_benches;
	if (o->dry_run)
		return dry_run(&rep, cli);
	if (isolated)
		return run_isolated(&rep, cli);
	if (hmb_device_open(o->device, &rep.device, err, sizeof(err)) != 0) {
		if (info && o->format == HMB_FORMAT_TABLE)
			hmb_info_print(stdout, &rep);
		fprintf(stderr, "hipmembench: %s\n", err);
		emit(&rep, EXIT_NO_GPU); /* incomplete: nothing was measured */
		return EXIT_NO_GPU;
	}
	rep.have_device = 1;
	hmb_telemetry_open(&rep.telemetry, rep.device.pci_bus_id);
	link_from_telemetry(&rep);
	hmb_device_interpret(&rep.device, o->peak_gbps); /* the link known now; --peak-gbps */
	if (info) {
		hmb_telemetry_sample(&rep.telemetry, "info", "now");
		if (o->format == HMB_FORMAT_TABLE)
			hmb_info_print(stdout, &rep);
		rep.complete = 1;
	}
	for (int i = 0; !info && hmb_benches[i] && !hmb_interrupted(); i++)
		if (cli->kind == HMB_CMD_ALL || hmb_benches[i] == cli->bench)
			hmb_run_module(hmb_benches[i], &rep);
	if (!info && !hmb_interrupted()) {
		rep.complete = 1;
		if (hmb_report_failures(&rep)) {
			fprintf(stderr, "hipmembench: %zu case(s) failed; see their reason\n",
				hmb_report_failures(&rep));
			status = EXIT_FAILED;
		}
	}
	status = emit_with_summary(&rep, cli, interrupted_status(&rep, status));
	hmb_telemetry_close(&rep.telemetry);
	hmb_report_free(&rep);
	/* This process's GPU context ends here, not at exit: what is still
	 * allocated then is a leak a checker can name (compute-sanitizer). */
	(void)hipDeviceReset();
	return status;
}


int hmb_run_help(struct hmb_cli *cli)
{
	hmb_help_print(stdout, cli->help_topic, hmb_benches);
	return hmb_finish_stdout(0);
}

/* list [--cases]: the modules, or every case each one can record. */
int hmb_run_list(struct hmb_cli *cli)
{
	for (int i = 0; hmb_benches[i]; i++) {
		const struct hmb_bench *b = hmb_benches[i];
		if (!cli->list_cases)
			printf("%-10s %s\n", b->name, b->summary);
		for (int k = 0; cli->list_cases && b->cases && b->cases[k]; k++)
			printf("%-10s %-11s %s\n", b->name,
			       hmb_on_request(b, b->cases[k]) ? "on-request" : "", b->cases[k]);
	}
	return hmb_finish_stdout(0);
}

int hmb_run_compare(struct hmb_cli *cli)
{
	struct hmb_compare_options co = { cli->opt.format, cli->opt.threshold, cli->opt.compare_gpu,
					  cli->opt.allow_partial, cli->opt.wide, hmb_benches };

	return hmb_finish_stdout(hmb_compare(cli->nargs, cli->args, &co));
}

int hmb_run_merge(struct hmb_cli *cli)
{
	return hmb_finish_stdout(hmb_merge_command(cli->nargs, cli->args, &cli->opt,
						   cli->opt.output));
}

int hmb_run_summary(struct hmb_cli *cli)
{
	/* the report's verdicts are compare's own */
	return hmb_finish_stdout(hmb_summary_command(cli->nargs, cli->args, hmb_benches,
						     cli->opt.format, cli->opt.compare_gpu,
						     cli->opt.output, hmb_compare_summary_verdicts));
}
