/*
 * memcpy_variants.c - two on-request families of the memcpy module.
 *
 * DIR/KIND/async-default-kind: h2d and d2h with pinned host memory and d2d,
 * each a hipMemcpyAsync with hipMemcpyDefault, the runtime taking the
 * direction from the pointers (unified addressing), timed exactly like
 * DIR/KIND/async (events, behind the latch; d2d cycling through buffer pairs
 * that cover twice the device's last-level cache). Set beside the explicit
 * kind's record at the same size, the difference is what inferring the
 * direction costs (expected: nothing measurable).
 *
 * h2h/KIND/sync and h2h/KIND/memcpy: pinned -> pinned and pageable ->
 * pageable host copies, with hipMemcpy(hipMemcpyHostToHost) (it returns
 * when the copy is done: no synchronisation added) and with the C library's
 * memcpy() on the same buffers, both on the host clock: what the runtime's
 * host-to-host path costs against a plain memcpy. The copies cycle through
 * buffer pairs covering twice the host's last-level cache (read from sysfs;
 * observed.host_cache_bytes), so large sizes are memory bandwidth, not
 * cache bandwidth; GB/s counts each byte once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/memcpy/memcpy.h"
#include "engine/report.h"

static const char *const dir_name[] = { "h2d", "d2h", "d2d" };

static void default_kind_case(struct hmb_ctx *ctx, const struct mc_regions *g, uint8_t *host,
			      int dir, size_t size)
{
	struct hmb_record *r = hmb_case_record(ctx, "%s/%s/async-default-kind", dir_name[dir],
					dir == 2 ? "device" : "pinned");
	struct mc_copy k = {
		.src = dir == 0 ? host : g->dev_a,
		.dst = dir == 0 ? g->dev_a : dir == 1 ? host : g->dev_b,
		.src_dev = dir != 0,
		.dst_dev = dir != 1,
		.size = size,
		.sets = dir == 2 ? mc_sets(g->cache, g->region, size) : 1,
		.kind = hipMemcpyDefault,
		.api = MC_ASYNC,
		.latch = 1,
	};

	if (!hmb_keep_selected(ctx, r))
		return;
	hmb_param_str(r, "host_memory", dir == 2 ? "device" : "pinned");
	hmb_param_str(r, "compare_with", dir == 2 ? "d2d/device/async" : dir == 0
		      ? "h2d/pinned/async" : "d2h/pinned/async");
	if (dir == 2) {
		hmb_context_str(r, "bytes_counted", "copied once (not read + written)");
		hmb_observe_num(r, "cache_bytes", (double)g->cache);
		hmb_observe_num(r, "cache_footprint_bytes", (double)k.sets * (double)size);
		hmb_observe_bool(r, "cache_resident",
				 (double)k.sets * (double)size < 2.0 * (double)g->cache);
	}
	mc_measure(ctx, r, &k, NULL, NULL);
}

void mc_default_kind(struct hmb_ctx *ctx, const struct mc_regions *g)
{
	size_t max = hmb_sizes_max(g->sizes);
	uint8_t *host = NULL;

	if (!mc_family_selected(ctx, "*/*/async-default-kind"))
		return;
	if (mc_family_selected(ctx, "d2h/pinned/async-default-kind") ||
	    mc_family_selected(ctx, "h2d/pinned/async-default-kind")) {
		if (!(host = hmb_alloc(ctx, HMB_KIND_PINNED, max))) {
			mc_alloc_failed(ctx, "pinned", max);
			return;
		}
	}
	for (int d = 0; d < 3; d++)
		for (size_t i = 0; i < g->sizes->n && !hmb_interrupted(); i++)
			if (d == 2 || host)
				default_kind_case(ctx, g, host, d, g->sizes->v[i]);
	hmb_free(ctx, host);
}

/* The host's last-level cache in bytes from sysfs (cpu0's highest level),
 * 0 where it cannot be read. */
static size_t host_cache_bytes(void)
{
	size_t best = 0;
	int best_level = 0;

	for (int i = 0; i < 10; i++) {
		char path[96], unit = 0;
		unsigned long v = 0;
		int level = 0;
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (!(f = fopen(path, "r")))
			continue;
		if (fscanf(f, "%d", &level) != 1)
			level = 0;
		fclose(f);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (!(f = fopen(path, "r")))
			continue;
		if (fscanf(f, "%lu%c", &v, &unit) >= 1 && level >= best_level) {
			best_level = level;
			best = (size_t)v << (unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30
											      : 0);
		}
		fclose(f);
	}
	return best;
}

/* Host cache assumed where sysfs does not say (a large server L3). */
#define HOST_CACHE_ASSUMED (256u << 20)
/* The most a side's buffer pairs take beyond the largest size. */
#define HOST_ROOM_EXTRA (1ull << 30)

static void h2h_case(struct hmb_ctx *ctx, const char *kind, uint8_t *src, uint8_t *dst,
		     size_t room, size_t cache, int cache_read, enum mc_api api, size_t size)
{
	struct hmb_record *r = hmb_case_record(ctx, "h2h/%s/%s", kind, api == MC_HOST ? "memcpy"
											: "sync");
	struct mc_copy k = {
		.src = src, .dst = dst, .size = size, .sets = mc_sets(cache, room, size),
		.kind = hipMemcpyHostToHost, .api = api,
	};

	if (!hmb_keep_selected(ctx, r))
		return;
	hmb_param_str(r, "host_memory", kind);
	hmb_context_str(r, "bytes_counted", "copied once (not read + written)");
	hmb_observe_num(r, "host_cache_bytes", (double)cache);
	hmb_observe_str(r, "host_cache_source", cache_read
			? "sysfs (cpu0's highest cache level)"
			: "assumed: sysfs cache sizes unreadable");
	hmb_observe_num(r, "cache_footprint_bytes", (double)k.sets * (double)size);
	hmb_observe_bool(r, "cache_resident", (double)k.sets * (double)size < 2.0 * (double)cache);
	mc_measure(ctx, r, &k, NULL, NULL);
}

void mc_host_to_host(struct hmb_ctx *ctx, const struct mc_regions *g)
{
	static const char *const kinds[] = { "pinned", "pageable" };
	static const enum hmb_mem_kind mem[] = { HMB_KIND_PINNED, HMB_KIND_PAGEABLE };
	size_t max = hmb_sizes_max(g->sizes), cache = host_cache_bytes(), room;
	int cache_read = cache > 0;

	if (!cache_read)
		cache = HOST_CACHE_ASSUMED;
	room = (max + (2 * cache < HOST_ROOM_EXTRA ? 2 * cache : HOST_ROOM_EXTRA) + 4095) / 4096
	       * 4096;
	for (int m = 0; m < 2 && !hmb_interrupted(); m++) {
		char family[32];
		uint8_t *src, *dst;

		snprintf(family, sizeof(family), "h2h/%s/*", kinds[m]);
		if (!mc_family_selected(ctx, family))
			continue;
		if (!(src = hmb_alloc(ctx, mem[m], room)) || !(dst = hmb_alloc(ctx, mem[m], room))) {
			mc_alloc_failed(ctx, kinds[m], room);
			hmb_free(ctx, src);
			continue;
		}
		for (int a = 0; a < 2; a++)
			for (size_t i = 0; i < g->sizes->n && !hmb_interrupted(); i++)
				h2h_case(ctx, kinds[m], src, dst, room, cache, cache_read,
					 a ? MC_HOST : MC_BLOCKING, g->sizes->v[i]);
		hmb_free(ctx, src);
		hmb_free(ctx, dst);
	}
}
