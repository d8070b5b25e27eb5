/*
 * json_read.c - a document read back, one way for every command: the whole
 * file (a regular file or stdin, no NUL byte, at most DOC_MAX_BYTES), parsed
 * whole by cJSON and checked before any use: the document's own keys, then
 * what the commands read of each result (json_import.c takes it into
 * records).
 */
#define _DEFAULT_SOURCE /* MAP_POPULATE */
#include "doc/json_read.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "system/device.h"
#include "util/text.h"
#include "util/util.h"

/* A document larger than this is not one hipmembench wrote. */
#define DOC_MAX_BYTES ((size_t)512 << 20)

static int load_fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int load_fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: %s", hmb_shown(path), why);
	hmb_utf8_trim(err);
	return -1;
}

/* The whole file, NUL-terminated, of at most DOC_MAX_BYTES and without NUL
 * bytes; NULL with a reason naming the file. */
/* path to read, or stdin for "-" (given on purpose): a FIFO, a device or a
 * socket may never end, and a FIFO with no writer never even opens, so they
 * are refused (opened without waiting, to look). NULL with a reason. */
static FILE *open_input(const char *path, char *err, size_t errlen)
{
	struct stat st;
	FILE *f;
	int fd, flags;

	if (strcmp(path, "-") == 0)
		return stdin;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		load_fail(err, errlen, path, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) ||
				    S_ISSOCK(st.st_mode))) {
		load_fail(err, errlen, path, "%s, not a regular file (to read standard input, "
			  "give - on purpose)", hmb_file_kind(st.st_mode));
		close(fd);
		return NULL;
	}
	if ((flags = fcntl(fd, F_GETFL)) >= 0)
		(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	if (!(f = fdopen(fd, "rb"))) {
		load_fail(err, errlen, path, "%s", strerror(errno));
		close(fd);
	}
	return f;
}

static void close_input(FILE *f)
{
	if (f != stdin)
		fclose(f);
}

/* The whole file, NUL-terminated, without NUL bytes and of at most 512 MiB;
 * "-" reads stdin. NULL with a reason naming the file. */
static char *read_whole(const char *path, size_t *lenp, char *err, size_t errlen)
{
	FILE *f = open_input(path, err, errlen);
	char *buf = NULL, *nul;
	size_t len = 0, cap = 0, got;
	struct stat st;

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) != 0)
		memset(&st, 0, sizeof(st));
	if (S_ISDIR(st.st_mode)) {
		load_fail(err, errlen, path, "a directory, not a hipmembench document");
		close_input(f);
		return NULL;
	}
	/* a regular file: room for all of it (and one byte to see the end) at once */
	if (S_ISREG(st.st_mode) && st.st_size >= 0 && (size_t)st.st_size < DOC_MAX_BYTES)
		cap = (size_t)st.st_size + 2;
	buf = hmb_xrealloc(NULL, cap ? cap : 4096);
	cap = cap ? cap : 4096;
	do {
		if (cap - len < 2) {
			cap = 2 * cap;
			if (cap > DOC_MAX_BYTES + 2)
				cap = DOC_MAX_BYTES + 2;
			buf = hmb_xrealloc(buf, cap);
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		if ((nul = memchr(buf + len, '\0', got))) {
			load_fail(err, errlen, path, "a NUL byte at byte %zu: not a JSON document",
				  (size_t)(nul - buf));
			goto fail;
		}
		len += got;
		if (len > DOC_MAX_BYTES) {
			load_fail(err, errlen, path, "larger than %zu MiB: not a hipmembench document",
				  DOC_MAX_BYTES >> 20);
			goto fail;
		}
	} while (got > 0);
	if (ferror(f)) {
		load_fail(err, errlen, path, "read error: %s", strerror(errno));
		goto fail;
	}
	buf[len] = '\0';
	close_input(f);
	*lenp = len;
	return buf;
fail:
	free(buf);
	close_input(f);
	return NULL;
}

/* A regular file mapped rather than read (no copy of hundreds of MB; the
 * documents hipmembench writes are replaced by a rename, never rewritten in
 * place); anything else, or a file that cannot be mapped, read whole.
 * *mapped says which, for release_whole. A mapped file is not searched for
 * NUL bytes here: the reader stops at one, and has_nul says so. */
static char *map_whole(const char *path, size_t *lenp, int *mapped, char *err, size_t errlen)
{
	struct stat st;
	char *p;
	int fd;

	*mapped = 0;
	if (strcmp(path, "-") == 0 ||
	    (fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0)
		return read_whole(path, lenp, err, errlen);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (size_t)st.st_size > DOC_MAX_BYTES ||
	    (p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0)) ==
		    MAP_FAILED) {
		close(fd);
		return read_whole(path, lenp, err, errlen);
	}
	close(fd);
	*lenp = (size_t)st.st_size;
	*mapped = 1;
	return p;
}

/* A NUL byte in text: 1 with the reason in err, as read_whole gives it. */
static int has_nul(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
	const char *nul = memchr(text, '\0', len);

	if (nul)
		load_fail(err, errlen, path, "a NUL byte at byte %zu: not a JSON document",
			  (size_t)(nul - text));
	return nul != NULL;
}

static void release_whole(char *text, size_t len, int mapped)
{
	if (mapped)
		munmap(text, len);
	else
		free(text);
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

const char *hmb_json_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : "?";
}

double hmb_json_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

double hmb_device_link_peak(const cJSON *device)
{
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(device, "host_link");
	const cJSON *link = cJSON_GetObjectItemCaseSensitive(device, "pcie_link");

	if (hmb_json_num(host, "peak_gbps") > 0)
		return hmb_json_num(host, "peak_gbps");
	return hmb_json_num(link, "peak_gbps_per_direction") > 0
	       ? hmb_json_num(link, "peak_gbps_per_direction") : 0;
}

double hmb_device_hbm_peak(const cJSON *device)
{
	return hmb_hbm_peak_gbps(hmb_json_num(device, "memory_clock_khz"),
				 hmb_json_num(device, "memory_bus_width_bits"));
}

/* Absent or null, or of the type is() checks. */
static int optional(const cJSON *v, cJSON_bool (*is)(const cJSON *))
{
	return !v || cJSON_IsNull(v) || is(v);
}

/* Absent, null or a finite number. */
static int optional_number(const cJSON *v)
{
	return !v || cJSON_IsNull(v) || (cJSON_IsNumber(v) && isfinite(v->valuedouble));
}

/* What the commands read of result i, checked; 0, or -1 with a reason. */
static int check_result(const cJSON *r, int i, const char *path, char *err, size_t errlen)
{
	static const char *const numbers[] = { "gbps_median", "us_per_op_median", NULL };
	const cJSON *status = cJSON_GetObjectItemCaseSensitive(r, "status");
	const cJSON *params, *context, *metrics, *stats, *m;

	if (!cJSON_IsObject(r))
		return load_fail(err, errlen, path, "results[%d] is not an object", i);
	if (!cJSON_IsString(status))
		return load_fail(err, errlen, path, "results[%d].status is not a string", i);
	if (strcmp(status->valuestring, "ok") != 0)
		return 0;
	if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "module")) ||
	    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "case")))
		return load_fail(err, errlen, path, "results[%d]: module and case must be strings", i);
	params = cJSON_GetObjectItemCaseSensitive(r, "params");
	if (!optional(params, cJSON_IsObject))
		return load_fail(err, errlen, path, "results[%d].params is not an object", i);
	context = cJSON_GetObjectItemCaseSensitive(r, "context");
	if (!optional(context, cJSON_IsArray))
		return load_fail(err, errlen, path, "results[%d].context is not an array", i);
	cJSON_ArrayForEach(m, context)
		if (!cJSON_IsString(m))
			return load_fail(err, errlen, path, "results[%d].context holds other than "
					 "parameter names", i);
	if (!optional(cJSON_GetObjectItemCaseSensitive(r, "gpu_param"), cJSON_IsString))
		return load_fail(err, errlen, path, "results[%d].gpu_param is not a string", i);
	for (int k = 0; numbers[k]; k++)
		if (!optional_number(cJSON_GetObjectItemCaseSensitive(r, numbers[k])))
			return load_fail(err, errlen, path, "results[%d].%s is not a finite number", i,
					 numbers[k]);
	stats = cJSON_GetObjectItemCaseSensitive(r, "stats_s");
	if (!optional(stats, cJSON_IsObject) ||
	    !optional_number(cJSON_GetObjectItemCaseSensitive(stats, "median")))
		return load_fail(err, errlen, path, "results[%d].stats_s is not an object of "
				 "numbers", i);
	metrics = cJSON_GetObjectItemCaseSensitive(r, "metrics");
	if (!optional(metrics, cJSON_IsObject))
		return load_fail(err, errlen, path, "results[%d].metrics is not an object", i);
	if (!cJSON_IsObject(metrics))
		return 0;
	cJSON_ArrayForEach(m, metrics)
		if (!cJSON_IsObject(m) ||
		    !optional_number(cJSON_GetObjectItemCaseSensitive(m, "value")) ||
		    !optional(cJSON_GetObjectItemCaseSensitive(m, "unit"), cJSON_IsString))
			return load_fail(err, errlen, path, "results[%d].metrics.%s is not "
					 "{\"value\": number, \"unit\": string}", i,
					 hmb_shown(m->string));
	return 0;
}

/* The parts of a document that the commands read, checked; 0, or -1 with a reason. */
static int check_document(const cJSON *doc, const char *path, char *err, size_t errlen)
{
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");
	const cJSON *results = cJSON_GetObjectItemCaseSensitive(doc, "results"), *r;
	int i = 0;

	if (!cJSON_IsObject(doc) ||
	    strcmp(hmb_json_str(cJSON_GetObjectItemCaseSensitive(doc, "tool"), "name"), "hipmembench") ||
	    !cJSON_IsNumber(version) || !cJSON_IsArray(results))
		return load_fail(err, errlen, path, "not a hipmembench document (needs tool.name "
				 "\"hipmembench\", schema_version and results[])");
	if (!(version->valuedouble >= 1 && version->valuedouble <= 1000000) ||
	    version->valuedouble != floor(version->valuedouble))
		return load_fail(err, errlen, path, "schema_version %g is not a whole number from 1 "
				 "to 1000000", version->valuedouble);
	cJSON_ArrayForEach(r, results)
		if (check_result(r, i++, path, err, errlen))
			return -1;
	return 0;
}

/* text (len bytes) as a hipmembench document, checked (check_document); NULL
 * with a reason naming path. */
static cJSON *parse_document(const char *path, const char *text, size_t len, char *err,
			     size_t errlen)
{
	const char *end = NULL, *rest;
	cJSON *doc;

	if (skip_space(text, text + len) == text + len) {
		load_fail(err, errlen, path, "%s, not a hipmembench document",
			  len ? "only white space" : "empty file");
		return NULL;
	}
	doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!doc) {
		load_fail(err, errlen, path, "not valid JSON (truncated or malformed near byte %ld "
			  "of %zu)", end ? (long)(end - text) : -1L, len);
		return NULL;
	}
	rest = skip_space(end, text + len);
	if (rest < text + len) {
		load_fail(err, errlen, path, "data after the JSON document at byte %zu of %zu (one "
			  "document per file)", (size_t)(rest - text), len);
		cJSON_Delete(doc);
		return NULL;
	}
	if (check_document(doc, path, err, errlen)) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}


cJSON *hmb_doc_load(const char *path, char *err, size_t errlen)
{
	size_t len = 0;
	int mapped;
	char *text = map_whole(path, &len, &mapped, err, errlen);
	cJSON *doc = NULL;

	if (!text)
		return NULL;
	if (!has_nul(path, text, len, err, errlen))
		doc = parse_document(path, text, len, err, errlen);
	release_whole(text, len, mapped);
	return doc;
}
