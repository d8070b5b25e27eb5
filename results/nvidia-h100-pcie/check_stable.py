#!/usr/bin/env python3
"""check_stable.py A.json B.json - do the figures two runs call stable agree?

The check of the back-to-back runs in this folder: results are paired by module,
case and parameters (calibrated step counts and buffer counts aside); a pair both
documents mark stable (stability.stable, and with --runs every run's median within
+-2% of the record's median, as hipmembench judges it since those documents were
made) must agree within 3%, or 5% for managed, xnack and pageable-memory figures.
Prints the counts and every pair that does not; exit 1 if any."""
import json
import sys

CONTEXT = ("iters", "busy_kernel", "buffer_sets", "timed")


def load(path):
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for r in doc["results"]:
        if r["status"] == "ok" and r.get("stats_s"):
            p = {k: v for k, v in r["params"].items() if k not in CONTEXT}
            out[(r["module"], r["case"], json.dumps(p, sort_keys=True))] = r
    return out


def stable(r):
    if not (r.get("stability") or {}).get("stable"):
        return False
    med = r["stats_s"]["median"]
    return all(abs(m / med - 1) <= 0.02 for m in (r.get("runs") or {}).get("median_s", []) if m)


def main():
    if len(sys.argv) != 3:
        print("usage: check_stable.py A.json B.json", file=sys.stderr)
        return 2
    a, b = load(sys.argv[1]), load(sys.argv[2])
    pairs = [(k, a[k], b[k]) for k in a if k in b]
    both = [(k, ra, rb) for k, ra, rb in pairs if stable(ra) and stable(rb)]
    bad = []
    for k, ra, rb in both:
        loose = k[0] in ("managed", "xnack") or "pageable" in k[1]
        tol = 0.05 if loose else 0.03
        change = rb["stats_s"]["median"] / ra["stats_s"]["median"] - 1
        if abs(change) > tol:
            bad.append((abs(change), k, ra["params"].get("size"), tol, change))
    print(f"{len(pairs)} results paired, {len(both)} stable in both runs, "
          f"{len(bad)} of them apart by more than their tolerance")
    for _, k, size, tol, change in sorted(bad, reverse=True):
        print(f"  {k[0]} {k[1]} size={size}: {100 * change:+.1f}% (tolerance {100 * tol:.0f}%)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
