/*
 * vmm.h - what the parts of the vmm module share: the allocation properties
 * of its chunks, and the cases vmm_calls.c measures for vmm.c.
 */
#ifndef HMB_BENCH_VMM_H
#define HMB_BENCH_VMM_H

#include "engine/measure.h"

#if HMB_HAVE_VMM

#define VMM_SEED 4242u
#define VMM_HEADROOM (1ull << 30)   /* free device memory the module leaves alone */

struct vmm {
	hipMemAllocationProp prop;  /* pinned device memory on this device */
	hipMemAccessDesc access;    /* read-write for this device */
	size_t gran;                /* the minimum granularity */
};

static inline size_t vmm_round_up(size_t v, size_t g)
{
	return (v + g - 1) / g * g;
}

/* call/NAME: each VMM call alone, for one chunk size (vmm_calls.c). */
void vmm_call_costs(struct hmb_ctx *ctx, const struct vmm *m, size_t size);
/* free-while-busy/NAME: freeing while another stream runs a kernel (vmm_calls.c). */
void vmm_free_while_busy(struct hmb_ctx *ctx, const struct vmm *m, size_t size);
/* share/posix-fd/NAME: a chunk handed to another process as a file descriptor (vmm_share.c). */
void vmm_share(struct hmb_ctx *ctx, size_t size);

#endif

#endif
