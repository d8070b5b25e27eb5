#!/usr/bin/env python3
"""Check a hipmembench JSON document against the schema in docs/schema.md.

usage: check_schema.py FILE [--modules a,b] [--no-failures] [--complete]
  --modules      each named module must have at least one "ok" record
  --no-failures  no record may have status "failed"
  --complete     the document must say complete: true
Exit 0 when the document conforms, 1 with one line per problem otherwise.
"""
import json
import sys

NUM = (int, float)
STATUSES = {"ok", "unsupported", "failed", "skipped"}


def is_num(v):
    return isinstance(v, NUM) and not isinstance(v, bool)


def opt(kind):
    return lambda v: v is None or kind(v)


def check_fields(obj, spec, where, problems):
    if not isinstance(obj, dict):
        problems.append(f"{where}: expected an object")
        return
    for key, test in spec.items():
        if key not in obj:
            problems.append(f"{where}: missing '{key}'")
        elif not test(obj[key]):
            problems.append(f"{where}.{key}: unexpected value {obj[key]!r}")


TOP = {
    "schema_version": lambda v: v == 1,
    "tool": lambda v: isinstance(v, dict) and v.get("name") == "hipmembench",
    "command": lambda v: isinstance(v, str),
    "command_line": lambda v: isinstance(v, list) and all(isinstance(a, str) for a in v),
    "started_utc": lambda v: isinstance(v, str) and v.endswith("Z"),
    "complete": lambda v: isinstance(v, bool),
    "interrupted": lambda v: isinstance(v, bool),
    "settings": lambda v: isinstance(v, dict),
    "platform": lambda v: v in ("amd", "nvidia"),
    "host": lambda v: isinstance(v, dict),
    "runtime": lambda v: isinstance(v, dict),
    "device": lambda v: v is None or isinstance(v, dict),
    "environment": lambda v: isinstance(v, dict),
    "modules": lambda v: isinstance(v, list),
    "telemetry": lambda v: isinstance(v, dict) and isinstance(v.get("samples"), list)
    and isinstance(v.get("module_flags"), list) and isinstance(v.get("available"), bool),
    "results": lambda v: isinstance(v, list),
}
HOST = {k: opt(lambda v: isinstance(v, str)) for k in
        ("hostname", "os", "kernel", "cpu_model", "transparent_hugepages")}
HOST.update({k: opt(is_num) for k in ("cpus_online", "numa_nodes", "memory_bytes")})
DEVICE = {
    "name": lambda v: isinstance(v, str),
    "arch": opt(lambda v: isinstance(v, str)),
    "total_memory_bytes": is_num,
    "compute_units": opt(is_num),
    "managed_memory": opt(lambda v: isinstance(v, bool)),
    "concurrent_managed_access": opt(lambda v: isinstance(v, bool)),
    "pageable_memory_access": opt(lambda v: isinstance(v, bool)),
    "memory_pools": opt(lambda v: isinstance(v, bool)),
    "async_engine_count": opt(is_num),
    "vmm": lambda v: isinstance(v, dict) and "supported" in v,
    "xnack": lambda v: isinstance(v, dict) and "arch_xnack" in v and "HSA_XNACK" in v,
    "pcie_link": lambda v: isinstance(v, dict) and "generation" in v and "width" in v,
    "apu": lambda v: isinstance(v, bool),
    "managed_access": lambda v: isinstance(v, dict) and isinstance(v.get("mode"), str),
    "host_link": lambda v: isinstance(v, dict) and isinstance(v.get("kind"), str)
    and (is_num(v.get("peak_gbps")) or isinstance(v.get("no_peak_reason"), str)),
    "copy_engines": lambda v: isinstance(v, dict) and "count" in v,
    "memory_kinds": lambda v: isinstance(v, list) and all(
        isinstance(k, dict) and isinstance(k.get("kind"), str)
        and isinstance(k.get("supported"), bool)
        and (k["supported"] or isinstance(k.get("reason"), str)) for k in v),
}
RESULT = {
    "module": lambda v: isinstance(v, str) and v != "",
    "case": lambda v: isinstance(v, str) and v != "",
    "status": lambda v: v in STATUSES,
    "reason": opt(lambda v: isinstance(v, str)),
    "params": lambda v: isinstance(v, dict),
    "bytes": opt(is_num),
    "ops": opt(is_num),
    "samples_s": lambda v: isinstance(v, list) and all(is_num(x) and x >= 0 for x in v),
    "stats_s": opt(lambda v: isinstance(v, dict)),
    "gbps_median": opt(is_num),
    "gbps_best": opt(is_num),
    "us_per_op_median": opt(is_num),
    "peak_gbps": opt(is_num),
    "peak_fraction": opt(is_num),
    "metrics": lambda v: isinstance(v, dict) and all(
        isinstance(m, dict) and is_num(m.get("value")) and "unit" in m for m in v.values()),
    "observed": lambda v: isinstance(v, dict),
}
STATS = {k: is_num for k in ("count", "min", "median", "mean", "max", "stddev")}


def check(doc, modules, no_failures, complete):
    problems = []
    check_fields(doc, TOP, "document", problems)
    if problems:
        return problems
    check_fields(doc["host"], HOST, "host", problems)
    if doc["device"] is not None:
        check_fields(doc["device"], DEVICE, "device", problems)
    if complete and not doc["complete"]:
        problems.append("document: complete is false")
    ok_modules = set()
    for i, r in enumerate(doc["results"]):
        where = f"results[{i}] ({r.get('module')}/{r.get('case')})"
        check_fields(r, RESULT, where, problems)
        if r.get("stats_s") is not None:
            check_fields(r["stats_s"], STATS, where + ".stats_s", problems)
            if r["stats_s"]["count"] != len(r["samples_s"]):
                problems.append(f"{where}: stats count differs from the samples")
            if not r["stats_s"]["min"] <= r["stats_s"]["median"] <= r["stats_s"]["max"]:
                problems.append(f"{where}: min <= median <= max does not hold")
        if r.get("status") == "ok":
            ok_modules.add(r.get("module"))
        elif r.get("reason") in (None, ""):
            problems.append(f"{where}: status {r.get('status')} without a reason")
        if no_failures and r.get("status") == "failed":
            problems.append(f"{where}: failed: {r.get('reason')}")
    for m in modules:
        if m not in ok_modules:
            problems.append(f"module {m}: no record with status ok")
    return problems


def main(argv):
    args = argv[1:]
    if not args:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, modules, no_failures, complete = args[0], [], False, False
    i = 1
    while i < len(args):
        if args[i] == "--modules":
            modules = [m for m in args[i + 1].split(",") if m]
            i += 1
        elif args[i] == "--no-failures":
            no_failures = True
        elif args[i] == "--complete":
            complete = True
        else:
            print(f"check_schema.py: unknown argument {args[i]}", file=sys.stderr)
            return 2
        i += 1
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"{path}: not a readable JSON document: {e}")
        return 1
    problems = check(doc, modules, no_failures, complete)
    for p in problems:
        print(f"{path}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
