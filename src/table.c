/*
 * table.c - what people read: one line per case on stderr while a run goes
 * on, a table per module on stdout, CSV for spreadsheets, and `info`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaded.h"
#include "platform/hip.h"
#include "report.h"
#include "sizes.h"
#include "topology.h"

static const char *fmt_time(double s, char *buf, size_t len)
{
	if (s < 1e-3)
		snprintf(buf, len, "%.2f us", s * 1e6);
	else if (s < 1.0)
		snprintf(buf, len, "%.3f ms", s * 1e3);
	else
		snprintf(buf, len, "%.3f s", s);
	return buf;
}

/* "size" is shown in its own column; other params as key=value. */
static void params_text(const struct hmb_record *r, char *buf, size_t len, char *size,
			size_t slen)
{
	size_t used = 0;
	char num[64];

	buf[0] = '\0';
	snprintf(size, slen, "-");
	for (size_t i = 0; i < r->params.n; i++) {
		const struct hmb_kv *kv = &r->params.v[i];
		if (strcmp(kv->key, "size") == 0 && kv->type == HMB_KV_NUM) {
			hmb_format_size((size_t)kv->num, size, slen);
			continue;
		}
		if (used >= len)
			break;
		if (kv->type == HMB_KV_STR)
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
						 kv->key, kv->str);
		else if (kv->type == HMB_KV_BOOL)
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
						 kv->key, kv->num ? "yes" : "no");
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
						 kv->key, hmb_number_text(kv->num, num, sizeof(num)));
	}
}

static void metrics_text(const struct hmb_record *r, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (r->status != HMB_OK) {
		snprintf(buf, len, "%s: %s", hmb_status_name(r->status), r->reason ? r->reason : "");
		return;
	}
	for (size_t i = 0; i < r->metrics.n && used < len; i++) {
		const struct hmb_kv *kv = &r->metrics.v[i];
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%.4g%s%s", used ? " " : "",
					 kv->key, kv->num, kv->unit && *kv->unit ? " " : "",
					 kv->unit ? kv->unit : "");
	}
}

/* The marks of a record for the table: stability (stability.h), then "S"
 * where another process used the GPU during its module. */
static void marks_text(const struct hmb_record *r, const struct hmb_summary *s, char *buf,
		       size_t len)
{
	size_t used;

	buf[0] = '\0';
	if (r->status != HMB_OK)
		return;
	if (s->has_stats)
		hmb_stability_mark(&s->stability, buf, len);
	used = strlen(buf);
	if (hmb_kv_find(&r->observed, "gpu_shared_with") && used + 1 < len)
		snprintf(buf + used, len - used, "S");
}

/* The progress line's words on stability: the interval, then what is wrong. */
static void print_stability(FILE *out, const struct hmb_stability *st)
{
	if (st->has_ci)
		fprintf(out, " (CI +-%.2g%%%s)", 100 * st->half_width_rel,
			st->stable ? "" : ", unstable");
	else
		fprintf(out, " (too few samples to judge stability)");
	if (st->shape == HMB_SHAPE_DRIFT)
		fprintf(out, " drift: second half %+.1f%%", 100 * st->half_change_rel);
	else if (st->shape == HMB_SHAPE_BIMODAL)
		fprintf(out, " bimodal: %zu of %zu samples %.1f%% apart", st->gap_below, st->count,
			100 * st->gap_rel);
	if (st->outliers)
		fprintf(out, " %zu outlier%s beyond +-%.0f%%", st->outliers,
			st->outliers == 1 ? "" : "s", 100 * HMB_OUTLIER_REL);
}

void hmb_progress_print(FILE *out, const struct hmb_record *r)
{
	struct hmb_summary s;
	char params[256], size[32], t[32], m[512];

	hmb_record_summarize(r, &s);
	params_text(r, params, sizeof(params), size, sizeof(size));
	metrics_text(r, m, sizeof(m));
	fprintf(out, "[%s] %s size=%s%s%s:", r->module, r->name, size, params[0] ? " " : "",
		params);
	if (s.has_stats) {
		fprintf(out, " median %s", fmt_time(s.stats.median, t, sizeof(t)));
		if (s.gbps_median > 0)
			fprintf(out, ", %.2f GB/s", s.gbps_median);
		if (s.us_per_op_median > 0)
			fprintf(out, ", %.3f us/op", s.us_per_op_median);
		print_stability(out, &s.stability);
	}
	fprintf(out, "%s%s\n", m[0] ? " " : "", m);
	fflush(out);
}

void hmb_table_print(FILE *out, const struct hmb_record *first)
{
	const char *module = NULL;

	for (const struct hmb_record *r = first; r; r = r->next) {
		struct hmb_summary s;
		char params[256], size[32], med[32], best[32], m[512], gb[16] = "-", gbb[16] = "-",
			peak[16] = "-", op[16] = "-", mark[8];

		if (!module || strcmp(module, r->module) != 0) {
			module = r->module;
			fprintf(out, "\n== %s ==\n%-34s %7s %12s %12s %9s %9s %6s %10s %-4s %s\n",
				module, "case", "size", "median", "best", "GB/s", "best", "peak",
				"us/op", "mark", "params / figures");
		}
		hmb_record_summarize(r, &s);
		params_text(r, params, sizeof(params), size, sizeof(size));
		metrics_text(r, m, sizeof(m));
		marks_text(r, &s, mark, sizeof(mark));
		snprintf(med, sizeof(med), "-");
		snprintf(best, sizeof(best), "-");
		if (s.has_stats) {
			fmt_time(s.stats.median, med, sizeof(med));
			fmt_time(s.stats.min, best, sizeof(best));
		}
		if (s.gbps_median > 0) {
			snprintf(gb, sizeof(gb), "%.2f", s.gbps_median);
			snprintf(gbb, sizeof(gbb), "%.2f", s.gbps_best);
		}
		if (s.peak_fraction > 0)
			snprintf(peak, sizeof(peak), "%.0f%%", 100.0 * s.peak_fraction);
		if (s.us_per_op_median > 0)
			snprintf(op, sizeof(op), "%.3f", s.us_per_op_median);
		fprintf(out, "%-34s %7s %12s %12s %9s %9s %6s %10s %-4s %s%s%s\n", r->name, size,
			med, best, gb, gbb, peak, op, mark, params, params[0] && m[0] ? " | " : "",
			m);
	}
}

static void csv_field(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void hmb_csv_print(FILE *out, const struct hmb_record *first, int header)
{
	if (header)
		fputs("module,case,status,size_bytes,params,count,median_s,min_s,mean_s,max_s,"
		      "stddev_s,gbps_median,gbps_best,peak_fraction,us_per_op,figures,reason\n", out);
	for (const struct hmb_record *r = first; r; r = r->next) {
		struct hmb_summary s;
		const struct hmb_kv *size = hmb_kv_find(&r->params, "size");
		char params[256], sz[32], m[512] = "";

		hmb_record_summarize(r, &s);
		params_text(r, params, sizeof(params), sz, sizeof(sz));
		if (r->status == HMB_OK)
			metrics_text(r, m, sizeof(m));
		csv_field(out, r->module);
		fputc(',', out);
		csv_field(out, r->name);
		fprintf(out, ",%s,", hmb_status_name(r->status));
		if (size && size->type == HMB_KV_NUM)
			fprintf(out, "%.0f", size->num);
		fputc(',', out);
		csv_field(out, params);
		if (s.has_stats)
			fprintf(out, ",%zu,%.9g,%.9g,%.9g,%.9g,%.9g", s.stats.count, s.stats.median,
				s.stats.min, s.stats.mean, s.stats.max, s.stats.stddev);
		else
			fputs(",,,,,,", out);
		fputc(',', out);
		if (s.gbps_median > 0)
			fprintf(out, "%.6g,%.6g", s.gbps_median, s.gbps_best);
		else
			fputc(',', out);
		fputc(',', out);
		if (s.peak_fraction > 0)
			fprintf(out, "%.4f", s.peak_fraction);
		fputc(',', out);
		if (s.us_per_op_median > 0)
			fprintf(out, "%.6g", s.us_per_op_median);
		fputc(',', out);
		csv_field(out, m);
		fputc(',', out);
		csv_field(out, r->reason ? r->reason : "");
		fputc('\n', out);
	}
}

static const char *yn(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

void hmb_info_print_memory(FILE *out, const struct hmb_device *d)
{
	const struct hmb_memmodel *m = &d->model;
	int unsupported = 0, coherence = 0;

	fprintf(out, "apu             %s\n", m->apu ? "yes: host and device share one memory" :
		"no");
	fprintf(out, "host link       %s (%s)\n", hmb_link_kind_name(m->link_kind), m->link_reason);
	if (m->peak_gbps > 0)
		fprintf(out, "peak            %.1f GB/s per direction (%s)\n", m->peak_gbps,
			m->peak_source);
	else
		fprintf(out, "peak            none: %s\n", m->peak_reason);
	if (m->link_reported_gbps > 0)
		fprintf(out, "                the driver reports %.1f GB/s for the host link "
			"(information, not used)\n", m->link_reported_gbps);
	if (m->xnack_evidence[0])
		fprintf(out, "xnack mode      %s: %s\n", m->xnack == 1 ? "on" : m->xnack == 0 ? "off" :
			"unknown", m->xnack_evidence);
	fprintf(out, "managed access  %s: %s\n", hmb_access_name(m->managed_access),
		m->managed_reason);
	fprintf(out, "malloc'd memory %s: %s\n", m->system_allocator == 1 ? "usable by kernels" :
		m->system_allocator == 0 ? "not usable by kernels" : "unknown", m->system_allocator_reason);
	if (m->copy_engines >= 0)
		fprintf(out, "copy engines    %d (%s)\n", m->copy_engines, m->copy_engines_source);
	else
		fprintf(out, "copy engines    %s\n", m->copy_engines_source);
	fprintf(out, "copy path       %s\n", m->copy_path);
	if (m->hw_queues > 0)
		fprintf(out, "hw queues       %d (%s)\n", m->hw_queues, m->hw_queues_source);
	for (int k = 0; k < HMB_KIND_COUNT; k++)
		if (m->kinds[k].coherence[0])
			fprintf(out, "%-15s %s: %s\n", coherence++ ? "" : "coherence",
				hmb_kind_name((enum hmb_mem_kind)k), m->kinds[k].coherence);
	for (int k = 0; k < HMB_KIND_COUNT; k++)
		if (!m->kinds[k].supported)
			fprintf(out, "%-15s %s: %s\n", unsupported++ ? "" : "unsupported",
				hmb_kind_name((enum hmb_mem_kind)k), m->kinds[k].reason);
}

void hmb_info_print(FILE *out, const struct hmb_report *rep)
{
	const struct hmb_host *h = &rep->host;
	const struct hmb_device *d = &rep->device;
	const char *xnack = getenv("HSA_XNACK");

	fprintf(out, "host            %s (%s, kernel %s)\n", h->hostname, h->os, h->kernel);
	fprintf(out, "cpu             %s, %d cpus, %d NUMA node(s), %.1f GiB\n", h->cpu_model,
		h->cpus_online, h->numa_nodes, (double)h->memory_bytes / (1 << 30));
	fprintf(out, "huge pages      transparent: %s (defrag %s); NUMA balancing %s\n",
		h->thp[0] ? h->thp : "unknown", h->thp_defrag[0] ? h->thp_defrag : "unknown",
		h->numa_balancing < 0 ? "unknown" : h->numa_balancing ? "on" : "off");
	fprintf(out, "cpu governor    %s\n", h->cpu_governor[0] ? h->cpu_governor
							: "none (no cpufreq here)");
	if (h->iommu_units < 0)
		fprintf(out, "iommu           unknown (no /sys/class/iommu)\n");
	else
		fprintf(out, "iommu           %d unit(s); kernel options: %s\n", h->iommu_units,
			h->iommu_options[0] ? h->iommu_options : "none (the kernel's default)");
	if (!rep->have_device)
		return;
	fprintf(out, "device %d/%d      %s (%s), PCI %s\n", d->ordinal, d->count, d->name, d->arch,
		d->pci_bus_id);
	fprintf(out, "memory          %.1f GiB total, %.1f GiB free; L2 %d KiB\n",
		(double)d->total_mem / (1 << 30), (double)d->free_mem / (1 << 30), d->l2_bytes / 1024);
	fprintf(out, "compute units   %d; async engines %d; concurrent kernels %s\n",
		d->compute_units, d->async_engines, yn(d->concurrent_kernels));
	fprintf(out, "runtime         %s runtime %d, driver %d\n", HMB_PLATFORM_NAME,
		d->runtime_version, d->driver_version);
	if (d->link.gen > 0)
		fprintf(out, "pcie link       gen %d x%d (max gen %d x%d): %.1f GB/s per direction (%s)\n",
			d->link.gen, d->link.width, d->link.max_gen, d->link.max_width,
			d->link.peak_gbps, d->link.source);
	else
		fprintf(out, "pcie link       not readable here\n");
	if (d->link.max_payload > 0)
		fprintf(out, "pcie settings   max payload %d B (supported %d B), max read request %d B; "
			"IOMMU domain %s\n", d->link.max_payload, d->link.max_payload_supported,
			d->link.max_read_request, d->link.iommu_domain[0] ? d->link.iommu_domain : "none");
	else
		fprintf(out, "pcie settings   payload sizes unknown (%s); IOMMU domain %s\n",
			d->link.config_note, d->link.iommu_domain[0] ? d->link.iommu_domain : "none");
	fprintf(out, "managed memory  %s; concurrent managed access %s; host access to managed %s\n",
		yn(d->managed_memory), yn(d->concurrent_managed_access),
		yn(d->direct_managed_access_from_host));
	fprintf(out, "pageable access %s (host page tables: %s)\n", yn(d->pageable_memory_access),
		yn(d->pageable_uses_host_page_tables));
	fprintf(out, "host memory     map into device %s; hipHostRegister %s\n",
		yn(d->can_map_host_memory), yn(d->host_register));
	fprintf(out, "memory pools    %s; fine-grained memory %s\n", yn(d->memory_pools),
		d->fine_grained < 0 ? "n/a (AMD only)" : yn(d->fine_grained));
	if (d->vmm == 1)
		fprintf(out, "vmm             yes; granularity min %zu KiB, recommended %zu KiB\n",
			d->vmm_granularity_min >> 10, d->vmm_granularity_recommended >> 10);
	else
		fprintf(out, "vmm             no%s\n",
			HMB_HAVE_VMM ? "" : " (this HIP version has no VMM API)");
	if (rep->telemetry.available && rep->telemetry.n) {
		const struct hmb_gpu_sample *s = &rep->telemetry.s[rep->telemetry.n - 1];
		fprintf(out, "telemetry       %s: SM %.0f MHz, memory %.0f MHz, %.0f C, %.1f W; "
			"link gen %d x%d; clocks limited by: %s\n", rep->telemetry.source,
			s->sm_clock_mhz, s->mem_clock_mhz, s->temperature_c, s->power_w, s->link_gen,
			s->link_width, s->throttle[0] ? s->throttle : "nothing");
	} else {
		fprintf(out, "telemetry       none: %s\n", rep->telemetry.reason);
	}
	fprintf(out, "xnack           arch %s; HSA_XNACK=%s\n",
		d->xnack_arch < 0 ? "n/a (no xnack in arch name)" : d->xnack_arch ? "xnack+" : "xnack-",
		xnack ? xnack : "(unset)");
	hmb_info_print_memory(out, d);
	hmb_topology_info(out);
}
