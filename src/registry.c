/* registry.c - every module, once. Add a module here and in the Makefile. */
#include "registry.h"

#include <string.h>

extern const struct hmb_bench hmb_bench_memcpy, hmb_bench_overlap, hmb_bench_managed,
	hmb_bench_xnack, hmb_bench_pool, hmb_bench_vmm;

const struct hmb_bench *const hmb_benches[] = {
	&hmb_bench_memcpy,
	&hmb_bench_overlap,
	&hmb_bench_managed,
	&hmb_bench_xnack,
	&hmb_bench_pool,
	&hmb_bench_vmm,
	NULL,
};

const struct hmb_bench *hmb_bench_find(const char *name)
{
	for (int i = 0; hmb_benches[i]; i++)
		if (strcmp(hmb_benches[i]->name, name) == 0)
			return hmb_benches[i];
	return NULL;
}
