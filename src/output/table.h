/*
 * table.h - what the table printers share: table.c (progress lines, CSV,
 * --wide, info) and table_groups.c (the default table, within 120 columns).
 */
#ifndef HMB_TABLE_H
#define HMB_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "engine/record.h"
#include "system/topology.h"

struct hmb_device;
struct hmb_report;

/* Human table and CSV of records from `first` to the end. The
 * table fits 120 columns (table_groups.c); wide: every record whole, every
 * parameter and figure on its line. rep: the run or document the records are
 * of, for the peaks of their GPUs and those its modules declare for their
 * cases (rep->benches; NULL: only the records' own). Progress
 * lines are cut to the terminal. */
void hmb_table_print(FILE *out, const struct hmb_report *rep, const struct hmb_record *first,
		     int wide);
void hmb_csv_print(FILE *out, const struct hmb_record *first, int header);
void hmb_progress_print(FILE *out, const struct hmb_record *r);
void hmb_info_print(FILE *out, const struct hmb_report *rep);
/* The memory-model part of `info` (memmodel.h) for one device. */
void hmb_info_print_memory(FILE *out, const struct hmb_device *dev);

/* The default table: records in groups under headings (table_groups.c). */
void hmb_table_print_groups(FILE *out, const struct hmb_report *rep,
			    const struct hmb_record *first);

/* The copies whose time per copy the memcpy tables give beside their GB/s:
 * sizes up to this (1M), where a copy's latency matters more than its rate. */
#define HMB_SMALL_COPY_MAX ((double)(1 << 20))

/* The peaks a table's GPUs have (hmb_report_gpu_peaks), read once a GPU. */
struct hmb_table_peaks {
	const struct hmb_report *rep;  /* NULL: none but the records' own */
	int known[HMB_TOPO_MAX_GPUS + 1];
	double link[HMB_TOPO_MAX_GPUS + 1], hbm[HMB_TOPO_MAX_GPUS + 1];
};
/* A record's GB/s as a share of its physical peak (hmb_figure_peak_gbps, the
 * summary's): 0 where it has none. */
double hmb_table_peak_share(struct hmb_table_peaks *p, const struct hmb_record *r,
			    const struct hmb_summary *s);
/* The marks of a record: stability (stability.h), then "S" where another
 * process used the GPU during its module. */
void hmb_table_marks(const struct hmb_record *r, const struct hmb_summary *s, char *buf,
		     size_t len);
/* A parameter's value for people, printable: a byte count in binary units
 * (4K, 256M, 15.9G: hmb_bytes_text, for the names hmb_is_bytes_name gives),
 * other whole numbers whole (1048576, not 1.04858e+06), yes/no. */
const char *hmb_param_value(const struct hmb_kv *kv, char *buf, size_t len);
/* Does the default table show kv: a parameter that defines the workload
 * (its role, engine/record.h: identity), and not a text the case names
 * already (direction=h2d of h2d/pinned/async)? Context (the GPU, tuned to
 * the machine, descriptive text, timing, launch geometry) is for --wide. */
int hmb_param_shown(const struct hmb_record *r, const struct hmb_kv *kv);
/* A figure for people: whole numbers whole, others to about four
 * significant digits, never with an exponent above 0.001. */
const char *hmb_figure_text(double v, char *buf, size_t len);
/* Columns that text takes on a terminal: its UTF-8 characters. */
size_t hmb_text_columns(const char *s);

#endif
