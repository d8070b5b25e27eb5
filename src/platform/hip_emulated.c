/*
 * hip_emulated.c - the emulated HIP runtime (hip_emulated.h says what it is
 * for): devices, streams as threads, events on the host clock, an allocation
 * table that answers pointer and range attributes, pools, and virtual memory
 * over memfd chunks.
 */
#define _GNU_SOURCE
#include "platform/hip_emulated.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/timing.h"

#define MAX_DEVICES 8
#define MAX_ACCESSORS MAX_DEVICES
#define VMM_GRANULARITY ((size_t)2 << 20)
#define CORRUPT_FROM 4096 /* HMB_EMULATED_CORRUPT: writes of this many bytes or more */

/* ---- errors -------------------------------------------------------------------- */

static __thread hipError_t last_error;

static hipError_t fail(hipError_t e)
{
	if (e != hipSuccess)
		last_error = e;
	return e;
}

hipError_t hipGetLastError(void)
{
	hipError_t e = last_error;
	last_error = hipSuccess;
	return e;
}

static const struct {
	hipError_t e;
	const char *name, *text;
} error_table[] = {
	{ hipSuccess, "hipSuccess", "no error" },
	{ hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument" },
	{ hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory" },
	{ hipErrorInvalidDeviceFunction, "hipErrorInvalidDeviceFunction", "invalid device function" },
	{ hipErrorNoDevice, "hipErrorNoDevice", "no emulated device" },
	{ hipErrorInvalidDevice, "hipErrorInvalidDevice", "invalid device ordinal" },
	{ hipErrorNoBinaryForGpu, "hipErrorNoBinaryForGpu", "no kernel image for the device" },
	{ cudaErrorUnsupportedPtxVersion, "cudaErrorUnsupportedPtxVersion", "unsupported PTX" },
	{ hipErrorInvalidResourceHandle, "hipErrorInvalidResourceHandle", "invalid resource handle" },
	{ hipErrorNotReady, "hipErrorNotReady", "device not ready" },
	{ hipErrorIllegalAddress, "hipErrorIllegalAddress",
	  "an illegal memory access was encountered" },
	{ hipErrorPeerAccessAlreadyEnabled, "hipErrorPeerAccessAlreadyEnabled",
	  "peer access is already enabled" },
	{ hipErrorPeerAccessNotEnabled, "hipErrorPeerAccessNotEnabled",
	  "peer access has not been enabled" },
	{ hipErrorHostMemoryAlreadyRegistered, "hipErrorHostMemoryAlreadyRegistered",
	  "part or all of the range is already registered" },
	{ hipErrorHostMemoryNotRegistered, "hipErrorHostMemoryNotRegistered",
	  "the pointer was not registered" },
	{ hipErrorNotSupported, "hipErrorNotSupported", "operation not supported" },
};

const char *hipGetErrorString(hipError_t e)
{
	for (size_t i = 0; i < sizeof(error_table) / sizeof(error_table[0]); i++)
		if (error_table[i].e == e)
			return error_table[i].text;
	return "unknown error";
}

const char *hipGetErrorName(hipError_t e)
{
	for (size_t i = 0; i < sizeof(error_table) / sizeof(error_table[0]); i++)
		if (error_table[i].e == e)
			return error_table[i].name;
	return "hipErrorUnknown";
}

/* ---- devices ---------------------------------------------------------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int n_devices;
static size_t device_bytes;
static size_t used_bytes[MAX_DEVICES];
static int peer_enabled[MAX_DEVICES][MAX_DEVICES];
static __thread int current;

static long env_long(const char *name, long fallback, long lo, long hi)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return fallback;
	v = strtol(s, &end, 10);
	return *end || v < lo || v > hi ? fallback : v;
}

static int corrupt;
static size_t last_granularity; /* HMB_EMULATED_LAST_GPU_GRANULARITY_MIB */
static int no_vmm, no_peer, no_managed_static; /* HMB_EMULATED_NO_... */
static int live_chunks; /* VMM handles made or imported, not yet released */

/* HMB_EMULATED_LEAK_CHECK: at exit, the VMM handles never released. */
static void leak_check(void)
{
	if (live_chunks)
		fprintf(stderr, "hip_emulated: process %ld exits with %d VMM handle(s) not "
			"released\n", (long)getpid(), live_chunks);
}

static void init(void)
{
	n_devices = (int)env_long("HMB_EMULATED_GPUS", 2, 0, MAX_DEVICES);
	device_bytes = (size_t)env_long("HMB_EMULATED_GPU_MIB", 2048, 64, 1L << 20) << 20;
	corrupt = (int)env_long("HMB_EMULATED_CORRUPT", 0, 0, 1);
	no_vmm = (int)env_long("HMB_EMULATED_NO_VMM", 0, 0, 1);
	no_peer = (int)env_long("HMB_EMULATED_NO_PEER", 0, 0, 1);
	no_managed_static = (int)env_long("HMB_EMULATED_NO_MANAGED_STATIC", 0, 0, 1);
	if (env_long("HMB_EMULATED_LEAK_CHECK", 0, 0, 1))
		atexit(leak_check);
	last_granularity = (size_t)env_long("HMB_EMULATED_LAST_GPU_GRANULARITY_MIB", 2, 2, 512)
			   << 20;
	if (last_granularity & (last_granularity - 1))
		last_granularity = VMM_GRANULARITY;
}

static int valid_device(int d)
{
	pthread_once(&once, init);
	return d >= 0 && d < n_devices;
}

hipError_t hipGetDeviceCount(int *count)
{
	pthread_once(&once, init);
	*count = n_devices;
	return n_devices ? hipSuccess : fail(hipErrorNoDevice);
}

hipError_t hipSetDevice(int device)
{
	if (!valid_device(device))
		return fail(hipErrorInvalidDevice);
	current = device;
	return hipSuccess;
}

hipError_t hipDeviceGetPCIBusId(char *id, int len, int device)
{
	if (!valid_device(device) || len < 13)
		return fail(hipErrorInvalidValue);
	/* a PCI domain no machine has: nothing in sysfs answers for it */
	snprintf(id, (size_t)len, "ffff:%02x:00.0", device + 1);
	return hipSuccess;
}

hipError_t hipDeviceGetName(char *name, int len, int device)
{
	if (!valid_device(device) || len < 1)
		return fail(hipErrorInvalidValue);
	snprintf(name, (size_t)len, "Emulated GPU %d (host memory, no GPU)", device);
	return hipSuccess;
}

/* Device memory in use: an allocation that would pass the device's size fails. */
static hipError_t charge(int device, size_t bytes)
{
	hipError_t e = hipSuccess;

	pthread_mutex_lock(&lock);
	if (bytes > device_bytes - used_bytes[device])
		e = hipErrorOutOfMemory;
	else
		used_bytes[device] += bytes;
	pthread_mutex_unlock(&lock);
	return e;
}

static void refund(int device, size_t bytes)
{
	pthread_mutex_lock(&lock);
	used_bytes[device] -= bytes < used_bytes[device] ? bytes : used_bytes[device];
	pthread_mutex_unlock(&lock);
}

hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
	pthread_once(&once, init);
	pthread_mutex_lock(&lock);
	*free_bytes = device_bytes - used_bytes[current];
	*total_bytes = device_bytes;
	pthread_mutex_unlock(&lock);
	return hipSuccess;
}

hipError_t hipDeviceTotalMem(size_t *bytes, int device)
{
	if (!valid_device(device))
		return fail(hipErrorInvalidDevice);
	*bytes = device_bytes;
	return hipSuccess;
}

hipError_t hipRuntimeGetVersion(int *version)
{
	*version = 1;
	return hipSuccess;
}

hipError_t hipDriverGetVersion(int *version)
{
	*version = 1;
	return hipSuccess;
}

hipError_t hipFuncGetAttributes(hipFuncAttributes *attr, const void *func)
{
	if (!func)
		return fail(hipErrorInvalidDeviceFunction);
	attr->maxThreadsPerBlock = 1024;
	return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attr, int device)
{
	static const int values[HMB_EMULATED_ATTRIBUTES] = {
		[hipDeviceAttributeComputeCapabilityMajor] = 0,
		[hipDeviceAttributeComputeCapabilityMinor] = 0,
		[hipDeviceAttributeMultiprocessorCount] = 1,
		[hipDeviceAttributeMaxThreadsPerMultiProcessor] = 1024,
		[hipDeviceAttributeManagedMemory] = 1,
		[hipDeviceAttributeConcurrentManagedAccess] = 1,
		[hipDeviceAttributePageableMemoryAccess] = 0,
		[hipDeviceAttributePageableMemoryAccessUsesHostPageTables] = 0,
		[hipDeviceAttributeDirectManagedMemAccessFromHost] = 0,
		[hipDeviceAttributeCanMapHostMemory] = 1,
		[hipDeviceAttributeMemoryPoolsSupported] = 1,
		[hipDeviceAttributeAsyncEngineCount] = 2,
		[hipDeviceAttributeConcurrentKernels] = 1,
		[hipDeviceAttributeIntegrated] = 0,
		[hipDeviceAttributeL2CacheSize] = 4 << 20,
		[hipDeviceAttributeMemoryBusWidth] = 64,
		[hipDeviceAttributeMemoryClockRate] = 1600000,
		[hipDeviceAttributeHostNativeAtomicSupported] = 0,
		[hipDeviceAttributeHostRegisterSupported] = 1,
		[hipDeviceAttributeVirtualMemoryManagementSupported] = 1,
		[HMB_ATTR_POSIX_FD_HANDLES] = 1,
	};
	if (!valid_device(device) || (unsigned)attr >= HMB_EMULATED_ATTRIBUTES)
		return fail(hipErrorInvalidValue);
	*value = values[attr];
	if (attr == hipDeviceAttributeVirtualMemoryManagementSupported && no_vmm)
		*value = 0;
	return hipSuccess;
}

/* ---- streams: a thread each, running its work in order ---------------------------------- */

struct work {
	void (*fn)(void *arg);
	struct work *next;
	size_t size;
	_Alignas(16) unsigned char arg[];
};

struct hmb_emu_stream {
	int device;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct work *head, *tail;
	unsigned long long queued, done;
	int stop;
	struct hmb_emu_stream *next_of_all;
};

static struct hmb_emu_stream *all_streams;
static struct hmb_emu_stream *null_stream[MAX_DEVICES];

static void *stream_main(void *p)
{
	struct hmb_emu_stream *s = p;

	pthread_mutex_lock(&s->mu);
	for (;;) {
		struct work *w;
		while (!s->head && !s->stop)
			pthread_cond_wait(&s->cv, &s->mu);
		if (!s->head)
			break;
		w = s->head;
		pthread_mutex_unlock(&s->mu);
		w->fn(w->arg);
		pthread_mutex_lock(&s->mu);
		s->head = w->next;
		if (!s->head)
			s->tail = NULL;
		free(w);
		s->done++;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

static struct hmb_emu_stream *stream_new(int device)
{
	struct hmb_emu_stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->device = device;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	if (pthread_create(&s->thread, NULL, stream_main, s) != 0) {
		free(s);
		return NULL;
	}
	pthread_mutex_lock(&lock);
	s->next_of_all = all_streams;
	all_streams = s;
	pthread_mutex_unlock(&lock);
	return s;
}

/* The stream work goes to: the current device's null stream for NULL. */
static struct hmb_emu_stream *resolve(hipStream_t s)
{
	if (s)
		return s;
	pthread_once(&once, init);
	pthread_mutex_lock(&lock);
	if (!null_stream[current]) {
		pthread_mutex_unlock(&lock);
		struct hmb_emu_stream *n = stream_new(current);
		pthread_mutex_lock(&lock);
		if (!null_stream[current])
			null_stream[current] = n;
	}
	s = null_stream[current];
	pthread_mutex_unlock(&lock);
	return s;
}

hipError_t hmb_emulated_enqueue(hipStream_t stream, void (*fn)(void *arg), const void *arg,
				size_t size)
{
	struct hmb_emu_stream *s = resolve(stream);
	struct work *w = s ? malloc(sizeof(*w) + size) : NULL;

	if (!w)
		return fail(hipErrorOutOfMemory);
	w->fn = fn;
	w->next = NULL;
	w->size = size;
	if (size)
		memcpy(w->arg, arg, size);
	pthread_mutex_lock(&s->mu);
	if (s->tail)
		s->tail->next = w;
	else
		s->head = w;
	s->tail = w;
	s->queued++;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	return hipSuccess;
}

static void stream_wait(struct hmb_emu_stream *s)
{
	pthread_mutex_lock(&s->mu);
	unsigned long long target = s->queued;
	while (s->done < target)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

static void pools_release(int device);

hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned flags)
{
	(void)flags;
	pthread_once(&once, init);
	*stream = stream_new(current);
	return *stream ? hipSuccess : fail(hipErrorOutOfMemory);
}

hipError_t hipStreamDestroy(hipStream_t stream)
{
	struct hmb_emu_stream **p;

	if (!stream)
		return fail(hipErrorInvalidResourceHandle);
	stream_wait(stream);
	pthread_mutex_lock(&stream->mu);
	stream->stop = 1;
	pthread_cond_broadcast(&stream->cv);
	pthread_mutex_unlock(&stream->mu);
	pthread_join(stream->thread, NULL);
	pthread_mutex_lock(&lock);
	for (p = &all_streams; *p; p = &(*p)->next_of_all)
		if (*p == stream) {
			*p = stream->next_of_all;
			break;
		}
	pthread_mutex_unlock(&lock);
	free(stream);
	return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t stream)
{
	struct hmb_emu_stream *s = resolve(stream);
	stream_wait(s);
	pools_release(s->device);
	return hipSuccess;
}

/* Has the stream run all it holds? */
static int stream_done(struct hmb_emu_stream *s)
{
	int idle;

	pthread_mutex_lock(&s->mu);
	idle = s->done == s->queued;
	pthread_mutex_unlock(&s->mu);
	return idle;
}

/* Waits until the streams of `device` (-1: of every device) have run all they hold. */
static void streams_idle(int device)
{
	for (;;) {
		struct hmb_emu_stream *busy = NULL;
		pthread_mutex_lock(&lock);
		for (struct hmb_emu_stream *s = all_streams; s && !busy; s = s->next_of_all)
			if ((device < 0 || s->device == device) && !stream_done(s))
				busy = s;
		pthread_mutex_unlock(&lock);
		if (!busy)
			break;
		stream_wait(busy);
	}
}

hipError_t hipDeviceSynchronize(void)
{
	streams_idle(current);
	pools_release(current);
	return hipSuccess;
}

hipError_t hipDeviceReset(void)
{
	return hipDeviceSynchronize();
}

/* ---- events: the host clock when the stream reaches them ---------------------------------- */

struct hmb_emu_event {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned long long recorded, reached; /* how many records were asked, and run */
	double when;
};

struct event_mark {
	struct hmb_emu_event *e;
	unsigned long long n;
};

static void event_reach(void *arg)
{
	struct event_mark *m = arg;

	pthread_mutex_lock(&m->e->mu);
	m->e->when = hmb_now();
	if (m->n > m->e->reached)
		m->e->reached = m->n;
	pthread_cond_broadcast(&m->e->cv);
	pthread_mutex_unlock(&m->e->mu);
}

static void event_wait_for(struct hmb_emu_event *e, unsigned long long n)
{
	pthread_mutex_lock(&e->mu);
	while (e->reached < n)
		pthread_cond_wait(&e->cv, &e->mu);
	pthread_mutex_unlock(&e->mu);
}

static void event_await(void *arg)
{
	struct event_mark *m = arg;
	event_wait_for(m->e, m->n);
}

hipError_t hipEventCreate(hipEvent_t *event)
{
	struct hmb_emu_event *e = calloc(1, sizeof(*e));

	if (!e)
		return fail(hipErrorOutOfMemory);
	pthread_mutex_init(&e->mu, NULL);
	pthread_cond_init(&e->cv, NULL);
	*event = e;
	return hipSuccess;
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream)
{
	struct event_mark m = { event, 0 };

	if (!event)
		return fail(hipErrorInvalidResourceHandle);
	pthread_mutex_lock(&event->mu);
	m.n = ++event->recorded;
	pthread_mutex_unlock(&event->mu);
	return hmb_emulated_enqueue(stream, event_reach, &m, sizeof(m));
}

hipError_t hipEventSynchronize(hipEvent_t event)
{
	unsigned long long n;

	if (!event)
		return fail(hipErrorInvalidResourceHandle);
	pthread_mutex_lock(&event->mu);
	n = event->recorded;
	pthread_mutex_unlock(&event->mu);
	event_wait_for(event, n);
	return hipSuccess;
}

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned flags)
{
	struct event_mark m = { event, 0 };

	(void)flags;
	if (!event)
		return fail(hipErrorInvalidResourceHandle);
	pthread_mutex_lock(&event->mu);
	m.n = event->recorded;
	pthread_mutex_unlock(&event->mu);
	return hmb_emulated_enqueue(stream, event_await, &m, sizeof(m));
}

hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop)
{
	int ready;

	if (!start || !stop)
		return fail(hipErrorInvalidResourceHandle);
	pthread_mutex_lock(&start->mu);
	pthread_mutex_lock(&stop->mu);
	ready = start->recorded && start->reached == start->recorded &&
		stop->recorded && stop->reached == stop->recorded;
	if (ready)
		*ms = (float)((stop->when - start->when) * 1e3);
	pthread_mutex_unlock(&stop->mu);
	pthread_mutex_unlock(&start->mu);
	return ready ? hipSuccess : fail(hipErrorNotReady);
}

hipError_t hipEventDestroy(hipEvent_t event)
{
	if (!event)
		return fail(hipErrorInvalidResourceHandle);
	free(event);
	return hipSuccess;
}

/* ---- the allocation table ------------------------------------------------------------------ */

struct chunk;

enum kind { K_DEVICE, K_HOST, K_REGISTERED, K_MANAGED, K_POOL, K_MAPPED };

struct alloc {
	char *base;
	size_t size;
	enum kind kind;
	int device;       /* the device it was made on */
	int owned;        /* munmap on free */
	struct hmb_emu_pool *pool; /* K_POOL: the pool it came from */
	struct chunk *chunk;       /* K_MAPPED: the chunk mapped there */
	/* managed memory's advice and prefetches */
	int read_mostly, preferred, last_prefetch;
	int accessed_by[MAX_ACCESSORS];
	struct alloc *next;
};

static struct alloc *allocs;

static struct alloc *find_locked(const void *p)
{
	for (struct alloc *a = allocs; a; a = a->next)
		if ((const char *)p >= a->base && (const char *)p < a->base + a->size)
			return a;
	return NULL;
}

/* A copy of the entry holding p (so no lock is held after), or 0 if none. */
static int lookup(const void *p, struct alloc *out)
{
	struct alloc *a;

	pthread_mutex_lock(&lock);
	a = find_locked(p);
	if (a)
		*out = *a;
	pthread_mutex_unlock(&lock);
	return a != NULL;
}

static hipError_t track(void *base, size_t size, enum kind kind, int owned,
			struct hmb_emu_pool *pool, struct chunk *chunk)
{
	struct alloc *a = calloc(1, sizeof(*a));

	if (!a)
		return hipErrorOutOfMemory;
	a->base = base;
	a->size = size;
	a->kind = kind;
	a->device = current;
	a->owned = owned;
	a->pool = pool;
	a->chunk = chunk;
	a->preferred = a->last_prefetch = hmb_emulated_invalid_device;
	for (int i = 0; i < MAX_ACCESSORS; i++)
		a->accessed_by[i] = hmb_emulated_invalid_device;
	pthread_mutex_lock(&lock);
	a->next = allocs;
	allocs = a;
	pthread_mutex_unlock(&lock);
	return hipSuccess;
}

/* Removes the entry that starts at p, of one of the kinds in `kinds` (a bit
 * each); 0 and *out filled, or -1 where there is none. */
static int untrack(const void *p, unsigned kinds, struct alloc *out)
{
	struct alloc **pp, *a = NULL;

	pthread_mutex_lock(&lock);
	for (pp = &allocs; *pp; pp = &(*pp)->next)
		if ((*pp)->base == p && (kinds >> (*pp)->kind & 1u)) {
			a = *pp;
			*pp = a->next;
			break;
		}
	pthread_mutex_unlock(&lock);
	if (!a)
		return -1;
	*out = *a;
	free(a);
	return 0;
}

static void *map_pages(size_t size)
{
	void *p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static hipError_t device_alloc(void **ptr, size_t size, enum kind kind, int charged)
{
	void *p;

	pthread_once(&once, init);
	if (!ptr)
		return fail(hipErrorInvalidValue);
	if (charged && charge(current, size) != hipSuccess)
		return fail(hipErrorOutOfMemory);
	p = map_pages(size);
	if (!p || track(p, size, kind, 1, NULL, NULL) != hipSuccess) {
		if (p)
			munmap(p, size ? size : 1);
		if (charged)
			refund(current, size);
		return fail(hipErrorOutOfMemory);
	}
	*ptr = p;
	return hipSuccess;
}

hipError_t hipMalloc(void **ptr, size_t size)
{
	return device_alloc(ptr, size, K_DEVICE, 1);
}

hipError_t hipMallocManaged(void **ptr, size_t size, unsigned flags)
{
	(void)flags;
	if (size == 0)
		return fail(hipErrorInvalidValue);
	return device_alloc(ptr, size, K_MANAGED, 0);
}

hipError_t hipHostMalloc(void **ptr, size_t size, unsigned flags)
{
	(void)flags;
	return device_alloc(ptr, size, K_HOST, 0);
}

static hipError_t free_kind(void *ptr, unsigned kinds)
{
	struct alloc a;

	if (!ptr)
		return hipSuccess;
	streams_idle(-1); /* no stream of any device still uses it */
	if (untrack(ptr, kinds, &a) != 0)
		return fail(hipErrorInvalidValue);
	if (a.kind == K_DEVICE)
		refund(a.device, a.size);
	munmap(a.base, a.size ? a.size : 1);
	return hipSuccess;
}

hipError_t hipFree(void *ptr)
{
	pthread_once(&once, init);
	return free_kind(ptr, 1u << K_DEVICE | 1u << K_MANAGED);
}

hipError_t hipHostFree(void *ptr)
{
	return free_kind(ptr, 1u << K_HOST);
}

hipError_t hipHostRegister(void *ptr, size_t size, unsigned flags)
{
	struct alloc a;

	(void)flags;
	if (!ptr || !size)
		return fail(hipErrorInvalidValue);
	if (lookup(ptr, &a) || lookup((char *)ptr + size - 1, &a))
		return fail(hipErrorHostMemoryAlreadyRegistered);
	return fail(track(ptr, size, K_REGISTERED, 0, NULL, NULL));
}

hipError_t hipHostUnregister(void *ptr)
{
	struct alloc a;
	return untrack(ptr, 1u << K_REGISTERED, &a) == 0 ? hipSuccess
							 : fail(hipErrorHostMemoryNotRegistered);
}

hipError_t hipHostGetDevicePointer(void **dev, void *host, unsigned flags)
{
	struct alloc a;

	(void)flags;
	if (!lookup(host, &a) || (a.kind != K_HOST && a.kind != K_REGISTERED))
		return fail(hipErrorInvalidValue);
	*dev = host;
	return hipSuccess;
}

hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attr, const void *ptr)
{
	struct alloc a;

	memset(attr, 0, sizeof(*attr));
	attr->device = hmb_emulated_invalid_device;
	if (!lookup(ptr, &a))
		return hipSuccess; /* as CUDA 11 on: unregistered host memory */
	attr->type = a.kind == K_HOST || a.kind == K_REGISTERED ? hipMemoryTypeHost :
		     a.kind == K_MANAGED ? hipMemoryTypeManaged : hipMemoryTypeDevice;
	attr->device = a.device;
	attr->devicePointer = (void *)ptr;
	attr->hostPointer = a.kind == K_DEVICE || a.kind == K_POOL || a.kind == K_MAPPED ?
			    NULL : (void *)ptr;
	return hipSuccess;
}

size_t hmb_emulated_extent(const void *p)
{
	struct alloc a;
	return lookup(p, &a) ? (size_t)(a.base + a.size - (const char *)p) : 0;
}

/* ---- copies and sets ------------------------------------------------------------------------- */

void hmb_emulated_wrote(void *dst, size_t bytes)
{
	/* Buffers, not the few bytes of a counter read back. The low byte of the
	 * last word, plus one: a copy there and back again does not undo it, and
	 * an index held there (a chase's next slot) moves by a slot or two, not
	 * out of its buffer. */
	if (corrupt && bytes >= CORRUPT_FROM)
		((unsigned char *)dst)[bytes / 4 * 4 - 4]++;
}

struct copy {
	void *dst;
	const void *src;
	size_t bytes;
	int value, is_set;
};

static void run_copy(void *arg)
{
	struct copy *c = arg;
	if (!c->bytes)
		return;
	if (c->is_set) {
		memset(c->dst, c->value, c->bytes);
	} else {
		memmove(c->dst, c->src, c->bytes);
		hmb_emulated_wrote(c->dst, c->bytes);
	}
}

static hipError_t copy_async(void *dst, const void *src, size_t bytes, hipStream_t stream)
{
	struct copy c = { dst, src, bytes, 0, 0 };

	if (bytes && (!dst || !src))
		return fail(hipErrorInvalidValue);
	return hmb_emulated_enqueue(stream, run_copy, &c, sizeof(c));
}

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t bytes, hipMemcpyKind kind,
			  hipStream_t stream)
{
	if ((unsigned)kind > hipMemcpyDefault)
		return fail(hipErrorInvalidValue);
	return copy_async(dst, src, bytes, stream);
}

hipError_t hipMemcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind kind)
{
	hipError_t e = hipMemcpyAsync(dst, src, bytes, kind, NULL);
	if (e == hipSuccess)
		stream_wait(resolve(NULL));
	return e;
}

hipError_t hipMemsetAsync(void *ptr, int value, size_t bytes, hipStream_t stream)
{
	struct copy c = { ptr, NULL, bytes, value, 1 };

	if (bytes && !ptr)
		return fail(hipErrorInvalidValue);
	return hmb_emulated_enqueue(stream, run_copy, &c, sizeof(c));
}

hipError_t hipMemset(void *ptr, int value, size_t bytes)
{
	hipError_t e = hipMemsetAsync(ptr, value, bytes, NULL);
	if (e == hipSuccess)
		stream_wait(resolve(NULL));
	return e;
}

hipError_t hipMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count,
			       hipMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
			       size_t *failIdx, hipStream_t stream)
{
	(void)attrs;
	(void)attrsIdxs;
	if (failIdx)
		*failIdx = (size_t)-1;
	if (!count || !dsts || !srcs || !sizes || numAttrs > count)
		return fail(hipErrorInvalidValue);
	for (size_t i = 0; i < count; i++) {
		hipError_t e = copy_async(dsts[i], srcs[i], sizes[i], stream);
		if (e != hipSuccess) {
			if (failIdx)
				*failIdx = i;
			return e;
		}
	}
	return hipSuccess;
}

/* ---- several devices ---------------------------------------------------------------------------- */

hipError_t hipDeviceCanAccessPeer(int *can, int device, int peer)
{
	if (!valid_device(device) || !valid_device(peer))
		return fail(hipErrorInvalidDevice);
	*can = device != peer && !no_peer;
	return hipSuccess;
}

hipError_t hipDeviceEnablePeerAccess(int peer, unsigned flags)
{
	hipError_t e = hipSuccess;

	if (!valid_device(peer) || peer == current || flags)
		return fail(hipErrorInvalidValue);
	pthread_mutex_lock(&lock);
	if (peer_enabled[current][peer])
		e = hipErrorPeerAccessAlreadyEnabled;
	peer_enabled[current][peer] = 1;
	pthread_mutex_unlock(&lock);
	return fail(e);
}

hipError_t hipDeviceDisablePeerAccess(int peer)
{
	hipError_t e = hipSuccess;

	if (!valid_device(peer))
		return fail(hipErrorInvalidValue);
	pthread_mutex_lock(&lock);
	if (!peer_enabled[current][peer])
		e = hipErrorPeerAccessNotEnabled;
	peer_enabled[current][peer] = 0;
	pthread_mutex_unlock(&lock);
	return fail(e);
}

hipError_t hipMemcpyPeerAsync(void *dst, int dst_device, const void *src, int src_device,
			      size_t bytes, hipStream_t stream)
{
	if (!valid_device(dst_device) || !valid_device(src_device))
		return fail(hipErrorInvalidDevice);
	return copy_async(dst, src, bytes, stream);
}

hipError_t hipDeviceGetP2PAttribute(int *value, hipDeviceP2PAttr attr, int src, int dst)
{
	if (!valid_device(src) || !valid_device(dst) || src == dst ||
	    attr != hipDevP2PAttrPerformanceRank)
		return fail(hipErrorInvalidValue);
	*value = 0;
	return hipSuccess;
}

/* ---- managed memory: advice and prefetches are written down, and read back ------------------- */

static hipError_t managed_entry(const void *ptr, size_t count, struct alloc **out)
{
	struct alloc *a = find_locked(ptr);

	if (!a || a->kind != K_MANAGED || !count ||
	    count > a->size - (size_t)((const char *)ptr - a->base))
		return hipErrorInvalidValue;
	*out = a;
	return hipSuccess;
}

hipError_t hipStreamAttachMemAsync(hipStream_t stream, void *ptr, size_t length, unsigned flags)
{
	struct alloc a;

	(void)stream;
	(void)length;
	if (!lookup(ptr, &a) || a.kind != K_MANAGED ||
	    (flags != hipMemAttachGlobal && flags != hipMemAttachHost &&
	     flags != hipMemAttachSingle))
		return fail(hipErrorInvalidValue);
	return hipSuccess;
}

hipError_t hipMemPrefetchAsync(const void *ptr, size_t count, int device, hipStream_t stream)
{
	struct alloc *a;
	hipError_t e;

	if (device != hipCpuDeviceId && !valid_device(device))
		return fail(hipErrorInvalidDevice);
	pthread_mutex_lock(&lock);
	e = managed_entry(ptr, count, &a);
	if (e == hipSuccess)
		a->last_prefetch = device;
	pthread_mutex_unlock(&lock);
	if (e != hipSuccess)
		return fail(e);
	/* the pages are where they are: in order on the stream, nothing to move */
	return hmb_emulated_enqueue(stream, run_copy, &(struct copy){ NULL, NULL, 0, 0, 0 },
				    sizeof(struct copy));
}

hipError_t hipMemAdvise(const void *ptr, size_t count, hipMemoryAdvise advice, int device)
{
	struct alloc *a;
	hipError_t e;

	if (device != hipCpuDeviceId && !valid_device(device))
		return fail(hipErrorInvalidDevice);
	pthread_mutex_lock(&lock);
	e = managed_entry(ptr, count, &a);
	if (e == hipSuccess) {
		switch (advice) {
		case hipMemAdviseSetReadMostly: a->read_mostly = 1; break;
		case hipMemAdviseUnsetReadMostly: a->read_mostly = 0; break;
		case hipMemAdviseSetPreferredLocation: a->preferred = device; break;
		case hipMemAdviseUnsetPreferredLocation:
			a->preferred = hmb_emulated_invalid_device;
			break;
		case hipMemAdviseSetAccessedBy:
		case hipMemAdviseUnsetAccessedBy: {
			int slot = device + 1; /* the host (-1) is slot 0 */
			a->accessed_by[slot] = advice == hipMemAdviseSetAccessedBy
						       ? device : hmb_emulated_invalid_device;
			break;
		}
		default: e = hipErrorInvalidValue;
		}
	}
	pthread_mutex_unlock(&lock);
	return fail(e);
}

hipError_t hipMemRangeGetAttribute(void *data, size_t size, hipMemRangeAttribute attr,
				   const void *ptr, size_t count)
{
	struct alloc *a;
	hipError_t e;
	int *out = data;

	if (!data || size < sizeof(int) || size % sizeof(int))
		return fail(hipErrorInvalidValue);
	pthread_mutex_lock(&lock);
	e = managed_entry(ptr, count, &a);
	if (e == hipSuccess) {
		switch (attr) {
		case hipMemRangeAttributeReadMostly: *out = a->read_mostly; break;
		case hipMemRangeAttributePreferredLocation: *out = a->preferred; break;
		case hipMemRangeAttributeLastPrefetchLocation: *out = a->last_prefetch; break;
		case hipMemRangeAttributeAccessedBy: {
			size_t n = 0, room = size / sizeof(int);
			for (int i = 0; i < MAX_ACCESSORS; i++)
				if (a->accessed_by[i] != hmb_emulated_invalid_device && n < room)
					out[n++] = a->accessed_by[i];
			while (n < room)
				out[n++] = hmb_emulated_invalid_device;
			break;
		}
		default: e = hipErrorInvalidValue;
		}
	}
	pthread_mutex_unlock(&lock);
	return fail(e);
}

hipError_t hipMemRangeGetAttributes(void **data, size_t *sizes, hipMemRangeAttribute *attrs,
				    size_t n, const void *ptr, size_t count)
{
	for (size_t i = 0; i < n; i++) {
		hipError_t e = hipMemRangeGetAttribute(data[i], sizes[i], attrs[i], ptr, count);
		if (e != hipSuccess)
			return e;
	}
	return hipSuccess;
}

/* ---- pools: freed blocks are kept until trimmed or past the release threshold ------------------ */

struct block {
	char *p;
	size_t size;
	struct block *next;
};

struct hmb_emu_pool {
	int device;
	unsigned long long threshold, reserved, reserved_high, used, used_high;
	struct block *free_blocks;
	struct hmb_emu_pool *next;
};

static struct hmb_emu_pool *pools;
static struct hmb_emu_pool *default_pool[MAX_DEVICES];

static struct hmb_emu_pool *pool_new(int device)
{
	struct hmb_emu_pool *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->device = device;
	pthread_mutex_lock(&lock);
	p->next = pools;
	pools = p;
	pthread_mutex_unlock(&lock);
	return p;
}

/* Releases free blocks until the pool keeps at most `keep` bytes; lock held. */
static void trim_locked(struct hmb_emu_pool *p, unsigned long long keep)
{
	while (p->free_blocks && p->reserved > keep) {
		struct block *b = p->free_blocks;
		p->free_blocks = b->next;
		p->reserved -= b->size;
		used_bytes[p->device] -= b->size;
		munmap(b->p, b->size);
		free(b);
	}
}

/* At a synchronisation, what pools keep above their threshold goes back, when
 * no stream of the device may still be using a freed block. */
static void pools_release(int device)
{
	pthread_mutex_lock(&lock);
	for (struct hmb_emu_stream *s = all_streams; s; s = s->next_of_all)
		if (s->device == device && !stream_done(s)) {
			pthread_mutex_unlock(&lock);
			return;
		}
	for (struct hmb_emu_pool *p = pools; p; p = p->next)
		if (p->device == device)
			trim_locked(p, p->threshold);
	pthread_mutex_unlock(&lock);
}

hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *pool, int device)
{
	if (!valid_device(device))
		return fail(hipErrorInvalidDevice);
	if (!default_pool[device])
		default_pool[device] = pool_new(device);
	*pool = default_pool[device];
	return *pool ? hipSuccess : fail(hipErrorOutOfMemory);
}

hipError_t hipMemPoolCreate(hipMemPool_t *pool, const hipMemPoolProps *props)
{
	if (!props || props->allocType != hipMemAllocationTypePinned ||
	    props->location.type != hipMemLocationTypeDevice || !valid_device(props->location.id))
		return fail(hipErrorInvalidValue);
	*pool = pool_new(props->location.id);
	return *pool ? hipSuccess : fail(hipErrorOutOfMemory);
}

hipError_t hipMemPoolDestroy(hipMemPool_t pool)
{
	struct hmb_emu_pool **pp;

	if (!pool)
		return fail(hipErrorInvalidValue);
	streams_idle(pool->device);
	pthread_mutex_lock(&lock);
	trim_locked(pool, 0);
	for (pp = &pools; *pp; pp = &(*pp)->next)
		if (*pp == pool) {
			*pp = pool->next;
			break;
		}
	pthread_mutex_unlock(&lock);
	free(pool);
	return hipSuccess;
}

hipError_t hipMallocFromPoolAsync(void **ptr, size_t size, hipMemPool_t pool, hipStream_t stream)
{
	struct block **best = NULL, *b;
	char *p = NULL;
	size_t got = 0;

	(void)stream;
	if (!ptr || !pool || !size)
		return fail(hipErrorInvalidValue);
	pthread_mutex_lock(&lock);
	for (struct block **bb = &pool->free_blocks; *bb; bb = &(*bb)->next)
		if ((*bb)->size >= size && (!best || (*bb)->size < (*best)->size))
			best = bb;
	if (best) {
		b = *best;
		*best = b->next;
		p = b->p;
		got = b->size;
		free(b);
	}
	pthread_mutex_unlock(&lock);
	if (!p) {
		if (charge(pool->device, size) != hipSuccess)
			return fail(hipErrorOutOfMemory);
		p = map_pages(size);
		if (!p) {
			refund(pool->device, size);
			return fail(hipErrorOutOfMemory);
		}
		got = size;
		pthread_mutex_lock(&lock);
		pool->reserved += got;
		if (pool->reserved > pool->reserved_high)
			pool->reserved_high = pool->reserved;
		pthread_mutex_unlock(&lock);
	}
	if (track(p, got, K_POOL, 1, pool, NULL) != hipSuccess)
		return fail(hipErrorOutOfMemory);
	pthread_mutex_lock(&lock);
	pool->used += got;
	if (pool->used > pool->used_high)
		pool->used_high = pool->used;
	pthread_mutex_unlock(&lock);
	*ptr = p;
	return hipSuccess;
}

hipError_t hipMallocAsync(void **ptr, size_t size, hipStream_t stream)
{
	hipMemPool_t pool;
	hipError_t e = hipDeviceGetDefaultMemPool(&pool, current);
	return e != hipSuccess ? e : hipMallocFromPoolAsync(ptr, size, pool, stream);
}

hipError_t hipFreeAsync(void *ptr, hipStream_t stream)
{
	struct alloc a;
	struct block *b;

	(void)stream;
	if (untrack(ptr, 1u << K_POOL, &a) != 0)
		return fail(hipErrorInvalidValue);
	b = malloc(sizeof(*b));
	if (!b)
		return fail(hipErrorOutOfMemory);
	b->p = a.base;
	b->size = a.size;
	pthread_mutex_lock(&lock);
	a.pool->used -= a.size;
	b->next = a.pool->free_blocks;
	a.pool->free_blocks = b;
	pthread_mutex_unlock(&lock);
	return hipSuccess;
}

hipError_t hipMemPoolSetAttribute(hipMemPool_t pool, hipMemPoolAttr attr, void *value)
{
	unsigned long long v = *(unsigned long long *)value;
	hipError_t e = hipSuccess;

	if (!pool)
		return fail(hipErrorInvalidValue);
	pthread_mutex_lock(&lock);
	switch (attr) {
	case hipMemPoolAttrReleaseThreshold: pool->threshold = v; break;
	case hipMemPoolAttrReservedMemHigh: /* only a reset to 0 is allowed */
	case hipMemPoolAttrUsedMemHigh:
		if (v)
			e = hipErrorInvalidValue;
		else if (attr == hipMemPoolAttrUsedMemHigh)
			pool->used_high = pool->used;
		else
			pool->reserved_high = pool->reserved;
		break;
	default: e = hipErrorInvalidValue;
	}
	pthread_mutex_unlock(&lock);
	return fail(e);
}

hipError_t hipMemPoolGetAttribute(hipMemPool_t pool, hipMemPoolAttr attr, void *value)
{
	unsigned long long *v = value;
	hipError_t e = hipSuccess;

	if (!pool)
		return fail(hipErrorInvalidValue);
	pthread_mutex_lock(&lock);
	switch (attr) {
	case hipMemPoolAttrReleaseThreshold: *v = pool->threshold; break;
	case hipMemPoolAttrReservedMemCurrent: *v = pool->reserved; break;
	case hipMemPoolAttrReservedMemHigh: *v = pool->reserved_high; break;
	case hipMemPoolAttrUsedMemCurrent: *v = pool->used; break;
	case hipMemPoolAttrUsedMemHigh: *v = pool->used_high; break;
	default: e = hipErrorInvalidValue;
	}
	pthread_mutex_unlock(&lock);
	return fail(e);
}

hipError_t hipMemPoolTrimTo(hipMemPool_t pool, size_t keep)
{
	if (!pool)
		return fail(hipErrorInvalidValue);
	streams_idle(pool->device);
	pthread_mutex_lock(&lock);
	trim_locked(pool, keep);
	pthread_mutex_unlock(&lock);
	return hipSuccess;
}

/* ---- virtual memory: reservations are PROT_NONE mappings, chunks memfd files ------------------- */

struct chunk {
	int fd;
	size_t size;
	int device;
	int charged; /* made here (counts against the device), not imported */
	int exportable; /* made asking for a POSIX descriptor handle */
	int refs;    /* the handle, and each mapping of it */
};

static hipError_t chunk_release(struct chunk *c)
{
	int last;

	pthread_mutex_lock(&lock);
	last = --c->refs == 0;
	live_chunks -= last;
	pthread_mutex_unlock(&lock);
	if (last) {
		if (c->charged)
			refund(c->device, c->size);
		close(c->fd);
		free(c);
	}
	return hipSuccess;
}

/* A new chunk's handle: its first reference, counted among the live ones. */
static hipMemGenericAllocationHandle_t chunk_handle(struct chunk *c)
{
	c->refs = 1;
	pthread_mutex_lock(&lock);
	live_chunks++;
	pthread_mutex_unlock(&lock);
	return (hipMemGenericAllocationHandle_t)(uintptr_t)c;
}

/* The device's VMM granularity: 2 MiB, the last device's as the knob says. */
static size_t device_granularity(int device)
{
	return device == n_devices - 1 ? last_granularity : VMM_GRANULARITY;
}

hipError_t hipMemGetAllocationGranularity(size_t *granularity, const hipMemAllocationProp *prop,
					  hipMemAllocationGranularity_flags option)
{
	if (!granularity || !prop || prop->type != hipMemAllocationTypePinned ||
	    prop->location.type != hipMemLocationTypeDevice || !valid_device(prop->location.id) ||
	    (option != hipMemAllocationGranularityMinimum &&
	     option != hipMemAllocationGranularityRecommended))
		return fail(hipErrorInvalidValue);
	*granularity = device_granularity(prop->location.id);
	return hipSuccess;
}

hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *handle, size_t size,
			const hipMemAllocationProp *prop, unsigned long long flags)
{
	struct chunk *c;
	int fd;

	if (!handle || !prop || flags || !size || prop->type != hipMemAllocationTypePinned ||
	    prop->location.type != hipMemLocationTypeDevice || !valid_device(prop->location.id) ||
	    size % device_granularity(prop->location.id))
		return fail(hipErrorInvalidValue);
	if (charge(prop->location.id, size) != hipSuccess)
		return fail(hipErrorOutOfMemory);
	fd = memfd_create("hipmembench-emulated-chunk", MFD_CLOEXEC);
	c = fd >= 0 && ftruncate(fd, (off_t)size) == 0 ? calloc(1, sizeof(*c)) : NULL;
	if (!c) {
		if (fd >= 0)
			close(fd);
		refund(prop->location.id, size);
		return fail(hipErrorOutOfMemory);
	}
	c->fd = fd;
	c->size = size;
	c->device = prop->location.id;
	c->charged = 1;
	c->exportable = (prop->requestedHandleTypes & hipMemHandleTypePosixFileDescriptor) != 0;
	*handle = chunk_handle(c);
	return hipSuccess;
}

hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle)
{
	if (!handle)
		return fail(hipErrorInvalidValue);
	return chunk_release((struct chunk *)(uintptr_t)handle);
}

hipError_t hipMemAddressReserve(void **ptr, size_t size, size_t alignment, void *addr,
				unsigned long long flags)
{
	size_t align = alignment > VMM_GRANULARITY ? alignment : VMM_GRANULARITY;
	size_t span = size + align;
	char *p, *start;

	(void)addr;
	if (!ptr || !size || size % VMM_GRANULARITY || flags || (align & (align - 1)))
		return fail(hipErrorInvalidValue);
	p = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return fail(hipErrorOutOfMemory);
	start = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
	if (start > p)
		munmap(p, (size_t)(start - p));
	if (start + size < p + span)
		munmap(start + size, (size_t)(p + span - (start + size)));
	*ptr = start;
	return hipSuccess;
}

hipError_t hipMemAddressFree(void *ptr, size_t size)
{
	if (!ptr || !size || munmap(ptr, size) != 0)
		return fail(hipErrorInvalidValue);
	return hipSuccess;
}

hipError_t hipMemMap(void *ptr, size_t size, size_t offset,
		     hipMemGenericAllocationHandle_t handle, unsigned long long flags)
{
	struct chunk *c = (struct chunk *)(uintptr_t)handle;
	void *p;

	if (!ptr || !c || flags || !size || size % VMM_GRANULARITY || offset > c->size ||
	    size > c->size - offset)
		return fail(hipErrorInvalidValue);
	p = mmap(ptr, size, PROT_NONE, MAP_SHARED | MAP_FIXED, c->fd, (off_t)offset);
	if (p == MAP_FAILED)
		return fail(hipErrorInvalidValue);
	pthread_mutex_lock(&lock);
	c->refs++;
	pthread_mutex_unlock(&lock);
	if (track(ptr, size, K_MAPPED, 0, NULL, c) != hipSuccess)
		return fail(hipErrorOutOfMemory);
	return hipSuccess;
}

hipError_t hipMemUnmap(void *ptr, size_t size)
{
	struct alloc a;

	if (untrack(ptr, 1u << K_MAPPED, &a) != 0 || a.size != size)
		return fail(hipErrorInvalidValue);
	streams_idle(-1);
	/* back to a reservation: inaccessible, holding nothing */
	if (mmap(ptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
		 -1, 0) == MAP_FAILED)
		return fail(hipErrorInvalidValue);
	return chunk_release(a.chunk);
}

hipError_t hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count)
{
	struct alloc a;

	if (!ptr || !desc || !count || !lookup(ptr, &a) || a.kind != K_MAPPED ||
	    !lookup((char *)ptr + size - 1, &a) || a.kind != K_MAPPED)
		return fail(hipErrorInvalidValue);
	for (size_t i = 0; i < count; i++)
		if (desc[i].location.type != hipMemLocationTypeDevice ||
		    !valid_device(desc[i].location.id) ||
		    desc[i].flags != hipMemAccessFlagsProtReadWrite)
			return fail(hipErrorInvalidValue);
	if (mprotect(ptr, size, PROT_READ | PROT_WRITE) != 0)
		return fail(hipErrorInvalidValue);
	return hipSuccess;
}

hipError_t hipMemExportToShareableHandle(void *shareableHandle,
					 hipMemGenericAllocationHandle_t handle,
					 hipMemAllocationHandleType handleType,
					 unsigned long long flags)
{
	struct chunk *c = (struct chunk *)(uintptr_t)handle;
	int fd;

	if (!shareableHandle || !c || flags || handleType != hipMemHandleTypePosixFileDescriptor ||
	    !c->exportable)
		return fail(hipErrorInvalidValue);
	fd = dup(c->fd);
	if (fd < 0)
		return fail(hipErrorOutOfMemory);
	*(int *)shareableHandle = fd;
	return hipSuccess;
}

hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *handle,
					   void *osHandle, hipMemAllocationHandleType shHandleType)
{
	int fd = (int)(intptr_t)osHandle;
	struct stat st;
	struct chunk *c;

	if (!handle || shHandleType != hipMemHandleTypePosixFileDescriptor ||
	    fstat(fd, &st) != 0 || st.st_size <= 0)
		return fail(hipErrorInvalidValue);
	c = calloc(1, sizeof(*c));
	if (!c || (c->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		free(c);
		return fail(hipErrorOutOfMemory);
	}
	c->size = (size_t)st.st_size;
	c->device = current;
	c->exportable = 1;
	*handle = chunk_handle(c);
	return hipSuccess;
}

int hmb_emulated_no_managed_static(void)
{
	pthread_once(&once, init);
	return no_managed_static;
}
