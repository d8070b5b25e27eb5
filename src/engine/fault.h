/*
 * fault.h - a test hook that makes one step of a run fail on purpose, to
 * show that failure paths give back what they allocated.
 *
 *   HMB_FAULT=KIND:N   the N-th fault point of that kind in the process fails
 *
 * KIND is alloc (an allocation, stream or event made through the context,
 * alloc.c), setup, prepare, op or verify (a callback the engine calls,
 * measure.c), or any (every point of those kinds counts). N counts from 1;
 * N = 0 never fails and only reports. An allocation fails instead of being
 * made; a callback fails after it has run, holding what it allocated. The
 * failure is an ordinary error of the case
 * ("HMB_FAULT=op:7: injected failure at op 7 of h2d/pinned/async"), so the run
 * goes on with the next case and exits 1. With the hook set, the runner
 * first runs each module once with no fault and records nothing (what the
 * runtime creates on first use and keeps for the process, such as the
 * unified-memory driver's state or channels for more streams, then exists),
 * then runs it again with the fault armed, and writes one line on stderr
 * with the device's free memory before that run and after everything it
 * allocated was given back:
 *
 *   hipmembench: fault-hook module=memcpy spec=op:7 fired=1 points=P free_before=B free_after=A
 *
 * (points: how many points of that kind the process has passed so far).
 *
 * KIND corrupt is of another sort: nothing fails, but the N-th check of moved
 * data (verify.c, and the node module's checks) first flips one word of the
 * data it is about to read, after the timed operations. The module's own
 * check must then fail the case with its own "verification failed"
 * message: a check that checks nothing is caught by it.
 * With the hook set, all device code is loaded at start-up as well
 * (CUDA_MODULE_LOADING=EAGER, HIP_ENABLE_DEFERRED_LOADING=0). Points are
 * counted per process: under `all` each module, in a process of its own,
 * fails at its own N-th point. Unset, the hook costs one predictable branch
 * per point.
 */
#ifndef HMB_FAULT_H
#define HMB_FAULT_H

#include <stddef.h>

enum hmb_fault_kind { HMB_FAULT_ANY, HMB_FAULT_ALLOC, HMB_FAULT_SETUP, HMB_FAULT_PREPARE,
		      HMB_FAULT_OP, HMB_FAULT_VERIFY, HMB_FAULT_CORRUPT, HMB_FAULT_KINDS };

struct hmb_fault_spec {
	enum hmb_fault_kind kind;
	long n;                  /* 0: report only */
};

/* Parse "KIND:N"; 0, or -1 with the problem in err. */
int hmb_fault_parse(const char *text, struct hmb_fault_spec *spec, char *err, size_t errlen);

/* Arm the hook from HMB_FAULT: 0 when unset or empty, or valid (armed); -1
 * with the problem in err. Call before the first HIP call. */
int hmb_fault_init(char *err, size_t errlen);

/* Arm the hook with spec, its counts from zero (NULL disarms): unit tests. */
void hmb_fault_arm(const struct hmb_fault_spec *spec);

extern int hmb_fault_armed;

/* Is this point the one that fails? Counts it; when it fails, the pending
 * error says so (except for HMB_FAULT_CORRUPT, which `any` does not count
 * and which sets no error: the caller corrupts the data instead). `where`
 * names the case, the allocation or the check. */
int hmb_fault_point(enum hmb_fault_kind kind, const char *where);
#define HMB_FAULT_HERE(kind, where) (hmb_fault_armed && hmb_fault_point((kind), (where)))

/* The stderr line for a module where the hook is armed (runner.c);
 * free_before/after in bytes. */
void hmb_fault_report(const char *module, size_t free_before, size_t free_after);

#endif
