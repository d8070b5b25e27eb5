/*
 * alloc.h - memory, streams and events owned by a module's context.
 *
 * Everything a module or a case allocates through these calls is recorded
 * in its context and freed by the engine (after a case) or the runner (after
 * the module) on every path, failures included, so that nothing one case or
 * module allocates can reach the next one's figures. hmb_free() gives a
 * buffer back early. An allocation that fails returns NULL (or -1) with the
 * HIP call, its error and the place kept as the pending error.
 */
#ifndef HMB_ALLOC_H
#define HMB_ALLOC_H

#include <stddef.h>

#include "platform/hip.h"
#include "system/memmodel.h"

struct hmb_ctx;

enum hmb_mem {
	HMB_MEM_DEVICE,          /* hipMalloc */
	HMB_MEM_PAGEABLE,        /* aligned malloc, pages touched once so none is faulted in later */
	HMB_MEM_PINNED,          /* hipHostMalloc(Default) */
	HMB_MEM_WRITE_COMBINED,  /* hipHostMalloc(WriteCombined) */
	HMB_MEM_MAPPED,          /* hipHostMalloc(Mapped): the device reads it in place */
	HMB_MEM_REGISTERED,      /* aligned malloc + hipHostRegister */
	HMB_MEM_MANAGED,         /* hipMallocManaged(AttachGlobal) */
	HMB_MEM_MANAGED_HOST,    /* hipMallocManaged(AttachHost) */
	HMB_MEM_SYSTEM,          /* aligned malloc, untouched (the GPU may fault it in) */
};

struct hmb_owned {
	void *p;
	int kind;                /* enum hmb_mem, or a stream / event / pool */
	size_t bytes;
};

struct hmb_owned_list {
	struct hmb_owned *v;
	size_t n, cap;
};

void *hmb_alloc(struct hmb_ctx *ctx, enum hmb_mem kind, size_t bytes);
/* A memory kind of memmodel.h through hmb_kind_alloc (memalloc.h), owned
 * like hmb_alloc's; hipErrorNotSupported where the platform lacks it. */
void *hmb_alloc_kind(struct hmb_ctx *ctx, enum hmb_mem_kind kind, size_t bytes);
void hmb_free(struct hmb_ctx *ctx, void *p);
/* A non-blocking stream, or an event, owned by the context (NULL on failure). */
hipStream_t hmb_stream_new(struct hmb_ctx *ctx);
hipEvent_t hmb_event_new(struct hmb_ctx *ctx);
/* Hand ownership of an object created elsewhere to the context. */
void hmb_own_pool(struct hmb_ctx *ctx, hipMemPool_t pool);

/* Release everything allocated since mark, newest first. */
size_t hmb_owned_mark(const struct hmb_ctx *ctx);
void hmb_owned_release(struct hmb_ctx *ctx, size_t mark);
const char *hmb_mem_name(enum hmb_mem kind);

#endif
