/*
 * documents.h - the documents a command reads (those of HMB_ARGS_DOCUMENTS),
 * checked together before any is read: standard input ('-') at most once,
 * no document twice where the command's row does not take that, and no
 * --output over one of them.
 */
#ifndef HMB_DOCUMENTS_H
#define HMB_DOCUMENTS_H

#include <stddef.h>

struct hmb_command;

/* 0, or -1 with one line in err naming the document (command: as typed). */
int hmb_documents_check(const struct hmb_command *cmd, const char *command, char **docs,
			int n, const char *output, char *err, size_t errlen);

#endif
