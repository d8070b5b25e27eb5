/* telemetry.c - choosing the backend, taking samples, flagging modules. */
#include "telemetry/telemetry.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system/kfd.h"
#include "util/child_env.h"

#include "platform/hip.h"
#include "util/util.h"

#if !defined(HMB_PLATFORM_NVIDIA)
/* AMD: the processes on the GPU from KFD's per-process folders, where the
 * GPU is one KFD node (a partitioned GPU's node is not known here). */
static void kfd_processes_open(struct hmb_telemetry *t, const char *pci_bus_id)
{
	struct hmb_kfd_gpu g;
	long pid;
	long long bytes;

	if (hmb_kfd_read(pci_bus_id, -1, NULL, &g) != 0 || g.gpu_id <= 0) {
		snprintf(t->procs_source, sizeof(t->procs_source),
			 "not read: no single KFD node for this GPU");
		return;
	}
	if (hmb_kfd_processes(g.gpu_id, NULL, &pid, &bytes, 0) < 0) {
		snprintf(t->procs_source, sizeof(t->procs_source),
			 "not read: /sys/class/kfd/kfd/proc cannot be read");
		return;
	}
	t->kfd_gpu_id = g.gpu_id;
	snprintf(t->procs_source, sizeof(t->procs_source),
		 "/sys/class/kfd/kfd/proc/*/vram_%lld (processes with memory on the GPU)",
		 g.gpu_id);
}
#endif

/* The first backend of the platform's list that opens wins; without any,
 * the reasons of all are kept. */
void hmb_telemetry_open(struct hmb_telemetry *t, const char *pci_bus_id)
{
#if defined(HMB_PLATFORM_NVIDIA)
	static const struct hmb_telemetry_backend *const list[] = { &hmb_telemetry_nvml, NULL };
#else
	static const struct hmb_telemetry_backend *const list[] = { &hmb_telemetry_rocm_smi, NULL };
#endif
	char reasons[sizeof(t->reason)] = "";
	size_t used = 0;

	memset(t, 0, sizeof(*t));
	for (int i = 0; list[i]; i++) {
		const struct hmb_telemetry_backend *b = list[i];
		t->reason[0] = '\0';
		snprintf(t->source, sizeof(t->source), "%s", b->name);
		if (b->open(t, pci_bus_id) == 0) {
			t->available = 1;
			t->backend = b;
#if !defined(HMB_PLATFORM_NVIDIA)
			kfd_processes_open(t, pci_bus_id);
#endif
			if (!t->procs_source[0])
				snprintf(t->procs_source, sizeof(t->procs_source),
					 "not read on this platform (%s lists no processes here)",
					 b->name);
			return;
		}
		if (t->lib) {
			dlclose(t->lib);
			t->lib = NULL;
		}
		if (used < sizeof(reasons))
			used += (size_t)snprintf(reasons + used, sizeof(reasons) - used, "%s%.200s",
						 used ? "; " : "", t->reason);
	}
	memcpy(t->reason, reasons, sizeof(t->reason));
}

struct hmb_gpu_sample *hmb_telemetry_add(struct hmb_telemetry *t)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 32;
		t->s = hmb_xrealloc(t->s, (size_t)t->cap * sizeof(*t->s));
	}
	memset(&t->s[t->n], 0, sizeof(t->s[0]));
	return &t->s[t->n++];
}

struct hmb_gpu_sample *hmb_telemetry_sample(struct hmb_telemetry *t, const char *module,
					    const char *when)
{
	struct hmb_gpu_sample *s;

	if (!t->available)
		return NULL;
	s = hmb_telemetry_add(t);
	snprintf(s->module, sizeof(s->module), "%s", module);
	snprintf(s->when, sizeof(s->when), "%s", when);
	s->sm_clock_mhz = s->mem_clock_mhz = s->temperature_c = s->power_w = -1;
	s->link_gen = s->link_width = s->link_max_gen = s->link_max_width = -1;
	s->throttle_mask = -1;
	s->throttled = -1;
	s->nprocs = s->own_seen = -1;
	t->backend->read(t, s);
	if (t->kfd_gpu_id > 0) {
		long pids[HMB_GPU_PROCS_MAX];
		long long bytes[HMB_GPU_PROCS_MAX];
		int n = hmb_kfd_processes(t->kfd_gpu_id, NULL, pids, bytes, HMB_GPU_PROCS_MAX);
		s->nprocs = n;
		for (int i = 0; i < n && i < HMB_GPU_PROCS_MAX; i++) {
			s->procs[i].pid = pids[i];
			s->procs[i].used_bytes = bytes[i];
		}
	}
	if (s->nprocs >= 0) {
		long own[2];
		hmb_gpu_procs_mark_own(s, own, hmb_own_pids(own));
	}
	return s;
}

void hmb_gpu_procs_mark_own(struct hmb_gpu_sample *s, const long *own, int nown)
{
	int kept = s->nprocs < HMB_GPU_PROCS_MAX ? s->nprocs : HMB_GPU_PROCS_MAX;

	s->own_seen = 0;
	for (int i = 0; i < kept; i++) {
		s->procs[i].own = 0;
		for (int k = 0; k < nown; k++)
			if (s->procs[i].pid == own[k])
				s->procs[i].own = 1;
		s->own_seen |= s->procs[i].own;
	}
}

int hmb_own_pids(long own[2])
{
	const char *child = getenv(HMB_CHILD_OUTPUT_ENV);
	char *end;
	long parent;

	own[0] = (long)getpid();
	if (!child)
		return 1;
	parent = strtol(child, &end, 10);
	if (end == child || *end != ':' || parent <= 0)
		return 1;
	own[1] = parent;
	return 2;
}

int hmb_telemetry_others(const struct hmb_telemetry *t, const char *module, long *pids,
			 long long *bytes, int max, int *unsure)
{
	int found = -1, own_seen = 0, most = 0;
	long own[2];
	int nown = hmb_own_pids(own);

	*unsure = 0;
	for (int i = 0; i < t->n; i++) {
		const struct hmb_gpu_sample *s = &t->s[i];
		if (strcmp(s->module, module) != 0 || s->nprocs < 0)
			continue;
		found = 0;
		own_seen |= s->own_seen == 1;
		if (s->nprocs > most)
			most = s->nprocs;
	}
	if (found < 0)
		return -1;
	if (!own_seen) {
		/* none of them is ours as far as the pids go: another PID namespace */
		if (most <= nown)
			return 0;
		*unsure = 1;
	}
	for (int i = 0; i < t->n; i++) {
		const struct hmb_gpu_sample *s = &t->s[i];
		int kept = s->nprocs < HMB_GPU_PROCS_MAX ? s->nprocs : HMB_GPU_PROCS_MAX;
		if (strcmp(s->module, module) != 0 || s->nprocs < 0)
			continue;
		for (int k = 0; k < kept && found < max; k++) {
			int seen = 0;
			if (s->procs[k].own)
				continue;
			for (int j = 0; j < found; j++)
				seen |= pids[j] == s->procs[k].pid;
			if (seen)
				continue;
			pids[found] = s->procs[k].pid;
			if (bytes)
				bytes[found] = s->procs[k].used_bytes;
			found++;
		}
	}
	return found;
}

void hmb_telemetry_close(struct hmb_telemetry *t)
{
	if (t->available && t->backend->close)
		t->backend->close(t);
	if (t->lib)
		dlclose(t->lib);
	t->lib = NULL;
	t->available = 0;
}

void hmb_telemetry_free(struct hmb_telemetry *t)
{
	free(t->s);
	t->s = NULL;
	t->n = t->cap = 0;
}

const struct hmb_gpu_sample *hmb_telemetry_flags(const struct hmb_telemetry *t,
						 const char *module, int *throttled,
						 int *link_below_max)
{
	const struct hmb_gpu_sample *found = NULL;

	*throttled = *link_below_max = -1;
	for (int i = 0; i < t->n; i++) {
		const struct hmb_gpu_sample *s = &t->s[i];
		if (strcmp(s->module, module) != 0 || strcmp(s->when, "after") != 0)
			continue;
		found = s;
		*throttled = s->throttled;
		if (hmb_telemetry_link_below_max(s) >= 0)
			*link_below_max = hmb_telemetry_link_below_max(s);
	}
	return found;
}

int hmb_telemetry_link_below_max(const struct hmb_gpu_sample *s)
{
	if (s->link_gen > 0 && s->link_max_gen > 0 && s->link_width > 0 && s->link_max_width > 0)
		return s->link_gen < s->link_max_gen || s->link_width < s->link_max_width;
	return -1;
}
