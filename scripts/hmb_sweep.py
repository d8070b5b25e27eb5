#!/usr/bin/env python3
"""hmb_sweep.py - run hipmembench over a matrix of settings, one JSON per point.

usage: hmb_sweep.py MATRIX.json OUTDIR [--hipmembench PATH] [--shard K/N] [--dry-run]
                    [--max-points N]

MATRIX.json says what to run and what to vary; every combination is a point:
  {
    "command": "memcpy",                       hipmembench command (default "all")
    "args": ["--sizes", "4K:1G:x4"],           options for every point
    "env": {"HSA_XNACK": ["0", "1"]},          environment variables to vary
    "devices": [0, 1],                         --device values to vary
    "numa": [0, 1],                            NUMA nodes: numactl --cpunodebind=N --membind=N;
                                               "closest": each point's GPU's own node
    "cpu": ["closest"],                        CPUs: "closest" (the GPU's local CPUs) or a
                                               list such as "0-7,16-23": taskset -c
    "variants": [["--reps", "5"], ["--reps", "20"]]   extra option sets to vary
  }
"closest" takes the GPU's NUMA node and local CPUs from hipmembench itself (`info`,
placement), per point's device (0 without "devices"); where they are unknown (no GPU,
a one-node host) the point runs unbound and the manifest says why. Each point's
manifest entry says what placement was asked for and what its document found
(placement: CPUs, memory nodes, the node of a touched page).

Every key but "command" may be left out; a value of the wrong type, an environment
name that is not one, --output in args or variants (the sweep sets it), or a point
that hipmembench itself refuses (each point is checked first with --dry-run) stops
the sweep before anything runs, with exit 2 and one line saying what. OUTDIR receives
points/<id>.json (the hipmembench document), logs/<id>.log (its stderr) and
manifest.json (the matrix, and for every point its command line, environment, status,
exit status and times).

Restartable: a point whose document is complete is not run again, so a batch job that
hit its time limit goes on where it stopped when it is submitted again; one whose run
ended with a case failed (exit 1) stays failed. A point of
`all` (or of a module with --devices) that stopped part-way keeps the modules it
finished, on each GPU: only the rest run again, each as its own hipmembench run, merged
into the point's document as it ends (module_runs[].measured_utc says when each was
measured, "resumed" lists the runs). On SIGTERM or
SIGINT the running point is stopped (hipmembench keeps what it measured, marked
interrupted) and the manifest is written before exiting. --dry-run lists the points.
Where "numa" is given but numactl is missing, points run unbound and the manifest says
so.

Shards: --shard K/N (0 <= K < N) runs every N-th point from the K-th; inside a Slurm
job array it is taken from SLURM_ARRAY_TASK_ID, _MIN, _STEP and _COUNT, so
`sbatch --array=0-3` splits the sweep in four. Shards share OUTDIR: each writes its own
points and manifest-shard-K-of-N.json; together they hold the points of one run.
A matrix of more points than --max-points (default 10000) is refused, naming both;
each distinct command line is checked once. The matrix, and what an earlier run left
in OUTDIR (manifest, point documents), must be regular files of UTF-8 JSON of the
right shape: anything else (a FIFO, a device, nesting too deep, a field of the wrong
type) stops the sweep with exit 2 and one line naming it, before anything runs.
Exit status: 0 every point done, 1 a point failed, 2 bad matrix or bad earlier files,
130/143 stopped.
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

import glob  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import math  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

LIBDIR = os.path.dirname(os.path.realpath(__file__))  # make install writes its own
try:
    sys.path.insert(0, LIBDIR)
    import hmb_files  # noqa: E402 - reading, writing and the command line, as every script does
except ImportError as e:
    sys.exit(f"{sys.argv[0]}: cannot load hmb_files.py from {LIBDIR}: {e}")

KEYS = {"command", "args", "env", "devices", "numa", "cpu", "variants"}
CPU_LIST = re.compile(r"\d+(-\d+)?(,\d+(-\d+)?)*\Z")
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
MAX_POINTS = 10000


CLI = hmb_files.Cli("hmb_sweep.py")
fail_usage = CLI.fail


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
        m = hmb_files.read_json(path)
    except hmb_files.BadFile as e:
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
    if "devices" in m and (not isinstance(m["devices"], list) or not m["devices"] or
                           not all(is_index(v) for v in m["devices"])):
        fail_usage(f"{path}: \"devices\" must be a non-empty list of whole numbers from 0")
    if "numa" in m and (not isinstance(m["numa"], list) or not m["numa"] or
                        not all(is_index(v) or v == "closest" for v in m["numa"])):
        fail_usage(f"{path}: \"numa\" must be a non-empty list of NUMA nodes (whole numbers from 0) "
                   "or \"closest\"")
    if "cpu" in m and (not isinstance(m["cpu"], list) or not m["cpu"] or
                       not all(isinstance(v, str) and (v == "closest" or CPU_LIST.match(v))
                               for v in m["cpu"])):
        fail_usage(f"{path}: \"cpu\" must be a non-empty list of \"closest\" or CPU lists such as \"0-7\"")
    if "variants" in m and (not isinstance(m["variants"], list) or not m["variants"] or
                            not all(is_str_list(v) for v in m["variants"])):
        fail_usage(f"{path}: \"variants\" must be a non-empty list of lists of strings")
    if not is_str_list(m.get("args", [])):
        fail_usage(f"{path}: \"args\" must be a list of strings")
    if sets_output(m.get("args", [])) or any(sets_output(v) for v in m.get("variants", [])):
        fail_usage(f"{path}: --output is the sweep's to set (one document per point)")
    return m


def point_count(m):
    """How many points the matrix makes (counted, not made)."""
    n = math.prod(len(v) for v in m.get("env", {}).values())
    for key in ("devices", "numa", "cpu", "variants"):
        n *= len(m.get(key, [None]))
    return n


def check_points(hipmembench, pts, command):
    """Every point's command line as hipmembench itself checks it (a dry run,
    no GPU), each distinct one once: exit 2 naming the first point it refuses."""
    seen = set()
    for p in pts:
        key = (tuple(p["args"]), tuple(sorted(p["env"].items())))
        if key in seen:
            continue
        seen.add(key)
        cmd = [hipmembench, "--dry-run"] + p["args"] + [command]
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           env=dict(os.environ, **p["env"]))
        if stop_signal:  # Ctrl-C reached the check too: stopped, not refused
            sys.exit(128 + stop_signal)
        if r.returncode != 0:
            why = r.stderr.decode("utf-8", "replace").strip().splitlines()
            fail_usage(f"point {p['id']} is refused: {why[0] if why else f'exit {r.returncode}'}")


def points(m):
    env_names = sorted(m.get("env", {}))
    env_values = [m["env"][n] for n in env_names]
    out = []
    for envs, dev, numa, cpu, (vi, variant) in itertools.product(
            itertools.product(*env_values) if env_names else [()],
            m.get("devices", [None]), m.get("numa", [None]), m.get("cpu", [None]),
            list(enumerate(m.get("variants", [[]])))):
        env = {n: str(v) for n, v in zip(env_names, envs)}
        parts = [f"{n}={v}" for n, v in env.items()]
        if dev is not None:
            parts.append(f"dev{dev}")
        if numa is not None:
            parts.append(f"numa{numa}")
        if cpu is not None:
            parts.append(f"cpu{cpu}")
        if "variants" in m:
            parts.append(f"v{vi}")
        pid = f"p{len(out):03d}" + ("-" + "-".join(parts) if parts else "")
        pid = re.sub(r"[^A-Za-z0-9._=+-]", "_", pid)[:120]  # a file name, whatever the values
        args = list(m.get("args", [])) + [str(a) for a in variant]
        if dev is not None:
            args = ["--device", str(dev)] + args
        out.append({"id": pid, "env": env, "device": dev, "numa": numa, "cpu": cpu, "args": args})
    return out


FINISHED = (0, 1)  # a module process that ran to its end (1: a case of it failed)


def now_utc():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def shape_problem(d):
    """None when d is a hipmembench document of the shape that resuming and merging
    read, else what is wrong with it (the first field of the wrong type)."""
    if not isinstance(d, dict) or not isinstance(d.get("tool"), dict) or \
            d["tool"].get("name") != "hipmembench":
        return "not a hipmembench document"
    if not isinstance(d.get("results"), list):
        return "results is not a list"
    for key in ("device", "placement", "telemetry", "settings", "host"):
        if d.get(key) is not None and not isinstance(d[key], dict):
            return f"{key} is not an object"
    for key in ("command", "started_utc"):
        if d.get(key) is not None and not isinstance(d[key], str):
            return f"{key} is not a string"
    if d.get("device") and d["device"].get("count") is not None and not is_int(d["device"]["count"]):
        return "device.count is not a whole number"
    for key in ("module_runs", "devices", "resumed", "modules"):
        if d.get(key) is not None and not isinstance(d[key], list):
            return f"{key} is not a list"
    for i, r in enumerate(d["results"]):
        if not isinstance(r, dict):
            return f"results[{i}] is not an object"
        if r.get("module") is not None and not isinstance(r["module"], str):
            return f"results[{i}].module is not a string"
        if r.get("params") is not None and not isinstance(r["params"], dict):
            return f"results[{i}].params is not an object"
        dev = (r.get("params") or {}).get("device")
        if dev is not None and not is_int(dev):
            return f"results[{i}].params.device is not a whole number"
    for i, r in enumerate(d.get("module_runs") or []):
        if not isinstance(r, dict):
            return f"module_runs[{i}] is not an object"
        if not isinstance(r.get("module"), str):
            return f"module_runs[{i}].module is not a string"
        if r.get("device") is not None and not is_int(r["device"]):
            return f"module_runs[{i}].device is not a whole number"
    for i, x in enumerate(d.get("devices") or []):
        if not isinstance(x, dict):
            return f"devices[{i}] is not an object"
    for key in ("samples", "module_flags"):
        xs = (d.get("telemetry") or {}).get(key)
        if xs is not None and (not isinstance(xs, list) or not all(isinstance(x, dict) for x in xs)):
            return f"telemetry.{key} is not a list of objects"
    return None


def load_document(path):
    """The hipmembench document at path, or None where there is none (no file,
    or one that hipmembench did not finish writing: not JSON)."""
    try:
        d = hmb_files.read_json(path)
    except hmb_files.BadFile:
        return None
    return d if shape_problem(d) is None else None


def earlier_document(path):
    """What an earlier run left at path: its document, or None where it left none;
    exit 2 naming a file that is there but is not one (nothing is run over it)."""
    if not os.path.lexists(path):
        return None
    try:
        d = hmb_files.read_json(path)
    except hmb_files.BadFile as e:
        fail_usage(f"{path}: {e} (move it away to run the point again)")
    why = shape_problem(d)
    if why:
        fail_usage(f"{path}: {why} (move it away to run the point again)")
    return d


def earlier_manifest(path):
    """The points of the manifest an earlier run left at path, by id; exit 2 naming
    what is wrong with one that is there but is not one."""
    if not os.path.lexists(path):
        return {}
    try:
        m = hmb_files.read_json(path)
    except hmb_files.BadFile as e:
        fail_usage(f"{path}: {e} (move it away to start afresh)")
    if not isinstance(m, dict) or not isinstance(m.get("points", []), list):
        fail_usage(f"{path}: not a sweep manifest: \"points\" is not a list (move it away to start afresh)")
    out = {}
    for i, e in enumerate(m.get("points", [])):
        if not isinstance(e, dict) or not isinstance(e.get("id"), str):
            fail_usage(f"{path}: points[{i}] is not an object with an \"id\" string "
                       "(move it away to start afresh)")
        out[e["id"]] = e
    return out


def shard_of(arg):
    """(K, N) from --shard K/N, else from a Slurm job array, else (0, 1)."""
    env = os.environ
    if arg is None and env.get("SLURM_ARRAY_TASK_COUNT"):
        try:
            step = int(env.get("SLURM_ARRAY_TASK_STEP", "1")) or 1
            k = (int(env["SLURM_ARRAY_TASK_ID"]) - int(env.get("SLURM_ARRAY_TASK_MIN", "0"))) // step
            n = int(env["SLURM_ARRAY_TASK_COUNT"])
        except ValueError:
            fail_usage("SLURM_ARRAY_TASK_ID/_MIN/_STEP/_COUNT are not whole numbers")
    elif arg is None:
        return 0, 1
    else:
        m = re.fullmatch(r"(\d+)/(\d+)", arg)
        if not m:
            fail_usage(f"--shard {arg}: expected K/N, e.g. 0/4")
        k, n = int(m.group(1)), int(m.group(2))
    if not 0 <= k < n:
        fail_usage(f"shard {k} of {n}: K must be from 0 to N-1")
    return k, n


def option_value(args, long):
    """The value of the last --long V or --long=V in args, or None."""
    v = None
    for i, a in enumerate(args):
        if a == long and i + 1 < len(args):
            v = args[i + 1]
        elif a.startswith(long + "="):
            v = a.split("=", 1)[1]
    return v


def without_device_options(args):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ("--devices", "--device", "-d"):
            skip = True
        elif not a.startswith(("--devices=", "--device=")):
            out.append(a)
    return out


def record_unit(r, units_of_module):
    """The (module, device) unit a record belongs to: its device where it is tagged
    with one (several GPUs), else the module's one run."""
    m, params = r.get("module"), r.get("params") or {}
    units = units_of_module.get(m, [])
    if "device" in params or len(units) != 1:
        return (m, params.get("device"))
    return units[0]


def missing_work(doc, plan, args):
    """What an incomplete document of `all` still lacks: [(module, devices)], where
    devices None means the module as the point runs it; None when the document
    cannot be resumed module by module."""
    runs = doc.get("module_runs")
    if not runs or any("device" not in r for r in runs):
        return None  # nothing finished, or written before module_runs named the GPU
    done = {(r["module"], r["device"]) for r in runs if r.get("exit_status") in FINISHED}
    listed = option_value(args, "--devices")
    if listed == "all":
        count = (doc.get("device") or {}).get("count")
        every = list(range(count)) if isinstance(count, int) else None
    elif listed is not None:
        every = [int(x) for x in listed.split(",")]
    else:
        every = None
    todo = []
    for m in plan:
        mine = {dev for (mod, dev) in done if mod == m}
        if not mine:
            todo.append((m, None))
        elif every is not None and None not in mine:
            rest = [dev for dev in every if dev not in mine]
            if rest:
                todo.append((m, rest))
    return todo


def tagged(r, device):
    """Result r with the GPU it ran on, params.device, as `all --devices` tags it: where
    r lists its parameters' roles (context, gpu_param), device is its GPU's."""
    r = dict(r, params=dict(r.get("params") or {}, device=device))
    if isinstance(r.get("context"), list):
        r["context"] = [k for k in r["context"] if k != "device"] + ["device"]
        r["gpu_param"] = "device"
    return r


def merge(doc, part, module, devices, rc, tag_device):
    """doc with what part measured of module (on devices) in place of what doc had of
    it: records, module runs (each saying when it was measured), telemetry."""
    own = part.get("started_utc")
    runs = part.get("module_runs") or [{"module": module, "order": 1, "wall_s": 0.0,
                                          "device": devices[0] if devices else None}]
    new_runs = []
    for r in runs:
        r = dict(r, measured_utc=own)
        if r.get("exit_status") is None:  # in the part's own process, which the sweep ran
            r.update(process="own", exit_status=rc)
        if r.get("device") is None and devices and len(devices) == 1 and module != "node":
            r["device"] = devices[0]
        new_runs.append(r)
    # what part replaces: the module on devices, or the whole module
    redone = {(module, d) for d in devices} if devices is not None else None
    kept_runs = [dict(r, measured_utc=r.get("measured_utc", doc.get("started_utc")))
                 for r in doc["module_runs"]
                 if r["module"] != module or (redone and (r["module"], r["device"]) not in redone)]
    old_units = {}
    for r in doc["module_runs"]:
        old_units.setdefault(r["module"], []).append((r["module"], r["device"]))
    kept = [r for r in doc["results"] if r.get("module") != module or
            (redone and record_unit(r, old_units) not in redone)]
    added = part.get("results", [])
    if tag_device and devices and len(devices) == 1:
        added = [tagged(r, devices[0]) for r in added]
    order = {m: i for i, m in enumerate(dict.fromkeys(r["module"] for r in doc["module_runs"] + new_runs))}
    all_runs = sorted(kept_runs + new_runs, key=lambda r: (order[r["module"]],
                                                           r["device"] if r["device"] is not None else -1))
    for i, r in enumerate(all_runs):
        r["order"] = i + 1
    doc = dict(doc)
    doc["module_runs"] = all_runs
    doc["modules"] = list(dict.fromkeys(r["module"] for r in all_runs))
    doc["results"] = sorted(kept + added, key=lambda r: order.get(r.get("module"), len(order)))
    tel, ptel = dict(doc.get("telemetry") or {}), part.get("telemetry") or {}
    finished_before = {r["module"] for r in kept_runs}
    for key in ("samples", "module_flags"):
        tel[key] = [x for x in tel.get(key) or [] if x.get("module") != module or
                    module in finished_before] + list(ptel.get(key) or [])
    doc["telemetry"] = tel
    seen = {d.get("ordinal") for d in doc.get("devices") or []}
    for d in (part.get("devices") or []) + ([part["device"]] if part.get("device") else []):
        if d.get("ordinal") not in seen:
            doc.setdefault("devices", []).append(d)
            seen.add(d.get("ordinal"))
    if not doc.get("device"):
        doc["device"] = part.get("device")
    doc["resumed"] = list(doc.get("resumed") or []) + [{
        "started_utc": own, "command_line": part.get("command_line"), "module": module,
        "devices": devices, "complete": part.get("complete") is True, "exit_status": rc}]
    return doc


def gpu_locality(hipmembench, device, env, cache={}):
    """(NUMA node, local CPUs) of a GPU as hipmembench reads them (info's placement),
    or (None, None, why)."""
    if device not in cache:
        r = subprocess.run([hipmembench, "--device", str(device), "--format", "json", "--output", "-",
                            "info"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        try:
            pl = json.loads(r.stdout).get("placement") or {}
        except (ValueError, AttributeError, RecursionError):
            pl = {}
        if not isinstance(pl, dict):
            pl = {}
        node, cpus = pl.get("gpu_numa_node"), pl.get("gpu_local_cpus") or None
        node = node if is_int(node) and node >= 0 else None
        cpus = cpus if isinstance(cpus, str) and CPU_LIST.match(cpus) else None
        why = (r.stderr.decode("utf-8", "replace").strip().splitlines() or [f"info exited {r.returncode}"])[0]
        cache[device] = (node, cpus, why)
    return cache[device]


def binding(a, p, numactl, env):
    """The command prefix that places a point as its matrix asks, and what was asked
    (or why it could not be)."""
    numa, cpu, asked = p["numa"], p["cpu"], {}
    if "closest" in (numa, cpu):
        node, cpus, why = gpu_locality(a.hipmembench, p["device"] or 0, env)
        if numa == "closest":
            numa = node
            if node is None:
                asked["numa"] = f"closest: the GPU's NUMA node is unknown ({why}): unbound"
        if cpu == "closest":
            cpu = cpus
            if cpus is None:
                asked["cpu"] = f"closest: the GPU's local CPUs are unknown ({why}): unbound"
    prefix = []
    if numa is not None:
        if numactl:
            prefix = [numactl, f"--cpunodebind={numa}", f"--membind={numa}"]
            asked["numa"] = numa
        else:
            asked["numa"] = f"{numa}: numactl not found, ran unbound"
    if cpu is not None:
        prefix += [shutil.which("taskset") or "taskset", "-c", cpu]
        asked["cpu"] = cpu
    return prefix, asked


def run_child(cmd, env, log_path, append=False):
    global child
    with open(log_path, "a" if append else "w") as log:
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, env=env)
        rc = child.wait()
    child = None
    return rc


def resume_point(a, p, command, plan, doc_path, doc, prefix, entry, env, log_path):
    """Run what doc lacks, module by module, merging each into doc_path as it ends.
    The worst exit status, or None when doc cannot be resumed this way."""
    todo = missing_work(doc, plan, p["args"]) if plan else None
    if todo is None:
        return None
    if not todo:  # every module finished: the run stopped before its last write
        doc.update(complete=True, interrupted=False)
        hmb_files.write_json_whole(doc_path, doc)
        return 0
    # records name their GPU where the point measures several
    listed = option_value(p["args"], "--devices") or ""
    tag_device = "," in listed or any("device" in (r.get("params") or {}) for r in doc["results"])
    part_path = doc_path[:-len(".json")] + ".part"
    worst = 0
    entry["resumed"] = f"from {doc.get('started_utc')}: " + \
        (", ".join(m + (f" on GPU {','.join(map(str, d))}" if d else "") for m, d in todo) or "nothing")
    for module, devices in todo:
        if stop_signal:
            break
        args = p["args"]
        if devices is not None:
            args = without_device_options(args) + (
                ["--devices", ",".join(map(str, devices))] if len(devices) > 1 else
                ["--device", str(devices[0])])
        cmd = prefix + [a.hipmembench, "--output", part_path] + args + [module]
        print(f"hmb_sweep: {p['id']}: resumes: {' '.join(cmd)}", file=sys.stderr, flush=True)
        rc = run_child(cmd, env, log_path, append=True)
        part = load_document(part_path)
        if part is not None:
            doc = merge(doc, part, module, devices, rc, tag_device)
        if os.path.exists(part_path):
            os.unlink(part_path)
        missing = missing_work(doc, plan, p["args"])
        doc["complete"] = not missing and part is not None and not stop_signal
        doc["interrupted"] = bool(stop_signal)
        hmb_files.write_json_whole(doc_path, doc)
        if worst in FINISHED:
            worst = rc if rc not in FINISHED else max(worst, rc)
        if part is None and not stop_signal:
            break
    return worst


def plan_of(hipmembench, p, command):
    """The modules a point's command runs, in order (from its dry run)."""
    r = subprocess.run([hipmembench, "--dry-run", "--format", "json", "--output", "-"] +
                       p["args"] + [command], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       env=dict(os.environ, **p["env"]))
    try:
        modules = json.loads(r.stdout).get("modules") or []
    except (ValueError, AttributeError, RecursionError):
        return []
    return modules if is_str_list(modules) else []


def main(argv):
    ap = CLI.parser(description="run hipmembench over a matrix of settings")
    ap.add_argument("matrix")
    ap.add_argument("outdir")
    ap.add_argument("--hipmembench", default=os.environ.get("HMB", "build/hipmembench"))
    ap.add_argument("--shard", metavar="K/N", help="run every N-th point from the K-th")
    ap.add_argument("--dry-run", action="store_true", help="list the points, run nothing")
    ap.add_argument("--max-points", type=int, default=MAX_POINTS, metavar="N",
                    help=f"refuse a matrix of more points than N (default {MAX_POINTS})")
    a = ap.parse_args(argv[1:])
    if a.max_points < 1:
        fail_usage(f"--max-points {a.max_points}: at least 1")
    m = read_matrix(a.matrix)
    count = point_count(m)
    if count > a.max_points:
        fail_usage(f"{a.matrix}: the matrix makes {count} points, more than the limit of "
                   f"{a.max_points} (--max-points N raises it)")
    shard, shards = shard_of(a.shard)
    pts = points(m)[shard::shards]
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
    above = os.path.dirname(os.path.abspath(a.outdir))
    while not os.path.lexists(above):
        above = os.path.dirname(above)
    if not os.path.isdir(above):  # refused before any point is checked
        fail_usage(f"{a.outdir}: cannot make the output directory: {above} is not a directory")
    check_points(a.hipmembench, pts, command)
    name = "manifest.json" if shards == 1 else f"manifest-shard-{shard}-of-{shards}.json"
    manifest_path = os.path.join(a.outdir, name)
    earlier = earlier_manifest(manifest_path)
    for p in pts:  # every earlier point document and log checked before anything runs
        earlier_document(os.path.join(a.outdir, "points", p["id"] + ".json"))
        log = os.path.join(a.outdir, "logs", p["id"] + ".log")
        if os.path.lexists(log) and not os.path.isfile(log):
            fail_usage(f"{log}: exists and is not a regular file (move it away)")
    try:
        for sub in ("points", "logs"):
            os.makedirs(os.path.join(a.outdir, sub), exist_ok=True)
    except OSError as e:
        fail_usage(f"{a.outdir}: cannot make the output directory: {e.strerror}")
    manifest = {"matrix": m, "hipmembench": a.hipmembench, "shard": [shard, shards], "points": []}
    global running
    running = True
    failed = 0
    for p in pts:
        doc_path = os.path.join(a.outdir, "points", p["id"] + ".json")
        log_path = os.path.join(a.outdir, "logs", p["id"] + ".log")
        entry = dict(p, json=os.path.relpath(doc_path, a.outdir))
        manifest["points"].append(entry)
        if stop_signal:
            entry["status"] = "pending"
            continue
        # what a run killed while writing left (hipmembench writes NAME.tmp.PID, then renames)
        for stray in glob.glob(glob.escape(doc_path) + ".tmp.*") + \
                glob.glob(glob.escape(doc_path[:-len(".json")]) + ".part*"):
            os.unlink(stray)
        doc = load_document(doc_path)
        if doc is not None and doc.get("complete") is True:
            entry.update(earlier.get(p["id"], {}))
            entry["resumed"] = "complete from an earlier run: not run again"
            # a run that ended with a case failed (exit 1) stays a failed point
            if entry.get("exit_status") not in (None, 0) or \
                    any(r.get("status") == "failed" for r in doc.get("results") or []):
                entry["status"] = "failed"
                failed += 1
            else:
                entry["status"] = "done"
            continue
        env = dict(os.environ, **p["env"])
        prefix, asked = binding(a, p, numactl, env)
        if asked:
            entry["placement_asked"] = asked
        cmd = prefix + [a.hipmembench, "--output", doc_path] + p["args"] + [command]
        entry["command_line"] = cmd
        entry["started"] = now_utc()
        hmb_files.write_json_whole(manifest_path, manifest)
        rc = None
        if doc is not None and doc.get("command") == command:
            rc = resume_point(a, p, command, plan_of(a.hipmembench, p, command), doc_path, doc,
                              prefix, entry, env, log_path)
        if rc is None:
            print(f"hmb_sweep: {p['id']}: {' '.join(cmd)}", file=sys.stderr, flush=True)
            rc = run_child(cmd, env, log_path)
        entry["finished"] = now_utc()
        entry["exit_status"] = rc
        doc = load_document(doc_path)
        if doc is not None and isinstance(doc.get("placement"), dict):
            entry["placement_found"] = {k: doc["placement"].get(k) for k in
                                        ("cpus_allowed", "cpus_numa_nodes", "mems_allowed",
                                         "page_node", "gpu_numa_node")}
        if stop_signal:
            entry["status"] = "interrupted"
        elif rc == 0 and doc is not None and doc.get("complete") is True:
            entry["status"] = "done"
        else:
            entry["status"] = "failed"
            failed += 1
    hmb_files.write_json_whole(manifest_path, manifest)
    done = sum(1 for e in manifest["points"] if e["status"] == "done")
    print(f"hmb_sweep: {done} of {len(pts)} points done, {failed} failed; manifest: {manifest_path}",
          file=sys.stderr)
    if stop_signal:
        return 128 + stop_signal
    return 1 if failed else 0


if __name__ == "__main__":
    CLI.run(main)
