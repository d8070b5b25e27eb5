/* test_verify.c - host pattern fill and checks, which split large buffers over threads. */
#include <stdint.h>
#include <stdlib.h>

#include "engine/verify.h"
#include "harness.h"
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
