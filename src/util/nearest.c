/* nearest.c - the nearest names and the numbers there are, for refusals (nearest.h). */
#include "util/nearest.h"

#include <stdio.h>
#include <string.h>

int hmb_edit_distance(const char *a, const char *b)
{
	int row[64], la = (int)strlen(a), lb = (int)strlen(b);

	la = la > 63 ? 63 : la;
	lb = lb > 63 ? 63 : lb;
	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = i;
		for (int j = 1; j <= lb; j++) {
			int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

void hmb_nearest_start(struct hmb_nearest *near, const char *typed)
{
	memset(near, 0, sizeof(*near));
	near->typed = typed;
}

void hmb_nearest_offer(struct hmb_nearest *near, const char *name)
{
	int d = hmb_edit_distance(near->typed, name), at = near->n;

	while (at > 0 && d < near->dist[at - 1])
		at--;
	if (at == HMB_NEAREST_MAX)
		return;
	if (near->n < HMB_NEAREST_MAX)
		near->n++;
	for (int m = near->n - 1; m > at; m--) {
		near->name[m] = near->name[m - 1];
		near->dist[m] = near->dist[m - 1];
	}
	near->name[at] = name;
	near->dist[at] = d;
}

const char *hmb_nearest_text(const struct hmb_nearest *near, const char *prefix, char *buf,
			     size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int m = 0; m < near->n && near->dist[m] <= near->dist[0] + 1 && used < len; m++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s", m ? ", " : "", prefix,
					 near->name[m]);
	return buf;
}

const char *hmb_numbers_text(const char *there, int n, char *buf, size_t len)
{
	size_t used = 0;

	snprintf(buf, len, "none");
	for (int i = 0; i < n && used < len; i++) {
		int last = i;
		if (!there[i])
			continue;
		while (last + 1 < n && there[last + 1])
			last++;
		if (last > i)
			used += (size_t)snprintf(buf + used, len - used, "%s%d-%d", used ? ", " : "",
						 i, last);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? ", " : "", i);
		i = last;
	}
	return buf;
}
