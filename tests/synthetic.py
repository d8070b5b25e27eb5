"""synthetic.py - made-up hipmembench documents for the compare tests: the
frame of a document json.c wrote, with results whose samples are drawn from a
known distribution, so that "the same" and "slower" mean what the test says."""
import copy
import json
import random
import statistics


def record(module, case, params, samples, nbytes=None, ops=None, metrics=None):
    """A result as json.c writes it, its summary figures derived from samples."""
    med = statistics.median(samples)
    return {
        "module": module, "case": case, "status": "ok", "reason": None,
        "params": dict(params), "bytes": nbytes, "ops": ops, "samples_s": list(samples),
        "stats_s": {"count": len(samples), "min": min(samples), "median": med,
                    "mean": statistics.fmean(samples), "max": max(samples),
                    "stddev": statistics.stdev(samples) if len(samples) > 1 else 0.0},
        "gbps_median": nbytes / med / 1e9 if nbytes else None,
        "gbps_best": nbytes / min(samples) / 1e9 if nbytes else None,
        "us_per_op_median": med / ops * 1e6 if ops else None,
        "peak_gbps": None, "peak_fraction": None,
        "metrics": {k: {"value": v, "unit": u} for k, (v, u) in (metrics or {}).items()},
        "observed": {},
    }


def copies(n_sizes=18, kinds=("pageable", "pinned", "registered", "write-combined"),
           directions=("h2d", "d2h"), reps=20, noise=0.2, seed=1, slower=None):
    """memcpy-like results: every direction x kind x size, each sample the true
    time times a uniform factor in [1 - noise, 1 + noise]. slower maps a case
    name to a factor on its true time."""
    rng = random.Random(seed)
    out = []
    for d in directions:
        for k in kinds:
            case = f"{d}/{k}/async"
            for i in range(n_sizes):
                size = 4096 << i
                true = 5e-6 + size / 25e9 * (slower or {}).get(case, 1.0)
                s = [true * rng.uniform(1 - noise, 1 + noise) for _ in range(reps)]
                out.append(record("memcpy", case, {"size": size, "direction": d,
                                                   "host_memory": k}, s, nbytes=size))
    return out


def document(frame_path, results, hostname=None, reps=None):
    """The frame document at frame_path with results (and host, settings) replaced."""
    with open(frame_path) as f:
        doc = json.load(f)
    doc = copy.deepcopy(doc)
    doc["results"] = results
    if hostname:
        doc["host"]["hostname"] = hostname
    if reps:
        doc["settings"]["reps"] = reps
    return doc


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)
    return path
