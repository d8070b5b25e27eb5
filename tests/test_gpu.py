"""test_gpu.py - integration tests on the device: every module at tiny sizes
verifies its data and writes a valid document; all --quick; SIGINT keeps what
was measured. They skip, saying why, where no GPU is usable; then the no-GPU
path is tested instead (exit 3, a valid document without a device). Timings
are never asserted."""
import json
import signal

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
}


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
