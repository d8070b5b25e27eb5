/* latch.c - a host-released latch kernel for enqueue-free GPU timing. */
#include "engine/latch.h"

#include "kernels/kernels.h"
#include "system/memalloc.h"

/* Each poll reads host memory over the link (about a microsecond): the guard
 * frees a forgotten latch after some seconds instead of hanging the GPU. */
#define LATCH_MAX_POLLS 5000000LL

hipError_t hmb_latch_create(struct hmb_latch *l)
{
	hipError_t err;

	l->host = NULL;
	l->dev = NULL;
	err = hmb_kind_alloc(HMB_KIND_MAPPED, 2 * sizeof(int), 0, (void **)&l->host, NULL);
	if (err != hipSuccess)
		return err;
	l->host[0] = 1;
	l->host[1] = 0;
	return hipHostGetDevicePointer((void **)&l->dev, (void *)l->host, 0);
}

hipError_t hmb_latch_hold(struct hmb_latch *l, hipStream_t stream)
{
	__atomic_store_n(&l->host[1], 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&l->host[0], 0, __ATOMIC_SEQ_CST);
	return hmb_launch_latch(l->dev, LATCH_MAX_POLLS, stream);
}

void hmb_latch_release(struct hmb_latch *l)
{
	__atomic_store_n(&l->host[0], 1, __ATOMIC_SEQ_CST);
}

int hmb_latch_expired(const struct hmb_latch *l)
{
	return __atomic_load_n(&l->host[1], __ATOMIC_SEQ_CST) != 0;
}

void hmb_latch_destroy(struct hmb_latch *l)
{
	if (l->host)
		(void)hmb_kind_free(HMB_KIND_MAPPED, (void *)l->host);
	l->host = NULL;
}
