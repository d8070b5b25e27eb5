/* actions.h - the function that runs each command (the command table's run), and the exit statuses. */
#ifndef HMB_ACTIONS_H
#define HMB_ACTIONS_H

#include "cli/cli.h"

enum { EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_NO_GPU = 3 };

/* Each returns the exit status. */
int hmb_run_help(struct hmb_cli *cli);     /* help, and --help after any command */
int hmb_run_list(struct hmb_cli *cli);
int hmb_run_show(struct hmb_cli *cli);
int hmb_run_compare(struct hmb_cli *cli);
int hmb_run_summary(struct hmb_cli *cli);
int hmb_run_merge(struct hmb_cli *cli);
int hmb_run_measure(struct hmb_cli *cli);  /* info, all and the modules */

/* Bad usage: one printable line on stderr, exit 2. */
void hmb_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* stdout flushed: status, or 1 (with why on stderr) where it could not be written. */
int hmb_finish_stdout(int status);

#endif
