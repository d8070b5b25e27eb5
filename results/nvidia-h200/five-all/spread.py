#!/usr/bin/env python3
"""spread.py MERGED.json - for each case family of a merge of documents (`hipmembench merge
all1.json ... all5.json -o MERGED.json`: merge matches the figures and keeps each run's
median with the document it came from): how far its runs spread within a document
(run-sd), how far the documents' means spread (docmean-sd), what the runs alone would let
the means spread by (run-sd over the square root of the runs a document has), and the
ratio of the two variances: about 1 where nothing moves between documents that the runs
do not show. Spreads are of the logarithms (relative); a family's are the root mean
square over its figures."""
import json
import math
import statistics
import sys
from collections import defaultdict


def by_document(runs):
    """A result's run medians grouped by their document, or None where a run is missing."""
    groups = defaultdict(list)
    for value, doc in zip(runs.get("median_s") or [], runs.get("documents") or []):
        if not isinstance(value, (int, float)) or value <= 0:
            return None
        groups[doc].append(math.log(value))
    return list(groups.values())


families = defaultdict(lambda: [0, 0.0, 0.0, 0.0])  # figures, run var, mean var, runs a document
for r in json.load(open(sys.argv[1]))["results"]:
    docs = by_document(r.get("runs") or {}) if r.get("status") == "ok" else None
    if not docs or len(docs) < 2 or any(len(d) < 2 for d in docs):
        continue
    f = families[r["module"] + " " + "/".join(r["case"].split("/")[:2])]
    f[0] += 1
    f[1] += statistics.mean(statistics.variance(d) for d in docs)
    f[2] += statistics.variance(statistics.mean(d) for d in docs)
    f[3] += statistics.mean(len(d) for d in docs)
print(f"{'family':46} {'n':>3} {'run-sd':>7} {'docmean-sd':>10} {'from-runs':>9} {'ratio':>6}")
for name, (n, run_var, mean_var, per_doc) in sorted(families.items()):
    run_var, mean_var, expected = run_var / n, mean_var / n, run_var / n / (per_doc / n)
    print(f"{name:46} {n:3} {100 * math.sqrt(run_var):6.2f}% {100 * math.sqrt(mean_var):9.2f}% "
          f"{100 * math.sqrt(expected):8.2f}% {mean_var / expected:6.2f}")
