/* loaded.c - a loaded document's results and figures: which way is better,
 * numbers for people, where their strings live (one copy of each, in large
 * blocks) and freeing them. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, madvise */
#include "doc/loaded.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "doc/units.h"
#include "util/sizes.h"
#include "util/text.h"
#include "util/util.h"

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
	/* fresh mappings are zero, and no byte is handed out twice */
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

uint64_t hmb_hash(const char *s, uint64_t h)
{
	size_t n = strlen(s);
	uint64_t w;

	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15u;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w ^ n) * 0x9e3779b97f4a7c15u;
	return h ^ (h >> 32);
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
	h = hmb_hash(s, h);
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

/* An array of cap elements of size bytes grown to twice as many (64 at
 * first), in blocks of its own (huge pages: a fault per 2 MiB). */
static void *grow(void *array, size_t *cap, size_t size)
{
	size_t more = *cap ? 2 * *cap : 64;
	char *p = new_block(more * size);

	if (array) {
		memcpy(p, array, *cap * size);
		munmap(array, *cap * size);
	}
	*cap = more;
	return p;
}

struct hmb_result *hmb_loaded_add_result(struct hmb_loaded *l, const char *module,
					 const char *kase)
{
	struct hmb_result *res;

	if (l->nres == l->rcap)
		l->res = grow(l->res, &l->rcap, sizeof(*l->res));
	res = &l->res[l->nres++];
	memset(res, 0, sizeof(*res));
	res->module = hmb_loaded_raw(l, module);
	res->kase = hmb_loaded_raw(l, kase);
	res->gpu = -1;
	res->half_width_rel = NAN;
	res->within = NAN;
	return res;
}

void hmb_loaded_add_figure(struct hmb_loaded *l, const char *name, const char *unit, double value)
{
	struct hmb_figure *f;

	if (l->n == l->cap)
		l->fig = grow(l->fig, &l->cap, sizeof(*l->fig));
	f = &l->fig[l->n++];
	memset(f, 0, sizeof(*f));
	f->result = l->nres - 1;
	f->name = hmb_loaded_shown(l, name);
	f->unit = hmb_loaded_shown(l, unit);
	f->value = value;
	f->direction = hmb_unit_direction(unit);
}

struct hmb_param *hmb_loaded_params(struct hmb_loaded *l, size_t n)
{
	struct hmb_param *p = hmb_loaded_alloc(l, (n + 1) * sizeof(*p));

	memset(p, 0, (n + 1) * sizeof(*p));
	return p;
}

/* v's decimal digits after prefix, in buf; buf. (printf's %lld, at a
 * fraction of its cost: 300 000 results have a million parameters) */
static char *whole_text(const char *prefix, unsigned long long v, int negative, const char *suffix,
			char *buf)
{
	char digits[24];
	int n = 0;
	size_t used = strlen(prefix);

	memcpy(buf, prefix, used);
	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (negative)
		buf[used++] = '-';
	while (n)
		buf[used++] = digits[--n];
	strcpy(buf + used, suffix);
	return buf;
}

static void number_texts(struct hmb_loaded *l, struct hmb_param *p, const char *name, double v,
			 char *buf, size_t len)
{
	/* whole numbers up to 2^53 (sizes, counts): their digits, as "%.17g" and
	 * hmb_number_text write them; byte counts for people ("64M", "15.9G") */
	if (v == floor(v) && fabs(v) <= 9007199254740992.0 && !(v == 0 && signbit(v))) {
		unsigned long long w = (unsigned long long)fabs(v);
		p->exact = hmb_loaded_raw(l, whole_text("n:", w, v < 0, "", buf));
		if (v >= 1 && hmb_is_bytes_name(name))
			p->text = hmb_loaded_raw(l, hmb_bytes_text(v, buf, len));
		else if (fabs(v) < 1e15)
			p->text = hmb_loaded_raw(l, whole_text("", w, v < 0, "", buf));
		else
			p->text = hmb_loaded_raw(l, hmb_number_text(v, buf, len));
		return;
	}
	p->text = hmb_loaded_raw(l, hmb_number_text(v, buf, len)); /* no whole byte count */
	snprintf(buf, len, "n:%.17g", v);
	p->exact = hmb_loaded_raw(l, buf);
}

void hmb_loaded_param_number(struct hmb_loaded *l, struct hmb_param *p, const char *name,
			     double v)
{
	struct hmb_number_memo *memo;
	uint64_t bits;
	char buf[64];

	p->name = hmb_loaded_shown(l, name);
	p->is_text = 0;
	/* sizes and counts repeat: the texts of a name's value, remembered */
	memcpy(&bits, &v, sizeof(bits));
	memo = &l->strings.numbers[(bits ^ bits >> 29 ^ (uintptr_t)p->name >> 4) % 256];
	if (memo->name == p->name && !memcmp(&memo->v, &v, sizeof(v))) {
		p->text = memo->text;
		p->exact = memo->exact;
		return;
	}
	number_texts(l, p, name, v, buf, sizeof(buf));
	*memo = (struct hmb_number_memo){ p->name, p->text, p->exact, v };
}

void hmb_loaded_param_bool(struct hmb_loaded *l, struct hmb_param *p, const char *name, int v)
{
	p->name = hmb_loaded_shown(l, name);
	p->is_text = 0;
	p->text = v ? "yes" : "no";
	p->exact = v ? "b:1" : "b:0";
}

void hmb_loaded_param_text(struct hmb_loaded *l, struct hmb_param *p, const char *name,
			   const char *text, int is_string)
{
	struct hmb_interned *w;
	size_t len = strlen(text) + 3;

	p->name = hmb_loaded_shown(l, name);
	p->is_text = is_string;
	p->text = hmb_loaded_shown(l, text);
	w = intern(l, text); /* its exact text, made once: "s:text" (a string), "j:text" */
	if (!w->exact || w->exact[0] != (is_string ? 's' : 'j')) {
		char *exact = hmb_loaded_alloc(l, len);
		exact[0] = is_string ? 's' : 'j';
		exact[1] = ':';
		memcpy(exact + 2, text, len - 2);
		w->exact = exact;
	}
	p->exact = w->exact;
}

void hmb_loaded_free(struct hmb_loaded *l)
{
	for (size_t i = 0; i < l->strings.nold; i++)
		munmap(l->strings.old[i], l->strings.sizes[i]);
	if (l->strings.block)
		munmap(l->strings.block, l->strings.cap);
	free(l->strings.old);
	free(l->strings.sizes);
	free(l->strings.words);
	if (l->res)
		munmap(l->res, l->rcap * sizeof(*l->res));
	if (l->fig)
		munmap(l->fig, l->cap * sizeof(*l->fig));
	memset(l, 0, sizeof(*l));
}
