"""test_mutate.py - the mutation testing of tests/mutate.py (`make mutate` runs
every mutant): its list fits the code (every text once, every test it names
there) and spans the project; bad lists are one line and exit 2; a run says
killed or survived per mutant, exits 1 on a survivor or when a test fails on
the unchanged code, and leaves neither the checkout changed nor its scratch
copy behind, nor tests running when stopped by SIGTERM."""
import os
import pathlib
import signal
import subprocess
import time

import pytest

import hmb

SCRIPT = hmb.ROOT / "tests" / "mutate.py"

# mutate.py copies the files git lists: a tree without git (CI's ROCm roots get
# the files alone) has nothing to mutate.
if not (hmb.ROOT / ".git").exists():
    pytest.skip("not a git checkout: mutate.py copies the files git lists",
                allow_module_level=True)
GATHER = hmb.ROOT / "scripts" / "hmb_gather.py"


def mutate(*args, env=None, timeout=300):
    return subprocess.run([hmb.PY, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, timeout=timeout, env=env)


def block(id, file, find, replace, *kill):
    return "\n".join([f"id: {id}", f"file: {file}", f"find: {find}", f"replace: {replace}"]
                     + [f"kill: {k}" for k in kill]) + "\n\n"


def test_the_mutant_list_fits_the_code():
    p = mutate("--check")
    assert p.returncode == 0, p.stdout + p.stderr


def test_the_gpu_mutant_list_fits_the_code_and_names_gpu_tests():
    """Each bug only a GPU shows is caught by a GPU test (run on a GPU
    machine with --prebuilt)."""
    path = hmb.ROOT / "tests" / "gpu_mutants.txt"
    p = mutate("--list", path, "--check")
    assert p.returncode == 0, p.stdout + p.stderr
    kills = [line for line in path.read_text().splitlines() if line.startswith("kill: ")]
    assert len(kills) >= 9 and all("tests/test_gpu.py" in k for k in kills), kills


def test_the_mutant_list_spans_the_project():
    text = (hmb.ROOT / "tests" / "mutants.txt").read_text()
    files = [line[6:].strip() for line in text.splitlines() if line.startswith("file: ")]
    assert len(files) >= 20
    for where in ("src/engine/measure.c", "src/stats/stats.c", "src/util/sizes.c", "src/stats/significance.c",
                  "src/compare/compare.c", "src/doc/json_write.c", "src/cli/cli.c", "src/engine/fault.c", "src/engine/verify.c",
                  "src/output/table.c", "scripts/hmb_sweep.py", "scripts/hmb_gather.py",
                  "scripts/hmb_fleet.py"):
        assert where in files, f"no mutant of {where}"


BAD_LISTS = [
    ("missing key", "id: a\nfile: src/stats/stats.c\nfind: sqrt(\n\n", "without replace, kill"),
    ("unknown key", "id: a\nfiles: src/stats/stats.c\n\n", "expected `KEY: VALUE`"),
    ("text twice", block("a", "src/stats/stats.c", "sorted", "x", "unit: statistics"), "times, not once"),
    ("text gone", block("a", "src/stats/stats.c", "no such text", "x", "unit: statistics"), "0 times"),
    ("no such file", block("a", "src/nothing.c", "x", "y", "unit: statistics"), "no file"),
    ("no such unit test", block("a", "src/stats/stats.c", "sqrt(sq", "sqrt(2 * sq", "unit: nothing"),
     "no unit test named 'nothing'"),
    ("bad selector", block("a", "src/stats/stats.c", "sqrt(sq", "sqrt(2 * sq", "make test"),
     "kill must be"),
    ("named twice", block("a", "src/stats/stats.c", "sqrt(sq", "sqrt(2 * sq", "unit: statistics") * 2,
     "named twice"),
]


def test_bad_list_is_one_line_exit_2(tmp_path):
    for what, text, message in BAD_LISTS:
        path = tmp_path / "mutants.txt"
        path.write_text(text)
        p = mutate("--list", path, "--check")
        assert p.returncode == 2, f"{what}: exit {p.returncode}: {p.stderr}"
        assert message in p.stderr and "Traceback" not in p.stderr, f"{what}: {p.stderr}"
    p = mutate("--only", "no-such-mutant")
    assert p.returncode == 2 and "no mutant named no-such-mutant" in p.stderr


def test_run_says_killed_and_survived_and_leaves_nothing(tmp_path):
    """Two mutants of a script (nothing to build): a bug the gather tests catch,
    and a change of a help text, which nothing can catch."""
    path = tmp_path / "mutants.txt"
    path.write_text(
        block("failed-run-passes", "scripts/hmb_gather.py", "bad = 1 if failed or unreadable else 0",
              "bad = 1 if unreadable else 0", "pytest: tests/test_gather.py::test_failed_runs_are_shown_and_left_out")
        + block("help-text", "scripts/hmb_gather.py", 'help="the document the others are compared with"',
                'help="the base"', "pytest: tests/test_gather.py::test_all_good_runs_exit_0"))
    before = GATHER.read_bytes()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    p = mutate("--list", path, env=dict(os.environ, TMPDIR=str(scratch)))
    assert p.returncode == 1, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    assert any(line.split()[:2] == ["killed", "failed-run-passes"] for line in lines), p.stdout
    assert any(line.split()[:2] == ["survived", "help-text"] for line in lines), p.stdout
    assert "killed 1, survived 1" in p.stdout and "not killed: help-text" in p.stdout
    assert GATHER.read_bytes() == before
    assert list(scratch.iterdir()) == [], "the scratch copy was left behind"


def test_a_test_failing_on_the_unchanged_code_stops_the_run(tmp_path):
    """The tests of one file are checked in one pytest run: the one that does not
    pass is named, not the one beside it that does."""
    path = tmp_path / "mutants.txt"
    path.write_text(block("a", "scripts/hmb_gather.py", "bad = 1 if failed or unreadable else 0",
                          "bad = 1 if unreadable else 0", "pytest: tests/test_gather.py::test_no_such_test",
                          "pytest: tests/test_gather.py::test_all_good_runs_exit_0"))
    p = mutate("--list", path)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "'pytest: tests/test_gather.py::test_no_such_test' does not pass on the unchanged code" \
        in p.stdout and "test_all_good_runs_exit_0' does not pass" not in p.stdout, p.stdout


def test_sigterm_mid_run_leaves_no_scratch_copy_and_no_tests_running(tmp_path):
    """A mutant that makes the gather script hang; SIGTERM while its test runs."""
    path = tmp_path / "mutants.txt"
    path.write_text(block("hangs", "scripts/hmb_gather.py", "bad = 1 if failed or unreadable else 0",
                          '__import__("time").sleep(600)',
                          "pytest: tests/test_gather.py::test_failed_runs_are_shown_and_left_out"))
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    proc = subprocess.Popen([hmb.PY, str(SCRIPT), "--list", str(path), "--timeout", "120"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TMPDIR=str(scratch)))
    try:
        assert "every selector passes" in proc.stdout.readline()
        deadline = time.monotonic() + 30
        while not running_in(scratch) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert running_in(scratch), "the mutant's test never started"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130 and "interrupted" in err, err
    assert list(scratch.iterdir()) == [], "the scratch copy was left behind"
    deadline = time.monotonic() + 10  # SIGKILL'd processes take a moment to go
    while running_in(scratch) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert running_in(scratch) == [], "tests of the scratch copy still run"


def running_in(folder):
    """Live processes (not zombies) whose command line names folder."""
    found = []
    for p in pathlib.Path("/proc").iterdir():
        try:
            if p.name.isdigit() and \
                    str(folder) in (p / "cmdline").read_bytes().decode(errors="replace") and \
                    (p / "stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X"):
                found.append(int(p.name))
        except (OSError, IndexError):
            pass
    return found
