/* util.c - allocation helpers: hipmembench cannot go on without host memory. */
#include "util/util.h"
#include "util/timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

double hmb_process_t0;

static void *check(void *p)
{
	if (!p) {
		fputs("hipmembench: out of host memory\n", stderr);
		exit(1);
	}
	return p;
}

void *hmb_xcalloc(size_t n, size_t size)
{
	return check(calloc(n ? n : 1, size ? size : 1));
}

void *hmb_xrealloc(void *p, size_t size)
{
	return check(realloc(p, size ? size : 1));
}

char *hmb_xstrdup(const char *s)
{
	return check(strdup(s ? s : ""));
}

const char *hmb_file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket" : "not a regular file";
}
