/*
 * amd_gpu_metrics.c - decoding the GPU metrics table of amdsmi and rocm-smi
 * at the offsets of the layout that the library's version selects
 * (amd_smi_layouts.h). Throttle bits are the driver's ASIC-
 * independent ones (drivers/gpu/drm/amd/pm/swsmu/inc/amdgpu_smu.h):
 * 0-7 power limits (PPT0-3, SPL, FPPT, SPPT, SPPT_APU), 16-23 current limits
 * (TDC GFX/SOC/MEM/VDD/CVIP, EDC CPU/GFX, APCC), 32-47 temperatures and VR
 * hot, PROCHOT; 56-57 PPM and FIT.
 */
#include "telemetry/amd_gpu_metrics.h"
#include "system/device.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define NA16 0xffffu
#define NA32 0xffffffffu
#define NA64 0xffffffffffffffffull

static int ok16(uint16_t v)
{
	return v != NA16 && v != 0;
}

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

static uint16_t u16_at(const void *buf, uint16_t off)
{
	uint16_t v = NA16;
	if (off)
		memcpy(&v, (const unsigned char *)buf + off, sizeof(v));
	return v;
}

static uint32_t u32_at(const void *buf, uint16_t off)
{
	uint32_t v = NA32;
	if (off)
		memcpy(&v, (const unsigned char *)buf + off, sizeof(v));
	return v;
}

static uint64_t u64_at(const void *buf, uint16_t off)
{
	uint64_t v = NA64;
	if (off)
		memcpy(&v, (const unsigned char *)buf + off, sizeof(v));
	return v;
}

int hmb_gpu_metrics_decode(const struct hmb_metrics_layout *l, const void *buf,
			   struct hmb_gpu_sample *s)
{
	struct {
		uint16_t structure_size, temperature_edge, temperature_hotspot;
		uint16_t average_socket_power, current_gfxclk, current_uclk;
		uint16_t pcie_link_width, pcie_link_speed, current_socket_power;
		uint32_t throttle_status;
		uint64_t indep_throttle_status;
	} g;

	memcpy(&g.structure_size, buf, sizeof(g.structure_size));
	g.temperature_edge = u16_at(buf, l->temperature_edge);
	g.temperature_hotspot = u16_at(buf, l->temperature_hotspot);
	g.average_socket_power = u16_at(buf, l->average_socket_power);
	g.current_gfxclk = u16_at(buf, l->current_gfxclk);
	g.current_uclk = u16_at(buf, l->current_uclk);
	g.pcie_link_width = u16_at(buf, l->pcie_link_width);
	g.pcie_link_speed = u16_at(buf, l->pcie_link_speed);
	g.current_socket_power = u16_at(buf, l->current_socket_power);
	g.throttle_status = u32_at(buf, l->throttle_status);
	g.indep_throttle_status = u64_at(buf, l->indep_throttle_status);
	if (g.structure_size == NA16 || g.structure_size == 0)
		return 0;
	if (ok16(g.current_gfxclk))
		s->sm_clock_mhz = g.current_gfxclk;
	if (ok16(g.current_uclk))
		s->mem_clock_mhz = g.current_uclk;
	if (ok16(g.temperature_edge))
		s->temperature_c = g.temperature_edge;
	else if (ok16(g.temperature_hotspot))   /* MI300 has no edge sensor */
		s->temperature_c = g.temperature_hotspot;
	if (ok16(g.current_socket_power))
		s->power_w = g.current_socket_power;
	else if (ok16(g.average_socket_power))
		s->power_w = g.average_socket_power;
	if (ok16(g.pcie_link_width) && ok16(g.pcie_link_speed)) {
		s->link_width = g.pcie_link_width;
		s->link_gen = hmb_pcie_gen_of_gts(g.pcie_link_speed / 10.0);
	}
	if (g.indep_throttle_status != NA64) {
		s->throttle_mask = (long long)g.indep_throttle_status;
		s->throttled = hmb_amd_throttle_words(g.indep_throttle_status, s->throttle,
						      sizeof(s->throttle));
	} else if (g.throttle_status != NA32) {
		/* ASIC-specific bits: zero means nothing throttles on any ASIC; what a
		 * set bit means depends on the ASIC, so "throttled" stays unknown. */
		s->throttle_mask = g.throttle_status;
		s->throttled = g.throttle_status ? -1 : 0;
		if (g.throttle_status)
			snprintf(s->throttle, sizeof(s->throttle), "ASIC-specific throttle bits 0x%x",
				 (unsigned)g.throttle_status);
	}
	return 1;
}
