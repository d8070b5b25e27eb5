/*
 * summary_read.c - what the summary reads of a document (summary.h): its
 * records as the tables print them, its devices and what describes the run.
 */
#include "output/summary.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/json_import.h"
#include "doc/json_read.h"
#include "doc/about.h"
#include "util/text.h"
#include "util/util.h"

/* A string member, or NULL. */
static const char *text_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void sum_device(const cJSON *o, struct hmb_sum_device *d)
{
	const cJSON *link = cJSON_GetObjectItemCaseSensitive(o, "pcie_link");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(o, "host_link");
	const char *kind = text_of(host, "kind");

	memset(d, 0, sizeof(*d));
	d->ordinal = hmb_json_num(o, "ordinal") >= 0 ? (int)hmb_json_num(o, "ordinal") : 0;
	snprintf(d->name, sizeof(d->name), "%s", text_of(o, "name") ? hmb_shown(text_of(o, "name")) : "");
	snprintf(d->arch, sizeof(d->arch), "%s", text_of(o, "arch") ? hmb_shown(text_of(o, "arch")) : "");
	d->link_peak_gbps = hmb_device_link_peak(o);
	if ((!kind || !strcmp(kind, "pcie")) && hmb_json_num(link, "generation") > 0 &&
	    hmb_json_num(link, "width") > 0)
		snprintf(d->link, sizeof(d->link), "PCIe gen%.0f x%.0f", hmb_json_num(link, "generation"),
			 hmb_json_num(link, "width"));
	else if (kind)
		snprintf(d->link, sizeof(d->link), "%s", hmb_shown(kind));
	d->hbm_peak_gbps = hmb_device_hbm_peak(o);
}

static void sum_meta(struct hmb_sum_doc *d, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void sum_meta(struct hmb_sum_doc *d, const char *key, const char *fmt, ...)
{
	struct hmb_sum_meta *m;
	char raw[1024];
	va_list ap;

	if (d->nmeta == HMB_SUM_MAX_META)
		return;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	m = &d->meta[d->nmeta++];
	snprintf(m->key, sizeof(m->key), "%s", key);
	hmb_printable(raw, sizeof(m->value) - 8, m->value, sizeof(m->value));
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static double gib(double bytes)
{
	return bytes / (double)(1 << 30);
}

/* The system a document describes, for people, in the order a report shows it. */
static void sum_metadata(struct hmb_sum_doc *d, const cJSON *doc)
{
	const cJSON *tool = cJSON_GetObjectItemCaseSensitive(doc, "tool");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
	const cJSON *rt = cJSON_GetObjectItemCaseSensitive(doc, "runtime");
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(doc, "device");
	const cJSON *link = cJSON_GetObjectItemCaseSensitive(dev, "pcie_link");
	const cJSON *hl = cJSON_GetObjectItemCaseSensitive(dev, "host_link");
	const cJSON *tel = cJSON_GetObjectItemCaseSensitive(doc, "telemetry");
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(doc, "command_line"), *w;
	char cmd[1024] = "", devs[512] = "";
	size_t used = 0;

	hmb_doc_describe(&d->about, doc);
	cJSON_ArrayForEach(w, line)
		if (cJSON_IsString(w) && used < sizeof(cmd))
			used += (size_t)snprintf(cmd + used, sizeof(cmd) - used, "%s%s", used ? " " : "",
						 w->valuestring);
	sum_meta(d, "document", "%s", d->path);
	sum_meta(d, "host", "%s", or_dash(text_of(host, "hostname")));
	sum_meta(d, "started", "%s", or_dash(text_of(doc, "started_utc")));
	sum_meta(d, "command line", "%s", or_dash(cmd));
	sum_meta(d, "settings", "%s", d->about.settings);
	sum_meta(d, "complete", "%s%s", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "complete"))
		 ? "yes" : "no", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "interrupted"))
		 ? " (interrupted)" : "");
	sum_meta(d, "tool", "hipmembench %s (%s), %s", or_dash(text_of(tool, "version")),
		 or_dash(text_of(tool, "git_revision")), or_dash(text_of(doc, "platform")));
	sum_meta(d, "runtime", "runtime %.0f, driver %.0f", hmb_json_num(rt, "runtime_version"),
		 hmb_json_num(rt, "driver_version"));
	sum_meta(d, "OS", "%s, kernel %s", or_dash(text_of(host, "os")),
		 or_dash(text_of(host, "kernel")));
	sum_meta(d, "CPU", "%s, %.0f CPUs, %.0f NUMA node(s)", or_dash(text_of(host, "cpu_model")),
		 hmb_json_num(host, "cpus_online"), hmb_json_num(host, "numa_nodes"));
	sum_meta(d, "host memory", "%.1f GiB", gib(hmb_json_num(host, "memory_bytes")));
	sum_meta(d, "huge pages", "THP %s, defrag %s", or_dash(text_of(host, "transparent_hugepages")),
		 or_dash(text_of(host, "transparent_hugepages_defrag")));
	sum_meta(d, "NUMA balancing", "%.0f", hmb_json_num(host, "numa_balancing"));
	sum_meta(d, "CPU governor", "%s", or_dash(text_of(host, "cpu_governor")));
	sum_meta(d, "IOMMU", "%.0f unit(s), kernel options %s", hmb_json_num(host, "iommu_units"),
		 or_dash(text_of(host, "iommu_kernel_options")));
	used = 0;
	for (int i = 0; i < d->ndev && used < sizeof(devs); i++)
		used += (size_t)snprintf(devs + used, sizeof(devs) - used, "%s%d: %s (%s)",
					 i ? "; " : "", d->dev[i].ordinal, or_dash(d->dev[i].name),
					 or_dash(d->dev[i].arch));
	sum_meta(d, "GPUs", "%d measured of %.0f visible", d->ndev, hmb_json_num(dev, "count"));
	sum_meta(d, "devices", "%s", or_dash(devs));
	sum_meta(d, "device memory", "%.1f GiB, %.0f-bit bus at %.0f MHz",
		 gib(hmb_json_num(dev, "total_memory_bytes")), hmb_json_num(dev, "memory_bus_width_bits"),
		 hmb_json_num(dev, "memory_clock_khz") / 1000);
	sum_meta(d, "compute units", "%.0f, L2 %.0f MiB", hmb_json_num(dev, "compute_units"),
		 hmb_json_num(dev, "l2_cache_bytes") / (1 << 20));
	sum_meta(d, "host link", "%s, gen%.0f x%.0f of gen%.0f x%.0f, %.1f GB/s per direction",
		 or_dash(text_of(hl, "kind")), hmb_json_num(link, "generation"), hmb_json_num(link, "width"),
		 hmb_json_num(link, "max_generation"), hmb_json_num(link, "max_width"),
		 d->ndev ? d->dev[0].link_peak_gbps : 0);
	sum_meta(d, "copy engines", "%.0f", hmb_json_num(dev, "async_engine_count"));
	sum_meta(d, "XNACK", "%s", d->about.xnack);
	sum_meta(d, "telemetry", "%s", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(tel, "available"))
		 ? or_dash(text_of(tel, "source")) : or_dash(text_of(tel, "reason")));
}

void hmb_sum_doc_of(const cJSON *doc, const char *name, struct hmb_sum_doc *d)
{
	const cJSON *devs = cJSON_GetObjectItemCaseSensitive(doc, "devices");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host"), *x;

	memset(d, 0, sizeof(*d));
	d->path = hmb_xstrdup(name);
	hmb_json_import_doc(&d->rep, doc);
	if (!cJSON_IsArray(devs) || !cJSON_GetArraySize(devs))
		devs = NULL;
	if (devs) {
		cJSON_ArrayForEach(x, devs)
			if (cJSON_IsObject(x) && d->ndev < HMB_SUM_MAX_DEVICES)
				sum_device(x, &d->dev[d->ndev++]);
	} else if (cJSON_IsObject(x = cJSON_GetObjectItemCaseSensitive(doc, "device"))) {
		sum_device(x, &d->dev[d->ndev++]);
	}
	snprintf(d->hostname, sizeof(d->hostname), "%s",
		 text_of(host, "hostname") ? hmb_shown(text_of(host, "hostname")) : "");
	snprintf(d->started_utc, sizeof(d->started_utc), "%s",
		 text_of(doc, "started_utc") ? hmb_shown(text_of(doc, "started_utc")) : "");
	snprintf(d->command, sizeof(d->command), "%s",
		 text_of(doc, "command") ? hmb_shown(text_of(doc, "command")) : "");
	d->complete = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "complete"));
	sum_metadata(d, doc);
}

int hmb_sum_doc_load(const char *path, struct hmb_sum_doc *d, char *err, size_t errlen)
{
	cJSON *doc = hmb_doc_load(path, err, errlen);

	memset(d, 0, sizeof(*d));
	if (!doc)
		return -1;
	hmb_sum_doc_of(doc, path, d);
	cJSON_Delete(doc);
	return 0;
}
