/* check.c - the pending error of the case that is running (check.h). */
#include "platform/check.h"

#include <stdarg.h>
#include <stdio.h>

/* The first failure of a case explains it: later ones (cleanup that fails
 * because of it) do not overwrite it until it has been taken. */
static char pending_error[1024];

void hmb_hip_error(const char *call, hipError_t err, const char *file, int line)
{
	if (!pending_error[0])
		snprintf(pending_error, sizeof(pending_error), "%s failed: %s (%s) at %s:%d", call,
			 hipGetErrorString(err), hipGetErrorName(err), file, line);
	(void)hipGetLastError(); /* clear a non-sticky error for the next case */
}

void hmb_set_error(const char *fmt, ...)
{
	va_list ap;
	if (pending_error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(pending_error, sizeof(pending_error), fmt, ap);
	va_end(ap);
}

void hmb_clear_error(void)
{
	pending_error[0] = '\0';
}

hipError_t hmb_hip_result(hipError_t err, const char *call, const char *file, int line)
{
	if (err != hipSuccess)
		hmb_hip_error(call, err, file, line);
	return err;
}

const char *hmb_take_error(char *buf, size_t len)
{
	snprintf(buf, len, "%s", pending_error[0] ? pending_error
						  : "unknown error (no reason was recorded)");
	pending_error[0] = '\0';
	return buf;
}
