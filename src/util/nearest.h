/*
 * nearest.h - what a refusal offers in place of what was asked for and is not
 * there: the nearest of the names there are (edit distance), or the numbers
 * there are.
 */
#ifndef HMB_NEAREST_H
#define HMB_NEAREST_H

#include <stddef.h>

#define HMB_NEAREST_MAX 3

/* The names nearest to `typed` of those offered, best first; of names as
 * near, the first offered. */
struct hmb_nearest {
	const char *typed;
	const char *name[HMB_NEAREST_MAX]; /* as offered: each must outlive this */
	int dist[HMB_NEAREST_MAX];
	int n;
};

void hmb_nearest_start(struct hmb_nearest *near, const char *typed);
void hmb_nearest_offer(struct hmb_nearest *near, const char *name);
/* "prefix a, prefix b" (prefix: "--" for options, else ""): the nearest and
 * those at most one edit further; "" where nothing was offered. Returns buf. */
const char *hmb_nearest_text(const struct hmb_nearest *near, const char *prefix, char *buf,
			     size_t len);

/* The edit distance of a and b (each cut at 63 bytes). */
int hmb_edit_distance(const char *a, const char *b);

/* The numbers i < n where there[i] is set, runs of them as ranges: "0-3",
 * "0, 2, 5-7"; "none" where there is none. Returns buf. */
const char *hmb_numbers_text(const char *there, int n, char *buf, size_t len);

#endif
