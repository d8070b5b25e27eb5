#!/usr/bin/env python3
"""spread.py - the overlap module's process-to-process spread, the build before
(ov-old-N.json.gz) against this folder's build (ov-new-N.json.gz), four processes each
run in turn on one H100 PCIe: for each case at 256 MiB, the calibrated steps (iters) and
the medians of the four processes, and their spread (largest over smallest, less 1).
Pipelines are shown at 4 streams and 16 chunks."""
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = ("h2d-only/pinned", "d2h-only/pinned", "kernel-only/", "serial/pinned/",
         "pipeline/pinned/")


def records(path):
    try:
        with gzip.open(path, "rt") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"spread.py: {path}: {e}")
    out = {}
    for r in doc["results"]:
        p = r["params"]
        if r["module"] != "overlap" or r["status"] != "ok" or p.get("size") != 256 << 20:
            continue
        if r["case"].startswith("pipeline/") and (p.get("streams"), p.get("chunks")) != (4, 16):
            continue
        if r["case"].startswith(CASES):
            out[r["case"]] = (p.get("iters"), r["stats_s"]["median"])
    return out


def main():
    print(f"{'case (256 MiB)':34s} {'build':6s} {'steps':>22s}  medians, ms (4 processes)"
          f"{'spread':>16s}")
    for tag in ("old", "new"):
        docs = [records(os.path.join(HERE, f"ov-{tag}-{i}.json.gz")) for i in (1, 2, 3, 4)]
        for case in docs[0]:
            got = [d[case] for d in docs if case in d]
            steps = ",".join(str(s) for s, _ in got) if got[0][0] else "-"
            ms = [m * 1e3 for _, m in got]
            print(f"{case:34s} {tag:6s} {steps:>22s}  " + " ".join(f"{x:7.3f}" for x in ms) +
                  f"{100 * (max(ms) / min(ms) - 1):9.2f}%")


if __name__ == "__main__":
    main()
