#!/usr/bin/env python3
"""modes.py DIR - each figure of DIR's documents, by how its process was placed (U: unbound,
T: CPU 4, Q: CPUs 4-7): the five processes' medians over their median, and their spread
(max/min - 1). In these module documents a case and its size name one figure."""
import glob, json, os, statistics as st, sys
from collections import defaultdict

figures = defaultdict(dict)
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    tag = os.path.basename(path).split("-")[1][:-5]
    for r in json.load(open(path))["results"]:
        if r.get("status") == "ok" and (r.get("stats_s") or {}).get("median"):
            figures[(r["module"], r["case"], r["params"].get("size") or 0)][tag] = r["stats_s"]["median"]
print(f"{'case':36} {'size':>9}  " + "  ".join(f"{v:>30}" for v in "UTQ"))
for key in sorted(figures):
    cells = []
    for v in "UTQ":
        xs = [figures[key][f"{v}{i}"] for i in range(1, 6) if f"{v}{i}" in figures[key]]
        m = st.median(xs)
        cells.append(" ".join(f"{x / m:.2f}" for x in xs) + f" {100 * (max(xs) / min(xs) - 1):4.0f}%")
    print(f"{key[0] + ' ' + key[1]:36.36} {key[2]:>9}  " + "  ".join(f"{c:>30}" for c in cells))
