#!/usr/bin/env python3
"""check.py A.json B.json - the resolution's done-when numbers on two `all` documents of one
build made back to back: compare --threshold 5 of the pair (figures flagged either way);
the same pair with every time of B made 10% longer (flagged WORSE of the figures that
moved, and why the rest are not); the marks (of the results stable in both documents, how
many repeat within 3% (5% for managed, xnack and pageable copies); of those that repeat
within 2%, how many are stable in both). Needs build/hipmembench and tests/synthetic.py."""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(TOP, "tests"))
import synthetic  # noqa: E402

BIN = os.path.join(TOP, "build", "hipmembench")
CONTEXT = ("iters", "busy_kernel", "buffer_sets", "timed")


def compare(a, b):
    p = subprocess.run([BIN, "--format", "csv", "--wide", "compare", a, b, "--threshold", "5"],
                       capture_output=True, text=True)
    return list(csv.DictReader(io.StringIO(p.stdout)))


def results(path):
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for r in doc["results"]:
        if r["status"] == "ok" and r.get("stats_s"):
            p = {k: v for k, v in r["params"].items() if k not in CONTEXT}
            out[(r["module"], r["case"], json.dumps(p, sort_keys=True))] = r
    return out


def main():
    a, b = sys.argv[1], sys.argv[2]
    rows = compare(a, b)
    judged = [r for r in rows if r["p"] not in ("", "-") and r["unit"] not in ("bytes", "fraction")]
    flagged = [r for r in rows if r["verdict"] in ("WORSE", "better")]
    print(f"identical builds: {len(flagged)} of {len(rows)} figures flagged "
          f"({100 * len(flagged) / len(rows):.2f}%); {sum(r['verdict'].startswith('?') for r in rows)} "
          f"cannot be judged at 5%")
    with open(b) as f:
        slow = synthetic.every_time_slower(json.load(f), 1.10)
    with tempfile.TemporaryDirectory() as tmp:
        path = synthetic.write(os.path.join(tmp, "slow.json"), slow)
        rows = compare(a, path)
    moved = [r for r in rows if r["p"] not in ("", "-") and r["ratio"] not in ("", "-") and
             abs(float(r["ratio"]) - 1) > 0.05 and r["unit"] in ("GB/s", "s", "us", "faults/s")]
    worse = [r for r in moved if r["verdict"] == "WORSE"]
    why = {}
    for r in moved:
        if r["verdict"] != "WORSE":
            key = "cannot judge 5%" if r["verdict"].startswith("?") else r["verdict"] or "none"
            why.setdefault(key, []).append(r)
    print(f"every time of B 10% longer: {len(worse)} of the {len(moved)} figures that moved "
          f"by more than 5% flagged WORSE ({100 * len(worse) / len(moved):.1f}%); the rest: " +
          ", ".join(f"{k} {len(v)}" for k, v in why.items()))
    judgeable = [r for r in moved if float(r["resolution_rel"]) <= 0.05]
    print(f"  of those the pair can judge at 5%: {sum(r['verdict'] == 'WORSE' for r in judgeable)} "
          f"of {len(judgeable)}")
    fam = {}
    for r in moved:
        f = fam.setdefault(r["noise_family"], [0, 0])
        f[0] += r["verdict"] == "WORSE"
        f[1] += 1
    for k, (w, n) in sorted(fam.items(), key=lambda x: -x[1][1]):
        print(f"    {k:38s} {w:4d} of {n:4d}")
    ra, rb = results(a), results(b)
    pairs = [(k, ra[k], rb[k]) for k in ra if k in rb]
    stable = [(k, x, y) for k, x, y in pairs if x["stability"]["stable"] and y["stability"]["stable"]]
    within = 0
    for k, x, y in stable:
        tol = 0.05 if k[0] in ("managed", "xnack") or "pageable" in k[1] else 0.03
        within += abs(y["stats_s"]["median"] / x["stats_s"]["median"] - 1) <= tol
    rep = [(k, x, y) for k, x, y in pairs
           if abs(y["stats_s"]["median"] / x["stats_s"]["median"] - 1) <= 0.02]
    rep_stable = sum(x["stability"]["stable"] and y["stability"]["stable"] for k, x, y in rep)
    print(f"marks: {len(pairs)} results paired; {len(stable)} stable in both, {within} of them "
          f"repeat within 3% (5% managed, xnack, pageable); {len(rep)} repeat within 2%, "
          f"{rep_stable} of them stable in both")
    marked = [sum(r[k]["stability"]["stable"] for k in r) for r in (ra, rb)]
    print(f"stable: {marked[0]} of {len(ra)} in A, {marked[1]} of {len(rb)} in B")


if __name__ == "__main__":
    main()
