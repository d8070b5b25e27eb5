"""test_do_nothing_binary.py - no test passes against a binary that does nothing.

Test files that run hipmembench are run again with HMB_BIN a stand-in that does
nothing and exits 0 (as /bin/true) or 1 (as /bin/false), noting which test ran it
(PYTEST_CURRENT_TEST). Every test that ran it must fail: one that passes checks
nothing of what the binary does. (Where a parameter list comes from the binary, a
do-nothing binary empties it: pytest.ini makes that a collection error.) The
tests chosen are those where such tests were found (the gather's, the
completion's, the GPU gate's) and a few quick ones; the whole suite was checked
so too (HMB_BIN=/bin/true and HMB_BIN=/bin/false: no test that runs the binary
passes), which takes minutes."""
import os
import re
import subprocess
import sys

import pytest

import hmb

GATHER = ["test_unreadable_document_is_named_and_fails_the_gather", "test_closed_stdout_ends_quietly",
          "test_fifo_document_is_refused_not_waited_on", "test_all_good_runs_exit_0",
          "test_threshold_fails_the_gather_on_a_regression"]
FILES = [f"test_gather.py::{t}" for t in GATHER] + \
    ["test_completion.py", "test_gpu.py", "test_cli.py", "test_isolation.py"]


def run_with(tmp_path, status):
    spy = tmp_path / "hipmembench"
    log = tmp_path / "ran.log"
    spy.write_text(f'#!/bin/sh\nprintf "%s\\n" "$PYTEST_CURRENT_TEST" >> "{log}"\nexit {status}\n')
    spy.chmod(0o755)
    env = dict(os.environ, HMB_BIN=str(spy), HMB_UNIT=str(hmb.UNIT))
    env.pop("HMB_REQUIRE_GPU", None)
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
                        "--continue-on-collection-errors", f"--basetemp={tmp_path / 'bt'}",
                        *[str(hmb.ROOT / "tests" / f) for f in FILES]],
                       cwd=hmb.ROOT, env=env, capture_output=True, text=True, timeout=900)
    ran = set()
    if log.exists():
        for line in log.read_text().splitlines():
            if "::" in line:
                ran.add(key(line.rsplit(" (", 1)[0]))
    passed = {key(m) for m in re.findall(r"^PASSED (\S+)", p.stdout, re.M)}
    return p, ran, passed


def key(nodeid):
    """file.py::test[params], whatever the folder it is named from."""
    path, _, rest = nodeid.partition("::")
    return f"{os.path.basename(path)}::{rest}"


@pytest.mark.parametrize("status", [0, 1], ids=["exits-0", "exits-1"])
def test_no_test_that_runs_the_binary_passes_when_it_does_nothing(tmp_path, status):
    p, ran, passed = run_with(tmp_path, status)
    assert ran, f"no test ran the stand-in:\n{p.stdout[-3000:]}"
    assert p.returncode != 0, p.stdout[-3000:]
    both = sorted(ran & passed)
    assert not both, f"{len(both)} test(s) ran a binary that does nothing and passed:\n  " + \
        "\n  ".join(both[:40])
