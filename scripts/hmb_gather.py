#!/usr/bin/env python3
"""hmb_gather.py - collect the JSON of many hipmembench runs and compare them.

usage: hmb_gather.py DIR [DIR ...] [--base FILE] [--threshold PCT] [--hipmembench PATH]

Finds every hipmembench document under the folders (e.g. the RESULTS folder of a
Slurm array job, or of a sweep split over one: its shards' points together), writes
DIR/index.json (one entry per run: file, host, device, complete, interrupted, failed
and why, counts of ok/failed/unsupported/skipped results; sweep manifests and fleet
summaries are not runs) and DIR/comparison.txt (`hipmembench compare --allow-partial
BASE OTHERS...`: every run, however little of it matches, such as a dry run's plan;
the base is --base or the first good file by name), and prints the
index as a table. A run failed when its document says it did not finish ("complete": false: interrupted,
or stopped by an error) or when it measured without a device (no GPU found); a dry
run needs no device. Failed runs and files that are not hipmembench documents are
listed as such and left out of the comparison.
Exit status: that of the comparison (1: a figure worse than --threshold), at least 1
when a run failed, 2 when no document was found.
"""
import argparse
import json
import os
import subprocess
import sys


def summarize(path):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        return {"file": path, "valid": False, "problem": f"not readable JSON: {e}"}
    if not isinstance(d, dict) or not isinstance(d.get("tool"), dict) or \
            d["tool"].get("name") != "hipmembench":
        return {"file": path, "valid": False, "problem": "not a hipmembench document"}
    counts = {}
    for r in d.get("results", []):
        counts[r.get("status")] = counts.get(r.get("status"), 0) + 1
    dev = d.get("device") or {}
    dry_run = bool((d.get("settings") or {}).get("dry_run"))
    why = []
    if d.get("complete") is not True:
        why.append("interrupted" if d.get("interrupted") else "did not complete")
    if not d.get("device") and not dry_run:
        why.append("no device")
    return {"file": path, "valid": True, "host": (d.get("host") or {}).get("hostname"),
            "device": dev.get("name"), "pci_bus_id": dev.get("pci_bus_id"),
            "command": d.get("command"), "complete": d.get("complete"),
            "interrupted": d.get("interrupted"), "dry_run": dry_run,
            "failed": bool(why), "why": ", ".join(why) or None, "results": counts,
            "slurm_job_id": (d.get("environment") or {}).get("SLURM_JOB_ID")}


def main(argv):
    ap = argparse.ArgumentParser(description="collect and compare hipmembench runs")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--base", help="the document the others are compared with")
    ap.add_argument("--threshold", help="percentage: exit 1 when a figure is worse")
    ap.add_argument("--hipmembench", default=os.environ.get("HMB", "build/hipmembench"))
    a = ap.parse_args(argv[1:])
    files = []
    for d in a.dirs:
        for root, _, names in os.walk(d):
            files += [os.path.join(root, n) for n in names
                      if n.endswith(".json") and n not in ("index.json", "fleet-summary.json")
                      and not n.startswith("manifest")]
    files.sort()
    index = [summarize(f) for f in files]
    valid = [e["file"] for e in index if e["valid"] and not e["failed"]]
    failed = [e for e in index if e["valid"] and e["failed"]]
    out_dir = a.dirs[0]
    index_path = os.path.join(out_dir, "index.json")
    with open(f"{index_path}.tmp.{os.getpid()}", "w") as f:
        json.dump({"runs": index}, f, indent=1)
    os.replace(f"{index_path}.tmp.{os.getpid()}", index_path)
    for e in index:
        if not e["valid"]:
            print(f"{e['file']}: left out: {e['problem']}")
            continue
        state = f"FAILED ({e['why']}), left out" if e["failed"] else "ok"
        print(f"{e['file']}: {state}: {e['host']}, {e['device'] or 'no device'}, "
              f"{e['command']}, complete={e['complete']}, interrupted={e['interrupted']}, "
              f"results={e['results']}")
    if failed:
        print(f"hmb_gather.py: {len(failed)} run(s) failed: "
              + ", ".join(f"{e['file']} ({e['why']})" for e in failed), file=sys.stderr)
    if not any(e["valid"] for e in index):
        print(f"hmb_gather.py: no hipmembench document under {', '.join(a.dirs)}", file=sys.stderr)
        return 2
    if not valid:
        print("hmb_gather.py: no run finished: nothing to compare", file=sys.stderr)
        return 1
    base = a.base or valid[0]
    others = [f for f in valid if f != base]
    if not others:
        print("hmb_gather.py: one document only: nothing to compare", file=sys.stderr)
        return 1 if failed else 0
    cmd = [a.hipmembench, "compare", "--allow-partial", base] + others
    if a.threshold:
        cmd += ["--threshold", a.threshold]
    comparison = os.path.join(out_dir, "comparison.txt")
    with open(f"{comparison}.tmp.{os.getpid()}", "w") as f:
        rc = subprocess.call(cmd, stdout=f)
    os.replace(f"{comparison}.tmp.{os.getpid()}", comparison)
    print(f"comparison of {len(others) + 1} runs against {base}: "
          f"{os.path.join(out_dir, 'comparison.txt')} (exit {rc})")
    return max(rc, 1) if failed else rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
