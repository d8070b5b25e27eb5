"""hmbdoc.py - checks of a hipmembench document for the tests: the JSON Schema
(docs/schema.json, with python3-jsonschema) and what a schema cannot say
(statistics that agree with the samples, one identity per result, modules that
ran, no failures where none are expected)."""
import json
import pathlib

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "docs" / "schema.json"
_validator = None


def validator():
    global _validator
    if _validator is None:
        schema = json.loads(SCHEMA_PATH.read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        _validator = jsonschema.Draft202012Validator(schema)
    return _validator


# The parameters that were context in documents written before a result listed its
# own ("context"; src/doc/identity.c, legacy_roles), the GPU index aside.
CONTEXT = {"buffer_sets", "busy_kernel", "copy_engines", "copy_engines_source",
           "async_engine_count", "hw_queues", "threads_launched", "resident_thread_capacity",
           "timed", "coherence", "ideal_bound", "before_each_sample",
           "untimed_before_each_sample", "untimed_setup", "verification", "attach",
           "bytes_counted", "figure_meaning", "metric", "baseline_case", "clock", "sync",
           "latch", "block_threads", "elements_per_thread", "grid", "grid_blocks",
           "grid_stride"}


def legacy_roles(r):
    """(context, gpu) as documents written before a result listed its own meant them
    (src/doc/identity.c): the names of its context parameters, the GPU's among them, and
    the one naming its GPU (None: none): device, node's gpu; the iteration count of a
    calibrated (named) load, node's GPU count, xnack's figure and pages_at_start."""
    params, module = r.get("params") or {}, r.get("module")
    context = set(CONTEXT) | {"device"}
    if "load" in params:
        context.add("iters")
    if module == "node":
        context |= {"gpu", "gpus"}
    if module == "xnack":
        context |= {"figure", "pages_at_start"}
    gpu = "device" if "device" in params else "gpu" if module == "node" and "gpu" in params \
        else None
    return {k for k in params if k in context}, gpu


def identity(r):
    """What compare matches a result by within a document: module, case and
    the parameters that define the workload, in any order, with the GPU it ran
    on (within one document it tells results apart); context left out: what the
    result lists as its context, or in a document written before it did, what such
    documents meant (legacy_roles)."""
    params = r.get("params") or {}
    if isinstance(r.get("context"), list):
        context, gpu = set(r["context"]), r.get("gpu_param")
    else:
        context, gpu = legacy_roles(r)
    return (r.get("module"), r.get("case"),
            json.dumps({k: v for k, v in params.items() if k == gpu or k not in context},
                       sort_keys=True))


def runs_problems(r, where):
    """--runs: a result's runs account for its samples, a value per run each."""
    runs, out = r.get("runs"), []
    if not runs:
        return out
    if sum(runs["samples"]) != len(r["samples_s"]):
        out.append(f"{where}: its runs gave {sum(runs['samples'])} samples, not the "
                   f"{len(r['samples_s'])} it has")
    lists = [("samples", runs["samples"]), ("median_s", runs["median_s"])] + \
        [(f"metrics.{k}", v) for k, v in runs["metrics"].items()]
    out += [f"{where}: runs.{name} has {len(v)} values for {runs['count']} runs"
            for name, v in lists if len(v) != runs["count"]]
    at = 0
    for k, n in enumerate(runs["samples"]):
        own = sorted(r["samples_s"][at:at + n])
        at += n
        if len(own) != n:
            break
        med = (own[(n - 1) // 2] + own[n // 2]) / 2 if own else None
        if k < len(runs["median_s"]) and med != runs["median_s"][k] and \
                not (med and runs["median_s"][k] and abs(med / runs["median_s"][k] - 1) < 1e-12):
            out.append(f"{where}: runs.median_s[{k}] is not the median of that run's samples")
    return out


def stability_problems(doc, r, where):
    """A record's stability agrees with its samples and the document's rule."""
    st, out = r.get("stability"), []
    if not st:
        return out
    if st["count"] != len(r["samples_s"]):
        out.append(f"{where}: stability count {st['count']} differs from the "
                   f"{len(r['samples_s'])} samples")
    median = (r.get("stats_s") or {}).get("median")
    if st["ci_low_s"] is not None and median is not None and \
            not st["ci_low_s"] <= median <= st["ci_high_s"]:
        out.append(f"{where}: the median is outside its interval")
    rule = doc.get("stability_rule")
    res = (r.get("runs") or {}).get("resolution")
    if rule and res and "resolution_stable_rel" in rule:
        # several runs: the resolution decides (where the samples allowed a judgement)
        if st["half_width_rel"] is not None and \
                st["stable"] != (res["resolution_rel"] <= rule["resolution_stable_rel"]):
            out.append(f"{where}: stable is {st['stable']} for a resolution of "
                       f"{res['resolution_rel']:.4g} (threshold {rule['resolution_stable_rel']})")
        return out
    # several runs before the resolution: the runs' agreement may deny what the interval allows
    runs_denied = (r.get("runs") or {}).get("count", 1) > 1 and not st["stable"]
    if rule and st["half_width_rel"] is not None and not runs_denied and \
            st["stable"] != (st["half_width_rel"] <= rule["threshold_rel"]):
        out.append(f"{where}: stable is {st['stable']} for a half-width of "
                   f"{st['half_width_rel']:.4g} (threshold {rule['threshold_rel']})")
    return out


def problems(doc, modules=(), no_failures=False, complete=False, unique=True):
    """Every way doc breaks the contract, as readable lines; [] when it keeps it."""
    out = [f"schema: {'/'.join(map(str, e.absolute_path)) or 'document'}: {e.message}"
           for e in validator().iter_errors(doc)]
    if out or not isinstance(doc, dict):
        return out
    if complete and not doc["complete"]:
        out.append("document: complete is false")
    ok_modules, seen = set(), {}
    for i, r in enumerate(doc["results"]):
        where = f"results[{i}] ({r['module']}/{r['case']})"
        st = r["stats_s"]
        if st is not None:
            if st["count"] != len(r["samples_s"]):
                out.append(f"{where}: stats count {st['count']} differs from the "
                           f"{len(r['samples_s'])} samples")
            if not st["min"] <= st["median"] <= st["max"]:
                out.append(f"{where}: min <= median <= max does not hold")
            if r["samples_s"] and (min(r["samples_s"]) != st["min"] or
                                   max(r["samples_s"]) != st["max"]):
                out.append(f"{where}: stats min/max are not those of the samples")
        out += stability_problems(doc, r, where)
        out += runs_problems(r, where)
        if r["status"] == "ok":
            ok_modules.add(r["module"])
        if no_failures and r["status"] == "failed":
            out.append(f"{where}: failed: {r['reason']}")
        key = identity(r)
        if unique and key in seen:
            out.append(f"{where}: same identity as results[{seen[key]}]: {key}")
        seen.setdefault(key, i)
    for m in modules:
        if m not in ok_modules:
            out.append(f"module {m}: no record with status ok")
    return out


def load(path):
    with open(path) as f:
        return json.load(f)


def assert_valid(path_or_doc, **kw):
    """Fail with every problem listed, or return the document."""
    doc = load(path_or_doc) if isinstance(path_or_doc, (str, pathlib.Path)) else path_or_doc
    found = problems(doc, **kw)
    assert not found, f"{path_or_doc if not isinstance(path_or_doc, dict) else 'document'}:\n  " \
        + "\n  ".join(found[:20])
    return doc
