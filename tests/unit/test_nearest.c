/* test_nearest.c - what a refusal offers in place of what is not there
 * (src/util/nearest.c): the nearest names by edit distance, and the numbers
 * there are as ranges. */
#include <string.h>

#include "harness.h"
#include "util/nearest.h"

static const char *nearest_of(const char *typed, const char *const *names, const char *prefix,
			      char *buf, size_t len)
{
	struct hmb_nearest near;

	hmb_nearest_start(&near, typed);
	for (int i = 0; names[i]; i++)
		hmb_nearest_offer(&near, names[i]);
	return hmb_nearest_text(&near, prefix, buf, len);
}

void hmb_test_nearest(void)
{
	static const char *const commands[] = { "list", "info", "all", "help", "compare", "show",
						"summary", "memcpy", "overlap", "pool", "vmm", NULL };
	static const char *const cases[] = { "h2d/pinned/sync", "h2d/pinned/async",
					     "d2h/pinned/async", "d2d/device/async", NULL };
	static const char *const none[] = { NULL };
	char buf[128], there[16] = { 0 };

	CHECK(hmb_edit_distance("memcpy", "memcpy") == 0);
	CHECK(hmb_edit_distance("memcyp", "memcpy") == 2);
	CHECK(hmb_edit_distance("", "vmm") == 3);
	CHECK(hmb_edit_distance("sizs", "sizes") == 1);
	/* the nearest, and those one edit further; of names as near, the first offered */
	CHECK(strcmp(nearest_of("memcyp", commands, "", buf, sizeof(buf)), "memcpy") == 0);
	CHECK(strcmp(nearest_of("vm", commands, "", buf, sizeof(buf)), "vmm") == 0);
	CHECK(strcmp(nearest_of("h2d/pinned/asyc", cases, "", buf, sizeof(buf)),
		     "h2d/pinned/async, h2d/pinned/sync") == 0);
	CHECK(strcmp(nearest_of("sho", commands, "--", buf, sizeof(buf)), "--show") == 0);
	/* at most three, best first */
	CHECK(strcmp(nearest_of("x", commands, "", buf, sizeof(buf)), "all, vmm, list") == 0);
	CHECK(strcmp(nearest_of("x", none, "", buf, sizeof(buf)), "") == 0);
	/* cut to the buffer, never past it */
	CHECK(strlen(nearest_of("h2d", cases, "", buf, 8)) == 7);

	CHECK(strcmp(hmb_numbers_text(there, 16, buf, sizeof(buf)), "none") == 0);
	there[0] = there[1] = there[2] = there[3] = 1;
	CHECK(strcmp(hmb_numbers_text(there, 16, buf, sizeof(buf)), "0-3") == 0);
	there[1] = 0;
	there[7] = there[15] = 1;
	CHECK(strcmp(hmb_numbers_text(there, 16, buf, sizeof(buf)), "0, 2-3, 7, 15") == 0);
	CHECK(strcmp(hmb_numbers_text(there, 1, buf, sizeof(buf)), "0") == 0);
}
