/* json_import.h - all: the documents of module processes taken into the run. */
#ifndef HMB_JSON_IMPORT_H
#define HMB_JSON_IMPORT_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct hmb_report;

/* all: take a module's document (written by its own process) into the
 * report: its records, its telemetry samples and, first time, its device.
 * 0, or -1 with a reason in err. */
int hmb_json_import(struct hmb_report *rep, const char *path, char *err, size_t errlen);
/* The same of a document read (hmb_doc_load). */
void hmb_json_import_document(struct hmb_report *rep, const cJSON *doc);
/* A parsed document's records and telemetry samples alone into the report. */
void hmb_json_import_doc(struct hmb_report *rep, const cJSON *doc);
/* all: the arch name of GPU `ordinal` (-1: any) from the device objects the
 * modules' documents brought in. 0, or -1 where none has come yet. */
int hmb_report_device_arch(const struct hmb_report *rep, int ordinal, char *buf, size_t len);
/* The peaks of GPU `gpu` (-1: the run's), GB/s, 0 unknown, for the tables'
 * peak %: its host link's per direction and its memory's, from the device this
 * process opened, else from the device objects the documents brought in (the
 * first where none is that GPU, as the summary reads a document). */
void hmb_report_gpu_peaks(const struct hmb_report *rep, int gpu, double *link_gbps,
			  double *hbm_gbps);

#endif
