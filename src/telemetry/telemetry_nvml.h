/*
 * telemetry_nvml.h - the process list of NVML (nvmlDeviceGetComputeRunningProcesses
 * and its _v2 and _v3), through a function pointer: the backend passes the one
 * dlsym found, the unit tests a fake.
 */
#ifndef HMB_TELEMETRY_NVML_H
#define HMB_TELEMETRY_NVML_H

#include <stddef.h>

#include "telemetry/telemetry.h"

/* nvmlReturn_t f(nvmlDevice_t, unsigned int *infoCount, nvmlProcessInfo*_t *infos) */
typedef int (*hmb_nvml_procs_fn)(void *dev, unsigned *count, void *infos);

#define HMB_NVML_ERROR_INSUFFICIENT_SIZE 7
/* the record of _v3 and _v2 (nvmlProcessInfo_t, _v2_t): pid, used memory,
 * GPU and compute instance ids; the first call's (_v1_t): pid, used memory */
#define HMB_NVML_PROC_STRIDE_V2 24
#define HMB_NVML_PROC_STRIDE_V1 16

/* List the processes of dev into s (nprocs, the first HMB_GPU_PROCS_MAX in
 * procs; own is left 0) through fn, whose records are stride bytes: the pid
 * (unsigned) at offset 0, the memory used (unsigned long long; all ones: not
 * available) at 8. Returns 0, or NVML's error (s->nprocs is then -1). */
int hmb_nvml_processes(hmb_nvml_procs_fn fn, size_t stride, void *dev,
		       struct hmb_gpu_sample *s);

#endif
