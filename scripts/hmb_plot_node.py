#!/usr/bin/env python3
"""hmb_plot_node.py - figures of the node module from a hipmembench JSON document.

usage: hmb_plot_node.py [-o DIR] RUN.json

Drawn from the records of a real run (`hipmembench node` or `all`, --output), never
from figures typed in: each value is the record's own median figure.
  node-p2p-matrix.png     heatmaps of the peer-to-peer figures, rows source GPU,
                          columns destination GPU: GB/s of p2p/ce/write, ce/read,
                          ce-disabled/write, sm/read, sm/write, and ns per load of
                          p2p/latency (its diagonal: device/latency, the GPU's own memory)
  node-host-aggregate.png host bandwidth per direction: every GPU alone (stacked, their
                          sum) against all GPUs at once (stacked by each GPU's GB/s
                          while all copy, from the in-all records), local NUMA placement
A figure with nothing to draw is left out. Needs Python 3 and matplotlib (Debian:
python3-matplotlib). Prints the files it wrote, each whole (a temporary file renamed
over it); exit 1 when the document has no node results, 2 for bad usage or a file
that cannot be read or is not a hipmembench document of the expected types (one
line naming it; never a traceback).
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


def plot_matrices(results, title, path):
    n = gpu_count(results)
    drawn = [(c, u, matrix(results, c, u, n)) for c, u in MATRICES]
    drawn = [d for d in drawn if any(not math.isnan(v) for row in d[2] for v in row)]
    if not drawn or n < 1:
        return False
    cols = min(3, len(drawn))
    rows = (len(drawn) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 4.2 * rows), squeeze=False)
    for ax in axes.flat[len(drawn):]:
        ax.remove()
    for ax, (case, unit, m) in zip(axes.flat, drawn):
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
        ax.set_title(case, fontsize=10)
    fig.suptitle(f"{title}: peer-to-peer, rows source, columns destination", fontsize=11)
    fig.tight_layout()
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


def plot_aggregate(results, title, path):
    bars = []
    for d in DIRECTIONS:
        alone = by_gpu(results, f"host/{d}/alone")
        in_all = by_gpu(results, f"host/{d}/in-all")
        total = [r.get("gbps_median") for r in results if r["case"] == f"host/{d}/all"]
        if alone or total:
            bars.append((d, alone, in_all, total[0] if total else None))
    if not bars:
        return False
    gpus = sorted({g for _, a, i, _ in bars for g in list(a) + list(i)})
    colours = plt.get_cmap("tab10")
    fig, ax = plt.subplots(figsize=(max(6, 2.6 * len(bars)), 5))
    width = 0.38
    for x, (d, alone, in_all, total) in enumerate(bars):
        for offset, parts, whole in ((-width / 2, alone, None), (width / 2, in_all, total)):
            bottom = 0.0
            for k, g in enumerate(gpus):
                if g in parts:
                    ax.bar(x + offset, parts[g], width, bottom=bottom, color=colours(k % 10),
                           edgecolor="white", label=f"gpu{g}" if x == 0 and offset < 0 else None)
                    bottom += parts[g]
            if whole and not parts:
                ax.bar(x + offset, whole, width, color="grey", edgecolor="white")
            if whole:
                ax.hlines(whole, x + offset - width / 2, x + offset + width / 2, colors="black",
                          lw=2, label="measured total (host/*/all)" if x == 0 else None)
            top = whole if whole else bottom
            if top:
                ax.text(x + offset, max(top, bottom), f"{top:.0f}", ha="center", va="bottom",
                        fontsize=8)
        ax.text(x - width / 2, 0, "alone", ha="center", va="bottom", fontsize=7, color="white")
        ax.text(x + width / 2, 0, "all at once", ha="center", va="bottom", fontsize=7,
                color="white")
    ax.set_xticks(range(len(bars)), [b[0] for b in bars])
    ax.set_ylabel("GB/s (1e9 bytes/s)")
    ax.set_title(f"{title}: host bandwidth, each GPU alone (summed) vs all GPUs at once\n"
                 "all-at-once segments: each GPU's GB/s while all copy (host/*/in-all)",
                 fontsize=10)
    ax.grid(True, axis="y", alpha=0.3)
    if gpus:
        ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    CLI.write_png(fig, path)
    return True


def main(argv):
    ap = CLI.parser(description="node module figures from a hipmembench document")
    ap.add_argument("-o", "--out", default="plots", help="folder for the PNG files")
    ap.add_argument("file", help="a hipmembench JSON document with node results")
    args = ap.parse_args(argv[1:])
    doc = load(args.file)
    results = node_ok(doc)
    if not results:
        print(f"hmb_plot_node.py: {args.file}: no node results", file=sys.stderr)
        return 1
    dev = doc.get("device") or {}
    title = f"{(doc.get('host') or {}).get('hostname', '?')}, {dev.get('name', '?')}"
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
            drawn = fn(results, title, path)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError,
                ZeroDivisionError) as e:  # a shape check() does not foresee: named, not a trace
            fail(f"cannot draw {name} from {args.file}: {type(e).__name__}: {e}")
        if drawn:
            print(path)
    return 0


if __name__ == "__main__":
    CLI.run(main)
