/* hip_device.h - HIP for device code: ROCm's header on AMD, the mapping on NVIDIA. */
#ifndef HMB_HIP_DEVICE_H
#define HMB_HIP_DEVICE_H

/* Kernels make no copies: the copy-trace hook stays out of device code. */
#define HMB_COPY_TRACE_OFF

#if defined(HMB_PLATFORM_NVIDIA)
#include "platform/hip.h"
#else
#include <hip/hip_runtime.h>
#endif

#include "kernels/geometry.h"

#endif
