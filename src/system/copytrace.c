/* copytrace.c - the copy-trace hook (copytrace.h): the runtime's own copy
 * calls, and a line per copy when HMB_COPY_TRACE names a file. */
#define HMB_COPY_TRACE_OFF
#include "system/copytrace.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform/hip.h"
#include "system/memalloc.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int trace_fd = -2; /* -2: not looked at yet, -1: off */
static char current[320] = "-\t-";

static int trace_open(void)
{
	if (trace_fd == -2) {
		const char *path = getenv("HMB_COPY_TRACE");
		trace_fd = path && *path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)
					 : -1;
		if (path && *path && trace_fd < 0)
			fprintf(stderr, "hipmembench: HMB_COPY_TRACE: cannot open %s; no copies traced\n",
				path);
	}
	return trace_fd >= 0;
}

void hmb_copy_trace_case(const char *module, const char *kase)
{
	pthread_mutex_lock(&lock);
	if (trace_open())
		snprintf(current, sizeof(current), "%s\t%s", module, kase);
	pthread_mutex_unlock(&lock);
}

static const char *kind_name(hipMemcpyKind kind)
{
	switch (kind) {
	case hipMemcpyHostToDevice: return "h2d";
	case hipMemcpyDeviceToHost: return "d2h";
	case hipMemcpyDeviceToDevice: return "d2d";
	case hipMemcpyHostToHost: return "h2h";
	default: return "default";
	}
}

/* The device a pointer's memory is on, or -1 for host memory. */
static int device_of(const void *p, const char *memory)
{
	hipPointerAttribute_t a;

	if (strcmp(memory, "device") != 0)
		return -1;
	memset(&a, 0, sizeof(a));
	if (hipPointerGetAttributes(&a, p) != hipSuccess) {
		(void)hipGetLastError();
		return -1;
	}
	return a.device;
}

static void trace(const char *call, const char *kind, void *dst, const void *src, size_t bytes)
{
	char line[512];
	const char *sm, *dm;
	int n;

	pthread_mutex_lock(&lock);
	if (trace_open()) {
		sm = hmb_pointer_memory(src);
		dm = hmb_pointer_memory(dst);
		n = snprintf(line, sizeof(line), "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%zu\n", current, call, kind,
			     sm, dm, device_of(src, sm), device_of(dst, dm), bytes);
		if (n >= (int)sizeof(line))
			n = (int)sizeof(line) - 1;
		if (n > 0 && write(trace_fd, line, (size_t)n) < 0)
			trace_fd = -1;
	}
	pthread_mutex_unlock(&lock);
}

hipError_t hmb_traced_memcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind kind)
{
	if (__builtin_expect(__atomic_load_n(&trace_fd, __ATOMIC_RELAXED) != -1, 0))
		trace("hipMemcpy", kind_name(kind), dst, src, bytes);
	return hipMemcpy(dst, src, bytes, kind);
}

hipError_t hmb_traced_memcpy_async(void *dst, const void *src, size_t bytes, hipMemcpyKind kind,
				   hipStream_t stream)
{
	if (__builtin_expect(__atomic_load_n(&trace_fd, __ATOMIC_RELAXED) != -1, 0))
		trace("hipMemcpyAsync", kind_name(kind), dst, src, bytes);
	return hipMemcpyAsync(dst, src, bytes, kind, stream);
}

hipError_t hmb_traced_memcpy_peer_async(void *dst, int dst_device, const void *src,
					int src_device, size_t bytes, hipStream_t stream)
{
	if (__builtin_expect(__atomic_load_n(&trace_fd, __ATOMIC_RELAXED) != -1, 0))
		trace("hipMemcpyPeerAsync", "peer", dst, src, bytes);
	return hipMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, stream);
}
