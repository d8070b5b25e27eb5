#!/usr/bin/env python3
"""compare_large.py - benchmark of `hipmembench compare` at the scale of a fleet: two
documents of 300 000 results each (every result of results/nvidia-h100-pcie/all.json,
copied with a `copy` parameter that keeps each identity unique, 10 samples each, the
second document's figures moved a little), compared on the machine's CPUs (compare
reads its documents one after the other, each parsed whole by cJSON into records). The
aim: under 60 s and 6 GiB; a real `all` document holds about 470 results (1.6 MB), read
in some 20 ms.

usage: scripts/bench/compare_large.py [--results N] [--runs R] [--binary B] [--cpus LIST]
                                      [--output FILE]

Writes the two documents to a temporary folder (removed afterwards; about 330 MB
each, a record being shorter than a real one, whose 40 samples and shape would take
the document past the 512 MiB a document may have), runs `compare --threshold 5`
R times (default 3), its table to a file, and prints the wall time and peak memory
(the compare process's maximum resident set) of each run; with --cpus LIST, pinned to
those CPUs (taskset); with --output, writes them as JSON with the machine they were
taken on (its CPUs and load). The committed figures are in
scripts/bench/compare_large.json.
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
SOURCE = os.path.join(ROOT, "results", "nvidia-h100-pcie", "all.json")
BINARY = os.path.join(ROOT, "build", "hipmembench")
LIMITS = {"wall_s": 60.0, "max_rss_bytes": 6 << 30}
SAMPLES = 10


def shortened(r, rng, scale):
    """Result r as json_write.c writes it, with SAMPLES samples around its median times scale."""
    med = r["stats_s"]["median"] * scale
    s = sorted(med * rng.uniform(0.97, 1.03) for _ in range(SAMPLES))
    m = (s[SAMPLES // 2 - 1] + s[SAMPLES // 2]) / 2
    out = {k: r.get(k) for k in ("module", "case", "status", "reason", "params", "bytes", "ops")}
    out.update({
        "samples_s": s,
        "stats_s": {"count": SAMPLES, "min": s[0], "median": m, "mean": sum(s) / SAMPLES,
                    "max": s[-1], "stddev": 0.0},
        "stability": {"count": SAMPLES, "ci_low_s": s[1], "ci_high_s": s[-2],
                      "half_width_rel": (s[-2] - s[1]) / 2 / m, "stable": None},
        "gbps_median": r["bytes"] / m / 1e9 if r.get("bytes") else None,
        "us_per_op_median": m / r["ops"] * 1e6 if r.get("ops") else None,
        "metrics": {k: {"value": v["value"] * rng.uniform(0.97, 1.03), "unit": v["unit"]}
                    for k, v in r["metrics"].items() if v.get("value") is not None},
        "observed": {"verified": True},
    })
    return out


def make_document(path, n, seed, scale):
    """A document of n results at path; its size in bytes."""
    with open(SOURCE) as f:
        frame = json.load(f)
    results = [r for r in frame["results"] if r["status"] == "ok" and r.get("stats_s")]
    frame["results"] = []
    head, tail = json.dumps(frame).rsplit('"results": []', 1)
    rng = random.Random(seed)
    with open(path, "w") as f:
        f.write(head + '"results": [')
        for i in range(n):
            r = shortened(results[i % len(results)], rng, scale)
            r["params"] = dict(r["params"], copy=i // len(results))
            f.write(("," if i else "") + json.dumps(r))
        f.write("]" + tail)
    return os.path.getsize(path)


def run_once(binary, base, other, out, cpus):
    t0 = time.monotonic()
    with open(out, "w") as table:
        pin = ["taskset", "-c", cpus] if cpus else []
        proc = subprocess.Popen(pin + [binary, "compare", "--threshold", "5", base, other],
                                stdout=table, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    rc = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode()
    if rc not in (0, 1):
        sys.exit(f"compare_large.py: compare failed (exit {rc}): {err[-2000:]}")
    with open(out) as f:
        lines = sum(1 for _ in f)
    return {"wall_s": round(wall, 3), "max_rss_bytes": usage.ru_maxrss * 1024, "exit_status": rc,
            "table_lines": lines}


def main(argv):
    ap = argparse.ArgumentParser(description="benchmark compare of two large documents")
    ap.add_argument("--results", type=int, default=300_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--binary", default=BINARY)
    ap.add_argument("--cpus", help="run compare on these CPUs only (taskset -c LIST)")
    ap.add_argument("--output", help="write the figures here as JSON")
    a = ap.parse_args(argv[1:])
    if a.results < 1 or a.runs < 1:
        print("compare_large.py: --results and --runs must be at least 1", file=sys.stderr)
        return 2
    if not os.access(a.binary, os.X_OK):
        print(f"compare_large.py: {a.binary} is not built (make build/hipmembench)",
              file=sys.stderr)
        return 2
    if a.cpus and not shutil.which("taskset"):
        print("compare_large.py: taskset (util-linux) is needed for --cpus", file=sys.stderr)
        return 2
    load = [round(x, 2) for x in os.getloadavg()]
    tmp = tempfile.mkdtemp(prefix="hmb-compare-bench-")
    try:
        base, other = os.path.join(tmp, "base.json"), os.path.join(tmp, "other.json")
        size = make_document(base, a.results, 1, 1.0) + make_document(other, a.results, 2, 1.01)
        runs = [run_once(a.binary, base, other, os.path.join(tmp, "table.txt"), a.cpus)
                for _ in range(a.runs)]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for r in runs:
        print(f"2 x {a.results} results ({size / 2**20:.0f} MiB): {r['wall_s']:.2f} s, peak "
              f"{r['max_rss_bytes'] / 2**20:.0f} MiB, {r['table_lines']} lines of table")
    worst = {k: max(r[k] for r in runs) for k in LIMITS}
    within = all(worst[k] <= LIMITS[k] for k in LIMITS)
    cpus = f"CPUs {a.cpus}" if a.cpus else f"{len(os.sched_getaffinity(0))} CPUs"
    print(f"worst of {len(runs)}: {worst['wall_s']:.2f} s, {worst['max_rss_bytes'] / 2**20:.0f} MiB "
          f"({'within' if within else 'BEYOND'} {LIMITS['wall_s']:.0f} s and "
          f"{LIMITS['max_rss_bytes'] >> 30} GiB, on {cpus})")
    if a.output:
        figures = {"benchmark": "hipmembench compare --threshold 5 of two documents of N "
                                "results",
                   "source_document": os.path.relpath(SOURCE, ROOT), "results": a.results,
                   "bytes_read": size, "limits": LIMITS, "runs": runs, "worst": worst,
                   "within_limits": within,
                   "taken_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                   "machine": {"cpu": cpu_model(), "cpus": a.cpus or len(os.sched_getaffinity(0)),
                               "kernel": platform.release(),
                               "load_average_before": load}}
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
