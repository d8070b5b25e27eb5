/*
 * codecheck.c - at start-up, whether this build holds GPU code for the device.
 * The runtime is asked for a kernel's attributes, which loads its code: NVIDIA
 * answers "no kernel image" and AMD "no binary for GPU" where the build was made
 * for other architectures. Said plainly, before any measurement launches one.
 * On AMD the code objects can be built for one XNACK (or SRAMECC) setting
 * ("gfx90a:xnack+"); a process running in the other one finds no code it
 * can load, and the sentence names both settings and the fix (modeplan.h).
 */
#include "system/codecheck.h"

#include <stdio.h>
#include <string.h>

#include "system/device.h"
#include "system/modeplan.h"

#ifndef HMB_BUILD_ARCHS /* set by the Makefile */
#define HMB_BUILD_ARCHS "unknown architectures"
#endif

#if defined(HMB_PLATFORM_NVIDIA)
#define ARCH_VARIABLE "CUDA_ARCH"
#else
#define ARCH_VARIABLE "OFFLOAD_ARCH"
#endif

const char *hmb_build_archs(void)
{
	return HMB_BUILD_ARCHS;
}

int hmb_code_check(const struct hmb_device *d, char *err, size_t errlen)
{
	hipError_t e = hmb_probe_kernel_attributes();
	/* gfx90a:sramecc+:xnack- is gfx90a; sm_89 is 89 for CUDA_ARCH */
	int len = (int)strcspn(d->arch, ":");
	int skip = strncmp(d->arch, "sm_", 3) == 0 ? 3 : 0;

	if (e == hipSuccess)
		return 0;
	(void)hipGetLastError();
	if ((e == hipErrorNoBinaryForGpu || e == hipErrorInvalidDeviceFunction) &&
	    hmb_code_feature_mismatch(HMB_BUILD_ARCHS, d->arch, err, errlen))
		return -1;
	if (e == hipErrorNoBinaryForGpu || e == hipErrorInvalidDeviceFunction)
		snprintf(err, errlen,
			 "this build has no GPU code for device %d (%s, %.*s): it holds %s; "
			 "rebuild with `make " ARCH_VARIABLE "=%.*s` (or plain `make` on this node)",
			 d->ordinal, d->name, len, d->arch, HMB_BUILD_ARCHS, len - skip,
			 d->arch + skip);
#if defined(HMB_PLATFORM_NVIDIA)
	else if (e == cudaErrorUnsupportedPtxVersion)
		snprintf(err, errlen,
			 "the driver cannot compile this build's PTX for device %d (%s, %.*s): "
			 "it is older than the CUDA that made it; update the driver or rebuild "
			 "with `make " ARCH_VARIABLE "=%.*s`",
			 d->ordinal, d->name, len, d->arch, len - skip, d->arch + skip);
#endif
	else
		snprintf(err, errlen, "cannot load this build's GPU code on device %d (%s, %.*s): "
			 "hipFuncGetAttributes: %s (src/system/codecheck.c)",
			 d->ordinal, d->name, len, d->arch, hipGetErrorString(e));
	return -1;
}
