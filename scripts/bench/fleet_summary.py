#!/usr/bin/env python3
"""fleet_summary.py - benchmark of scripts/hmb_fleet.py: the fleet summary over 512
documents of a two-GPU `all` (results/nvidia-h200-x2/all.json, each figure varied a
little, one node per document), on one core. The aim: under 30 s and 2 GiB.

usage: scripts/bench/fleet_summary.py [--documents N] [--runs R] [--output FILE]

Writes the documents to a temporary folder (removed afterwards), runs the summary R
times (default 3) pinned to one CPU, and prints wall time and peak memory (the
summary process's maximum resident set) of each run; with --output, writes them as
JSON with what machine they were taken on. The committed figures are in
scripts/bench/fleet_summary.json.
"""
import argparse
import json
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = os.path.join(ROOT, "results", "nvidia-h200-x2", "all.json")
FLEET = os.path.join(ROOT, "scripts", "hmb_fleet.py")
LIMITS = {"wall_s": 30.0, "max_rss_bytes": 2 << 30}


def make_documents(folder, n):
    with open(SOURCE) as f:
        base = json.load(f)
    rng = random.Random(1)
    gbps = [r.get("gbps_median") for r in base["results"]]
    size = 0
    for i in range(n):
        base["host"]["hostname"] = f"node{i:04d}"
        for r, g in zip(base["results"], gbps):
            if g:
                r["gbps_median"] = g * rng.uniform(0.97, 1.03)
        path = os.path.join(folder, f"node{i:04d}.json")
        with open(path, "w") as f:
            json.dump(base, f)
        size += os.path.getsize(path)
    return size


def run_once(folder, cpu):
    out = os.path.join(folder, "..", "summary.json")
    t0 = time.monotonic()
    proc = subprocess.Popen(["taskset", "-c", str(cpu), sys.executable, FLEET, folder,
                             "--output", out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    rc = os.waitstatus_to_exitcode(status)
    if rc not in (0, 1):
        sys.exit(f"fleet_summary.py: hmb_fleet.py failed (exit {rc}): {proc.stderr.read().decode()}")
    with open(out) as f:
        summary = json.load(f)
    return {"wall_s": round(wall, 3), "max_rss_bytes": usage.ru_maxrss * 1024,
            "documents": summary["documents"], "gpus": summary["gpus"]}


def main(argv):
    ap = argparse.ArgumentParser(description="benchmark the fleet summary")
    ap.add_argument("--documents", type=int, default=512)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--output", help="write the figures here as JSON")
    a = ap.parse_args(argv[1:])
    if a.documents < 1 or a.runs < 1:
        print("fleet_summary.py: --documents and --runs must be at least 1", file=sys.stderr)
        return 2
    if not shutil.which("taskset"):
        print("fleet_summary.py: taskset (util-linux) is needed to run on one core", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="hmb-fleet-bench-")
    try:
        docs = os.path.join(tmp, "docs")
        os.mkdir(docs)
        size = make_documents(docs, a.documents)
        cpu = sorted(os.sched_getaffinity(0))[0]
        runs = [run_once(docs, cpu) for _ in range(a.runs)]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for r in runs:
        print(f"{r['documents']} documents ({size / 2**20:.0f} MiB), {r['gpus']} GPUs: "
              f"{r['wall_s']:.2f} s, peak {r['max_rss_bytes'] / 2**20:.0f} MiB")
    worst = {k: max(r[k] for r in runs) for k in LIMITS}
    within = all(worst[k] <= LIMITS[k] for k in LIMITS)
    print(f"worst of {len(runs)}: {worst['wall_s']:.2f} s, {worst['max_rss_bytes'] / 2**20:.0f} MiB "
          f"({'within' if within else 'BEYOND'} {LIMITS['wall_s']:.0f} s and "
          f"{LIMITS['max_rss_bytes'] >> 30} GiB on one core)")
    if a.output:
        figures = {"benchmark": "scripts/hmb_fleet.py over N documents of a two-GPU all, one core",
                   "source_document": os.path.relpath(SOURCE, ROOT), "documents": a.documents,
                   "bytes_read": size, "limits": LIMITS, "runs": runs, "worst": worst,
                   "within_limits": within,
                   "taken_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                   "machine": {"cpu": cpu_model(), "python": platform.python_version(),
                               "kernel": platform.release()}}
        tmp_out = f"{a.output}.tmp.{os.getpid()}"
        with open(tmp_out, "w") as f:
            json.dump(figures, f, indent=1)
            f.write("\n")
        os.replace(tmp_out, a.output)
    return 0 if within else 1


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the temporary folder goes too
    try:
        sys.exit(main(sys.argv))
    except KeyboardInterrupt:
        sys.exit(130)
