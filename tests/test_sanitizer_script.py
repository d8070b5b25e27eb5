"""test_sanitizer_script.py - tests/compute_sanitizer.sh reads compute-sanitizer's
reports right, without a GPU: a stand-in for compute-sanitizer prints the
report under test. The program's own __managed__ array (4,194,304 bytes,
allocated when the runtime loads the device code) is the one leak report it
lets pass; any other leak or error fails the run."""
import os
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent / "compute_sanitizer.sh"

FRAMES_LOAD = """=========     Saved host backtrace up to driver entry point at allocation time
=========         Host Frame: cuLibraryLoadData [0x32abe2] in libcuda.so.1
=========         Host Frame: cudaGetDeviceCount [0x724a9] in hipmembench
=========         Host Frame: hmb_device_open in device.c:76 [0x12c3e] in hipmembench
========= """
FRAMES_OURS = """=========     Saved host backtrace up to driver entry point at allocation time
=========         Host Frame: cudaMalloc [0x724a9] in hipmembench
=========         Host Frame: hmb_alloc in alloc.c:60 [0x12c3e] in hipmembench
========= """
MANAGED = f"========= Leaked 4,194,304 bytes at 0x7f761e000000\n{FRAMES_LOAD}\n"
OURS_SAME_SIZE = f"========= Leaked 4,194,304 bytes at 0x7f7620000000\n{FRAMES_OURS}\n"
OURS_OTHER = f"========= Leaked 65,536 bytes at 0x7f7620000000\n{FRAMES_OURS}\n"
ACCESS = ("========= Invalid __global__ write of size 4 bytes\n"
          "=========     at fill_kernel+0x90\n========= \n")


def summary(n):
    return f"========= ERROR SUMMARY: {n} error{'s' if n != 1 else ''}\n"


RACE_CLEAN = "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
RACE_HAZARD = "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"


def run_script(tmp_path, memcheck_report, errors, race=RACE_CLEAN, program_exit=0):
    """The script with a compute-sanitizer whose memcheck prints this report
    (and exits as compute-sanitizer does: 99 on errors, else the program's
    status, 1 where HMB_FAULT failed a case), racecheck prints `race` and
    synccheck is clean."""
    (tmp_path / "memcheck.txt").write_text("========= COMPUTE-SANITIZER\n" + memcheck_report +
                                           summary(errors))
    fake = tmp_path / "compute-sanitizer"
    fake.write_text(f"""#!/bin/bash
case "$2" in
memcheck) cat {tmp_path}/memcheck.txt; [ {errors} = 0 ] || exit 99; [ -z "$HMB_FAULT" ] || exit 1
          exit {program_exit};;
racecheck) echo "{race}"; case "{race}" in *" 0 hazards"*) ;; *) exit 99;; esac;;
*) echo "========= ERROR SUMMARY: 0 errors";;
esac
""")
    fake.chmod(0o755)
    return subprocess.run(["bash", str(SCRIPT), "hipmembench"], capture_output=True, text=True,
                          env=dict(os.environ, CS=str(fake)), timeout=60)


CASES = [
    ("no report", "", 0, True),
    ("the __managed__ array only", MANAGED, 1, True),
    ("the array and a leak of ours", MANAGED + OURS_OTHER, 2, False),
    ("a leak of ours of the same size", OURS_SAME_SIZE, 1, False),
    ("the array and an access error", MANAGED + ACCESS, 2, False),
    ("the array twice", MANAGED + MANAGED, 2, False),
]


def test_a_program_that_fails_under_the_sanitizer_fails_the_run(tmp_path):
    p = run_script(tmp_path, "", 0, program_exit=1)
    assert p.returncode == 1 and "memcheck memcpy: exit 1;" in p.stdout, p.stdout


def test_a_race_hazard_fails(tmp_path):
    p = run_script(tmp_path, MANAGED, 1, race=RACE_HAZARD)
    assert p.returncode == 1, p.stdout
    assert "racecheck memcpy: exit 99; " + RACE_HAZARD in p.stdout, p.stdout


@pytest.mark.parametrize("name,report,errors,clean", CASES, ids=[c[0] for c in CASES])
def test_only_the_managed_array_leak_passes(tmp_path, name, report, errors, clean):
    p = run_script(tmp_path, report, errors)
    lines = [line for line in p.stdout.splitlines() if not line.startswith("    ")]
    # memcheck: 7 modules, each also with two HMB_FAULT points; racecheck and synccheck: 3 each
    assert len(lines) == 27, p.stdout
    assert sum("HMB_FAULT=" in line for line in lines) == 14, p.stdout
    assert p.returncode == (0 if clean else 1), f"{name}: exit {p.returncode}\n{p.stdout}"
    if errors and not clean:
        assert "Leaked" in p.stdout or "Invalid" in p.stdout, p.stdout  # the report is shown
