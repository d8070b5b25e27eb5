/* atomic_file.h - a file written whole or not at all (atomic_file.c). */
#ifndef HMB_ATOMIC_FILE_H
#define HMB_ATOMIC_FILE_H

#include <stddef.h>

/* Write text to path atomically (a new temporary file PATH.tmp.PID.XXXXXX
 * with the mode of the file it replaces, fsynced, renamed over it, the folder
 * fsynced); 0, or -1 with a reason in err. */
int hmb_write_text_file(const char *path, const char *text, char *err, size_t errlen);
/* Can path be written: "-", or a regular file (new or writable) in a
 * directory where a file can be made (one is made and removed)? Checked
 * before any measurement; leaves nothing behind. */
int hmb_output_writable(const char *path, char *err, size_t errlen);
/* Remove the temporaries of path that writes killed on the way left
 * (PATH.tmp.PID.XXXXXX of a process no longer running, held by no lock). */
void hmb_remove_stale_temporaries(const char *path);
/* Remove the temporary file of a write in progress; async-signal-safe. */
void hmb_json_discard_tmp(void);

#endif
