#!/usr/bin/env python3
"""hmb_plot_node.py - figures of the node module from a hipmembench JSON document.

usage: hmb_plot_node.py [-o DIR] RUN.json [RUN.json ...]

Drawn from the records of real runs (`hipmembench node` or `all`, --output), never
from figures typed in: each value is the record's own median figure.
  node-p2p-matrix.png     heatmaps of the peer-to-peer figures, rows source GPU,
                          columns destination GPU: GB/s of p2p/ce/write, ce/read,
                          ce-disabled/write, sm/read, sm/write, and ns per load of
                          p2p/latency (its diagonal: device/latency, the GPU's own memory);
                          a row of them per system of several GPUs
  node-host-aggregate.png host bandwidth per direction, every system side by side in its
                          colour: every GPU alone (stacked, their sum, lighter) against all
                          GPUs at once (stacked by each GPU's GB/s while all copy, from the
                          in-all records), local NUMA placement, and the measured total
A figure with nothing to draw is left out; labels are never cut off (the file is
written to hold them: bbox_inches='tight'). Needs Python 3 and matplotlib (Debian:
python3-matplotlib). Prints the files it wrote, each whole (a temporary file renamed
over it); exit 1 when no document has node results, 2 for bad usage or a file that
cannot be read or is not a hipmembench document of the expected types (one line
naming it; never a traceback).
"""
import math
import os
import sys

LIBDIR = os.path.dirname(os.path.realpath(__file__))  # make install writes its own
try:
    sys.path.insert(0, LIBDIR)
    import hmb_files  # reading, writing and the command line, as every script does
except ImportError as e:
    sys.exit(f"{sys.argv[0]}: cannot load hmb_files.py from {LIBDIR}: {e}")

plt = None  # matplotlib.pyplot, imported once the command line is read (need_matplotlib)

MATRICES = [
    ("p2p/ce/write", "GB/s"),
    ("p2p/ce/read", "GB/s"),
    ("p2p/ce-disabled/write", "GB/s"),
    ("p2p/sm/read", "GB/s"),
    ("p2p/sm/write", "GB/s"),
    ("p2p/latency", "ns"),
]
DIRECTIONS = ["h2d", "d2h", "bidir"]


CLI = hmb_files.Cli("hmb_plot_node.py")
fail = CLI.fail


def need_matplotlib():
    global plt
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        fail(f"needs matplotlib ({e}): install python3-matplotlib (Debian, Ubuntu, Fedora) "
             "or `pip install matplotlib`")


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


MAX_GPU = 1023  # GPU ordinals, as hipmembench --devices takes them


def check(doc, path):
    """What the figures read of the node results, of the types they need; exit 2
    naming the first field that is not."""
    def bad(what):
        fail(f"{path}: {what}")
    for key in ("device", "host"):
        if doc.get(key) is not None and not isinstance(doc[key], dict):
            bad(f"{key} is not an object")
    for i, r in enumerate(doc["results"]):
        where = f"results[{i}]"
        if not isinstance(r, dict):
            bad(f"{where} is not an object")
        if r.get("module") != "node" or r.get("status") != "ok":
            continue
        if not isinstance(r.get("case"), str):
            bad(f"{where}.case is not a string")
        params = r.get("params", {})
        if not isinstance(params, dict):
            bad(f"{where}.params is not an object")
        for k in ("src", "dst", "gpu"):
            v = params.get(k)
            if v is not None and not (is_number(v) and v == int(v) and 0 <= v <= MAX_GPU):
                bad(f"{where}.params.{k} is not a GPU ordinal from 0 to {MAX_GPU}")
        if r.get("gbps_median") is not None and not (is_number(r["gbps_median"]) and
                                                     r["gbps_median"] >= 0):
            bad(f"{where}.gbps_median is not a number of at least 0")
        metrics = r.get("metrics", {})
        if metrics is not None and not isinstance(metrics, dict):
            bad(f"{where}.metrics is not an object")
        for name, m in (metrics or {}).items():
            if not isinstance(m, dict) or (m.get("value") is not None and
                                           not is_number(m["value"])):
                bad(f"{where}.metrics.{name} is not {{\"value\": number, \"unit\": string}}")


def load(path):
    """The document, checked; one line and exit 2 where it cannot be read (a FIFO or a
    device that may never end, nesting too deep, NaN) or is not hipmembench's."""
    doc = CLI.read_json(path)
    if not isinstance(doc, dict) or not isinstance(doc.get("tool"), dict) or \
            doc["tool"].get("name") != "hipmembench" or not isinstance(doc.get("results"), list):
        fail(f"{path}: not a hipmembench document")
    check(doc, path)
    return doc


def node_ok(doc):
    return [r for r in doc["results"] if r.get("module") == "node" and r.get("status") == "ok"]


def value(r, unit):
    """The record's figure: GB/s of the median, or ns per load of a chase."""
    if unit == "ns":
        m = (r.get("metrics") or {}).get("ns_per_load")
        return m.get("value") if m else None
    return r.get("gbps_median")


def gpu_count(results):
    n = 0
    for r in results:
        for key in ("src", "dst", "gpu"):
            v = r.get("params", {}).get(key)
            if isinstance(v, (int, float)):
                n = max(n, int(v) + 1)
    return n


def matrix(results, case, unit, n):
    m = [[math.nan] * n for _ in range(n)]
    for r in results:
        p = r.get("params", {})
        v = value(r, unit)
        if v is None:
            continue
        if r["case"] == case and "src" in p and "dst" in p:
            m[int(p["src"])][int(p["dst"])] = v
        elif case == "p2p/latency" and r["case"] == "device/latency" and "gpu" in p:
            m[int(p["gpu"])][int(p["gpu"])] = v
    return m


CYCLE = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
         "tab:pink", "tab:gray", "tab:olive", "tab:cyan"]  # a system each, as hmb_plot.py


def system_colour(k):
    return CYCLE[k % len(CYCLE)]


def plot_matrices(systems, path):
    """systems: [(title, results)]; a row of heatmaps per system that has any."""
    rows = []
    for title, results in systems:
        n = gpu_count(results)
        drawn = [(c, u, matrix(results, c, u, n)) for c, u in MATRICES]
        drawn = [d for d in drawn if any(not math.isnan(v) for row in d[2] for v in row)]
        if drawn and n >= 1:
            rows.append((title, n, drawn))
    if not rows:
        return False
    cols = max(len(d) for _, _, d in rows)
    fig, axes = plt.subplots(len(rows), cols, figsize=(4.4 * cols, 4.4 * len(rows)),
                             squeeze=False, layout="constrained")
    for (title, n, drawn), line in zip(rows, axes):
        for ax in line[len(drawn):]:
            ax.remove()
        for ax, (case, unit, m) in zip(line, drawn):
            finite = [v for row in m for v in row if not math.isnan(v)]
            im = ax.imshow(m, cmap="viridis_r" if unit == "ns" else "viridis", vmin=0,
                           vmax=max(finite))
            fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label=unit)
            mid = max(finite) / 2
            for i in range(n):
                for j in range(n):
                    v = m[i][j]
                    text = "-" if math.isnan(v) else f"{v:.0f}" if v >= 100 else f"{v:.1f}"
                    dark = not math.isnan(v) and ((v < mid) != (unit == "ns"))
                    ax.text(j, i, text, ha="center", va="center", fontsize=8,
                            color="white" if dark else "black")
            ax.set_xticks(range(n), [f"gpu{j}" for j in range(n)])
            ax.set_yticks(range(n), [f"gpu{i}" for i in range(n)])
            ax.set_xlabel("destination" if unit != "ns" else "reader (destination)")
            ax.set_ylabel("source" if unit != "ns" else "memory of (source)")
            ax.set_title(f"{title}\n{case}", fontsize=9)
    fig.suptitle("peer to peer: rows source, columns destination", fontsize=11)
    CLI.write_png(fig, path)
    return True


def by_gpu(results, case):
    out = {}
    for r in results:
        p = r.get("params", {})
        if r["case"] == case and p.get("placement", "local") == "local" and "gpu" in p \
                and r.get("gbps_median"):
            out[int(p["gpu"])] = r["gbps_median"]
    return out


def plot_aggregate(systems, path):
    """systems: [(title, results)]; per direction, each system's GPUs alone against all
    at once, side by side, in the system's colour."""
    bars = {}  # (direction, system index) -> (alone, in_all, total)
    for k, (_, results) in enumerate(systems):
        for d in DIRECTIONS:
            alone = by_gpu(results, f"host/{d}/alone")
            in_all = by_gpu(results, f"host/{d}/in-all")
            total = [r.get("gbps_median") for r in results if r["case"] == f"host/{d}/all"]
            if alone or total:
                bars[(d, k)] = (alone, in_all, total[0] if total else None)
    if not bars:
        return False
    dirs = [d for d in DIRECTIONS if any(key[0] == d for key in bars)]
    shown = sorted({k for _, k in bars})
    fig, ax = plt.subplots(figsize=(max(7, 1.6 * len(dirs) * len(shown) + 2), 5.4),
                           layout="constrained")
    width = 0.8 / (2 * len(shown))
    for x, d in enumerate(dirs):
        for s, k in enumerate(shown):
            if (d, k) not in bars:
                continue
            alone, in_all, total = bars[(d, k)]
            base = x - 0.4 + width * 2 * s + width / 2
            for offset, parts, whole, light in ((0, alone, None, True),
                                                (width, in_all, total, False)):
                bottom = 0.0
                for g in sorted(parts):
                    ax.bar(base + offset, parts[g], width, bottom=bottom, color=system_colour(k),
                           alpha=0.45 if light else 1, edgecolor="white")
                    bottom += parts[g]
                if whole and not parts:
                    ax.bar(base + offset, whole, width, color=system_colour(k), edgecolor="white")
                if whole:
                    ax.hlines(whole, base + offset - width / 2, base + offset + width / 2,
                              colors="black", lw=2)
                top = whole if whole else bottom
                summed = sum(alone.values())
                label = f"{top:.0f}" if light or not summed else \
                    f"{top:.0f}\n{100 * top / summed:.0f}%"
                if top:
                    ax.text(base + offset, max(top, bottom), label, ha="center", va="bottom",
                            fontsize=8)
    ax.set_xticks(range(len(dirs)), dirs)
    ax.set_ylabel("GB/s (1e9 bytes/s)")
    ax.grid(True, axis="y", alpha=0.3)
    from matplotlib.patches import Patch
    from matplotlib.lines import Line2D
    handles = [Patch(color=system_colour(k), label=f"#{k + 1} {systems[k][0]}") for k in shown]
    handles += [Patch(facecolor="grey", alpha=0.45, label="each GPU alone, stacked (their sum)"),
                Patch(facecolor="grey", label="all GPUs at once, stacked by each GPU's GB/s "
                      "(host/*/in-all)"),
                Line2D([], [], color="black", lw=2, label="measured total (host/*/all)")]
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2,
               fontsize=8, frameon=False)
    ax.set_title("host bandwidth: each GPU alone (summed, lighter) against all GPUs at once\n"
                 "(its share of the GPUs alone under its total); system by colour", fontsize=10)
    CLI.write_png(fig, path)
    return True


def title_of(doc, results):
    dev = doc.get("device") or {}
    n = gpu_count(results)
    gpus = f"{n}x " if n > 1 else ""
    return f"{(doc.get('host') or {}).get('hostname', '?')}, {gpus}{dev.get('name', '?')}"


def main(argv):
    ap = CLI.parser(description="node module figures from hipmembench documents")
    ap.add_argument("-o", "--out", default="plots", help="folder for the PNG files")
    ap.add_argument("files", nargs="+", metavar="file",
                    help="hipmembench JSON documents with node results")
    args = ap.parse_args(argv[1:])
    systems = []
    for path in args.files:
        doc = load(path)
        results = node_ok(doc)
        if not results:
            print(f"hmb_plot_node.py: {path}: no node results", file=sys.stderr)
            continue
        systems.append((title_of(doc, results), results))
    if not systems:
        return 1
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        fail(f"-o {args.out}: not a folder")
    need_matplotlib()
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        fail(f"-o {args.out}: cannot make the folder: {e.strerror or e}")
    for name, fn in (("node-p2p-matrix", plot_matrices), ("node-host-aggregate", plot_aggregate)):
        path = os.path.join(args.out, f"{name}.png")
        try:
            drawn = fn(systems, path)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError,
                ZeroDivisionError) as e:  # a shape check() does not foresee: named, not a trace
            fail(f"cannot draw {name} from {', '.join(args.files)}: {type(e).__name__}: {e}")
        if drawn:
            print(path)
    return 0


if __name__ == "__main__":
    CLI.run(main)
