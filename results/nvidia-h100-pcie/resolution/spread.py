#!/usr/bin/env python3
"""spread.py mc-*.json - how far pinned h2d and d2h copies spread from process to process:
for each size, the tool's own timings (async: one copy a sample behind a latch; sync:
hipMemcpy on the host clock) beside the reference loop (N copies between two events, no
latch) of the same processes; the spread is (max - min) / median of the processes' GB/s."""
import json
import statistics
import sys


def main():
    figs = {}
    for path in sys.argv[1:]:
        with open(path) as f:
            for r in json.load(f)["results"]:
                if r["status"] == "ok" and r.get("gbps_median"):
                    figs.setdefault((r["case"], r["params"]["size"]), []).append(r["gbps_median"])
    print(f"{'direction, size':16s} {'case':10s} {'processes':>9s} {'median GB/s':>12s} "
          f"{'min':>7s} {'max':>7s} {'spread':>7s}")
    for d in ("h2d", "d2h"):
        for size in sorted({s for c, s in figs if c.startswith(d)}):
            for api in ("reference", "async", "sync"):
                v = figs.get((f"{d}/pinned/{api}", size))
                if not v:
                    continue
                med = statistics.median(v)
                print(f"{d} {size >> 20:>5d} MiB     {api:10s} {len(v):9d} {med:12.2f} {min(v):7.2f} "
                      f"{max(v):7.2f} {100 * (max(v) - min(v)) / med:6.2f}%")


if __name__ == "__main__":
    main()
