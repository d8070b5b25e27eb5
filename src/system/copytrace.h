/*
 * copytrace.h - a test hook that proves what a case's copies move.
 *
 *   HMB_COPY_TRACE=FILE   every hipMemcpy, hipMemcpyAsync and
 *                         hipMemcpyPeerAsync a module makes appends a line to
 *                         FILE (opened O_APPEND, so the module processes of
 *                         `all` share it)
 *
 * A line is tab-separated: module, case (the record made last, hmb_case_record),
 * call, the kind asked for (h2d, d2h, d2d, h2h, default, peer), where the
 * runtime places the source and the destination (hmb_pointer_memory:
 * host-pageable, host-pinned, device, managed), their devices (-1 for host
 * memory) and the bytes. The GPU tests read it to check that a case named
 * h2d copies host memory into device memory, whatever the labels say.
 *
 * platform/hip.h routes the three calls here (function-like macros over the
 * HIP names); this file's own .c sees the real ones. Unset, a copy costs one
 * predictable branch; set, each copy also asks the runtime about both
 * pointers, so timings under the hook are not figures.
 */
#ifndef HMB_COPYTRACE_H
#define HMB_COPYTRACE_H

#ifdef __cplusplus
extern "C" {
#endif

/* The case the copies that follow belong to (engine/module.c, when a record is made). */
void hmb_copy_trace_case(const char *module, const char *kase);

#ifdef __cplusplus
}
#endif

#endif
