/*
 * hip_on_cuda.h - the HIP API that hipmembench uses, mapped onto CUDA.
 *
 * The HIP headers for NVIDIA that Linux distributions ship do not compile
 * against CUDA 13 (fields of cudaDeviceProp were removed, prefetch and advise
 * take a cudaMemLocation). This header maps exactly the HIP calls, types and
 * constants used by hipmembench onto the CUDA runtime, so that modules and
 * kernels read as plain HIP on both platforms. Where the signature is the same
 * a macro renames the call; where it differs a static inline function adapts
 * it. The virtual memory calls (hipMem{Create,Map,...}) go to the CUDA driver
 * API through hip_on_cuda.c, which resolves them at run time, so the binary
 * still starts on a machine without the NVIDIA driver and says "no GPU".
 *
 * Valid C11 and C++: included by host C code and by kernels compiled by nvcc.
 */
#ifndef HMB_HIP_ON_CUDA_H
#define HMB_HIP_ON_CUDA_H

#include <cuda_runtime_api.h>
#include <cuda.h>
#include <stddef.h>

/* ---- errors ---------------------------------------------------------- */
typedef cudaError_t hipError_t;
#define hipSuccess                    cudaSuccess
#define hipErrorNotSupported          cudaErrorNotSupported
#define hipErrorInvalidValue          cudaErrorInvalidValue
#define hipErrorOutOfMemory           cudaErrorMemoryAllocation
#define hipErrorNoDevice              cudaErrorNoDevice
#define hipErrorNoBinaryForGpu        cudaErrorNoKernelImageForDevice
#define hipErrorInvalidDeviceFunction cudaErrorInvalidDeviceFunction
#define hipGetErrorString             cudaGetErrorString
#define hipGetErrorName               cudaGetErrorName
#define hipGetLastError               cudaGetLastError

/* ---- devices ----------------------------------------------------------- */
#define hipGetDeviceCount             cudaGetDeviceCount
#define hipSetDevice                  cudaSetDevice
#define hipDeviceSynchronize          cudaDeviceSynchronize
#define hipDeviceReset                cudaDeviceReset
#define hipDeviceGetPCIBusId          cudaDeviceGetPCIBusId
#define hipMemGetInfo                 cudaMemGetInfo
#define hipRuntimeGetVersion          cudaRuntimeGetVersion
#define hipDriverGetVersion           cudaDriverGetVersion
typedef struct cudaFuncAttributes hipFuncAttributes;
#define hipFuncGetAttributes          cudaFuncGetAttributes

typedef enum cudaDeviceAttr hipDeviceAttribute_t;
#define hipDeviceAttributeComputeCapabilityMajor  cudaDevAttrComputeCapabilityMajor
#define hipDeviceAttributeComputeCapabilityMinor  cudaDevAttrComputeCapabilityMinor
#define hipDeviceAttributeMultiprocessorCount     cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeMaxThreadsPerMultiProcessor cudaDevAttrMaxThreadsPerMultiProcessor
#define hipDeviceAttributeManagedMemory           cudaDevAttrManagedMemory
#define hipDeviceAttributeConcurrentManagedAccess cudaDevAttrConcurrentManagedAccess
#define hipDeviceAttributePageableMemoryAccess    cudaDevAttrPageableMemoryAccess
#define hipDeviceAttributePageableMemoryAccessUsesHostPageTables \
	cudaDevAttrPageableMemoryAccessUsesHostPageTables
#define hipDeviceAttributeDirectManagedMemAccessFromHost \
	cudaDevAttrDirectManagedMemAccessFromHost
#define hipDeviceAttributeCanMapHostMemory        cudaDevAttrCanMapHostMemory
#define hipDeviceAttributeMemoryPoolsSupported    cudaDevAttrMemoryPoolsSupported
#define hipDeviceAttributeAsyncEngineCount        cudaDevAttrAsyncEngineCount
#define hipDeviceAttributeConcurrentKernels       cudaDevAttrConcurrentKernels
#define hipDeviceAttributeIntegrated              cudaDevAttrIntegrated
#define hipDeviceAttributeL2CacheSize             cudaDevAttrL2CacheSize
#define hipDeviceAttributeMemoryBusWidth          cudaDevAttrGlobalMemoryBusWidth
#define hipDeviceAttributeMemoryClockRate         cudaDevAttrMemoryClockRate
#define hipDeviceAttributeHostNativeAtomicSupported cudaDevAttrHostNativeAtomicSupported
#define hipDeviceAttributeHostRegisterSupported   cudaDevAttrHostRegisterSupported
/* The CUDA runtime has no attribute for VMM: the driver does. Values from
 * HMB_DRIVER_ATTR_BASE up are driver attributes, read by hipDeviceGetAttribute
 * below through the driver API. */
#define HMB_DRIVER_ATTR_BASE 0x10000
#define hipDeviceAttributeVirtualMemoryManagementSupported \
	((hipDeviceAttribute_t)(HMB_DRIVER_ATTR_BASE + \
	CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED))

hipError_t hmb_cuda_driver_attribute(int *value, int attr, int device);

static inline hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attr, int device)
{
	if ((int)attr >= HMB_DRIVER_ATTR_BASE)
		return hmb_cuda_driver_attribute(value, (int)attr - HMB_DRIVER_ATTR_BASE, device);
	return cudaDeviceGetAttribute(value, attr, device);
}

static inline hipError_t hipDeviceGetName(char *name, int len, int device)
{
	struct cudaDeviceProp prop;
	hipError_t err = cudaGetDeviceProperties(&prop, device);
	if (err == cudaSuccess && len > 0) {
		int i;
		for (i = 0; i < len - 1 && prop.name[i]; i++)
			name[i] = prop.name[i];
		name[i] = '\0';
	}
	return err;
}

static inline hipError_t hipDeviceTotalMem(size_t *bytes, int device)
{
	struct cudaDeviceProp prop;
	hipError_t err = cudaGetDeviceProperties(&prop, device);
	if (err == cudaSuccess)
		*bytes = prop.totalGlobalMem;
	return err;
}

/* ---- streams and events -------------------------------------------------- */
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
#define hipStreamNonBlocking          cudaStreamNonBlocking
#define hipStreamCreateWithFlags      cudaStreamCreateWithFlags
#define hipStreamDestroy              cudaStreamDestroy
#define hipStreamSynchronize          cudaStreamSynchronize
#define hipStreamWaitEvent            cudaStreamWaitEvent
#define hipEventCreate                cudaEventCreate
#define hipEventRecord                cudaEventRecord
#define hipEventSynchronize           cudaEventSynchronize
#define hipEventElapsedTime           cudaEventElapsedTime
#define hipEventDestroy               cudaEventDestroy

/* ---- plain device and host memory ---------------------------------------- */
#define hipMalloc                     cudaMalloc
#define hipFree                       cudaFree
#define hipMemset                     cudaMemset
#define hipMemsetAsync                cudaMemsetAsync
#define hipHostMalloc                 cudaHostAlloc
#define hipHostFree                   cudaFreeHost
#define hipHostMallocDefault          cudaHostAllocDefault
#define hipHostMallocPortable         cudaHostAllocPortable
#define hipHostMallocMapped           cudaHostAllocMapped
#define hipHostMallocWriteCombined    cudaHostAllocWriteCombined
#define hipHostRegister               cudaHostRegister
#define hipHostUnregister             cudaHostUnregister
#define hipHostRegisterDefault        cudaHostRegisterDefault
#define hipHostRegisterMapped         cudaHostRegisterMapped
#define hipHostGetDevicePointer       cudaHostGetDevicePointer

typedef enum cudaMemcpyKind hipMemcpyKind;
#define hipMemcpy                     cudaMemcpy
#define hipMemcpyAsync                cudaMemcpyAsync
#define hipMemcpyHostToDevice         cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost         cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice       cudaMemcpyDeviceToDevice
#define hipMemcpyHostToHost           cudaMemcpyHostToHost
#define hipMemcpyDefault              cudaMemcpyDefault

/* ---- batched copies (CUDA 12.8 on) ------------------------------------------ */
/* HIP's signature (HIP 7) ends with failIdx, where the failed copy's index is
 * returned; CUDA 12.8 and 12.9 have it too, CUDA 13 dropped it (and made the
 * pointer arrays const): there *failIdx is set to SIZE_MAX ("none known"). */
#if CUDART_VERSION >= 12080
typedef struct cudaMemcpyAttributes hipMemcpyAttributes;
#define hipMemcpySrcAccessOrderStream cudaMemcpySrcAccessOrderStream
#define hipMemcpyFlagDefault          cudaMemcpyFlagDefault

static inline hipError_t hipMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes,
					     size_t count, hipMemcpyAttributes *attrs,
					     size_t *attrsIdxs, size_t numAttrs, size_t *failIdx,
					     hipStream_t stream)
{
#if CUDART_VERSION >= 13000
	if (failIdx)
		*failIdx = (size_t)-1;
	return cudaMemcpyBatchAsync(dsts, (const void *const *)srcs, sizes, count, attrs, attrsIdxs,
				    numAttrs, stream);
#else
	return cudaMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx,
				    stream);
#endif
}
#endif

/* ---- several GPUs: peer access, peer copies, link attributes --------------- */
#define hipDeviceCanAccessPeer            cudaDeviceCanAccessPeer
#define hipDeviceEnablePeerAccess         cudaDeviceEnablePeerAccess
#define hipDeviceDisablePeerAccess        cudaDeviceDisablePeerAccess
#define hipMemcpyPeerAsync                cudaMemcpyPeerAsync
#define hipErrorPeerAccessAlreadyEnabled  cudaErrorPeerAccessAlreadyEnabled
#define hipHostRegisterPortable           cudaHostRegisterPortable
typedef enum cudaDeviceP2PAttr hipDeviceP2PAttr;
#define hipDevP2PAttrPerformanceRank      cudaDevP2PAttrPerformanceRank
#define hipDeviceGetP2PAttribute          cudaDeviceGetP2PAttribute

/* ---- managed memory ------------------------------------------------------ */
#define hipMallocManaged              cudaMallocManaged
#define hipMemAttachGlobal            cudaMemAttachGlobal
#define hipMemAttachHost              cudaMemAttachHost
#define hipMemAttachSingle            cudaMemAttachSingle
#define hipStreamAttachMemAsync       cudaStreamAttachMemAsync
#define hipCpuDeviceId                cudaCpuDeviceId

typedef enum cudaMemoryAdvise hipMemoryAdvise;
#define hipMemAdviseSetReadMostly          cudaMemAdviseSetReadMostly
#define hipMemAdviseUnsetReadMostly        cudaMemAdviseUnsetReadMostly
#define hipMemAdviseSetPreferredLocation   cudaMemAdviseSetPreferredLocation
#define hipMemAdviseUnsetPreferredLocation cudaMemAdviseUnsetPreferredLocation
#define hipMemAdviseSetAccessedBy          cudaMemAdviseSetAccessedBy
#define hipMemAdviseUnsetAccessedBy        cudaMemAdviseUnsetAccessedBy

typedef enum cudaMemRangeAttribute hipMemRangeAttribute;
#define hipMemRangeAttributeReadMostly           cudaMemRangeAttributeReadMostly
#define hipMemRangeAttributePreferredLocation    cudaMemRangeAttributePreferredLocation
#define hipMemRangeAttributeAccessedBy           cudaMemRangeAttributeAccessedBy
#define hipMemRangeAttributeLastPrefetchLocation cudaMemRangeAttributeLastPrefetchLocation
#define hipMemRangeGetAttribute                  cudaMemRangeGetAttribute
#define hipMemRangeGetAttributes                 cudaMemRangeGetAttributes

typedef struct cudaPointerAttributes hipPointerAttribute_t;
#define hipPointerGetAttributes   cudaPointerGetAttributes
#define hipMemoryTypeUnregistered cudaMemoryTypeUnregistered
#define hipMemoryTypeHost         cudaMemoryTypeHost
#define hipMemoryTypeDevice       cudaMemoryTypeDevice
#define hipMemoryTypeManaged      cudaMemoryTypeManaged

/* HIP names a location by device ordinal, hipCpuDeviceId (-1) being the
 * host; CUDA 13 takes a cudaMemLocation. */
static inline struct cudaMemLocation hmb_cuda_location(int device)
{
	struct cudaMemLocation loc;
	loc.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
	loc.id = device == cudaCpuDeviceId ? 0 : device;
	return loc;
}

static inline hipError_t hipMemPrefetchAsync(const void *ptr, size_t count, int device,
					     hipStream_t stream)
{
	return cudaMemPrefetchAsync(ptr, count, hmb_cuda_location(device), 0, stream);
}

static inline hipError_t hipMemAdvise(const void *ptr, size_t count, hipMemoryAdvise advice,
				      int device)
{
	return cudaMemAdvise(ptr, count, advice, hmb_cuda_location(device));
}

/* ---- stream-ordered allocation and pools ----------------------------------- */
typedef cudaMemPool_t hipMemPool_t;
typedef struct cudaMemPoolProps hipMemPoolProps;
typedef enum cudaMemPoolAttr hipMemPoolAttr;
#define hipMallocAsync                   cudaMallocAsync
#define hipFreeAsync                     cudaFreeAsync
#define hipMallocFromPoolAsync           cudaMallocFromPoolAsync
#define hipDeviceGetDefaultMemPool       cudaDeviceGetDefaultMemPool
#define hipMemPoolCreate                 cudaMemPoolCreate
#define hipMemPoolDestroy                cudaMemPoolDestroy
#define hipMemPoolSetAttribute           cudaMemPoolSetAttribute
#define hipMemPoolGetAttribute           cudaMemPoolGetAttribute
#define hipMemPoolTrimTo                 cudaMemPoolTrimTo
#define hipMemPoolAttrReleaseThreshold   cudaMemPoolAttrReleaseThreshold
#define hipMemPoolAttrReservedMemCurrent cudaMemPoolAttrReservedMemCurrent
#define hipMemPoolAttrReservedMemHigh    cudaMemPoolAttrReservedMemHigh
#define hipMemPoolAttrUsedMemCurrent     cudaMemPoolAttrUsedMemCurrent
#define hipMemPoolAttrUsedMemHigh        cudaMemPoolAttrUsedMemHigh
/* Pools (runtime enums) and VMM (driver enums) share these names in HIP; the
 * runtime and driver give them the same values, so they are plain ints here. */
#define hipMemAllocationTypePinned       ((int)CU_MEM_ALLOCATION_TYPE_PINNED)
#define hipMemLocationTypeDevice         ((int)CU_MEM_LOCATION_TYPE_DEVICE)

/* ---- virtual memory management (driver API, see hip_on_cuda.c) ------------- */
typedef CUmemGenericAllocationHandle hipMemGenericAllocationHandle_t;
typedef CUmemAllocationProp hipMemAllocationProp;
typedef CUmemAccessDesc hipMemAccessDesc;
typedef CUmemAllocationGranularity_flags hipMemAllocationGranularity_flags;
#define hipMemAllocationGranularityMinimum     CU_MEM_ALLOC_GRANULARITY_MINIMUM
#define hipMemAllocationGranularityRecommended CU_MEM_ALLOC_GRANULARITY_RECOMMENDED
#define hipMemAccessFlagsProtReadWrite         CU_MEM_ACCESS_FLAGS_PROT_READWRITE

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

/* Shareable handles: a chunk made with requestedHandleTypes (CUDA's name of
 * HIP's requestedHandleType) exported as a file descriptor; osHandle on
 * import is the descriptor itself, cast to a pointer, on both platforms.
 * HIP has no attribute saying whether a device can export: CUDA's driver has. */
typedef CUmemAllocationHandleType hipMemAllocationHandleType;
#define hipMemHandleTypePosixFileDescriptor CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
#define HMB_ATTR_POSIX_FD_HANDLES \
	((hipDeviceAttribute_t)(HMB_DRIVER_ATTR_BASE + \
	CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED))
hipError_t hipMemExportToShareableHandle(void *shareableHandle,
					 hipMemGenericAllocationHandle_t handle,
					 hipMemAllocationHandleType handleType,
					 unsigned long long flags);
hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *handle,
					   void *osHandle, hipMemAllocationHandleType shHandleType);

#endif
