"""test_gpu.py - integration tests on the device: every module at tiny sizes
verifies its data and writes a valid document; all --quick; SIGINT keeps what
was measured. They skip, saying why, where no GPU is usable; then the no-GPU
path is tested instead (exit 3, a valid document without a device). Timings
are never asserted."""
import glob
import json
import os
import signal
import subprocess

import pytest

import hmb
import hmbdoc

# Tiny arguments per module: enough to run every case and verify it.
TINY = {
    "memcpy": "--sizes 4K,64K --reps 2 --warmup 1",
    "overlap": "--sizes 4M --reps 2 --warmup 1 --chunks 2 --streams 2 --iters 1,16",
    "pool": "--sizes 4K,1M --reps 2 --warmup 1 --loop 20",
    "managed": "--sizes 4M --reps 2 --warmup 1",
    "xnack": "--sizes 4M --reps 2 --warmup 1",
    "vmm": "--reps 2 --warmup 1 --start 2M --step 2M --limit 8M --call-sizes 2M",
    "node": "--reps 2 --warmup 1 --copy-size 4M --chase-loads 50 --alloc-sizes 2M",
}


# HMB_FAULT points (src/fault.h) for the failure-path test. Allocations 1
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
    hmbdoc.assert_valid(out, modules=[module], no_failures=True, complete=True)


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


def test_gpu_all_quick(gpu, tmp_path):
    out = tmp_path / "all.json"
    p = hmb.run("--quick", "--output", out, "all", timeout=600)
    assert p.returncode == 0, failed_reasons(out) + p.stderr[-2000:]
    hmbdoc.assert_valid(out, modules=hmb.module_names(), no_failures=True, complete=True)


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
    assert sorted(cases) == ["h2d/pinned/async", "h2d/pinned/sync"], cases
    p = hmb.run("--case", "course/default-pool", "--sizes", "64K", "--reps", "2", "--loop", "20",
                "--output", both, "all", timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    doc = hmbdoc.load(both)
    assert [r["case"] for r in doc["results"]] == ["course/default-pool"]
    assert doc["modules"] == ["pool"]


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
    for out, args in ((alone, probe + ["probe"]), (iso, sel + ["all"]),
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
    before = set(glob.glob("/tmp/hipmembench-module-*"))
    with open(err, "w") as e:
        rc = hmb.signal_when([hmb.BIN, "--output", out, "all"],
                             lambda: "[memcpy] h2d" in err.read_text(), signal.SIGTERM,
                             stderr=e)
    assert rc == 143, err.read_text()[-2000:]
    doc = hmbdoc.assert_valid(out)
    assert doc["interrupted"] and not doc["complete"] and doc["results"] and doc["module_runs"]
    assert hmb.temp_files(tmp_path) == []
    assert set(glob.glob("/tmp/hipmembench-module-*")) == before


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
    left = subprocess.run(["pgrep", "-f", "__vmm-importer"], capture_output=True, text=True)
    assert left.stdout.strip() == "", left.stdout
