/* registry.c - every module, once. Add a module here and in the Makefile. */
#include "cli/registry.h"

#include <stdlib.h>
#include <string.h>

extern const struct hmb_bench hmb_bench_memcpy, hmb_bench_overlap, hmb_bench_managed,
	hmb_bench_xnack, hmb_bench_pool, hmb_bench_vmm, hmb_bench_leak, hmb_bench_probe;
extern const struct hmb_bench hmb_bench_node;

const struct hmb_bench *hmb_benches[HMB_MAX_BENCHES] = {
	&hmb_bench_memcpy,
	&hmb_bench_overlap,
	&hmb_bench_managed,
	&hmb_bench_xnack,
	&hmb_bench_pool,
	&hmb_bench_vmm,
	&hmb_bench_node,
	NULL, /* the test-only modules go here */
	NULL,
	NULL,
};

void hmb_registry_init(void)
{
	const char *t = getenv("HMB_TEST_MODULES");
	int n = 0;

	if (!t || strcmp(t, "1") != 0)
		return;
	while (hmb_benches[n])
		n++;
	hmb_benches[n] = &hmb_bench_leak;
	hmb_benches[n + 1] = &hmb_bench_probe;
}

const struct hmb_bench *hmb_bench_find(const char *name)
{
	for (int i = 0; hmb_benches[i]; i++)
		if (strcmp(hmb_benches[i]->name, name) == 0)
			return hmb_benches[i];
	return NULL;
}
