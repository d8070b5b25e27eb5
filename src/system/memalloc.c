/*
 * memalloc.c - the allocation call of each memory kind (see memalloc.h), made
 * as memmodel.c's kind table says, with the HMB_* flag bits mapped onto this
 * platform's HIP flags. Host memory that is not hipHostMalloc'd is page
 * aligned so that registering it and kernels touching it work in whole pages.
 */
#include "system/memalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096

/* HIP's flag for one HMB_HM_* bit; -1 where this platform's HIP has none. */
static long host_flag(unsigned bit)
{
	switch (bit) {
	case HMB_HM_PORTABLE: return hipHostMallocPortable;
	case HMB_HM_MAPPED: return hipHostMallocMapped;
	case HMB_HM_WRITE_COMBINED: return hipHostMallocWriteCombined;
#if !defined(HMB_PLATFORM_NVIDIA)
	case HMB_HM_COHERENT: return hipHostMallocCoherent;
	case HMB_HM_NONCOHERENT: return (long)hipHostMallocNonCoherent;
#if HMB_HAVE_HOST_UNCACHED
	case HMB_HM_UNCACHED: return hipHostMallocUncached;
#endif
#endif
	default: return -1;
	}
}

long hmb_kind_host_flags(enum hmb_mem_kind kind)
{
	const struct hmb_kind_spec *s = hmb_kind_spec(kind);
	long flags = hipHostMallocDefault;

	if (!s || s->call != HMB_CALL_HOST_MALLOC)
		return -1;
	for (unsigned bit = 1; bit && bit <= s->flags; bit <<= 1) {
		long f = s->flags & bit ? host_flag(bit) : 0;
		if (f < 0)
			return -1;
		flags |= f;
	}
	return flags;
}

#if !defined(HMB_PLATFORM_NVIDIA)
/* hipExtMallocWithFlags's flags of a kind; -1 where this build has none. */
static long ext_flags(unsigned dm)
{
	if (dm == HMB_DM_FINE_GRAINED)
		return hipDeviceMallocFinegrained;
#if HMB_HAVE_DEVICE_UNCACHED
	if (dm == HMB_DM_UNCACHED)
		return hipDeviceMallocUncached;
#endif
	return -1;
}
#endif

static hipError_t pages(const struct hmb_kind_spec *s, size_t size, void **ptr,
			const char **call)
{
	size_t rounded = (size + PAGE - 1) / PAGE * PAGE;
	hipError_t e;

	*call = "aligned_alloc";
	if (rounded < size || !(*ptr = aligned_alloc(PAGE, rounded ? rounded : PAGE)))
		return hipErrorOutOfMemory;
	if (s->call != HMB_CALL_PAGES_UNTOUCHED)
		memset(*ptr, 0, rounded); /* no page is faulted in while measured */
	if (s->call != HMB_CALL_PAGES_REGISTERED)
		return hipSuccess;
	*call = "hipHostRegister(p, bytes, hipHostRegisterDefault)";
	e = hipHostRegister(*ptr, size, hipHostRegisterDefault);
	if (e != hipSuccess) {
		free(*ptr);
		*ptr = NULL;
	}
	return e;
}

static hipError_t managed(const struct hmb_kind_spec *s, size_t size, int device, void **ptr,
			  const char **call)
{
	hipError_t e = hipMallocManaged(ptr, size, s->flags & HMB_MM_ATTACH_HOST ?
					hipMemAttachHost : hipMemAttachGlobal);

	if (e != hipSuccess || !(s->flags & HMB_MM_COARSE_GRAIN))
		return e;
	*call = "hipMemAdvise(hipMemAdviseSetCoarseGrain)";
#if !defined(HMB_PLATFORM_NVIDIA)
	e = hipMemAdvise(*ptr, size, hipMemAdviseSetCoarseGrain, device);
#else
	(void)device;
	e = hipErrorNotSupported;
#endif
	if (e != hipSuccess) {
		(void)hipFree(*ptr);
		*ptr = NULL;
	}
	return e;
}

hipError_t hmb_kind_alloc(enum hmb_mem_kind kind, size_t size, int device, void **ptr,
			  const char **call)
{
	const struct hmb_kind_spec *s = hmb_kind_spec(kind);
	hipError_t e = hipErrorNotSupported;
	const char *dummy;
	long flags;

	if (!call)
		call = &dummy;
	*ptr = NULL;
	*call = s ? s->api : "hmb_kind_alloc";
	if (!s)
		return hipErrorInvalidValue;
#if defined(HMB_PLATFORM_NVIDIA)
	if (s->amd_only)
		return hipErrorNotSupported;
#endif
	switch (s->call) {
	case HMB_CALL_HOST_MALLOC:
		if ((flags = hmb_kind_host_flags(kind)) >= 0)
			e = hipHostMalloc(ptr, size, (unsigned)flags);
		break;
	case HMB_CALL_PAGES:
	case HMB_CALL_PAGES_UNTOUCHED:
	case HMB_CALL_PAGES_REGISTERED:
		return pages(s, size, ptr, call);
	case HMB_CALL_MALLOC:
		e = hipMalloc(ptr, size);
		break;
	case HMB_CALL_EXT_MALLOC:
#if !defined(HMB_PLATFORM_NVIDIA)
		if ((flags = ext_flags(s->flags)) >= 0)
			e = hipExtMallocWithFlags(ptr, size, (unsigned)flags);
#endif
		break;
	case HMB_CALL_MANAGED:
		e = managed(s, size, device, ptr, call);
		break;
	}
	if (e != hipSuccess)
		*ptr = NULL;
	return e;
}

hipError_t hmb_kind_free(enum hmb_mem_kind kind, void *ptr)
{
	const struct hmb_kind_spec *s = hmb_kind_spec(kind);
	hipError_t e = hipSuccess;

	if (!ptr || !s)
		return hipSuccess;
	switch (s->call) {
	case HMB_CALL_HOST_MALLOC:
		return hipHostFree(ptr);
	case HMB_CALL_PAGES_REGISTERED:
		e = hipHostUnregister(ptr);
		/* fall through */
	case HMB_CALL_PAGES:
	case HMB_CALL_PAGES_UNTOUCHED:
		free(ptr);
		return e;
	default:
		return hipFree(ptr);
	}
}

/* HIP 6 (and CUDA) name the field `type` and know unregistered memory; HIP
 * 5 names it `memoryType` and fails the query for memory it does not know. */
const char *hmb_pointer_memory(const void *p)
{
	hipPointerAttribute_t a;

	memset(&a, 0, sizeof(a));
	if (hipPointerGetAttributes(&a, p) != hipSuccess) {
		(void)hipGetLastError();
		return "host-pageable";
	}
#if defined(HMB_PLATFORM_NVIDIA) || HIP_VERSION_MAJOR >= 6
	switch (a.type) {
	case hipMemoryTypeUnregistered: return "host-pageable";
	case hipMemoryTypeManaged: return "managed";
#else
	switch (a.memoryType) {
#endif
	case hipMemoryTypeHost: return "host-pinned";
	case hipMemoryTypeDevice: return "device";
	default: return "other";
	}
}
