/* schedule.c - the host groups of the GPUs and each module's waves (schedule.h). */
#include "run/schedule.h"

#include <string.h>

static const struct hmb_gpu_topo *described(const struct hmb_topology *t, int ordinal)
{
	if (!t)
		return NULL;
	for (int i = 0; i < t->n; i++)
		if (t->gpu[i].ordinal == ordinal)
			return &t->gpu[i];
	return NULL;
}

/* Do a and b share their way to the host: one port, or one NUMA node? */
static int share_host(const struct hmb_gpu_topo *a, const struct hmb_gpu_topo *b)
{
	if (a->host_port[0] && strcmp(a->host_port, b->host_port) == 0)
		return 1;
	return a->numa_node == b->numa_node;
}

static int root_of(int *parent, int i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

int hmb_host_groups(const struct hmb_topology *t, const int *devices, int ndev, int *group)
{
	int parent[HMB_SCHED_MAX], label[HMB_SCHED_MAX], ngroups = 0, known = 1;

	if (ndev > HMB_SCHED_MAX)
		ndev = HMB_SCHED_MAX;
	for (int i = 0; i < ndev; i++) {
		parent[i] = i;
		label[i] = -1;
		known &= described(t, devices[i]) != NULL;
	}
	for (int i = 0; i < ndev; i++)
		for (int j = 0; j < i; j++)
			if (!known || share_host(described(t, devices[i]), described(t, devices[j])))
				parent[root_of(parent, i)] = root_of(parent, j);
	for (int i = 0; i < ndev; i++) {
		int r = root_of(parent, i);
		if (label[r] < 0)
			label[r] = ngroups++;
		group[i] = label[r];
	}
	return ngroups;
}

void hmb_waves_plan(const struct hmb_topology *t, const int *devices, int ndev, int host_link,
		    enum hmb_together mode, struct hmb_waves *w)
{
	int group[HMB_SCHED_MAX], taken[HMB_SCHED_MAX] = { 0 };

	memset(w, 0, sizeof(*w));
	if (ndev > HMB_SCHED_MAX)
		ndev = HMB_SCHED_MAX;
	if (ndev < 1)
		return;
	hmb_host_groups(t, devices, ndev, group);
	for (int i = 0; i < ndev; i++) {
		/* none: a wave each; all, or a module of the GPU's own memory: one
		 * wave; else wave k takes the k-th GPU of each host group */
		int k = mode == HMB_TOGETHER_NONE ? i
			: mode == HMB_TOGETHER_ALL || !host_link ? 0 : taken[group[i]]++;
		w->gpu[k][w->size[k]] = devices[i];
		w->at[k][w->size[k]] = i;
		w->group[k][w->size[k]++] = group[i];
		if (k + 1 > w->n)
			w->n = k + 1;
	}
}

const char *hmb_waves_beside(const struct hmb_waves *w, int wave, int i, int same_group,
			     char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int j = 0; wave >= 0 && wave < w->n && j < w->size[wave] && used < len; j++)
		if (j != i && (!same_group || i < 0 || w->group[wave][j] == w->group[wave][i]))
			used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "",
						 w->gpu[wave][j]);
	return buf;
}

void hmb_schedule_print(FILE *out, const struct hmb_topology *t, const int *devices, int ndev,
			enum hmb_together mode, const struct hmb_sched_module *mods, int nmods)
{
	int group[HMB_SCHED_MAX], ngroups, procs = 0, known = 1;
	double expect = 0, alone = 0, serial = 0;

	if (ndev > HMB_SCHED_MAX)
		ndev = HMB_SCHED_MAX;
	ngroups = hmb_host_groups(t, devices, ndev, group);
	fprintf(out, "GPUs together (--together %s): %d GPU(s), %d host group(s)", 
		hmb_together_name(mode), ndev, ngroups);
	for (int g = 0; g < ngroups; g++) {
		const struct hmb_gpu_topo *first = NULL;
		fprintf(out, "%s{", g ? " " : ": ");
		for (int i = 0, k = 0; i < ndev; i++)
			if (group[i] == g) {
				fprintf(out, "%s%d", k++ ? "," : "", devices[i]);
				if (!first)
					first = described(t, devices[i]);
			}
		fprintf(out, "}");
		if (first)
			fprintf(out, " NUMA %d", first->numa_node);
	}
	fprintf(out, "\n");
	for (int m = 0; m < nmods; m++) {
		const struct hmb_sched_module *md = &mods[m];
		struct hmb_waves w;

		fprintf(out, "  %-9s %-10s ", md->name, md->node_level ? "the node" :
			md->host_link ? "host link" : "own memory");
		if (md->node_level) {
			fprintf(out, "once, every GPU\n");
			procs++;
			expect += md->seconds;
			alone += md->seconds;
			serial += md->seconds;
		} else {
			hmb_waves_plan(t, devices, ndev, md->host_link, mode, &w);
			fprintf(out, "%d wave(s): ", w.n);
			for (int k = 0; k < w.n; k++) {
				char gpus[256];
				fprintf(out, "%s%s", k ? " | " : "",
					hmb_waves_beside(&w, k, -1, 0, gpus, sizeof(gpus)));
			}
			fprintf(out, "\n");
			procs += ndev;
			expect += w.n * md->seconds;
			alone += md->seconds;
			serial += ndev * md->seconds;
		}
		known &= md->seconds >= 0;
	}
	fprintf(out, "  module processes a run: %d", procs);
	if (known && nmods)
		fprintf(out, "; wall time to expect %.0f s (one GPU %.0f s, one GPU after another "
			"%.0f s)", expect, alone, serial);
	fprintf(out, "\n");
}
