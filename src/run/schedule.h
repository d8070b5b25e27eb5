/*
 * schedule.h - which GPUs of --devices run a module at the same time.
 *
 * `--together all`, the default, runs every module on every GPU at once, as
 * a node is used: a host-link module's figures of GPUs that share their way to
 * the host then say so (observed.host_link_shared_with_gpus). `--together
 * host` keeps each GPU's host figures those it has alone: a module that uses
 * only its own GPU's memory (pool, vmm) still runs on every GPU at once, but
 * one that moves data over the host link (memcpy, overlap, managed, xnack:
 * struct hmb_bench.host_link) runs at once only on GPUs that share nothing on
 * the way to the host: GPUs behind one host port (topology.h: host_port) or in
 * one NUMA node (-1, unknown, counts as one node) form a group, and each wave
 * takes at most one GPU of each group. That costs a group's size times the
 * host-link modules' time (2.9x one GPU's `all` on four H100s of one root
 * bus, against 1.4x all at once), so it is asked for, not the default.
 * `--together none` runs one GPU after another.
 */
#ifndef HMB_SCHEDULE_H
#define HMB_SCHEDULE_H

#include <stdio.h>

#include "engine/options.h"
#include "system/topology.h"

#define HMB_SCHED_MAX 64

struct hmb_waves {
	int n;                                  /* waves, run one after another */
	int size[HMB_SCHED_MAX];                /* GPUs in each */
	int gpu[HMB_SCHED_MAX][HMB_SCHED_MAX];  /* their ordinals, in --devices order */
	int at[HMB_SCHED_MAX][HMB_SCHED_MAX];   /* their places in --devices */
	int group[HMB_SCHED_MAX][HMB_SCHED_MAX];/* their host groups (hmb_host_groups) */
};

/* The host group of each of devices[0..ndev) (group[i], numbered from 0 in
 * order of first appearance); the number of groups. t NULL or a GPU it does
 * not describe: every GPU in one group (nothing known is shared nothing). */
int hmb_host_groups(const struct hmb_topology *t, const int *devices, int ndev, int *group);

/* The waves of a module on devices[0..ndev). */
void hmb_waves_plan(const struct hmb_topology *t, const int *devices, int ndev, int host_link,
		    enum hmb_together mode, struct hmb_waves *w);

/* The GPUs of a wave other than its i-th (-1: all of them), as "1,2,3" (""
 * none); same_group: only those in the i-th's host group. */
const char *hmb_waves_beside(const struct hmb_waves *w, int wave, int i, int same_group,
			     char *buf, size_t len);

/* The plan of `all --devices` as text: the groups, each module's waves, how
 * many module processes, and the wall time to expect where one GPU's time
 * per module is known (seconds[i] for names[i]; NULL or < 0: unknown). */
struct hmb_sched_module {
	const char *name;
	int host_link;
	int node_level;     /* runs once for the node */
	double seconds;     /* one GPU's wall time (all of its runs); < 0 unknown */
};
void hmb_schedule_print(FILE *out, const struct hmb_topology *t, const int *devices, int ndev,
			enum hmb_together mode, const struct hmb_sched_module *mods, int nmods);

#endif
