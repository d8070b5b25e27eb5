/* test_load_fast.c - the fast reader of a result (src/doc/load_fast.c) never
 * reads past the text it is given: each prefix of a result is placed at the end
 * of a page whose next page cannot be read, so a byte read past the end is a
 * crash, not a lucky miss. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "doc/load_fast.h"
#include "harness.h"

static const char result[] =
	"{\"module\": \"memcpy\", \"case\": \"h2d/pinned/async\", \"status\": \"ok\", "
	"\"reason\": null, \"params\": {\"size\": 4096, \"host_memory\": \"pinned\", "
	"\"latched\": true}, \"bytes\": 4096, \"ops\": null, \"samples_s\": [2e-06, 3e-06], "
	"\"stats_s\": {\"count\": 2, \"min\": 2e-06, \"median\": 2.5e-06, \"mean\": 2.5e-06, "
	"\"max\": 3e-06, \"stddev\": 7.071067811865477e-07}, \"gbps_median\": 1.6384, "
	"\"gbps_best\": 2.048, \"us_per_op_median\": null, \"peak_gbps\": 63, "
	"\"metrics\": {\"speedup\": {\"value\": 2.5, \"unit\": \"x\"}}, "
	"\"observed\": {\"verified\": true}}";

void hmb_test_load_fast_edge(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = sizeof(result) - 1;
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	char *end;
	size_t rejected = 0;

	CHECK(map != MAP_FAILED && n < page);
	if (map == MAP_FAILED)
		return;
	end = map + page;
	CHECK(mprotect(end, page, PROT_NONE) == 0);
	for (size_t k = 0; k <= n; k++) {
		struct hmb_loaded l;
		const char *p = end - k, *at;

		memset(&l, 0, sizeof(l));
		memcpy(end - k, result, k);
		at = hmb_load_fast(&l, p, end);
		if (k < n)
			rejected += at == NULL && l.nres == 0 && l.n == 0;
		else  /* the whole result: read to its end, with its figures */
			CHECK(at == end && l.nres == 1 && l.n > 0);
		hmb_loaded_free(&l);
	}
	CHECK(rejected == n);  /* every cut text refused, nothing added */
	munmap(map, 2 * page);
}
