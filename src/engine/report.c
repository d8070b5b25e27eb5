/* report.c - the list of records of one run and its start time. */
#include "engine/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "util/util.h"

void hmb_report_init(struct hmb_report *rep, const struct hmb_options *opt, const char *command)
{
	time_t now = time(NULL);
	struct tm tm;

	memset(rep, 0, sizeof(*rep));
	rep->opt = opt;
	rep->command = command;
	gmtime_r(&now, &tm);
	strftime(rep->started_utc, sizeof(rep->started_utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
	hmb_host_probe(&rep->host);
}

void hmb_report_add(struct hmb_report *rep, struct hmb_record *r)
{
	r->next = NULL;
	if (rep->tail)
		rep->tail->next = r;
	else
		rep->head = r;
	rep->tail = r;
	rep->count++;
}

void hmb_report_finish(struct hmb_report *rep, struct hmb_record *r)
{
	hmb_report_add(rep, r);
	if (rep->progress)
		rep->progress(rep, r);
}

void hmb_report_free(struct hmb_report *rep)
{
	struct hmb_record *r = rep->head;
	while (r) {
		struct hmb_record *next = r->next;
		hmb_record_free(r);
		r = next;
	}
	rep->head = rep->tail = NULL;
	rep->count = 0;
	for (int i = 0; i < rep->ndevices; i++)
		cJSON_Delete(rep->devices[i]);
	free(rep->devices);
	rep->devices = NULL;
	rep->ndevices = 0;
	free(rep->modules);
	rep->modules = NULL;
	rep->nmodules = 0;
	for (int i = 0; i < rep->nruns; i++)
		free(rep->runs[i].note);
	free(rep->runs);
	rep->runs = NULL;
	rep->nruns = 0;
	hmb_telemetry_free(&rep->telemetry);
}

void hmb_report_add_module(struct hmb_report *rep, const char *name)
{
	for (int i = 0; i < rep->nmodules; i++)
		if (!strcmp(rep->modules[i], name))
			return; /* another run or GPU of it: module_runs has each */
	rep->modules = hmb_xrealloc(rep->modules, (size_t)(rep->nmodules + 1) * sizeof(*rep->modules));
	rep->modules[rep->nmodules++] = name;
}

void hmb_report_module_run(struct hmb_report *rep, const char *name, double wall_s,
			   int exit_status, int device)
{
	rep->runs = hmb_xrealloc(rep->runs, (size_t)(rep->nruns + 1) * sizeof(*rep->runs));
	rep->runs[rep->nruns++] = (struct hmb_module_run){ name, wall_s, exit_status >= 0,
							   exit_status, device, "", "", 0, NULL, 0,
							   "" };
}

void hmb_report_module_run_env(struct hmb_report *rep, const char *var, const char *value,
			       int set)
{
	struct hmb_module_run *m = rep->nruns ? &rep->runs[rep->nruns - 1] : NULL;

	if (!m)
		return;
	snprintf(m->env_var, sizeof(m->env_var), "%s", var);
	snprintf(m->env_value, sizeof(m->env_value), "%s", value);
	m->env_set = set;
}

void hmb_report_module_run_note(struct hmb_report *rep, const char *note)
{
	struct hmb_module_run *m = rep->nruns ? &rep->runs[rep->nruns - 1] : NULL;

	if (!m)
		return;
	free(m->note);
	m->note = hmb_xstrdup(note);
}

void hmb_report_module_run_beside(struct hmb_report *rep, const char *gpus)
{
	struct hmb_module_run *m = rep->nruns ? &rep->runs[rep->nruns - 1] : NULL;

	if (m)
		snprintf(m->beside, sizeof(m->beside), "%s", gpus);
}

size_t hmb_report_failures(const struct hmb_report *rep)
{
	size_t n = 0;
	for (const struct hmb_record *r = rep->head; r; r = r->next)
		n += r->status == HMB_FAILED;
	return n;
}
