/* about.c - what a document says of its machine and run, for people, and
 * how two documents differ in what changes the meaning of their figures. */
#include "doc/about.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/json_read.h"
#include "util/sizes.h"
#include "util/text.h"
#include "util/util.h"

/* "10", or "default" where the module chose */
static const char *reps_text(const cJSON *settings, char *buf, size_t len)
{
	double reps = hmb_json_num(settings, "reps");
	if (reps < 0)
		return "default";
	snprintf(buf, len, "%.0f", reps);
	return buf;
}

/* The document's host, device and settings, for people (printable). */
void hmb_doc_describe(struct hmb_doc_about *out, const cJSON *doc)
{
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(doc, "device");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
	const cJSON *rt = cJSON_GetObjectItemCaseSensitive(doc, "runtime");
	const cJSON *settings = cJSON_GetObjectItemCaseSensitive(doc, "settings");
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(doc, "environment");
	const cJSON *x = cJSON_IsObject(dev) ? cJSON_GetObjectItemCaseSensitive(dev, "xnack") : NULL;
	const cJSON *arch = cJSON_GetObjectItemCaseSensitive(x, "arch_xnack");
	const cJSON *ma = cJSON_IsObject(dev) ? cJSON_GetObjectItemCaseSensitive(dev, "managed_access")
					      : NULL;
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(ma, "mode");
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(settings, "sizes"), *v;
	char *sizes = NULL, reps[32];

	/* the sizes as a person types them (64M,1G); anything else as it is */
	for (v = cJSON_IsArray(list) ? list->child : NULL; v; v = v->next)
		if (!cJSON_IsNumber(v) || !(v->valuedouble > 0))
			break;
	if (cJSON_IsArray(list) && !v && cJSON_GetArraySize(list) > 0) {
		size_t n = (size_t)cJSON_GetArraySize(list) * 16 + 1, used = 0;
		sizes = hmb_xcalloc(n, 1);
		cJSON_ArrayForEach(v, list) {
			char one[32];
			used += (size_t)snprintf(sizes + used, n - used, "%s%s", used ? "," : "",
						 hmb_bytes_text(v->valuedouble, one, sizeof(one)));
		}
	} else {
		sizes = cJSON_PrintUnformatted(list);
	}

	out->schema_version = (int)hmb_json_num(doc, "schema_version");
	snprintf(out->system, sizeof(out->system), "%s, %s (%s), %s, runtime %.0f, driver %.0f",
		 hmb_shown(hmb_json_str(host, "hostname")),
		 cJSON_IsObject(dev) ? hmb_shown(hmb_json_str(dev, "name")) : "no device",
		 cJSON_IsObject(dev) ? hmb_shown(hmb_json_str(dev, "arch")) : "-",
		 hmb_shown(hmb_json_str(doc, "platform")), hmb_json_num(rt, "runtime_version"),
		 hmb_json_num(rt, "driver_version"));
	snprintf(out->revision, sizeof(out->revision), "%s",
		 hmb_shown(hmb_json_str(cJSON_GetObjectItemCaseSensitive(doc, "tool"), "git_revision")));
	snprintf(out->settings, sizeof(out->settings), "command %s, sizes %s, reps %s, quick %s",
		 hmb_shown(hmb_json_str(doc, "command")), sizes ? hmb_shown(sizes) : "?",
		 reps_text(settings, reps, sizeof(reps)),
		 cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(settings, "quick")) ? "yes" : "no");
	free(sizes);
	/* the managed access mode too: managed figures of two modes measure
	 * different things even where the XNACK settings read the same */
	snprintf(out->xnack, sizeof(out->xnack), "HSA_XNACK=%s, arch %s, managed access %s",
		 cJSON_IsString(cJSON_GetObjectItemCaseSensitive(env, "HSA_XNACK"))
			 ? hmb_shown(hmb_json_str(env, "HSA_XNACK")) : "unset",
		 cJSON_IsTrue(arch) ? "xnack+" : cJSON_IsFalse(arch) ? "xnack-" : "n/a",
		 cJSON_IsString(mode) ? hmb_shown(mode->valuestring) : "n/a");
}

const char *const hmb_doc_difference_meaning[HMB_DIFFERENCES] = {
	[HMB_DIFFERS_BUILD] = "a change of method reads as one of the machine",
	[HMB_DIFFERS_SCHEMA] = "what one lacks is not compared",
	[HMB_DIFFERS_SETTINGS] = "figures of sizes or counts one lacks are left out",
	[HMB_DIFFERS_XNACK] = "managed and page-fault figures measure other paths",
};

int hmb_doc_differs(const struct hmb_doc_about *a, const struct hmb_doc_about *b,
		    enum hmb_doc_difference k)
{
	switch (k) {
	case HMB_DIFFERS_BUILD: return strcmp(a->revision, b->revision) != 0;
	case HMB_DIFFERS_SCHEMA: return a->schema_version != b->schema_version;
	case HMB_DIFFERS_SETTINGS: return strcmp(a->settings, b->settings) != 0;
	case HMB_DIFFERS_XNACK: return strcmp(a->xnack, b->xnack) != 0;
	default: return 0;
	}
}

static const char *or_unknown(const char *s)
{
	return *s ? s : "?";
}

const char *hmb_doc_differences(const struct hmb_doc_about *base,
				const struct hmb_doc_about *other, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 0; k < HMB_DIFFERENCES && used < len; k++) {
		char what[800];
		if (!hmb_doc_differs(base, other, k))
			continue;
		if (k == HMB_DIFFERS_BUILD)
			snprintf(what, sizeof(what), "another build (%s, the base %s)",
				 or_unknown(other->revision), or_unknown(base->revision));
		else if (k == HMB_DIFFERS_SCHEMA)
			snprintf(what, sizeof(what), "schema version %d (the base %d)",
				 other->schema_version, base->schema_version);
		else if (k == HMB_DIFFERS_SETTINGS)
			snprintf(what, sizeof(what), "settings differ (%s; the base %s)",
				 other->settings, base->settings);
		else
			snprintf(what, sizeof(what), "XNACK mode differs (%s; the base %s)",
				 other->xnack, base->xnack);
		used += (size_t)snprintf(buf + used, len - used, "%s%s: %s", used ? "; " : "", what,
					 hmb_doc_difference_meaning[k]);
	}
	return buf;
}

