/*
 * hip.h - the one include for the HIP API, on either platform.
 *
 * AMD: ROCm's own HIP runtime headers. NVIDIA: hipmembench's mapping of the
 * HIP calls it uses onto CUDA (hip_on_cuda.h). Emulated: those calls on the
 * host's CPU and memory, for tests without a GPU (hip_emulated.h). Features that older ROCm
 * releases lack are announced here as HMB_HAVE_* so that a module can compile
 * everywhere and report "unsupported" at run time instead of failing to build.
 */
#ifndef HMB_PLATFORM_HIP_H
#define HMB_PLATFORM_HIP_H

#if defined(HMB_PLATFORM_EMULATED)
/* No GPU: HIP emulated on the host (hip_emulated.h), standing in for the
 * CUDA flavour, whose code paths it takes. */
#include "platform/hip_emulated.h"
#ifndef HMB_PLATFORM_NVIDIA
#define HMB_PLATFORM_NVIDIA
#endif
#define HMB_PLATFORM_NAME "emulated"
#define HMB_HAVE_VMM 1
#define HMB_HAVE_HOST_REGISTER_ATTR 1
#define HMB_HAVE_HOST_UNCACHED 0
#define HMB_HAVE_DEVICE_UNCACHED 0
#define HMB_HAVE_MEMCPY_BATCH 1
#define HMB_MEMCPY_BATCH_ATTRS 1
#elif defined(HMB_PLATFORM_NVIDIA)
#include "platform/hip_on_cuda.h"
#define HMB_PLATFORM_NAME "nvidia"
#define HMB_HAVE_VMM 1
#define HMB_HAVE_HOST_REGISTER_ATTR 1
/* AMD memory kinds: CUDA has none of them. */
#define HMB_HAVE_HOST_UNCACHED 0
#define HMB_HAVE_DEVICE_UNCACHED 0
/* cudaMemcpyBatchAsync came with CUDA 12.8; it wants an attribute (its
 * srcAccessOrder) for every copy: one entry covers them all. */
#if CUDART_VERSION >= 12080
#define HMB_HAVE_MEMCPY_BATCH 1
#else
#define HMB_HAVE_MEMCPY_BATCH 0
#endif
#define HMB_MEMCPY_BATCH_ATTRS 1
#else
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>
#define HMB_PLATFORM_NAME "amd"
/* hipMemCreate and friends are declared for AMD from ROCm 6.0 on; the
 * VMM device attribute and host-register attribute came with them. */
#if HIP_VERSION_MAJOR >= 6
#define HMB_HAVE_VMM 1
#define HMB_HAVE_HOST_REGISTER_ATTR 1
#else
#define HMB_HAVE_VMM 0
#define HMB_HAVE_HOST_REGISTER_ATTR 0
#endif
/* The uncached device allocation flag came after HIP 5.2, the host one with
 * ROCm 7; both are macros in the headers that have them. */
#if defined(hipHostMallocUncached)
#define HMB_HAVE_HOST_UNCACHED 1
#else
#define HMB_HAVE_HOST_UNCACHED 0
#endif
#if defined(hipDeviceMallocUncached)
#define HMB_HAVE_DEVICE_UNCACHED 1
#else
#define HMB_HAVE_DEVICE_UNCACHED 0
#endif
/* hipMemcpyBatchAsync works from HIP 7.1 on (ROCm's own tests of it require
 * 7.1). Its header documents the attributes as not supported, and the runtime
 * refuses numAttrs > 0 (and attrs without numAttrs): none is passed. */
#if HIP_VERSION_MAJOR > 7 || (HIP_VERSION_MAJOR == 7 && HIP_VERSION_MINOR >= 1)
#define HMB_HAVE_MEMCPY_BATCH 1
#else
#define HMB_HAVE_MEMCPY_BATCH 0
#endif
#define HMB_MEMCPY_BATCH_ATTRS 0
#endif

/* Copies go through the copy-trace hook (copytrace.h): with HMB_COPY_TRACE
 * set, each is written down with where its pointers live. Device code and
 * the hook itself see the runtime's own calls. */
#if !defined(HMB_COPY_TRACE_OFF)
#ifdef __cplusplus
extern "C" {
#endif
hipError_t hmb_traced_memcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind kind);
hipError_t hmb_traced_memcpy_async(void *dst, const void *src, size_t bytes, hipMemcpyKind kind,
				   hipStream_t stream);
hipError_t hmb_traced_memcpy_peer_async(void *dst, int dst_device, const void *src,
					int src_device, size_t bytes, hipStream_t stream);
#ifdef __cplusplus
}
#endif
#undef hipMemcpy
#undef hipMemcpyAsync
#undef hipMemcpyPeerAsync
#define hipMemcpy(dst, src, bytes, kind) hmb_traced_memcpy(dst, src, bytes, kind)
#define hipMemcpyAsync(dst, src, bytes, kind, stream) \
	hmb_traced_memcpy_async(dst, src, bytes, kind, stream)
#define hipMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, stream) \
	hmb_traced_memcpy_peer_async(dst, dst_device, src, src_device, bytes, stream)
#endif

#endif
