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
A .json file that cannot be read as a document (not a regular file, such as a FIFO or
a device, which is never waited on; not UTF-8; not JSON; nesting too deep; a field of
the wrong type) is named on stderr, listed and left out, and makes the exit status
at least 1.
Exit status: that of the comparison (1: a figure worse than --threshold), at least 1
when a run failed or a document could not be read, 2 when no document was found or
on bad usage (a folder that is not one, a --base that is not a document, a
hipmembench that is not an executable); then nothing is written.
"""
import json
import math
import os
import subprocess
import sys

LIBDIR = os.path.dirname(os.path.realpath(__file__))  # make install writes its own
try:
    sys.path.insert(0, LIBDIR)
    import hmb_files  # reading, writing and the command line, as every script does
except ImportError as e:
    sys.exit(f"{sys.argv[0]}: cannot load hmb_files.py from {LIBDIR}: {e}")


CLI = hmb_files.Cli("hmb_gather.py")
fail = CLI.fail


def is_document(d):
    return isinstance(d, dict) and isinstance(d.get("tool"), dict) and \
        d["tool"].get("name") == "hipmembench"


def shape_problem(d):
    """None when the fields the index reads are of the right type, else the first
    that is not."""
    if not isinstance(d.get("results", []), list):
        return "results is not a list"
    for key in ("device", "host", "settings", "environment"):
        if d.get(key) is not None and not isinstance(d[key], dict):
            return f"{key} is not an object"
    for i, r in enumerate(d.get("results", [])):
        if not isinstance(r, dict):
            return f"results[{i}] is not an object"
        if r.get("status") is not None and not isinstance(r["status"], str):
            return f"results[{i}].status is not a string"
    for key, field in (("device", "name"), ("device", "pci_bus_id"), ("host", "hostname"),
                       ("environment", "SLURM_JOB_ID")):
        v = (d.get(key) or {}).get(field)
        if v is not None and not isinstance(v, str):
            return f"{key}.{field} is not a string"
    if d.get("command") is not None and not isinstance(d["command"], str):
        return "command is not a string"
    return None


def summarize(path):
    try:
        d = hmb_files.read_json(path)
    except hmb_files.BadFile as e:
        return {"file": path, "valid": False, "unreadable": True, "problem": str(e)}
    if not is_document(d):
        return {"file": path, "valid": False, "problem": "not a hipmembench document"}
    why = shape_problem(d)
    if why:
        return {"file": path, "valid": False, "unreadable": True, "problem": why}
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
            "command": d.get("command"), "complete": d.get("complete") is True,
            "interrupted": d.get("interrupted") is True, "dry_run": dry_run,
            "failed": bool(why), "why": ", ".join(why) or None, "results": counts,
            "slurm_job_id": (d.get("environment") or {}).get("SLURM_JOB_ID")}


def walk_error(e):
    fail(f"{e.filename}: cannot list the folder: {e.strerror or e}")


def main(argv):
    ap = CLI.parser(description="collect and compare hipmembench runs")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--base", help="the document the others are compared with")
    ap.add_argument("--threshold", help="percentage: exit 1 when a figure is worse")
    ap.add_argument("--hipmembench", default=os.environ.get("HMB", "build/hipmembench"))
    a = ap.parse_args(argv[1:])
    for d in a.dirs:
        if not os.path.isdir(d):
            fail(f"{d}: {'not a folder' if os.path.lexists(d) else 'no such folder'}")
    if a.threshold is not None:
        try:
            ok = math.isfinite(float(a.threshold)) and float(a.threshold) >= 0
        except ValueError:
            ok = False
        if not ok:
            fail(f"--threshold {a.threshold}: a percentage of at least 0")
    if a.base is not None:
        try:
            if not is_document(hmb_files.read_json(a.base)):
                fail(f"--base {a.base}: not a hipmembench document")
        except hmb_files.BadFile as e:
            fail(f"--base {a.base}: {e}")
    if not os.path.isfile(a.hipmembench) or not os.access(a.hipmembench, os.X_OK):
        fail(f"{a.hipmembench}: not an executable (set --hipmembench or HMB)")
    files = []
    for d in a.dirs:
        for root, _, names in os.walk(d, onerror=walk_error):
            files += [os.path.join(root, n) for n in names
                      if n.endswith(".json") and n not in ("index.json", "fleet-summary.json")
                      and not n.startswith("manifest")]
    files.sort()
    index = [summarize(f) for f in files]
    valid = [e["file"] for e in index if e["valid"] and not e["failed"]]
    failed = [e for e in index if e["valid"] and e["failed"]]
    unreadable = [e for e in index if e.get("unreadable")]
    for e in unreadable:
        print(f"hmb_gather.py: {e['file']}: left out: {e['problem']}", file=sys.stderr)
    if not any(e["valid"] for e in index):
        fail(f"no hipmembench document under {', '.join(a.dirs)}")
    out_dir = a.dirs[0]
    index_path = os.path.join(out_dir, "index.json")
    comparison = os.path.join(out_dir, "comparison.txt")
    base = a.base or (valid[0] if valid else None)
    others = [f for f in valid if f != base]
    for path in (index_path, comparison):
        if os.path.lexists(path) and not os.path.isfile(path):
            fail(f"{path}: exists and is not a regular file: nothing written")
    written, rc = [], None
    try:
        if base and others:  # the comparison first: where it fails, nothing is written
            cmd = [a.hipmembench, "compare", "--allow-partial", base] + others
            if a.threshold:
                cmd += ["--threshold", a.threshold]
            f, tmp = hmb_files.temporary_beside(comparison)
            written.append((tmp, comparison))
            with f:
                try:
                    proc = subprocess.Popen(cmd, stdout=f)
                except OSError as e:
                    fail(f"{a.hipmembench}: cannot run it: {e.strerror or e}")
                try:
                    rc = proc.wait()
                finally:  # stopped (Ctrl-C, SIGTERM): the comparison goes with us
                    if proc.poll() is None:
                        proc.kill()
                        proc.wait()
            if rc not in (0, 1):
                fail(f"`{a.hipmembench} compare` exited {rc}: nothing written")
        f, tmp = hmb_files.temporary_beside(index_path)
        written.append((tmp, index_path))
        with f:
            json.dump({"runs": index}, f, indent=1)
        for tmp, path in written:
            os.replace(tmp, path)
    except OSError as e:
        fail(f"{out_dir}: cannot write the index and the comparison: {e.strerror or e}")
    finally:
        for tmp, _ in written:
            if os.path.exists(tmp):
                os.unlink(tmp)
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
    if unreadable:
        print(f"hmb_gather.py: {len(unreadable)} file(s) could not be read as documents",
              file=sys.stderr)
    bad = 1 if failed or unreadable else 0
    if not valid:
        print("hmb_gather.py: no run finished: nothing to compare", file=sys.stderr)
        return 1
    if rc is None:
        print("hmb_gather.py: one document only: nothing to compare", file=sys.stderr)
        return bad
    print(f"comparison of {len(others) + 1} runs against {base}: {comparison} (exit {rc})")
    return max(rc, bad)


if __name__ == "__main__":
    CLI.run(main)
