/*
 * test_memkinds.c - every memory kind's entry in the one kind table (name,
 * host or device, the hipHostMalloc flags memalloc.c passes, whether the
 * model says it exists on an H100) against a list written out here; host
 * kinds allocated without a GPU: pages touched once or left untouched.
 */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fake_devices.h"
#include "harness.h"
#include "system/memalloc.h"
#include "system/memmodel.h"

#define NO_FLAGS -1L /* not a hipHostMalloc kind, or a flag this platform lacks */

/* hipHostMalloc flags that only HIP on AMD has (the argument is not
 * compiled on NVIDIA). */
#if defined(HMB_PLATFORM_NVIDIA)
#define AMD_FLAGS(x) NO_FLAGS
#define AMD_UNCACHED_FLAGS NO_FLAGS
#else
#define AMD_FLAGS(x) ((long)(x))
#if HMB_HAVE_HOST_UNCACHED
#define AMD_UNCACHED_FLAGS ((long)hipHostMallocUncached)
#else
#define AMD_UNCACHED_FLAGS NO_FLAGS
#endif
#endif

static const struct {
	enum hmb_mem_kind kind;
	const char *name;
	int host;
	long host_flags;  /* hmb_kind_host_flags on this platform */
	int h100;         /* the model of a PCIe H100 (no HMM) says it exists */
} expect[] = {
	{ HMB_KIND_PAGEABLE, "pageable", 1, NO_FLAGS, 1 },
	{ HMB_KIND_PINNED, "pinned", 1, (long)hipHostMallocDefault, 1 },
	{ HMB_KIND_PINNED_COHERENT, "pinned-coherent", 1, AMD_FLAGS(hipHostMallocCoherent), 0 },
	{ HMB_KIND_PINNED_NONCOHERENT, "pinned-noncoherent", 1,
	  AMD_FLAGS(hipHostMallocNonCoherent), 0 },
	{ HMB_KIND_WRITE_COMBINED, "write-combined", 1, (long)hipHostMallocWriteCombined, 1 },
	{ HMB_KIND_WRITE_COMBINED_COHERENT, "write-combined-coherent", 1,
	  AMD_FLAGS(hipHostMallocWriteCombined | hipHostMallocCoherent), 0 },
	{ HMB_KIND_REGISTERED, "registered", 1, NO_FLAGS, 1 },
	{ HMB_KIND_HOST_UNCACHED, "uncached", 1, AMD_UNCACHED_FLAGS, 0 },
	{ HMB_KIND_SYSTEM, "system", 1, NO_FLAGS, 0 },
	{ HMB_KIND_DEVICE, "device", 0, NO_FLAGS, 1 },
	{ HMB_KIND_DEVICE_FINE_GRAINED, "device-fine-grained", 0, NO_FLAGS, 0 },
	{ HMB_KIND_DEVICE_UNCACHED, "device-uncached", 0, NO_FLAGS, 0 },
	{ HMB_KIND_MANAGED, "managed", 0, NO_FLAGS, 1 },
	{ HMB_KIND_MANAGED_COARSE_GRAINED, "managed-coarse-grained", 0, NO_FLAGS, 0 },
	{ HMB_KIND_MAPPED, "mapped", 1, (long)hipHostMallocMapped, 1 },
	{ HMB_KIND_MANAGED_HOST, "managed-host", 0, NO_FLAGS, 1 },
};

void test_memkind_table(void)
{
	struct hmb_facts f = hmb_fake_h100();
	static struct hmb_memmodel m;
	size_t n = sizeof(expect) / sizeof(expect[0]);

	CHECK(n == HMB_KIND_ALL);  /* every kind listed above */
	hmb_memmodel_interpret(&f, &m);
	for (size_t i = 0; i < n; i++) {
		enum hmb_mem_kind k = expect[i].kind;
		const struct hmb_kind_spec *s = hmb_kind_spec(k);
		int modelled = k < HMB_KIND_COUNT;

		CHECK(s && strcmp(s->name, expect[i].name) == 0);
		CHECK(strcmp(hmb_kind_name(k), expect[i].name) == 0);
		CHECK(hmb_kind_find(expect[i].name) == (modelled ? (int)k : -1));
		CHECK(s && s->host == expect[i].host);
		if (hmb_kind_host_flags(k) != expect[i].host_flags)
			fprintf(stderr, "    %s: hipHostMalloc flags %ld, expected %ld\n",
				expect[i].name, hmb_kind_host_flags(k), expect[i].host_flags);
		CHECK(hmb_kind_host_flags(k) == expect[i].host_flags);
		if (modelled) {
			CHECK(m.kinds[k].kind == k && m.kinds[k].host == expect[i].host);
			CHECK(m.kinds[k].supported == expect[i].h100);
			CHECK(strcmp(m.kinds[k].name, expect[i].name) == 0);
		}
#if defined(HMB_PLATFORM_NVIDIA)
		/* a kind the platform lacks is refused without a HIP call */
		if (s && s->amd_only) {
			void *p = (void *)1;
			CHECK(hmb_kind_alloc(k, 4096, 0, &p, NULL) == hipErrorNotSupported && !p);
		}
		CHECK(s && s->amd_only == (modelled && !expect[i].h100 && k != HMB_KIND_SYSTEM));
#endif
	}
	CHECK(hmb_kind_spec(HMB_KIND_ALL) == NULL && strcmp(hmb_kind_name(HMB_KIND_ALL), "?") == 0);
}

/* Resident pages of [p, p + bytes) (mincore), -1 where it cannot tell. */
static long resident_pages(void *p, size_t bytes)
{
	size_t page = 4096, n = (bytes + page - 1) / page;
	unsigned char *vec = malloc(n);
	long in = 0;

	if (!vec || mincore(p, bytes, vec) != 0) {
		free(vec);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		in += vec[i] & 1;
	free(vec);
	return in;
}

void test_memkind_host_pages(void)
{
	enum { BYTES = 16 << 20, PAGES = BYTES / 4096 };
	void *p = NULL;

	/* system: left for the GPU to fault in (first: a fresh mapping) */
	CHECK(hmb_kind_alloc(HMB_KIND_SYSTEM, BYTES, 0, &p, NULL) == hipSuccess && p);
	CHECK(((unsigned long)p & 4095) == 0);
	CHECK(p && resident_pages(p, BYTES) < PAGES / 2);
	CHECK(hmb_kind_free(HMB_KIND_SYSTEM, p) == hipSuccess);
	/* pageable: every page faulted in once, before anything is measured */
	p = NULL;
	CHECK(hmb_kind_alloc(HMB_KIND_PAGEABLE, BYTES, 0, &p, NULL) == hipSuccess && p);
	CHECK(p && resident_pages(p, BYTES) == PAGES);
	CHECK(hmb_kind_free(HMB_KIND_PAGEABLE, p) == hipSuccess);
}
