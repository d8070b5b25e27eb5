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


def identity(r):
    """What compare matches a result by: module, case and parameters, less the
    iteration count of a calibrated (named) load and the coherence text that
    explains the case's memory kind (src/json.c, result_identity)."""
    params = dict(r.get("params") or {})
    if "load" in params:
        params.pop("iters", None)
    params.pop("coherence", None)
    return (r.get("module"), r.get("case"), json.dumps(params, sort_keys=True))


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
