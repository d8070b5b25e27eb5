/* checkpoint.c - periodic atomic rewrites of the --output file. */
#include "run/checkpoint.h"

#include <stdio.h>
#include <string.h>

#include "doc/json_write.h"
#include "engine/report.h"
#include "util/timing.h"

double hmb_checkpoint_interval_s = 5.0;

void hmb_checkpoint(struct hmb_report *rep, int force)
{
	static double last_write;
	static int warned;
	const char *path = rep->opt ? rep->opt->output : NULL;
	char err[512];
	double now = hmb_now();

	if (!path || strcmp(path, "-") == 0)
		return;
	if (!force && now - last_write < hmb_checkpoint_interval_s)
		return;
	last_write = now;
	hmb_where_read(rep->have_device ? rep->device.pci_bus_id : NULL, &rep->where);
	rep->have_where = 1;
	if (hmb_json_write(rep, path, err, sizeof(err)) != 0 && !warned) {
		fprintf(stderr, "hipmembench: warning: %s\n", err);
		warned = 1;
	}
}
