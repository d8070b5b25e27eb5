#!/usr/bin/env python3
"""sizes.py - node's host figures against the copy size (run-sizes.sh's documents here):
for each size and direction, each GPU alone (median of the four), the sum of the four
GPUs' in-all figures, the aggregate (all bytes over the time to the last copy's end)
and the aggregate's samples' best, each size's two runs side by side."""
import glob
import gzip
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))


def figures(path):
    with gzip.open(path) as f:
        doc = json.load(f)
    out = {}
    for r in doc["results"]:
        if r["status"] != "ok" or r["params"].get("placement") != "local":
            continue
        out.setdefault(r["case"], []).append(r)
    return out


def main():
    sizes = ("64M", "256M", "1G", "2G")
    print(f"{'dir':4} {'size':>5} {'run':>3} {'alone (median GPU)':>18} {'sum in-all':>10} "
          f"{'all':>7} {'all best':>8}  GB/s")
    for d in ("h2d", "d2h"):
        for s in sizes:
            for k in (1, 2):
                path = os.path.join(HERE, f"node-host-{s}-{k}.json.gz")
                if not os.path.exists(path):
                    continue
                f = figures(path)
                alone = statistics.median(r["gbps_median"] for r in f[f"host/{d}/alone"])
                in_all = sum(r["gbps_median"] for r in f[f"host/{d}/in-all"])
                every = f[f"host/{d}/all"][0]
                print(f"{d:4} {s:>5} {k:>3} {alone:>18.1f} {in_all:>10.1f} "
                      f"{every['gbps_median']:>7.1f} {every['gbps_best']:>8.1f}")


if __name__ == "__main__":
    main()
