/*
 * check.h - how a HIP call fails: the pending error of the case that made it.
 */
#ifndef HMB_CHECK_H
#define HMB_CHECK_H

#include <stddef.h>

#include "platform/hip.h"

/* Every HIP call goes through HMB_CHECK: on failure it keeps the call's text,
 * error name and string and file:line as the pending error, then jumps to
 * the function's `fail:` label. The engine (or hmb_case_failed) moves the
 * pending error into the record of the case at once: a reason belongs to
 * its record, and nothing later can overwrite it. */
#define HMB_CHECK(call)                                                      \
	do {                                                                 \
		hipError_t hmb_e_ = (call);                                  \
		if (hmb_e_ != hipSuccess) {                                  \
			hmb_hip_error(#call, hmb_e_, __FILE__, __LINE__);    \
			goto fail;                                           \
		}                                                            \
	} while (0)

void hmb_hip_error(const char *call, hipError_t err, const char *file, int line);
/* Set the pending error for a failure that is not a HIP call (e.g. bad data);
 * the first one stands until it is taken. */
void hmb_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Forget the pending error: a failure that belongs to no record (cleanup
 * after success), and, by the engine, at the start of every case, so that
 * no case is failed with another one's reason. */
void hmb_clear_error(void);
/* Copy the pending error into buf and clear it ("unknown error" if none). */
const char *hmb_take_error(char *buf, size_t len);

#endif
