/* verify.c - pattern fill and check on the host, and the device check wrapper. */
#include "verify.h"

#include "../kernels/kernels.h"
#include "../kernels/pattern.h"

void hmb_fill_host(void *p, size_t bytes, uint32_t seed)
{
	uint32_t *w = p;
	for (size_t i = 0; i < bytes / 4; i++)
		w[i] = hmb_pattern(i, seed);
}

size_t hmb_check_host(const void *p, size_t bytes, uint32_t seed, uint32_t add)
{
	const uint32_t *w = p;
	size_t bad = 0;
	for (size_t i = 0; i < bytes / 4; i++)
		bad += w[i] != hmb_pattern(i, seed) + add;
	return bad;
}

hipError_t hmb_check_device(const void *p, size_t first, size_t bytes, uint32_t seed,
			    uint32_t add, unsigned long long *bad)
{
	unsigned long long *counter = NULL;
	hipError_t err = hipMalloc((void **)&counter, sizeof(*counter));

	if (err != hipSuccess)
		return err;
	err = hipMemset(counter, 0, sizeof(*counter));
	if (err == hipSuccess)
		err = hmb_launch_check(p, first, bytes / 4, seed, add, counter, 0);
	if (err == hipSuccess)
		err = hipMemcpy(bad, counter, sizeof(*bad), hipMemcpyDeviceToHost);
	hipFree(counter);
	return err;
}
