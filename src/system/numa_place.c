/* numa_place.c - where a GPU's host buffers and measuring thread go, and putting them there. */
#define _GNU_SOURCE
#include "system/numa_place.h"

#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform/check.h"
#include "platform/hip.h"
#include "util/sizes.h"

/* ---- the host's nodes (sysfs) --------------------------------------------------- */

static void read_distances(const char *dir, struct hmb_numa_host *h, int i)
{
	char path[512], buf[1024], *p = buf, *end;

	for (int k = 0; k < HMB_MAX_NODES; k++)
		h->distance[i][k] = -1;
	snprintf(path, sizeof(path), "%s/node%d/distance", dir, h->id[i]);
	if (hmb_sysfs_read(path, buf, sizeof(buf)) != 0)
		return;
	/* one distance per online node, in the order of their numbers */
	for (int k = 0; k < h->nnodes; k++, p = end) {
		long d = strtol(p, &end, 10);
		if (end == p)
			return;
		h->distance[i][k] = (int)d;
	}
}

int hmb_numa_host_read(const char *root, struct hmb_numa_host *h)
{
	char dir[256], path[512], buf[4096];
	struct hmb_idset online, memory;
	int have_memory_list;

	memset(h, 0, sizeof(*h));
	snprintf(dir, sizeof(dir), "%s/devices/system/node", root ? root : "/sys");
	snprintf(path, sizeof(path), "%s/online", dir);
	if (hmb_sysfs_read(path, buf, sizeof(buf)) != 0 || hmb_idset_parse(buf, &online) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/has_memory", dir);
	have_memory_list = hmb_sysfs_read(path, buf, sizeof(buf)) == 0 &&
			   hmb_idset_parse(buf, &memory) == 0;
	for (int id = 0; id < HMB_MAX_IDS && h->nnodes < HMB_MAX_NODES; id++) {
		int i = h->nnodes;
		if (!hmb_idset_has(&online, id))
			continue;
		h->id[i] = id;
		h->has_memory[i] = have_memory_list ? hmb_idset_has(&memory, id) : 1;
		snprintf(path, sizeof(path), "%s/node%d/cpulist", dir, id);
		if (hmb_sysfs_read(path, buf, sizeof(buf)) != 0 || hmb_idset_parse(buf, &h->cpus[i]) != 0)
			memset(&h->cpus[i], 0, sizeof(h->cpus[i]));
		h->nnodes++;
	}
	for (int i = 0; i < h->nnodes; i++)
		read_distances(dir, h, i);
	return h->nnodes > 0 ? 0 : -1;
}

int hmb_numa_memory_nodes(const struct hmb_numa_host *h)
{
	int n = 0;
	for (int i = 0; i < h->nnodes; i++)
		n += h->has_memory[i] != 0;
	return n;
}

/* ---- the decision ------------------------------------------------------------------ */

static int index_of(const struct hmb_numa_host *h, int node)
{
	for (int i = 0; i < h->nnodes; i++)
		if (h->id[i] == node)
			return i;
	return -1;
}

/* The index of the GPU's own node (with memory), or -1; why in words. */
static int local_index(const struct hmb_numa_host *h, const struct hmb_gpu_topo *g,
		       const char **why)
{
	int best = -1, best_n = 0, i = g->numa_node >= 0 ? index_of(h, g->numa_node) : -1;

	if (i >= 0 && h->has_memory[i]) {
		*why = "the GPU's node (sysfs numa_node)";
		return i;
	}
	if (i >= 0) { /* a node without memory: the nearest that has some */
		int best_d = -1;
		for (int k = 0; k < h->nnodes; k++)
			if (h->has_memory[k] && h->distance[i][k] >= 0 &&
			    (best_d < 0 || h->distance[i][k] < best_d)) {
				best = k;
				best_d = h->distance[i][k];
			}
		if (best >= 0) {
			*why = "the nearest node with memory to the GPU's node, which has none";
			return best;
		}
	}
	for (int k = 0; k < h->nnodes; k++) {
		struct hmb_idset both;
		int n;
		if (!h->has_memory[k])
			continue;
		hmb_idset_and(&both, &h->cpus[k], &g->local_cpus);
		n = hmb_idset_count(&both);
		if (n > best_n) {
			best = k;
			best_n = n;
		}
	}
	if (best >= 0) {
		*why = "the node holding most of the GPU's local CPUs (its numa_node is unknown)";
		return best;
	}
	if (hmb_numa_memory_nodes(h) == 1) {
		for (int k = 0; k < h->nnodes; k++)
			if (h->has_memory[k]) {
				*why = "the host's only node with memory";
				return k;
			}
	}
	*why = "unknown: the GPU's node cannot be told, the OS places the pages";
	return -1;
}

/* The thread: the GPU's local CPUs, else its node's, as far as allowed. */
static const char *thread_cpus(const struct hmb_numa_host *h, const struct hmb_gpu_topo *g,
			       int local, const struct hmb_idset *allowed, struct hmb_idset *out)
{
	struct hmb_idset all;

	if (!allowed) {
		memset(&all, 0xff, sizeof(all));
		allowed = &all;
	}
	hmb_idset_and(out, &g->local_cpus, allowed);
	if (hmb_idset_count(out))
		return "the GPU's local CPUs";
	if (local >= 0) {
		hmb_idset_and(out, &h->cpus[local], allowed);
		if (hmb_idset_count(out))
			return "the CPUs of the GPU's node";
	}
	memset(out, 0, sizeof(*out));
	return hmb_idset_count(&g->local_cpus) ? "not bound: none of the GPU's CPUs is allowed "
						 "to this process"
					       : "not bound: the GPU's CPUs are unknown";
}

int hmb_place_local(const struct hmb_numa_host *h, const struct hmb_gpu_topo *g,
		    const struct hmb_idset *allowed, struct hmb_placement *p)
{
	const char *why, *cpus;
	int i = local_index(h, g, &why);

	memset(p, 0, sizeof(*p));
	p->node = i >= 0 ? h->id[i] : -1;
	cpus = thread_cpus(h, g, i, allowed, &p->cpus);
	if (i >= 0)
		snprintf(p->how, sizeof(p->how), "memory on node %d, %s; thread on %s", p->node, why,
			 cpus);
	else
		snprintf(p->how, sizeof(p->how), "memory %s; thread on %s", why, cpus);
	return 0;
}

int hmb_place_remote(const struct hmb_numa_host *h, const struct hmb_gpu_topo *g,
		     const struct hmb_idset *allowed, struct hmb_placement *p)
{
	const char *why, *cpus;
	int i = local_index(h, g, &why), best = -1, best_d = -2;

	memset(p, 0, sizeof(*p));
	p->node = -1;
	cpus = thread_cpus(h, g, i, allowed, &p->cpus);
	if (i < 0) {
		snprintf(p->how, sizeof(p->how), "no remote placement: the GPU's own node is %s",
			 why);
		return -1;
	}
	for (int k = 0; k < h->nnodes; k++)
		if (k != i && h->has_memory[k] && h->distance[i][k] > best_d) {
			best = k;
			best_d = h->distance[i][k];
		}
	if (best < 0) {
		snprintf(p->how, sizeof(p->how), "no remote placement: node %d is the only node "
			 "with memory", h->id[i]);
		return -1;
	}
	p->node = h->id[best];
	p->remote = 1;
	snprintf(p->how, sizeof(p->how), "memory on node %d, the farthest from the GPU's node %d "
		 "(distance %d); thread on %s", p->node, h->id[i], best_d, cpus);
	return 0;
}

/* ---- the doing ----------------------------------------------------------------------- */

int hmb_host_buf_alloc(struct hmb_host_buf *b, size_t bytes, int node)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	hipError_t e;

	memset(b, 0, sizeof(*b));
	b->bytes = (bytes + page - 1) / page * page;
	if (!b->bytes)
		b->bytes = page;
	b->node = node >= 0 && numa_available() >= 0 ? node : -1;
	if (b->node >= 0) {
		b->host = numa_alloc_onnode(b->bytes, b->node);
		b->from_libnuma = 1;
	} else {
		b->host = aligned_alloc(page, b->bytes);
	}
	if (!b->host) {
		hmb_set_error("cannot allocate %s of host memory%s", hmb_sz(b->bytes),
			      b->node >= 0 ? " on the NUMA node asked for" : "");
		memset(b, 0, sizeof(*b));
		return -1;
	}
	memset(b->host, 0, b->bytes); /* the pages are faulted in here, under the node's policy */
	e = hipHostRegister(b->host, b->bytes, hipHostRegisterMapped | hipHostRegisterPortable);
	if (e != hipSuccess) {
		hmb_hip_error("hipHostRegister(host, bytes, hipHostRegisterMapped | "
			      "hipHostRegisterPortable)", e, __FILE__, __LINE__);
		goto undo;
	}
	e = hipHostGetDevicePointer(&b->dev, b->host, 0);
	if (e != hipSuccess) {
		hmb_hip_error("hipHostGetDevicePointer(&dev, host, 0)", e, __FILE__, __LINE__);
		(void)hipHostUnregister(b->host);
		goto undo;
	}
	return 0;
undo:
	if (b->from_libnuma)
		numa_free(b->host, b->bytes);
	else
		free(b->host);
	memset(b, 0, sizeof(*b));
	return -1;
}

void hmb_host_buf_free(struct hmb_host_buf *b)
{
	if (!b->host)
		return;
	(void)hipHostUnregister(b->host);
	(void)hipGetLastError();
	if (b->from_libnuma)
		numa_free(b->host, b->bytes);
	else
		free(b->host);
	memset(b, 0, sizeof(*b));
}

int hmb_host_buf_node(const struct hmb_host_buf *b, int *on_node, int *sampled)
{
	enum { SAMPLES = 64 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE), npages = b->bytes / page;
	void *pages[SAMPLES];
	int status[SAMPLES], count[HMB_MAX_IDS] = { 0 }, n = 0, best = -1;

	*on_node = *sampled = 0;
	if (!b->host || !npages)
		return -1;
	for (size_t k = 0; k < SAMPLES && k < npages; k++)
		pages[n++] = (char *)b->host + (k * npages / (npages < SAMPLES ? npages : SAMPLES)) * page;
	if (move_pages(0, (unsigned long)n, pages, NULL, status, 0) != 0)
		return -1;
	for (int k = 0; k < n; k++)
		if (status[k] >= 0 && status[k] < HMB_MAX_IDS)
			count[status[k]]++;
	for (int id = 0; id < HMB_MAX_IDS; id++)
		if (count[id] > (best >= 0 ? count[best] : 0))
			best = id;
	*sampled = n;
	*on_node = best >= 0 ? count[best] : 0;
	return best;
}

int hmb_thread_cpus(struct hmb_idset *out)
{
	cpu_set_t set;

	memset(out, 0, sizeof(*out));
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE && c < HMB_MAX_IDS; c++)
		if (CPU_ISSET(c, &set))
			hmb_idset_add(out, c);
	return 0;
}

int hmb_thread_bind(const struct hmb_idset *cpus)
{
	cpu_set_t set;

	if (!hmb_idset_count(cpus))
		return 0;
	CPU_ZERO(&set);
	for (int c = 0; c < CPU_SETSIZE && c < HMB_MAX_IDS; c++)
		if (hmb_idset_has(cpus, c))
			CPU_SET(c, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* ---- where the process really is ------------------------------------------------- */

static void nodes_of(const struct hmb_idset *s, struct hmb_nodes *out)
{
	out->n = 0;
	for (int id = 0; id < HMB_MAX_IDS && out->n < HMB_MAX_NODES; id++)
		if (hmb_idset_has(s, id))
			out->id[out->n++] = id;
}

static void mems_allowed(struct hmb_nodes *out)
{
	char line[4096];
	struct hmb_idset s = { { 0 } };
	FILE *f = fopen("/proc/self/status", "r");

	if (f) {
		while (fgets(line, sizeof(line), f))
			if (strncmp(line, "Mems_allowed_list:", 18) == 0 &&
			    hmb_idset_parse(line + 18, &s) != 0)
				memset(&s, 0, sizeof(s));
		fclose(f);
	}
	nodes_of(&s, out);
}

static const char *policy_name(int mode)
{
	switch (mode) {
	case MPOL_DEFAULT: return "default";
	case MPOL_PREFERRED: return "preferred";
	case MPOL_BIND: return "bind";
	case MPOL_INTERLEAVE: return "interleave";
#ifdef MPOL_LOCAL
	case MPOL_LOCAL: return "local";
#endif
	default: return "other";
	}
}

void hmb_where_read(const char *pci_bus_id, struct hmb_where *w)
{
	struct hmb_numa_host *h = calloc(1, sizeof(*h));
	struct hmb_gpu_topo g = { 0 };
	struct hmb_idset cpus, cpu_nodes = { { 0 } }, policy_nodes = { { 0 } };
	unsigned long mask[HMB_MAX_IDS / (8 * sizeof(unsigned long))] = { 0 };
	const int bits = 8 * sizeof(unsigned long);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int mode, status = -1;
	void *p;

	memset(w, 0, sizeof(*w));
	w->gpu_node = w->page_node = -1;
	if (pci_bus_id && *pci_bus_id) {
		snprintf(g.pci_bus_id, sizeof(g.pci_bus_id), "%s", pci_bus_id);
		hmb_topo_gpu_sysfs(NULL, &g);
		w->gpu_node = g.numa_node;
		hmb_idset_format(&g.local_cpus, w->gpu_cpus, sizeof(w->gpu_cpus));
	}
	hmb_thread_cpus(&cpus);
	hmb_idset_format(&cpus, w->cpus, sizeof(w->cpus));
	if (h && hmb_numa_host_read(NULL, h) == 0)
		for (int i = 0; i < h->nnodes; i++) {
			struct hmb_idset both;
			hmb_idset_and(&both, &h->cpus[i], &cpus);
			if (hmb_idset_count(&both))
				hmb_idset_add(&cpu_nodes, h->id[i]);
		}
	free(h);
	nodes_of(&cpu_nodes, &w->cpu_nodes);
	mems_allowed(&w->mems);
	if (get_mempolicy(&mode, mask, HMB_MAX_IDS, NULL, 0) == 0) {
		w->policy = policy_name(mode);
		for (int id = 0; id < HMB_MAX_IDS; id++)
			if (mask[id / bits] >> (id % bits) & 1)
				hmb_idset_add(&policy_nodes, id);
		nodes_of(&policy_nodes, &w->policy_nodes);
	}
	/* a page of this process's own, touched here: where the kernel really put it */
	if ((p = aligned_alloc(page, page))) {
		memset(p, 1, page);
		if (move_pages(0, 1, &p, NULL, &status, 0) == 0 && status >= 0)
			w->page_node = status;
		free(p);
	}
}
