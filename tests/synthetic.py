"""synthetic.py - made-up hipmembench documents for the compare tests: the
frame of a document json_write.c wrote, with results whose samples are drawn from a
known distribution, so that "the same" and "slower" mean what the test says.
A run's figures also move from one run (one process) to the next, by a
run-to-run noise of their own; with runs > 1 a result holds several runs, as
--runs writes them (their samples pooled, each run's median kept)."""
import copy
import json
import math
import random
import statistics

# Run-to-run noise, relative sigma of one run, as the two back-to-back runs of
# one build on one H100 show it (results/nvidia-h100-pcie/: all.json against
# alone/, 1.4826 x the median absolute deviation of the log ratios / sqrt 2):
# asynchronous copies of page-locked memory 0.8%, pageable ones 5.4%.
REALISTIC_RUN_NOISE = {"pageable": 0.054, "pinned": 0.008, "registered": 0.008,
                       "write-combined": 0.008}
# and one run in 20 moves three times as much (a neighbour, a clock)
TAIL_RUNS, TAIL_FACTOR = 0.05, 3.0


def median_interval(samples):
    """The median's 95% interval by order statistics, as src/stats/stability.c: the
    ranks k and n+1-k, k the largest with P(Binomial(n, 1/2) < k) <= 2.5%."""
    n, cdf, k = len(samples), 0.0, 0
    for i in range(n // 2):
        nxt = cdf + math.comb(n, i) * 0.5 ** n
        if nxt > 0.025:
            break
        cdf, k = nxt, i + 1
    return k, 1 - 2 * cdf


def stability(samples):
    """A record's stability object, as json_write.c writes it."""
    s, med = sorted(samples), statistics.median(samples)
    k, coverage = median_interval(samples)
    if len(s) < 6 or not k:
        return {"method": "order statistics", "count": len(s), "confidence": None,
                "ci_ranks": None, "ci_low_s": None, "ci_high_s": None, "half_width_rel": None,
                "stable": None, "meets_target": None, "reason": "too few samples"}
    hw = (s[len(s) - k] - s[k - 1]) / 2 / med
    return {"method": "order statistics", "count": len(s), "confidence": coverage,
            "ci_ranks": [k, len(s) + 1 - k], "ci_low_s": s[k - 1], "ci_high_s": s[len(s) - k],
            "half_width_rel": hw, "stable": hw <= 0.02, "meets_target": hw <= 0.01,
            "reason": f"95% CI of the median +-{100 * hw:.2g}%"}


def record(module, case, params, samples, nbytes=None, ops=None, metrics=None, runs=None):
    """A result as json_write.c writes it, its summary figures derived from samples;
    runs: the samples of each run (then samples is their pooling), as --runs
    writes them (runs=2: samples cut in two halves)."""
    if runs == 2:
        runs = [samples[:len(samples) // 2], samples[len(samples) // 2:]]
    if runs:
        samples = [x for run in runs for x in run]
    med = statistics.median(samples)
    out = {
        "module": module, "case": case, "status": "ok", "reason": None,
        "params": dict(params), "bytes": nbytes, "ops": ops, "samples_s": list(samples),
        "stats_s": {"count": len(samples), "min": min(samples), "median": med,
                    "mean": statistics.fmean(samples), "max": max(samples),
                    "stddev": statistics.stdev(samples) if len(samples) > 1 else 0.0},
        "stability": stability(samples), "shape": None,
        "gbps_median": nbytes / med / 1e9 if nbytes else None,
        "gbps_best": nbytes / min(samples) / 1e9 if nbytes else None,
        "us_per_op_median": med / ops * 1e6 if ops else None,
        "peak_gbps": None, "peak_fraction": None,
        "metrics": {k: {"value": v, "unit": u} for k, (v, u) in (metrics or {}).items()},
        "observed": {},
    }
    if runs:
        # each run's metrics: the record's, a hair apart from one run to the next
        out["runs"] = {"count": len(runs), "samples": [len(r) for r in runs],
                       "median_s": [statistics.median(r) for r in runs],
                       "metrics": {k: [v * (1 + 0.001 * i) for i in range(len(runs))]
                                   for k, (v, u) in (metrics or {}).items()}}
    return out


def run_factor(rng, sigma, tail=True):
    """How much one run's figures move: lognormal, one run in 20 three times as much
    (tail=False: none)."""
    if tail and rng.random() < TAIL_RUNS:
        sigma *= TAIL_FACTOR
    return math.exp(rng.gauss(0.0, sigma))


def copies(n_sizes=18, kinds=("pageable", "pinned", "registered", "write-combined"),
           directions=("h2d", "d2h"), reps=20, noise=0.2, seed=1, slower=None, runs=2,
           run_noise=None, doc_noise=None, api="async", tail=True):
    """memcpy-like results: every direction x kind x size, each sample the true
    time times a uniform factor in [1 - noise, 1 + noise]. slower maps a case
    name to a factor on its true time. run_noise (a sigma, or one per kind:
    REALISTIC_RUN_NOISE) moves each run's true time; doc_noise (the same) moves
    each result's true time once for the whole document (what its runs cannot
    see: compare's session noise); runs > 1 gives each result that many runs
    (reps samples each), pooled."""
    rng = random.Random(seed)
    out = []
    for d in directions:
        for k in kinds:
            case = f"{d}/{k}/{api}"
            sigma = (run_noise.get(k, 0.0) if isinstance(run_noise, dict) else run_noise) or 0.0
            session = (doc_noise.get(k, 0.0) if isinstance(doc_noise, dict) else doc_noise) or 0.0
            for i in range(n_sizes):
                size = 4096 << i
                true = 5e-6 + size / 25e9 * (slower or {}).get(case, 1.0)
                true *= math.exp(rng.gauss(0.0, session)) if session else 1.0
                each = []
                for _ in range(runs):
                    t = true * run_factor(rng, sigma, tail) if sigma else true
                    each.append([t * rng.uniform(1 - noise, 1 + noise) for _ in range(reps)])
                out.append(record("memcpy", case, {"size": size, "direction": d,
                                                   "host_memory": k}, each[0], nbytes=size,
                                  runs=each if runs > 1 else None))
    return out


def every_time_slower(doc, factor):
    """doc with every time of every result made `factor` times longer (its samples,
    their statistics, its runs' medians, the figures derived from them and its time
    metrics), as a build that slowed the whole machine down would write it."""
    doc = copy.deepcopy(doc)
    for r in doc["results"]:
        if r.get("samples_s"):
            r["samples_s"] = [x * factor for x in r["samples_s"]]
        for k in ("min", "median", "mean", "max", "stddev"):
            if (r.get("stats_s") or {}).get(k) is not None:
                r["stats_s"][k] *= factor
        for k in ("ci_low_s", "ci_high_s"):
            if (r.get("stability") or {}).get(k) is not None:
                r["stability"][k] *= factor
        for k in ("gbps_median", "gbps_best"):
            if r.get(k) is not None:
                r[k] /= factor
        if r.get("us_per_op_median") is not None:
            r["us_per_op_median"] *= factor
        if r.get("runs"):
            r["runs"]["median_s"] = [x * factor if x is not None else None
                                     for x in r["runs"]["median_s"]]
        for name, m in (r.get("metrics") or {}).items():
            unit = m.get("unit") if isinstance(m, dict) else None
            scale = factor if unit in ("s", "ms", "us", "ns") else \
                1 / factor if unit in ("GB/s", "MB/s", "faults/s") else None
            if scale is None:
                continue
            m["value"] = m["value"] * scale if m.get("value") is not None else None
            runs = ((r.get("runs") or {}).get("metrics") or {}).get(name)
            if runs:
                r["runs"]["metrics"][name] = [x * scale if x is not None else None for x in runs]
    return doc


def document(frame_path, results, hostname=None, reps=None, started=None):
    """The frame document at frame_path with results (and host, settings, its start)
    replaced."""
    with open(frame_path) as f:
        doc = json.load(f)
    doc = copy.deepcopy(doc)
    doc["results"] = results
    if hostname:
        doc["host"]["hostname"] = hostname
    if reps:
        doc["settings"]["reps"] = reps
    if started:
        doc["started_utc"] = started
    return doc


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)
    return path
