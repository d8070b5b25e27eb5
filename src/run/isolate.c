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
 * A signal is passed on to the modules running, whose results so far are
 * kept; a module whose process dies is a failed record naming the signal.
 * The order of the modules, each one's
 * wall time and exit status go into the document (module_runs). Where a
 * module runs once per mode (modeplan.h: HSA_XNACK=1 and 0 on AMD), the
 * child alone gets the variable; its records carry the value as a param
 * (params.hsa_xnack) and its module_runs entry the environment it ran in.
 * With several runs (--runs N; `all`: 2) each module runs N times, each run's
 * records merged into the first's (runs.c), each run told it is one of N
 * (HMB_CHILD_RUNS), and the tables printed once, by this process.
 * With --devices, a module's processes for several GPUs may run at the same
 * time (run/schedule.h): each is started, all are waited for, and their
 * documents are taken in --devices order; each record names the GPUs that
 * ran beside it (observed.ran_beside_gpus) and, where those share its way to
 * the host while it moved data over it, those (host_link_shared_with_gpus).
 */
#include "run/isolate.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doc/atomic_file.h"
#include "doc/json_import.h"
#include "output/table.h"
#include "run/checkpoint.h"
#include "engine/judge.h"
#include "run/runs.h"
#include "run/schedule.h"
#include "system/codecheck.h"
#include "util/child_env.h"
#include "util/timing.h"
#include "util/util.h"

extern volatile sig_atomic_t hmb_signal_received;
extern char **environ;

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

/* A module's process: started, then reaped, then its document taken. */
struct hmb_child {
	pid_t pid;                       /* -1: not started */
	char tmpl[512];                  /* where its document goes; "" none */
	double t0, t1;                   /* started, reaped (hmb_now) */
	int reaped, wstatus;
};

/* The module processes running now: a signal received goes on to each, once. */
static struct hmb_child *running[HMB_SCHED_MAX];
static int nrunning;

static void forward_signal(int *forwarded)
{
	if (!hmb_signal_received || *forwarded)
		return;
	for (int i = 0; i < nrunning; i++)
		if (running[i]->pid > 0 && !running[i]->reaped)
			kill(running[i]->pid, (int)hmb_signal_received);
	*forwarded = 1;
}

static void hmb_children_wait(struct hmb_child *c, int n)
{
	int forwarded = 0, left = 0, wstatus;

	nrunning = 0;
	for (int i = 0; i < n && nrunning < HMB_SCHED_MAX; i++)
		if (c[i].pid > 0 && !c[i].reaped) {
			running[nrunning++] = &c[i];
			left++;
		}
	while (left > 0) {
		pid_t w = waitpid(-1, &wstatus, 0);
		if (w < 0 && errno == EINTR) {
			forward_signal(&forwarded);
			continue;
		}
		if (w < 0)
			break; /* no child left that is ours: each not reaped says so */
		for (int i = 0; i < nrunning; i++)
			if (running[i]->pid == w && !running[i]->reaped) {
				running[i]->reaped = 1;
				running[i]->wstatus = wstatus;
				running[i]->t1 = hmb_now();
				left--;
			}
		forward_signal(&forwarded);
	}
	nrunning = 0;
}

/* "KEY=value", allocated. */
static char *env_entry(const char *key, const char *value)
{
	size_t len = strlen(key) + strlen(value) + 2;
	char *e = hmb_xcalloc(len, 1);
	snprintf(e, len, "%s=%s", key, value);
	return e;
}

/* The module process's environment: this one's, with what `all` tells the
 * module (util/child_env.h) and its mode's variable in place of any such
 * entry; made before fork, so that the child calls nothing but execve. */
static char **child_environ(const struct hmb_cmdline *cl, const char *where)
{
	char *set[8], runs[16], **envp;
	size_t nset = 0, n = 0, count = 0;

	set[nset++] = env_entry(HMB_CHILD_OUTPUT_ENV, where);
	if (cl->mode && cl->mode->var && cl->mode->set)
		set[nset++] = env_entry(cl->mode->var, cl->mode->value);
	/* the parent prints the tables after the last run; that run's module
	 * prints what it prints beside them (node's matrices) */
	if (cl->parent_table && cl->run < cl->runs)
		set[nset++] = env_entry(HMB_CHILD_TABLE_ENV, "0");
	if (cl->run && cl->runs > 1) {
		snprintf(runs, sizeof(runs), "%d", cl->runs);
		set[nset++] = env_entry(HMB_CHILD_RUNS_ENV, runs);
	}
	if (cl->beside && *cl->beside)
		set[nset++] = env_entry(HMB_CHILD_BESIDE_ENV, cl->beside);
	while (environ[count])
		count++;
	envp = hmb_xcalloc(count + nset + 1, sizeof(*envp));
	for (size_t i = 0; i < count; i++) {
		int replaced = 0;
		for (size_t k = 0; k < nset; k++) {
			size_t key = (size_t)(strchr(set[k], '=') - set[k]);
			replaced |= strncmp(environ[i], set[k], key + 1) == 0;
		}
		if (!replaced)
			envp[n++] = hmb_xstrdup(environ[i]);
	}
	for (size_t k = 0; k < nset; k++)
		envp[n++] = set[k];
	envp[n] = NULL;
	return envp;
}

static void free_environ(char **envp)
{
	for (size_t i = 0; envp[i]; i++)
		free(envp[i]);
	free(envp);
}

static void failed_module(struct hmb_report *rep, const char *module, const char *why)
{
	struct hmb_record *r = hmb_record_new(module, "module");
	hmb_record_status(r, HMB_FAILED, "%s", why);
	hmb_report_add(rep, r);
	fprintf(stderr, "[%s] module: failed: %s\n", module, why);
}

static int hmb_child_start(const struct hmb_bench *b, const struct hmb_cmdline *cl,
		    struct hmb_child *c)
{
	char device[16], where[sizeof(c->tmpl) + 24];
	const char *tmpdir;
	char **argv, **envp;
	int fd, n = 0;

	memset(c, 0, sizeof(*c));
	c->pid = -1;
	/* in $TMPDIR, as a batch system sets it for a job; else /tmp */
	tmpdir = getenv("TMPDIR");
	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	if ((size_t)snprintf(c->tmpl, sizeof(c->tmpl), "%s/hipmembench-module-XXXXXX", tmpdir) >=
	    sizeof(c->tmpl))
		fd = -1, errno = ENAMETOOLONG;
	else
		fd = mkstemp(c->tmpl);
	if (fd < 0) {
		fprintf(stderr, "hipmembench: cannot create a temporary file in %s: %s\n", tmpdir,
			strerror(errno));
		c->tmpl[0] = '\0';
		return -1;
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

	snprintf(where, sizeof(where), "%ld:%s", (long)getpid(), c->tmpl);
	envp = child_environ(cl, where);
	fflush(stdout);
	fflush(stderr);
	c->t0 = hmb_now();
	c->pid = fork();
	if (c->pid == 0) {
		/* nothing but execve here: the runtime may run threads in this
		 * process (it was asked which GPUs there are) */
		execve(argv[0], argv, envp);
		fprintf(stderr, "hipmembench: cannot start %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free(argv);
	free_environ(envp);
	if (c->pid < 0) {
		fprintf(stderr, "hipmembench: cannot run module %s: %s\n", b->name, strerror(errno));
		unlink(c->tmpl);
		c->tmpl[0] = '\0';
		return -1;
	}
	return 0;
}

static int hmb_child_take(const struct hmb_bench *b, struct hmb_report *rep,
		   const struct hmb_cmdline *cl, struct hmb_child *c)
{
	char err[512], why[1024], hint[512];
	struct hmb_record *before = rep->tail;
	int wstatus = c->wstatus, code = -1;

	if (!c->reaped) {
		fprintf(stderr, "hipmembench: cannot run module %s: its process was not seen to "
			"end\n", b->name);
		if (c->tmpl[0])
			unlink(c->tmpl);
		return 1;
	}
	if (WIFEXITED(wstatus))
		code = WEXITSTATUS(wstatus);
	/* exit 2 (usage) and 3 (no GPU): the child said why; the run stops */
	if (hmb_json_import(rep, c->tmpl, err, sizeof(err)) != 0 && code != 2 && code != 3 &&
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
			hmb_param_gpu(r, HMB_PARAM_DEVICE, cl->device);
		if (cl->mode && cl->mode->var)
			hmb_param_str(r, cl->mode->param, cl->mode->value);
		/* an observation, not an identity: the figure is compared with the
		 * same figure measured alone */
		if (cl->beside && *cl->beside)
			hmb_observe_str(r, "ran_beside_gpus", cl->beside);
		/* the named reason its host figures may read lower than alone */
		if (cl->host_shared && *cl->host_shared)
			hmb_observe_str(r, "host_link_shared_with_gpus", cl->host_shared);
	}
	unlink(c->tmpl);
	/* and what a process killed while it wrote left: PATH.tmp.PID.XXXXXX */
	hmb_remove_stale_temporaries(c->tmpl);
	c->tmpl[0] = '\0';
	if (cl->run) {
		hmb_runs_merge(rep, cl->run_before, before, cl->run);
		hmb_report_judge_resolution(rep);
	}
	/* the module's table, from its document as `show` reads it, GPU tagged
	 * (several runs: once, after the last run, by cli/actions.c) */
	if (!cl->run && rep->opt->format == HMB_FORMAT_TABLE && (before ? before->next : rep->head)) {
		hmb_table_print(stdout, rep, before ? before->next : rep->head, rep->opt->wide);
		fflush(stdout);
	}
	hmb_report_add_module(rep, b->name);
	hmb_report_module_run(rep, b->name, c->t1 - c->t0,
			      WIFEXITED(wstatus) ? code : 128 + WTERMSIG(wstatus),
			      b->node_level ? -1 : cl->device >= 0 ? cl->device : rep->opt->device);
	if (cl->mode && cl->mode->var)
		hmb_report_module_run_env(rep, cl->mode->var, cl->mode->value, cl->mode->set);
	if (cl->plan_note && *cl->plan_note)
		hmb_report_module_run_note(rep, cl->plan_note);
	if (cl->beside && *cl->beside)
		hmb_report_module_run_beside(rep, cl->beside);
	if (cl->run)
		rep->runs[rep->nruns - 1].run = cl->run;
	/* a command line the module refused before anything was measured
	 * leaves no document (cli/actions.c writes none either) */
	if (code != 2 || rep->head)
		hmb_checkpoint(rep, 1);
	return WIFEXITED(wstatus) ? code : 128 + WTERMSIG(wstatus);
}

int hmb_run_wave(const struct hmb_bench *b, struct hmb_report *rep, struct hmb_cmdline *cl,
		 int n, struct hmb_record **before, int first_round, int *codes)
{
	struct hmb_child c[HMB_SCHED_MAX];

	if (n > HMB_SCHED_MAX)
		n = HMB_SCHED_MAX;
	for (int i = 0; i < n; i++)
		(void)hmb_child_start(b, &cl[i], &c[i]); /* one not started says why */
	hmb_children_wait(c, n);
	for (int i = 0; i < n; i++) {
		if (c[i].pid < 0) {
			codes[i] = 1;
			continue;
		}
		if (first_round)
			before[i] = rep->tail;
		cl[i].run_before = before[i];
		codes[i] = hmb_child_take(b, rep, &cl[i], &c[i]);
	}
	return n;
}
