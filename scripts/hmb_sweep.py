#!/usr/bin/env python3
"""hmb_sweep.py - run hipmembench over a matrix of settings, one JSON per point.

usage: hmb_sweep.py MATRIX.json OUTDIR [--hipmembench PATH] [--dry-run]

MATRIX.json says what to run and what to vary; every combination is a point:
  {
    "command": "memcpy",                       hipmembench command (default "all")
    "args": ["--sizes", "4K:1G:x4"],           options for every point
    "env": {"HSA_XNACK": ["0", "1"]},          environment variables to vary
    "devices": [0, 1],                         --device values to vary
    "numa": [0, 1],                            NUMA nodes: numactl --cpunodebind=N --membind=N
    "variants": [["--reps", "5"], ["--reps", "20"]]   extra option sets to vary
  }
Every key but "command" may be left out; a value of the wrong type, an environment
name that is not one, --output in args or variants (the sweep sets it), or a point
that hipmembench itself refuses (each point is checked first with --dry-run) stops
the sweep before anything runs, with exit 2 and one line saying what. OUTDIR receives
points/<id>.json (the hipmembench document), logs/<id>.log (its stderr) and
manifest.json (the matrix, and for every point its command line, environment, status,
exit status and times).

Restartable: a point whose document is complete is not run again, so a batch job that
hit its time limit goes on where it stopped when it is submitted again. On SIGTERM or
SIGINT the running point is stopped (hipmembench keeps what it measured, marked
interrupted) and the manifest is written before exiting. --dry-run lists the points.
Where "numa" is given but numactl is missing, points run unbound and the manifest says
so. Exit status: 0 every point done, 1 a point failed, 2 bad matrix, 130/143 stopped.
"""
import signal
import sys

stop_signal = None
child = None
running = False  # in the loop over points: a signal stops the point, then the sweep


def on_signal(sig, _frame):
    global stop_signal
    stop_signal = sig
    if not running:
        sys.exit(128 + sig)  # nothing started yet: nothing to keep
    if child and child.poll() is None:
        child.send_signal(sig)


# First of all, so that an early Ctrl-C ends quietly instead of in a traceback.
signal.signal(signal.SIGTERM, on_signal)
signal.signal(signal.SIGINT, on_signal)

import argparse  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

KEYS = {"command", "args", "env", "devices", "numa", "variants"}
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def fail_usage(msg):
    print(f"hmb_sweep.py: {msg}", file=sys.stderr)
    sys.exit(2)


def is_str_list(v):
    return isinstance(v, list) and all(isinstance(a, str) and "\0" not in a for a in v)


def is_index(v):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000000


def sets_output(args):
    return any(a in ("-o", "--output") or a.startswith("--output=") or
               (a.startswith("-o") and not a.startswith("--")) for a in args)


def read_matrix(path):
    """The matrix, every value of the right type; exit 2 naming what is wrong."""
    try:
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
    except (OSError, ValueError) as e:
        fail_usage(f"{path}: not a readable JSON matrix: {e}")
    if not isinstance(m, dict):
        fail_usage(f"{path}: the matrix must be a JSON object")
    unknown = set(m) - KEYS
    if unknown:
        fail_usage(f"{path}: unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(KEYS))}")
    if not isinstance(m.get("command", "all"), str) or not m.get("command", "all"):
        fail_usage(f"{path}: \"command\" must be a hipmembench command, as a string")
    env = m.get("env", {})
    if not isinstance(env, dict):
        fail_usage(f"{path}: \"env\" must map names to non-empty lists of values")
    for name, values in env.items():
        if not ENV_NAME.match(name):
            fail_usage(f"{path}: \"env\": {name!r} is not an environment variable name")
        if (not isinstance(values, list) or not values or
                not all(isinstance(v, (str, int, float)) and not isinstance(v, bool) and "\0" not in str(v)
                        for v in values)):
            fail_usage(f"{path}: \"env\": {name} must map to a non-empty list of strings or numbers")
    for key in ("devices", "numa"):
        if key in m and (not isinstance(m[key], list) or not m[key] or not all(is_index(v) for v in m[key])):
            fail_usage(f"{path}: \"{key}\" must be a non-empty list of whole numbers from 0")
    if "variants" in m and (not isinstance(m["variants"], list) or not m["variants"] or
                            not all(is_str_list(v) for v in m["variants"])):
        fail_usage(f"{path}: \"variants\" must be a non-empty list of lists of strings")
    if not is_str_list(m.get("args", [])):
        fail_usage(f"{path}: \"args\" must be a list of strings")
    if sets_output(m.get("args", [])) or any(sets_output(v) for v in m.get("variants", [])):
        fail_usage(f"{path}: --output is the sweep's to set (one document per point)")
    return m


def check_points(hipmembench, pts, command):
    """Every point's command line as hipmembench itself checks it (a dry run,
    no GPU): exit 2 naming the first point it refuses."""
    for p in pts:
        cmd = [hipmembench, "--dry-run"] + p["args"] + [command]
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           env=dict(os.environ, **p["env"]))
        if r.returncode != 0:
            why = r.stderr.decode("utf-8", "replace").strip().splitlines()
            fail_usage(f"point {p['id']} is refused: {why[0] if why else f'exit {r.returncode}'}")


def points(m):
    env_names = sorted(m.get("env", {}))
    env_values = [m["env"][n] for n in env_names]
    out = []
    for envs, dev, numa, (vi, variant) in itertools.product(
            itertools.product(*env_values) if env_names else [()],
            m.get("devices", [None]), m.get("numa", [None]),
            list(enumerate(m.get("variants", [[]])))):
        env = {n: str(v) for n, v in zip(env_names, envs)}
        parts = [f"{n}={v}" for n, v in env.items()]
        if dev is not None:
            parts.append(f"dev{dev}")
        if numa is not None:
            parts.append(f"numa{numa}")
        if "variants" in m:
            parts.append(f"v{vi}")
        pid = f"p{len(out):03d}" + ("-" + "-".join(parts) if parts else "")
        pid = re.sub(r"[^A-Za-z0-9._=+-]", "_", pid)[:120]  # a file name, whatever the values
        args = list(m.get("args", [])) + [str(a) for a in variant]
        if dev is not None:
            args = ["--device", str(dev)] + args
        out.append({"id": pid, "env": env, "device": dev, "numa": numa, "args": args})
    return out


def write_json_atomic(path, data):
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def complete_document(path):
    try:
        with open(path) as f:
            return json.load(f).get("complete") is True
    except (OSError, ValueError):
        return False


def main(argv):
    ap = argparse.ArgumentParser(description="run hipmembench over a matrix of settings")
    ap.add_argument("matrix")
    ap.add_argument("outdir")
    ap.add_argument("--hipmembench", default=os.environ.get("HMB", "build/hipmembench"))
    ap.add_argument("--dry-run", action="store_true", help="list the points, run nothing")
    a = ap.parse_args(argv[1:])
    m = read_matrix(a.matrix)
    pts = points(m)
    command = m.get("command", "all")
    numactl = shutil.which("numactl")
    if a.dry_run:
        for p in pts:
            print(p["id"], " ".join(f"{k}={v}" for k, v in p["env"].items()),
                  a.hipmembench, " ".join(p["args"]), command)
        return 0
    if not os.path.isfile(a.hipmembench) or not os.access(a.hipmembench, os.X_OK):
        fail_usage(f"{a.hipmembench}: not an executable (set --hipmembench or HMB)")
    if os.path.exists(a.outdir) and not os.path.isdir(a.outdir):
        fail_usage(f"{a.outdir}: exists and is not a directory")
    check_points(a.hipmembench, pts, command)
    try:
        for sub in ("points", "logs"):
            os.makedirs(os.path.join(a.outdir, sub), exist_ok=True)
    except OSError as e:
        fail_usage(f"{a.outdir}: cannot make the output directory: {e.strerror}")
    manifest_path = os.path.join(a.outdir, "manifest.json")
    manifest = {"matrix": m, "hipmembench": a.hipmembench, "points": []}
    earlier = {}
    try:
        with open(manifest_path) as f:
            earlier = {e["id"]: e for e in json.load(f).get("points", [])}
    except (OSError, ValueError, KeyError, AttributeError):
        pass
    global child, running
    running = True
    failed = 0
    for p in pts:
        doc = os.path.join(a.outdir, "points", p["id"] + ".json")
        entry = dict(p, json=os.path.relpath(doc, a.outdir))
        manifest["points"].append(entry)
        if stop_signal:
            entry["status"] = "pending"
            continue
        if complete_document(doc):
            entry.update(earlier.get(p["id"], {}))
            entry["status"] = "done"
            entry["resumed"] = "complete from an earlier run: not run again"
            continue
        cmd = [a.hipmembench, "--output", doc] + p["args"] + [command]
        if p["numa"] is not None:
            if numactl:
                cmd = [numactl, f"--cpunodebind={p['numa']}", f"--membind={p['numa']}"] + cmd
            else:
                entry["numa_binding"] = "unavailable: numactl not found, ran unbound"
        entry["command_line"] = cmd
        entry["started"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        write_json_atomic(manifest_path, manifest)
        print(f"hmb_sweep: {p['id']}: {' '.join(cmd)}", file=sys.stderr, flush=True)
        with open(os.path.join(a.outdir, "logs", p["id"] + ".log"), "w") as log:
            child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log,
                                     env=dict(os.environ, **p["env"]))
            rc = child.wait()
        child = None
        entry["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        entry["exit_status"] = rc
        if stop_signal:
            entry["status"] = "interrupted"
        elif rc == 0:
            entry["status"] = "done"
        else:
            entry["status"] = "failed"
            failed += 1
    write_json_atomic(manifest_path, manifest)
    done = sum(1 for e in manifest["points"] if e["status"] == "done")
    print(f"hmb_sweep: {done} of {len(pts)} points done, {failed} failed; manifest: {manifest_path}",
          file=sys.stderr)
    if stop_signal:
        return 128 + stop_signal
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
