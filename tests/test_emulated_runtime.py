"""test_emulated_runtime.py - what a user sees of the emulated binary (tests/test_emulated.py
says what it is) beyond each module's figures: a module's several runs, the test hook's
line, where host memory was and the memory policy the run was under, and the telemetry
read from a stand-in management library (NVML; rocm-smi through the unit tests), compiled
here and found by the library path as the real one would be."""
import ctypes
import json
import os
import re
import shutil
import subprocess

import pytest

import hmb
import hmbdoc
from test_emulated import EMULATED

CC = shutil.which("cc") or shutil.which("gcc")
needs_cc = pytest.mark.skipif(not CC, reason="no C compiler for the stand-in library")

# NVML as the backend calls it (src/telemetry/telemetry_nvml.c): a GPU drawing
# 123.456 W; on it this process (1 GiB) and pid 4242 (64 MiB).
FAKE_NVML = r"""
#include <string.h>
#include <unistd.h>
int nvmlInit_v2(void) { return 0; }
int nvmlShutdown(void) { return 0; }
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **dev)
{
	(void)bus;
	*dev = (void *)1;
	return 0;
}
int nvmlDeviceGetPowerUsage(void *dev, unsigned *mw)
{
	(void)dev;
	*mw = 123456;
	return 0;
}
int nvmlDeviceGetComputeRunningProcesses_v3(void *dev, unsigned *count, void *buf)
{
	unsigned pid[2] = { (unsigned)getpid(), 4242 };
	unsigned long long used[2] = { 1ull << 30, 64ull << 20 };
	(void)dev;
	if (*count < 2) {
		*count = 2;
		return 7; /* NVML_ERROR_INSUFFICIENT_SIZE */
	}
	for (int i = 0; i < 2; i++) { /* nvmlProcessInfo_t: 24 bytes */
		memcpy((char *)buf + 24 * i, &pid[i], sizeof(pid[i]));
		memcpy((char *)buf + 24 * i + 8, &used[i], sizeof(used[i]));
	}
	*count = 2;
	return 0;
}
"""

# librocm_smi64 as the AMD route calls it (src/telemetry/telemetry_rocm_smi.c): two GPUs,
# the second at 0000:c3:1f.5 in partition 1 (bdfid bits 28-31), 51 C and 287 W average
# there, no current socket power, a version of no rocm_smi.h (0.1.2), and the count of
# rsmi_init less rsmi_shut_down (tests/unit/test_amd_telemetry.c: test_rsmi_open).
FAKE_RSMI = r"""
#include <stdint.h>
#include <string.h>
int hmb_standin_live;
int rsmi_init(uint64_t flags) { (void)flags; hmb_standin_live++; return 0; }
int rsmi_shut_down(void) { hmb_standin_live--; return 0; }
int rsmi_num_monitor_devices(uint32_t *n) { *n = 2; return 0; }
int rsmi_dev_pci_id_get(uint32_t dv, uint64_t *bdf)
{
	if (dv > 1)
		return 2;
	*bdf = dv == 0 ? 0x0300 : (1ull << 28 | 0xc3 << 8 | 0x1f << 3 | 5);
	return 0;
}
int rsmi_dev_temp_metric_get(uint32_t dv, uint32_t sensor, int metric, int64_t *t)
{
	if (dv != 1 || sensor != 0 || metric != 0)
		return 2;
	*t = 51000;
	return 0;
}
int rsmi_dev_current_socket_power_get(uint32_t dv, uint64_t *p) { (void)dv; (void)p; return 2; }
int rsmi_dev_power_ave_get(uint32_t dv, uint32_t sensor, uint64_t *p)
{
	if (dv != 1 || sensor != 0)
		return 2;
	*p = 287000000;
	return 0;
}
int rsmi_version_get(void *v)
{
	uint32_t x[3] = { 0, 1, 2 };
	memcpy(v, x, sizeof(x));
	return 0;
}
"""


def stand_in(folder, soname, source):
    """The library built in folder, which is then what LD_LIBRARY_PATH names."""
    c = folder / f"{soname}.c"
    c.write_text(source)
    subprocess.run([CC, "-shared", "-fPIC", "-o", str(folder / soname), str(c)], check=True)
    return folder


def emulated(*args, gpus=1, preexec_fn=None, **env):
    if not os.access(EMULATED, os.X_OK):
        pytest.fail(f"{EMULATED} is not built: run `make emulated`", pytrace=False)
    return subprocess.run([EMULATED, *args], capture_output=True, text=True, timeout=120,
                          preexec_fn=preexec_fn,
                          env=dict(os.environ, HMB_EMULATED_GPUS=str(gpus), **env))


ONE_CASE = ["--quick", "--sizes", "1M", "--case", "h2d/pinned/async"]


def test_module_with_several_runs_runs_each_in_a_process_and_prints_one_table(tmp_path):
    """A module with --runs 2 runs twice, each in a process of its own, and its table
    (of the merged runs) is printed once, after the last."""
    out = tmp_path / "doc.json"
    p = emulated("--runs", "2", *ONE_CASE, "-o", str(out), "memcpy")
    assert p.returncode == 0, p.stderr[-2000:]
    doc = json.loads(out.read_text())
    assert [(r["process"], r["run"], r["exit_status"]) for r in doc["module_runs"]] == \
        [("own", 1, 0), ("own", 2, 0)]
    assert p.stderr.count("[memcpy] run ") == 2
    assert p.stdout.count("== memcpy ==") == 1, p.stdout
    assert p.stdout.count("h2d/pinned/async size=1M") == 1, p.stdout


def test_all_runs_each_module_its_own_count_there_and_back(tmp_path):
    """all without --runs: memcpy in two processes, pool in the three it asks for, the
    second round in the reverse order (a module's first and last runs as far apart as the
    rounds allow), the third with pool alone; each record holds every run of its module,
    each run sampling its share."""
    out = tmp_path / "doc.json"
    p = emulated("--sizes", "4K", "--case", "h2d/pinned/async", "--case",
                 "alloc-free/default-pool", "-o", str(out), "all")
    assert p.returncode == 0, p.stderr[-2000:]
    doc = json.loads(out.read_text())
    assert [(r["module"], r["run"]) for r in doc["module_runs"]] == \
        [("memcpy", 1), ("pool", 1), ("pool", 2), ("memcpy", 2), ("pool", 3)], doc["module_runs"]
    runs = {r["module"]: r["runs"] for r in doc["results"]}
    assert runs["memcpy"]["count"] == 2 and runs["pool"]["count"] == 3, runs
    assert [r["observed"]["sampling"].split(", ")[1].split(")")[0] for r in doc["results"]] == \
        ["one run of 2", "one run of 3"], doc["results"]
    assert p.stderr.count("[pool] run ") == 3 and p.stderr.count("[memcpy] run ") == 2
    assert "[pool] run 3 of 3" in p.stderr


def test_fault_hook_line_only_where_the_hook_is_set():
    """HMB_FAULT=op:0 (report only) gives the module's line with free memory before and
    after; without the hook there is no such line."""
    p = emulated(*ONE_CASE, "-o", "-", "--format", "json", "memcpy", HMB_FAULT="op:0")
    assert p.returncode == 0, p.stderr[-2000:]
    m = re.search(r"^hipmembench: fault-hook module=memcpy spec=op:0 fired=0 points=(\d+) "
                  r"free_before=(\d+) free_after=(\d+)$", p.stderr, re.M)
    assert m and int(m[1]) > 0 and m[2] == m[3], p.stderr[-2000:]
    p = emulated(*ONE_CASE, "-o", "-", "--format", "json", "memcpy")
    assert p.returncode == 0 and "fault-hook" not in p.stderr, p.stderr[-2000:]


def test_node_host_buffers_are_found_on_the_only_node(tmp_path):
    """The host buffers' pages sampled are all on the machine's only node: every page
    sampled lies within the buffer (pages outside it, not touched, are on none)."""
    out = tmp_path / "doc.json"
    p = emulated("--quick", "--copy-size", "4M", "--case", "host/h2d/alone", "-o", str(out),
                 "node", gpus=2)
    assert p.returncode == 0, p.stderr[-2000:]
    pages = [r["observed"]["host_pages_on_node"] for r in json.loads(out.read_text())["results"]
             if r["status"] == "ok"]
    assert pages, p.stderr[-2000:]
    for on in pages:
        n, of = on.split("/")
        assert n == of and int(of) > 0, pages


def bind_to_node_0():
    """In the child before exec: memory bound to node 0 (numactl --membind=0)."""
    numa = ctypes.CDLL("libnuma.so.1", use_errno=True)
    mask = ctypes.c_ulong(1)
    if numa.set_mempolicy(2, ctypes.byref(mask), 64) != 0:  # MPOL_BIND
        raise OSError(ctypes.get_errno(), "set_mempolicy")


def test_placement_says_the_memory_policy_the_run_was_under(tmp_path):
    """The document's placement names the process's memory policy and its nodes."""
    for preexec, policy, nodes in ((None, "default", []), (bind_to_node_0, "bind", [0])):
        out = tmp_path / f"{policy}.json"
        p = emulated(*ONE_CASE, "-o", str(out), "memcpy", preexec_fn=preexec)
        assert p.returncode == 0, p.stderr[-2000:]
        where = json.loads(out.read_text())["placement"]
        assert (where["memory_policy"], where["memory_policy_nodes"]) == (policy, nodes), where


@needs_cc
def test_nvml_power_and_the_other_process_on_the_gpu(tmp_path):
    """With NVML: each sample's power in W (NVML gives mW), and a warning naming the
    other process on the GPU with its memory in MiB; the records say who it was."""
    lib = stand_in(tmp_path, "libnvidia-ml.so.1", FAKE_NVML)
    out = tmp_path / "doc.json"
    p = emulated(*ONE_CASE, "-o", str(out), "memcpy", LD_LIBRARY_PATH=str(lib))
    assert p.returncode == 0, p.stderr[-2000:]
    doc = json.loads(out.read_text())
    t = doc["telemetry"]
    assert t["source"] == "nvml" and t["available"] is True, t
    # the newest of NVML's process calls that the library has
    assert t["processes_source"] == "nvmlDeviceGetComputeRunningProcesses_v3", t
    hmbdoc.assert_valid(doc)  # each sample as the schema has it (module, when, ...)
    assert {s["when"] for s in t["samples"]} >= {"before", "after"}, t["samples"]
    assert t["samples"] and all(s["power_w"] == 123.456 for s in t["samples"]), t["samples"]
    assert "[memcpy] warning: another process used the GPU around this module: " \
        "pid 4242 (64 MiB); its figures may be low" in p.stderr, p.stderr[-2000:]
    assert all(r["observed"]["gpu_shared_with"] == "4242" for r in doc["results"])


@needs_cc
def test_rocm_smi_finds_the_gpu_by_its_bus_id(tmp_path):
    """The AMD route opened by the unit test against a stand-in librocm_smi64: the GPU
    found by its bus id, its temperature and power from the library, the rest from a fake
    sysfs tree; a GPU the library does not know read from sysfs alone; rsmi_shut_down
    for each rsmi_init."""
    lib = stand_in(tmp_path, "librocm_smi64.so.1", FAKE_RSMI)
    name = "rocm-smi: the GPU found by its PCI bus id (with a stand-in library)"
    p = subprocess.run([str(hmb.UNIT), name], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, LD_LIBRARY_PATH=str(lib), HMB_UNIT_RSMI_STANDIN="1"))
    assert p.returncode == 0 and f"ok   unit: {name}" in p.stdout, p.stdout + p.stderr


def test_each_gpu_reports_its_own_vmm_granularity():
    """On a node of mixed GPUs each device's VMM granularity is its own, not device 0's
    (the emulated runtime's last GPU here has 8 MiB, the others 2 MiB)."""
    for device, mib in ((0, 2), (1, 8)):
        p = emulated("--device", str(device), "info", "--format", "json", "-o", "-", gpus=2,
                     HMB_EMULATED_LAST_GPU_GRANULARITY_MIB="8")
        assert p.returncode == 0, p.stderr[-2000:]
        vmm = json.loads(p.stdout)["device"]["vmm"]
        assert vmm["supported"] is True, vmm
        assert vmm["granularity_min_bytes"] == vmm["granularity_recommended_bytes"] == mib << 20
