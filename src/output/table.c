/*
 * table.c - what people read: one line per case on stderr while a run goes
 * on (cut to the terminal's width), the table of a module's records on
 * stdout (table_groups.c; --wide: every record whole on one line, here), CSV
 * for spreadsheets, and `info`.
 */
#include "output/table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "doc/identity.h"
#include "doc/json_import.h"
#include "engine/report.h"
#include "output/summary.h"
#include "platform/hip.h"
#include "system/topology.h"
#include "util/sizes.h"
#include "util/text.h"

/* Columns for progress lines where neither COLUMNS nor the terminal says. */
#define PROGRESS_COLUMNS 80

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

size_t hmb_text_columns(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

const char *hmb_figure_text(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (v == floor(v) && a < 1e15)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.2f", v);
	else if (a >= 0.1)
		snprintf(buf, len, "%.3f", v);
	else if (a >= 0.01)
		snprintf(buf, len, "%.4f", v);
	else if (a >= 0.001)
		snprintf(buf, len, "%.5f", v);
	else /* three significant digits, never an exponent (0.0000344) */
		snprintf(buf, len, "%.*f", a > 0 ? (int)fmin(12, 2 - floor(log10(a))) : 0, v);
	return buf;
}

/* A metric's value and unit for people: "1.25 x", "12.4 ms"; bytes in binary
 * units, without the word ("15.9G"), unless exact (CSV: every byte). */
static const char *metric_text(const struct hmb_kv *kv, int exact, char *buf, size_t len)
{
	char v[64];

	if (!exact && kv->unit && !strcmp(kv->unit, "bytes"))
		return hmb_bytes_text(kv->num, buf, len);
	snprintf(buf, len, "%s%s%s", hmb_figure_text(kv->num, v, sizeof(v)),
		 kv->unit && *kv->unit ? " " : "", kv->unit ? kv->unit : "");
	return buf;
}

const char *hmb_param_value(const struct hmb_kv *kv, char *buf, size_t len)
{
	char num[64];

	if (kv->type == HMB_KV_STR)
		return hmb_printable(kv->str ? kv->str : "", len > 4 ? len / 4 : 1, buf, len);
	if (kv->type == HMB_KV_BOOL)
		snprintf(buf, len, "%s", kv->num ? "yes" : "no");
	else if (hmb_is_bytes_name(kv->key) && kv->num > 0 && kv->num == floor(kv->num))
		hmb_bytes_text(kv->num, buf, len);
	else
		snprintf(buf, len, "%s", hmb_number_text(kv->num, num, sizeof(num)));
	return buf;
}

int hmb_param_shown(const struct hmb_record *r, const struct hmb_kv *kv)
{
	if (kv->role != HMB_ROLE_IDENTITY)
		return 0;
	return !(kv->type == HMB_KV_STR && kv->str && hmb_case_names(r->name, kv->str));
}

/* "size" is shown in its own column; other params as key=value (shown:
 * only those the default table shows; exact: every byte of a byte count, for
 * CSV, where people read them in binary units). */
static void params_text(const struct hmb_record *r, char *buf, size_t len, char *size,
			size_t slen, int shown, int exact)
{
	size_t used = 0;
	char v[4096];

	buf[0] = '\0';
	snprintf(size, slen, "-");
	for (size_t i = 0; i < r->params.n; i++) {
		const struct hmb_kv *kv = &r->params.v[i];
		if (strcmp(kv->key, "size") == 0 && kv->type == HMB_KV_NUM) {
			hmb_param_value(kv, size, slen);
			continue;
		}
		if (used >= len || (shown && !hmb_param_shown(r, kv)))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
					 hmb_shown(kv->key), exact && kv->type == HMB_KV_NUM ?
					 hmb_number_text(kv->num, v, sizeof(v)) :
					 hmb_param_value(kv, v, sizeof(v)));
	}
}

/* key=value unit of each metric (exact: every byte of a byte count, for CSV). */
static void metrics_text(const struct hmb_record *r, char *buf, size_t len, int exact)
{
	size_t used = 0;

	buf[0] = '\0';
	if (r->status != HMB_OK) {
		snprintf(buf, len, "%s: %s", hmb_status_name(r->status), r->reason ? r->reason : "");
		return;
	}
	for (size_t i = 0; i < r->metrics.n && used < len; i++) {
		const struct hmb_kv *kv = &r->metrics.v[i];
		char v[64];
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", kv->key,
					 metric_text(kv, exact, v, sizeof(v)));
	}
}

void hmb_table_marks(const struct hmb_record *r, const struct hmb_summary *s, char *buf,
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
static size_t stability_text(char *buf, size_t len, const struct hmb_stability *st)
{
	size_t used = 0;

	if (st->has_ci)
		used += (size_t)snprintf(buf, len, " (CI +-%.2g%%%s)", 100 * st->half_width_rel,
					 st->stable ? "" : ", unstable");
	else
		used += (size_t)snprintf(buf, len, " (too few samples to judge stability)");
	if (used < len && st->shape == HMB_SHAPE_DRIFT)
		used += (size_t)snprintf(buf + used, len - used, " drift: second half %+.1f%%",
					 100 * st->half_change_rel);
	else if (used < len && st->shape == HMB_SHAPE_BIMODAL)
		used += (size_t)snprintf(buf + used, len - used,
					 " bimodal: %zu of %zu samples %.1f%% apart", st->gap_below,
					 st->count, 100 * st->gap_rel);
	if (used < len && st->outliers)
		used += (size_t)snprintf(buf + used, len - used, " %zu outlier%s beyond +-%.0f%%",
					 st->outliers, st->outliers == 1 ? "" : "s",
					 100 * HMB_OUTLIER_REL);
	return used;
}

/* The columns a progress line may take on out: COLUMNS where it is a
 * number (as Python's shutil.get_terminal_size reads it), else the width of
 * out's terminal, else 80 (not a terminal, or one that does not say). */
static int progress_columns(FILE *out)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long v;

	if (env && *env) {
		v = strtol(env, &end, 10);
		if (!*end && v > 0 && v < 100000)
			return (int)v;
	}
	if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return PROGRESS_COLUMNS;
}

/* "[module] case size=S: figures; parameters", cut to the terminal's width
 * (never wrapped): the figures come before the parameters so that a narrow
 * terminal keeps them. */
void hmb_progress_print(FILE *out, const struct hmb_record *r)
{
	struct hmb_summary s;
	char line[8192], params[4096], size[32], t[32], m[4096];
	size_t used, width = (size_t)progress_columns(out), cols = 0, cut = 0;

	hmb_record_summarize(r, &s);
	params_text(r, params, sizeof(params), size, sizeof(size), 1, 0);
	metrics_text(r, m, sizeof(m), 0);
	used = (size_t)snprintf(line, sizeof(line), "[%s] %s", hmb_shown(r->module),
				hmb_shown(r->name));
	if (strcmp(size, "-") != 0 && used < sizeof(line))
		used += (size_t)snprintf(line + used, sizeof(line) - used, " size=%s", size);
	if (used < sizeof(line))
		used += (size_t)snprintf(line + used, sizeof(line) - used, ":");
	if (s.has_stats && used < sizeof(line)) {
		used += (size_t)snprintf(line + used, sizeof(line) - used, " median %s",
					 fmt_time(s.stats.median, t, sizeof(t)));
		if (s.gbps_median > 0 && used < sizeof(line))
			used += (size_t)snprintf(line + used, sizeof(line) - used, ", %.2f GB/s",
						 s.gbps_median);
		if (s.us_per_op_median > 0 && used < sizeof(line))
			used += (size_t)snprintf(line + used, sizeof(line) - used, ", %.3f us/op",
						 s.us_per_op_median);
		if (used < sizeof(line))
			used += stability_text(line + used, sizeof(line) - used, &s.stability);
	}
	if (m[0] && used < sizeof(line))
		used += (size_t)snprintf(line + used, sizeof(line) - used, " %s", m);
	if (params[0] && used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, "; %s", params);
	hmb_utf8_trim(line);
	/* cut, keeping whole UTF-8 characters: "..." ends a line that was longer */
	for (size_t i = 0; line[i]; i++)
		if (((unsigned char)line[i] & 0xC0) != 0x80 && ++cols == width - 2)
			cut = i;
	if (cols > width && width > 3)
		snprintf(line + cut, sizeof(line) - cut, "...");
	fprintf(out, "%s\n", line);
	fflush(out);
}

/* --wide: every record whole on one line, every parameter and figure. */
static void table_print_wide(FILE *out, const struct hmb_report *rep,
			     const struct hmb_record *first)
{
	const char *module = NULL;
	struct hmb_table_peaks peaks = { .rep = rep };

	for (const struct hmb_record *r = first; r; r = r->next) {
		struct hmb_summary s;
		char params[8192], size[32], med[32], best[32], m[4096], gb[16] = "-",
			gbb[16] = "-", peak[16] = "-", op[16] = "-", mark[8];

		if (!module || strcmp(module, r->module) != 0) {
			module = r->module;
			fprintf(out, "\n== %s ==\n%-34s %7s %12s %12s %9s %9s %6s %10s %-4s %s\n",
				hmb_shown(module), "case", "size", "median", "best", "GB/s", "best",
				"peak", "us/op", "mark", "params / figures");
		}
		hmb_record_summarize(r, &s);
		params_text(r, params, sizeof(params), size, sizeof(size), 0, 0);
		metrics_text(r, m, sizeof(m), 0);
		hmb_table_marks(r, &s, mark, sizeof(mark));
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
		if (hmb_table_peak_share(&peaks, r, &s) > 0)
			snprintf(peak, sizeof(peak), "%.0f%%", 100.0 * hmb_table_peak_share(&peaks, r, &s));
		if (s.us_per_op_median > 0)
			snprintf(op, sizeof(op), "%.3f", s.us_per_op_median);
		fprintf(out, "%-34s %7s %12s %12s %9s %9s %6s %10s %-4s %s%s%s\n",
			hmb_shown(r->name), size, med, best, gb, gbb, peak, op, mark, params,
			params[0] && m[0] ? " | " : "", m);
	}
}

void hmb_table_print(FILE *out, const struct hmb_report *rep, const struct hmb_record *first,
		     int wide)
{
	if (wide)
		table_print_wide(out, rep, first);
	else
		hmb_table_print_groups(out, rep, first);
}

double hmb_table_peak_share(struct hmb_table_peaks *p, const struct hmb_record *r,
			    const struct hmb_summary *s)
{
	int gpu = hmb_record_gpu(r), at = gpu + 1;
	double link = 0, hbm = 0, peak;

	if (!(s->gbps_median > 0))
		return 0;
	if (p && p->rep && at >= 0 && at <= HMB_TOPO_MAX_GPUS) {
		if (!p->known[at]) {
			hmb_report_gpu_peaks(p->rep, gpu, &p->link[at], &p->hbm[at]);
			p->known[at] = 1;
		}
		link = p->link[at];
		hbm = p->hbm[at];
	} else if (p && p->rep) {
		hmb_report_gpu_peaks(p->rep, gpu, &link, &hbm);
	}
	peak = hmb_figure_peak_gbps(p && p->rep ? p->rep->benches : NULL, r, link, hbm);
	return peak > 0 ? s->gbps_median / peak : 0;
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

/* The way a case moves data, where it has one: params.direction, else the
 * first part of its name that says (h2d-only, bidirectional). */
static const char *direction_of(const struct hmb_record *r)
{
	static const char *const words[] = { "h2d", "d2h", "d2d", "h2h", "p2p", "bidir" };
	const struct hmb_kv *d = hmb_kv_find(&r->params, "direction");

	if (d && d->type == HMB_KV_STR && d->str)
		return d->str;
	for (const char *c = r->name; c; c = strchr(c, '/') ? strchr(c, '/') + 1 : NULL)
		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
			size_t n = strlen(words[i]);
			if (!strncmp(c, words[i], n) &&
			    (c[n] == '/' || c[n] == '-' || !c[n] || !strcmp(words[i], "bidir")))
				return words[i];
		}
	return "";
}

void hmb_csv_print(FILE *out, const struct hmb_record *first, int header)
{
	if (header)
		fputs("module,case,direction,status,size_bytes,params,count,median_s,min_s,mean_s,"
		      "max_s,stddev_s,gbps_median,gbps_best,peak_fraction,us_per_op,figures,reason,"
		      "mark,stable,resolution_rel\n", out);
	for (const struct hmb_record *r = first; r; r = r->next) {
		struct hmb_summary s;
		const struct hmb_kv *size = hmb_kv_find(&r->params, "size");
		char params[8192], sz[32], m[4096] = "";

		hmb_record_summarize(r, &s);
		params_text(r, params, sizeof(params), sz, sizeof(sz), 0, 1);
		if (r->status == HMB_OK)
			metrics_text(r, m, sizeof(m), 1);
		csv_field(out, r->module);
		fputc(',', out);
		csv_field(out, r->name);
		fputc(',', out);
		csv_field(out, direction_of(r));
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
		/* the marks, whether it is stable, and how small a change it can show */
		if (s.has_stats) {
			char mark[16];
			hmb_stability_mark(&s.stability, mark, sizeof(mark));
			fprintf(out, ",%s,%s,", mark, s.stability.stable > 0 ? "yes" :
				s.stability.stable == 0 ? "no" : "");
		} else {
			fputs(",,,", out);
		}
		if (r->runs && r->runs->judged)
			fprintf(out, "%.6g", r->runs->res.resolution);
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
