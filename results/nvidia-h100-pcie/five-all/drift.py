#!/usr/bin/env python3
"""drift.py DOC... - how each case family's times moved from document to document: for
each figure in every document, its median over the median of its documents; a family's
figure, their geometric mean (+10%: the family's times 10% longer in that document than in
its middle one). Families of three figures or more; figures matched on module, case and
every parameter but the calibrated counts."""
import json
import math
import statistics
import sys
from collections import defaultdict

CALIBRATED = {"timed", "iters", "steps", "calibrated_iters", "load_steps"}


def figures(path):
    out = {}
    for r in json.load(open(path))["results"]:
        median = (r.get("stats_s") or {}).get("median")
        if r.get("status") == "ok" and median:
            params = {k: v for k, v in r["params"].items() if k not in CALIBRATED}
            out[(r["module"], r["case"], json.dumps(params, sort_keys=True))] = median
    return out


docs = [figures(p) for p in sys.argv[1:]]
shared = set(docs[0]).intersection(*docs[1:])
families = defaultdict(lambda: [[] for _ in docs])
for key in shared:
    values = [d[key] for d in docs]
    middle = statistics.median(values)
    for i, v in enumerate(values):
        families[key[0] + " " + key[1].split("/")[0]][i].append(math.log(v / middle))
names = [p.rsplit("/", 1)[-1].removesuffix(".json") for p in sys.argv[1:]]
print(f"{'family':36}" + "".join(f"{n:>8}" for n in names) + "  figures")
for name, logs in sorted(families.items()):
    if len(logs[0]) >= 3:
        print(f"{name:36}" + "".join(f"{100 * (math.exp(statistics.mean(x)) - 1):+7.1f}%"
                                     for x in logs) + f"  {len(logs[0]):7}")
