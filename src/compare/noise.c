/*
 * noise.c - the noise of a change between two documents, from runs (a run
 * is one process: two processes doing the same work differ by more than the
 * samples of either spread).
 *
 * Each side's figure has a noise (stats/resolution.h): where it holds
 * several runs, its family's run-to-run noise pooled over the document at
 * its size, weighed with its own runs, over the number of runs, and the
 * family's declared session noise (what one document's runs cannot see);
 * where it holds one run, its family's declared floor and its median's
 * interval. Another process on the GPU around it adds HMB_NOISE_SHARED_GPU.
 * The change (the logarithm of other/base: the means of the runs'
 * logarithms where both sides hold runs) is judged against both sides'
 * noise in quadrature by the normal distribution: the pooled noise rests on
 * many degrees of freedom. Samples of one process are never replicates.
 */
#include "compare/noise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* A result's size in bytes (0: none). */
static double size_of(const struct hmb_result *r)
{
	for (size_t k = 0; k < r->np; k++)
		if (!strcmp(r->p[k].name, "size") && !strncmp(r->p[k].exact, "n:", 2))
			return atof(r->p[k].exact + 2);
	return 0;
}

struct hmb_pool_entry *hmb_noise_pool(const struct hmb_loaded *l, double **means)
{
	struct hmb_pool_entry *e = hmb_xcalloc(l->n + 1, sizeof(*e));
	double *m = hmb_xcalloc(l->n + 1, sizeof(*m));

	for (size_t i = 0; i < l->n; i++) {
		const struct hmb_figure *f = &l->fig[i];
		const struct hmb_result *r = &l->res[f->result];
		e[i].family = hmb_family_of(r->module, r->kase, f->name);
		e[i].size = size_of(r);
		hmb_pool_entry_runs(&e[i], f->runs, f->runs ? f->nruns : 0, &m[i]);
	}
	hmb_pool_estimate(e, l->n);
	*means = m;
	return e;
}

/* One side's noise beyond its figure's (resolution.h). */
static double side_extra(const struct hmb_result *r, const struct hmb_resolution *res)
{
	return hmb_noise_beyond_runs(res->runs, r->half_width_rel, r->gpu_shared);
}

void hmb_noise_judge(const struct hmb_loaded *la, const struct hmb_pool_entry *pa,
		     const double *ma, size_t ia, const struct hmb_loaded *lb,
		     const struct hmb_pool_entry *pb, const double *mb, size_t ib,
		     struct hmb_noise *out)
{
	const struct hmb_figure *a = &la->fig[ia], *b = &lb->fig[ib];

	memset(out, 0, sizeof(*out));
	out->family = pa[ia].family->name;
	out->floor = pa[ia].family->floor;
	out->own_rel = NAN;
	out->p = NAN;
	out->change = NAN;
	out->noise_rel = NAN;
	out->resolution = NAN;
	if (!(a->value > 0) || !(b->value > 0) || !isfinite(a->value) || !isfinite(b->value))
		return;
	hmb_resolution_of(&pa[ia], pa[ia].df + 1, &out->a);
	hmb_resolution_of(&pb[ib], pb[ib].df + 1, &out->b);
	out->model = out->a.runs >= 2 && out->b.runs >= 2 ? HMB_NOISE_RUNS : HMB_NOISE_FLOOR;
	out->change = out->model == HMB_NOISE_RUNS ? mb[ib] - ma[ia] : log(b->value / a->value);
	out->own_rel = hypot(side_extra(&la->res[a->result], &out->a),
			     side_extra(&lb->res[b->result], &out->b));
	out->noise_rel = sqrt(out->a.sigma * out->a.sigma + out->b.sigma * out->b.sigma +
			      out->own_rel * out->own_rel);
	out->resolution = HMB_RESOLUTION_Z * out->noise_rel;
	out->p = erfc(fabs(out->change) / out->noise_rel / sqrt(2.0));
}

void hmb_noise_print_floors(FILE *out)
{
	const char *last = "";
	const struct hmb_family *f;

	fprintf(out, "noise by family of figures (relative, one sigma): session, from one\n"
		"document to the next beyond its runs; floor, one run and a session together\n"
		"(documents of one run); another process using the GPU around a figure adds "
		"%.0f%%:\n", 100.0 * HMB_NOISE_SHARED_GPU);
	fprintf(out, "  %-36s %8s %8s\n", "family", "session", "floor");
	for (size_t i = 0; (f = hmb_family_at(i)); i++) {
		if (!strcmp(f->name, last))
			continue;
		last = f->name;
		fprintf(out, "  %-36s %7.1f%% %7.1f%%\n", f->name, 100.0 * f->session,
			100.0 * f->floor);
	}
}
