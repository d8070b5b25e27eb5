/*
 * check.h - how a HIP call fails: the pending error of the case that made it.
 */
#ifndef HMB_CHECK_H
#define HMB_CHECK_H

#include <stddef.h>

#include "platform/hip.h"

/* Every HIP call goes through HMB_CHECK or HMB_TRY: on failure it keeps the
 * call's text, error name and string and file:line as the pending error;
 * HMB_CHECK then jumps to the function's `fail:` label (where there is
 * something to undo), HMB_TRY returns -1 (where there is nothing). The engine
 * (or hmb_case_failed) moves the pending error into the record of the case at
 * once: a reason belongs to its record, and nothing later can overwrite it. */
#define HMB_HIP_CALL(call) hmb_hip_result((call), #call, __FILE__, __LINE__)
#define HMB_CHECK(call)                                                      \
	do {                                                                 \
		if (HMB_HIP_CALL(call) != hipSuccess)                        \
			goto fail;                                           \
	} while (0)
#define HMB_TRY(call)                                                        \
	do {                                                                 \
		if (HMB_HIP_CALL(call) != hipSuccess)                        \
			return -1;                                           \
	} while (0)

/* err, made the pending error where it is not hipSuccess (HMB_HIP_CALL). */
hipError_t hmb_hip_result(hipError_t err, const char *call, const char *file, int line);
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
