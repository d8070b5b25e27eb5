/* geometry.c - the launch geometry of the data, paging and wide-copy kernels
 * (kernels.h): plain C, so that every build, the emulated one too, reports
 * the same geometry for the same launch. */
#include "kernels/geometry.h"
#include "kernels/kernels.h"

struct hmb_geometry hmb_kernel_geometry(size_t items, enum hmb_grid grid)
{
	struct hmb_geometry g;
	size_t threads;

	g.blocks = grid == HMB_GRID_PER_ELEMENT ? hmb_blocks_per_element(items) : hmb_blocks(items);
	g.threads = HMB_THREADS;
	threads = (size_t)g.blocks * g.threads;
	g.elements_per_thread = items ? (items + threads - 1) / threads : 0;
	g.grid_stride = g.elements_per_thread > 1;
	return g;
}

void hmb_touch_geometry(size_t touches, int chain, unsigned *blocks, unsigned *threads,
			size_t *per_thread)
{
	size_t b = (touches + HMB_THREADS - 1) / HMB_THREADS;
	*blocks = chain ? 1 : (unsigned)(b ? b : 1);
	*threads = chain ? 1 : HMB_THREADS;
	*per_thread = chain ? touches : 1;
}

struct hmb_geometry hmb_wide_copy_geometry(size_t bytes)
{
	struct hmb_geometry g;
	size_t threads;

	g.blocks = hmb_blocks(bytes / 16);
	g.threads = HMB_THREADS;
	threads = (size_t)g.blocks * g.threads;
	g.elements_per_thread = (bytes / 16 + threads - 1) / threads;
	g.grid_stride = g.elements_per_thread > 1;
	return g;
}
