/*
 * memalloc.c - one allocation call per memory kind (see memalloc.h). Host
 * memory that is not hipHostMalloc'd is page aligned so that registering it
 * and kernels touching it work in whole pages.
 */
#include "system/memalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096

static void *page_alloc(size_t size)
{
	size_t rounded = (size + PAGE - 1) / PAGE * PAGE;
	return rounded >= size ? aligned_alloc(PAGE, rounded ? rounded : PAGE) : NULL;
}

/* hipHostMalloc flags of a pinned kind; -1 where this platform has none. */
static long host_flags(enum hmb_mem_kind kind)
{
	switch (kind) {
	case HMB_KIND_PINNED: return hipHostMallocDefault;
	case HMB_KIND_WRITE_COMBINED: return hipHostMallocWriteCombined;
#if !defined(HMB_PLATFORM_NVIDIA)
	case HMB_KIND_PINNED_COHERENT: return hipHostMallocCoherent;
	case HMB_KIND_PINNED_NONCOHERENT: return (long)hipHostMallocNonCoherent;
	case HMB_KIND_WRITE_COMBINED_COHERENT:
		return hipHostMallocWriteCombined | hipHostMallocCoherent;
#if HMB_HAVE_HOST_UNCACHED
	case HMB_KIND_HOST_UNCACHED: return hipHostMallocUncached;
#endif
#endif
	default: return -1;
	}
}

static int is_pinned(enum hmb_mem_kind kind)
{
	return kind == HMB_KIND_PINNED || kind == HMB_KIND_PINNED_COHERENT ||
	       kind == HMB_KIND_PINNED_NONCOHERENT || kind == HMB_KIND_WRITE_COMBINED ||
	       kind == HMB_KIND_WRITE_COMBINED_COHERENT || kind == HMB_KIND_HOST_UNCACHED;
}

hipError_t hmb_kind_alloc(enum hmb_mem_kind kind, size_t size, int device, void **ptr,
			  const char **call)
{
	hipError_t e = hipErrorNotSupported;
	const char *dummy;

	if (!call)
		call = &dummy;
	*ptr = NULL;
	*call = "hmb_kind_alloc";
	(void)device;
	if (is_pinned(kind)) {
		long flags = host_flags(kind);
		*call = "hipHostMalloc";
		if (flags < 0)
			return hipErrorNotSupported;
		e = hipHostMalloc(ptr, size, (unsigned)flags);
	} else if (kind == HMB_KIND_PAGEABLE || kind == HMB_KIND_SYSTEM ||
		   kind == HMB_KIND_REGISTERED) {
		*call = "aligned_alloc";
		if (!(*ptr = page_alloc(size)))
			return hipErrorOutOfMemory;
		if (kind != HMB_KIND_REGISTERED)
			return hipSuccess;
		*call = "hipHostRegister";
		e = hipHostRegister(*ptr, size, hipHostRegisterDefault);
		if (e != hipSuccess) {
			free(*ptr);
			*ptr = NULL;
		}
		return e;
	} else if (kind == HMB_KIND_DEVICE) {
		*call = "hipMalloc";
		e = hipMalloc(ptr, size);
	} else if (kind == HMB_KIND_MANAGED || kind == HMB_KIND_MANAGED_COARSE_GRAINED) {
		*call = "hipMallocManaged";
#if defined(HMB_PLATFORM_NVIDIA)
		if (kind == HMB_KIND_MANAGED_COARSE_GRAINED)
			return hipErrorNotSupported;
#endif
		e = hipMallocManaged(ptr, size, hipMemAttachGlobal);
#if !defined(HMB_PLATFORM_NVIDIA)
		if (e == hipSuccess && kind == HMB_KIND_MANAGED_COARSE_GRAINED) {
			*call = "hipMemAdvise(hipMemAdviseSetCoarseGrain)";
			e = hipMemAdvise(*ptr, size, hipMemAdviseSetCoarseGrain, device);
			if (e != hipSuccess) {
				(void)hipFree(*ptr);
				*ptr = NULL;
			}
			return e;
		}
#endif
	} else if (kind == HMB_KIND_DEVICE_FINE_GRAINED || kind == HMB_KIND_DEVICE_UNCACHED) {
		*call = "hipExtMallocWithFlags";
#if !defined(HMB_PLATFORM_NVIDIA)
		if (kind == HMB_KIND_DEVICE_FINE_GRAINED)
			e = hipExtMallocWithFlags(ptr, size, hipDeviceMallocFinegrained);
#if HMB_HAVE_DEVICE_UNCACHED
		else
			e = hipExtMallocWithFlags(ptr, size, hipDeviceMallocUncached);
#endif
#endif
	}
	if (e != hipSuccess)
		*ptr = NULL;
	return e;
}

hipError_t hmb_kind_free(enum hmb_mem_kind kind, void *ptr)
{
	hipError_t e = hipSuccess;

	if (!ptr)
		return hipSuccess;
	if (is_pinned(kind))
		return hipHostFree(ptr);
	if (kind == HMB_KIND_PAGEABLE || kind == HMB_KIND_SYSTEM || kind == HMB_KIND_REGISTERED) {
		if (kind == HMB_KIND_REGISTERED)
			e = hipHostUnregister(ptr);
		free(ptr);
		return e;
	}
	return hipFree(ptr);
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
