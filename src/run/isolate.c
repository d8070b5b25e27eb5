/*
 * isolate.c - `all` runs every module in a process of its own.
 *
 * What a module leaves behind in the runtime (memory it did not free,
 * buffers attached to a stream, a pool's release threshold, managed
 * registrations, a sticky error) dies with its process, so no module can
 * change the next one's figures. This process never opens the GPU: it
 * starts the binary again for each module with the same options and
 * HMB_CHILD_OUTPUT=PID:FILE in its environment (cli/cli.c), waits for it,
 * and takes its document into the report (records, telemetry, the device).
 * A signal is passed on to the module running, whose results so far are
 * kept; a module whose process dies is a failed record naming the signal.
 * The order of the modules, each one's
 * wall time and exit status go into the document (module_runs). Where a
 * module runs once per mode (modeplan.h: HSA_XNACK=1 and 0 on AMD), the
 * child alone gets the variable; its records carry the value as a param
 * (params.hsa_xnack) and its module_runs entry the environment it ran in.
 * With several runs (--runs N; `all`: 2) each module runs N times, each run's
 * records merged into the first's (runs.c), each run told it is one of N
 * (HMB_CHILD_RUNS), and the tables printed once, by this process.
 */
#include "run/isolate.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doc/json_import.h"
#include "output/table.h"
#include "run/checkpoint.h"
#include "engine/judge.h"
#include "run/runs.h"
#include "system/codecheck.h"
#include "util/child_env.h"
#include "util/timing.h"
#include "util/util.h"

extern volatile sig_atomic_t hmb_signal_received;

/* The binary itself: /proc/self/exe where Linux has it, else argv[0]. */
static const char *self_path(const char *argv0)
{
	static char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		return buf;
	}
	return argv0;
}

/* Wait for the child; pass a signal received meanwhile on to it, once. */
static int wait_child(pid_t pid, int *wstatus)
{
	int forwarded = 0;
	for (;;) {
		pid_t w = waitpid(pid, wstatus, 0);
		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return -1;
		if (hmb_signal_received && !forwarded) {
			kill(pid, (int)hmb_signal_received);
			forwarded = 1;
		}
	}
}

static void failed_module(struct hmb_report *rep, const char *module, const char *why)
{
	struct hmb_record *r = hmb_record_new(module, "module");
	hmb_record_status(r, HMB_FAILED, "%s", why);
	hmb_report_add(rep, r);
	fprintf(stderr, "[%s] module: failed: %s\n", module, why);
}

int hmb_run_isolated(const struct hmb_bench *b, struct hmb_report *rep,
		     const struct hmb_cmdline *cl)
{
	char tmpl[] = "/tmp/hipmembench-module-XXXXXX";
	char err[512], device[16], where[sizeof(tmpl) + 24], why[1024], hint[512];
	struct hmb_record *before = rep->tail;
	char **argv;
	int fd, wstatus = 0, code = -1, n = 0;
	double t0 = hmb_now();
	pid_t pid;

	fd = mkstemp(tmpl);
	if (fd < 0) {
		fprintf(stderr, "hipmembench: cannot create a temporary file in /tmp: %s\n",
			strerror(errno));
		return 1;
	}
	close(fd);
	/* argv: the binary, the options as given, then --device N where one GPU
	 * of several is meant, then the module */
	argv = hmb_xcalloc((size_t)cl->argc + 6, sizeof(*argv));
	argv[n++] = (char *)self_path(cl->argv[0]);
	for (int i = 1; i < cl->argc && i < cl->command_index; i++)
		argv[n++] = cl->argv[i];
	if (cl->device >= 0) {
		snprintf(device, sizeof(device), "%d", cl->device);
		argv[n++] = "--device";
		argv[n++] = device;
	}
	argv[n++] = (char *)b->name;
	for (int i = cl->command_index + 1; i < cl->argc; i++)
		argv[n++] = cl->argv[i];
	argv[n] = NULL;

	fflush(stdout);
	fflush(stderr);
	snprintf(where, sizeof(where), "%ld:%s", (long)getpid(), tmpl);
	setenv(HMB_CHILD_OUTPUT_ENV, where, 1);
	pid = fork();
	if (pid == 0) {
		/* this process is single-threaded (it never opens the GPU) */
		if (cl->mode && cl->mode->var && cl->mode->set)
			setenv(cl->mode->var, cl->mode->value, 1);
		/* the parent prints the tables after the last run; that run's
		 * module prints what it prints beside them (node's matrices) */
		if (cl->parent_table && cl->run < cl->runs)
			setenv(HMB_CHILD_TABLE_ENV, "0", 1);
		if (cl->run && cl->runs > 1) {
			char runs[16];
			snprintf(runs, sizeof(runs), "%d", cl->runs);
			setenv(HMB_CHILD_RUNS_ENV, runs, 1);
		}
		execv(argv[0], argv);
		fprintf(stderr, "hipmembench: cannot start %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free(argv);
	unsetenv(HMB_CHILD_OUTPUT_ENV);
	if (pid < 0 || wait_child(pid, &wstatus) != 0) {
		fprintf(stderr, "hipmembench: cannot run module %s: %s\n", b->name, strerror(errno));
		unlink(tmpl);
		return 1;
	}
	if (WIFEXITED(wstatus))
		code = WEXITSTATUS(wstatus);
	/* exit 2 (usage) and 3 (no GPU): the child said why; the run stops */
	if (hmb_json_import(rep, tmpl, err, sizeof(err)) != 0 && code != 2 && code != 3 &&
	    !WIFSIGNALED(wstatus)) {
		snprintf(why, sizeof(why), "its process left no document (exit status %d)", code);
		failed_module(rep, b->name, why);
	}
	if (WIFSIGNALED(wstatus) && !hmb_signal_received) {
		const int sig = WTERMSIG(wstatus);
		size_t used = (size_t)snprintf(why, sizeof(why), "its process was killed by signal "
					       "%d (%s)", sig, strsignal(sig));
		/* HIP may abort where it finds no code object it can load */
		if (sig == SIGABRT && hmb_code_mode_hint(hmb_build_archs(), hint, sizeof(hint)))
			snprintf(why + used, sizeof(why) - used, "; %s", hint);
		failed_module(rep, b->name, why);
	}
	for (struct hmb_record *r = before ? before->next : rep->head; r; r = r->next) {
		if (cl->tag_device && cl->device >= 0)
			hmb_param_num(r, "device", cl->device);
		if (cl->mode && cl->mode->var)
			hmb_param_str(r, cl->mode->param, cl->mode->value);
	}
	unlink(tmpl);
	if (cl->run) {
		hmb_runs_merge(rep, cl->run_before, before, cl->run);
		hmb_report_judge_resolution(rep);
	}
	/* the module's table, from its document as `show` reads it, GPU tagged
	 * (several runs: once, after the last run, by cli/actions.c) */
	if (!cl->run && rep->opt->format == HMB_FORMAT_TABLE && (before ? before->next : rep->head)) {
		hmb_table_print(stdout, before ? before->next : rep->head, rep->opt->wide);
		fflush(stdout);
	}
	hmb_report_add_module(rep, b->name);
	hmb_report_module_run(rep, b->name, hmb_now() - t0,
			      WIFEXITED(wstatus) ? code : 128 + WTERMSIG(wstatus),
			      b->node_level ? -1 : cl->device >= 0 ? cl->device : rep->opt->device);
	if (cl->mode && cl->mode->var)
		hmb_report_module_run_env(rep, cl->mode->var, cl->mode->value, cl->mode->set);
	if (cl->plan_note && *cl->plan_note)
		hmb_report_module_run_note(rep, cl->plan_note);
	if (cl->run)
		rep->runs[rep->nruns - 1].run = cl->run;
	hmb_checkpoint(rep, 1);
	return WIFEXITED(wstatus) ? code : 128 + WTERMSIG(wstatus);
}
