/* test_geometry.c - the launch geometry the data kernels report (kernels.h). */
#include "harness.h"
#include "kernels/kernels.h"

void test_kernel_geometry(void)
{
	struct hmb_geometry g;

	g = hmb_kernel_geometry(1000, HMB_GRID_PER_ELEMENT);
	CHECK(g.blocks == 4 && g.threads == 256 && g.elements_per_thread == 1 && !g.grid_stride);
	g = hmb_kernel_geometry((size_t)1 << 28, HMB_GRID_PER_ELEMENT); /* 1 GiB of words */
	CHECK(g.blocks == 1u << 20 && g.elements_per_thread == 1 && !g.grid_stride);
	g = hmb_kernel_geometry((size_t)1 << 31, HMB_GRID_PER_ELEMENT);
	CHECK(g.blocks == 1u << 23 && g.elements_per_thread == 1 && !g.grid_stride);
	g = hmb_kernel_geometry(((size_t)1 << 31) + 1, HMB_GRID_PER_ELEMENT);
	CHECK(g.blocks == 1u << 23 && g.elements_per_thread == 2 && g.grid_stride);
	g = hmb_kernel_geometry((size_t)1 << 20, HMB_GRID_CAPPED);
	CHECK(g.blocks == 4096 && g.elements_per_thread == 1 && !g.grid_stride);
	g = hmb_kernel_geometry((size_t)1 << 28, HMB_GRID_CAPPED);
	CHECK(g.blocks == 8192 && g.threads == 256 && g.elements_per_thread == 128 &&
	      g.grid_stride);
	g = hmb_kernel_geometry(0, HMB_GRID_PER_ELEMENT);
	CHECK(g.blocks == 1 && g.elements_per_thread == 0 && !g.grid_stride);
}
