#!/usr/bin/env python3
"""noise_floor.py - how compare's declared noise floors (src/compare/noise.c) fare on pairs of
documents that are two runs of the same build on the same machine, and which floor each
family of figures would need: the false-alarm rate a user of `compare --threshold` sees.

usage: scripts/noise_floor.py [--threshold PCT] [--binary B] [--json FILE] [PAIR...]

A PAIR is BASE.json=OTHER.json[,OTHER.json...]; without any, the back-to-back runs
committed for the H100: an `all` run (alone/all.json) against each module run alone
after it (alone/*.json), the two runs that shared the GPU (shared-gpu/a.json and b.json)
and, where they are committed, two `all` runs of one run each, one after the other
(back-to-back-one-run/a.json and b.json). Every pair goes through `hipmembench --format csv --wide compare --threshold
PCT` (default 5), which says for each figure its family, its floor and the rest of its
noise (the medians' intervals, a shared GPU).

Prints one line per family: the figures with a direction that matched, how many moved by
more than the threshold, how many compare flags WORSE and better, the declared floor,
and the least floor with which none of them (floor-0), or all but one (floor-1), would
be flagged; then the total: flagged worse of all figures matched, the false-alarm rate.
--json writes the same as JSON.
"""
import argparse
import csv
import io
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "build", "hipmembench")
H100 = os.path.join("results", "nvidia-h100-pcie")
MODULES = ("memcpy", "overlap", "managed", "xnack", "pool", "vmm", "node")
DEFAULT_PAIRS = [
    (os.path.join(H100, "alone", "all.json"),
     [os.path.join(H100, "alone", f"{m}.json") for m in MODULES]),
    (os.path.join(H100, "shared-gpu", "a.json"), [os.path.join(H100, "shared-gpu", "b.json")]),
    (os.path.join(H100, "back-to-back-one-run", "a.json"),
     [os.path.join(H100, "back-to-back-one-run", "b.json")]),
]
Z = 2.5758293035489004  # two-sided p = 0.01 under the normal distribution


def rows_of(binary, base, other, threshold):
    p = subprocess.run([binary, "--format", "csv", "--wide", "compare", "--threshold",
                        str(threshold), "--allow-partial", base, other],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        last = (p.stderr.strip().splitlines() or ["no reason given"])[-1]
        print(f"noise_floor.py: compare of {base} and {other} failed: {last}", file=sys.stderr)
        sys.exit(2)
    return list(csv.DictReader(io.StringIO(p.stdout)))


def needed_floor(row):
    """The least floor with which this figure's change is within the noise
    (p >= 0.01): (change / Z)^2 = 2 floor^2 + own^2."""
    ratio = float(row["ratio"])
    own = float(row["noise_own_rel"]) if row["noise_own_rel"] not in ("", "nan") else 0.0
    need = (math.log(ratio) / Z) ** 2 - own * own
    return math.sqrt(need / 2) if need > 0 else 0.0


def judge(pairs, binary, threshold):
    families, matched, worse = {}, 0, 0
    for base, others in pairs:
        for other in others:
            for r in rows_of(binary, base, other, threshold):
                matched += 1
                worse += r["verdict"] == "WORSE"
                if r["noise"] == "" or not r["ratio"] or float(r["ratio"]) <= 0:
                    continue
                if r["verdict"] == "" and r["p"] == "":
                    continue
                f = families.setdefault(r["noise_family"], {
                    "family": r["noise_family"], "floor": float(r["noise_floor"]), "figures": 0,
                    "moved": 0, "worse": 0, "better": 0, "needs": []})
                f["figures"] += 1
                if abs(math.log(float(r["ratio"]))) > math.log1p(threshold / 100):
                    f["moved"] += 1
                    f["needs"].append(needed_floor(r))
                f["worse"] += r["verdict"] == "WORSE"
                f["better"] += r["verdict"] == "better"
    for f in families.values():
        needs = sorted(f.pop("needs"), reverse=True) + [0.0, 0.0]
        f["floor_0"], f["floor_1"] = round(needs[0], 4), round(needs[1], 4)
    return {"threshold": threshold, "matched": matched, "worse": worse,
            "false_alarm_rate": worse / matched if matched else None,
            "families": sorted(families.values(), key=lambda f: f["family"])}


def parse_pair(text):
    base, _, others = text.partition("=")
    if not base or not others:
        print(f"noise_floor.py: '{text}' is not BASE.json=OTHER.json[,OTHER.json...]",
              file=sys.stderr)
        sys.exit(2)
    return base, others.split(",")


def main(argv):
    ap = argparse.ArgumentParser(description="compare's noise floors on runs of one build")
    ap.add_argument("pairs", nargs="*", metavar="PAIR")
    ap.add_argument("--threshold", type=float, default=5.0)
    ap.add_argument("--binary", default=BINARY)
    ap.add_argument("--json", help="write the figures here as JSON")
    a = ap.parse_args(argv[1:])
    if not os.access(a.binary, os.X_OK):
        print(f"noise_floor.py: {a.binary} is not built (make build/hipmembench)", file=sys.stderr)
        return 2
    pairs = [parse_pair(p) for p in a.pairs] or \
        [(os.path.join(ROOT, b), [os.path.join(ROOT, o) for o in others])
         for b, others in DEFAULT_PAIRS if os.path.isfile(os.path.join(ROOT, b))]
    for base, others in pairs:
        for path in [base] + others:
            if not os.path.isfile(path):
                print(f"noise_floor.py: {path}: no such file", file=sys.stderr)
                return 2
    out = judge(pairs, a.binary, a.threshold)
    print(f"{'family':32} {'figures':>7} {'moved':>5} {'worse':>5} {'better':>6} "
          f"{'floor':>6} {'floor-0':>7} {'floor-1':>7}")
    for f in out["families"]:
        print(f"{f['family'][:32]:32} {f['figures']:7} {f['moved']:5} {f['worse']:5} "
              f"{f['better']:6} {100 * f['floor']:5.1f}% {100 * f['floor_0']:6.1f}% "
              f"{100 * f['floor_1']:6.1f}%")
    print(f"flagged WORSE at --threshold {a.threshold:g}: {out['worse']} of {out['matched']} "
          f"figures matched ({100 * (out['false_alarm_rate'] or 0):.2f}%)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except KeyboardInterrupt:
        sys.exit(130)
