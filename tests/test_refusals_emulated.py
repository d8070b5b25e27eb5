"""test_refusals_emulated.py - the refusals that need the machine's GPUs to decide: a
GPU past the last (--device N, --devices LIST) and a size larger than a GPU's memory
(--sizes), on the emulated runtime with two GPUs of 2 GiB (HMB_EMULATED_GPUS=2).
Every command that takes an option of tests/refusals.py's absent="gpus" or "memory",
as the binary declares it, is refused with exit 2 and one line naming what was asked
for and what there is, before anything runs: no output file made or written over. A
dry run checks a batch job's settings where its GPUs may not be, and is not refused;
a GPU that is there is taken."""
import os
import subprocess

import pytest

from refusals import OPTIONS, declarations, refused
from test_emulated import EMULATED

pytestmark = pytest.mark.skipif(not os.access(EMULATED, os.X_OK),
                                reason=f"{EMULATED} is not built (make emulated)")

ENV = dict(os.environ, HMB_EMULATED_GPUS="2", HMB_EMULATED_GPU_MIB="2048")
# What each asks for that is not there, and what the refusal names.
ASKS = {
    "device": [("2", ["--device 2", "no GPU 2", "0-1"]), ("1000", ["no GPU 1000", "0-1"])],
    "devices": [("0,2", ["--devices 0,2", "no GPU 2", "0-1"]), ("1,3", ["no GPU 3", "0-1"]),
                ("2", ["no GPU 2", "0-1"])],
    "sizes": [("4G", ["--sizes: 4G", "memory", "GPU 0", "2.0 GiB"]),
              ("4K,64T", ["--sizes: 64T", "memory"])],
}


def walked():
    if not os.access(EMULATED, os.X_OK):
        return []
    commands, _ = declarations(EMULATED, env=ENV)
    kinds = sorted(o for o, c in OPTIONS.items() if c.absent in ("gpus", "memory"))
    assert sorted(ASKS) == kinds, f"how to ask for what the GPUs do not have: {kinds}"
    return [(c.name, o) for c in commands.values() for o in kinds if o in c.options]


WALKED = walked()


@pytest.mark.parametrize("command,option", WALKED, ids=[f"{c}-{o}" for c, o in WALKED])
def test_what_the_gpus_do_not_have_is_refused_naming_what_there_is(tmp_path, command, option):
    out = tmp_path / "out.json"
    for value, named in ASKS[option]:
        refused(EMULATED, [f"--{option}", value, command, "-o", out], *named, env=ENV)
        assert not out.exists(), f"a refused command left {out}"
    out.write_text("kept\n")
    refused(EMULATED, [f"--{option}", ASKS[option][0][0], command, "-o", out], f"--{option}",
            env=ENV)
    assert out.read_text() == "kept\n"
    assert not [p for p in tmp_path.iterdir() if p != out], list(tmp_path.iterdir())


def test_each_gpu_of_devices_is_asked_for_its_memory():
    refused(EMULATED, ["--devices", "all", "--sizes", "4G", "all"], "GPU 0", env=ENV)
    refused(EMULATED, ["--devices", "1", "--sizes", "4G", "memcpy"], "GPU 1", env=ENV)


def test_a_dry_run_is_not_refused_and_what_is_there_is_taken(tmp_path):
    p = subprocess.run([EMULATED, "--dry-run", "--devices", "0,5", "--sizes", "64T", "all"],
                       env=ENV, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    p = subprocess.run([EMULATED, "--device", "1", "-o", tmp_path / "info.json", "info"],
                       env=ENV, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "info.json").exists()
