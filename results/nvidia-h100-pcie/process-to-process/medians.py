#!/usr/bin/env python3
"""medians.py - the median of each figure in each of the ten processes of run.sh
(five not bound to a CPU, u1-u5, five bound to CPU 2 with taskset, p1-p5, taken in
turn), and how far apart the processes are: (max - min) / min of the medians."""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    rows = {}
    for path in sorted(glob.glob(os.path.join(HERE, "*-[up][0-9].json"))):
        bound = os.path.basename(path).split("-")[1][0]
        with open(path) as f:
            doc = json.load(f)
        for r in doc["results"]:
            if r.get("status") == "ok" and r.get("stats_s"):
                key = (r["module"], r["case"], r["params"].get("size"))
                rows.setdefault(key, {"u": [], "p": []})[bound].append(
                    (r["stats_s"]["median"] * 1e6, bool((r.get("stability") or {}).get("stable"))))
    print(f"{'module':7} {'case':28} {'size':>10}  {'apart u':>8} {'apart p':>8}  medians in us, "
          "u1..u5 then p1..p5 (* stable by its own samples, +-2% then)")
    for (module, case, size), v in rows.items():
        apart = ["%7.1f%%" % (100 * (max(m for m, _ in x) / min(m for m, _ in x) - 1)) for x in (v["u"], v["p"])]
        meds = " ".join(f"{m:.1f}{'*' if s else ''}" for m, s in v["u"] + v["p"])
        print(f"{module:7} {case:28} {size:>10}  {apart[0]:>8} {apart[1]:>8}  {meds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
