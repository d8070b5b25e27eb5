#!/usr/bin/env python3
"""hmb_plot.py - turn hipmembench JSON documents into PNG figures.

usage: hmb_plot.py [-o DIR] RUN.json [RUN.json ...]

One figure per subject, each written to DIR (default: plots/) and named after it:
  memcpy-bandwidth.png   GB/s against copy size, per direction and host memory kind
  overlap-speedup.png    pipeline speedup against chunks, per load and stream count
  managed-variants.png   effective GB/s of each managed-memory case
  xnack-fault-cost.png   microseconds per page-fault touch, per stride and order
  pool-cost.png          microseconds per loop iteration, per allocator and size
  vmm-growth.png         time of each growth step, per variant
Several documents (systems) share the same axes; the legend names each by host and
device. A subject with no ok results in any document is left out. Needs Python 3 and
matplotlib (Debian: python3-matplotlib). Prints the files it wrote.
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"hmb_plot.py: {path}: not a readable JSON document: {e}")
    if not isinstance(doc, dict) or doc.get("tool", {}).get("name") != "hipmembench":
        sys.exit(f"hmb_plot.py: {path}: not a hipmembench document")
    dev = doc.get("device") or {}
    doc["_system"] = f"{doc.get('host', {}).get('hostname', '?')}: {dev.get('name', 'no device')}"
    return doc


def ok_results(doc, module):
    return [r for r in doc["results"] if r["module"] == module and r["status"] == "ok"]


def size_label(n):
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(int(n))


def metric(r, name):
    m = r.get("metrics", {}).get(name)
    return m["value"] if m else None


def system_prefix(docs, doc):
    return f"{doc['_system']} " if len(docs) > 1 else ""


def plot_memcpy(docs, ax):
    """Host<->device copies (left, against the PCIe peak) and d2d (right)."""
    fig = ax.figure
    ax.remove()
    host_ax, d2d_ax = fig.subplots(1, 2, gridspec_kw={"width_ratios": [2, 1]})
    drawn = False
    for doc in docs:
        series, peak = {}, None
        for r in ok_results(doc, "memcpy"):
            if r.get("gbps_median") and r["params"].get("api") == "hipMemcpyAsync":
                series.setdefault(r["case"], []).append((r["params"]["size"], r["gbps_median"]))
                peak = r.get("peak_gbps") or peak
        for case, pts in sorted(series.items()):
            pts.sort()
            target = d2d_ax if case.startswith("d2d") else host_ax
            target.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3,
                        label=system_prefix(docs, doc) + case)
            drawn = True
        if peak:
            host_ax.axhline(peak, ls="--", lw=0.8, color="grey")
            host_ax.annotate(f"PCIe peak {peak:.1f} GB/s", (0.01, peak), fontsize=7,
                             xycoords=("axes fraction", "data"), va="bottom")
    for a, title in ((host_ax, "host <-> device (hipMemcpyAsync)"), (d2d_ax, "device -> device")):
        a.set_xscale("log", base=2)
        a.set_xlabel("copy size (bytes)")
        a.set_ylabel("GB/s (median)")
        a.set_title(title)
        a.grid(True, which="both", alpha=0.3)
        a.legend(fontsize=6, loc="best")
    fig.suptitle("memcpy: bandwidth by direction and host memory")
    return drawn


def plot_overlap(docs, ax):
    drawn = False
    for doc in docs:
        series = {}
        for r in ok_results(doc, "overlap"):
            s = metric(r, "speedup")
            if s is None or not r["case"].startswith("pipeline/"):
                continue
            key = f"{r['case'].split('/', 1)[1]}, {int(r['params']['streams'])} streams"
            series.setdefault(key, []).append((r["params"]["chunks"], s))
        for key, pts in sorted(series.items()):
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3,
                    label=system_prefix(docs, doc) + key)
            drawn = True
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("chunks")
    ax.set_ylabel("speedup over serial")
    ax.set_title("overlap: pipelined H2D + kernel + D2H vs serial")
    return drawn


def bar_chart(docs, ax, module, value, label):
    """Horizontal bars of one value per (case, size), one colour per document."""
    rows, per_doc = [], []
    for doc in docs:
        vals = {}
        for r in ok_results(doc, module):
            v = value(r)
            if v is not None:
                key = f"{r['case']} {size_label(r['params'].get('size', 0))}"
                vals[key] = v
                if key not in rows:
                    rows.append(key)
        per_doc.append(vals)
    if not rows:
        return False
    height = 0.8 / len(docs)
    for i, (doc, vals) in enumerate(zip(docs, per_doc)):
        ys = [j + i * height for j in range(len(rows))]
        ax.barh(ys, [vals.get(k, 0) for k in rows], height=height, label=doc["_system"])
    ax.set_yticks([j + 0.4 - height / 2 for j in range(len(rows))])
    ax.set_yticklabels(rows, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(label)
    return True


def plot_managed(docs, ax):
    drawn = bar_chart(docs, ax, "managed", lambda r: r.get("gbps_median"), "GB/s (median)")
    ax.set_xscale("log")
    ax.set_title("managed: effective bandwidth of each case")
    return drawn


def plot_xnack(docs, ax):
    drawn = bar_chart(docs, ax, "xnack", lambda r: metric(r, "us_per_touch"),
                      "microseconds per touch (first touch - resident) / touches")
    ax.set_title("xnack: cost of a GPU page-fault touch")
    return drawn


def plot_pool(docs, ax):
    drawn = False
    for doc in docs:
        series = {}
        for r in ok_results(doc, "pool"):
            if r.get("us_per_op_median") and r["case"].endswith("/loop"):
                series.setdefault(r["params"]["allocator"], []).append(
                    (r["params"]["size"], r["us_per_op_median"]))
        for alloc, pts in sorted(series.items()):
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3,
                    label=system_prefix(docs, doc) + alloc)
            drawn = True
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("allocation size (bytes)")
    ax.set_ylabel("us per iteration (alloc, kernel, free, sync)")
    ax.set_title("pool: cost per loop iteration by allocator")
    return drawn


def plot_vmm(docs, ax):
    drawn = False
    for doc in docs:
        for r in ok_results(doc, "vmm"):
            if r["case"].startswith("grow/") and r["samples_s"]:
                ax.plot(range(1, len(r["samples_s"]) + 1), [s * 1e3 for s in r["samples_s"]],
                        marker=".", ms=3, label=system_prefix(docs, doc) + r["case"][5:])
                drawn = True
    ax.set_yscale("log")
    ax.set_xlabel("growth step")
    ax.set_ylabel("ms per step")
    ax.set_title("vmm: growing a device buffer")
    return drawn


SUBJECTS = [
    ("memcpy-bandwidth", plot_memcpy, (14, 6)),
    ("overlap-speedup", plot_overlap, (11, 6)),
    ("managed-variants", plot_managed, (11, 9)),
    ("xnack-fault-cost", plot_xnack, (11, 5)),
    ("pool-cost", plot_pool, (11, 6)),
    ("vmm-growth", plot_vmm, (11, 6)),
]


def main(argv):
    ap = argparse.ArgumentParser(description="hipmembench JSON to PNG figures")
    ap.add_argument("-o", "--out", default="plots", help="folder for the PNG files")
    ap.add_argument("files", nargs="+", help="hipmembench JSON documents")
    args = ap.parse_args(argv[1:])
    docs = [load(p) for p in args.files]
    os.makedirs(args.out, exist_ok=True)
    for name, fn, size in SUBJECTS:
        fig, ax = plt.subplots(figsize=size)
        if fn(docs, ax):
            if ax.figure is fig and ax in fig.axes:
                ax.grid(True, which="both", alpha=0.3)
                ax.legend(fontsize=7, loc="best")
            fig.tight_layout()
            path = os.path.join(args.out, f"{name}.png")
            fig.savefig(path, dpi=110)
            print(path)
        plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
