/* headline.c - the modules' headlines in the summary's order, and the peak
 * each case's GB/s is read against, from a module table (headline.h). */
#include "engine/headline.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/module.h"

static void insert(struct hmb_module_headline *out, size_t *n, size_t max, size_t at,
		   const char *module, const struct hmb_headline *h)
{
	if (*n == max) {
		fprintf(stderr, "hipmembench: internal: the modules declare more than %zu "
			"headlines\n", max);
		abort();
	}
	memmove(out + at + 1, out + at, (*n - at) * sizeof(*out));
	out[at] = (struct hmb_module_headline){ module, h };
	(*n)++;
}

size_t hmb_headlines_of(const struct hmb_bench *const *benches, struct hmb_module_headline *out,
			size_t max)
{
	size_t n = 0;

	/* first each in its module's place, then those that follow another's */
	for (int follows = 0; follows < 2; follows++)
		for (int i = 0; benches && benches[i]; i++)
			for (const struct hmb_headline *h = benches[i]->headlines; h && h->name; h++) {
				size_t at = n;
				if ((h->after != NULL) != follows)
					continue;
				for (size_t k = 0; follows && k < n; k++)
					if (!strcmp(out[k].h->name, h->after))
						at = k + 1;
				insert(out, &n, max, at, benches[i]->name, h);
			}
	return n;
}

const struct hmb_bench *hmb_bench_named(const struct hmb_bench *const *benches, const char *name)
{
	for (int i = 0; benches && benches[i]; i++)
		if (!strcmp(benches[i]->name, name))
			return benches[i];
	return NULL;
}

enum hmb_peak hmb_case_peak(const struct hmb_bench *const *benches, const char *module,
			    const char *kase)
{
	for (int i = 0; benches && benches[i]; i++) {
		if (strcmp(benches[i]->name, module))
			continue;
		for (const struct hmb_case_peak *p = benches[i]->peaks; p && p->kase; p++)
			if (!fnmatch(p->kase, kase, 0))
				return p->peak;
	}
	return HMB_PEAK_RECORD;
}
