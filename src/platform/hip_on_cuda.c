/*
 * hip_on_cuda.c - the part of the HIP-to-CUDA mapping that needs the CUDA
 * driver API: virtual memory management and driver-only device attributes.
 *
 * The driver functions are looked up at run time through the CUDA runtime
 * (cudaGetDriverEntryPointByVersion) instead of linking libcuda, so the
 * binary starts, and reports "no GPU", on a machine without the driver.
 * CUresult and cudaError_t share their values for the codes these calls
 * return (1 invalid value, 2 out of memory, 3 not initialised, 101 invalid
 * device, 801 not supported, 999 unknown), so a CUresult is returned as is.
 */
#include "platform/hip_on_cuda.h"


#define HMB_CUDA_ABI_VERSION 12000 /* the cuMem* signatures as of CUDA 12.0 */

static void *driver_symbol(const char *name)
{
	void *fn = NULL;
	enum cudaDriverEntryPointQueryResult found;

	if (cudaGetDriverEntryPointByVersion(name, &fn, HMB_CUDA_ABI_VERSION, cudaEnableDefault,
					     &found) != cudaSuccess ||
	    found != cudaDriverEntryPointSuccess)
		return NULL;
	return fn;
}

/* Resolve a driver function once; an unresolvable one reads as "not supported". */
#define DRIVER_CALL(type, name, ...)                                   \
	do {                                                           \
		static type fn;                                        \
		if (!fn)                                               \
			fn = (type)driver_symbol(name);                \
		if (!fn)                                               \
			return cudaErrorNotSupported;                  \
		return (hipError_t)fn(__VA_ARGS__);                    \
	} while (0)

static CUdeviceptr dptr(const void *p)
{
	return (CUdeviceptr)(size_t)p;
}

hipError_t hmb_cuda_driver_attribute(int *value, int attr, int device)
{
	CUdevice dev = device;
	typedef CUresult (*fn_t)(int *, CUdevice_attribute, CUdevice);
	/* The runtime initialises the driver; make sure that happened first. */
	hipError_t err = cudaFree(NULL);
	if (err != cudaSuccess)
		return err;
	DRIVER_CALL(fn_t, "cuDeviceGetAttribute", value, (CUdevice_attribute)attr, dev);
}

hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *handle, size_t size,
			const hipMemAllocationProp *prop, unsigned long long flags)
{
	typedef CUresult (*fn_t)(CUmemGenericAllocationHandle *, size_t,
				 const CUmemAllocationProp *, unsigned long long);
	DRIVER_CALL(fn_t, "cuMemCreate", handle, size, prop, flags);
}

hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle)
{
	typedef CUresult (*fn_t)(CUmemGenericAllocationHandle);
	DRIVER_CALL(fn_t, "cuMemRelease", handle);
}

static CUresult reserve(void **ptr, size_t size, size_t alignment, void *addr,
			unsigned long long flags)
{
	typedef CUresult (*fn_t)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
	static fn_t fn;
	CUdeviceptr out = 0;
	CUresult res;

	if (!fn)
		fn = (fn_t)driver_symbol("cuMemAddressReserve");
	if (!fn)
		return CUDA_ERROR_NOT_SUPPORTED;
	res = fn(&out, size, alignment, dptr(addr), flags);
	*ptr = (void *)(size_t)out;
	return res;
}

hipError_t hipMemAddressReserve(void **ptr, size_t size, size_t alignment, void *addr,
				unsigned long long flags)
{
	return (hipError_t)reserve(ptr, size, alignment, addr, flags);
}

hipError_t hipMemAddressFree(void *ptr, size_t size)
{
	typedef CUresult (*fn_t)(CUdeviceptr, size_t);
	DRIVER_CALL(fn_t, "cuMemAddressFree", dptr(ptr), size);
}

hipError_t hipMemMap(void *ptr, size_t size, size_t offset,
		     hipMemGenericAllocationHandle_t handle, unsigned long long flags)
{
	typedef CUresult (*fn_t)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,
				 unsigned long long);
	DRIVER_CALL(fn_t, "cuMemMap", dptr(ptr), size, offset, handle, flags);
}

hipError_t hipMemUnmap(void *ptr, size_t size)
{
	typedef CUresult (*fn_t)(CUdeviceptr, size_t);
	DRIVER_CALL(fn_t, "cuMemUnmap", dptr(ptr), size);
}

hipError_t hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count)
{
	typedef CUresult (*fn_t)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
	DRIVER_CALL(fn_t, "cuMemSetAccess", dptr(ptr), size, desc, count);
}

hipError_t hipMemGetAllocationGranularity(size_t *granularity, const hipMemAllocationProp *prop,
					  hipMemAllocationGranularity_flags option)
{
	typedef CUresult (*fn_t)(size_t *, const CUmemAllocationProp *,
				 CUmemAllocationGranularity_flags);
	DRIVER_CALL(fn_t, "cuMemGetAllocationGranularity", granularity, prop, option);
}

hipError_t hipMemExportToShareableHandle(void *shareableHandle,
					 hipMemGenericAllocationHandle_t handle,
					 hipMemAllocationHandleType handleType,
					 unsigned long long flags)
{
	typedef CUresult (*fn_t)(void *, CUmemGenericAllocationHandle, CUmemAllocationHandleType,
				 unsigned long long);
	DRIVER_CALL(fn_t, "cuMemExportToShareableHandle", shareableHandle, handle, handleType,
		    flags);
}

hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *handle,
					   void *osHandle, hipMemAllocationHandleType shHandleType)
{
	typedef CUresult (*fn_t)(CUmemGenericAllocationHandle *, void *, CUmemAllocationHandleType);
	DRIVER_CALL(fn_t, "cuMemImportFromShareableHandle", handle, osHandle, shHandleType);
}
