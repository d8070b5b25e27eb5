/*
 * test_pinning.c - the memcpy module's break-even of pinning (the arithmetic
 * alone, against figures worked out by hand), and its costly case families
 * declared on request, so that a plain run and `all` never pay for them.
 */
#include <math.h>
#include <string.h>

#include "bench/memcpy/memcpy_pinning.h"
#include "cli/registry.h"
#include "engine/module.h"
#include "harness.h"

void test_break_even(void)
{
	struct break_even be;
	const double size = 1 << 20;

	/* 10 ms to pin and give back; a copy takes 1 ms pageable, 0.4 ms pinned:
	 * each copy saves 0.6 ms, so 10 / 0.6 = 16.67 copies pay for the pin. */
	CHECK(memcpy_break_even(0.010, size, 0.001, 0.0004, &be) == 0);
	CHECK(be.pays == 1);
	CHECK_NEAR(be.copies, 0.010 / 0.0006, 1e-9);
	CHECK_NEAR(be.bytes / size, 0.010 / 0.0006, 1e-9);
	/* The formula as written, from rates in bytes per second. */
	CHECK_NEAR(be.bytes, 0.010 / (1 / (size / 0.001) - 1 / (size / 0.0004)), 1e-3);
	/* Break-even bytes do not depend on the size: 1 s to pin, 1 GB/s against
	 * 2 GB/s saves 0.5 ns per byte, so 2 GB must be copied. */
	CHECK(memcpy_break_even(1.0, 1e6, 1e-3, 0.5e-3, &be) == 0);
	CHECK(be.pays && fabs(be.bytes - 2e9) < 1);
	CHECK_NEAR(be.copies, 2000, 1e-6);

	/* Pinned not faster: pinning never pays; no figures, not a negative one. */
	CHECK(memcpy_break_even(0.010, size, 0.0004, 0.001, &be) == 0);
	CHECK(be.pays == 0 && be.bytes == 0 && be.copies == 0);
	CHECK(memcpy_break_even(0.010, size, 0.001, 0.001, &be) == 0);
	CHECK(be.pays == 0 && be.bytes == 0 && be.copies == 0);

	/* A missing or meaningless median is refused. */
	CHECK(memcpy_break_even(0, size, 0.001, 0.0004, &be) == -1 && !be.pays);
	CHECK(memcpy_break_even(0.01, 0, 0.001, 0.0004, &be) == -1);
	CHECK(memcpy_break_even(0.01, size, -1, 0.0004, &be) == -1);
	CHECK(memcpy_break_even(0.01, size, 0.001, NAN, &be) == -1);
}

/* Every pin/ and batch/ case of memcpy runs only when --case names it. */
void test_pinning_on_request(void)
{
	const struct hmb_bench *b;
	int pin = 0, batch = 0;

	hmb_registry_init();
	b = hmb_bench_find("memcpy");
	CHECK(b != NULL);
	if (!b)
		return;
	for (int i = 0; b->cases[i]; i++) {
		const char *n = b->cases[i];
		int costly = strncmp(n, "pin/", 4) == 0 || strncmp(n, "batch/", 6) == 0;

		pin += strncmp(n, "pin/", 4) == 0;
		batch += strncmp(n, "batch/", 6) == 0;
		if (costly && !hmb_on_request(b, n))
			fprintf(stderr, "    %s: not on request\n", n);
		CHECK(!costly || hmb_on_request(b, n));
	}
	CHECK(pin == 8 && batch == 9);
	/* the classic copies stay in every run (the other families: test_memcpy_host.c) */
	CHECK(!hmb_on_request(b, "h2d/pinned/async") && !hmb_on_request(b, "d2h/pageable/sync") &&
	      !hmb_on_request(b, "d2d/device/async"));
}
