#!/usr/bin/env python3
"""bound.py - how right any mark can be on this H100 PCIe: over the nine back-to-back pairs
of `all` documents committed here (two or three runs a module; the pairs below), each
figure's change from one document to the next, and a mark that knows every figure's
changes in the other eight pairs (its noise from one document to the next: their root
mean square over sqrt 2) - far more than one document can tell. Stable where that noise's
resolution (1.96 sqrt 2 sigma) is within the threshold. For each threshold: of the figures
marked stable in both, how many repeat within 3% (5% for managed, xnack and pageable
copies); of those that repeat within 2%, how many are marked stable. The tool's own marks
(stability.stable in both documents) are counted the same way."""
import gzip
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..")
PAIRS = [("resolution/a.json", "resolution/b.json"),
         ("after-move/n1.json", "after-move/n2.json"),
         ("after-move/n2.json", "after-move/n3.json"),
         ("after-move/n1.json", "after-move/n3.json"),
         ("after-move/o1.json", "after-move/n2.json"),
         ("runs3/a.json", "runs3/b.json"),
         ("all.json", "back-to-back/b.json"),
         ("calibration/old-a.json.gz", "calibration/old-b.json.gz"),
         ("calibration/a.json.gz", "calibration/b.json.gz")]
CONTEXT = ("iters", "busy_kernel", "buffer_sets", "timed")


def medians(path):
    """{identity: (mean log of the runs' medians, stable)} of a document's results"""
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"bound.py: {path}: {e}")
    out = {}
    for r in doc["results"]:
        runs = [x for x in ((r.get("runs") or {}).get("median_s") or []) if x and x > 0]
        if r["status"] != "ok" or len(runs) < 2:
            continue
        p = {k: v for k, v in r["params"].items() if k not in CONTEXT}
        key = (r["module"], r["case"], json.dumps(p, sort_keys=True))
        out[key] = (sum(map(math.log, runs)) / len(runs), bool(r["stability"]["stable"]))
    return out


def tolerance(key):
    return 0.05 if key[0] in ("managed", "xnack") or "pageable" in key[1] else 0.03


def count(events, stable_of):
    """events: (key, change, pair); stable_of(event): marked stable in both"""
    sb = within = rep = rep_stable = 0
    for e in events:
        s = stable_of(e)
        ratio = abs(math.exp(e[1]) - 1)
        sb += s
        within += s and ratio <= tolerance(e[0])
        rep += ratio <= 0.02
        rep_stable += s and ratio <= 0.02
    return (f"stable in both {sb:5d}, {within:5d} repeat ({100 * within / max(sb, 1):5.1f}%); "
            f"repeat within 2% {rep:5d}, {rep_stable:5d} stable ({100 * rep_stable / max(rep, 1):5.1f}%)")


def main():
    cache, events, history = {}, [], {}
    for i, (a, b) in enumerate(PAIRS):
        for p in (a, b):
            if p not in cache:
                cache[p] = medians(os.path.join(TOP, p))
        A, B = cache[a], cache[b]
        for key in A.keys() & B.keys():
            change = B[key][0] - A[key][0]
            events.append((key, change, i, A[key][1] and B[key][1]))
            history.setdefault(key, {})[i] = change
    print(f"{len(PAIRS)} pairs, {len(events)} changes of {len(history)} figures")
    print(f"  the tool's marks:            {count(events, lambda e: e[3])}")
    for thr in (0.05, 0.04, 0.03):
        def oracle(e):
            others = [c for j, c in history[e[0]].items() if j != e[2]]
            if len(others) < 3:
                return False
            sigma = math.sqrt(sum(c * c for c in others) / len(others) / 2)
            return 1.96 * math.sqrt(2) * sigma <= thr
        print(f"  knowing the other pairs, {100 * thr:.0f}%: {count(events, oracle)}")


if __name__ == "__main__":
    main()
