/* test_svg.c - the report's plots (src/output/svg.c): a subtitle too long for
 * one line wraps between words onto as many lines as it needs, up to four,
 * each whole; only the fourth takes the rest, cut where it is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "output/svg.h"

static size_t count(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *p = text; p && (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* A heatmap of two GPUs under subtitle, as SVG text. */
static char *heatmap(const char *subtitle)
{
	static const double v[] = { 0, 10, 12, 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	hmb_svg_heatmap(f, &(struct hmb_svg_heatmap){ "peer copies", subtitle, "GB/s", 0, 2, v });
	fclose(f);
	return text;
}

void hmb_test_svg_wrap(void)
{
	char words[2048] = "", last[32];
	char *text;
	int lines;

	/* about three and a half lines of the plot's width: four lines, none cut */
	for (int i = 0; strlen(words) < 190; i++)
		snprintf(words + strlen(words), sizeof(words) - strlen(words), "%sword%d",
			 i ? " " : "", i);
	text = heatmap(words);
	lines = (int)count(text, "<text class=\"sub\"");
	CHECK(lines == 4);
	CHECK(text && !strstr(text, "\xe2\x80\xa6"));   /* no ellipsis: every word shown */
	snprintf(last, sizeof(last), "%s<", strrchr(words, ' ') + 1);
	CHECK(text && strstr(text, ">word0 word1 ") && strstr(text, last));
	free(text);
	/* far more than four lines: four, the last cut, the whole in its <title> */
	for (int i = 31; strlen(words) < 1000; i++)
		snprintf(words + strlen(words), sizeof(words) - strlen(words), " word%d", i);
	text = heatmap(words);
	CHECK(count(text, "<text class=\"sub\"") == 4);
	CHECK(count(text, "\xe2\x80\xa6") == 1);
	free(text);
}
