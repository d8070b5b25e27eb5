/* alloc.c - allocations owned by a context, freed on every path. */
#include "engine/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fault.h"
#include "engine/module.h"
#include "system/memalloc.h"
#include "util/util.h"

enum { OWNED_STREAM = 100, OWNED_EVENT, OWNED_POOL, OWNED_KIND = 200 /* + hmb_mem_kind */ };

static const char *const mem_names[] = { "device", "pageable", "pinned", "write-combined",
					 "mapped", "registered", "managed", "managed-host",
					 "system" };

const char *hmb_mem_name(enum hmb_mem kind)
{
	return kind <= HMB_MEM_SYSTEM ? mem_names[kind] : "?";
}

static void own(struct hmb_ctx *ctx, void *p, int kind, size_t bytes)
{
	struct hmb_owned_list *l = &ctx->owned;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = hmb_xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = (struct hmb_owned){ p, kind, bytes };
}

static void *host_pages(size_t bytes, int touch)
{
	size_t rounded = (bytes + 4095) / 4096 * 4096;
	void *p = aligned_alloc(4096, rounded ? rounded : 4096);
	if (p && touch)
		memset(p, 0, rounded);
	return p;
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

void *hmb_alloc(struct hmb_ctx *ctx, enum hmb_mem kind, size_t bytes)
{
	void *p = NULL;

	if (alloc_fault(hmb_mem_name(kind), bytes))
		return NULL;
	switch (kind) {
	case HMB_MEM_DEVICE:
		HMB_CHECK(hipMalloc(&p, bytes));
		break;
	case HMB_MEM_PINNED:
		HMB_CHECK(hipHostMalloc(&p, bytes, hipHostMallocDefault));
		break;
	case HMB_MEM_WRITE_COMBINED:
		HMB_CHECK(hipHostMalloc(&p, bytes, hipHostMallocWriteCombined));
		break;
	case HMB_MEM_MAPPED:
		HMB_CHECK(hipHostMalloc(&p, bytes, hipHostMallocMapped));
		break;
	case HMB_MEM_MANAGED:
		HMB_CHECK(hipMallocManaged(&p, bytes, hipMemAttachGlobal));
		break;
	case HMB_MEM_MANAGED_HOST:
		HMB_CHECK(hipMallocManaged(&p, bytes, hipMemAttachHost));
		break;
	case HMB_MEM_PAGEABLE:
	case HMB_MEM_SYSTEM:
	case HMB_MEM_REGISTERED:
		p = host_pages(bytes, kind != HMB_MEM_SYSTEM);
		if (!p) {
			hmb_set_error("cannot allocate %s of host memory", hmb_sz(bytes));
			return NULL;
		}
		if (kind == HMB_MEM_REGISTERED) {
			hipError_t e = hipHostRegister(p, bytes, hipHostRegisterDefault);
			if (e != hipSuccess) {
				free(p);
				p = NULL;
				hmb_hip_error("hipHostRegister(p, bytes, hipHostRegisterDefault)", e,
					      __FILE__, __LINE__);
				return NULL;
			}
		}
		break;
	}
	own(ctx, p, kind, bytes);
	return p;
fail:
	return NULL;
}

void *hmb_alloc_kind(struct hmb_ctx *ctx, enum hmb_mem_kind kind, size_t bytes)
{
	void *p = NULL;
	const char *call = "hmb_kind_alloc";
	hipError_t e;

	if (alloc_fault(hmb_kind_name(kind), bytes))
		return NULL;
	e = hmb_kind_alloc(kind, bytes, ctx->dev ? ctx->dev->ordinal : 0, &p, &call);
	if (e != hipSuccess) {
		hmb_hip_error(call, e, __FILE__, __LINE__);
		return NULL;
	}
	own(ctx, p, OWNED_KIND + (int)kind, bytes);
	return p;
}

static void release_one(const struct hmb_owned *o)
{
	if (o->kind >= OWNED_KIND) {
		(void)hmb_kind_free((enum hmb_mem_kind)(o->kind - OWNED_KIND), o->p);
		return;
	}
	switch (o->kind) {
	case HMB_MEM_DEVICE:
	case HMB_MEM_MANAGED:
	case HMB_MEM_MANAGED_HOST:
		(void)hipFree(o->p);
		break;
	case HMB_MEM_PINNED:
	case HMB_MEM_WRITE_COMBINED:
	case HMB_MEM_MAPPED:
		(void)hipHostFree(o->p);
		break;
	case HMB_MEM_REGISTERED:
		(void)hipHostUnregister(o->p);
		free(o->p);
		break;
	case HMB_MEM_PAGEABLE:
	case HMB_MEM_SYSTEM:
		free(o->p);
		break;
	case OWNED_STREAM:
		(void)hipStreamDestroy((hipStream_t)o->p);
		break;
	case OWNED_EVENT:
		(void)hipEventDestroy((hipEvent_t)o->p);
		break;
	case OWNED_POOL:
		(void)hipMemPoolDestroy((hipMemPool_t)o->p);
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
