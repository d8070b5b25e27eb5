/* host.c - hostname, OS, kernel, CPU, NUMA nodes, memory, and the settings
 * that change figures: huge pages, NUMA balancing, CPU governor, IOMMU. */
#define _GNU_SOURCE
#include "system/host.h"

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
	"SLURMD_NODENAME", "SLURM_STEP_TASKS_PER_NODE", "SLURM_LOCALID",
	/* when device code loads (main.c asks for start-up unless these are set) */
	"CUDA_MODULE_LOADING", "HIP_ENABLE_DEFERRED_LOADING", NULL,
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

/* The bracketed choice of a sysfs setting: "always [madvise] never" -> "madvise" */
static void read_choice(const char *path, char *out, size_t len)
{
	char line[256], *a, *b;
	FILE *f = fopen(path, "r");

	out[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && (a = strchr(line, '[')) && (b = strchr(a, ']'))) {
		*b = '\0';
		snprintf(out, len, "%s", a + 1);
	}
	fclose(f);
}

static void read_word(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");

	out[0] = '\0';
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, " \t\n")] = '\0';
	else
		out[0] = '\0';
	fclose(f);
}

/* Every online CPU's cpufreq governor: one name, or "mixed: a (n), b (m)". */
static void read_governor(const char *root, char *out, size_t len)
{
	char names[4][32], path[512], g[32];
	int count[4] = { 0 }, kinds = 0, other = 0;
	DIR *d;
	struct dirent *e;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu", root);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d))) {
		int k;
		if (strncmp(e->d_name, "cpu", 3) != 0 || e->d_name[3] < '0' || e->d_name[3] > '9')
			continue;
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/%.32s/cpufreq/scaling_governor",
			 root, e->d_name);
		read_word(path, g, sizeof(g));
		if (!g[0])
			continue;
		for (k = 0; k < kinds && strcmp(names[k], g) != 0; k++)
			;
		if (k == kinds && kinds == 4) {
			other++;
			continue;
		}
		if (k == kinds)
			snprintf(names[kinds++], sizeof(names[0]), "%s", g);
		count[k]++;
	}
	closedir(d);
	if (kinds == 1 && !other) {
		snprintf(out, len, "%s", names[0]);
		return;
	}
	for (int k = 0; k < kinds; k++) {
		size_t at = strlen(out);
		snprintf(out + at, len - at, "%s%s (%d)", k ? ", " : "mixed: ", names[k], count[k]);
	}
	if (other) {
		size_t at = strlen(out);
		snprintf(out + at, len - at, ", others (%d)", other);
	}
}

/* IOMMU units the kernel registered (-1: no /sys/class/iommu), and the
 * IOMMU options on the kernel's command line. */
static void read_iommu(const char *root, struct hmb_host *h)
{
	char path[512], cmdline[4096], *tok, *save = NULL;
	DIR *d;
	struct dirent *e;
	FILE *f;

	h->iommu_units = -1;
	snprintf(path, sizeof(path), "%s/sys/class/iommu", root);
	if ((d = opendir(path))) {
		h->iommu_units = 0;
		while ((e = readdir(d)))
			if (e->d_name[0] != '.')
				h->iommu_units++;
		closedir(d);
	}
	h->iommu_options[0] = '\0';
	snprintf(path, sizeof(path), "%s/proc/cmdline", root);
	if (!(f = fopen(path, "r")))
		return;
	if (fgets(cmdline, sizeof(cmdline), f))
		for (tok = strtok_r(cmdline, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
			if (!strncmp(tok, "iommu", 5) || !strncmp(tok, "intel_iommu", 11) ||
			    !strncmp(tok, "amd_iommu", 9)) {
				size_t at = strlen(h->iommu_options);
				snprintf(h->iommu_options + at, sizeof(h->iommu_options) - at, "%s%s",
					 at ? " " : "", tok);
			}
	fclose(f);
}

size_t hmb_host_available_bytes(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (size_t)kb * 1024;
}

void hmb_host_probe_environment(struct hmb_host *h, const char *root)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/sys/kernel/mm/transparent_hugepage/enabled", root);
	read_choice(path, h->thp, sizeof(h->thp));
	snprintf(path, sizeof(path), "%s/sys/kernel/mm/transparent_hugepage/defrag", root);
	read_choice(path, h->thp_defrag, sizeof(h->thp_defrag));
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/numa_balancing", root);
	h->numa_balancing = read_int_file(path);
	read_governor(root, h->cpu_governor, sizeof(h->cpu_governor));
	read_iommu(root, h);
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
	hmb_host_probe_environment(h, "");
}
