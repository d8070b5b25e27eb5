/* codecheck.h - does this build hold GPU code that the device can run? */
#ifndef HMB_CODECHECK_H
#define HMB_CODECHECK_H

#include <stddef.h>

#include "platform/hip.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The runtime's answer for a kernel's attributes: fails where the build holds
 * no code for the current device (kernels/probe.hip). */
hipError_t hmb_probe_kernel_attributes(void);

/* The architectures this build holds GPU code for, as the build was asked
 * (OFFLOAD_ARCH or CUDA_ARCH: "gfx90a:xnack+ gfx942"). */
const char *hmb_build_archs(void);

struct hmb_device;
/* 0 where the current device can run this build's kernels; else -1 and a
 * sentence in err naming the device, its architecture, the build's and the
 * way to rebuild. */
int hmb_code_check(const struct hmb_device *d, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
