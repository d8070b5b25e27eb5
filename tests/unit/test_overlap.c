/*
 * test_overlap.c - the overlap module's balanced load (bench/overlap/overlap.c):
 * the kernel's steps per word that make it as long as h2d + d2h, a power of
 * two, so that the copies' noise from one process to the next keeps the load
 * (and so the work every kernel-bearing figure times) where it was.
 */
#include "bench/overlap/overlap.h"
#include "harness.h"

void test_overlap_balanced_steps(void)
{
	/* h2d + d2h 9.72 ms and a probe of 256 steps 0.398 ms: 6258 steps, the
	 * balanced load of results/nvidia-h100-pcie/resolution/a.json (256 MiB),
	 * which becomes 8192 */
	CHECK(overlap_balanced_steps(256, 9.72e-3, 0.398e-3) == 8192);
	/* copies 3% faster or 20% slower from one process to the next: the same load */
	CHECK(overlap_balanced_steps(256, 0.97 * 9.72e-3, 0.398e-3) == 8192);
	CHECK(overlap_balanced_steps(256, 1.20 * 9.72e-3, 0.398e-3) == 8192);
	/* the nearest power in log2, either way of it */
	CHECK(overlap_balanced_steps(256, 1.40 * 4.0, 1.0) == 1024);
	CHECK(overlap_balanced_steps(256, 1.42 * 4.0, 1.0) == 2048);
	CHECK(overlap_balanced_steps(256, 0.71 * 4.0, 1.0) == 1024);
	CHECK(overlap_balanced_steps(256, 0.70 * 4.0, 1.0) == 512);
	CHECK(overlap_balanced_steps(256, 0.70 * 2.0, 1.0) == 256);
	/* exact powers stay */
	CHECK(overlap_balanced_steps(256, 1.0, 1.0) == 256);
	CHECK(overlap_balanced_steps(1, 1.0, 1.0) == 1);
	/* at least one step: copies far shorter than the probe */
	CHECK(overlap_balanced_steps(256, 1e-6, 1.0) == 1);
	/* at most 2^19 */
	CHECK(overlap_balanced_steps(256, 1e6, 1.0) == 1 << OVERLAP_MAX_STEPS_LOG2);
	CHECK(overlap_balanced_steps(256, 3000.0, 1.0) == 1 << OVERLAP_MAX_STEPS_LOG2);
	CHECK(overlap_balanced_steps(256, 1500.0, 1.0) == 1 << 19);
	CHECK(overlap_balanced_steps(256, 700.0, 1.0) == 1 << 17);
}
