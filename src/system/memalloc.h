/*
 * memalloc.h - allocating and freeing each memory kind of memmodel.h with
 * the right HIP call and flags, so that modules need no platform #ifs.
 * Modules allocate through engine/alloc.h, which builds on this. A kind
 * that this platform or this build's HIP lacks gives hipErrorNotSupported
 * without calling the runtime (the model's kinds[k].reason says why).
 */
#ifndef HMB_MEMALLOC_H
#define HMB_MEMALLOC_H

#include <stddef.h>

#include "platform/hip.h"
#include "system/memmodel.h"

/* `size` bytes of `kind` at *ptr. device: the GPU that managed memory is
 * advised for (managed-coarse-grained). On failure *ptr is NULL and nothing
 * is left allocated. The HIP call that failed is named in *call. */
hipError_t hmb_kind_alloc(enum hmb_mem_kind kind, size_t size, int device, void **ptr,
			  const char **call);
/* Free what hmb_kind_alloc gave (NULL is fine). */
hipError_t hmb_kind_free(enum hmb_mem_kind kind, void *ptr);
/* The hipHostMalloc flags a hipHostMalloc kind is allocated with on this
 * platform; -1 for other kinds and where this platform's HIP lacks a flag. */
long hmb_kind_host_flags(enum hmb_mem_kind kind);

/* Where the runtime says p lives: "device", "host-pinned" (page-locked or
 * registered), "managed", or "host-pageable" (memory the runtime does not
 * know). For records that say what a timed copy really moved; never fails
 * (a failed query is cleared from the runtime's last error). */
const char *hmb_pointer_memory(const void *p);

#endif
