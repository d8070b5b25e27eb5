"""test_emulated.py - every module's code run without a GPU, on the emulated runtime.

`make emulated` builds hipmembench on HIP emulated on the CPU
(src/platform/hip_emulated.h): device memory is host memory, streams are
threads, kernels are loops. Its timings measure the host and are never checked
here; what is checked is what the modules do with them, which is the same code
as on a GPU:

- each module runs (default and on-request cases), exits 0 and writes a
  complete, valid document; every record is ok, or unsupported/skipped with
  its reason; every moved buffer was verified;
- each module gives the cases it should on this platform (an NVIDIA-like
  device pair: the AMD-only kinds unsupported, the rest measured);
- every figure follows from the samples (GB/s, us/op, peak fraction), and the
  figures that compare cases (speedups, ratios, efficiencies, per-fault and
  per-load costs) follow from the records they compare.

HMB_EMULATED_BIN names the binary (default: emulated/hipmembench beside HMB_BIN).
"""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

import hmb
import hmbdoc

# One process runs the file under pytest-xdist (make test TEST_JOBS=N): its
# module-scoped fixture is made once.
pytestmark = pytest.mark.xdist_group("test_emulated")

EMULATED = os.environ.get("HMB_EMULATED_BIN") or str(hmb.BIN.parent / "emulated" / "hipmembench")

# The runs: small sizes and loops, so the whole file takes seconds.
RUNS = {
    "memcpy": ["memcpy", "--quick", "--peak-gbps", "20"],
    "memcpy-on-request": ["memcpy", "--quick", "--sizes", "1M", "--case", "batch/*",
                          "--case", "h2h/*", "--case", "*untouched*", "--case", "pin/*",
                          "--case", "*thp*", "--case", "*default-kind", "--peak-gbps", "20"],
    "overlap": ["overlap", "--quick", "--sizes", "1M", "--streams", "2", "--chunks", "2,4"],
    "managed": ["managed", "--quick", "--sizes", "4M"],
    "managed-on-request": ["managed", "--quick", "--sizes", "4M", "--case", "*/shape/*",
                           "--case", "advise-accessed-by-host/*", "--case", "advise-combined/*"],
    "managed-versus": ["managed", "--quick", "--case", "versus/*", "--oversubscribe", "2"],
    "xnack": ["xnack", "--quick"],
    "pool": ["pool", "--quick", "--sizes", "4K,1M", "--loop", "20"],
    "pool-grow": ["pool", "--quick", "--case", "grow/*", "--grow-step", "64M",
                  "--grow-limit", "256M"],
    "vmm": ["vmm", "--quick", "--limit", "256M", "--call-sizes", "2M"],
    "vmm-share": ["vmm", "--quick", "--case", "share/*", "--share-size", "2M"],
    "node": ["node", "--quick", "--copy-size", "4M"],
    "node-stride": ["node", "--quick", "--copy-size", "4M", "--chase-stride", "2",
                    "--case", "device/latency"],
    "memcpy-default": ["memcpy", "--case", "h2d/pinned/async", "--sizes", "1M,128M"],
}
# `all` on both GPUs at once, every module with small options.
ALL = ["--devices", "all", "all", "--quick", "--sizes", "1M", "--loop", "20", "--limit", "256M",
       "--call-sizes", "2M", "--copy-size", "4M", "--streams", "2", "--chunks", "2"]
PER_GPU = ("memcpy", "overlap", "managed", "xnack", "pool", "vmm")
HOST_LINK = ("memcpy", "overlap", "managed", "xnack")
# Device memory of each emulated GPU (MiB): versus/* oversubscribes it.
GPU_MIB = {"managed-versus": "128"}

# What each run gives on two emulated GPUs; a change of a module's cases is made here
# on purpose.
CASES = {
    "memcpy": {f"{d}/{k}/{m}" for d in ("h2d", "d2h")
               for k in ("pageable", "pinned", "registered", "write-combined")
               for m in ("async", "sync")} |
              {"h2d/pinned/reference", "d2h/pinned/reference", "d2d/device/async",
               "d2d/device/sync", "pinned-coherent/unsupported", "pinned-noncoherent/unsupported",
               "write-combined-coherent/unsupported", "uncached/unsupported",
               "device-fine-grained/unsupported", "device-uncached/unsupported"},
    "memcpy-on-request": {f"batch/{d}/{lay}/{how}" for d in ("h2d", "d2h")
                          for lay in ("contiguous", "scattered") for how in ("batched", "loop")} |
                         {f"{d}/{k}/async" for d in ("h2d", "d2h")
                          for k in ("thp", "thp-registered", "untouched-pageable")} |
                         {"h2d/untouched-pageable/sync", "d2h/untouched-pageable/sync",
                          "h2d/pinned/async-default-kind", "d2h/pinned/async-default-kind",
                          "d2d/device/async-default-kind", "h2h/pinned/sync", "h2h/pinned/memcpy",
                          "h2h/pageable/sync", "h2h/pageable/memcpy"} |
                         {f"pin/cost/{c}" for c in ("hipHostMalloc", "hipHostFree",
                                                     "hipHostRegister", "hipHostUnregister")} |
                         {f"pin/break-even/{d}/{c}" for d in ("h2d", "d2h")
                          for c in ("hipHostMalloc", "hipHostRegister")},
    "overlap": {f"{d}-only/{k}" for d in ("h2d", "d2h") for k in ("pinned", "pageable")} |
               {f"kernel-only/{load}" for load in ("copy-bound", "balanced", "compute-bound")} |
               {f"{s}/pinned/{load}" for s in ("serial", "pipeline")
                for load in ("copy-bound", "balanced", "compute-bound")} |
               {"serial/pageable/balanced", "pipeline/pageable/balanced",
                "bidirectional/one-after-other", "bidirectional/concurrent"},
    "managed": {"on-demand/first-kernel", "on-demand/second-kernel", "prefetch/prefetch-only",
                "prefetch/with-kernel", "prefetch/kernel-after-prefetch",
                "advise-read-mostly/first-kernel", "advise-preferred-device/first-kernel",
                "advise-preferred-host/first-kernel", "advise-accessed-by-device/first-kernel",
                "advise-coarse-grain/first-kernel", "prefetch+read-mostly/prefetch",
                "prefetch+read-mostly/first-kernel", "back/host-sum-resident",
                "back/cpu-read-after-gpu", "back/prefetch-to-host", "touch/gpu-first",
                "touch/host-first", "static/__managed__", "attach/stream-single", "attach/global",
                "attach/host"},
    "managed-on-request": {"advise-accessed-by-host/first-kernel", "advise-combined/first-kernel",
                           "on-demand/first-kernel/shape/16B-per-thread"} |
                          {f"touch/gpu-first/shape/{s}" for s in
                           ("16B-grid-stride", "16B-pages-first", "16B-per-thread",
                            "4B-grid-stride", "4B-per-thread")},
    "managed-versus": {"versus/explicit", "versus/explicit-pinned"} |
                      {f"versus/managed-{k}" for k in ("on-demand", "prefetch", "read-mostly",
                                                       "preferred-device", "accessed-by-device")},
    "xnack": {f"managed/fault-{f}/stride={s}/{o}{r}" for f in ("latency", "throughput")
              for s, o in (("4K", "sequential"), ("4K", "random"), ("4K", "sparse"),
                           ("64K", "sequential"), ("64K", "random"), ("2M", "sequential"),
                           ("2M", "random"))
              for r in ("", "/resident")} | {"xnack/state", "system/fault", "zero-copy/read"},
    "pool": {f"{s}/{a}" for s in ("course", "sync-each", "alloc-free")
             for a in ("hipMalloc", "hipMalloc-empty-heap", "default-pool", "default-pool-retain",
                       "created-pool")} |
            {"course/kernel-only", "sync-each/kernel-only", "trim/created-pool"},
    "pool-grow": {"grow/created-pool", "grow/default-pool"},
    "vmm": {f"grow/{how}/{p}" for how in ("realloc-copy", "vmm-reserve-upfront", "vmm-extend")
            for p in ("fixed-step", "doubling")} |
           {f"call/{c}" for c in ("hipMemCreate", "hipMemAddressReserve", "hipMemMap",
                                   "hipMemSetAccess", "hipMemUnmap", "hipMemRelease",
                                   "hipMemAddressFree")} |
           {"free-while-busy/hipFree", "free-while-busy/vmm-unmap-release"},
    "vmm-share": {f"share/posix-fd/{c}" for c in ("export", "import", "map-access", "round-trip")},
    "node-stride": {"device/latency"},
    "memcpy-default": {"h2d/pinned/async"},
    "node": {"topology/gpu", "topology/pair", "access-cost/hipmalloc/no-peer-access",
             "access-cost/hipmalloc/peer-access", "access-cost/vmm", "device/latency",
             "host/latency", "p2p/latency", "p2p/latency/reference", "p2p/ce/write/reference"} |
            {f"host/{d}/{s}" for d in ("h2d", "d2h", "bidir") for s in ("alone", "all", "in-all")} |
            {f"host/{d}/{s}" for d in ("h2d", "d2h") for s in ("interfered", "kernel")} |
            {f"p2p/ce-disabled/{d}" for d in ("read", "write", "bidir")} |
            {f"p2p/ce/{d}" for d in ("read", "write", "bidir-read", "bidir-write", "one-to-all",
                                     "all-to-one")} |
            {"p2p/sm/read", "p2p/sm/write"},
}
# Runs again with every copy and every writing kernel of 4 KiB or more one byte wrong
# (HMB_EMULATED_CORRUPT=1), and what must then stay ok: the cases that check no data
# (latency chases, the host's own sum, page-fault timings) or move it with the C library's
# memcpy. Every other case must fail its verification: one that checks nothing of what it
# moved would pass.
LATENCY = {"device/latency", "host/latency", "p2p/latency", "p2p/latency/reference"}
CORRUPT = {name: set() for name in RUNS}
CORRUPT.update({
    "memcpy-on-request": {"h2h/pageable/memcpy", "h2h/pinned/memcpy"},
    "managed": {"back/host-sum-resident"},
    "xnack": {c for c in CASES["xnack"] if c.startswith("managed/")} | {"xnack/state"},
    "node": LATENCY | {"topology/gpu", "topology/pair"},
    "node-stride": {"device/latency"},
})

# Where the emulated platform has no such thing: the AMD-only kinds, a second NUMA
# node, kernels on malloc'd memory.
NOT_MEASURED = {"unsupported", "skipped"}
# Runs whose records have no bytes or operations to make GB/s or us/op of.
NO_RATES = {"pool-grow", "vmm", "vmm-share", "node-stride"}


class Runs(dict):
    """The runs' (process, document) by name, each made when a test first asks for it
    (so that `-k memcpy` runs only memcpy)."""

    def __init__(self, folder, args, **env):
        super().__init__()
        self.folder, self.args, self.env = folder, args, env

    def __missing__(self, name):
        if not os.access(EMULATED, os.X_OK):
            pytest.fail(f"{EMULATED} is not built: run `make emulated` (or `make test`), or set "
                        "HMB_EMULATED_BIN", pytrace=False)
        path = self.folder / f"{name}.json"
        env = dict(os.environ, HMB_EMULATED_GPUS="2", HMB_EMULATED_GPU_MIB=GPU_MIB.get(name, "2048"),
                   HMB_EMULATED_LEAK_CHECK="1", **self.env)
        p = subprocess.run([EMULATED, *self.args[name], "-o", str(path)], capture_output=True,
                           text=True, timeout=300, env=env)
        self[name] = (p, json.loads(path.read_text()) if path.is_file() else None)
        return self[name]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return Runs(tmp_path_factory.mktemp("emulated"), RUNS)


@pytest.fixture(scope="module")
def corrupted(tmp_path_factory):
    return Runs(tmp_path_factory.mktemp("corrupted"), RUNS, HMB_EMULATED_CORRUPT="1")


def ok_records(doc):
    return [r for r in doc["results"] if r["status"] == "ok"]


def median(r):
    return r["stats_s"]["median"]


def close(a, b, rel=1e-9):
    return a == b or (b != 0 and abs(a / b - 1) <= rel)


@pytest.mark.parametrize("name", RUNS)
def test_each_module_runs_verifies_and_writes_a_valid_document(runs, name):
    p, doc = runs[name]
    assert p.returncode == 0, f"{name}: exit {p.returncode}\n{p.stderr[-2000:]}"
    assert doc is not None, f"{name}: no document"
    hmbdoc.assert_valid(doc, modules=[RUNS[name][0]], no_failures=True, complete=True)
    assert doc["platform"] == "emulated"
    for r in doc["results"]:
        where = f"{name}: {r['case']}"
        assert r["status"] == "ok" or r["status"] in NOT_MEASURED and r["reason"], where
        if r["status"] == "ok" and r["samples_s"]:
            assert all(s > 0 for s in r["samples_s"]), where
            if "verified" in r["observed"]:
                assert r["observed"]["verified"] is True, where


def roles_problems(doc):
    """Each result's declared roles against what documents written before them meant
    (hmbdoc.legacy_roles): every parameter those took for context is declared context
    still, and the same one names the GPU, so that a new document matches an older one.
    A parameter added since may be context where its module declares it so."""
    out = []
    for r in doc["results"]:
        context, gpu = hmbdoc.legacy_roles(r)
        if not context <= set(r["context"]) or r.get("gpu_param") != gpu:
            out.append(f"{r['module']} {r['case']}: declared {r['context']} and GPU "
                       f"{r.get('gpu_param')}; older documents: {sorted(context)}, {gpu}")
    return out


@pytest.mark.parametrize("name", RUNS)
def test_each_parameter_keeps_the_role_older_documents_gave_it(runs, name):
    """A module declares each parameter's role where it writes it, and the document
    lists the context: what older documents took for context is declared so still."""
    problems = roles_problems(runs[name][1])
    assert not problems, "\n".join(problems[:10])


@pytest.mark.parametrize("name", RUNS)
def test_a_run_prints_the_tables_show_prints_of_its_document(runs, name):
    """What a run printed on stdout is `show` of the document it wrote, line for line:
    the same groups, headings, sizes in binary units, peaks and time per copy."""
    p, _ = runs[name]
    shown = subprocess.run([EMULATED, "show", str(runs.folder / f"{name}.json")],
                           capture_output=True, text=True, timeout=120)
    assert (shown.returncode, shown.stderr) == (0, "")
    assert p.stdout == shown.stdout


@pytest.mark.parametrize("name", RUNS)
def test_each_module_gives_its_cases(runs, name):
    doc = runs[name][1]
    got = {r["case"] for r in doc["results"]}
    assert got == CASES[name], f"{name}: missing {sorted(CASES[name] - got)}, " \
        f"not expected {sorted(got - CASES[name])}"


@pytest.mark.parametrize("name", RUNS)
def test_figures_follow_from_the_samples(runs, name):
    doc = runs[name][1]
    checked = 0
    for r in ok_records(doc):
        if not r["samples_s"]:
            continue
        where = f"{name}: {r['case']} {r['params'].get('size', '')}"
        m = median(r)
        if r["bytes"]:
            assert r["gbps_median"] is not None and close(r["gbps_median"], r["bytes"] / m / 1e9), where
            assert close(r["gbps_best"], r["bytes"] / min(r["samples_s"]) / 1e9), where
            if r["peak_gbps"]:
                assert close(r["peak_fraction"], r["gbps_median"] / r["peak_gbps"]), where
            checked += 1
        if r["ops"]:
            assert r["us_per_op_median"] is not None and \
                close(r["us_per_op_median"], m / r["ops"] * 1e6), where
            checked += 1
    assert checked or name in NO_RATES, f"{name}: no figure to check"


def test_memcpy_figures_read_against_the_given_peak(runs):
    doc = runs["memcpy"][1]
    host = [r for r in ok_records(doc) if r["case"].startswith(("h2d/", "d2h/"))]
    assert host and all(r["peak_gbps"] == 20 for r in host)
    for r in ok_records(doc):  # a sample moves one copy, or ops_per_sample of them
        copies = r["params"]["ops_per_sample"] if r["case"].endswith("/reference") else 1
        assert r["bytes"] == r["params"]["size"] * copies, r["case"]


def test_memcpy_records_where_each_side_lives(runs):
    for r in ok_records(runs["memcpy"][1]):
        d, kind = r["case"].split("/")[:2]
        src, dst = r["observed"]["src_memory"], r["observed"]["dst_memory"]
        host_side = dst if d == "d2h" else src
        device_side = src if d == "d2h" else dst
        assert device_side == "device", r["case"]
        if d != "d2d":
            assert host_side == ("host-pageable" if kind == "pageable" else "host-pinned"), \
                (r["case"], host_side)


def metric(r, k):
    return r["metrics"][k]["value"]


def test_overlap_speedups_follow_from_serial_and_ideal_times(runs):
    rs = ok_records(runs["overlap"][1])
    by_case = {r["case"]: r for r in rs}
    pipes = [r for r in rs if r["case"].startswith("pipeline/")]
    # 2 streams over 2 and 4 chunks for each pinned load; pageable memory once: the
    # balanced load, the most streams and chunks asked for
    assert sorted((r["case"], r["params"]["chunks"]) for r in pipes) == sorted(
        [(f"pipeline/pinned/{load}", c) for load in ("copy-bound", "balanced", "compute-bound")
         for c in (2, 4)] + [("pipeline/pageable/balanced", 4)])
    for r in pipes:
        kind, load = r["case"].split("/")[1:]
        s, ideal, t = metric(r, "serial_s"), metric(r, "ideal_s"), median(r)
        assert s == median(by_case[f"serial/{kind}/{load}"]), r["case"]
        # two copy engines: the slowest of the three stages alone bounds the pipeline
        assert "separate copy engines" in r["params"]["ideal_bound"]
        assert ideal == max(median(by_case[f"h2d-only/{kind}"]), median(by_case[f"d2h-only/{kind}"]),
                            median(by_case[f"kernel-only/{load}"])), r["case"]
        assert close(metric(r, "speedup"), s / t), r["case"]
        assert close(metric(r, "ideal_speedup"), s / ideal), r["case"]
        if s - ideal > 0.1 * s:  # something to hide; else the ratio is noise, and not given
            assert close(metric(r, "overlap_efficiency"), (s - t) / (s - ideal)), r["case"]
        else:
            assert "overlap_efficiency" not in r["metrics"], r["case"]
    both = by_case["bidirectional/concurrent"]
    assert close(metric(both, "speedup"), median(by_case["bidirectional/one-after-other"]) /
                 median(both))


def test_managed_speedups_and_ratios_name_their_baseline(runs):
    rs = ok_records(runs["managed"][1])
    base = median(next(r for r in rs if r["case"] == "on-demand/first-kernel"))
    with_speedup = [r for r in rs if "speedup_over_on_demand" in r["metrics"]]
    assert len(with_speedup) >= 4
    for r in with_speedup:
        assert close(metric(r, "speedup_over_on_demand"), base / median(r)), r["case"]
    vs = ok_records(runs["managed-versus"][1])
    explicit = {r["bytes"]: median(r) for r in vs if r["case"] == "versus/explicit"}
    ratios = [r for r in vs if "ratio_to_explicit" in r["metrics"]]
    assert len(ratios) == 6
    for r in ratios:
        assert r["metrics"]["ratio_to_explicit"]["unit"] == "x-slower"
        assert close(metric(r, "ratio_to_explicit"), median(r) / explicit[r["bytes"]]), r["case"]


def test_pool_speedups_compare_with_hipmalloc_of_the_same_shape_and_size(runs):
    rs = ok_records(runs["pool"][1])
    base = {(r["params"]["shape"], r["params"]["size"]): median(r) for r in rs
            if r["case"].endswith("/hipMalloc")}
    with_speedup = [r for r in rs if "speedup_over_hipMalloc" in r["metrics"]]
    assert len(with_speedup) >= 8
    for r in with_speedup:
        b = base[(r["params"]["shape"], r["params"]["size"])]
        assert close(metric(r, "speedup_over_hipMalloc"), b / median(r)), r["case"]


def test_xnack_cost_per_fault_is_what_the_first_touch_adds_to_the_resident_run(runs):
    rs = ok_records(runs["xnack"][1])
    twins = {(r["case"][:-len("/resident")], r["params"]["stride"]): r for r in rs
             if r["case"].endswith("/resident")}
    firsts = [r for r in rs if r["case"].startswith("managed/fault-") and
              not r["case"].endswith("/resident")]
    assert len(firsts) == len(twins) == 14
    for r in firsts:
        t, base = median(r), median(twins[(r["case"], r["params"]["stride"])])
        assert metric(r, "resident_median_s") == base, r["case"]
        per_page = {k: v["value"] for k, v in r["metrics"].items() if k != "resident_median_s"}
        if t <= base:
            assert not per_page and "not slower" in r["observed"]["metric_missing"], r["case"]
        elif "/fault-latency/" in r["case"]:
            assert close(per_page.pop("us_per_fault"), (t - base) / r["ops"] * 1e6, 1e-6), r["case"]
        else:
            (value,) = per_page.values()
            assert close(value, r["ops"] / (t - base), 1e-6), r["case"]


def test_node_latency_is_per_load(runs):
    rs = [r for r in ok_records(runs["node"][1]) if "ns_per_load" in r["metrics"]]
    assert rs
    for r in rs:
        assert close(metric(r, "ns_per_load"), median(r) / r["params"]["loads"] * 1e9), r["case"]


def test_vmm_growth_takes_its_steps_and_peaks_where_the_policy_says(runs):
    rs = [r for r in ok_records(runs["vmm"][1]) if r["case"].startswith("grow/")]
    assert len(rs) == 6
    for r in rs:
        size, start = r["params"]["size"], r["params"]["start"]
        fixed = r["case"].endswith("/fixed-step")
        steps = (size - start) // r["params"]["step"] if fixed else (size // start).bit_length() - 1
        assert len(r["samples_s"]) == steps, r["case"]
        assert close(metric(r, "total_s"), sum(r["samples_s"]), 1e-12), r["case"]
        last_old = size - r["params"]["step"] if fixed else size // 2
        # realloc+copy holds the old buffer and the new one at the last step; VMM only the new
        want = last_old + size if "/realloc-copy/" in r["case"] else size
        assert metric(r, "peak_bytes") == want, r["case"]


def test_pool_growth_reports_what_the_pool_holds_at_each_step(runs):
    rs = ok_records(runs["pool-grow"][1])
    assert len(rs) == 2
    step = 64 << 20
    for r in rs:
        o = {k: [int(x) for x in v.split(",")] if k.endswith("_per_step") else v
             for k, v in r["observed"].items()}
        n = 256 // 64
        assert o["steps"] == n == len(r["samples_s"]), r["case"]
        assert o["pool_used_bytes_per_step"] == [step * (k + 1) for k in range(n)], r["case"]
        assert all(res >= used for res, used in zip(o["pool_reserved_bytes_per_step"],
                                                     o["pool_used_bytes_per_step"])), r["case"]
        assert o["pool_used_high_bytes"] == n * step, r["case"]
        assert o["used_bytes_after_free"] == 0 and o["reserved_bytes_after_trim"] == 0, r["case"]
        assert close(metric(r, "total_s"), sum(r["samples_s"]), 1e-12), r["case"]


@pytest.mark.parametrize("name", CORRUPT)
def test_every_case_that_copies_data_fails_when_the_copies_are_wrong(corrupted, name):
    p, doc = corrupted[name]
    hmbdoc.assert_valid(doc)
    ok = {r["case"] for r in doc["results"] if r["status"] == "ok"}
    want = 1 if CASES[name] - CORRUPT[name] else 0  # 1: cases failed
    assert p.returncode == want, f"{name}: exit {p.returncode}, not {want}\n{p.stderr[-1500:]}"
    assert ok == CORRUPT[name], f"{name}: ok with wrong copies: {sorted(ok - CORRUPT[name])}; " \
        f"failed though they copy nothing: {sorted(CORRUPT[name] - ok)}"
    for r in doc["results"]:
        if r["status"] == "failed":
            assert "verification failed: " in r["reason"] and r["samples_s"] == [], \
                (r["case"], r["reason"])
            # "N of M words differ": M, the words checked, is the buffer's
            of = re.search(r" of (\d+) words", r["reason"])
            assert not of or int(of.group(1)) == r["params"]["size"] // 4, (r["case"], r["reason"])


def test_the_device_is_described_as_the_runtime_declares_it(runs):
    d = runs["memcpy"][1]["device"]
    assert (d["ordinal"], d["count"], d["name"]) == (0, 2, "Emulated GPU 0 (host memory, no GPU)")
    assert (d["arch"], d["pci_bus_id"]) == ("sm_00", "ffff:01:00.0")
    assert d["total_memory_bytes"] == 2048 << 20
    assert (d["compute_units"], d["l2_cache_bytes"], d["memory_bus_width_bits"],
            d["memory_clock_khz"], d["async_engine_count"]) == (1, 4 << 20, 64, 1600000, 2)
    assert (d["managed_memory"], d["concurrent_managed_access"], d["pageable_memory_access"],
            d["can_map_host_memory"], d["host_register"], d["memory_pools"],
            d["concurrent_kernels"], d["integrated"]) == (True, True, False, True, True, True,
                                                          True, False)
    assert d["fine_grained_memory"] is None  # an AMD notion: no answer on this platform
    assert d["vmm"] == {"supported": True, "compiled_in": True,
                        "granularity_min_bytes": 2 << 20, "granularity_recommended_bytes": 2 << 20}


def test_managed_prefetch_is_never_timed_behind_the_latch(runs):
    """A prefetch's enqueue may wait for the stream: behind a latch it would wait for
    the release, and the events would time the host's wait."""
    rs = [r for r in ok_records(runs["managed"][1]) if "latch" in r["params"]]
    prefetch = [r for r in rs if "hipMemPrefetchAsync" in r["params"]["timed"]]
    assert len(prefetch) >= 3
    for r in rs:
        assert r["params"]["latch"] is (r not in prefetch), r["case"]


def test_all_on_every_gpu_at_once_records_where_each_figure_ran(tmp_path):
    p, doc = Runs(tmp_path, {"all": ALL})["all"]
    assert p.returncode == 0, p.stderr[-2000:]
    hmbdoc.assert_valid(doc, modules=PER_GPU + ("node",), no_failures=True, complete=True)
    runs = [(m["module"], m["device"], m.get("beside_gpus"), m["exit_status"], m["process"])
            for m in doc["module_runs"]]
    assert runs == [(m, d, str(1 - d), 0, "own") for m in PER_GPU for d in (0, 1)] + \
        [("node", None, None, 0, "own")]
    assert [d["ordinal"] for d in doc["devices"]] == [0, 1]
    assert not roles_problems(doc), roles_problems(doc)[:10]  # device: each one's GPU
    cases = {}
    for r in doc["results"]:
        if r["module"] == "node":
            continue
        gpu = r["params"]["device"]
        o = r["observed"]
        assert o["ran_beside_gpus"] == str(1 - gpu), (r["module"], r["case"])
        assert o.get("host_link_shared_with_gpus") == \
            (str(1 - gpu) if r["module"] in HOST_LINK else None), (r["module"], r["case"])
        cases.setdefault((r["module"], gpu), set()).add(r["case"])
    for m in PER_GPU:  # the same cases on both GPUs
        assert cases[(m, 0)] and cases[(m, 0)] == cases[(m, 1)], m
    # the summary's headlines (xnack's needs a first touch slower than the resident
    # run, which the host's memory may not give)
    figures = doc["summary"]["figures"]
    assert {f["module"] for f in figures} >= set(PER_GPU) - {"xnack"} | {"node"}
    assert "together: " in p.stdout and "beside GPUs 1" in p.stdout


def test_memcpy_samples_twenty_or_ten_above_64m_each_up_to_twice_that(runs):
    """The module's own count, without --quick or --reps: 20 samples, 10 for a
    size above 64 MiB (each takes milliseconds); adaptive sampling may take up to
    twice as many, at least 6."""
    rs = ok_records(runs["memcpy-default"][1])
    by_size = {r["params"]["size"]: r["observed"]["sampling"] for r in rs}
    assert by_size[1 << 20].startswith("adaptive (6 to 40 samples)"), by_size
    assert by_size[128 << 20].startswith("adaptive (6 to 20 samples)"), by_size


def test_memcpy_large_page_locked_copies_warm_up_until_they_settle(runs):
    """A pinned copy of 16 MiB and more warms up until its copies stop getting
    faster and says the rule; a smaller one takes its count (2)."""
    rs = ok_records(runs["memcpy-default"][1])
    observed = {r["params"]["size"]: r["observed"] for r in rs}
    assert observed[1 << 20]["warmup"] == 2 and "warmup_rule" not in observed[1 << 20]
    big = observed[128 << 20]
    assert "until" in big["warmup_rule"], big
    # past its count of 1: the window's two copies at least, and one before them
    assert big["warmup"] >= 3, big


def test_memcpy_pinning_break_even_follows_from_its_times(runs):
    rs = [r for r in ok_records(runs["memcpy-on-request"][1])
          if r["case"].startswith("pin/break-even/")]
    assert len(rs) == 4
    for r in rs:
        v = {k: m["value"] for k, m in r["metrics"].items()}
        size = r["params"]["size"]
        assert close(v["pin_cost_s"], v["pin_s"] + v["unpin_s"]), r["case"]
        assert close(v["pageable_Bps"], size / v["pageable_copy_s"]), r["case"]
        assert close(v["pinned_Bps"], size / v["pinned_copy_s"]), r["case"]
        saved = v["pageable_copy_s"] - v["pinned_copy_s"]  # what pinning saves a copy
        if saved > 0:  # pinning pays for itself after cost / saved copies
            assert close(v["copies_to_break_even"], v["pin_cost_s"] / saved, 1e-6), r["case"]
            assert close(v["break_even_bytes"], v["copies_to_break_even"] * size, 1e-6), r["case"]
        else:
            assert "copies_to_break_even" not in v and "break_even_bytes" not in v, r["case"]


def test_memcpy_d2d_says_how_much_of_the_cache_its_buffers_cover(runs):
    (r,) = [r for r in ok_records(runs["memcpy-on-request"][1])
            if r["case"] == "d2d/device/async-default-kind"]
    o = r["observed"]
    assert o["cache_bytes"] == 4 << 20  # the emulated GPU's L2
    assert o["cache_footprint_bytes"] == r["params"]["buffer_sets"] * r["params"]["size"]
    assert o["cache_resident"] is (o["cache_footprint_bytes"] < 2 * o["cache_bytes"])


def test_node_kernels_record_the_launch_they_made(runs):
    rs = ok_records(runs["node"][1])
    sm = [r for r in rs if r["case"].startswith("p2p/sm/")]
    chases = [r for r in rs if r["case"].endswith("/latency") and r["case"] != "host/latency"]
    assert len(sm) == 4 and len(chases) >= 4
    for r in sm:  # the wide copy: 16 bytes a thread, grid-stride over at most 8192 blocks
        assert r["params"]["block_threads"] == 256, r["case"]
        assert r["params"]["grid_blocks"] == min(8192, -(-r["params"]["size"] // 16 // 256))
    for r in chases:  # one thread: each load waits for the one before
        assert (r["params"]["grid_blocks"], r["params"]["block_threads"]) == (1, 1), r["case"]


def test_node_chase_slots_are_whole_words_apart(runs):
    (r,) = ok_records(runs["node-stride"][1])[-1:]
    assert r["case"] == "device/latency" and r["params"]["stride_bytes"] == 4


def test_node_names_the_placement_it_could_not_measure(runs):
    rs = [r for r in runs["node"][1]["results"] if r["status"] == "unsupported"]
    assert len(rs) == 4
    for r in rs:
        assert r["params"]["placement"] == "remote" and "no remote placement" in r["reason"]


def test_node_access_cost_compares_with_no_peer_and_with_one_vmm_peer(runs):
    rs = ok_records(runs["node"][1])
    no_peer = {r["params"]["size"]: median(r) for r in rs
               if r["case"] == "access-cost/hipmalloc/no-peer-access"}
    vmm_one = {r["params"]["size"]: median(r) for r in rs
               if r["case"] == "access-cost/vmm" and r["params"]["peers_granted"] == 1}
    peer = [r for r in rs if r["case"] == "access-cost/hipmalloc/peer-access"]
    assert len(peer) == 2 and set(no_peer) == set(vmm_one) == {2 << 20, 64 << 20}
    for r in peer:
        size, t = r["params"]["size"], median(r)
        assert close(metric(r, "added_by_peer_access_us"), (t - no_peer[size]) * 1e6, 1e-6)
        assert close(metric(r, "slowdown_vs_no_peer_access"), t / no_peer[size])
        assert close(metric(r, "slowdown_vs_vmm_one_peer"), t / vmm_one[size])


def test_managed_versus_names_the_advice_of_each_case(runs):
    advice = {"explicit": "none", "explicit-pinned": "none", "managed-on-demand": "none",
              "managed-prefetch": "none", "managed-read-mostly": "read-mostly",
              "managed-preferred-device": "preferred-location=device",
              "managed-accessed-by-device": "accessed-by=device"}
    rs = ok_records(runs["managed-versus"][1])
    assert len(rs) == 17
    for r in rs:
        assert r["params"]["advice"] == advice[r["case"].split("/")[1]], r["case"]


def test_pool_growth_starts_from_an_empty_pool(runs):
    for r in ok_records(runs["pool-grow"][1]):
        assert r["observed"]["pool_reserved_bytes_at_start"] == 0, r["case"]


def test_memcpy_default_kind_reads_host_copies_against_the_link(runs):
    """hipMemcpyDefault's h2d and d2h cross the host link, as their kinds' cases do: read
    against its peak; d2d stays on the device."""
    rs = {r["case"]: r for r in ok_records(runs["memcpy-on-request"][1])}
    for d in ("h2d", "d2h"):
        assert rs[f"{d}/pinned/async-default-kind"]["peak_gbps"] == 20, d
    assert rs["d2d/device/async-default-kind"]["peak_gbps"] is None


def test_managed_range_attributes_say_what_each_case_advised(runs):
    """What hipMemRangeGetAttribute(s) read back after each case: where it was prefetched
    to, its preferred location, who it is accessed by; the two ways of reading agree."""
    rs = {r["case"]: r["observed"] for r in ok_records(runs["managed"][1])}
    want = {"prefetch/prefetch-only": {"last_prefetch_location": 0},
            "back/prefetch-to-host": {"last_prefetch_location": -1},
            "advise-preferred-device/first-kernel": {"preferred_location": 0},
            "advise-preferred-host/first-kernel": {"preferred_location": -1},
            "on-demand/first-kernel": {"preferred_location": -2, "last_prefetch_location": -2}}
    for case, o in rs.items():
        if "range_attributes_agree" not in o:
            continue
        assert o["range_attributes_agree"] is True, case
        for k, v in want.get(case, {}).items():
            assert o[k] == v and o["plural_" + k] == v, (case, k)
        by_device = case == "advise-accessed-by-device/first-kernel"
        assert o["accessed_by_device"] is by_device and o["plural_accessed_by_device"] is by_device
        assert o["accessed_by_host"] is False and o["plural_accessed_by_host"] is False, case


def test_managed_versus_prefetches_only_the_prefetched_case(runs):
    """versus/managed-prefetch sends its pages to the device and back, the host last;
    the cases that leave the pages to faults or advice prefetch nothing."""
    want = {"versus/managed-prefetch": -1, "versus/managed-on-demand": -2,
            "versus/managed-preferred-device": -2, "versus/managed-accessed-by-device": -2}
    rs = [r for r in ok_records(runs["managed-versus"][1]) if r["case"] in want]
    assert {r["case"] for r in rs} == set(want)
    for r in rs:
        o = r["observed"]
        assert o["last_prefetch_location"] == o["plural_last_prefetch_location"] == \
            want[r["case"]], (r["case"], o)


def test_pool_default_pool_gives_back_what_retain_keeps(runs):
    """The default pool gives its memory back at each synchronisation (its threshold, 0, put
    back after every retaining case); -retain and the created pool keep what they used."""
    rs = [r for r in ok_records(runs["pool"][1]) if "pool_reserved_bytes" in r["observed"]
          and not r["case"].startswith("trim/")]
    assert len(rs) == 18
    for r in rs:
        held = r["observed"]["pool_reserved_bytes"]
        if r["case"].endswith("/default-pool"):
            assert held == 0, r["case"]
        else:
            assert held >= r["params"]["size"], r["case"]


def test_vmm_share_says_both_sides_verified_each_round(runs):
    rs = ok_records(runs["vmm-share"][1])
    assert len(rs) == 4
    for r in rs:
        o = r["observed"]
        assert o["rounds"] > 0 and o["importer_verified"] is True and \
            o["exporter_verified"] is True, r["case"]


def test_vmm_grow_names_its_untimed_setup(runs):
    """Each growth case says what was done before the clock started: the reservation of
    the whole limit for vmm-reserve-upfront, the initial buffer for the others."""
    rs = [r for r in runs["vmm"][1]["results"] if r["case"].startswith("grow/")]
    assert len(rs) == 6
    for r in rs:
        upfront = "/vmm-reserve-upfront/" in r["case"]
        setup = r["params"]["untimed_setup"]
        assert setup.startswith("hipMemAddressReserve of the limit" if upfront
                                else "the initial buffer allocated"), (r["case"], setup)


@pytest.mark.parametrize("name", ["vmm", "vmm-share"])
def test_vmm_processes_release_every_handle(runs, name):
    """Each process of a vmm run (the module's, and the importer's of the share cases)
    gives back every handle it made or imported: the emulated runtime names a process that
    exits holding one (HMB_EMULATED_LEAK_CHECK)."""
    p, doc = runs[name]
    assert p.returncode == 0 and ok_records(doc), p.stderr
    assert "not released" not in p.stderr, p.stderr


def test_xnack_state_says_there_is_no_xnack_on_this_platform(runs):
    (o,) = [r["observed"] for r in ok_records(runs["xnack"][1]) if r["case"] == "xnack/state"]
    assert o["xnack"] == o["xnack_evidence"] == "n/a (not an AMD GPU)"
    assert o["arch"] == "sm_00" and o["arch_xnack_enabled"].startswith("not in the arch name")


def run_emulated(tmp_path, args, **env):
    """One run of the emulated binary on two GPUs: (process, document)."""
    return Runs(tmp_path, {"run": args}, **env)["run"]


def test_a_failed_calibration_fails_overlap_saying_why(tmp_path):
    """The balanced load's steps come from a kernel probe: when the probe fails, so does the
    module, naming the probe's failure (its setup, the fourth of the module)."""
    p, doc = run_emulated(tmp_path, ["overlap", "--quick", "--sizes", "1M", "--streams", "2",
                                     "--chunks", "2"], HMB_FAULT="setup:3")
    assert p.returncode == 1
    (r,) = [r for r in doc["results"] if r["status"] == "failed"]
    assert r["case"] == "module" and r["reason"].startswith(
        "calibration of the balanced load failed: HMB_FAULT=setup:3"), r["reason"]


def test_a_host_buffer_that_cannot_be_allocated_is_a_failed_case(tmp_path):
    """memcpy's pinned buffer not had (one allocation after another made to fail): an
    alloc/pinned record, failed, saying why and how much; the run exits 1."""
    for n in range(8):
        (tmp_path / str(n)).mkdir()
        p, doc = run_emulated(tmp_path / str(n), ["memcpy", "--quick", "--sizes", "1M", "--case",
                                                  "h2d/pinned/async"], HMB_FAULT=f"alloc:{n}")
        failed = [r for r in doc["results"] if r["case"] == "alloc/pinned"]
        if failed:
            break
    assert p.returncode == 1 and len(failed) == 1
    assert failed[0]["status"] == "failed" and failed[0]["params"]["size"] == 1 << 20
    assert f"injected failure at alloc {n} of pinned memory" in failed[0]["reason"]


def test_managed_static_unsupported_where_the_array_cannot_be_had(tmp_path):
    p, doc = run_emulated(tmp_path, ["managed", "--quick", "--case", "static/*"],
                          HMB_EMULATED_NO_MANAGED_STATIC="1")
    assert p.returncode == 0
    (r,) = doc["results"]
    assert (r["case"], r["status"]) == ("static/__managed__", "unsupported")
    assert r["reason"] == "the __managed__ array could not be allocated"


def test_node_names_what_a_gpu_without_virtual_memory_management_cannot_measure(tmp_path):
    p, doc = run_emulated(tmp_path, ["node", "--quick", "--copy-size", "4M", "--case",
                                     "access-cost/*"], HMB_EMULATED_NO_VMM="1")
    assert p.returncode == 0
    rs = [r for r in doc["results"] if r["case"] == "access-cost/vmm"]
    assert rs and all(r["status"] == "unsupported" and "virtual memory management" in r["reason"]
                      for r in rs)
    assert any(r["status"] == "ok" for r in doc["results"])


def test_the_isolation_test_modules_plant_and_probe(tmp_path):
    """The modules of the isolation test (HMB_TEST_MODULES=1): leak fills 1 GiB it never
    frees; probe times and verifies a fill kernel, the headline it declares in all's
    summary."""
    p, doc = run_emulated(tmp_path, ["--case", "planted", "--case", "free-memory", "--case",
                                     "launch-sync", "--reps", "2", "all"], HMB_TEST_MODULES="1")
    assert p.returncode == 0, p.stderr[-2000:]
    rs = {r["case"]: r for r in doc["results"]}
    assert rs["planted"]["status"] == "ok"
    assert rs["planted"]["observed"]["device_bytes_leaked"] == 1 << 30
    assert rs["launch-sync"]["status"] == "ok" and rs["launch-sync"]["observed"]["verified"]
    assert rs["free-memory"]["observed"]["free_device_bytes"] == 2048 << 20
    # all's summary holds the headline the probe declares in its folder
    name, case = hmb.declared_headline("bench/selftest/selftest.c", "probe_headlines")[:2]
    figures = {f["name"]: f for f in doc["summary"]["figures"]}
    assert (figures[name]["module"], figures[name]["case"]) == ("probe", case), figures


def test_a_context_parameter_is_declared_in_its_modules_folder_only(tmp_path):
    """A module declares a parameter's role where it writes it: the probe's context
    parameter (bench/selftest/) is named in no file outside that folder, yet its
    document lists it as context, the default table leaves it to --wide, and two
    documents that differ only in its value match every figure in compare; in an
    identity parameter they would not."""
    source = (hmb.ROOT / "bench" / "selftest" / "selftest.c").read_text()
    m = re.search(r'hmb_context_num\(r, "(\w+)"', source)
    assert m, "the probe declares no context parameter"
    name = m.group(1).encode()
    outside = [str(p.relative_to(hmb.ROOT)) for top in ("src", "bench", "kernels", "scripts",
                                                        "docs", "tests", "man", "completion")
               for p in (hmb.ROOT / top).rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and
               not p.is_relative_to(hmb.ROOT / "bench" / "selftest") and name in p.read_bytes()]
    assert not outside, f"{name.decode()} is named outside bench/selftest/: {outside}"
    name = name.decode()
    p, doc = run_emulated(tmp_path, ["--case", "launch-sync", "--reps", "6", "probe"],
                          HMB_TEST_MODULES="1")
    assert p.returncode == 0, p.stderr[-2000:]
    (r,) = [r for r in doc["results"] if r["case"] == "launch-sync"]
    assert name in r["params"] and name in r["context"], r
    base = tmp_path / "base.json"
    base.write_text(json.dumps(doc))
    table = subprocess.run([EMULATED, "show", str(base)], capture_output=True, text=True)
    wide = subprocess.run([EMULATED, "show", "--wide", str(base)], capture_output=True, text=True)
    assert name not in table.stdout and f"{name}=" in wide.stdout, table.stdout + wide.stdout

    def compare_with(change):
        other = json.loads(json.dumps(doc))
        change(next(x for x in other["results"] if x["case"] == "launch-sync"))
        path = tmp_path / "other.json"
        path.write_text(json.dumps(other))
        return subprocess.run([EMULATED, "compare", str(base), str(path), "--allow-partial"],
                              capture_output=True, text=True)

    same = compare_with(lambda x: x["params"].update({name: x["params"][name] + 1000}))
    assert same.returncode == 0, same.stderr
    assert "all 1 figures of the base matched" in same.stderr, same.stderr
    assert f"context differs, base vs other: {name}" in same.stdout, same.stdout

    def as_identity(x):
        x["params"][name] += 1000
        x["context"].remove(name)
    apart = compare_with(as_identity)
    assert "0 of the base's 1 figures matched" in apart.stderr, apart.stderr


def test_memcpy_untouched_gives_back_each_samples_fresh_buffer(tmp_path):
    """Each sample copies into a fresh mapping: the one before is unmapped first, so the
    process holds about one buffer of it at a time, not one a sample (12 here)."""
    size = 64 << 20
    measure = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:]); "
               "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    p = subprocess.run([sys.executable, "-c", measure, EMULATED, "memcpy", "--case",
                        "d2h/untouched-pageable/sync", "--sizes", "64M", "--reps", "12",
                        "-o", str(tmp_path / "u.json")],
                       capture_output=True, text=True, timeout=300)
    rc, max_rss_kib = map(int, p.stdout.split()[-2:])
    assert rc == 0, p.stderr[-2000:]
    assert max_rss_kib * 1024 < 4 * size + (128 << 20), f"{max_rss_kib >> 10} MiB at most"


# Cases that time nothing: what they record is a state, not a time.
NO_SAMPLES = {"topology/gpu", "topology/pair", "xnack/state"}


@pytest.mark.parametrize("name", RUNS)
def test_every_measured_case_has_its_samples(runs, name):
    for r in ok_records(runs[name][1]):
        assert r["samples_s"] or r["case"] in NO_SAMPLES or r["metrics"], (name, r["case"])


def test_node_peer_cases_unsupported_where_no_gpu_reaches_another(tmp_path):
    """Without peer access, each case that needs it says why; those that copy without it
    (staged through the host) are measured."""
    p, doc = run_emulated(tmp_path, ["node", "--quick", "--copy-size", "4M", "--case", "p2p/*"],
                          HMB_EMULATED_NO_PEER="1")
    assert p.returncode == 0, p.stderr[-2000:]
    rs = doc["results"]
    assert {r["case"] for r in rs} == CASES["node"] & {r["case"] for r in rs} and len(rs) == 23
    for r in rs:
        if r["case"].startswith("p2p/ce-disabled/"):
            assert r["status"] == "ok" and r["samples_s"], r["case"]
        else:
            assert r["status"] == "unsupported" and re.fullmatch(
                r"hipDeviceCanAccessPeer: GPU\d cannot access GPU\d's memory", r["reason"]), r


# cpu0's caches as sysfs lists them (index: level, size), the last level not last.
CACHES = {0: (1, "48K"), 1: (1, "32K"), 2: (3, "32768K"), 3: (2, "2048K")}


def mount_namespace():
    """Whether this process can have a mount namespace of its own (root, not in a chroot)."""
    return os.geteuid() == 0 and shutil.which("unshare") and \
        os.path.isdir("/sys/devices/system/cpu/cpu0") and \
        subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not mount_namespace(), reason="a stand-in for sysfs needs a mount namespace "
                    "of its own: root, unshare (util-linux), /sys, and not a chroot")
def test_memcpy_h2h_sizes_its_buffers_by_the_hosts_last_level_cache(tmp_path):
    """The host's cache comes from sysfs (cpu0's highest level, wherever it is listed);
    here a tmpfs over /sys/devices/system/cpu/cpu0, in a mount namespace of the run's
    own, holds the stand-in."""
    cpu0 = "/sys/devices/system/cpu/cpu0"
    script = [f"mount -t tmpfs none {cpu0}"]
    for i, (level, size) in CACHES.items():
        script += [f"mkdir -p {cpu0}/cache/index{i}", f"echo {level} > {cpu0}/cache/index{i}/level",
                   f"echo {size} > {cpu0}/cache/index{i}/size"]
    script.append('exec "$@"')
    out = tmp_path / "h2h.json"
    p = subprocess.run(["unshare", "-m", "sh", "-c", " && ".join(script), "sh", EMULATED, "memcpy",
                        "--quick", "--sizes", "1M", "--case", "h2h/pinned/sync", "-o", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    (r,) = json.loads(out.read_text())["results"]
    assert r["observed"]["host_cache_bytes"] == 32 << 20
    assert r["observed"]["host_cache_source"] == "sysfs (cpu0's highest cache level)"
