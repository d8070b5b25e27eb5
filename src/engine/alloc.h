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

struct hmb_owned {
	void *p;
	int kind;                /* enum hmb_mem_kind, or a stream / event / pool */
	size_t bytes;
};

struct hmb_owned_list {
	struct hmb_owned *v;
	size_t n, cap;
};

/* `bytes` of a memory kind of memmodel.h, made by hmb_kind_alloc (memalloc.h);
 * hipErrorNotSupported is the error where the platform lacks the kind. */
void *hmb_alloc(struct hmb_ctx *ctx, enum hmb_mem_kind kind, size_t bytes);
void hmb_free(struct hmb_ctx *ctx, void *p);
/* A non-blocking stream, or an event, owned by the context (NULL on failure). */
hipStream_t hmb_stream_new(struct hmb_ctx *ctx);
hipEvent_t hmb_event_new(struct hmb_ctx *ctx);
/* Hand ownership of an object created elsewhere to the context. */
void hmb_own_pool(struct hmb_ctx *ctx, hipMemPool_t pool);

/* Release everything allocated since mark, newest first. */
size_t hmb_owned_mark(const struct hmb_ctx *ctx);
void hmb_owned_release(struct hmb_ctx *ctx, size_t mark);

#endif
