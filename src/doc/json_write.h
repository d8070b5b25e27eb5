/* json_write.h - a run as its JSON document (json_write.c; docs/schema.md). */
#ifndef HMB_JSON_WRITE_H
#define HMB_JSON_WRITE_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct hmb_kvlist;
struct hmb_report;

/* The document (caller deletes), and the same as text (caller frees), or NULL. */
cJSON *hmb_json_doc(const struct hmb_report *rep);
char *hmb_json_render(const struct hmb_report *rep);
/* Write the document to path atomically (a new temporary file
 * PATH.tmp.PID.XXXXXX with the mode of the file it replaces, fsynced, renamed
 * over it, the folder fsynced); "-" writes to stdout. 0, or -1 with a reason
 * in err. */
int hmb_json_write(const struct hmb_report *rep, const char *path, char *err, size_t errlen);

/* A record as the document has it, and the rule its stability follows (a
 * document of merged documents is written from these: run/merge.c). */
struct hmb_record;
cJSON *hmb_json_record(const struct hmb_record *r);
cJSON *hmb_json_stability_rule(void);

/* Values as the document writes them, for what other layers add to it (the
 * summary): an int, or a bool, of -1 (unknown) is null; an empty or NULL
 * string is null; a number not above 0 is null. */
void hmb_json_add_int(cJSON *o, const char *key, long v);
void hmb_json_add_bool(cJSON *o, const char *key, int v);
void hmb_json_add_str(cJSON *o, const char *key, const char *s);
void hmb_json_add_positive(cJSON *o, const char *key, double v);
/* A record's parameters or metrics as an object (with_units: {value, unit}). */
cJSON *hmb_json_kv(const struct hmb_kvlist *l, int with_units);

#endif
