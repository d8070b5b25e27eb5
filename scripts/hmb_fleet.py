#!/usr/bin/env python3
"""hmb_fleet.py - summary of a fleet run: which node or GPU is the odd one out.

usage: hmb_fleet.py DIR|FILE [...] [--threshold PCT] [--output FILE] [--format table|json]

Reads every hipmembench document under the folders (e.g. what
scripts/slurm/hipmembench-fleet.sbatch wrote: `all` on every GPU of an allocation)
and, for each headline figure below, across every GPU of the same model: the median,
the spread (lowest, highest, and (highest - lowest) / median) and the outliers: GPUs
below PCT percent of the median (default 90) for a figure where higher is better, or
above 100/PCT times the median where lower is better. Each outlier is named by node,
GPU (ordinal and PCI bus id) and document, with the likely reasons that its metadata
gives: a PCIe link trained below its maximum width or speed (or below the width of
the other GPUs), throttling, an SM clock below the others', NUMA balancing on, or the
process or its memory away from the GPU's NUMA node. Documents that did not complete,
dry runs and files that are not hipmembench documents are listed and left out.

Writes the summary as JSON to --output (default DIR/fleet-summary.json for one folder;
'-' for stdout) atomically, and prints it as a table (--format json: the JSON).
A .json file that cannot be read as a document (not a regular file, such as a FIFO or
a device, which is never waited on; not UTF-8; not JSON; nesting too deep; a field of
the wrong type) is left out, naming why; a path given that is neither a file nor a
folder is refused.
Exit status: 0 no outlier, 1 an outlier or a document left out, 2 bad usage or no
document to summarize.
"""
import json
import os
import statistics
import sys

LIBDIR = os.path.dirname(os.path.realpath(__file__))  # make install writes its own
try:
    sys.path.insert(0, LIBDIR)
    import hmb_files  # reading, writing and the command line, as every script does
except ImportError as e:
    sys.exit(f"{sys.argv[0]}: cannot load hmb_files.py from {LIBDIR}: {e}")

# Headline figures: name -> (module, case, size taken, figure, better, what can explain it).
# "link": the host link (copies between host and GPU); "gpu": clocks and throttling;
# "host": the host side (NUMA placement and balancing).
HEADLINES = {
    "h2d pinned GB/s": ("memcpy", "h2d/pinned/async", max, "gbps_median", "higher", "link gpu host"),
    "d2h pinned GB/s": ("memcpy", "d2h/pinned/async", max, "gbps_median", "higher", "link gpu host"),
    "h2d pageable GB/s": ("memcpy", "h2d/pageable/async", max, "gbps_median", "higher", "link host"),
    "d2h pageable GB/s": ("memcpy", "d2h/pageable/async", max, "gbps_median", "higher", "link host"),
    "h2d pinned 4K latency us": ("memcpy", "h2d/pinned/async", min, "us_per_op_median", "lower",
                                 "link gpu host"),
    "d2d GB/s": ("memcpy", "d2d/device/async", max, "gbps_median", "higher", "gpu"),
    "bidirectional GB/s": ("overlap", "bidirectional/concurrent", max, "gbps_median", "higher",
                           "link gpu host"),
    "managed prefetch GB/s": ("managed", "prefetch/prefetch-only", max, "gbps_median", "higher",
                              "link gpu host"),
    "fault latency us (4K, in order)": ("xnack", "managed/fault-latency/stride=4K/sequential", max,
                                        "us_per_fault", "lower", "link gpu host"),
    "pool alloc+fill+free us": ("pool", "course/default-pool", max, "us_per_op_median", "lower", "gpu"),
}
WANTED = {}  # (module, case) -> the headlines taken from it
for _name, _h in HEADLINES.items():
    WANTED.setdefault((_h[0], _h[1]), []).append(_name)


CLI = hmb_files.Cli("hmb_fleet.py")
fail_usage = CLI.fail


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) < 1e15


def shape_problem(doc):
    """None when the fields the summary reads are of the types it needs, else the
    first that is not."""
    for key in ("host", "device", "placement", "telemetry", "settings"):
        if doc.get(key) is not None and not isinstance(doc[key], dict):
            return f"{key} is not an object"
    for key in ("results", "devices", "module_runs"):
        xs = doc.get(key)
        if xs is not None and (not isinstance(xs, list) or not all(isinstance(x, dict) for x in xs)):
            return f"{key} is not a list of objects"
    samples = (doc.get("telemetry") or {}).get("samples")
    if samples is not None and (not isinstance(samples, list) or
                                not all(isinstance(x, dict) for x in samples)):
        return "telemetry.samples is not a list of objects"
    for i, d in enumerate((doc.get("devices") or []) + [doc.get("device") or {}]):
        where = f"devices[{i}]" if i < len(doc.get("devices") or []) else "device"
        if d.get("ordinal") is not None and not is_int(d["ordinal"]):
            return f"{where}.ordinal is not a whole number"
        if d.get("pcie_link") is not None and not isinstance(d["pcie_link"], dict):
            return f"{where}.pcie_link is not an object"
        for k in ("name", "pci_bus_id"):
            if d.get(k) is not None and not isinstance(d[k], str):
                return f"{where}.{k} is not a string"
    for i, r in enumerate(doc.get("module_runs") or []):
        if r.get("device") is not None and not is_int(r["device"]):
            return f"module_runs[{i}].device is not a whole number"
        if r.get("module") is not None and not isinstance(r["module"], str):
            return f"module_runs[{i}].module is not a string"
    for i, r in enumerate(doc.get("results") or []):
        for k in ("module", "case"):
            if r.get(k) is not None and not isinstance(r[k], str):
                return f"results[{i}].{k} is not a string"
        params = r.get("params")
        if params is not None and not isinstance(params, dict):
            return f"results[{i}].params is not an object"
        params = params or {}
        if params.get("device") is not None and not is_int(params["device"]):
            return f"results[{i}].params.device is not a whole number"
        if params.get("size") is not None and not (is_number(params["size"]) and params["size"] >= 0):
            return f"results[{i}].params.size is not a number of at least 0"
        metrics = r.get("metrics")
        if metrics is not None and (not isinstance(metrics, dict) or
                                    not all(isinstance(m, dict) for m in metrics.values())):
            return f"results[{i}].metrics is not an object of objects"
    if (doc.get("host") or {}).get("hostname") is not None and \
            not isinstance(doc["host"]["hostname"], str):
        return "host.hostname is not a string"
    return None


def figure(r, key):
    v = r.get(key)
    if v is None:
        v = ((r.get("metrics") or {}).get(key) or {}).get("value")
    return v if is_number(v) and v > 0 else None


def telemetry_by_device(doc):
    """Each GPU's telemetry samples: module_runs and the samples come in the same
    order, before and after each run."""
    samples = list((doc.get("telemetry") or {}).get("samples") or [])
    out, i, nth = {}, 0, {}
    default = (doc.get("device") or {}).get("ordinal")
    ordinals = sorted(d["ordinal"] for d in doc.get("devices") or [] if is_int(d.get("ordinal")))
    for run in doc.get("module_runs") or []:
        k = nth[run.get("module")] = nth.get(run.get("module"), -1) + 1
        while i < len(samples) and samples[i].get("module") != run.get("module"):
            i += 1
        taken = []
        while i < len(samples) and samples[i].get("module") == run.get("module") and len(taken) < 2 \
                and samples[i].get("when") not in [s.get("when") for s in taken]:
            taken.append(samples[i])
            i += 1
        # documents before module_runs named the GPU: a module's k-th run is on the k-th GPU
        dev = run["device"] if "device" in run else ordinals[k] if k < len(ordinals) else default
        out.setdefault(default if dev is None else dev, []).extend(taken)
    if not out and samples:
        out[default] = samples
    return out


def gpus_of(path, doc):
    """One entry per GPU the document measured: who it is, its headline figures and
    the metadata that can explain them."""
    devices = {d.get("ordinal"): d for d in doc.get("devices") or [] if isinstance(d, dict)}
    main = doc.get("device") or {}
    devices.setdefault(main.get("ordinal"), main)
    host = doc.get("host") or {}
    placement = doc.get("placement") or {}
    tel = telemetry_by_device(doc)
    figures = {}  # (ordinal, headline) -> (size, value)
    for r in doc.get("results") or []:
        names = WANTED.get((r.get("module"), r.get("case")))
        if names is None or r.get("status") != "ok":
            continue
        params = r.get("params") or {}
        dev = params.get("device", main.get("ordinal"))
        size = params.get("size") or 0
        for name in names:
            value, old = figure(r, HEADLINES[name][3]), figures.get((dev, name))
            if value is not None and (old is None or HEADLINES[name][2]((size, old[0])) == size != old[0]):
                figures[(dev, name)] = (size, value)
    out = []
    for dev in sorted({d for d, _ in figures}, key=lambda d: (d is None, d)):
        d = devices.get(dev) or main
        link = {k: v if is_int(v) else None for k, v in (d.get("pcie_link") or {}).items()}
        mine = placement if dev == main.get("ordinal") else {}  # the process placed for its GPU
        samples = tel.get(dev, [])
        clocks = [s["sm_clock_mhz"] for s in samples if is_number(s.get("sm_clock_mhz"))]
        out.append({
            "file": path, "host": host.get("hostname"), "gpu": dev, "pci_bus_id": d.get("pci_bus_id"),
            "model": d.get("name"), "numa_node": mine.get("gpu_numa_node"),
            "figures": {n: v for (g, n), (_, v) in figures.items() if g == dev},
            "link": {k: link.get(k) for k in ("generation", "width", "max_generation", "max_width")},
            "link_low_in_run": list(dict.fromkeys(f"x{s['pcie_width']} of x{s['pcie_max_width']} after {s.get('module')}"
                                       for s in samples if is_int(s.get("pcie_width")) and
                                       is_int(s.get("pcie_max_width")) and
                                       s["pcie_width"] < s["pcie_max_width"])),
            "throttled": list(dict.fromkeys(f"{s.get('throttle_reasons') or 'throttled'} after "
                                            f"{s.get('module')}" for s in samples if s.get("throttled") is True)),
            "sm_clock_mhz": statistics.median(clocks) if clocks else None,
            "numa_balancing": host.get("numa_balancing"),
            "placement": {k: mine.get(k) for k in ("cpus_numa_nodes", "mems_allowed", "page_node")},
        })
    return out


def reasons(g, headline, peers):
    """What in g's metadata can explain an odd headline figure, most likely first."""
    kinds = HEADLINES[headline][5].split()
    why = []
    link = g["link"]
    if "link" in kinds:
        w, mw, gen, mg = link["width"], link["max_width"], link["generation"], link["max_generation"]
        usual = statistics.mode([p["link"]["width"] for p in peers if p["link"]["width"]] or [None])
        if isinstance(w, int) and isinstance(mw, int) and w < mw:
            why.append(f"PCIe link width x{w} of x{mw}")
        elif isinstance(w, int) and isinstance(usual, int) and w < usual:
            why.append(f"PCIe link width x{w} where the other GPUs have x{usual}")
        if isinstance(gen, int) and isinstance(mg, int) and gen < mg:
            why.append(f"PCIe link speed gen{gen} of gen{mg}")
        why += [f"PCIe link {x}" for x in g["link_low_in_run"]]
    if "gpu" in kinds:
        why += [f"throttled: {x}" for x in g["throttled"]]
        clocks = [p["sm_clock_mhz"] for p in peers if p["sm_clock_mhz"]]
        if g["sm_clock_mhz"] and clocks and g["sm_clock_mhz"] < 0.9 * statistics.median(clocks):
            why.append(f"SM clock {g['sm_clock_mhz']:.0f} MHz, the others' median "
                       f"{statistics.median(clocks):.0f} MHz")
    if "host" in kinds:
        if g["numa_balancing"] not in (None, 0, False):
            why.append("NUMA balancing on (kernel.numa_balancing)")
        pl, node = g["placement"], g["numa_node"]
        if isinstance(node, int):
            for key, what in (("mems_allowed", "host memory"), ("cpus_numa_nodes", "process")):
                nodes = pl.get(key)
                if isinstance(nodes, list) and nodes and node not in nodes:
                    why.append(f"{what} on NUMA node {','.join(map(str, nodes))}, the GPU on node {node}")
            if is_int(pl.get("page_node")) and pl["page_node"] != node and \
                    node in (pl.get("mems_allowed") or [node]):
                why.append(f"a page it touched landed on NUMA node {pl['page_node']}, the GPU on node {node}")
    return why or ["nothing in the metadata: look at the figures themselves"]


def summarize(gpus, threshold):
    by_model = {}
    for g in gpus:
        by_model.setdefault(g["model"], []).append(g)
    out = []
    for model, group in sorted(by_model.items(), key=lambda kv: str(kv[0])):
        for name, (module, case, _, _, better, _) in HEADLINES.items():
            have = [g for g in group if name in g["figures"]]
            if not have:
                continue
            values = [g["figures"][name] for g in have]
            med = statistics.median(values)
            bound = med * threshold / 100 if better == "higher" else med * 100 / threshold
            odd = [g for g in have if (g["figures"][name] < bound if better == "higher"
                                       else g["figures"][name] > bound)]
            out.append({
                "figure": name, "model": model, "module": module, "case": case, "better": better,
                "gpus": len(have), "median": med, "lowest": min(values), "highest": max(values),
                "spread_pct": (max(values) - min(values)) / med * 100, "bound": bound,
                "outliers": [{"host": g["host"], "gpu": g["gpu"], "pci_bus_id": g["pci_bus_id"],
                              "file": g["file"], "value": g["figures"][name],
                              "of_median_pct": g["figures"][name] / med * 100,
                              "likely_reasons": reasons(g, name, have)}
                             for g in sorted(odd, key=lambda g: g["figures"][name])],
            })
    return out


def walk_error(e):
    fail_usage(f"{e.filename}: cannot list the folder: {e.strerror or e}")


def documents(paths):
    for p in paths:
        if not os.path.isdir(p):
            yield p
            continue
        for root, _, names in os.walk(p, onerror=walk_error):
            for n in sorted(names):
                if n.endswith(".json") and not n.startswith(("manifest", "index", "fleet-summary")):
                    yield os.path.join(root, n)


def table(summary):
    lines = []
    for s in summary["figures"]:
        lines.append(f"{s['figure']:<34} {s['model'] or '?':<24} {s['gpus']:>4} GPUs  median "
                     f"{s['median']:10.4g}  {s['lowest']:.4g}..{s['highest']:.4g} "
                     f"({s['spread_pct']:.1f}%)  outliers {len(s['outliers'])}")
        for o in s["outliers"]:
            lines.append(f"    {o['host']} gpu {o['gpu']} ({o['pci_bus_id']}): {o['value']:.4g}, "
                         f"{o['of_median_pct']:.0f}% of the median: {'; '.join(o['likely_reasons'])}")
    for x in summary["left_out"]:
        lines.append(f"left out: {x['file']}: {x['why']}")
    return "\n".join(lines)


def main(argv):
    ap = CLI.parser(description="fleet summary: median, spread and outliers per headline figure")
    ap.add_argument("paths", nargs="+", metavar="DIR|FILE")
    ap.add_argument("--threshold", type=float, default=90.0,
                    help="percent of the median below which a GPU is an outlier (default 90)")
    ap.add_argument("--output", help="where the JSON goes (default DIR/fleet-summary.json; - stdout)")
    ap.add_argument("--format", choices=("table", "json"), default="table")
    a = ap.parse_args(argv[1:])
    if not 0 < a.threshold < 100:
        fail_usage(f"--threshold {a.threshold:g}: a percentage between 0 and 100")
    for p in a.paths:
        if not os.path.exists(p):
            fail_usage(f"{p}: no such file or folder")
        if not os.path.isdir(p) and not os.path.isfile(p):
            fail_usage(f"{p}: not a regular file or a folder")
    output = a.output or (os.path.join(a.paths[0], "fleet-summary.json")
                          if len(a.paths) == 1 and os.path.isdir(a.paths[0]) else "-")
    gpus, left_out, used = [], [], 0
    for path in documents(a.paths):
        try:
            doc = hmb_files.read_json(path)
        except hmb_files.BadFile as e:
            left_out.append({"file": path, "why": str(e)})
            continue
        if not isinstance(doc, dict) or not isinstance(doc.get("tool"), dict) or \
                doc["tool"].get("name") != "hipmembench":
            left_out.append({"file": path, "why": "not a hipmembench document"})
        elif shape_problem(doc):
            left_out.append({"file": path, "why": shape_problem(doc)})
        elif (doc.get("settings") or {}).get("dry_run"):
            left_out.append({"file": path, "why": "a dry run: nothing measured"})
        elif doc.get("complete") is not True:
            left_out.append({"file": path, "why": "interrupted" if doc.get("interrupted")
                             else "did not complete"})
        else:
            used += 1
            gpus += gpus_of(path, doc)
        del doc
    if not used:
        fail_usage(f"no complete hipmembench document under {', '.join(a.paths)}"
                   + (f" ({len(left_out)} left out)" if left_out else ""))
    summary = {"threshold_pct": a.threshold, "documents": used, "gpus": len(gpus),
               "figures": summarize(gpus, a.threshold), "left_out": left_out}
    if output != "-":
        try:
            hmb_files.write_json_whole(output, summary)
        except OSError as e:
            fail_usage(f"{output}: cannot write the summary: {e.strerror}")
    print(table(summary) if a.format == "table" and output != "-" else json.dumps(summary, indent=1))
    outliers = sum(len(s["outliers"]) for s in summary["figures"])
    print(f"hmb_fleet.py: {used} documents, {len(gpus)} GPUs, {outliers} outlier(s)"
          + (f", {len(left_out)} file(s) left out" if left_out else "")
          + (f"; summary: {output}" if output != "-" else ""), file=sys.stderr)
    return 1 if outliers or left_out else 0


if __name__ == "__main__":
    CLI.run(main)
