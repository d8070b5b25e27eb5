/*
 * managed_static.hip - a __managed__ array of HMB_MANAGED_STATIC_WORDS words,
 * for the managed module's static/__managed__ case.
 *
 * On AMD the HIP runtime allocates a __managed__ variable when the code that
 * holds it is registered, and aborts the process if that fails: linked into
 * hipmembench, the array would kill `--version` on any machine without a GPU
 * (HIP 5.2 and 6.4 alike). So on AMD this file is its own shared object,
 * opened with dlopen only when the case runs on a GPU (bench/managed/managed_static.c);
 * CUDA registers it lazily, so on NVIDIA it is linked in.
 */
#include "kernels/hip_device.h"
#include "kernels/kernels.h"

__managed__ uint32_t managed_static[HMB_MANAGED_STATIC_WORDS];

extern "C" uint32_t *hmb_managed_static_array(void)
{
	return managed_static;
}
