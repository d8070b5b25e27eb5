/* probe.hip - an empty kernel whose attributes the runtime can only give where
 * this build holds code for the device: the start-up check (src/system/codecheck.c). */
#include "kernels/hip_device.h"
#include "system/codecheck.h"

__global__ void probe_kernel(void)
{
}

extern "C" hipError_t hmb_probe_kernel_attributes(void)
{
	hipFuncAttributes attr;
	return hipFuncGetAttributes(&attr, (const void *)probe_kernel);
}
