/*
 * atomic_file.c - writing a file whole or not at all: a temporary file
 * beside it (PATH.tmp.PID.XXXXXX, with the mode of the file it replaces),
 * fsynced, renamed over it, the folder fsynced; the temporary file of a
 * write that a signal interrupts is removed by the handler.
 */
#include "doc/atomic_file.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/text.h"
#include "util/util.h"

/* What a temporary file name adds to the document's: ".tmp.", a pid, "." and
 * TMP_RANDOM random letters (make_tmp). */
#define TMP_RANDOM 6
#define TMP_SUFFIX_MAX 24

/* The temporary file of a write in progress, for the signal handler. */
static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_live;

void hmb_json_discard_tmp(void)
{
	if (tmp_live)
		unlink(tmp_path);
}

static int out_fail(char *err, size_t errlen, const char *path, const char *why)
{
	snprintf(err, errlen, "cannot write --output %s: %s", hmb_shown(path), why);
	hmb_utf8_trim(err);
	return -1;
}

/* The directory a path is in. */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Create the temporary file of path, PATH.tmp.PID.XXXXXX (XXXXXX random), as
 * mkstemp does: O_CREAT|O_EXCL|O_NOFOLLOW, so that nothing planted there (a
 * link, a FIFO, a directory, a file) is ever opened or written through; a
 * name taken already is tried again with other letters. Signals are held
 * while it is made, so that the handler's hmb_json_discard_tmp knows it the
 * moment it exists. A descriptor, or -1 with errno. */
static int make_tmp(const char *path, mode_t mode)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static uint64_t x;
	struct timespec ts;
	sigset_t all, old;
	int fd = -1, e = EEXIST;

	clock_gettime(CLOCK_REALTIME, &ts);
	x ^= ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40);
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (int tries = 0; fd < 0 && e == EEXIST && tries < 100; tries++) {
		char random[TMP_RANDOM + 1];
		for (int i = 0; i < TMP_RANDOM; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			random[i] = letters[(x >> 33) % (sizeof(letters) - 1)];
		}
		random[TMP_RANDOM] = '\0';
		snprintf(tmp_path, sizeof(tmp_path), "%s.tmp.%ld.%s", path, (long)getpid(), random);
		fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		e = fd < 0 ? errno : 0;
	}
	if (fd >= 0) {
		/* held while it lives: a locked temporary is never stale */
		struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		(void)fcntl(fd, F_SETLK, &lk);
		tmp_live = 1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}

static void drop_tmp(void)
{
	unlink(tmp_path);
	tmp_live = 0;
}

/* Temporaries of path left by runs that could not remove them (SIGKILL, a
 * crash, power loss): NAME.tmp.PID.XXXXXX in its folder, a regular file of
 * this user, whose process is not running here and that no process holds
 * locked (a run on another host of a shared folder holds its own). */
void hmb_remove_stale_temporaries(const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char dir[PATH_MAX], full[PATH_MAX];
	size_t blen = strlen(base);
	struct dirent *de;
	DIR *d;

	dir_of(path, dir, sizeof(dir));
	if (!(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		const char *n = de->d_name, *p = n + blen + 5, *end;
		struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		struct stat st;
		long pid = 0;
		int fd;

		if (strncmp(n, base, blen) != 0 || strncmp(n + blen, ".tmp.", 5) != 0)
			continue;
		for (end = p; isdigit((unsigned char)*end) && end - p < 10; end++)
			pid = pid * 10 + (*end - '0');
		if (end == p || pid <= 0 || *end != '.' || strlen(end + 1) != TMP_RANDOM ||
		    strspn(end + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
			    != TMP_RANDOM)
			continue;
		if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno == EPERM)
			continue; /* its process is running */
		if ((size_t)snprintf(full, sizeof(full), "%s/%s", dir, n) >= sizeof(full))
			continue;
		fd = open(full, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		    fcntl(fd, F_SETLK, &lk) == 0)
			unlink(full);
		close(fd);
	}
	closedir(d);
}

/* A path the document may be written to (see hmb_output_writable). A link
 * to a regular file passes; the rename then replaces the link itself. */
static int check_target(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char dir[PATH_MAX], why[128];
	struct stat st;

	if (!*path) {
		snprintf(err, errlen, "--output: empty file name ('-' writes to stdout)");
		return -1;
	}
	if (strlen(path) + TMP_SUFFIX_MAX >= sizeof(tmp_path)) {
		snprintf(why, sizeof(why), "path too long (%zu bytes, at most %zu)", strlen(path),
			 sizeof(tmp_path) - TMP_SUFFIX_MAX - 1);
		return out_fail(err, errlen, path, why);
	}
	if (!*base)
		return out_fail(err, errlen, path, "a directory, not a regular file");
	if (strlen(base) + TMP_SUFFIX_MAX > NAME_MAX) {
		snprintf(why, sizeof(why), "file name too long (%zu bytes, at most %d)", strlen(base),
			 NAME_MAX - TMP_SUFFIX_MAX);
		return out_fail(err, errlen, path, why);
	}
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			snprintf(why, sizeof(why), "%s, not a regular file%s", hmb_file_kind(st.st_mode),
				 S_ISCHR(st.st_mode) ? " ('-' writes to stdout)" : "");
			return out_fail(err, errlen, path, why);
		}
		if (access(path, W_OK) != 0)
			return out_fail(err, errlen, path, strerror(errno));
	} else if (errno != ENOENT) {
		return out_fail(err, errlen, path, strerror(errno));
	}
	dir_of(path, dir, sizeof(dir));
	if (stat(dir, &st) != 0)
		return out_fail(err, errlen, path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return out_fail(err, errlen, path, strerror(ENOTDIR));
	return 0;
}

/* Before anything is measured: the target, and a file really made (and
 * removed) beside it, as the write will make its temporary: access() says
 * yes to root on a read-only or pseudo file system, in a removed folder. */
int hmb_output_writable(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX], why[PATH_MAX + 64];
	int fd;

	if (strcmp(path, "-") == 0)
		return 0;
	if (check_target(path, err, errlen) != 0)
		return -1;
	if ((fd = make_tmp(path, 0600)) < 0) {
		int e = errno;
		dir_of(path, dir, sizeof(dir));
		snprintf(why, sizeof(why), "cannot create a file in its folder %s: %s",
			 hmb_shown(dir), strerror(e));
		return out_fail(err, errlen, path, why);
	}
	close(fd);
	drop_tmp();
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* After a rename: make the new directory entry durable (best effort: some
 * file systems cannot fsync a directory). */
static void sync_dir(const char *path)
{
	char dir[PATH_MAX];
	int fd;

	dir_of(path, dir, sizeof(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

/* text, then a newline, to path, the way git and sqlite write files: a new
 * temporary beside it (make_tmp) with the mode of the file it replaces (a new
 * file: 0644 less the umask), written, fsynced, renamed over it, the folder
 * fsynced. The first write of a path removes the stale temporaries of runs
 * killed before they could (hmb_remove_stale_temporaries). */
static int write_file(const char *path, const char *text, char *err, size_t errlen)
{
	static char cleaned[PATH_MAX];
	char why[PATH_MAX + 64];
	struct stat st;
	int fd, e = 0, replace;

	if (check_target(path, err, errlen) != 0)
		return -1;
	if (strcmp(cleaned, path) != 0) {
		hmb_remove_stale_temporaries(path);
		snprintf(cleaned, sizeof(cleaned), "%s", path);
	}
	replace = stat(path, &st) == 0;
	fd = make_tmp(path, replace ? 0600 : 0644);
	if (fd < 0) {
		e = errno;
		snprintf(why, sizeof(why), "cannot create its temporary file %s: %s",
			 hmb_shown(tmp_path), strerror(e));
		return out_fail(err, errlen, path, why);
	}
	if (replace)
		(void)fchmod(fd, st.st_mode & 0777); /* best effort: some file systems cannot */
	if (write_all(fd, text, strlen(text)) || write_all(fd, "\n", 1) || fsync(fd))
		e = errno ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	if (!e && rename(tmp_path, path))
		e = errno;
	if (e) {
		drop_tmp();
		return out_fail(err, errlen, path, strerror(e));
	}
	tmp_live = 0;
	sync_dir(path);
	return 0;
}

int hmb_write_text_file(const char *path, const char *text, char *err, size_t errlen)
{
	return write_file(path, text, err, errlen);
}
