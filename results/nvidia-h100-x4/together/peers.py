#!/usr/bin/env python3
"""peers.py - the node module's peer figures beside its reference loops, one document.

p2p/ce/write (one copy a sample, fork/join events, behind the latch) against
p2p/ce/write/reference (copies back to back on the timing stream), and p2p/latency
(the chase, fork/join events) against p2p/latency/reference (the same chase straight
on the timing stream), for each pair the reference measured (from the first GPU, or
read by it). Prints GB/s or ns per load, and ours against the reference.
    peers.py NODE.json [...]"""
import json
import sys


def value(r):
    if r["case"].startswith("p2p/latency"):
        return r["metrics"]["ns_per_load"]["value"]
    return r["gbps_median"]


def main():
    for path in sys.argv[1:]:
        with open(path) as f:
            results = [r for r in json.load(f)["results"] if r["status"] == "ok"]
        by = {(r["case"], r["params"].get("src"), r["params"].get("dst")): r for r in results}
        print(f"{path}")
        print(f"  {'figure':14} {'pair':6} {'ours':>9} {'reference':>9} {'ours/ref':>8}")
        for (case, src, dst), ref in sorted(by.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0,
                                                                         kv[0][2] or 0)):
            if not case.endswith("/reference"):
                continue
            ours = by.get((case[:-len("/reference")], src, dst))
            if ours:
                unit = "ns" if "latency" in case else "GB/s"
                print(f"  {case[:-len('/reference')]:14} {src}->{dst:<3} {value(ours):>9.1f} "
                      f"{value(ref):>9.1f} {value(ours) / value(ref):>8.3f}  {unit}")


if __name__ == "__main__":
    main()
