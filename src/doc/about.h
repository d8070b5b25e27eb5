/*
 * about.h - what a document says of its machine and of the run that changes
 * what its figures mean (about.c): read from the document for people, and
 * the ways two documents differ, each with what it may explain (declared
 * once: compare and the summary say it).
 */
#ifndef HMB_ABOUT_H
#define HMB_ABOUT_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* Printable, as hmb_doc_describe reads it. */
struct hmb_doc_about {
	int schema_version;
	char system[512];          /* host, device, platform, runtime versions */
	char settings[256];        /* what changes the meaning of a figure */
	char revision[48];         /* the build that measured it (tool.git_revision) */
	char xnack[192];           /* HSA_XNACK, arch xnack flag, managed access mode */
};

/* What the document says of its machine and run: its schema version, host,
 * device and settings, for people (printable). */
void hmb_doc_describe(struct hmb_doc_about *out, const cJSON *doc);

enum hmb_doc_difference {
	HMB_DIFFERS_BUILD, HMB_DIFFERS_SCHEMA, HMB_DIFFERS_SETTINGS, HMB_DIFFERS_XNACK,
	HMB_DIFFERENCES
};
extern const char *const hmb_doc_difference_meaning[HMB_DIFFERENCES];
int hmb_doc_differs(const struct hmb_doc_about *a, const struct hmb_doc_about *b,
		    enum hmb_doc_difference k);
/* How other differs from base in what can change a figure's meaning, in
 * one line for people ("" where nothing does): another build, schema
 * version, settings or XNACK mode, each with what it may explain. */
const char *hmb_doc_differences(const struct hmb_doc_about *base,
				const struct hmb_doc_about *other, char *buf, size_t len);

#endif
