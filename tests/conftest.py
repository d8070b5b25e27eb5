"""conftest.py - fixtures every test of hipmembench shares: a check that the
binaries are built, the GPU gate (tests that need a GPU skip, saying why, when
`hipmembench info` says there is no GPU; any other failure of info fails them)
and a document written by json_write.c."""
import os
import pathlib
import signal
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import hmb  # noqa: E402

# Started in the background by a shell (`cmd &`), pytest inherits SIGINT ignored, and
# so would every program a test starts, which then cannot be interrupted as the tests
# interrupt it: SIGINT is taken back here, and the programs start with its default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config):
    config.addinivalue_line("markers", "xdist_group(name): tests run in one process (xdist)")
    for path, what in ((hmb.BIN, "HMB_BIN"), (hmb.UNIT, "HMB_UNIT")):
        if not os.access(path, os.X_OK):
            pytest.exit(f"{path} is not built: run `make test` (or set {what})", returncode=2)


def pytest_collection_modifyitems(items):
    """Under pytest-xdist (make test TEST_JOBS=N, --dist loadgroup), every test that
    asks for the GPU runs in the same process, one at a time: no two share a GPU."""
    for item in items:
        if "gpu" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("gpu"))


def _gpu_reason():
    try:
        return hmb.gpu_reason()
    except hmb.BrokenInfo as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture
def gpu():
    """Skips where `info` says there is no GPU (exit 3), unless HMB_REQUIRE_GPU=1
    (GPU runners): then that fails, so that a GPU run cannot pass by skipping."""
    reason = _gpu_reason()
    if reason:
        if os.environ.get("HMB_REQUIRE_GPU") == "1":
            pytest.fail(f"HMB_REQUIRE_GPU=1 but no usable GPU ({reason})", pytrace=False)
        pytest.skip(f"no usable GPU ({reason})")


@pytest.fixture
def no_gpu():
    reason = _gpu_reason()
    if not reason:
        pytest.skip("a GPU is present")
    return reason


@pytest.fixture
def sample_doc(tmp_path):
    """A document built by json_write.c from a made-up report (unit_tests --sample-json)."""
    path = tmp_path / "sample.json"
    subprocess.run([str(hmb.UNIT), "--sample-json", str(path)], check=True)
    return path
