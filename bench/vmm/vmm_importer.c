/*
 * vmm_importer.c - the process that the vmm module's share cases hand their
 * memory to (vmm_share.c), and its life as the module sees it.
 *
 * It is this binary started again as `hipmembench __vmm-importer` with
 * HMB_VMM_IMPORTER=PID:FD in its environment: PID the module's process,
 * which must be its parent, FD its end of a unix socket pair (SOCK_SEQPACKET:
 * one message per call). Without both, it refuses in one line, exit 2: it
 * is not a command. It opens the device when asked (hello), then serves
 * rounds: it imports the file descriptor that comes with the request
 * (SCM_RIGHTS), maps the memory, checks the module's pattern, writes its
 * own, gives everything back and answers with its timings; it ends when
 * asked or when the socket closes. Every descriptor it receives is closed.
 *
 * The module starts it (everything the child needs made before fork),
 * sends with MSG_NOSIGNAL (a dead importer is an error, not SIGPIPE), waits
 * for an answer with a time limit, and reaps it on every path: asked to
 * end, 10 s, then SIGKILL.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/vmm/vmm_share.h"
#include "engine/verify.h"
#include "kernels/kernels.h"
#include "util/timing.h"
#include "util/util.h"

/* HMB_VMM_IMPORTER=PID:FD: the process that started the importer and the
 * socket it left open for it. Not an option; taken only from the parent. */
#define IMPORTER_ENV "HMB_VMM_IMPORTER"

/* Refused when not started by the vmm module: one line, exit 2 (usage). */
static int importer_refuse(const char *cmd, const char *why)
{
	fprintf(stderr, "hipmembench: %s is internal: the vmm module's share/* cases start it "
		"(%s); it is not a command (see hipmembench --help)\n", cmd, why);
	return 2;
}

/* The socket named by IMPORTER_ENV, or -1 with why. */
static int importer_socket(const char **why)
{
	const char *v = getenv(IMPORTER_ENV), *colon;
	struct stat st;
	char *end;
	long pid, fd;

	*why = "no " IMPORTER_ENV " from a parent";
	if (!v || !(colon = strchr(v, ':')))
		return -1;
	pid = strtol(v, &end, 10);
	if (end != colon || pid <= 0 || pid != (long)getppid()) {
		*why = IMPORTER_ENV " does not name this process's parent";
		return -1;
	}
	fd = strtol(colon + 1, &end, 10);
	if (*end || end == colon + 1 || fd < 3 || fd > 1 << 20 || fstat((int)fd, &st) != 0 ||
	    !S_ISSOCK(st.st_mode)) {
		*why = IMPORTER_ENV " names no socket";
		return -1;
	}
	return (int)fd;
}

#if HMB_HAVE_VMM

#define START_TIMEOUT_MS 120000     /* the importer's HIP initialisation */
#define REAP_TIMEOUT_MS 10000

/* ---- messages over the socket (SOCK_SEQPACKET: one message per call) ---- */

static int send_msg(int sock, const void *msg, size_t len, int fd)
{
	struct iovec iov = { (void *)msg, len };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct msghdr mh;
	ssize_t n;

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (fd >= 0) {
		struct cmsghdr *c;
		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL); /* a dead peer: EPIPE, not SIGPIPE */
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)len ? 0 : -1;
}

/* One message of exactly len bytes within timeout_ms (-1: no limit); a
 * descriptor that came with it into *fd (else -1). Returns 0, or -1 with
 * errno (ETIMEDOUT; EPIPE where the peer closed; EPROTO for a wrong size). */
static int recv_msg(int sock, void *msg, size_t len, int *fd, int timeout_ms)
{
	struct iovec iov = { msg, len };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(4 * sizeof(int))];
	} ctl;
	struct msghdr mh;
	struct pollfd p = { sock, POLLIN, 0 };
	ssize_t n;
	int r;

	*fd = -1;
	do
		r = poll(&p, 1, timeout_ms);
	while (r < 0 && errno == EINTR && !hmb_interrupted());
	if (r == 0)
		errno = ETIMEDOUT;
	if (r <= 0)
		return -1;
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = ctl.buf;
	mh.msg_controllen = sizeof(ctl.buf);
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	/* take every descriptor that came, so none is left open by mistake */
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); n >= 0 && c; c = CMSG_NXTHDR(&mh, c)) {
		size_t k;
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (k = 0; (k + 1) * sizeof(int) <= c->cmsg_len - CMSG_LEN(0); k++) {
			int got;
			memcpy(&got, CMSG_DATA(c) + k * sizeof(int), sizeof(int));
			if (*fd < 0)
				*fd = got;
			else
				close(got);
		}
	}
	if (n == 0)
		errno = EPIPE;
	else if (n > 0 && ((size_t)n != len || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))))
		errno = EPROTO;
	if (n == (ssize_t)len && !(mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)))
		return 0;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	return -1;
}

/* ---- the importer (this binary, started by the module) ---- */

static void reply_error(struct share_reply *rep)
{
	char why[sizeof(rep->why)];
	rep->ok = 0;
	snprintf(rep->why, sizeof(rep->why), "importer: %s", hmb_take_error(why, sizeof(why)));
}

/* Import the descriptor, map it, check the exporter's pattern, write ours,
 * give everything back. The descriptor is closed on every path. */
static void import_round(const struct share_req *q, int fd, struct share_reply *rep)
{
	hipMemGenericAllocationHandle_t h;
	hipMemAccessDesc access;
	void *p = NULL;
	int have_h = 0, have_p = 0, mapped = 0;
	unsigned long long bad = 0;
	double t0;
	hipError_t e;

	memset(&access, 0, sizeof(access));
	access.location.type = hipMemLocationTypeDevice;
	access.location.id = q->device;
	access.flags = hipMemAccessFlagsProtReadWrite;
	if (fd < 0) {
		hmb_set_error("the request came without a file descriptor");
		goto fail;
	}
	t0 = hmb_now();
	e = hipMemImportFromShareableHandle(&h, (void *)(uintptr_t)fd,
					    hipMemHandleTypePosixFileDescriptor);
	rep->import_s = hmb_now() - t0;
	close(fd); /* the import holds its own reference */
	fd = -1;
	if (e != hipSuccess) {
		hmb_hip_error("hipMemImportFromShareableHandle(&h, fd, posix-fd)", e, __FILE__,
			      __LINE__);
		goto fail;
	}
	have_h = 1;
	t0 = hmb_now();
	HMB_CHECK(hipMemAddressReserve(&p, q->size, 0, NULL, 0));
	have_p = 1;
	HMB_CHECK(hipMemMap(p, q->size, 0, h, 0));
	mapped = 1;
	HMB_CHECK(hipMemSetAccess(p, q->size, &access, 1));
	rep->map_access_s = hmb_now() - t0;
	HMB_CHECK(hmb_check_device(p, 0, q->size, q->seed_in, 0, &bad));
	rep->bad_words = bad;
	HMB_CHECK(hmb_launch_fill(p, 0, q->size / 4, q->seed_out, 0));
	HMB_CHECK(hipDeviceSynchronize());
	rep->ok = 1;
fail:
	if (fd >= 0)
		close(fd);
	if (!rep->ok)
		reply_error(rep);
	(void)hipDeviceSynchronize();
	if (mapped)
		(void)hipMemUnmap(p, q->size);
	if (have_p)
		(void)hipMemAddressFree(p, q->size);
	if (have_h)
		(void)hipMemRelease(h);
	(void)hipGetLastError();
}

int hmb_vmm_importer_main(int argc, char **argv)
{
	const char *why;
	int sock = importer_socket(&why);

	(void)argc;
	if (sock < 0)
		return importer_refuse(argv[1], why);
	unsetenv(IMPORTER_ENV);
	(void)fcntl(sock, F_SETFD, FD_CLOEXEC);
	for (;;) {
		struct share_req q;
		struct share_reply rep;
		hipError_t e;
		int fd;

		if (recv_msg(sock, &q, sizeof(q), &fd, -1) != 0 || q.magic != SHARE_MAGIC ||
		    q.op == REQ_QUIT) {
			if (fd >= 0)
				close(fd);
			break; /* the module ended or asked us to: nothing is left open */
		}
		memset(&rep, 0, sizeof(rep));
		rep.magic = SHARE_MAGIC;
		if (q.op == REQ_HELLO) {
			if (fd >= 0)
				close(fd);
			e = hipSetDevice(q.device);
			rep.ok = 1;
			if (e == hipSuccess)
				e = hipFree(NULL); /* the runtime and the device opened now */
			if (e != hipSuccess) {
				hmb_hip_error("hipSetDevice + hipFree(NULL)", e, __FILE__, __LINE__);
				reply_error(&rep);
			}
		} else {
			import_round(&q, fd, &rep);
		}
		if (send_msg(sock, &rep, sizeof(rep), -1) != 0)
			break;
	}
	close(sock);
	return 0;
}

/* ---- the module's side: the importer's life ---- */

static const char *self_path(void)
{
	static char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

/* Reap the importer: at most timeout_ms, then SIGKILL. Says how it ended. */
static void reap(struct importer *im, int timeout_ms, char *how, size_t len)
{
	int st = 0, waited = 0;
	pid_t w;

	if (im->sock >= 0)
		close(im->sock); /* its next read sees the end */
	im->sock = -1;
	if (im->pid <= 0)
		return;
	while ((w = waitpid(im->pid, &st, WNOHANG)) == 0 && waited < timeout_ms) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		waited += 10;
	}
	if (w == 0) {
		kill(im->pid, SIGKILL);
		while ((w = waitpid(im->pid, &st, 0)) < 0 && errno == EINTR)
			;
		if (timeout_ms)
			snprintf(how, len, "did not end within %d s; killed", timeout_ms / 1000);
		else
			snprintf(how, len, "killed");
	} else if (w < 0) {
		snprintf(how, len, "could not be waited for: %s", strerror(errno));
	} else if (WIFEXITED(st)) {
		snprintf(how, len, "exit status %d", WEXITSTATUS(st));
	} else {
		snprintf(how, len, "killed by signal %d (%s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	}
	im->pid = 0;
}

void importer_stop(struct importer *im)
{
	char how[128];
	struct share_req q = { SHARE_MAGIC, REQ_QUIT, 0, 0, 0, 0 };
	if (im->sock >= 0)
		(void)send_msg(im->sock, &q, sizeof(q), -1);
	reap(im, REAP_TIMEOUT_MS, how, sizeof(how));
}

int importer_ask(struct importer *im, const struct share_req *q, int fd, struct share_reply *rep,
		 int timeout_ms)
{
	int got = -1;
	char how[128];

	if (im->sock < 0) {
		hmb_set_error("the importer process is not running");
		return -1;
	}
	if (send_msg(im->sock, q, sizeof(*q), fd) != 0 ||
	    recv_msg(im->sock, rep, sizeof(*rep), &got, timeout_ms) != 0) {
		int err = errno;
		reap(im, err == ETIMEDOUT ? 0 : REAP_TIMEOUT_MS, how, sizeof(how));
		hmb_set_error("the importer process %s (%s)", err == ETIMEDOUT ?
			      "did not answer in time" : "went away", how);
		return -1;
	}
	if (got >= 0)
		close(got);
	if (rep->magic != SHARE_MAGIC) {
		hmb_set_error("the importer process answered garbage");
		return -1;
	}
	rep->why[sizeof(rep->why) - 1] = '\0';
	if (!rep->ok) {
		hmb_set_error("%s", rep->why);
		return -1;
	}
	return 0;
}

int importer_start(struct importer *im, int device, double *start_s)
{
	extern char **environ;
	const char *self = self_path();
	char *argv[3], **envp, var[64];
	struct share_req q = { SHARE_MAGIC, REQ_HELLO, device, 0, 0, 0 };
	struct share_reply rep;
	int sv[2], n = 0;
	long max_fd;
	double t0 = hmb_now();

	im->pid = 0;
	im->sock = -1;
	if (!self) {
		hmb_set_error("cannot find this binary (/proc/self/exe): %s", strerror(errno));
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
		hmb_set_error("socketpair: %s", strerror(errno));
		return -1;
	}
	/* everything the child needs is made before fork: after it, only
	 * async-signal-safe calls */
	argv[0] = (char *)self;
	argv[1] = HMB_VMM_IMPORTER_CMD;
	argv[2] = NULL;
	snprintf(var, sizeof(var), "%s=%ld:%d", IMPORTER_ENV, (long)getpid(), sv[1]);
	for (char **e = environ; *e; e++)
		n++;
	envp = hmb_xcalloc((size_t)n + 2, sizeof(*envp));
	n = 0;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, IMPORTER_ENV "=", sizeof(IMPORTER_ENV)) != 0)
			envp[n++] = *e;
	envp[n++] = var;
	/* before the fork: the child of a threaded process calls only what is
	 * safe after fork (close, fcntl, execve, write, _exit) */
	max_fd = sysconf(_SC_OPEN_MAX);
	if (max_fd < 0 || max_fd > 65536)
		max_fd = 65536;
	fflush(stdout);
	fflush(stderr);
	im->pid = fork();
	if (im->pid == 0) {
		static const char msg[] = "hipmembench: cannot start the vmm importer process\n";
		/* the importer gets its socket and the standard streams, nothing
		 * else this process holds open (the document, a module's pipe) */
		for (long fd = 3; fd < max_fd; fd++)
			if (fd != sv[1])
				close((int)fd);
		if (fcntl(sv[1], F_SETFD, 0) == 0) /* this one end survives exec */
			execve(self, argv, envp);
		if (write(2, msg, sizeof(msg) - 1) < 0)
			_exit(127);
		_exit(127);
	}
	free(envp);
	close(sv[1]);
	if (im->pid < 0) {
		im->pid = 0;
		close(sv[0]);
		hmb_set_error("fork: %s", strerror(errno));
		return -1;
	}
	im->sock = sv[0];
	if (importer_ask(im, &q, -1, &rep, START_TIMEOUT_MS) != 0)
		return -1;
	*start_s = hmb_now() - t0;
	return 0;
}

#else /* no VMM in this HIP: the module says so; the importer is never started */

int hmb_vmm_importer_main(int argc, char **argv)
{
	const char *why;
	(void)argc;
	return importer_refuse(argv[1], importer_socket(&why) < 0 ? why
				   : "this HIP has no virtual memory management");
}

#endif
