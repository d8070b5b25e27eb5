/*
 * test_managed.c - the managed module's rule for its oversubscribed sizes
 * (bench/managed/managed_versus.c): 1.5 and 2 x free device memory run only on a GPU
 * that migrates pages on demand, under --oversubscribe F with F at least the
 * factor, where the host can hold every page with 4 GiB to spare; otherwise
 * skipped (or unsupported) with the reason.
 */
#include <string.h>

#include "bench/managed/managed.h"
#include "engine/record.h"
#include "harness.h"

#define GiB (1ull << 30)

void test_managed_oversub_size(void)
{
	size_t size = 0;
	char why[512];
	int st;

	/* no --oversubscribe: skipped, saying what would allow it */
	st = managed_oversub_size(1.5, 80 * GiB, 500 * GiB, 0, 1, &size, why, sizeof(why));
	CHECK(st == HMB_SKIPPED);
	CHECK(size == 120 * GiB);
	CHECK(strstr(why, "--oversubscribe") && strstr(why, "1.5") && strstr(why, "none"));
	/* a factor below the size's: still skipped */
	st = managed_oversub_size(2.0, 80 * GiB, 500 * GiB, 1.5, 1, &size, why, sizeof(why));
	CHECK(st == HMB_SKIPPED && size == 160 * GiB && strstr(why, "smaller F"));
	/* enough: allowed, rounded down to 2 MiB */
	st = managed_oversub_size(1.5, 80 * GiB + 3 * (1u << 20), 500 * GiB, 2.0, 1, &size, why,
				  sizeof(why));
	CHECK(st == HMB_OK);
	CHECK(size % (2u << 20) == 0 && size <= 120 * GiB + 4.5 * (1u << 20) &&
	      size > 120 * GiB);
	st = managed_oversub_size(2.0, 80 * GiB, 500 * GiB, 2.0, 1, &size, why, sizeof(why));
	CHECK(st == HMB_OK && size == 160 * GiB);
	/* the host cannot hold the pages (128 GiB host, 2 x 80 GiB GPU): skipped */
	st = managed_oversub_size(2.0, 80 * GiB, 128 * GiB, 2.0, 1, &size, why, sizeof(why));
	CHECK(st == HMB_SKIPPED && strstr(why, "host memory"));
	/* only 4 GiB to spare is required: 124 GiB holds 120 GiB, 123 GiB does not */
	st = managed_oversub_size(1.5, 80 * GiB, 124 * GiB, 2.0, 1, &size, why, sizeof(why));
	CHECK(st == HMB_OK);
	st = managed_oversub_size(1.5, 80 * GiB, 123 * GiB, 2.0, 1, &size, why, sizeof(why));
	CHECK(st == HMB_SKIPPED);
	/* no migration on demand: unsupported, whatever the option says */
	st = managed_oversub_size(1.5, 80 * GiB, 500 * GiB, 2.0, 0, &size, why, sizeof(why));
	CHECK(st == HMB_UNSUPPORTED && strstr(why, "on demand"));
	/* free memory unreadable: nothing to size */
	st = managed_oversub_size(1.5, 0, 500 * GiB, 2.0, 1, &size, why, sizeof(why));
	CHECK(st == HMB_SKIPPED && size == 0);
}
