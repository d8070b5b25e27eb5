/*
 * managed_advice.c - two more advice cases, timed like managed.c's
 * advise-.../first-kernel ones on the module's buffer of each size: before
 * each sample the host writes every page (untimed), then the first kernel
 * is timed with events.
 *   advise-accessed-by-host/first-kernel  hipMemAdviseSetAccessedBy with
 *       hipCpuDeviceId: the host keeps a mapping of the pages wherever they
 *       are; the increment kernel (+1 to every word). Against
 *       advise-accessed-by-device: does a host mapping cost the GPU's faults
 *       anything?
 *   advise-combined/first-kernel  the combination the ROCm HIP documentation
 *       gives for data a GPU reads ("Unified memory management", section
 *       "Memory advice", example unified_memory_advice.hip:
 *       https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_runtime_api/
 *       memory_management/unified_memory.html): preferred location the
 *       device, accessed by the device, read-mostly, set in that order; the
 *       read-only kernel (reads every word, counts mismatches), as for
 *       advise-read-mostly. Against advise-read-mostly: what do the other
 *       two hints add?
 * Both report speedup_over_on_demand (the median of on-demand/first-kernel of
 * the same size over theirs, where that ran) and the range attributes read
 * both ways (managed_range.c). Both are on request: each costs what an
 * advise-* case costs (about 1-3 s at the default sizes).
 */
#include "bench/managed/managed.h"

static const struct gpu_spec specs[] = {
	{ "advise-accessed-by-host/first-kernel", ACCESSED_BY_HOST, 1, 0, KERNEL, 1,
	  "increment kernel (+1 to every word)" },
	{ "advise-combined/first-kernel", GUIDE_COMBINED, 1, 0, READ, 1,
	  "read-only kernel (reads every word and counts mismatches)" },
};

void managed_advice_run(struct hmb_ctx *ctx, struct managed *m)
{
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]) && !hmb_interrupted(); i++) {
		struct gpu_case k = { .spec = &specs[i], .m = m, .p = m->buf, .bytes = m->size };
		struct hmb_record *r = managed_run_gpu_case(ctx, &k, &managed_gpu_ops);
		double med;

		if (!r)
			continue;
		med = hmb_median(r);
		if (m->on_demand > 0 && med > 0)
			hmb_metric(r, "speedup_over_on_demand", m->on_demand / med, "x");
		hmb_commit(ctx, r);
	}
}
