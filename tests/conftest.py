"""conftest.py - fixtures every test of hipmembench shares: a check that the
binaries are built, the GPU gate (tests that need a GPU skip, saying why, when
`hipmembench info` cannot open one) and a document written by json.c."""
import os
import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import hmb  # noqa: E402


def pytest_configure(config):
    for path, what in ((hmb.BIN, "HMB_BIN"), (hmb.UNIT, "HMB_UNIT")):
        if not os.access(path, os.X_OK):
            pytest.exit(f"{path} is not built: run `make test` (or set {what})", returncode=2)


@pytest.fixture
def gpu():
    reason = hmb.gpu_reason()
    if reason:
        pytest.skip(f"no usable GPU ({reason})")


@pytest.fixture
def no_gpu():
    reason = hmb.gpu_reason()
    if not reason:
        pytest.skip("a GPU is present")
    return reason


@pytest.fixture
def sample_doc(tmp_path):
    """A document built by json.c from a made-up report (unit_tests --sample-json)."""
    path = tmp_path / "sample.json"
    subprocess.run([str(hmb.UNIT), "--sample-json", str(path)], check=True)
    return path
