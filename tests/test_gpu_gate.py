"""test_gpu_gate.py - the GPU gate skips GPU tests only where `hipmembench info`
says "no GPU" (exit 3, saying why), and runs them only where info names the GPU
it opened: a crashing, silent or wrong binary (one that does nothing and exits 0)
fails them, and with HMB_REQUIRE_GPU=1 (GPU runners) a skip is a failure too. Each case runs pytest
on a one-test file against a stand-in binary."""
import os
import subprocess
import sys

import pytest

import hmb

TESTS = hmb.ROOT / "tests"


def gate(tmp_path, info_exit, require=False,
         says="echo 'hipmembench: no GPU found: stand-in' >&2"):
    """pytest's exit status and output for a test that takes the `gpu` fixture,
    with a stand-in hipmembench whose `info` runs `says` and exits info_exit."""
    fake = tmp_path / "hipmembench"
    fake.write_text(f"#!/bin/sh\n{says}\nexit {info_exit}\n")
    fake.chmod(0o755)
    (tmp_path / "test_one.py").write_text("def test_needs_gpu(gpu):\n    pass\n")
    env = dict(os.environ, HMB_BIN=str(fake), HMB_UNIT="/bin/true", PYTHONPATH=str(TESTS))
    env.pop("HMB_REQUIRE_GPU", None)
    if require:
        env["HMB_REQUIRE_GPU"] = "1"
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest", "-rs",
                        str(tmp_path / "test_one.py")], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout


def test_no_gpu_exit_skips(tmp_path):
    rc, out = gate(tmp_path, 3)
    assert rc == 0 and "1 skipped" in out and "no GPU found: stand-in" in out, out


@pytest.mark.parametrize("info_exit", [1, 2, 134, 139])
def test_info_failing_otherwise_fails(tmp_path, info_exit):
    rc, out = gate(tmp_path, info_exit)
    assert rc == 1 and "1 error" in out and f"exited {info_exit}" in out, out


def test_required_gpu_turns_the_skip_into_a_failure(tmp_path):
    rc, out = gate(tmp_path, 3, require=True)
    assert rc == 1 and "1 error" in out and "HMB_REQUIRE_GPU=1" in out, out


@pytest.mark.parametrize("says,what", [("true", "names no GPU"),
                                       ("echo 'host  some-host'", "names no GPU")])
def test_info_exiting_0_without_naming_a_gpu_fails(tmp_path, says, what):
    """A binary that does nothing (/bin/true) is no GPU machine: the GPU tests fail."""
    rc, out = gate(tmp_path, 0, says=says)
    assert rc == 1 and "1 error" in out and what in out, out


def test_info_naming_its_gpu_runs_the_gpu_tests(tmp_path):
    rc, out = gate(tmp_path, 0, says="echo 'device 0/1      Stand-in GPU (sm_90), PCI 0000:41:00.0'")
    assert rc == 0 and "1 passed" in out, out


def test_no_gpu_exit_without_a_reason_fails(tmp_path):
    rc, out = gate(tmp_path, 3, says="true")
    assert rc == 1 and "1 error" in out and "without saying why" in out, out
