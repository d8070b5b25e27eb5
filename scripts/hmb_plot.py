#!/usr/bin/env python3
"""hmb_plot.py - turn hipmembench JSON documents into PNG figures.

usage: hmb_plot.py [-o DIR] [--label NAME] RUN.json [RUN.json ...]

One figure per subject, written to DIR (default: plots/) as NAME-SUBJECT.png (or
SUBJECT.png without --label):
  memcpy-bandwidth   GB/s against copy size, log-log, a panel per direction: marker
                     and line by host memory kind, each system's link peak dashed
  overlap-speedup    pipeline speedup over serial against chunks, one panel per load:
                     line by streams, marker by host memory
  managed-variants   effective GB/s of each managed-memory case, a dot per size
  xnack-fault-cost   microseconds per page-fault touch, a dot per stride and order
  pool-cost          microseconds per iteration against allocation size, log-log, a
                     panel per loop shape, marker and line by allocator
  vmm-growth         time of each growth step against the buffer size it reached,
                     log-log, with each variant's total in the legend
Every system (document) is drawn on the same panels, in its own colour in every
figure (numbered #1, #2, ... in the legends, named there with its device and host),
on scales that hold every system's points; a document of several GPUs (--devices)
gives a system per GPU, named by its GPU. Labels and legends are never cut off (the
file is written to hold them: bbox_inches='tight'). A document that did not complete is
plotted and marked so; one without a device (no GPU was found) has nothing to plot
and is left out, with a warning. A subject with no ok results is left out. Needs
Python 3 and matplotlib (Debian: python3-matplotlib). Prints the files it wrote,
each whole (a temporary file renamed over it). Exit status: 0, 1 when nothing could
be plotted, 2 for bad usage or a file that cannot be read or is not a hipmembench
document of the expected types (one line naming it; never a traceback).
"""
import math
import os
import re
import sys

LIBDIR = os.path.dirname(os.path.realpath(__file__))  # make install writes its own
try:
    sys.path.insert(0, LIBDIR)
    import hmb_files  # reading, writing and the command line, as every script does
except ImportError as e:
    sys.exit(f"{sys.argv[0]}: cannot load hmb_files.py from {LIBDIR}: {e}")

# matplotlib, imported once the command line is read (need_matplotlib): --help and
# bad usage need none, and its absence is one line naming the package
plt = Line2D = FixedLocator = FuncFormatter = LogLocator = MaxNLocator = NullFormatter = None

DIRECTION_STYLES = {"h2d": "-", "d2h": "--", "d2d": ":"}  # the panels, in this order
KIND_STYLES = {"pageable": "-", "pinned": "--", "pinned reference": (0, (1, 1)),
               "registered": "-.", "write-combined": ":", "device": "-"}
KIND_MARKERS = {"pageable": "o", "pinned": "s", "pinned reference": "P", "registered": "^",
                "write-combined": "D", "device": "v"}
CYCLE = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
         "tab:pink", "tab:gray", "tab:olive", "tab:cyan"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">"]


CLI = hmb_files.Cli("hmb_plot.py")
fail = CLI.fail


def need_matplotlib():
    global plt, Line2D, FixedLocator, FuncFormatter, LogLocator, MaxNLocator, NullFormatter
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.lines import Line2D
        from matplotlib.ticker import (FixedLocator, FuncFormatter, LogLocator, MaxNLocator,
                                       NullFormatter)
    except ImportError as e:
        fail(f"needs matplotlib ({e}): install python3-matplotlib (Debian, Ubuntu), "
             "python3-matplotlib (Fedora) or `pip install matplotlib`")


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


# Parameters the figures read as numbers (sizes, counts) and their limits.
NUMBER_PARAMS = {"size": 2 ** 46, "start": 2 ** 46, "step": 2 ** 46, "streams": 10 ** 6,
                 "chunks": 10 ** 6}


def check(doc, path):
    """The fields the figures read, of the types they need; exit 2 naming the first
    that is not."""
    def bad(what):
        fail(f"{path}: {what}")
    for key in ("device", "host"):
        if doc.get(key) is not None and not isinstance(doc[key], dict):
            bad(f"{key} is not an object")
    link = (doc.get("device") or {}).get("pcie_link")
    if link is not None and not isinstance(link, dict):
        bad("device.pcie_link is not an object")
    for i, r in enumerate(doc["results"]):
        where = f"results[{i}]"
        if not isinstance(r, dict):
            bad(f"{where} is not an object")
        for k in ("module", "case", "status"):
            if not isinstance(r.get(k), str):
                bad(f"{where}.{k} is not a string")
        if r["status"] != "ok":
            continue
        params = r.get("params", {})
        if not isinstance(params, dict):
            bad(f"{where}.params is not an object")
        for k, top in NUMBER_PARAMS.items():
            if k in params and not (is_number(params[k]) and 0 <= params[k] <= top):
                bad(f"{where}.params.{k} is not a number from 0 to {top}")
        for k in ("gbps_median", "us_per_op_median", "peak_gbps"):
            if r.get(k) is not None and not (is_number(r[k]) and r[k] >= 0):
                bad(f"{where}.{k} is not a number of at least 0")
        samples = r.get("samples_s", [])
        if not isinstance(samples, list) or not all(is_number(v) for v in samples):
            bad(f"{where}.samples_s is not a list of numbers")
        metrics = r.get("metrics", {})
        if metrics is not None and not isinstance(metrics, dict):
            bad(f"{where}.metrics is not an object")
        for name, m in (metrics or {}).items():
            if not isinstance(m, dict) or (m.get("value") is not None and not is_number(m["value"])):
                bad(f"{where}.metrics.{name} is not {{\"value\": number, \"unit\": string}}")


def load(path):
    doc = CLI.read_json(path)
    if not isinstance(doc, dict) or not isinstance(doc.get("tool"), dict) or \
            doc["tool"].get("name") != "hipmembench" or not isinstance(doc.get("results"), list):
        fail(f"{path}: not a hipmembench document")
    check(doc, path)
    dev = doc.get("device") or {}
    host = (doc.get("host") or {}).get("hostname") or "?"
    doc["_path"] = path
    doc["_system"] = f"{dev.get('name', 'no device')} on {host}"
    if not doc.get("complete"):
        doc["_system"] += " [incomplete]"
    return doc


def gpu_of(r):
    """The GPU a record ran on where a document holds several (params.device), or None."""
    p = r.get("params")
    return p["device"] if isinstance(p, dict) and is_number(p.get("device")) else None


def per_gpu(doc):
    """A document of several GPUs (--devices) as one per GPU, each named by its GPU,
    so that each GPU is a system of its own (a colour) rather than points falling
    unlabelled on the other's; records of no one GPU go with each."""
    gpus = sorted({gpu_of(r) for r in doc["results"] if isinstance(r, dict)} - {None})
    if len(gpus) < 2:
        return [doc]
    views = []
    for g in gpus:
        view = dict(doc)
        view["results"] = [r for r in doc["results"] if gpu_of(r) in (None, g)]
        view["_system"] = f"{doc['_system']}, GPU {g:g}"
        views.append(view)
    return views


def ok_results(doc, module):
    return [r for r in doc["results"] if r.get("module") == module and r.get("status") == "ok"
            and isinstance(r.get("params"), dict)]


def size_label(n):
    n = int(n)
    for unit, shift in (("T", 40), ("G", 30), ("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def size_axis(ax, lo, hi):
    """Log2 size axis with ticks 4K, 16K, 64K, ... 1G (every power of 4 in range)."""
    ax.set_xscale("log", base=2)
    ticks, t = [], 1
    while t <= hi * 1.01:
        if t >= lo / 1.01:
            ticks.append(t)
        t *= 4
    if len(ticks) < 5:  # a narrow range: every power of 2
        ticks, t = [], 1
        while t <= hi * 1.01:
            if t >= lo / 1.01:
                ticks.append(t)
            t *= 2
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: size_label(v)))
    ax.xaxis.set_minor_formatter(NullFormatter())


def number(v):
    return f"{v:g}"


def log_axis_1_2_5(axis):
    """Log axis ticks at 1, 2, 5 x 10^k written as plain numbers, or at every
    1..9 x 10^k where the range holds fewer than three of those. Call it once the
    data are drawn."""
    lo, hi = sorted(axis.get_view_interval())
    k = math.floor(math.log10(lo)) if lo > 0 else 0

    def inside(subs):
        return [m * 10.0 ** e for e in range(k, k + 40) for m in subs if lo <= m * 10.0 ** e <= hi]

    if len(inside((1, 2, 5))) >= 3:
        axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    elif len(inside(range(1, 10))) >= 3:
        axis.set_major_locator(LogLocator(base=10, subs=tuple(float(m) for m in range(1, 10))))
    else:  # less than a factor of 3: evenly spaced round numbers
        axis.set_major_locator(FixedLocator(MaxNLocator(5).tick_values(lo, hi)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: number(v)))
    axis.set_minor_formatter(NullFormatter())


def metric(r, name):
    m = (r.get("metrics") or {}).get(name)
    return m.get("value") if isinstance(m, dict) else None


def system_colour(k):
    """The colour of the k-th system (document, or GPU of one), the same in every figure."""
    return CYCLE[k % len(CYCLE)]


def system_handles(docs):
    return [Line2D([], [], color=system_colour(k), lw=2.5, label=f"#{k + 1} {d['_system']}")
            for k, d in enumerate(docs)]


def panels(n, width, height, sharey=False):
    """One row of n panels, the systems overlaid on each."""
    fig, axes = plt.subplots(1, n, figsize=(width * n, height), squeeze=False,
                             sharey=sharey, layout="constrained")
    return fig, axes[0]


def legend_below(fig, handles, ncol):
    """The legend in a strip below the panels, never over the data (and, the file
    written with bbox_inches='tight', never cut off)."""
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=max(1, ncol),
               fontsize=8, frameon=False)


def peak_lines(ax, peaks, what="peak"):
    """A dashed line at each system's peak ({k: GB/s}), one for systems of one peak,
    labelled at the left (where bandwidth against size is low)."""
    shared = {}
    for k, v in sorted(peaks.items()):
        key = next((p for p in shared if abs(p / v - 1) < 0.005), v)
        shared.setdefault(key, []).append(k)
    for v, ks in sorted(shared.items()):
        colour = system_colour(ks[0]) if len(ks) == 1 else "dimgray"
        ax.axhline(v, ls="--", lw=1, color=colour, alpha=0.8, gid="peak")
        who = "" if len(ks) == 1 and len(peaks) == 1 else \
            ", ".join(f"#{k + 1}" for k in ks) + ": "
        ax.annotate(f"{who}{what} {v:.1f} GB/s", (0.01, v), xycoords=("axes fraction", "data"),
                    xytext=(2, 3), textcoords="offset points", fontsize=8, va="bottom",
                    color=colour)


# ---- memcpy ---------------------------------------------------------------------

def memcpy_kind(r):
    """A memcpy record's kind of host memory, and "reference" for the reference loop."""
    kind = r["params"].get("host_memory", "?")
    return f"{kind} reference" if r["case"].endswith("/reference") else kind


def plot_memcpy(docs):
    dirs = [d for d in DIRECTION_STYLES if any(
        r["params"].get("direction") == d for doc in docs for r in ok_results(doc, "memcpy"))]
    if not dirs:
        return None
    fig, axes = panels(len(dirs), 6.4, 5.6)
    drawn, lo, hi, used, host_top, host_bottom = False, float("inf"), 0, [], 0, float("inf")
    for k, doc in enumerate(docs):
        series, peak = {}, {}
        for r in ok_results(doc, "memcpy"):
            p = r["params"]
            if r.get("gbps_median") and p.get("api", "hipMemcpyAsync") == "hipMemcpyAsync" \
                    and is_number(p.get("size")) and p["size"] > 0 and p.get("direction") in dirs:
                series.setdefault((p["direction"], memcpy_kind(r)), []).append(
                    (p["size"], r["gbps_median"]))
                if r.get("peak_gbps"):
                    peak[p["direction"]] = r["peak_gbps"]
        dev = doc.get("device") or {}
        clock, bus = dev.get("memory_clock_khz"), dev.get("memory_bus_width_bits")
        if "d2d" in dirs and is_number(clock) and is_number(bus) and clock > 0 and bus > 0:
            # a device copy reads and writes each byte: half the memory's peak
            peak["d2d"] = clock * 1e3 * 2 * bus / 8 / 1e9 / 2
        for (direction, kind), pts in sorted(series.items()):
            pts.sort()
            lo, hi = min(lo, pts[0][0]), max(hi, pts[-1][0])
            ax = axes[dirs.index(direction)]
            ax.plot([x for x, _ in pts], [y for _, y in pts], color=system_colour(k),
                    ls=KIND_STYLES.get(kind, "-."), marker=KIND_MARKERS.get(kind, "x"), ms=4,
                    lw=1.4, alpha=0.9)
            if kind not in used:
                used.append(kind)
            if direction != "d2d":
                host_top = max(host_top, max(y for _, y in pts))
                host_bottom = min(host_bottom, min(y for _, y in pts))
            drawn = True
        doc["_peaks"] = peak
    if not drawn:
        return None
    for direction, ax in zip(dirs, axes):
        peaks = {k: d["_peaks"][direction] for k, d in enumerate(docs)
                 if d["_peaks"].get(direction)}
        link = "link peak" if direction != "d2d" else "memory peak / 2"
        peak_lines(ax, peaks, link)
        ax.set_yscale("log")
        ax.set_xscale("log", base=2)
        ax.grid(True, which="major", alpha=0.3)
        ax.set_title(f"{direction}: hipMemcpyAsync" if direction != "d2d" else
                     "d2d: device to device", fontsize=10)
        ax.set_ylabel("GB/s (median, log scale)")
    # host directions on one scale, set once every system is drawn (holding each)
    host = [ax for d, ax in zip(dirs, axes) if d != "d2d"]
    if host and host_top:
        top = max([host_top] + [p for d in docs for k, p in d["_peaks"].items() if k != "d2d"])
        for ax in host:
            ax.set_ylim(host_bottom / 1.5, top * 1.5)
    for ax in axes:
        log_axis_1_2_5(ax.yaxis)
        size_axis(ax, lo, hi)
        ax.set_xlabel("copy size (log2)")
    handles = system_handles(docs)
    handles += [Line2D([], [], color="black", ls=KIND_STYLES.get(k, "-."),
                       marker=KIND_MARKERS.get(k, "x"), label=k) for k in used]
    legend_below(fig, handles, min(len(handles), 5))
    fig.suptitle("memcpy: bandwidth against copy size; system by colour, host memory kind by "
                 "marker and line", fontsize=12)
    return fig


# ---- overlap --------------------------------------------------------------------

def plot_overlap(docs):
    loads = []
    for doc in docs:
        for r in ok_results(doc, "overlap"):
            if r["case"].startswith("pipeline/") and r["params"].get("load") not in loads:
                loads.append(r["params"].get("load"))
    if not loads:
        return None
    fig, axes = panels(len(loads), 5.4, 4.8, sharey=True)
    streams_seen, chunks_seen, kinds_seen = set(), set(), []
    for k, doc in enumerate(docs):
        colour = system_colour(k)
        by, ideal = {}, {}
        for r in ok_results(doc, "overlap"):
            p = r["params"]
            s = metric(r, "speedup")
            if s is None or not r["case"].startswith("pipeline/"):
                continue
            kind = p.get("host_memory", "?")
            by.setdefault((p.get("load"), kind, int(p.get("streams", 1))), []).append(
                (int(p.get("chunks", 1)), s))
            if metric(r, "ideal_speedup"):
                ideal[(p.get("load"), kind)] = metric(r, "ideal_speedup")
        for col, load in enumerate(loads):
            ax = axes[col]
            for (ld, kind, streams), pts in sorted(by.items()):
                if ld != load:
                    continue
                pts.sort()
                streams_seen.add(streams)
                if kind not in kinds_seen:
                    kinds_seen.append(kind)
                ax.plot([c for c, _ in pts], [s for _, s in pts], color=colour,
                        ls=stream_style(streams), lw=1.3, alpha=0.85,
                        marker="o" if kind == "pinned" else "s", ms=5,
                        markerfacecolor=colour if kind == "pinned" else "none")
                chunks_seen.update(c for c, _ in pts)
            for (ld, kind), v in ideal.items():
                if ld == load:
                    ax.axhline(v, color=colour, lw=1, ls=(0, (1, 3)), alpha=0.7)
    for col, load in enumerate(loads):
        ax = axes[col]
        ax.axhline(1.0, color="black", lw=0.8)
        ax.set_title(f"load {load}", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(FixedLocator(sorted(chunks_seen)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("chunks (log2)")
    axes[0].set_ylabel("speedup over serial (x)")
    handles = system_handles(docs)
    handles += [Line2D([], [], color="black", ls=stream_style(s),
                       label=f"{s} stream{'s' if s > 1 else ''}") for s in sorted(streams_seen)]
    handles += [Line2D([], [], color="black", ls="none", marker="o" if k == "pinned" else "s",
                       markerfacecolor="black" if k == "pinned" else "none",
                       label=f"{k} host memory") for k in kinds_seen]
    handles += [Line2D([], [], color="black", ls=(0, (1, 3)), label="ideal speedup")]
    legend_below(fig, handles, min(len(handles), 6))
    fig.suptitle("overlap: pipelined H2D + kernel + D2H against the same work done serially; "
                 "system by colour", fontsize=12)
    return fig


STREAM_STYLES = {1: "-.", 2: "-", 3: (0, (5, 1, 1, 1)), 4: "--", 8: (0, (8, 2)),
                 16: (0, (2, 1))}  # the ideal speedup is dotted


def stream_style(s):
    return STREAM_STYLES.get(s, (0, (3, 1, 1, 1, 1, 1)))


# ---- dot plots: managed, xnack ---------------------------------------------------

def dot_plot(docs, module, value, xlabel, title, group, label=str):
    """Cases down the side, a dot per system (colour) and group (marker, e.g. size)
    across, the systems side by side in each row; x on a log scale."""
    rows, data = [], []
    for doc in docs:
        vals = {}
        for r in ok_results(doc, module):
            v = value(r)
            if v is None or not v > 0:
                continue
            vals.setdefault(r["case"], []).append((group(r), v))
            if r["case"] not in rows:
                rows.append(r["case"])
        data.append(vals)
    if not rows:
        return None
    groups = sorted({g for vals in data for pts in vals.values() for g, _ in pts})
    fig, ax = plt.subplots(figsize=(11, 0.34 * len(rows) * max(1, len(docs) ** 0.5) + 2.2),
                           layout="constrained")
    for j in range(len(rows)):
        ax.axhline(j, color="lightgrey", lw=0.6, zorder=0)
    for k, vals in enumerate(data):
        band = 0.6 * (k - (len(docs) - 1) / 2) / max(len(docs), 2)
        for j, case in enumerate(rows):
            for g, v in vals.get(case, []):
                m = groups.index(g)
                dodge = band + 0.25 * (m - (len(groups) - 1) / 2) / max(len(groups), 2) / \
                    max(len(docs), 1)
                ax.plot([v], [j + dodge], ls="none", marker=MARKERS[m % len(MARKERS)], ms=6,
                        color=system_colour(k), alpha=0.9)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows, fontsize=8)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.grid(True, axis="x", alpha=0.3)
    log_axis_1_2_5(ax.xaxis)
    handles = system_handles(docs)
    handles += [Line2D([], [], ls="none", marker=MARKERS[m % len(MARKERS)], ms=7, color="black",
                       label=label(g)) for m, g in enumerate(groups)]
    legend_below(fig, handles, min(len(handles), 6))
    fig.suptitle(title, fontsize=12)
    return fig


def plot_managed(docs):
    return dot_plot(docs, "managed", lambda r: r.get("gbps_median"),
                    "effective GB/s (median, log scale)",
                    "managed memory: effective bandwidth of each case; system by colour, "
                    "buffer size by marker",
                    lambda r: r["params"].get("size", 0), label=size_label)


def plot_xnack(docs):
    """Fault latency (one touch waiting for its own fault) by stride and order; the
    throughput figure (all touches in flight) has another unit and its own records."""
    return dot_plot(docs, "xnack", lambda r: metric(r, "us_per_fault"),
                    "µs per fault (log scale): (dependent chain on faulting pages - the same "
                    "chain on resident pages) / touches",
                    "xnack: GPU page-fault latency, one touch at a time; system by colour, "
                    "buffer size by marker",
                    lambda r: r["params"].get("size", 0), label=size_label)


# ---- pool -----------------------------------------------------------------------

def loop_shape(r):
    """Panel title of a pool result: the loop's shape where the document names it
    (params.shape), and whether a kernel runs on each allocation."""
    p = r["params"]
    parts = []
    if p.get("shape"):
        parts.append(str(p["shape"]))
    kernel = p.get("kernel")
    if kernel is True or r["case"].endswith("/loop"):
        parts.append("alloc + kernel + free per iteration")
    elif kernel is False or r["case"].endswith("/alloc-free"):
        parts.append("alloc + free per iteration, no kernel")
    return "; ".join(parts) or r["case"].split("/")[-1]


def plot_pool(docs):
    shapes, allocators = [], []
    for doc in docs:
        for r in ok_results(doc, "pool"):
            if r.get("us_per_op_median"):
                if loop_shape(r) not in shapes:
                    shapes.append(loop_shape(r))
                if r["params"].get("allocator") not in allocators:
                    allocators.append(r["params"].get("allocator"))
    if not shapes:
        return None
    fig, axes = panels(len(shapes), 6.0, 5.0, sharey=True)
    lo, hi = float("inf"), 0
    for k, doc in enumerate(docs):
        series = {}
        for r in ok_results(doc, "pool"):
            if r.get("us_per_op_median"):
                key = (loop_shape(r), r["params"].get("allocator"))
                series.setdefault(key, []).append((r["params"]["size"], r["us_per_op_median"]))
        for col, shape in enumerate(shapes):
            ax = axes[col]
            for (sh, alloc), pts in sorted(series.items(), key=lambda kv: allocators.index(kv[0][1])):
                if sh != shape:
                    continue
                pts.sort()
                lo, hi = min(lo, pts[0][0]), max(hi, pts[-1][0])
                a = allocators.index(alloc)
                ax.plot([x for x, _ in pts], [y for _, y in pts], color=system_colour(k),
                        ls=LINE_STYLES[a % len(LINE_STYLES)], marker=MARKERS[a % len(MARKERS)],
                        ms=5, lw=1.3, alpha=0.9)
    for col, shape in enumerate(shapes):
        ax = axes[col]
        ax.set_yscale("log")
        ax.grid(True, which="major", alpha=0.3)
        ax.set_title(shape, fontsize=9)
        size_axis(ax, lo, hi)
        ax.set_xlabel("allocation size (log2)")
    axes[0].set_ylabel("µs per iteration (median, log scale)")
    log_axis_1_2_5(axes[0].yaxis)
    handles = system_handles(docs)
    handles += [Line2D([], [], color="black", ls=LINE_STYLES[a % len(LINE_STYLES)],
                       marker=MARKERS[a % len(MARKERS)],
                       label="kernel only, no allocation (baseline)" if x == "kernel-only" else x)
                for a, x in enumerate(allocators)]
    legend_below(fig, handles, min(len(handles), 5))
    fig.suptitle("pool: cost of one loop iteration by allocator; system by colour, allocator "
                 "by marker and line", fontsize=12)
    return fig


LINE_STYLES = ["-", "--", "-.", ":", (0, (5, 1, 1, 1)), (0, (8, 2)), (0, (1, 1))]


# ---- vmm ------------------------------------------------------------------------

def step_sizes(params, n):
    """The buffer size reached at each of n growth steps, or None if the document
    does not say enough to know it."""
    start, size, step = params.get("start"), params.get("size"), params.get("step")
    if not start or not size:
        return None
    out, cur = [], start
    for _ in range(n):
        if params.get("policy") == "doubling":
            cur = min(cur * 2, size)
        elif step:
            cur = min(cur + step, size)
        else:
            return None
        out.append(cur)
    return out


def ms(s):
    return f"{s * 1e3:.3g} ms" if s < 1 else f"{s:.3g} s"


def plot_vmm(docs):
    fig, ax = plt.subplots(figsize=(12, 6), layout="constrained")
    drawn, lo, hi, variants, policies = False, float("inf"), 0, [], []
    handles = []
    for k, doc in enumerate(docs):
        for r in ok_results(doc, "vmm"):
            if not r["case"].startswith("grow/") or not r.get("samples_s"):
                continue
            parts = r["case"].split("/")
            variant = parts[1] if len(parts) > 1 else r["case"]
            policy = r["params"].get("policy") or (parts[2] if len(parts) > 2 else "")
            xs = step_sizes(r["params"], len(r["samples_s"]))
            if xs is None:
                continue
            if variant not in variants:
                variants.append(variant)
            if policy not in policies:
                policies.append(policy)
            v = variants.index(variant)
            total = metric(r, "total_s")
            if total is None:
                total = sum(r["samples_s"])
            ax.plot(xs, [s * 1e3 for s in r["samples_s"]], color=system_colour(k),
                    ls=LINE_STYLES[v % len(LINE_STYLES)],
                    marker="o" if policy == "doubling" else None, ms=5, lw=1.2)
            handles.append(Line2D([], [], color=system_colour(k),
                                  ls=LINE_STYLES[v % len(LINE_STYLES)],
                                  marker="o" if policy == "doubling" else None,
                                  label=f"#{k + 1} {variant}, {policy}: total {ms(total)}"))
            lo, hi = min(lo, min(xs)), max(hi, max(xs))
            drawn = True
    if not drawn:
        plt.close(fig)
        return None
    ax.set_yscale("log")
    ax.grid(True, which="major", alpha=0.3)
    ax.set_ylabel("ms per growth step (log scale)")
    log_axis_1_2_5(ax.yaxis)
    size_axis(ax, lo, hi)
    ax.set_xlabel("buffer size after the step (log2)")
    systems = [Line2D([], [], color=system_colour(k), lw=2.5, label=f"#{k + 1} {d['_system']}")
               for k, d in enumerate(docs)]
    ax.legend(handles=systems + handles, title="system; variant, policy: total time to grow",
              fontsize=8, title_fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              frameon=False)
    fig.suptitle("vmm: growing a device buffer, time of each step against the size it "
                 "reached; system by colour", fontsize=12)
    return fig


SUBJECTS = [
    ("memcpy-bandwidth", plot_memcpy),
    ("overlap-speedup", plot_overlap),
    ("managed-variants", plot_managed),
    ("xnack-fault-cost", plot_xnack),
    ("pool-cost", plot_pool),
    ("vmm-growth", plot_vmm),
]


def out_folder(path):
    """-o: a folder, made where missing; exit 2 naming why it cannot be."""
    if os.path.exists(path) and not os.path.isdir(path):
        fail(f"-o {path}: not a folder")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        fail(f"-o {path}: cannot make the folder: {e.strerror or e}")


def documents(paths):
    """The systems to plot, a document or a GPU of one each (per_gpu): those of failed runs
    left out or marked, saying so."""
    docs = []
    for path in paths:
        doc = load(path)
        if not doc.get("device"):
            print(f"hmb_plot.py: {path}: failed run (no device): nothing to plot, left out",
                  file=sys.stderr)
            continue
        if not doc.get("complete"):
            print(f"hmb_plot.py: {path}: failed run (did not complete): plotting what it "
                  "measured", file=sys.stderr)
        docs.extend(per_gpu(doc))
    return docs


def main(argv):
    ap = CLI.parser(description="hipmembench JSON to PNG figures")
    ap.add_argument("-o", "--out", default="plots", help="folder for the PNG files")
    ap.add_argument("--label", help="name the files LABEL-SUBJECT.png")
    ap.add_argument("files", nargs="+", help="hipmembench JSON documents")
    args = ap.parse_args(argv[1:])
    if args.label is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", args.label):
        fail(f"--label '{args.label}': letters, digits, '.', '_' and '-' only")
    docs = documents(args.files)
    if not docs:
        fail("no document with results to plot", 1)
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        fail(f"-o {args.out}: not a folder")
    need_matplotlib()
    out_folder(args.out)
    wrote = 0
    for name, fn in SUBJECTS:
        try:
            fig = fn(docs)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError,
                ZeroDivisionError) as e:  # a shape check() does not foresee: named, not a trace
            fail(f"cannot draw {name} from these documents: {type(e).__name__}: {e}")
        if fig is None:
            continue
        path = os.path.join(args.out, f"{args.label}-{name}.png" if args.label else f"{name}.png")
        CLI.write_png(fig, path)
        print(path)
        wrote += 1
    if not wrote:
        fail("no ok results of any plotted module", 1)
    return 0


if __name__ == "__main__":
    CLI.run(main)
