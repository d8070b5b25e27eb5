#!/usr/bin/env python3
"""agree.py - do the per-GPU figures of `all --devices all` agree with one GPU's `all`?

For host.json (--together host: pool and vmm on every GPU at once, the host-link
modules one GPU at a time on these machines, whose GPUs are one host group),
together-all.json and devices-all.json (every module on every GPU at once: --together
all, and the default since it became all), those of them in FOLDER, each GPU's figures against
one.json (GPU 0 alone), as `hipmembench compare --gpu N --format csv` pairs them. A
figure agrees where its ratio is within the pair's resolution (resolution_rel: both
documents' run-to-run noise); beyond it, compare's verdict says whether the change is
beyond the noise (WORSE/better). Prints one table per document: per module and GPU,
the figures paired, how many agree, how many moved beyond the noise either way, and
the median ratio (other/base: for GB/s above 1 is faster, for a time above 1 slower).
The documents are kept gzipped (X.json.gz) and read from a scratch copy.
    agree.py [FOLDER [HIPMEMBENCH]]   (FOLDER: this one; ../together-default and
                                       ../../nvidia-h100-x2/together too)"""
import csv
import gzip
import io
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DOCUMENTS = ("host", "together-all", "devices-all")
MODULES = ("memcpy", "overlap", "managed", "xnack", "pool", "vmm")


def rows(hmb, folder, doc, gpu):
    p = subprocess.run([hmb, "compare", "one.json", doc, "--gpu", str(gpu), "--threshold", "5",
                        "--format", "csv"], capture_output=True, text=True, cwd=folder)
    return list(csv.DictReader(io.StringIO(p.stdout)))


def table(hmb, folder, docs):
    with open(os.path.join(folder, docs[0])) as f:
        ngpus = len(json.load(f)["devices"])
    for doc in docs:
        print(f"\n{doc} against one.json (GPU 0 alone), per module over GPUs 0-{ngpus - 1}")
        print(f"{'module':9} {'gpu':>3} {'paired':>6} {'agree':>6} {'beyond noise':>12} "
              f"{'median ratio':>12}")
        for module in MODULES:
            for gpu in range(ngpus):
                rs = [r for r in rows(hmb, folder, doc, gpu) if r["module"] == module and r["ratio"]]
                if not rs:
                    continue
                agree = sum(1 for r in rs if r["resolution_rel"] and
                            abs(math.log(float(r["ratio"]))) <= float(r["resolution_rel"]))
                moved = sum(1 for r in rs if r["verdict"] in ("WORSE", "better"))
                med = statistics.median(float(r["ratio"]) for r in rs)
                print(f"{module:9} {gpu:>3} {len(rs):>6} {agree:>6} {moved:>12} {med:>12.3f}")


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else HERE
    hmb = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else
                          os.path.join(HERE, "../../../build/hipmembench"))
    names = [n for n in DOCUMENTS if os.path.exists(os.path.join(folder, n + ".json.gz"))]
    with tempfile.TemporaryDirectory() as scratch:
        for name in ["one"] + names:
            with gzip.open(os.path.join(folder, name + ".json.gz")) as f, \
                    open(os.path.join(scratch, name + ".json"), "wb") as out:
                shutil.copyfileobj(f, out)
        table(hmb, scratch, [n + ".json" for n in names])


if __name__ == "__main__":
    main()
