"""test_gpu.py - integration tests on the device: every module at tiny sizes
verifies its data and writes a valid document; all --quick; SIGINT keeps what
was measured. They skip, saying why, where no GPU is usable; then the no-GPU
path is tested instead (exit 3, a valid document without a device). Timings
are never asserted."""
import fnmatch
import json
import os
import pathlib
import re
import signal

import pytest

import hmb
import hmbdoc

# Tiny arguments per module: enough to run every case and verify it.
TINY = {
    "memcpy": "--sizes 4K,64K --reps 2 --warmup 1",
    "overlap": "--sizes 4M --reps 2 --warmup 1 --chunks 2 --streams 2 --iters 1,16",
    "pool": "--sizes 4K,64K --reps 2 --warmup 1 --loop 20",
    "managed": "--sizes 4M --reps 2 --warmup 1",
    "xnack": "--sizes 4M --reps 2 --warmup 1",
    "vmm": "--reps 2 --warmup 1 --start 2M --step 2M --limit 8M --call-sizes 2M",
    "node": "--reps 2 --warmup 1 --copy-size 4M --chase-loads 50 --alloc-sizes 2M",
}


# HMB_FAULT points (src/engine/fault.h) for the failure-path test. Allocations 1
# (the module's stream), 3, 10 and 36: whatever the module or its cases
# allocate at that count (buffers, streams, events; the engine's 33 events
# come with the first case timed with events). Then a case's set-up,
# preparation, operation and check, first and later ones, and whatever comes
# 100th. A point a module never reaches does not fire. any:0 fails nothing.
FAULTS = ["any:0", "alloc:1", "alloc:3", "alloc:10", "alloc:36", "setup:2", "prepare:2", "op:1",
          "op:9", "verify:1", "any:100"]


def failed_reasons(path):
    try:
        return "\n".join(f"{r['case']} failed: {r['reason']}" for r in hmbdoc.load(path)["results"]
                         if r["status"] == "failed")
    except (OSError, ValueError, KeyError):
        return ""


def test_no_gpu_info_says_so_and_exits_3(no_gpu):
    p = hmb.run("info")
    assert p.returncode == 3, p.stderr
    assert any(w in p.stderr.lower() for w in ("no gpu", "out of range", "cannot open device"))


def test_no_gpu_module_exits_3_with_a_valid_document(no_gpu, tmp_path):
    out = tmp_path / "nogpu.json"
    p = hmb.run("--output", out, "memcpy")
    assert p.returncode == 3, p.stderr
    doc = hmbdoc.assert_valid(out)
    assert doc["device"] is None and doc["results"] == []
    assert hmb.temp_files(tmp_path) == []


def test_no_gpu_all_records_the_module_run_its_gpu_and_placement(no_gpu, tmp_path):
    """What a sweep resumes by: the module run that stopped, on the GPU asked
    for; and where the process was, read back."""
    out = tmp_path / "nogpu-all.json"
    p = hmb.run("--device", "1", "--output", out, "all")
    assert p.returncode == 3, p.stderr
    doc = hmbdoc.assert_valid(out)
    assert [(r["module"], r["exit_status"], r["device"]) for r in doc["module_runs"]] == \
        [("memcpy", 3, 1)]
    assert doc["placement"]["cpus_allowed"] and doc["placement"]["mems_allowed"]
    assert doc["host"]["numa_balancing"] in (None, 0, 1, 2, 3)


@pytest.mark.parametrize("together,runs", [("all", [("memcpy", 3, 1), ("memcpy", 3, 0)]),
                                           ("none", [("memcpy", 3, 1)])])
def test_no_gpu_devices_runs_the_first_gpu_listed(no_gpu, tmp_path, together, runs):
    """--devices 1,0: the first module run is on GPU 1 (where it finds no GPU, and
    the run stops), not on the default GPU 0: the list is not lost. All at once (the
    default) both GPUs' processes started and are recorded in the list's order; one
    after another (none) the run stopped after GPU 1."""
    out = tmp_path / "nogpu-devices.json"
    p = hmb.run("--devices", "1,0", "--together", together, "--output", out, "all")
    assert p.returncode == 3, p.stderr
    doc = hmbdoc.assert_valid(out)
    assert [(r["module"], r["exit_status"], r["device"]) for r in doc["module_runs"]] == \
        runs, doc["module_runs"]


def test_gpu_info_and_json(gpu, tmp_path):
    p = hmb.run("--format", "json", "info")
    assert p.returncode == 0, p.stderr
    doc = hmbdoc.assert_valid(json.loads(p.stdout), complete=True)
    assert doc["device"] is not None


def test_gpu_size_beyond_device_memory_is_a_usage_error(gpu):
    p = hmb.run("--sizes", "64T", "memcpy")
    assert p.returncode == 2 and "larger than the device" in p.stderr, p.stderr


@pytest.mark.parametrize("module", hmb.module_names())
def test_gpu_module_at_tiny_sizes(gpu, tmp_path, module):
    out = tmp_path / f"{module}.json"
    p = hmb.run("--output", out, "--format", "csv", module, *TINY.get(module, "").split(),
                timeout=600)
    detail = "\n".join(p.stderr.splitlines()[-3:]) + "\n" + failed_reasons(out)
    assert p.returncode == 0, detail
    doc = hmbdoc.assert_valid(out, modules=[module], no_failures=True, complete=True)
    # every latch was released by the host before its guard ran out (a kernel
    # loaded lazily behind a latch held it for seconds: device code loads at start)
    expired = {r["case"]: r["observed"]["latch_expired_batches"] for r in doc["results"]
               if r["observed"].get("latch_expired_batches")}
    assert not expired, expired


def test_gpu_memcpy_names_say_the_direction_the_runtime_saw(gpu, tmp_path):
    """Each memcpy record says where the runtime places the memory its timed
    copies read and write (observed src_memory, dst_memory): an h2d case
    reads host memory and writes device memory, d2h the reverse, d2d stays
    on the device. Swapped labels or endpoints fail here."""
    out = tmp_path / "memcpy.json"
    p = hmb.run("--output", out, "--format", "csv", "memcpy", *TINY["memcpy"].split(), timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    expect = {"h2d": ("host", "device"), "d2h": ("device", "host"), "d2d": ("device", "device")}
    seen = set()
    for r in hmbdoc.load(out)["results"]:
        if r["status"] != "ok":
            continue
        direction = r["case"].split("/")[0]
        src, dst = r["observed"]["src_memory"], r["observed"]["dst_memory"]
        want = expect[direction]
        assert (src.split("-")[0], dst.split("-")[0]) == want, f"{r['case']}: {src} -> {dst}"
        if r["params"].get("host_memory") == "pageable" and direction != "d2d":
            assert "host-pageable" in (src, dst), f"{r['case']}: {src} -> {dst}"
        seen.add(direction)
    assert seen == set(expect), seen


def copy_moves(trace_path):
    """The copy-trace file (src/system/copytrace.h) as {(module, case): {move: bytes}},
    a move named by where the runtime placed source and destination (h2d, d2h,
    d2d, peer: device to another device, h2h); every copy whose kind names a
    direction is checked against its pointers on the way."""
    moves = {}
    for line in pathlib.Path(trace_path).read_text().splitlines():
        module, case, call, kind, src, dst, src_dev, dst_dev, nbytes = line.split("\t")
        side = lambda m: "d" if m == "device" else "h" if m.startswith("host") else "m"
        move = f"{side(src)}2{side(dst)}"
        if move == "d2d" and src_dev != dst_dev:
            move = "peer"
        if kind in ("h2d", "d2h", "d2d", "h2h"):
            assert move == kind or (kind == "d2d" and move == "peer"), line
        elif kind == "peer":
            assert move in ("d2d", "peer"), line
        per = moves.setdefault((module, case), {})
        per[move] = per.get(move, 0) + int(nbytes)
    return moves


# What a case's name says its copies move, for the modules that copy besides
# memcpy (whose records name the endpoints the runtime saw): the moves it must
# make and those that may come only as checks (fewer bytes than the named one).
NAMED_MOVES = [
    ("overlap", "h2d-only/*", {"h2d"}), ("overlap", "d2h-only/*", {"d2h"}),
    ("overlap", "pipeline/*", {"h2d", "d2h"}), ("overlap", "serial/*", {"h2d", "d2h"}),
    ("overlap", "bidirectional/*", {"h2d", "d2h"}),
    ("node", "host/h2d/alone", {"h2d"}), ("node", "host/h2d/in-all", {"h2d"}),
    ("node", "host/h2d/all", {"h2d"}), ("node", "host/d2h/alone", {"d2h"}),
    ("node", "host/d2h/in-all", {"d2h"}), ("node", "host/d2h/all", {"d2h"}),
    ("node", "host/h2d/interfered", {"h2d"}), ("node", "host/d2h/interfered", {"d2h"}),
    ("node", "host/bidir/*", {"h2d", "d2h"}), ("node", "p2p/ce*", {"peer"}),
]


def test_gpu_overlap_and_node_copies_go_where_their_names_say(gpu, tmp_path):
    """Every hipMemcpy/hipMemcpyAsync/hipMemcpyPeerAsync of overlap and node,
    traced with where the runtime placed its pointers: a case named h2d moves
    host memory into device memory (more bytes that way than any other), d2h
    the reverse, bidirectional and pipelined cases both ways, p2p between two
    devices; and no copy's kind contradicts its pointers. A case whose labels
    or transfers were swapped passes its own data check and fails here."""
    trace = tmp_path / "copies.tsv"
    env = dict(os.environ, HMB_COPY_TRACE=str(trace))
    for module in ("overlap", "node"):
        out = tmp_path / f"{module}.json"
        p = hmb.run("--output", out, module, *TINY[module].split(), timeout=600, env=env)
        assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    moves = copy_moves(trace)
    checked = set()
    for module, pattern, named in NAMED_MOVES:
        ran = {r["case"] for r in hmbdoc.load(tmp_path / f"{module}.json")["results"]
               if r["status"] == "ok" and fnmatch.fnmatchcase(r["case"], pattern)}
        for case in ran:
            seen = moves.get((module, case), {})
            assert named <= set(seen), (module, case, seen)
            others = [b for m, b in seen.items() if m not in named]
            assert not others or max(others) < min(seen[m] for m in named), (module, case, seen)
            checked.add((module, case))
    assert {m for m, _ in checked} == {"overlap", "node"}, checked
    assert ("overlap", "h2d-only/pinned") in checked and ("node", "host/d2h/alone") in checked


def test_gpu_overlap_pipelines_pinned_every_shape_pageable_the_largest(gpu, tmp_path):
    """overlap's default streams are 2 and 4 (a one-stream pipeline cannot
    overlap); pinned memory runs every shape of every calibrated load with at
    least as many chunks as streams, pageable memory the balanced load at the
    most streams and chunks only."""
    out = tmp_path / "overlap.json"
    p = hmb.run("--output", out, "overlap", "--sizes", "4M", "--reps", "2", "--warmup", "1",
                "--chunks", "8,2,4", timeout=600)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    doc = hmbdoc.assert_valid(out, modules=["overlap"], no_failures=True, complete=True)
    shapes = {}
    for r in doc["results"]:
        if r["case"].startswith("pipeline/"):
            shapes.setdefault(r["case"], []).append((r["params"]["streams"],
                                                     r["params"]["chunks"]))
    pinned = [(2, 8), (2, 2), (2, 4), (4, 8), (4, 4)]
    assert shapes == {"pipeline/pinned/copy-bound": pinned, "pipeline/pinned/balanced": pinned,
                      "pipeline/pinned/compute-bound": pinned,
                      "pipeline/pageable/balanced": [(4, 8)]}, shapes
    # the calibrated loads: 1 step, a power of two, four times that, in every record
    steps = {}
    for r in doc["results"]:
        load = r["case"].rsplit("/", 1)[-1]
        if load in ("copy-bound", "balanced", "compute-bound"):
            steps.setdefault(load, set()).add(r["params"]["iters"])
    assert steps["copy-bound"] == {1} and len(steps["balanced"]) == 1, steps
    balanced = steps["balanced"].pop()
    assert balanced >= 1 and balanced & (balanced - 1) == 0, balanced
    assert steps["compute-bound"] == {4 * balanced}, steps


def test_gpu_managed_default_sizes_stop_each_family_where_its_rate_does(gpu, tmp_path):
    """With the default sizes (64M, 256M, 1G) the way back and read-mostly stop at
    64 MiB and the prefetches at 256 MiB; the rest run at every size, and --sizes
    runs any family at any size."""
    out = tmp_path / "managed.json"
    cases = ["back/cpu-read-after-gpu", "advise-read-mostly/first-kernel",
             "prefetch/prefetch-only", "on-demand/first-kernel"]
    selected = [a for c in cases for a in ("--case", c)]
    p = hmb.run("--output", out, *selected, "managed", "--reps", "2", "--warmup", "0",
                timeout=600)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    doc = hmbdoc.assert_valid(out, modules=["managed"], no_failures=True, complete=True)
    sizes = {}
    for r in doc["results"]:
        sizes.setdefault(r["case"], []).append(r["params"]["size"] >> 20)
    assert sizes == {"back/cpu-read-after-gpu": [64], "advise-read-mostly/first-kernel": [64],
                     "prefetch/prefetch-only": [64, 256],
                     "on-demand/first-kernel": [64, 256, 1024]}, sizes
    out = tmp_path / "asked.json"
    p = hmb.run("--output", out, *selected, "managed", "--reps", "2", "--warmup", "0",
                "--sizes", "16M,512M", timeout=600)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    asked = {(r["case"], r["params"]["size"] >> 20) for r in hmbdoc.load(out)["results"]}
    assert asked == {(c, s) for c in cases for s in (16, 512)}, asked


def test_gpu_every_sample_is_one_timed_copy(gpu, tmp_path):
    """--reps N gives every measured record N samples (warm-ups are not kept),
    and no timed sample of an async page-locked copy is shorter than its bytes
    at the host link's peak: a timed region that lost its synchronisation, or
    a warm-up kept on the event clock, shows here."""
    out = tmp_path / "memcpy.json"
    p = hmb.run("--output", out, "memcpy", "--sizes", "64M", "--reps", "5", "--warmup", "2",
                "--case", "h2d/pinned/*", "--case", "d2h/pinned/*", timeout=600)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    ok = [r for r in hmbdoc.load(out)["results"] if r["status"] == "ok"]
    assert len(ok) == 6, [r["case"] for r in ok]  # async, sync, reference
    for r in ok:
        assert len(r["samples_s"]) == 5 and r["stats_s"]["count"] == 5, r["case"]
        assert r["observed"]["warmup"] == 2, r["case"]
        peak = r.get("peak_gbps")
        if peak and r["params"]["api"] == "hipMemcpyAsync":
            floor = r["bytes"] / (peak * 1e9)
            assert min(r["samples_s"]) >= floor, (r["case"], min(r["samples_s"]), floor)
    # host clock, one synchronisation per sample: N fill kernels over SIZE bytes
    # cannot end sooner than N x SIZE at the device memory's peak
    out = tmp_path / "pool.json"
    p = hmb.run("--output", out, "pool", "--sizes", "64M", "--reps", "3", "--case",
                "course/kernel-only", timeout=600)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    doc = hmbdoc.load(out)
    dev = doc["device"]
    if dev.get("memory_clock_khz") and dev.get("memory_bus_width_bits"):
        hbm = dev["memory_clock_khz"] * 1e3 * 2 * dev["memory_bus_width_bits"] / 8
        (r,) = [r for r in doc["results"] if r["status"] == "ok"]
        assert len(r["samples_s"]) == 3
        floor = r["params"]["ops_per_sample"] * r["params"]["size"] / hbm
        assert min(r["samples_s"]) >= floor, (min(r["samples_s"]), floor)


def test_gpu_memcpy_reference_loop(gpu, tmp_path):
    """h2d/pinned/reference and d2h/pinned/reference, in a run of memcpy's pinned
    cases (beside */pinned/async and sync): N hipMemcpyAsync back to back between
    two events, no latch (N = ceil(64 MiB / size), 1 to 1000), the record's bytes
    the N copies', the data verified. No sample is shorter than its bytes at the
    host link's peak: a sample that timed fewer copies than it counts shows here."""
    out = tmp_path / "reference.json"
    sizes = {4096: 1000, 16 << 20: 4, 256 << 20: 1}
    p = hmb.run("--output", out, "--format", "csv", "--case", "*/pinned/*", "memcpy",
                "--sizes", "4K,16M,256M", "--reps", "5", "--warmup", "1", timeout=600)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    results = hmbdoc.load(out)["results"]
    ref = [r for r in results if r["case"].endswith("/pinned/reference")]
    assert sorted((r["case"], r["params"]["size"]) for r in ref) == sorted(
        (f"{d}/pinned/reference", s) for d in ("h2d", "d2h") for s in sizes), \
        [r["case"] for r in results]
    ends = {"h2d": ("host-pinned", "device"), "d2h": ("device", "host-pinned")}
    for r in ref:
        name, size, prm = f"{r['case']} {r['params']['size']}", r["params"]["size"], r["params"]
        n = sizes[size]
        assert r["status"] == "ok" and r["observed"]["verified"] is True, name
        assert prm["api"] == "hipMemcpyAsync" and prm["host_memory"] == "pinned", name
        assert prm["ops_per_sample"] == n and r["bytes"] == n * size, (name, prm, r["bytes"])
        assert prm["clock"] == "hip-events" and prm["sync"] == "per-sample", name
        assert prm["latch"] is False, name
        assert prm["timed"].startswith(f"{n} x (hipMemcpyAsync" if n > 1 else "hipMemcpyAsync"), \
            (name, prm["timed"])
        assert (r["observed"]["src_memory"], r["observed"]["dst_memory"]) == \
            ends[r["case"][:3]], name
        peak = r.get("peak_gbps")
        if peak:
            floor = r["bytes"] / (peak * 1e9)
            assert min(r["samples_s"]) >= floor, (name, min(r["samples_s"]), floor)


def _memcpy_on_request(tmp_path, name, *patterns, ok_needed=True):
    """memcpy's on-request cases that the patterns select, at tiny sizes: the
    records, none failed, every ok one verified and saying what it timed."""
    out = tmp_path / f"{name}.json"
    cases = [a for pat in patterns for a in ("--case", pat)]
    p = hmb.run("--output", out, "--format", "csv", *cases, "memcpy", *TINY["memcpy"].split(),
                timeout=300)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    doc = hmbdoc.assert_valid(out, modules=["memcpy"] if ok_needed else [], no_failures=True,
                              complete=True)
    for r in doc["results"]:
        if r["status"] == "ok":
            assert r["observed"]["verified"] is True and r["params"]["timed"], r["case"]
    return doc["results"]


def test_gpu_memcpy_default_kind_copies(gpu, tmp_path):
    """hipMemcpyDefault: the runtime infers each direction from the pointers;
    the copies land where the explicit kind's would and are verified."""
    results = _memcpy_on_request(tmp_path, "default", "*/*/async-default-kind")
    expect = {"h2d/pinned/async-default-kind": ("host-pinned", "device"),
              "d2h/pinned/async-default-kind": ("device", "host-pinned"),
              "d2d/device/async-default-kind": ("device", "device")}
    assert sorted(r["case"] for r in results) == sorted(list(expect) * 2)
    for r in results:
        assert r["status"] == "ok", r
        assert r["params"]["memcpy_kind"] == "hipMemcpyDefault"
        assert r["params"]["api"] == "hipMemcpyAsync" and r["params"]["latch"] is True
        assert (r["observed"]["src_memory"], r["observed"]["dst_memory"]) == expect[r["case"]]


def test_gpu_memcpy_host_to_host(gpu, tmp_path):
    """h2h with hipMemcpy(HostToHost) and with memcpy() on the same host kind,
    through buffer pairs beyond the host's cache, verified."""
    results = _memcpy_on_request(tmp_path, "h2h", "h2h/*")
    names = ["h2h/pinned/sync", "h2h/pinned/memcpy", "h2h/pageable/sync", "h2h/pageable/memcpy"]
    assert sorted(r["case"] for r in results) == sorted(names * 2)
    for r in results:
        kind = r["case"].split("/")[1]
        assert r["status"] == "ok", r
        assert r["params"]["clock"] == "host-monotonic" and r["params"]["direction"] == "h2h"
        assert r["params"]["api"] == ("memcpy" if r["case"].endswith("memcpy") else "hipMemcpy")
        want = "host-pinned" if kind == "pinned" else "host-pageable"
        assert r["observed"]["src_memory"] == r["observed"]["dst_memory"] == want, r["case"]
        o = r["observed"]
        if 2 * o["host_cache_bytes"] <= 2**30:
            assert o["cache_footprint_bytes"] >= 2 * o["host_cache_bytes"], r["case"]
            assert o["cache_resident"] is False, r["case"]


def test_gpu_memcpy_untouched_pageable(gpu, tmp_path):
    """A fresh mapping each sample: no page resident before the copy; d2h
    leaves every page written; h2d moved the zeros (checked on the device)."""
    results = _memcpy_on_request(tmp_path, "untouched", "*/untouched-pageable/*")
    assert len(results) == 8, [r["case"] for r in results]
    for r in results:
        o = r["observed"]
        assert r["status"] == "ok", r
        assert "first touch" in r["params"]["timed"], r["params"]["timed"]
        assert o["pages_resident_before_copy"] == 0, r["case"]
        assert o["pages"] * o["page_size"] >= r["params"]["size"]
        if r["case"].startswith("d2h"):
            assert o["pages_resident_after_copy"] == o["pages"], r["case"]
            assert (o["src_memory"], o["dst_memory"]) == ("device", "host-pageable")
        else:
            assert (o["src_memory"], o["dst_memory"]) == ("host-pageable", "device")


def test_gpu_memcpy_huge_pages(gpu, tmp_path):
    """Each huge-page backing either runs its four cases at both sizes,
    saying what the kernel gave, or is one unsupported/skipped record naming
    the sysfs value that rules it out."""
    results = _memcpy_on_request(tmp_path, "huge", "*/thp*/*", "thp/*", "*/hugetlb-*/*",
                                 "hugetlb-*/*", ok_needed=False)
    page = {"thp": None, "hugetlb-2M": 2 << 20, "hugetlb-1G": 1 << 30}
    for b, size in page.items():
        mine = [r for r in results if r["case"].split("/")[0] == b or
                r["case"].split("/")[1] in (b, b + "-registered")]
        if any(r["status"] != "ok" for r in mine):
            assert len(mine) == 1, [r["case"] for r in mine]
            r = mine[0]
            assert r["case"] in (f"{b}/unsupported", f"{b}/skipped"), r["case"]
            assert "/sys/kernel/mm/" in r["reason"] or "mmap" in r["reason"], r["reason"]
            continue
        assert len(mine) == 8, [r["case"] for r in mine]
        for r in mine:
            o, registered = r["observed"], r["params"]["registered"]
            host = o["src_memory"] if r["case"].startswith("h2d") else o["dst_memory"]
            assert host == ("host-pinned" if registered else "host-pageable"), r["case"]
            assert r["params"]["latch"] is registered, r["case"]
            assert o["buffer_bytes"] % (2 << 20) == 0
            if size:
                assert o["page_size_bytes"] == size and o["huge_fraction"] == 1, r["case"]
            else:
                assert o["transparent_hugepages"] in ("always", "madvise"), o
                assert 0 <= o["huge_fraction"] <= 1, r["case"]


def test_gpu_all_quick(gpu, tmp_path):
    out = tmp_path / "all.json"
    p = hmb.run("--quick", "--output", out, "all", timeout=600)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    doc = hmbdoc.assert_valid(out, modules=hmb.module_names(), no_failures=True, complete=True)
    # the tables, then the summary of the document (docs/summary.md)
    tail = p.stdout.split("\nhipmembench summary: ", 1)[1]
    # one screen (HMB_SUMMARY_LINES, 40), and a list of reasons announced is there
    lines = tail.splitlines()
    assert len(lines) <= 40 and "anomalies:" in tail, tail
    said = [i for i, line in enumerate(lines) if line.endswith("the first of each reason:")]
    assert all(i + 1 < len(lines) and lines[i + 1].startswith("    ") for i in said), tail
    names = [f["name"] for f in doc["summary"]["figures"]]
    assert "pinned h2d" in names and all(re.search(rf"^{n} +\S", tail, re.M) for n in names)
    assert hmb.run("summary", out).stdout.splitlines()[3:] == tail.splitlines()[3:]


def test_gpu_sigint_keeps_measured_results(gpu, tmp_path):
    """A batch job's time limit: SIGINT mid-run keeps what was measured."""
    out, err = tmp_path / "int.json", tmp_path / "int.err"
    with open(err, "w") as e:
        rc = hmb.signal_when([hmb.BIN, "--output", out, "--format", "csv", "memcpy"],
                             lambda: "[memcpy]" in err.read_text(), signal.SIGINT, stderr=e)
    assert rc == 130, err.read_text()[-2000:]
    doc = hmbdoc.assert_valid(out)
    assert doc["interrupted"] and not doc["complete"] and doc["results"]
    assert hmb.temp_files(tmp_path) == []


def test_gpu_records_state_their_timed_region_and_all_isolates_modules(gpu, tmp_path):
    """Every measured record says what its timed region contains and verified
    its data; all runs each module in a process of its own."""
    out = tmp_path / "all.json"
    p = hmb.run("--quick", "--output", out, "all", timeout=600)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    doc = hmbdoc.load(out)
    bad = [f"{r['module']} {r['case']}" for r in doc["results"]
           if r["status"] == "ok" and r["samples_s"]
           and not (r["params"].get("timed") and r["params"].get("clock")
                    and r["observed"].get("verified") is True)]
    assert not bad, f"no timed/clock/verified: {bad[:10]}"
    runs = doc["module_runs"]
    assert [m["module"] for m in runs] == doc["modules"]
    assert all(m["process"] == "own" and m["exit_status"] == 0 for m in runs), runs
    assert [m["device"] for m in runs] == [0] * (len(runs) - 1) + [None]  # node: every GPU
    assert doc["placement"]["page_node"] is not None


def test_gpu_case_selects_by_pattern_in_a_module_and_in_all(gpu, tmp_path):
    one, both = tmp_path / "case.json", tmp_path / "case-all.json"
    p = hmb.run("--case", "h2d/pinned/*", "--sizes", "4K", "--reps", "2", "--output", one,
                "memcpy")
    assert p.returncode == 0, p.stderr[-2000:]
    cases = [r["case"] for r in hmbdoc.load(one)["results"]]
    assert sorted(cases) == ["h2d/pinned/async", "h2d/pinned/reference", "h2d/pinned/sync"], cases
    p = hmb.run("--case", "course/default-pool", "--sizes", "64K", "--reps", "2", "--loop", "20",
                "--output", both, "all", timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    doc = hmbdoc.load(both)
    assert [r["case"] for r in doc["results"]] == ["course/default-pool"]
    assert doc["modules"] == ["pool"]


def test_gpu_tables_are_those_show_prints_from_the_document(gpu, tmp_path):
    """What a run prints on stdout is what `show` prints from its document: a module in
    this process, and all (also with --devices), which prints each module's table from
    the document of the module's own process."""
    for name, args in (("one", ["memcpy"]), ("all", ["all"]),
                       ("devices", ["--devices", "all", "memcpy"])):
        out = tmp_path / f"{name}.json"
        p = hmb.run("--case", "h2d/pinned/*", "--sizes", "4K,64K", "--reps", "2", "--output",
                    out, *args, timeout=300)
        assert p.returncode == 0, p.stderr[-2000:]
        s = hmb.run("show", out)
        # all ends with its summary, which show prints too (a document of all)
        summary = p.stdout.partition("\nhipmembench summary:")[2]
        assert s.returncode == 0 and s.stdout == p.stdout, (name, p.stdout, s.stdout)
        assert bool(summary) == (name == "all"), (name, p.stdout)
        assert max(len(line) for line in p.stdout.splitlines()) <= 120


def test_gpu_runs_merge_each_run_into_one_record_per_result(gpu, tmp_path):
    """--runs 3: three processes, one record per result holding the three runs (their
    samples pooled, each one's median kept), a module_runs entry per run, the table once."""
    out = tmp_path / "runs.json"
    p = hmb.run("--runs", "3", "--case", "h2d/pinned/*", "--sizes", "1M", "--reps", "6",
                "--output", out, "memcpy", timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    doc = hmbdoc.assert_valid(out, complete=True)
    assert doc["settings"]["runs"] == 3
    assert [m["run"] for m in doc["module_runs"]] == [1, 2, 3]
    assert sorted(r["case"] for r in doc["results"]) == ["h2d/pinned/async", "h2d/pinned/reference",
                                                          "h2d/pinned/sync"]
    for r in doc["results"]:
        assert r["runs"]["count"] == 3 and r["runs"]["samples"] == [6, 6, 6], r["runs"]
        assert len(r["samples_s"]) == 18
    assert p.stdout.count("== memcpy ==") == 1, p.stdout  # the table once
    assert "async" in p.stdout and "sync" in p.stdout, p.stdout
    assert "[memcpy] run 3 of 3" in p.stderr


def test_gpu_all_runs_each_module_its_count_in_rounds_there_and_back(gpu, tmp_path):
    """all: each module in two processes by default, three where it asks (pool, node),
    the modules taken in turn and every other round in the reverse order (memcpy, pool,
    node, then node, pool, memcpy, then pool, node), each run sampling its share of the
    time of one (observed.sampling) and the runs merged into one record per result
    holding every median, the tables and node's latency matrix printed once; --runs 1
    and --quick: one process a module."""
    out, once = tmp_path / "twice.json", tmp_path / "once.json"
    sel = ["--case", "h2d/pinned/async", "--case", "course/default-pool", "--case",
           "device/latency", "--sizes", "64K", "--copy-size", "4M"]
    p = hmb.run(*sel, "--output", out, "all", timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    doc = hmbdoc.assert_valid(out, complete=True)
    assert [(m["module"], m["run"]) for m in doc["module_runs"]] == \
        [("memcpy", 1), ("pool", 1), ("node", 1), ("node", 2), ("pool", 2), ("memcpy", 2),
         ("pool", 3), ("node", 3)], doc["module_runs"]
    # (device/latency: a record for each GPU of the node)
    assert sorted({r["case"] for r in doc["results"]}) == ["course/default-pool",
                                                           "device/latency", "h2d/pinned/async"]
    for r in doc["results"]:
        n = 2 if r["module"] == "memcpy" else 3
        assert r["runs"]["count"] == n and len(r["samples_s"]) == sum(r["runs"]["samples"])
        assert f"one run of {n}" in r["observed"]["sampling"], r["observed"]["sampling"]
    assert p.stdout.count("== memcpy ==") == 1 and p.stdout.count("== pool ==") == 1, p.stdout
    # node's latency once: as its matrix (one GPU), or as device/latency's table (a GPU a
    # row, where no peer chase was selected)
    assert p.stdout.count("latency ns per load") + p.stdout.count("\ndevice/latency ") == 1, \
        p.stdout
    for args in (["--runs", "1"], ["--quick"]):
        p = hmb.run(*sel, *args, "--output", once, "all", timeout=300)
        assert p.returncode == 0, p.stderr[-2000:]
        runs = hmbdoc.load(once)["module_runs"]
        assert [m["module"] for m in runs] == ["memcpy", "pool", "node"] and \
            not any(m.get("run") for m in runs), (args, runs)


def test_gpu_devices_together_run_at_once_and_say_so(gpu, tmp_path):
    """--devices all on two GPUs or more: --together all runs each module's processes at
    the same time (each record names the others: observed.ran_beside_gpus, and a
    host-link module's records those of its host group: host_link_shared_with_gpus;
    module_runs beside_gpus); --together none one after another, naming nobody; the
    records of every GPU are there, each with its device, either way."""
    sel = ["--case", "h2d/pinned/async", "--case", "course/default-pool", "--sizes", "1M",
           "--reps", "2", "--runs", "1"]
    for together in ("none", "all"):
        out = tmp_path / f"{together}.json"
        p = hmb.run(*sel, "--devices", "all", "--together", together, "--output", out, "all",
                    timeout=300)
        assert p.returncode == 0, p.stderr[-2000:]
        doc = hmbdoc.assert_valid(out, complete=True)
        n = len(doc["devices"]) if "devices" in doc else 1  # one GPU: its "device" alone
        if n < 2:
            pytest.skip(f"{n} GPU: --together needs two")
        assert doc["settings"]["together"] == together
        per_gpu = [r for r in doc["results"] if r["module"] in ("memcpy", "pool")]
        assert sorted({r["params"]["device"] for r in per_gpu}) == list(range(n)), per_gpu
        for r in per_gpu:
            others = ",".join(str(g) for g in range(n) if g != r["params"]["device"])
            beside = r["observed"].get("ran_beside_gpus")
            shared = r["observed"].get("host_link_shared_with_gpus")
            if together == "none":
                assert beside is None and shared is None, r["observed"]
            else:
                assert beside == others, (r["case"], r["observed"])
                # pool uses no host link; memcpy's names those of its host group
                if r["module"] == "pool":
                    assert shared is None, r["observed"]
                elif shared is not None:
                    assert set(shared.split(",")) <= set(others.split(",")), r["observed"]
        runs = [m for m in doc["module_runs"] if m["module"] in ("memcpy", "pool")]
        assert len(runs) == 2 * n and all(("beside_gpus" in m) == (together == "all")
                                          for m in runs), runs
        assert f"GPUs together (--together {together}): {n} GPU(s)" in p.stderr, p.stderr[:2000]


def test_gpu_node_reference_loops_beside_the_peer_figures(gpu, tmp_path):
    """node on two GPUs or more: the reference loops (the copy back to back, the chase
    straight on the timing stream) from or read by the first GPU, checked like the
    others, beside p2p/ce/write and p2p/latency of the same pairs."""
    out = tmp_path / "node.json"
    p = hmb.run(*TINY["node"].split(), "--case", "p2p/ce/write*", "--case", "p2p/latency*",
                "--output", out, "node", timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    res = hmbdoc.assert_valid(out, complete=True)["results"]
    if all(r["status"] == "unsupported" for r in res):
        pytest.skip("one GPU: no pairs")
    pairs = {(r["case"], r["params"]["src"], r["params"]["dst"]) for r in res
             if r["status"] == "ok"}
    refs = sorted(k for k in pairs if k[0].endswith("/reference"))
    assert refs, pairs
    for case, src, dst in refs:
        assert (case[:-len("/reference")], src, dst) in pairs, (case, src, dst)
        assert 0 in (src, dst)
    for r in res:
        if r["case"] == "p2p/ce/write/reference" and r["status"] == "ok":
            assert r["params"]["ops_per_sample"] >= 1 and r["params"]["latch"] is False, r["params"]
            assert r["gbps_median"] > 0


def test_gpu_node_interfered_figures_sum_beside_the_aggregate(gpu, tmp_path):
    """node's host/{h2d,d2h}/interfered (nvbandwidth's host_to_all shape): one record per
    GPU, its one copy's bytes (the others' twice as much are not counted), checked like
    the others; host/*/all holds their sum and its ratio to it, and no bidirectional
    figure of that shape is made."""
    out = tmp_path / "node.json"
    p = hmb.run(*TINY["node"].split(), "--case", "host/*", "--output", out, "node", timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    res = [r for r in hmbdoc.assert_valid(out, complete=True)["results"]
           if r["status"] == "ok" and r["params"].get("placement", "local") == "local"]
    gpus = sorted({r["params"]["gpu"] for r in res if r["case"] == "host/h2d/alone"})
    for d in ("h2d", "d2h"):
        mine = [r for r in res if r["case"] == f"host/{d}/interfered"]
        assert sorted(r["params"]["gpu"] for r in mine) == gpus, (d, mine)
        alone = next(r for r in res if r["case"] == f"host/{d}/alone")
        assert all(r["bytes"] == alone["bytes"] and r["observed"].get("verified") is True
                   for r in mine), mine
        every = next(r for r in res if r["case"] == f"host/{d}/all")
        total = sum(r["gbps_median"] for r in mine)
        assert abs(every["metrics"]["sum_interfered_gbps"]["value"] - total) <= 1e-6 * total
        assert abs(every["metrics"]["vs_sum_interfered"]["value"] -
                   every["gbps_median"] / total) <= 1e-6
    assert not any(r["case"] == "host/bidir/interfered" for r in res)


def test_gpu_all_runs_xnack_and_managed_once_per_mode_on_amd(gpu, tmp_path):
    """On an AMD GPU that selects XNACK per process (gfx90a, gfx94x, gfx950) all runs
    xnack and managed with HSA_XNACK=1 and =0, each in its own process: module_runs
    says which, every record carries params.hsa_xnack, and the ROCm guide's verdict is
    observed; with the user's HSA_XNACK, once. Elsewhere (NVIDIA) once, as before."""
    out, mine = tmp_path / "modes.json", tmp_path / "modes-user.json"
    args = ["--case", "h2d/pinned/sync", "--case", "xnack/state", "--case",
            "on-demand/second-kernel", "--case", "prefetch/kernel-after-prefetch",
            "--sizes", "4M", "--reps", "2", "--warmup", "1", "--runs", "1"]
    p = hmb.run(*args, "--output", out, "all", timeout=300)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    doc = hmbdoc.assert_valid(out, complete=True)
    arch = doc["device"]["arch"]
    both = arch.startswith(("gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"))
    runs = [(m["module"], m.get("environment")) for m in doc["module_runs"]]
    ok = [r for r in doc["results"] if r["status"] == "ok" and r["samples_s"]]
    assert ok and all(r["observed"].get("verified") is True for r in ok), ok[:3]
    if not both:
        assert runs == [("memcpy", None), ("managed", None), ("xnack", None)], runs
        assert not any("hsa_xnack" in r["params"] or "rocm_guide" in r["observed"]
                       for r in doc["results"])
        return
    assert runs == [("memcpy", None), ("managed", {"HSA_XNACK": "1"}),
                    ("managed", {"HSA_XNACK": "0"}), ("xnack", {"HSA_XNACK": "1"}),
                    ("xnack", {"HSA_XNACK": "0"})], runs
    for module in ("managed", "xnack"):
        modes = sorted(r["params"].get("hsa_xnack") for r in doc["results"]
                       if r["module"] == module)
        assert set(modes) == {"0", "1"}, (module, modes)
    state = [r for r in doc["results"] if r["case"] == "xnack/state"]
    assert len(state) == 2 and all("rocm_guide" in r["observed"] for r in state), state
    p = hmb.run(*args, "--output", mine, "all", timeout=300, env={**os.environ, "HSA_XNACK": "1"})
    assert p.returncode == 0, failed_reasons(mine) + p.stderr[-2000:]
    runs = [(m["module"], m.get("environment"), m.get("environment_from"))
            for m in hmbdoc.load(mine)["module_runs"]]
    assert runs[1:] == [("managed", {"HSA_XNACK": "1"}, "user"),
                        ("xnack", {"HSA_XNACK": "1"}, "user")], runs


def _free_seen_by_probe(path):
    return [r["observed"]["free_device_bytes"] for r in hmbdoc.load(path)["results"]
            if r["case"] == "free-memory"][0]


def test_gpu_isolation_a_planted_leak_does_not_reach_the_next_module(gpu, tmp_path):
    """A module that leaks 1 GiB, leaves managed memory attached to a stream and
    a pool told to keep everything must not change what the next module finds;
    in one process (--no-isolation) it does, which shows the test can fail."""
    env = dict(os.environ, HMB_TEST_MODULES="1")
    probe = ["--case", "free-memory", "--case", "launch-sync", "--reps", "2"]
    sel = ["--case", "planted"] + probe  # a pattern that matches no case of probe alone is refused
    alone, iso, shared = (tmp_path / n for n in ("alone.json", "iso.json", "shared.json"))
    for out, args in ((alone, probe + ["probe"]), (iso, sel + ["--runs", "1", "all"]),
                      (shared, sel + ["--no-isolation", "all"])):
        p = hmb.run("--output", out, *args, env=env, timeout=300)
        assert p.returncode == 0, p.stderr[-2000:]
    a, i, s = (_free_seen_by_probe(x) for x in (alone, iso, shared))
    detail = (f"free memory seen by the probe: alone {a / 2**30:.2f} GiB, after the leak in "
              f"all {i / 2**30:.2f} GiB, in one process {s / 2**30:.2f} GiB")
    assert abs(a - i) < 0.25 * 2**30, detail
    assert a - s > 0.75 * 2**30, detail
    assert [m["module"] for m in hmbdoc.load(iso)["module_runs"]] == ["leak", "probe"]


def test_gpu_sigterm_during_all_keeps_the_running_modules_results(gpu, tmp_path):
    """A batch job's time limit during all: SIGTERM to the parent reaches the
    module running in its own process; what was measured is kept."""
    out, err = tmp_path / "all-int.json", tmp_path / "all-int.err"
    tmp = tmp_path / "tmp"  # its own TMPDIR, where the modules hand their records back
    tmp.mkdir()
    with open(err, "w") as e:
        rc = hmb.signal_when([hmb.BIN, "--output", out, "all"],
                             lambda: "[memcpy] h2d" in err.read_text(), signal.SIGTERM,
                             stderr=e, env=dict(os.environ, TMPDIR=str(tmp)))
    assert rc == 143, err.read_text()[-2000:]
    doc = hmbdoc.assert_valid(out)
    assert doc["interrupted"] and not doc["complete"] and doc["results"] and doc["module_runs"]
    assert hmb.temp_files(tmp_path) == []
    assert list(tmp.iterdir()) == []


def _fault_hook_line(stderr):
    for line in stderr.splitlines():
        if "fault-hook " in line:
            return dict(kv.split("=", 1) for kv in line.split("fault-hook ", 1)[1].split())
    return None


@pytest.mark.parametrize("module", hmb.module_names())
def test_gpu_a_failure_mid_module_gives_back_its_device_memory(gpu, tmp_path, module):
    """HMB_FAULT fails one step of a module on purpose (an allocation, or a
    case's set-up, preparation, operation or check, after it ran); the case
    fails with that reason (with the cases that share that step, or the
    module where the step is the module's own) and nothing else fails; the
    module goes on, and the device's free memory after the module is back to
    what it was before it. It is exactly that for memcpy, overlap, pool, vmm
    and node; for managed and xnack it ends higher, because the
    unified-memory driver gives back part of what it took for itself during
    the unrecorded first run (memcheck's leak check, tests/compute_sanitizer.sh,
    covers their managed allocations)."""
    seen = []
    for spec in FAULTS:
        out = tmp_path / f"{module}-{spec.replace(':', '-')}.json"
        p = hmb.run("--output", out, "--format", "csv", module, *TINY.get(module, "").split(),
                    env=dict(os.environ, HMB_FAULT=spec), timeout=300)
        hook = _fault_hook_line(p.stderr)
        assert hook and hook["module"] == module, p.stderr[-2000:]
        fired = hook["fired"] == "1"
        reasons = failed_reasons(out)
        if fired:  # the case that failed, and those that depend on the same step, say why
            lines = reasons.splitlines()
            assert p.returncode == 1 and lines, f"{spec}: exit {p.returncode}\n{p.stderr[-2000:]}"
            assert all(f"HMB_FAULT={spec}: injected failure" in line for line in lines), \
                f"{spec}: a failure other than the injected one\n{reasons}"
        else:
            assert p.returncode == 0, f"{spec}: exit {p.returncode}\n{reasons}"
        doc = hmbdoc.assert_valid(out, complete=True)  # alloc:1 leaves no ok record
        assert doc["modules"] == [module], doc["modules"]
        seen.append((spec, fired, int(hook["free_before"]), int(hook["free_after"])))
    detail = "\n".join(f"{module} {s}: fired {f}, free before {b}, after {a}, kept {b - a}"
                       for s, f, b, a in seen)
    print(detail)  # shown with pytest -rP
    assert all(a >= b for _, _, b, a in seen), detail
    assert sum(f for _, f, _, _ in seen) >= 4, detail


def test_gpu_host_side_check_catches_a_corrupted_word(gpu, tmp_path):
    """The same for the host-side check (memcpy's d2h cases, where the first
    check is of host memory): a check that reads nothing lets it pass."""
    out = tmp_path / "memcpy-d2h.json"
    p = hmb.run("--output", out, "memcpy", *TINY["memcpy"].split(), "--case", "d2h/pinned/*",
                env=dict(os.environ, HMB_FAULT="corrupt:1"), timeout=300)
    hook = _fault_hook_line(p.stderr)
    assert hook and hook["fired"] == "1", p.stderr[-2000:]
    lines = failed_reasons(out).splitlines()
    assert p.returncode == 1 and len(lines) == 1, f"exit {p.returncode}, failed:\n" + "\n".join(lines)
    assert "verification failed" in lines[0] and "injected" not in lines[0], lines[0]


@pytest.mark.parametrize("module", hmb.module_names())
def test_gpu_each_module_check_catches_a_corrupted_word(gpu, tmp_path, module):
    """HMB_FAULT=corrupt:N flips one word of the data that the N-th check is
    about to read, after the timed operations: the module's own check must
    fail that case with its own message. A check that checks nothing (or
    checks another buffer) lets the case pass, and this test fails."""
    for spec in ("corrupt:1", "corrupt:3"):
        out = tmp_path / f"{module}-{spec.replace(':', '-')}.json"
        p = hmb.run("--output", out, "--format", "csv", module, *TINY.get(module, "").split(),
                    env=dict(os.environ, HMB_FAULT=spec), timeout=300)
        hook = _fault_hook_line(p.stderr)
        assert hook and hook["module"] == module, p.stderr[-2000:]
        if spec == "corrupt:3" and hook["fired"] != "1":
            continue  # a module with fewer than 3 checks
        assert hook["fired"] == "1", f"{spec}: {module} has no data check\n{p.stderr[-2000:]}"
        lines = failed_reasons(out).splitlines()
        assert p.returncode == 1 and len(lines) == 1, \
            f"{spec}: exit {p.returncode}, failed:\n" + "\n".join(lines)
        assert "verification failed" in lines[0] and "injected" not in lines[0], lines[0]


def _metric(r, name):
    return r["metrics"][name]["value"]


def test_gpu_memcpy_pinning_costs_and_break_even(gpu, tmp_path):
    """pin/cost/CALL and pin/break-even/DIR/METHOD (on request): every case
    ran at both sizes and verified its memory, or says why it could not (no
    hipHostRegister); a break-even recomputes from the medians it records,
    and the pinned copy median is the record's own; where pinned copies are
    not faster there is no break-even figure, only the reason."""
    out = tmp_path / "pin.json"
    p = hmb.run("--case", "pin/*", "--sizes", "4K,1M", "--reps", "2", "--warmup", "1",
                "--output", out, "--format", "csv", "memcpy", timeout=300)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    doc = hmbdoc.assert_valid(out, modules=["memcpy"], no_failures=True)
    results = doc["results"]
    names = {r["case"] for r in results}
    assert names == {f"pin/cost/{c}" for c in ("hipHostMalloc", "hipHostFree", "hipHostRegister",
                                                "hipHostUnregister")} | \
        {f"pin/break-even/{d}/{m}" for d in ("h2d", "d2h")
         for m in ("hipHostMalloc", "hipHostRegister")}, names
    for r in results:
        where = f"{r['case']} {r['params'].get('size')}"
        if r["status"] == "unsupported":
            assert "egister" in r["case"] and r["reason"], where
            continue
        assert r["status"] == "ok", f"{where}: {r['reason']}"
        assert r["observed"]["verified"] is True and r["params"]["clock"] == "host-monotonic", where
        assert r["params"]["size"] in (4096, 1 << 20), where
        if not r["case"].startswith("pin/break-even/"):
            assert r["params"]["call"] == r["case"].split("/")[-1], where
            continue
        size = r["params"]["size"]
        pin, unpin = _metric(r, "pin_s"), _metric(r, "unpin_s")
        cost, pageable, pinned = (_metric(r, k) for k in ("pin_cost_s", "pageable_copy_s",
                                                          "pinned_copy_s"))
        assert cost == pytest.approx(pin + unpin, rel=1e-9), where
        assert pinned == pytest.approx(r["stats_s"]["median"], rel=1e-9), where
        assert _metric(r, "pageable_Bps") == pytest.approx(size / pageable, rel=1e-9), where
        assert _metric(r, "pinned_Bps") == pytest.approx(size / pinned, rel=1e-9), where
        if r["observed"]["pinned_faster"]:
            want = cost / (1 / (size / pageable) - 1 / (size / pinned))
            assert _metric(r, "break_even_bytes") == pytest.approx(want, rel=1e-6), where
            assert _metric(r, "copies_to_break_even") == \
                pytest.approx(_metric(r, "break_even_bytes") / size, rel=1e-9), where
            assert _metric(r, "break_even_bytes") > 0, where
        else:
            assert pinned >= pageable, where
            assert "break_even_bytes" not in r["metrics"], where
            assert "copies_to_break_even" not in r["metrics"], where
            assert r["observed"]["break_even"].startswith("none"), where
    sizes = {(r["case"], r["params"]["size"]) for r in results if r["status"] == "ok"}
    assert {s for _, s in sizes} == {4096, 1 << 20}, sizes


def test_gpu_memcpy_batched_copies(gpu, tmp_path):
    """batch/DIR/LAYOUT/WAY (on request): the loop cases run and verify every
    block everywhere; the batched ones do too, with their ratio to the loop,
    or one batch/unsupported record says why the runtime lacks the call."""
    out = tmp_path / "batch.json"
    p = hmb.run("--case", "batch/*", "--reps", "2", "--warmup", "1", "--output", out,
                "--format", "csv", "memcpy", timeout=300)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    doc = hmbdoc.assert_valid(out, modules=["memcpy"], no_failures=True)
    by = {r["case"]: r for r in doc["results"]}
    ways = [f"batch/{d}/{l}" for d in ("h2d", "d2h") for l in ("contiguous", "scattered")]
    if "batch/unsupported" in by:
        assert by["batch/unsupported"]["status"] == "unsupported"
        assert "hipMemcpyBatchAsync" in by["batch/unsupported"]["reason"]
        assert not [c for c in by if c.endswith("/batched")], sorted(by)
        wanted = [w + "/loop" for w in ways]
    else:
        wanted = [w + s for w in ways for s in ("/loop", "/batched")]
    assert sorted(c for c in by if c != "batch/unsupported") == sorted(wanted)
    for name in wanted:
        r = by[name]
        assert r["status"] == "ok", f"{name}: {r['reason']}"
        assert r["observed"]["verified"] is True, name
        assert r["ops"] == 1024 and r["bytes"] == 1024 * 4096, name
        assert r["params"]["clock"] == "hip-events" and r["params"]["latch"] is False, name
        if name.endswith("/batched"):
            loop = by[name.replace("/batched", "/loop")]
            assert _metric(r, "loop_median_s") == pytest.approx(loop["stats_s"]["median"],
                                                                rel=1e-9), name
            assert _metric(r, "batched_over_loop") == pytest.approx(
                r["stats_s"]["median"] / loop["stats_s"]["median"], rel=1e-9), name


def test_gpu_memcpy_plain_run_leaves_pinning_and_batches_out(gpu, tmp_path):
    """They are on request: a plain memcpy run (all's too) records none of them."""
    out = tmp_path / "plain.json"
    p = hmb.run("--output", out, "--format", "csv", "memcpy", *TINY["memcpy"].split(),
                timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    cases = [r["case"] for r in hmbdoc.load(out)["results"]]
    assert cases and not [c for c in cases if c.startswith(("pin/", "batch/"))], cases


def _managed_cases(tmp_path, name, *cases):
    """Run the managed module on the cases given (--case each) at 4M, 2 reps;
    the records, after checking the run passed and the document is valid."""
    out = tmp_path / f"{name}.json"
    sel = [a for c in cases for a in ("--case", c)]
    p = hmb.run("--output", out, "--format", "csv", *sel, "managed", "--sizes", "4M",
                "--reps", "2", "--warmup", "1", timeout=600)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    hmbdoc.assert_valid(out, modules=["managed"], no_failures=True, complete=True)
    return hmbdoc.load(out)["results"]


RANGE_BOTH_WAYS = ("read_mostly", "plural_read_mostly", "preferred_location",
                   "plural_preferred_location", "accessed_by_device", "plural_accessed_by_device",
                   "accessed_by_host", "plural_accessed_by_host")


def _ran_and_read_the_range_both_ways(r):
    assert r["status"] == "ok", f"{r['case']}: {r['status']} {r['reason']}"
    assert r["observed"].get("verified") is True, r["case"]
    assert r["params"].get("timed"), r["case"]
    seen = r["observed"]
    missing = [k for k in RANGE_BOTH_WAYS if k not in seen]
    assert not missing, f"{r['case']}: no {missing} ({seen.get('range_attributes_unread')})"
    assert isinstance(seen.get("range_attributes_agree"), bool), f"{r['case']}: {seen}"


def test_gpu_managed_versus_family(gpu, tmp_path):
    """Explicit copies against managed memory on one workload: every variant
    runs at 4M, verifies, states its timed region (host clock); the managed
    ones give ratio_to_explicit and the range read both ways. Without
    --oversubscribe, 1.5 and 2 x free memory are skipped with the reason (or
    unsupported where the GPU does not migrate on demand)."""
    res = _managed_cases(tmp_path, "versus", "versus/*")
    ran = {r["case"]: r for r in res if "oversubscription_factor" not in r["params"]}
    assert sorted(ran) == sorted(c for c in hmb.run("list", "--cases").stdout.split()
                                 if c.startswith("versus/")), sorted(ran)
    for name, r in ran.items():
        assert r["status"] == "ok" and r["observed"].get("verified") is True, name
        assert r["params"]["clock"] == "host-monotonic" and r["params"]["size"] == 4 << 20, name
        assert "host sum" in r["params"]["timed"], name
        if name.startswith("versus/managed-"):
            _ran_and_read_the_range_both_ways(r)
        if name != "versus/explicit":
            assert r["metrics"]["ratio_to_explicit"]["value"] > 0, name
    over = [r for r in res if "oversubscription_factor" in r["params"]]
    assert sorted({r["params"]["oversubscription_factor"] for r in over}) == [1.5, 2.0], over
    assert len(over) == 2 * sum(n.startswith("versus/managed-") for n in ran), len(over)
    for r in over:
        assert r["status"] in ("skipped", "unsupported") and r["reason"], r
        if r["status"] == "skipped":
            assert "--oversubscribe" in r["reason"], r["reason"]
        assert not r["samples_s"], r


def test_gpu_managed_new_advice_cases(gpu, tmp_path):
    """AccessedBy the host and the guide's combined advice run when asked,
    verify, and keep the range attributes read with the singular and the
    plural call, and whether they agree."""
    res = _managed_cases(tmp_path, "advice", "advise-accessed-by-host/*", "advise-combined/*",
                         "on-demand/first-kernel")
    by = {r["case"]: r for r in res}
    assert sorted(by) == ["advise-accessed-by-host/first-kernel", "advise-combined/first-kernel",
                          "on-demand/first-kernel"], sorted(by)
    host, combined = by["advise-accessed-by-host/first-kernel"], by["advise-combined/first-kernel"]
    for r in (host, combined):
        _ran_and_read_the_range_both_ways(r)
        assert r["metrics"]["speedup_over_on_demand"]["value"] > 0, r["case"]
    assert host["params"]["advice"] == "accessed-by=host"
    assert combined["params"]["advice"] == \
        "read-mostly+preferred-location=device+accessed-by=device"
    assert combined["params"]["kernel"] == "read-only"


def test_gpu_managed_kernel_shapes(gpu, tmp_path):
    """The first-touch fill and the first kernel in each shape (on request):
    each ran and verified its data, at sizes that are and are not a multiple
    of 16 bytes (the last words one at a time), and says its store width and
    geometry; touch/gpu-first is the 16-byte shape's."""
    out = tmp_path / "shapes.json"
    p = hmb.run("--output", out, "--case", "touch/gpu-first/shape/*",
                "--case", "on-demand/first-kernel/shape/*", "--case", "touch/gpu-first",
                "managed", "--sizes", "4M,4100", "--reps", "2", "--warmup", "1", timeout=600)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    res = hmbdoc.load(out)["results"]
    shapes = [c for c in hmb.run("list", "--cases").stdout.split() if "/shape/" in c]
    for size in (4 << 20, 4100):
        ran = {r["case"]: r for r in res if r["params"].get("size") == size}
        assert sorted(ran) == sorted(shapes + ["touch/gpu-first"]), (size, sorted(ran))
        for name, r in ran.items():
            assert r["status"] == "ok" and r["observed"].get("verified") is True, (name, r["reason"])
            want = 4 if "/4B-" in name else 16
            assert r["params"]["store_bytes"] == want, name
            assert r["params"]["grid_blocks"] >= 1, name
        assert ran["touch/gpu-first"]["params"]["pages_first"] is False


def test_gpu_managed_attach_flags_side_by_side(gpu, tmp_path):
    """attach/stream-single, attach/global and attach/host: the same kernel,
    each verified (attach/host unsupported, saying why, only where the
    device has no concurrent managed access); the device attribute is kept."""
    res = _managed_cases(tmp_path, "attach", "attach/*")
    by = {r["case"]: r for r in res}
    assert sorted(by) == ["attach/global", "attach/host", "attach/stream-single"], sorted(by)
    for name, flag in (("attach/stream-single", "hipMemAttachSingle"),
                       ("attach/global", "hipMemAttachGlobal"),
                       ("attach/host", "hipMemAttachHost")):
        r = by[name]
        assert f"hipStreamAttachMemAsync({flag})" in r["params"]["attach"], r["params"]
        assert "concurrent_managed_access" in r["observed"], name
        if r["status"] == "unsupported":
            assert name == "attach/host" and r["observed"]["concurrent_managed_access"] is False
            assert "concurrent managed access" in r["reason"]
            continue
        assert r["status"] == "ok" and r["observed"].get("verified") is True, name
        assert "increment kernel" in r["params"]["timed"], name


def test_gpu_pool_growth_keeps_every_block_and_watches_the_pool(gpu, tmp_path):
    """grow/* (on request): four 2 MiB steps, a sample each; the pool's
    high-water marks, read after every step, never go down and end at least
    at what is alive; every block is checked; what the pool keeps after the
    frees and after a trim is said."""
    out = tmp_path / "grow.json"
    p = hmb.run("--case", "grow/*", "--output", out, "pool", "--grow-step", "2M",
                "--grow-limit", "8M", timeout=300)
    assert p.returncode == 0, p.stderr[-2000:] + failed_reasons(out)
    doc = hmbdoc.assert_valid(out, modules=["pool"], no_failures=True, complete=True)
    records = {r["case"]: r for r in doc["results"]}
    assert sorted(records) == ["grow/created-pool", "grow/default-pool"], sorted(records)
    for name, r in records.items():
        obs = r["observed"]
        assert r["status"] == "ok" and obs["verified"] is True, name
        assert len(r["samples_s"]) == 4 and obs["steps"] == 4, name
        assert r["params"]["step"] == 2 << 20 and r["params"]["size"] == 8 << 20, name
        steps = {k: [int(v) for v in obs[f"pool_{k}_bytes_per_step"].split(",")]
                 for k in ("reserved", "reserved_high", "used", "used_high")}
        for k, values in steps.items():
            assert len(values) == 4, (name, k, values)
        for k in ("reserved_high", "used_high"):
            assert steps[k] == sorted(steps[k]), (name, k, steps[k])  # monotone
        for i in range(4):
            assert steps["used"][i] >= (i + 1) * (2 << 20), (name, steps["used"])
            assert steps["used_high"][i] >= steps["used"][i], (name, steps)
            assert steps["reserved_high"][i] >= steps["reserved"][i] >= steps["used"][i], \
                (name, steps)
        assert obs["pool_used_high_bytes"] >= 8 << 20, name
        for k in ("reserved_bytes_after_free", "used_bytes_after_free",
                  "reserved_bytes_after_trim"):
            assert k in obs, (name, k)
        assert obs["used_bytes_after_free"] == 0, name
    # the created pool keeps everything (threshold unlimited) until trimmed
    created = records["grow/created-pool"]["observed"]
    assert created["reserved_bytes_after_free"] >= 8 << 20, created
    assert created["reserved_bytes_after_trim"] == 0, created


def test_gpu_vmm_share_hands_a_chunk_to_another_process(gpu, tmp_path):
    """share/* (on request): export, import and map+access in a second process,
    the whole round; each round checked both ways. Where the device cannot
    export file descriptors: one record, unsupported, with the reason."""
    out = tmp_path / "share.json"
    p = hmb.run("--case", "share/*", "--reps", "3", "--warmup", "1", "--output", out, "vmm",
                "--share-size", "2M", timeout=300)
    assert p.returncode == 0, p.stderr[-2000:] + failed_reasons(out)
    doc = hmbdoc.assert_valid(out, modules=["vmm"], no_failures=True, complete=True)
    records = {r["case"]: r for r in doc["results"]}
    if any(r["status"] == "unsupported" for r in records.values()):
        assert len(records) == 1, sorted(records)
        assert list(records.values())[0]["reason"], records
        return
    names = [f"share/posix-fd/{k}" for k in ("export", "import", "map-access", "round-trip")]
    assert sorted(records) == sorted(names), sorted(records)
    for name, r in records.items():
        obs = r["observed"]
        assert r["status"] == "ok" and obs["verified"] is True, name
        assert obs["importer_verified"] is True and obs["exporter_verified"] is True, name
        assert obs["rounds"] == 4 and len(r["samples_s"]) == 3, name  # warm-up + 3
        assert r["params"]["size"] >= 2 << 20 and r["params"]["handle_type"] == "posix-fd"
        assert obs["importer_start_s"] > 0, name
    for name in ("share/posix-fd/import", "share/posix-fd/map-access"):
        assert records[name]["params"]["clock"] == "reported-by-op", name
    # the importer is gone: no process of this binary outlives the run
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue  # gone meanwhile
        if b"__vmm-importer" in cmd:
            left.append(f"{pid}: {cmd.decode(errors='replace')}")
    assert left == [], left
