#!/usr/bin/env python3
"""reference.py DOC... - pinned copies of 16 MiB or more against the reference loop of
their own document (`*/pinned/reference`: a bare loop of hipMemcpyAsync between two
events, measured in the same processes), GB/s: for each document, direction, API and
size, how far the case reads from the loop (negative: below it). Last line: the worst."""
import json
import sys

worst = None
print(f"{'document':14} {'case':20} {'size':>6} {'case GB/s':>9} {'loop GB/s':>9} {'vs loop':>8}")
for path in sys.argv[1:]:
    results = json.load(open(path))["results"]
    loop = {(r["case"].split("/")[0], r["params"]["size"]): r["gbps_median"] for r in results
            if r.get("status") == "ok" and r["case"].endswith("/pinned/reference")}
    for r in results:
        parts = r["case"].split("/")
        if r.get("status") != "ok" or len(parts) < 3 or parts[1] != "pinned" or parts[2] == "reference":
            continue
        size = r["params"].get("size") or 0
        ref = loop.get((parts[0], size))
        if size < 16 << 20 or not ref or not r.get("gbps_median"):
            continue
        rel = r["gbps_median"] / ref - 1
        name = path.rsplit("/", 1)[-1]
        print(f"{name:14} {r['case']:20} {size >> 20:5}M {r['gbps_median']:9.2f} {ref:9.2f} {100 * rel:+7.2f}%")
        if worst is None or rel < worst[0]:
            worst = (rel, name, r["case"], size)
if worst:
    print(f"worst: {100 * worst[0]:+.2f}% ({worst[1]} {worst[2]} {worst[3] >> 20}M); "
          f"more than 3% below: {'yes' if worst[0] < -0.03 else 'none'}")
