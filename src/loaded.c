/* loaded.c - a loaded document's results and figures: which way is better,
 * numbers for people, where their strings live (one copy of each, in large
 * blocks) and freeing them. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, madvise */
#include "loaded.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "text.h"
#include "util.h"

int hmb_unit_direction(const char *unit)
{
	static const char *const higher[] = { "GB/s", "x", "ratio", "faults/s", NULL };
	static const char *const lower[] = { "s", "ms", "us", "ns", "x-slower", NULL };

	for (int i = 0; higher[i]; i++)
		if (!strcmp(unit, higher[i]))
			return 1;
	for (int i = 0; lower[i]; i++)
		if (!strcmp(unit, lower[i]))
			return -1;
	return 0; /* bytes, fractions: information */
}

const char *hmb_number_text(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
	return buf;
}

/* Blocks double from 1 MiB to 64 MiB, in huge pages where the kernel gives
 * them (a page fault per 2 MiB rather than per 4 KiB). */
#define ARENA_FIRST ((size_t)1 << 20)
#define ARENA_LARGEST ((size_t)64 << 20)

static char *new_block(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fputs("hipmembench: out of host memory\n", stderr);
		exit(1);
	}
#ifdef MADV_HUGEPAGE
	(void)madvise(p, size, MADV_HUGEPAGE);
#endif
	return p;
}

void *hmb_loaded_alloc(struct hmb_loaded *l, size_t size)
{
	struct hmb_arena *a = &l->strings;
	size_t grow = a->cap ? 2 * a->cap : ARENA_FIRST;
	char *out;

	size = (size + 15) & ~(size_t)15;
	if (a->cap - a->used < size) {
		if (a->block) {
			a->old = hmb_xrealloc(a->old, (a->nold + 1) * sizeof(*a->old));
			a->sizes = hmb_xrealloc(a->sizes, (a->nold + 1) * sizeof(*a->sizes));
			a->old[a->nold] = a->block;
			a->sizes[a->nold++] = a->cap;
		}
		if (grow > ARENA_LARGEST)
			grow = ARENA_LARGEST;
		a->cap = size > grow ? size : grow;
		a->block = new_block(a->cap);
		a->used = 0;
	}
	out = a->block + a->used;
	a->used += size;
	return out;
}

static char *copy(struct hmb_loaded *l, const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(hmb_loaded_alloc(l, n), s, n);
}

/* The table entry of s (FNV-1a, open addressing, kept under half full). */
static struct hmb_interned *intern(struct hmb_loaded *l, const char *s)
{
	struct hmb_arena *a = &l->strings;
	uint64_t h = 1469598103934665603u;
	size_t at;

	if (2 * (a->nwords + 1) > a->mask + 1) {
		struct hmb_interned *old = a->words;
		size_t n = old ? a->mask + 1 : 0, size = n ? 2 * n : 1024;
		a->words = hmb_xcalloc(size, sizeof(*a->words));
		a->mask = size - 1;
		a->nwords = 0;
		for (size_t i = 0; i < n; i++)
			if (old[i].raw)
				*intern(l, old[i].raw) = old[i];
		free(old);
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		h = (h ^ *p) * 1099511628211u;
	for (at = (size_t)h & a->mask; a->words[at].raw; at = (at + 1) & a->mask)
		if (!strcmp(a->words[at].raw, s))
			return &a->words[at];
	a->nwords++;
	return &a->words[at];
}

const char *hmb_loaded_raw(struct hmb_loaded *l, const char *s)
{
	struct hmb_interned *w = intern(l, s);

	if (!w->raw)
		w->raw = copy(l, s);
	return w->raw;
}

const char *hmb_loaded_shown(struct hmb_loaded *l, const char *s)
{
	struct hmb_interned *w = intern(l, s);
	const char *shown;

	if (!w->raw)
		w->raw = copy(l, s);
	if (!w->shown) {
		shown = hmb_shown(s);
		w->shown = strcmp(shown, s) ? copy(l, shown) : w->raw;
	}
	return w->shown;
}

void hmb_loaded_free(struct hmb_loaded *l)
{
	for (size_t i = 0; i < l->nres; i++)
		free(l->res[i].samples);
	for (size_t i = 0; i < l->strings.nold; i++)
		munmap(l->strings.old[i], l->strings.sizes[i]);
	if (l->strings.block)
		munmap(l->strings.block, l->strings.cap);
	free(l->strings.old);
	free(l->strings.sizes);
	free(l->strings.words);
	free(l->res);
	free(l->fig);
	memset(l, 0, sizeof(*l));
}
