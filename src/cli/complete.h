/*
 * complete.h - what the shell's completion (completion/hipmembench.bash) reads
 * from the binary it completes: `hipmembench __complete [COMMAND]` prints
 *
 *   command NAME ARGS             each command and module; ARGS is what its
 *                                 arguments are: -, command or documents
 *   option --NAME -S VALUE CHOICE...   each option that goes with COMMAND
 *                                 (every option without one): -S its short
 *                                 name, VALUE its value's name, "-" for none;
 *                                 then the values it can take, where known
 */
#ifndef HMB_COMPLETE_H
#define HMB_COMPLETE_H

#include <stdio.h>

struct hmb_bench;

#define HMB_COMPLETE_CMD "__complete"

/* argv: what follows __complete. The exit status: 0, or 2 (a line on stderr:
 * more than one word, or a command there is not). */
int hmb_complete_print(FILE *out, int argc, char **argv, const struct hmb_bench *const *benches);

#endif
