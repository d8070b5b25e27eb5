/* alloc.c - allocations owned by a context, freed on every path. */
#include "engine/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fault.h"
#include "engine/module.h"
#include "system/memalloc.h"
#include "util/util.h"

/* Owned objects that are not memory, numbered past every memory kind. */
enum { OWNED_STREAM = 100, OWNED_EVENT, OWNED_POOL };
_Static_assert((int)HMB_KIND_ALL < (int)OWNED_STREAM,
	       "memory kinds and other owned objects overlap");

static void own(struct hmb_ctx *ctx, void *p, int kind, size_t bytes)
{
	struct hmb_owned_list *l = &ctx->owned;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = hmb_xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = (struct hmb_owned){ p, kind, bytes };
}

/* With HMB_FAULT (fault.h): does this allocation fail instead of being made? */
static int alloc_fault(const char *what, size_t bytes)
{
	char where[96];

	if (!hmb_fault_armed)
		return 0;
	if (bytes)
		snprintf(where, sizeof(where), "%s memory (%s)", what, hmb_sz(bytes));
	else
		snprintf(where, sizeof(where), "%s", what);
	return hmb_fault_point(HMB_FAULT_ALLOC, where);
}

void *hmb_alloc(struct hmb_ctx *ctx, enum hmb_mem_kind kind, size_t bytes)
{
	void *p = NULL;
	const char *call = "hmb_kind_alloc";
	hipError_t e;

	if (alloc_fault(hmb_kind_name(kind), bytes))
		return NULL;
	e = hmb_kind_alloc(kind, bytes, ctx->dev ? ctx->dev->ordinal : 0, &p, &call);
	if (e == hipErrorOutOfMemory && strcmp(call, "aligned_alloc") == 0) {
		hmb_set_error("cannot allocate %s of host memory", hmb_sz(bytes));
		return NULL;
	}
	if (e != hipSuccess) {
		hmb_hip_error(call, e, __FILE__, __LINE__);
		return NULL;
	}
	own(ctx, p, (int)kind, bytes);
	return p;
}

static void release_one(const struct hmb_owned *o)
{
	switch (o->kind) {
	case OWNED_STREAM:
		(void)hipStreamDestroy((hipStream_t)o->p);
		break;
	case OWNED_EVENT:
		(void)hipEventDestroy((hipEvent_t)o->p);
		break;
	case OWNED_POOL:
		(void)hipMemPoolDestroy((hipMemPool_t)o->p);
		break;
	default:
		(void)hmb_kind_free((enum hmb_mem_kind)o->kind, o->p);
		break;
	}
}

void hmb_free(struct hmb_ctx *ctx, void *p)
{
	struct hmb_owned_list *l = &ctx->owned;
	if (!p)
		return;
	for (size_t i = l->n; i-- > 0;)
		if (l->v[i].p == p) {
			release_one(&l->v[i]);
			memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(*l->v));
			l->n--;
			return;
		}
}

hipStream_t hmb_stream_new(struct hmb_ctx *ctx)
{
	hipStream_t s = NULL;
	if (alloc_fault("a stream", 0))
		return NULL;
	HMB_CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
	own(ctx, (void *)s, OWNED_STREAM, 0);
	return s;
fail:
	return NULL;
}

hipEvent_t hmb_event_new(struct hmb_ctx *ctx)
{
	hipEvent_t e = NULL;
	if (alloc_fault("an event", 0))
		return NULL;
	HMB_CHECK(hipEventCreate(&e));
	own(ctx, (void *)e, OWNED_EVENT, 0);
	return e;
fail:
	return NULL;
}

void hmb_own_pool(struct hmb_ctx *ctx, hipMemPool_t pool)
{
	own(ctx, (void *)pool, OWNED_POOL, 0);
}

size_t hmb_owned_mark(const struct hmb_ctx *ctx)
{
	return ctx->owned.n;
}

void hmb_owned_release(struct hmb_ctx *ctx, size_t mark)
{
	struct hmb_owned_list *l = &ctx->owned;
	if (l->n > mark)
		(void)hipDeviceSynchronize(); /* nothing queued may still use what goes */
	while (l->n > mark)
		release_one(&l->v[--l->n]);
	(void)hipGetLastError();
	if (l->n == 0) {
		free(l->v);
		memset(l, 0, sizeof(*l));
	}
}
