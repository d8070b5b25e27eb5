/* test_verify.c - host pattern fill and checks, which split large buffers over threads. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/verify.h"
#include "harness.h"
#include "platform/check.h"
#include "kernels/pattern.h"

void test_host_verify(void)
{
	size_t bytes = 96u << 20; /* several threads' worth */
	uint32_t *w = malloc(bytes);

	CHECK(w != NULL);
	if (!w)
		return;
	hmb_fill_host(w, bytes, 7);
	CHECK(w[0] == hmb_pattern(0, 7) && w[bytes / 4 - 1] == hmb_pattern(bytes / 4 - 1, 7));
	CHECK(hmb_check_host(w, bytes, 7, 0) == 0);
	CHECK(hmb_check_host(w, bytes, 8, 0) > bytes / 4 - 16); /* another seed: nearly all differ */
	w[12345] ^= 1;
	w[bytes / 4 - 1] ^= 1;
	CHECK(hmb_check_host(w, bytes, 7, 0) == 2);
	w[12345] ^= 1;
	w[bytes / 4 - 1] ^= 1;
	for (size_t i = 0; i < bytes / 4; i++)
		w[i] = 3 * w[i] + 5;
	CHECK(hmb_check_host_affine(w, bytes, 7, 3, 5) == 0);
	CHECK(hmb_check_host_affine(w, bytes, 7, 3, 6) == bytes / 4);
	CHECK(hmb_check_host(w, 4096, 7, 0) > 0);
	free(w);
}

/* A check's verdict: nothing wrong passes and leaves no error; a count of
 * wrong words fails with the count and what the module says of them. */
void test_verify_result(void)
{
	char why[256];

	hmb_clear_error();
	CHECK(hmb_verify_result(0, "words differ after the timed %s copies", "pinned") == 0);
	CHECK(strcmp(hmb_take_error(why, sizeof(why)), "unknown error (no reason was recorded)") == 0);
	CHECK(hmb_verify_result(3, "words differ after the timed %s copies", "pinned") == -1);
	CHECK(strcmp(hmb_take_error(why, sizeof(why)),
		     "verification failed: 3 words differ after the timed pinned copies") == 0);
	CHECK(hmb_verify_result(1ull << 40, "words") == -1);
	CHECK(strcmp(hmb_take_error(why, sizeof(why)), "verification failed: 1099511627776 words") == 0);
}
