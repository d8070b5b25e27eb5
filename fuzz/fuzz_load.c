/*
 * fuzz_load.c - libFuzzer target for reading documents back: the input is a
 * file that the one reader (hmb_doc_load, then json_import.c into records)
 * must read or refuse with one printable line; compare's figures of what it
 * read are printable, the document compares with itself, and where every
 * figure's identity is unique, no figure is worse at any threshold. The
 * summary compare prints first reads the headlines of a stand-in module (the
 * modules are not linked here).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/compare.h"
#include "engine/module.h"
#include "output/summary.h"
#include "fuzz_check.h"

static char path[64];

/* Module "m", the seeds' own, with headlines of every kind of term and peaks
 * of every kind that reads a parameter (engine/headline.h). */
static const struct hmb_headline headlines[] = {
	{ "largest", "*", "size=max", "GB/s", NULL, "", NULL },
	{ "smallest", "*", "size=min,gpus>1", "time", NULL, "", NULL },
	{ "of the GPU", "*", "src=$gpu,kind=x", "us_per_fault", NULL, "", NULL },
	{ "over", "*/a", "size=4096", "total_s", "*/b", "", "largest" },
	{ .name = NULL },
};
static const struct hmb_case_peak peaks[] = {
	{ "d2d/*", HMB_PEAK_HBM_COPY },
	{ "*/all", HMB_PEAK_LINK_GPUS_BOTH },
	{ .kase = NULL },
};
static const struct hmb_bench m = { .name = "m", .headlines = headlines, .peaks = peaks };
static const struct hmb_bench *const benches[] = { &m, NULL };

static void remove_file(void)
{
	unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* in memory where there is a tmpfs: rewriting a file on disk costs I/O */
	snprintf(path, sizeof(path), "%s/hmb-fuzz-load.%ld.json",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (long)getpid());
	atexit(remove_file);
	/* compare prints its tables: not needed here */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

/* Two figures of one document with the same identity (result and figure name). */
static int has_duplicates(const struct hmb_compare_doc *d)
{
	for (size_t i = 0; i < d->n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(d->fig[i].key, d->fig[j].key) && !strcmp(d->fig[i].name, d->fig[j].name))
				return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hmb_sum_doc read;
	struct hmb_compare_doc figures;
	char err[1024], *files[2] = { path, path };
	FILE *f = fopen(path, "wb");
	int unique, rc;

	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	if (hmb_sum_doc_load(path, &read, err, sizeof(err)) != 0) {
		REQUIRE(err[0] && printable_line(err));
		return 0;
	}
	hmb_compare_doc_of(&figures, &read.rep, &read.about);
	hmb_compare_identify(&figures, 1);
	for (size_t i = 0; i < figures.n; i++)
		REQUIRE(printable_line(figures.fig[i].label) && printable_line(figures.fig[i].name));
	REQUIRE(printable_line(read.about.system) && printable_line(read.about.settings) &&
		printable_line(read.about.xnack) && printable_line(read.about.revision));
	unique = !has_duplicates(&figures);
	hmb_compare_doc_free(&figures);
	hmb_sum_doc_free(&read);
	/* the table or CSV by the first byte, so that both are covered */
	struct hmb_compare_options o = { size && (data[0] & 1) ? HMB_FORMAT_CSV : HMB_FORMAT_TABLE,
					 0, -1, 0, 0, benches };
	rc = hmb_compare(2, files, &o);
	REQUIRE(unique ? rc == 0 : rc == 0 || rc == 1);
	return 0;
}
