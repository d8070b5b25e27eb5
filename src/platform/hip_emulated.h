/*
 * hip_emulated.h - the HIP API that hipmembench uses, emulated on the host's
 * CPU and memory: a GPU-free runtime for tests (`make emulated`).
 *
 * It stands in for the CUDA flavour of HIP (hip.h sets HMB_PLATFORM_NVIDIA
 * beside HMB_PLATFORM_EMULATED), so every module runs its NVIDIA code paths
 * with no GPU: device memory is host memory, a stream is a thread that runs
 * its work in order, an event is the host clock read when the stream reaches
 * it, a kernel is a loop (kernels/emulated.c), virtual memory is mmap over
 * memfd chunks (so it can be shared between processes as on a GPU), a pool
 * keeps freed blocks until trimmed or above its release threshold. The
 * figures it gives measure the host, not a GPU: its documents say platform
 * "emulated" and its devices are named so. What it is for: the no-GPU tests
 * run every module's code (what it allocates, moves, verifies, computes and
 * records) and catch what a change breaks there.
 *
 * HMB_EMULATED_GPUS (1 to 8, default 2) sets how many devices it has,
 * HMB_EMULATED_GPU_MIB (default 2048) the memory of each. With
 * HMB_EMULATED_CORRUPT=1 every copy and every kernel that writes 4 KiB or
 * more (fill, increment, copy, the compute load) leaves the last byte it
 * wrote wrong: a case that checks the data it moved must then fail
 * (tests/test_emulated.py). HMB_EMULATED_NO_VMM=1: the devices say they have
 * no virtual memory management (as some GPUs and drivers do);
 * HMB_EMULATED_NO_PEER=1 that no device can reach another's memory (peer
 * access, as between GPUs of a node without a peer link).
 * HMB_EMULATED_LAST_GPU_GRANULARITY_MIB (a power of two, 2 to 512; default
 * 2) is the VMM allocation granularity of the last device, the others' being
 * 2 MiB: a node of mixed GPUs, where each device's own must be asked for.
 * HMB_EMULATED_NO_MANAGED_STATIC=1: no __managed__ array (kernels/emulated.c).
 * HMB_EMULATED_LEAK_CHECK=1: a process that exits holding VMM handles it
 * made or imported says how many on stderr ("hip_emulated: process P exits
 * with N VMM handle(s) not released").
 * Each is read once, when the runtime is first used.
 */
#ifndef HMB_HIP_EMULATED_H
#define HMB_HIP_EMULATED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors (CUDA's values) ------------------------------------------------ */
typedef enum hipError_t {
	hipSuccess = 0,
	hipErrorInvalidValue = 1,
	hipErrorOutOfMemory = 2,
	hipErrorInvalidDeviceFunction = 98,
	hipErrorNoDevice = 100,
	hipErrorInvalidDevice = 101,
	hipErrorNoBinaryForGpu = 209,
	cudaErrorUnsupportedPtxVersion = 222,
	hipErrorInvalidResourceHandle = 400,
	hipErrorNotReady = 600,
	hipErrorIllegalAddress = 700,
	hipErrorPeerAccessAlreadyEnabled = 704,
	hipErrorPeerAccessNotEnabled = 705,
	hipErrorHostMemoryAlreadyRegistered = 712,
	hipErrorHostMemoryNotRegistered = 713,
	hipErrorNotSupported = 801,
} hipError_t;
const char *hipGetErrorString(hipError_t e);
const char *hipGetErrorName(hipError_t e);
hipError_t hipGetLastError(void);

/* ---- devices ------------------------------------------------------------------ */
hipError_t hipGetDeviceCount(int *count);
hipError_t hipSetDevice(int device);
hipError_t hipDeviceSynchronize(void);
hipError_t hipDeviceReset(void);
hipError_t hipDeviceGetPCIBusId(char *id, int len, int device);
hipError_t hipDeviceGetName(char *name, int len, int device);
hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total_bytes);
hipError_t hipDeviceTotalMem(size_t *bytes, int device);
hipError_t hipRuntimeGetVersion(int *version);
hipError_t hipDriverGetVersion(int *version);
typedef struct hipFuncAttributes {
	int maxThreadsPerBlock;
} hipFuncAttributes;
hipError_t hipFuncGetAttributes(hipFuncAttributes *attr, const void *func);

typedef enum hipDeviceAttribute_t {
	hipDeviceAttributeComputeCapabilityMajor,
	hipDeviceAttributeComputeCapabilityMinor,
	hipDeviceAttributeMultiprocessorCount,
	hipDeviceAttributeMaxThreadsPerMultiProcessor,
	hipDeviceAttributeManagedMemory,
	hipDeviceAttributeConcurrentManagedAccess,
	hipDeviceAttributePageableMemoryAccess,
	hipDeviceAttributePageableMemoryAccessUsesHostPageTables,
	hipDeviceAttributeDirectManagedMemAccessFromHost,
	hipDeviceAttributeCanMapHostMemory,
	hipDeviceAttributeMemoryPoolsSupported,
	hipDeviceAttributeAsyncEngineCount,
	hipDeviceAttributeConcurrentKernels,
	hipDeviceAttributeIntegrated,
	hipDeviceAttributeL2CacheSize,
	hipDeviceAttributeMemoryBusWidth,
	hipDeviceAttributeMemoryClockRate,
	hipDeviceAttributeHostNativeAtomicSupported,
	hipDeviceAttributeHostRegisterSupported,
	hipDeviceAttributeVirtualMemoryManagementSupported,
	HMB_ATTR_POSIX_FD_HANDLES,
	HMB_EMULATED_ATTRIBUTES /* how many there are */
} hipDeviceAttribute_t;
hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attr, int device);

/* ---- streams and events ---------------------------------------------------------- */
typedef struct hmb_emu_stream *hipStream_t;
typedef struct hmb_emu_event *hipEvent_t;
#define hipStreamNonBlocking 1u
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned flags);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned flags);
hipError_t hipEventCreate(hipEvent_t *event);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);
hipError_t hipEventDestroy(hipEvent_t event);

/* Work for a stream (the kernels' launchers): fn(arg) runs on the stream's
 * thread in order with everything else on it; arg's `size` bytes are copied. */
hipError_t hmb_emulated_enqueue(hipStream_t stream, void (*fn)(void *arg), const void *arg,
				size_t size);

/* The bytes from p to the end of the allocation that holds it (0: none known):
 * kernels that follow indices they loaded stay within it, as a corrupted index
 * (HMB_EMULATED_CORRUPT) would otherwise take them anywhere. */
size_t hmb_emulated_extent(const void *p);

/* HMB_EMULATED_NO_MANAGED_STATIC, as read when the runtime started. */
int hmb_emulated_no_managed_static(void);

/* What every copy and every kernel that writes data calls on what it wrote:
 * where HMB_EMULATED_CORRUPT=1, the last byte of 4 KiB or more changes. */
void hmb_emulated_wrote(void *dst, size_t bytes);

/* ---- plain device and host memory ---------------------------------------------------- */
hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipFree(void *ptr);
hipError_t hipMemset(void *ptr, int value, size_t bytes);
hipError_t hipMemsetAsync(void *ptr, int value, size_t bytes, hipStream_t stream);
#define hipHostMallocDefault 0u
#define hipHostMallocPortable 1u
#define hipHostMallocMapped 2u
#define hipHostMallocWriteCombined 4u
hipError_t hipHostMalloc(void **ptr, size_t size, unsigned flags);
hipError_t hipHostFree(void *ptr);
#define hipHostRegisterDefault 0u
#define hipHostRegisterPortable 1u
#define hipHostRegisterMapped 2u
hipError_t hipHostRegister(void *ptr, size_t size, unsigned flags);
hipError_t hipHostUnregister(void *ptr);
hipError_t hipHostGetDevicePointer(void **dev, void *host, unsigned flags);

typedef enum hipMemcpyKind {
	hipMemcpyHostToHost = 0,
	hipMemcpyHostToDevice = 1,
	hipMemcpyDeviceToHost = 2,
	hipMemcpyDeviceToDevice = 3,
	hipMemcpyDefault = 4,
} hipMemcpyKind;
hipError_t hipMemcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t bytes, hipMemcpyKind kind,
			  hipStream_t stream);

typedef struct hipMemcpyAttributes {
	int srcAccessOrder;
	unsigned flags;
} hipMemcpyAttributes;
#define hipMemcpySrcAccessOrderStream 1
#define hipMemcpyFlagDefault 0u
hipError_t hipMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count,
			       hipMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
			       size_t *failIdx, hipStream_t stream);

/* ---- several GPUs ------------------------------------------------------------------------ */
hipError_t hipDeviceCanAccessPeer(int *can, int device, int peer);
hipError_t hipDeviceEnablePeerAccess(int peer, unsigned flags);
hipError_t hipDeviceDisablePeerAccess(int peer);
hipError_t hipMemcpyPeerAsync(void *dst, int dst_device, const void *src, int src_device,
			      size_t bytes, hipStream_t stream);
typedef enum hipDeviceP2PAttr { hipDevP2PAttrPerformanceRank } hipDeviceP2PAttr;
hipError_t hipDeviceGetP2PAttribute(int *value, hipDeviceP2PAttr attr, int src, int dst);

/* ---- managed memory ------------------------------------------------------------------------ */
#define hipMemAttachGlobal 1u
#define hipMemAttachHost 2u
#define hipMemAttachSingle 4u
#define hipCpuDeviceId (-1)
#define hmb_emulated_invalid_device (-2)
hipError_t hipMallocManaged(void **ptr, size_t size, unsigned flags);
hipError_t hipStreamAttachMemAsync(hipStream_t stream, void *ptr, size_t length, unsigned flags);
hipError_t hipMemPrefetchAsync(const void *ptr, size_t count, int device, hipStream_t stream);

typedef enum hipMemoryAdvise {
	hipMemAdviseSetReadMostly = 1,
	hipMemAdviseUnsetReadMostly,
	hipMemAdviseSetPreferredLocation,
	hipMemAdviseUnsetPreferredLocation,
	hipMemAdviseSetAccessedBy,
	hipMemAdviseUnsetAccessedBy,
} hipMemoryAdvise;
hipError_t hipMemAdvise(const void *ptr, size_t count, hipMemoryAdvise advice, int device);

typedef enum hipMemRangeAttribute {
	hipMemRangeAttributeReadMostly = 1,
	hipMemRangeAttributePreferredLocation,
	hipMemRangeAttributeAccessedBy,
	hipMemRangeAttributeLastPrefetchLocation,
} hipMemRangeAttribute;
hipError_t hipMemRangeGetAttribute(void *data, size_t size, hipMemRangeAttribute attr,
				   const void *ptr, size_t count);
hipError_t hipMemRangeGetAttributes(void **data, size_t *sizes, hipMemRangeAttribute *attrs,
				    size_t n, const void *ptr, size_t count);

enum hipMemoryType {
	hipMemoryTypeUnregistered = 0,
	hipMemoryTypeHost = 1,
	hipMemoryTypeDevice = 2,
	hipMemoryTypeManaged = 3,
};
typedef struct hipPointerAttribute_t {
	enum hipMemoryType type;
	int device;
	void *devicePointer;
	void *hostPointer;
} hipPointerAttribute_t;
hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attr, const void *ptr);

/* ---- stream-ordered allocation and pools ---------------------------------------------------- */
typedef struct hmb_emu_pool *hipMemPool_t;
struct hmb_emu_location {
	int type;
	int id;
};
typedef struct hipMemPoolProps {
	int allocType;
	struct hmb_emu_location location;
} hipMemPoolProps;
typedef enum hipMemPoolAttr {
	hipMemPoolAttrReleaseThreshold = 4,
	hipMemPoolAttrReservedMemCurrent,
	hipMemPoolAttrReservedMemHigh,
	hipMemPoolAttrUsedMemCurrent,
	hipMemPoolAttrUsedMemHigh,
} hipMemPoolAttr;
hipError_t hipMallocAsync(void **ptr, size_t size, hipStream_t stream);
hipError_t hipFreeAsync(void *ptr, hipStream_t stream);
hipError_t hipMallocFromPoolAsync(void **ptr, size_t size, hipMemPool_t pool, hipStream_t stream);
hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *pool, int device);
hipError_t hipMemPoolCreate(hipMemPool_t *pool, const hipMemPoolProps *props);
hipError_t hipMemPoolDestroy(hipMemPool_t pool);
hipError_t hipMemPoolSetAttribute(hipMemPool_t pool, hipMemPoolAttr attr, void *value);
hipError_t hipMemPoolGetAttribute(hipMemPool_t pool, hipMemPoolAttr attr, void *value);
hipError_t hipMemPoolTrimTo(hipMemPool_t pool, size_t keep);
#define hipMemAllocationTypePinned 1
#define hipMemLocationTypeDevice 1

/* ---- virtual memory management ---------------------------------------------------------------- */
typedef unsigned long long hipMemGenericAllocationHandle_t;
typedef enum hipMemAllocationHandleType {
	hipMemHandleTypePosixFileDescriptor = 1,
} hipMemAllocationHandleType;
typedef struct hipMemAllocationProp {
	int type;
	int requestedHandleTypes;
	struct hmb_emu_location location;
} hipMemAllocationProp;
typedef struct hipMemAccessDesc {
	struct hmb_emu_location location;
	int flags;
} hipMemAccessDesc;
typedef enum hipMemAllocationGranularity_flags {
	hipMemAllocationGranularityMinimum = 0,
	hipMemAllocationGranularityRecommended = 1,
} hipMemAllocationGranularity_flags;
#define hipMemAccessFlagsProtReadWrite 3

hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *handle, size_t size,
			const hipMemAllocationProp *prop, unsigned long long flags);
hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle);
hipError_t hipMemAddressReserve(void **ptr, size_t size, size_t alignment, void *addr,
				unsigned long long flags);
hipError_t hipMemAddressFree(void *ptr, size_t size);
hipError_t hipMemMap(void *ptr, size_t size, size_t offset,
		     hipMemGenericAllocationHandle_t handle, unsigned long long flags);
hipError_t hipMemUnmap(void *ptr, size_t size);
hipError_t hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count);
hipError_t hipMemGetAllocationGranularity(size_t *granularity, const hipMemAllocationProp *prop,
					  hipMemAllocationGranularity_flags option);
hipError_t hipMemExportToShareableHandle(void *shareableHandle,
					 hipMemGenericAllocationHandle_t handle,
					 hipMemAllocationHandleType handleType,
					 unsigned long long flags);
hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *handle,
					   void *osHandle, hipMemAllocationHandleType shHandleType);

#ifdef __cplusplus
}
#endif

#endif
