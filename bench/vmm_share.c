/*
 * vmm_share.c - handing VMM memory to another process as a POSIX file
 * descriptor, for the vmm module (vmm.c).
 *
 * This process makes one chunk of --share-size (64M) with hipMemCreate,
 * asking for a file-descriptor handle, maps it and fills it with a pattern.
 * Its importer is this binary started again (`hipmembench __vmm-importer`,
 * an internal mode that refuses to run by hand), which opens the same GPU.
 * A round: the chunk is exported (hipMemExportToShareableHandle), the
 * descriptor goes to the importer over a unix socket (SCM_RIGHTS), which
 * imports it (hipMemImportFromShareableHandle), reserves an address range,
 * maps it and sets access, checks the exporter's pattern, writes its own,
 * unmaps and releases it, and answers with its timings and the words it
 * found wrong; then this process checks the importer's pattern in its own
 * mapping. Every round is checked both ways, outside the timed region.
 *   share/posix-fd/export      hipMemExportToShareableHandle (host clock)
 *   share/posix-fd/import      hipMemImportFromShareableHandle in the importer
 *   share/posix-fd/map-access  hipMemAddressReserve + hipMemMap + hipMemSetAccess
 *                              in the importer (both timed there, on its host
 *                              clock, and reported back: params.clock says so)
 *   share/posix-fd/round-trip  the whole round from this process: export,
 *                              send, everything the importer does, its answer
 * Starting the importer (its HIP initialisation included) is not timed; it
 * is observed once per case as importer_start_s. Where the device cannot
 * export file descriptors, one record says "unsupported" and why.
 *
 * The importer is reaped on every path: asked to end, given 10 s, then
 * killed. Every descriptor made here is closed once sent (the socket holds
 * its own reference in flight); the importer closes what it received once
 * imported.
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

#include "../kernels/kernels.h"
#include "../src/isolate.h"
#include "../src/timing.h"
#include "../src/util.h"
#include "../src/verify.h"
#include "vmm.h"

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

#define SHARE_MAGIC 0x564d4d53u     /* "VMMS" */
#define START_TIMEOUT_MS 120000     /* the importer's HIP initialisation */
#define ROUND_TIMEOUT_MS 60000
#define REAP_TIMEOUT_MS 10000
#define SEED_OUT 0x5a5a0000u        /* the importer's pattern: the round's seed + this */

enum req_op { REQ_HELLO, REQ_ROUND, REQ_QUIT };

/* This process to the importer; a round's carries the descriptor. */
struct share_req {
	uint32_t magic;
	int32_t op;
	int32_t device;
	uint32_t seed_in;           /* the pattern the chunk holds */
	uint32_t seed_out;          /* the pattern the importer writes */
	uint64_t size;
};

/* The importer's answer. */
struct share_reply {
	uint32_t magic;
	int32_t ok;                 /* 0: why says which call failed */
	double import_s, map_access_s;
	uint64_t bad_words;         /* of seed_in, as the importer read them */
	char why[480];
};

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

/* ---- this process: the importer's life ---- */

struct importer {
	pid_t pid;                  /* 0: none */
	int sock;                   /* -1: none */
};

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

static void stop_importer(struct importer *im, char *how, size_t len)
{
	struct share_req q = { SHARE_MAGIC, REQ_QUIT, 0, 0, 0, 0 };
	if (im->sock >= 0)
		(void)send_msg(im->sock, &q, sizeof(q), -1);
	reap(im, REAP_TIMEOUT_MS, how, len);
}

/* A request and its answer. A failure is the pending error; where the
 * importer is gone, it is reaped and the error says how it ended. */
static int ask(struct importer *im, const struct share_req *q, int fd, struct share_reply *rep,
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

/* Start `hipmembench __vmm-importer` with one end of a socket pair, and
 * wait until it has opened the device. */
static int start_importer(struct importer *im, int device, double *start_s)
{
	extern char **environ;
	const char *self = self_path();
	char *argv[3], **envp, var[64];
	struct share_req q = { SHARE_MAGIC, REQ_HELLO, device, 0, 0, 0 };
	struct share_reply rep;
	int sv[2], n = 0;
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
	fflush(stdout);
	fflush(stderr);
	im->pid = fork();
	if (im->pid == 0) {
		static const char msg[] = "hipmembench: cannot start the vmm importer process\n";
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
	if (ask(im, &q, -1, &rep, START_TIMEOUT_MS) != 0)
		return -1;
	*start_s = hmb_now() - t0;
	return 0;
}

/* ---- the cases ---- */

enum share_case { SH_EXPORT, SH_IMPORT, SH_MAP_ACCESS, SH_ROUND_TRIP, NSHARE };
static const char *const share_name[] = { "share/posix-fd/export", "share/posix-fd/import",
					  "share/posix-fd/map-access",
					  "share/posix-fd/round-trip" };
static const char *const share_what[] = {
	"hipMemExportToShareableHandle of the chunk as a POSIX file descriptor",
	"hipMemImportFromShareableHandle of the descriptor, in the importer process",
	"hipMemAddressReserve + hipMemMap + hipMemSetAccess (device read-write) of the imported "
	"chunk, in the importer process",
	"hipMemExportToShareableHandle, the descriptor sent over a unix socket; in the importer: "
	"import, reserve, map, set access, a check kernel reading this process's pattern, a fill "
	"kernel writing its own, hipDeviceSynchronize, unmap, address free, release; its answer "
	"received",
};

struct share {
	enum share_case k;
	struct importer *im;
	int device;
	size_t size;
	hipMemGenericAllocationHandle_t h;   /* this process's chunk, mapped at p */
	void *p;
	uint32_t seed;              /* the round's pattern; the importer's is seed + SEED_OUT */
	int fd;                     /* exported, not yet sent: -1 */
	int pending;                /* a round whose importer pattern is not checked yet */
	int rounds;
};

/* Untimed: the chunk holds a new pattern for the next round. */
static int fill_chunk(struct share *s)
{
	s->seed++;
	HMB_CHECK(hmb_launch_fill(s->p, 0, s->size / 4, s->seed, 0));
	HMB_CHECK(hipDeviceSynchronize());
	return 0;
fail:
	return -1;
}

static int export_fd(struct share *s)
{
	int fd = -1;
	HMB_CHECK(hipMemExportToShareableHandle(&fd, s->h, hipMemHandleTypePosixFileDescriptor, 0));
	s->fd = fd;
	return 0;
fail:
	return -1;
}

/* Send the exported descriptor (closed here, sent or not); the importer
 * checks this round's pattern and writes its own. */
static int exchange(struct share *s, struct share_reply *rep)
{
	struct share_req q = { SHARE_MAGIC, REQ_ROUND, s->device, s->seed, s->seed + SEED_OUT,
			       s->size };
	int fd = s->fd, rc;

	s->fd = -1;
	rc = ask(s->im, &q, fd, rep, ROUND_TIMEOUT_MS);
	if (fd >= 0)
		close(fd);
	if (rc)
		return -1;
	s->rounds++;
	s->pending = 1;
	if (rep->bad_words) {
		hmb_set_error("verification failed: the importer read %llu words of this process's "
			      "pattern wrong", (unsigned long long)rep->bad_words);
		return -1;
	}
	return 0;
}

/* The importer's pattern, read through this process's own mapping. */
static int check_importer_pattern(struct share *s)
{
	unsigned long long bad = 0;

	if (!s->pending)
		return 0;
	s->pending = 0;
	HMB_CHECK(hmb_check_device(s->p, 0, s->size, s->seed + SEED_OUT, 0, &bad));
	if (bad) {
		hmb_set_error("verification failed: %llu words of what the importer wrote read "
			      "back wrong in this process", bad);
		return -1;
	}
	return 0;
fail:
	return -1;
}

/* Before each sample: the last round checked, a new pattern; export: the
 * previous sample's descriptor goes through a round first. */
static int share_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct share *s = st;
	struct share_reply rep;

	(void)ctx;
	(void)sample;
	if (s->fd >= 0 && exchange(s, &rep))
		return -1;
	return check_importer_pattern(s) || fill_chunk(s) ? -1 : 0;
}

static int share_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct share *s = st;
	struct share_reply rep;

	(void)ctx;
	(void)stream;
	(void)i;
	if (export_fd(s))
		return -1;
	if (s->k == SH_EXPORT)
		return 0;
	if (exchange(s, &rep))
		return -1;
	if (s->k == SH_IMPORT)
		hmb_op_seconds(rep.import_s);
	else if (s->k == SH_MAP_ACCESS)
		hmb_op_seconds(rep.map_access_s);
	return 0;
}

static int share_verify(struct hmb_ctx *ctx, void *st)
{
	struct share *s = st;
	struct share_reply rep;

	(void)ctx;
	if (s->fd >= 0 && exchange(s, &rep))
		return -1;
	return check_importer_pattern(s);
}

static void share_teardown(struct hmb_ctx *ctx, void *st)
{
	struct share *s = st;
	(void)ctx;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->pending = 0;
}

/* This process's chunk: made with a file-descriptor handle, mapped, usable. */
struct chunk_state {
	hipMemGenericAllocationHandle_t h;
	void *p;
	size_t size;
	int have_h, have_p, mapped;
};

/* A failed call is the pending error, and its code the return value: HIP
 * says "cannot export here" by hipErrorNotSupported. */
#define CHUNK_CALL(call)                                                    \
	do {                                                                \
		hipError_t e_ = (call);                                     \
		if (e_ != hipSuccess) {                                     \
			hmb_hip_error(#call, e_, __FILE__, __LINE__);       \
			return e_;                                          \
		}                                                           \
	} while (0)

/* Made, mapped, filled with the first pattern and exported once (the
 * descriptor closed at once): the device can share it. */
static hipError_t make_chunk(struct chunk_state *c, int device, size_t want)
{
	hipMemAllocationProp prop;
	hipMemAccessDesc access;
	size_t gran = 0;
	int fd = -1;

	memset(&prop, 0, sizeof(prop));
	prop.type = hipMemAllocationTypePinned;
	prop.location.type = hipMemLocationTypeDevice;
	prop.location.id = device;
#if defined(HMB_PLATFORM_NVIDIA)
	prop.requestedHandleTypes = hipMemHandleTypePosixFileDescriptor;
#else
	prop.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
#endif
	memset(&access, 0, sizeof(access));
	access.location = prop.location;
	access.flags = hipMemAccessFlagsProtReadWrite;
	CHUNK_CALL(hipMemGetAllocationGranularity(&gran, &prop,
						  hipMemAllocationGranularityMinimum));
	c->size = vmm_round_up(want ? want : 1, gran ? gran : 2u << 20);
	CHUNK_CALL(hipMemCreate(&c->h, c->size, &prop, 0));
	c->have_h = 1;
	CHUNK_CALL(hipMemAddressReserve(&c->p, c->size, 0, NULL, 0));
	c->have_p = 1;
	CHUNK_CALL(hipMemMap(c->p, c->size, 0, c->h, 0));
	c->mapped = 1;
	CHUNK_CALL(hipMemSetAccess(c->p, c->size, &access, 1));
	CHUNK_CALL(hmb_launch_fill(c->p, 0, c->size / 4, VMM_SEED, 0));
	CHUNK_CALL(hipDeviceSynchronize());
	CHUNK_CALL(hipMemExportToShareableHandle(&fd, c->h, hipMemHandleTypePosixFileDescriptor,
						 0));
	close(fd);
	return hipSuccess;
}

static void free_chunk(struct chunk_state *c)
{
	(void)hipDeviceSynchronize();
	if (c->mapped)
		(void)hipMemUnmap(c->p, c->size);
	if (c->have_p)
		(void)hipMemAddressFree(c->p, c->size);
	if (c->have_h)
		(void)hipMemRelease(c->h);
	(void)hipGetLastError();
	memset(c, 0, sizeof(*c));
}

/* Can the device export a chunk as a file descriptor? 1, or 0 with why. */
static int fd_handles(int device, char *why, size_t len)
{
#if defined(HMB_PLATFORM_NVIDIA)
	int v = 0;
	hipError_t e = hipDeviceGetAttribute(&v, HMB_ATTR_POSIX_FD_HANDLES, device);
	if (e != hipSuccess) {
		snprintf(why, len, "the driver does not say whether the device can export POSIX "
			 "file descriptors: cuDeviceGetAttribute(HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_"
			 "SUPPORTED): %s", hipGetErrorString(e));
		return 0;
	}
	if (!v) {
		snprintf(why, len, "the device cannot export memory as a POSIX file descriptor "
			 "(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED = 0)");
		return 0;
	}
#else
	/* HIP has no attribute for it: the export itself says (see vmm_share) */
	(void)device;
	(void)why;
	(void)len;
#endif
	return 1;
}

static void share_case(struct hmb_ctx *ctx, struct importer *im, struct chunk_state *c,
		       enum share_case k, double start_s, const char *start_fail)
{
	struct hmb_record *r = hmb_case(ctx, "%s", share_name[k]);
	struct share s;
	struct hmb_case hc = {
		.what = share_what[k],
		.timing = { .clock = k == SH_IMPORT || k == SH_MAP_ACCESS ? HMB_CLOCK_REPORTED
									  : HMB_CLOCK_HOST,
			    .sync = HMB_SYNC_NONE, .reps = 10, .warmup = 1 },
		.ops = { NULL, share_prepare, share_op, share_verify, share_teardown },
		.state = &s,
	};

	memset(&s, 0, sizeof(s));
	s.k = k;
	s.im = im;
	s.device = ctx->dev->ordinal;
	s.size = c->size;
	s.h = c->h;
	s.p = c->p;
	s.seed = VMM_SEED + 0x100u * (uint32_t)k;
	s.fd = -1;
	hmb_param_num(r, "size", (double)c->size);
	hmb_param_str(r, "handle_type", "posix-fd");
	hmb_param_str(r, "importer", "this binary in a second process, on the same GPU; the "
		      "descriptor passed over a unix socket (SCM_RIGHTS)");
	hmb_param_str(r, "untimed_before_each_sample", k == SH_EXPORT ?
		      "the previous sample's descriptor sent through a whole round, both "
		      "patterns checked; the chunk filled with a new pattern" :
		      "the previous round's importer pattern checked; the chunk filled with a "
		      "new pattern");
	hmb_param_str(r, "verification", "every round: the importer checks this process's "
		      "pattern and writes its own, which this process checks");
	if (start_fail) {
		hmb_record_status(r, HMB_FAILED, "%s", start_fail);
		hmb_commit(ctx, r);
		return;
	}
	hmb_observe_num(r, "importer_start_s", start_s);
	if (hmb_measure(ctx, r, &hc) == 0) {
		hmb_observe_num(r, "rounds", s.rounds);
		hmb_observe_bool(r, "importer_verified", s.rounds > 0);
		hmb_observe_bool(r, "exporter_verified", s.rounds > 0);
	}
	hmb_commit(ctx, r);
}

void vmm_share(struct hmb_ctx *ctx, size_t size)
{
	struct importer im = { 0, -1 };
	struct chunk_state c;
	char why[1100] = "", how[128] = "";
	const char *first = NULL, *start_fail = NULL;
	double start_s = 0;
	hipError_t e;

	for (int k = 0; k < NSHARE && !first; k++)
		if (hmb_selected(ctx, share_name[k]))
			first = share_name[k];
	if (!first)
		return;
	memset(&c, 0, sizeof(c));
	if (!fd_handles(ctx->dev->ordinal, why, sizeof(why))) {
		struct hmb_record *r = hmb_case(ctx, "%s", first);
		hmb_record_status(r, HMB_UNSUPPORTED, "%s", why);
		hmb_commit(ctx, r);
		return;
	}
	hmb_clear_error();
	e = make_chunk(&c, ctx->dev->ordinal, size);
	if (e == hipErrorNotSupported) {
		struct hmb_record *r = hmb_case(ctx, "%s", first);
		hmb_record_status(r, HMB_UNSUPPORTED, "chunks cannot be shared as POSIX file "
				  "descriptors here: %s", hmb_take_error(why, sizeof(why)));
		hmb_commit(ctx, r);
		free_chunk(&c);
		return;
	}
	if (e != hipSuccess)
		start_fail = hmb_take_error(why, sizeof(why));
	if (!start_fail && start_importer(&im, ctx->dev->ordinal, &start_s) != 0)
		start_fail = hmb_take_error(why, sizeof(why));
	for (int k = 0; k < NSHARE && !hmb_interrupted(); k++)
		if (hmb_selected(ctx, share_name[k]))
			share_case(ctx, &im, &c, (enum share_case)k, start_s, start_fail);
	stop_importer(&im, how, sizeof(how));
	free_chunk(&c);
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
