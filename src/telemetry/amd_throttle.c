/*
 * amd_throttle.c - throttle bits in words. The ASIC-independent bits are
 * the driver's (drivers/gpu/drm/amd/pm/swsmu/inc/amdgpu_smu.h,
 * SMU_THROTTLER_*): 0-7 power limits (PPT0-3, SPL, FPPT, SPPT, SPPT_APU),
 * 16-23 current limits (TDC GFX/SOC/MEM/VDD/CVIP, EDC CPU/GFX, APCC), 32-47
 * temperatures, VR hot and PROCHOT; 56-57 PPM and FIT.
 */
#include "telemetry/amd_throttle.h"

#include <stdio.h>

int hmb_amd_throttle_words(uint64_t m, char *out, size_t len)
{
	static const struct {
		int lo, hi;
		const char *name;
		int slows;
	} groups[] = {
		{ 0, 7, "power limit", 1 }, { 16, 23, "current limit", 1 },
		{ 32, 43, "temperature", 1 }, { 44, 45, "voltage regulator hot", 1 },
		{ 46, 47, "PROCHOT", 1 }, { 56, 56, "PPM", 0 }, { 57, 57, "FIT", 0 },
	};
	size_t used = 0;
	int slowed = 0;

	out[0] = '\0';
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		uint64_t mask = 0;
		for (int b = groups[i].lo; b <= groups[i].hi; b++)
			mask |= 1ull << b;
		if (!(m & mask))
			continue;
		slowed |= groups[i].slows;
		if (used < len)
			used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "",
						 groups[i].name);
	}
	return slowed;
}

void hmb_amd_throttle(struct hmb_gpu_sample *s, uint64_t indep, uint32_t asic)
{
	if (indep != UINT64_MAX) {
		s->throttle_mask = (long long)indep;
		s->throttled = hmb_amd_throttle_words(indep, s->throttle, sizeof(s->throttle));
	} else if (asic != UINT32_MAX) {
		/* zero means nothing throttles on any ASIC; what a set bit means
		 * depends on the ASIC, so "throttled" stays unknown */
		s->throttle_mask = asic;
		s->throttled = asic ? -1 : 0;
		s->throttle[0] = '\0';
		if (asic)
			snprintf(s->throttle, sizeof(s->throttle), "ASIC-specific throttle bits 0x%x",
				 (unsigned)asic);
	}
}
