#!/usr/bin/env python3
"""fakegpu.py - stands in for hipmembench on a GPU, for the sweep, fleet and Slurm
tests on machines without one: a dry run goes to the real binary (FAKE_HMB_REAL);
anything else replays, module by module and GPU by GPU, the records of a committed
document (FAKE_FROM, default results/nvidia-h100-pcie/all.json) into --output,
written after each module as hipmembench's checkpoints are.

FAKE_GPUS GPUs (2) are visible. FAKE_LOG gets one line "MODULE DEVICE" as each
starts. FAKE_HANG=MODULE:DEVICE hangs there (for a test to kill it) with half its
records written (before its line); SIGTERM then ends it as hipmembench ends: that
module's run recorded with exit status 143, the document marked interrupted. Under
Slurm the host is the node's name (SLURMD_NODENAME) and each task's GPU has its own
PCI bus id (from SLURM_LOCALID); FAKE_HALF_LINK=NODE:TASK gives that task's GPU a
link trained at x8, its large host<->device copies at half speed. FAKE_FAIL=MODULE
fails that module's cases (status failed, their figures gone) and the run exits 1,
its document complete, as hipmembench does when a case fails. `info` says GPU N
is on NUMA node N with local CPUs the N-th of FAKE_LOCAL_CPUS ("0|1": GPU 0 has
CPU 0, GPU 1 CPU 1)."""
import json
import os
import signal
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMANDS = ["memcpy", "overlap", "managed", "xnack", "pool", "vmm", "node"]


def option(argv, name, default=None):
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
    return default


def tagged(r, dev):
    """r as `all --devices` tags it: params.device, its GPU where r lists its roles."""
    r = dict(r, params=dict(r["params"], device=dev))
    if isinstance(r.get("context"), list):
        r["context"] = [k for k in r["context"] if k != "device"] + ["device"]
        r["gpu_param"] = "device"
    return r


def write(path, doc):
    write.n = getattr(write, "n", 0) + 1
    tmp = f"{path}.tmp.{os.getpid()}.{write.n}"
    try:
        with open(tmp, "w") as f:
            json.dump(doc, f)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def slowed(r):
    """r at half the bandwidth."""
    r = dict(r, samples_s=[x * 2 for x in r["samples_s"]])
    r["stats_s"] = {k: v if k == "count" else v * 2 for k, v in r["stats_s"].items()}
    r.update({k: r[k] / 2 for k in ("gbps_median", "gbps_best") if r.get(k)})
    return r


def stopped(out, doc, module, dev, isolated):
    doc["module_runs"].append({"module": module, "order": len(doc["module_runs"]) + 1,
                               "wall_s": 0.01, "process": "own" if isolated else "shared",
                               "exit_status": 143 if isolated else None, "device": dev})
    doc["modules"].append(module)
    doc["interrupted"] = True
    write(out, doc)
    sys.exit(143)


def main(argv):
    if "--dry-run" in argv:
        os.execv(os.environ["FAKE_HMB_REAL"], [os.environ["FAKE_HMB_REAL"]] + argv[1:])
    command = [a for a in argv if a in COMMANDS + ["all", "info"]][-1]
    if command == "info":
        dev = int(option(argv, "--device", "0"))
        cpus = os.environ.get("FAKE_LOCAL_CPUS", "").split("|")
        print(json.dumps({"tool": {"name": "hipmembench"}, "placement": {
            "gpu_numa_node": dev, "gpu_local_cpus": cpus[dev] if dev < len(cpus) else None}}))
        return 0
    out = option(argv, "--output")
    gpus = int(os.environ.get("FAKE_GPUS", "2"))
    listed = option(argv, "--devices")
    devices = (list(range(gpus)) if listed == "all" else
               [int(x) for x in listed.split(",")] if listed else
               [int(option(argv, "--device", "0"))])
    isolated = command == "all" or listed is not None
    with open(os.environ.get("FAKE_FROM", os.path.join(ROOT, "results/nvidia-h100-pcie/all.json"))) as f:
        src = json.load(f)
    doc = dict(src, command=command, command_line=argv,
               started_utc=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               complete=False, interrupted=False, results=[], modules=[], module_runs=[],
               devices=[], telemetry=dict(src["telemetry"], samples=[], module_flags=[]))
    doc["settings"] = dict(src["settings"], device=devices[0])
    doc["device"] = dict(src["device"], ordinal=devices[0], count=gpus)
    node, task = os.environ.get("SLURMD_NODENAME"), os.environ.get("SLURM_LOCALID", "0")
    if node:
        doc["host"] = dict(src["host"], hostname=node)
        doc["device"]["pci_bus_id"] = f"0000:{0x41 + int(task):02x}:00.0"
        doc["environment"] = dict(src["environment"], CUDA_VISIBLE_DEVICES=task,
                                  SLURM_JOB_ID=os.environ.get("SLURM_JOB_ID"))
    half = os.environ.get("FAKE_HALF_LINK") == f"{node}:{task}"
    if half:
        doc["device"]["pcie_link"] = dict(src["device"]["pcie_link"], width=8)
        src = dict(src, results=[slowed(r) if r["module"] == "memcpy" and
                                 r["case"].startswith(("h2d/", "d2h/")) and
                                 (r["params"].get("size") or 0) >= 1 << 20 else r
                                 for r in src["results"]])
    tag = len(devices) > 1
    for m in COMMANDS if command == "all" else [command]:
        for dev in [None] if m == "node" else devices:
            mine = [tagged(r, dev) if tag and dev is not None else r
                    for r in src["results"] if r["module"] == m]
            if os.environ.get("FAKE_FAIL") == m:
                mine = [dict(r, status="failed", reason="stand-in failure", samples_s=[],
                             gbps_median=None, gbps_best=None) for r in mine]
            hang = os.environ.get("FAKE_HANG") == f"{m}:{dev}"
            if hang:
                signal.signal(signal.SIGTERM, lambda *_: stopped(out, doc, m, dev, isolated))
            if hang:
                doc["results"] += mine[:len(mine) // 2]
                write(out, doc)
            with open(os.environ.get("FAKE_LOG", os.devnull), "a") as log:
                log.write(f"{m} {dev}\n")
            if hang:
                time.sleep(60)
            doc["results"] += mine
            doc["module_runs"].append({"module": m, "order": len(doc["module_runs"]) + 1,
                                       "wall_s": 0.01, "process": "own" if isolated else "shared",
                                       "exit_status": (1 if os.environ.get("FAKE_FAIL") == m else 0)
                                       if isolated else None, "device": dev})
            doc["modules"].append(m)
            doc["telemetry"]["samples"] += [s for s in src["telemetry"]["samples"] if s["module"] == m]
            doc["telemetry"]["module_flags"] += [s for s in src["telemetry"]["module_flags"]
                                                 if s["module"] == m]
            if dev is not None and tag:
                doc["devices"].append(dict(src["device"], ordinal=dev, count=gpus))
            write(out, doc)
    doc["complete"] = True
    write(out, doc)
    return 1 if os.environ.get("FAKE_FAIL") in doc["modules"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
