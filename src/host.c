/* host.c - hostname, OS, kernel, CPU, NUMA nodes, memory, huge pages. */
#define _GNU_SOURCE
#include "host.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

const char *const hmb_env_recorded[] = {
	"HSA_XNACK", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
	"HSA_ENABLE_SDMA", "HSA_ENABLE_PEER_SDMA", "HIP_HOST_COHERENT", "GPU_MAX_HW_QUEUES",
	"HIP_LAUNCH_BLOCKING", "CUDA_LAUNCH_BLOCKING", "OMP_NUM_THREADS", "SLURM_JOB_ID",
	/* which node, and how many tasks of the step measure on it at once */
	"SLURMD_NODENAME", "SLURM_STEP_TASKS_PER_NODE", "SLURM_LOCALID", NULL,
};

/* The value after "key" and a separator in a text file, or "" */
static void file_value(const char *path, const char *key, char sep, char *out, size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v;
		if (strncmp(line, key, strlen(key)) != 0 || !(v = strchr(line, sep)))
			continue;
		v++;
		while (*v == ' ' || *v == '\t' || *v == '"')
			v++;
		v[strcspn(v, "\"\n")] = '\0';
		snprintf(out, len, "%s", v);
		break;
	}
	fclose(f);
}

static int read_int_file(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1 || v < 0)
			v = -1;
		fclose(f);
	}
	return v;
}

static int count_numa_nodes(void)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' && e->d_name[4] <= '9')
			n++;
	closedir(d);
	return n;
}

/* "always [madvise] never" -> "madvise" */
static void read_thp(char *out, size_t len)
{
	char line[128], *a, *b;
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	out[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && (a = strchr(line, '[')) && (b = strchr(a, ']'))) {
		*b = '\0';
		snprintf(out, len, "%s", a + 1);
	}
	fclose(f);
}

void hmb_host_probe(struct hmb_host *h)
{
	struct utsname u;
	struct sysinfo si;

	memset(h, 0, sizeof(*h));
	if (gethostname(h->hostname, sizeof(h->hostname) - 1) != 0)
		h->hostname[0] = '\0';
	file_value("/etc/os-release", "PRETTY_NAME", '=', h->os, sizeof(h->os));
	if (uname(&u) == 0) {
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
		if (!h->os[0])
			snprintf(h->os, sizeof(h->os), "%s", u.sysname);
	}
	file_value("/proc/cpuinfo", "model name", ':', h->cpu_model, sizeof(h->cpu_model));
	h->cpus_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
	h->numa_nodes = count_numa_nodes();
	if (sysinfo(&si) == 0)
		h->memory_bytes = (size_t)si.totalram * si.mem_unit;
	read_thp(h->thp, sizeof(h->thp));
	h->numa_balancing = read_int_file("/proc/sys/kernel/numa_balancing");
}
