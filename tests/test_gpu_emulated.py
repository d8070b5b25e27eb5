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

import hmb
from test_emulated import EMULATED

SLOW = ["test_gpu_all_quick", "test_gpu_records_state_their_timed_region_and_all_isolates_modules"]


def test_the_gpu_tests_pass_on_the_emulated_gpu(tmp_path):
    assert os.access(EMULATED, os.X_OK), f"{EMULATED} is not built: run `make emulated`"
    env = dict(os.environ, HMB_BIN=EMULATED, HMB_REQUIRE_GPU="1", HMB_EMULATED_GPUS="2",
               HMB_EMULATED_GPU_MIB="8192")
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
                        f"--basetemp={tmp_path / 'bt'}", "-k", " and ".join(f"not {t}" for t in SLOW),
                        str(hmb.ROOT / "tests" / "test_gpu.py")],
                       cwd=hmb.ROOT, env=env, capture_output=True, text=True, timeout=1500)
    assert p.returncode == 0, p.stdout[-4000:]
    passed = re.search(r"(\d+) passed", p.stdout)
    # every GPU test but the two left out; those that need no GPU skip themselves
    assert passed and int(passed.group(1)) >= 50, p.stdout[-2000:]
