"""test_gpu_emulated.py - the GPU tests, on the emulated GPU.

tests/test_gpu.py checks what only a run on a GPU shows: copies go where their
names say (HMB_COPY_TRACE), a module that fails part-way gives back its device
memory (HMB_FAULT), each module's check catches a corrupted word, every sample
is one timed copy, SIGINT keeps what was measured, the GPUs of --devices run
at once and say so. Where no GPU is lent, they run here against the binary on
the emulated runtime (two GPUs of 8 GiB; tests/test_emulated.py says what it
is), so that a change that breaks one of them fails without a GPU too.

Left out: the two that run all of `all --quick` (minutes on the emulated GPU;
test_emulated.py runs `all` on both GPUs with small options instead).
"""
import os
import re
import subprocess
import sys

import pytest

import hmb
from test_emulated import EMULATED

SLOW = ["test_gpu_all_quick", "test_gpu_records_state_their_timed_region_and_all_isolates_modules"]
# Run in this many parts, so that `make test TEST_JOBS=N` spreads them over its processes.
SHARDS = 3


def gpu_test_ids(env):
    """test_gpu.py's tests, as pytest collects them, less the slow ones."""
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "--collect-only", str(hmb.ROOT / "tests" / "test_gpu.py")],
                       cwd=hmb.ROOT, env=env, capture_output=True, text=True, timeout=120)
    names = [line.split("::", 1)[1] for line in p.stdout.splitlines() if "::" in line]
    assert p.returncode == 0 and names, p.stdout[-2000:] + p.stderr[-2000:]
    return [f"{hmb.ROOT / 'tests' / 'test_gpu.py'}::{n}" for n in names
            if n.split("[")[0] not in SLOW]


@pytest.mark.parametrize("shard", range(SHARDS))
def test_the_gpu_tests_pass_on_the_emulated_gpu(tmp_path, shard):
    assert os.access(EMULATED, os.X_OK), f"{EMULATED} is not built: run `make emulated`"
    env = dict(os.environ, HMB_BIN=EMULATED, HMB_REQUIRE_GPU="1", HMB_EMULATED_GPUS="2",
               HMB_EMULATED_GPU_MIB="8192")
    ids = gpu_test_ids(env)
    assert len(ids) >= 55, ids  # every GPU test but the slow ones
    mine = ids[shard::SHARDS]
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
                        f"--basetemp={tmp_path / 'bt'}", *mine],
                       cwd=hmb.ROOT, env=env, capture_output=True, text=True, timeout=1500)
    assert p.returncode == 0, p.stdout[-4000:]
    # each ran, but those that need no GPU: they skip themselves ("a GPU is present")
    no_gpu = sum("::test_no_gpu_" in i for i in mine)
    counts = {w: int(n) for n, w in re.findall(r"(\d+) (passed|skipped)", p.stdout)}
    assert counts == {"passed": len(mine) - no_gpu, **({"skipped": no_gpu} if no_gpu else {})}, \
        p.stdout[-2000:]
