/*
 * runner.c - runs a module: checks what it needs from the device (the one
 * place that does), turns a module that could not go on into a "failed"
 * record, prints its table (unless `all` prints it) and checkpoints the JSON.
 */
#include "run/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fault.h"
#include "engine/measure.h"
#include "output/table.h"
#include "run/checkpoint.h"
#include "util/timing.h"

/* The reason a device cannot run a module, or NULL. */
static const char *missing_capability(unsigned needs, const struct hmb_device *d)
{
	if ((needs & HMB_NEEDS_MANAGED) && d->managed_memory != 1)
		return "the device does not support managed memory "
		       "(hipDeviceAttributeManagedMemory is 0)";
	if ((needs & HMB_NEEDS_POOLS) && d->memory_pools != 1)
		return "the device does not support stream-ordered memory pools "
		       "(hipDeviceAttributeMemoryPoolsSupported is 0)";
	if ((needs & HMB_NEEDS_VMM) && !HMB_HAVE_VMM)
		return "this build's HIP version has no virtual memory management API "
		       "(hipMemCreate and friends need ROCm 6.0 or later)";
	if ((needs & HMB_NEEDS_VMM) && d->vmm != 1)
		return "the device does not support virtual memory management "
		       "(hipDeviceAttributeVirtualMemoryManagementSupported is 0)";
	return NULL;
}

/* Say so when a module's figures were taken on a throttled GPU or a slow link. */
static void report_telemetry_flags(const struct hmb_report *rep, const char *module)
{
	int throttled, slow_link;
	const struct hmb_gpu_sample *after =
		hmb_telemetry_flags(&rep->telemetry, module, &throttled, &slow_link);

	if (throttled == 1)
		fprintf(stderr, "[%s] warning: the GPU was throttled after this module (%s)\n",
			module, after->throttle);
	if (slow_link == 1)
		fprintf(stderr, "[%s] warning: the PCIe link ran below its maximum after this "
			"module\n", module);
}

/* Say so, and mark the module's records, where another process used the GPU
 * before or after the module (telemetry.h: NVML's compute processes). */
static void report_neighbours(const struct hmb_report *rep, const char *module,
			      struct hmb_record *first)
{
	long pids[HMB_GPU_PROCS_MAX];
	long long bytes[HMB_GPU_PROCS_MAX];
	char list[512] = "", words[1024] = "";
	size_t used = 0, wused = 0;
	int unsure, n = hmb_telemetry_others(&rep->telemetry, module, pids, bytes,
					     HMB_GPU_PROCS_MAX, &unsure);

	for (int i = 0; i < n; i++) {
		if (used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%ld",
						 i ? ", " : "", pids[i]);
		if (wused >= sizeof(words))
			continue;
		if (bytes[i] >= 0)
			wused += (size_t)snprintf(words + wused, sizeof(words) - wused,
						  "%spid %ld (%.0f MiB)", i ? ", " : "", pids[i],
						  (double)bytes[i] / (1 << 20));
		else
			wused += (size_t)snprintf(words + wused, sizeof(words) - wused, "%spid %ld",
						  i ? ", " : "", pids[i]);
	}
	if (n <= 0)
		return;
	fprintf(stderr, "[%s] warning: %s used the GPU around this module: %s%s; its figures "
		"may be low\n", module, n == 1 ? "another process" : "other processes", words,
		unsure ? " (this run's own pid is not in the list, as in a container: judged by "
			 "the number of processes)" : "");
	for (struct hmb_record *r = first; r; r = r->next)
		if (strcmp(r->module, module) == 0)
			hmb_observe_str(r, "gpu_shared_with", list);
}

/* A record in the module's own name ("module"): always kept, whatever --case
 * says, and finished as the module's records are. */
static void module_record(struct hmb_ctx *ctx, enum hmb_status status, const char *why)
{
	struct hmb_record *r = hmb_case_record(ctx, "module");
	hmb_record_status(r, status, "%s", why);
	hmb_commit_kept(ctx, r);
}

/* With HMB_FAULT set (fault.h): the module once first, unrecorded and with
 * no fault, so that what the runtime creates on first use and keeps for the
 * process (the unified-memory driver's state, channels for more streams)
 * exists before free memory is read for the run that counts. */
static void warm_pass(const struct hmb_bench *b, const struct hmb_report *rep)
{
	struct hmb_options quiet = *rep->opt;
	struct hmb_report scratch;

	quiet.output = NULL;
	quiet.format = HMB_FORMAT_NONE;
	hmb_report_init(&scratch, &quiet, rep->command);
	scratch.device = rep->device;
	scratch.have_device = rep->have_device;
	fprintf(stderr, "hipmembench: fault-hook: %s once first, not recorded\n", b->name);
	hmb_fault_armed = 0;
	hmb_run_module(b, &scratch);
	hmb_fault_armed = 1;
	hmb_report_free(&scratch);
}

/* The progress callback (report.h): each finished record's progress line, and
 * the document on disk at most every few seconds (checkpoint.h). The one place
 * where a record goes from the run to the output while the module runs. */
static void progress(struct hmb_report *rep, const struct hmb_record *r)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f;

	/* beside other GPUs' modules: the line names its GPU, written at once */
	if (rep->opt->child_beside && (f = open_memstream(&line, &len))) {
		fprintf(f, "gpu%d ", rep->opt->device);
		hmb_progress_print(f, r);
		fclose(f);
		fputs(line, stderr);
		free(line);
	} else {
		hmb_progress_print(stderr, r);
	}
	hmb_checkpoint(rep, 0);
}

void hmb_run_module(const struct hmb_bench *b, struct hmb_report *rep)
{
	struct hmb_ctx ctx = { rep->opt, b, &rep->device, rep, b->name, NULL, NULL, { 0 } };
	struct hmb_record *before = rep->tail, *first;
	const char *missing = missing_capability(b->needs, &rep->device);
	char why[1024];
	double t0;
	size_t free_before;

	if (!hmb_bench_selected(b, rep->opt))
		return;
	rep->progress = progress;
	if (hmb_fault_armed)
		warm_pass(b, rep);
	free_before = hmb_fault_armed ? hmb_device_free_mem() : 0;
	t0 = hmb_now();
	hmb_report_add_module(rep, b->name);
	hmb_telemetry_sample(&rep->telemetry, b->name, "before");
	if (missing) {
		module_record(&ctx, HMB_UNSUPPORTED, missing);
	} else if (!(ctx.stream = hmb_stream_new(&ctx))) {
		module_record(&ctx, HMB_FAILED, hmb_take_error(why, sizeof(why)));
	} else if (b->run(&ctx) != 0 && !hmb_interrupted()) {
		module_record(&ctx, HMB_FAILED, hmb_take_error(why, sizeof(why)));
	}
	(void)hipDeviceSynchronize();
	(void)hipGetLastError();
	hmb_engine_free(&ctx);
	hmb_owned_release(&ctx, 0);
	if (hmb_fault_armed)
		hmb_fault_report(b->name, free_before, hmb_device_free_mem());
	hmb_report_module_run(rep, b->name, hmb_now() - t0, -1,
			      b->node_level ? -1 : rep->opt->device);
	hmb_telemetry_sample(&rep->telemetry, b->name, "after");
	report_telemetry_flags(rep, b->name);
	first = before ? before->next : rep->head;
	report_neighbours(rep, b->name, first);
	/* a module of `all` in a process of its own: `all` prints its table from
	 * the document, as `show` would */
	if (rep->opt->format == HMB_FORMAT_TABLE && first && !rep->opt->child_output) {
		hmb_table_print(stdout, rep, first, rep->opt->wide);
		fflush(stdout);
	}
	hmb_checkpoint(rep, 1);
}
