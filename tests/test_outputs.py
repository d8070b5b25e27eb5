"""test_outputs.py - what hipmembench leaves on stdout and on disk: help for every
command within 80 columns, stdout that is exactly JSON or CSV when asked for, a
document marked incomplete without a GPU, no clobbered device node, and no temporary
file left by a signal at any moment of a write.

HMB_BIN names the hipmembench binary (tests/hmb.py; `make test` sets it)."""
import csv
import io
import json
import os
import pathlib
import random
import re
import shutil
import signal
import stat
import subprocess
import time

import pytest

import hmb

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = str(hmb.BIN)


def run(*args, cwd=None):
    return subprocess.run([BIN, *args], cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120)


def traced_env():
    """For a run under strace: LeakSanitizer cannot work under ptrace."""
    asan = os.environ.get("ASAN_OPTIONS", "")
    return dict(os.environ, ASAN_OPTIONS=(asan + ":" if asan else "") + "detect_leaks=0")


def help_commands():
    """The commands that --help lists."""
    out = run("--help").stdout
    section = out.split("\ncommands:\n", 1)[1].split("\n\n", 1)[0]
    return [m.group(1) for m in re.finditer(r"^  (\S+)", section, re.M)]


def no_gpu():
    return run("info").returncode == 3


def test_help_lists_every_command():
    modules = [line.split()[0] for line in run("list").stdout.splitlines()]
    cmds = help_commands()
    assert modules and set(["list", "info", "all", "help", "compare"] + modules) == set(cmds), cmds


@pytest.mark.parametrize("form", ["help CMD", "CMD --help"])
def test_help_for_every_command(form):
    for cmd in help_commands():
        r = run(*form.replace("CMD", cmd).split())
        assert r.returncode == 0 and r.stderr == "", (cmd, r.returncode, r.stderr)
        assert r.stdout.startswith("usage: hipmembench"), (cmd, r.stdout[:200])
        assert cmd in r.stdout.splitlines()[0] or cmd == "help", (cmd, r.stdout[:200])


@pytest.mark.parametrize("args", [["--help"], ["help"]] + [["help", c] for c in
                         ["list", "info", "all", "help", "compare", "memcpy", "overlap",
                          "managed", "xnack", "pool", "vmm"]])
def test_help_fits_80_columns(args):
    r = run(*args)
    assert r.returncode == 0
    long = [line for line in r.stdout.splitlines() if len(line) > 80]
    assert not long, long


def test_dry_run_json_on_stdout_is_only_json():
    for args in (["--dry-run", "-o", "-", "all"], ["--dry-run", "--format", "json", "all"],
                 ["--dry-run", "-o", "-", "--format", "json", "info"]):
        r = run(*args)
        assert r.returncode == 0, r.stderr
        doc = json.loads(r.stdout)  # one document, nothing before or after it
        assert doc["settings"]["dry_run"] is True
        assert "would run" in r.stderr or args[-1] == "info"


def test_dry_run_csv_on_stdout_is_only_csv():
    r = run("--dry-run", "--format", "csv", "memcpy")
    assert r.returncode == 0, r.stderr
    rows = list(csv.reader(io.StringIO(r.stdout)))
    assert rows and rows[0][:3] == ["module", "case", "status"]
    assert "would run memcpy" in r.stderr


def test_no_gpu_document_is_incomplete(tmp_path):
    if not no_gpu():
        pytest.skip("a GPU is present")
    r = run("-o", "out.json", "memcpy", cwd=tmp_path)
    assert r.returncode == 3
    assert r.stderr.startswith("hipmembench: no GPU found: ") and len(r.stderr.splitlines()) == 1
    reason = r.stderr.split("no GPU found: ", 1)[1].strip()
    assert len(reason) > 10, "the runtime's reason is named"
    doc = json.loads((tmp_path / "out.json").read_text())
    assert doc["complete"] is False and doc["interrupted"] is False and doc["device"] is None
    assert sorted(os.listdir(tmp_path)) == ["out.json"], "nothing but the document"
    r = run("--format", "json", "info")
    assert r.returncode == 3 and json.loads(r.stdout)["complete"] is False


def test_device_node_is_not_replaced():
    before = os.stat("/dev/full")
    r = run("--dry-run", "-o", "/dev/full", "memcpy")
    assert r.returncode == 2 and "not a regular file" in r.stderr
    after = os.stat("/dev/full")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_output_symlink_to_directory_is_refused(tmp_path):
    (tmp_path / "dir").mkdir()
    os.symlink("dir", tmp_path / "link")
    r = run("--dry-run", "-o", "link", "memcpy", cwd=tmp_path)
    assert r.returncode == 2 and "a directory, not a regular file" in r.stderr
    assert os.path.islink(tmp_path / "link") and os.listdir(tmp_path / "dir") == []


def test_existing_document_is_replaced_whole(tmp_path):
    (tmp_path / "out.json").write_text("old")
    r = run("--dry-run", "-o", "out.json", "all", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "out.json").read_text())["complete"] is True
    assert sorted(os.listdir(tmp_path)) == ["out.json"]


@pytest.mark.skipif(not shutil.which("strace"), reason="strace is not installed (Debian: strace)")
def test_directory_is_fsynced_after_rename(tmp_path):
    r = subprocess.run(["strace", "-f", "-e", "trace=openat,rename,fsync", BIN, "--dry-run", "-o",
                        "out.json", "memcpy"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120, env=traced_env())
    assert r.returncode == 0, r.stderr[-2000:]
    trace = r.stderr.splitlines()
    renamed = [i for i, line in enumerate(trace) if line.startswith("rename(") and '"out.json"' in line]
    assert renamed, "the document is renamed into place"
    after = trace[renamed[-1]:]
    dirfd = [re.search(r"= (\d+)$", line) for line in after if 'openat(AT_FDCWD, "."' in line]
    assert dirfd and dirfd[0], "the directory is opened after the rename"
    assert any(line.startswith(f"fsync({dirfd[0].group(1)})") for line in after), after


def tmp_files(path):
    return [n for n in os.listdir(path) if ".tmp." in n]


@pytest.mark.parametrize("signals", [1, 2])
def test_signals_leave_no_temporary_file(tmp_path, signals):
    """SIGTERM at random moments of a dry run (one signal: the document is finished,
    exit 143; two: hipmembench stops at once and removes its temporary file)."""
    rng = random.Random(14)
    for trial in range(60):
        out = tmp_path / f"out{trial}.json"
        p = subprocess.Popen([BIN, "--dry-run", "-o", str(out), "all"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0, 0.04))
        for _ in range(signals):
            try:
                p.send_signal(signal.SIGTERM)
            except ProcessLookupError:
                pass
        rc = p.wait(timeout=60)
        assert rc in (0, 143, -signal.SIGTERM), rc
        if out.exists():
            doc = json.loads(out.read_text())  # never half-written
            if rc != -signal.SIGTERM:
                assert doc["interrupted"] is (rc == 143), (rc, doc["interrupted"])
    assert not tmp_files(tmp_path), tmp_files(tmp_path)


def syscall_of(pid):
    try:
        with open(f"/proc/{pid}/syscall") as f:
            return f.read().split()[0]
    except (OSError, IndexError):
        return None


def wait_until(predicate, seconds=60):
    end = time.time() + seconds
    while time.time() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.001)
    return None


@pytest.mark.skipif(not shutil.which("strace") or os.uname().machine != "x86_64",
                    reason="needs strace (Debian: strace) on x86_64 (syscall numbers)")
def test_second_signal_mid_write_removes_temporary_file(tmp_path):
    """Held in the temporary file's fsync and then its close (strace delays both), a
    first SIGTERM only sets a flag; a second one stops hipmembench at once, and the
    temporary file goes with it."""
    FSYNC, CLOSE = "74", "3"
    p = subprocess.Popen(["strace", "-f", "-o", "/dev/null", "-e", "trace=fsync,close",
                          "-e", "inject=fsync,close:delay_enter=100000", BIN, "--dry-run", "-o",
                          "out.json", "all"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, env=traced_env())
    tmp = wait_until(lambda: tmp_files(tmp_path))
    assert tmp, "no temporary file seen"
    pid = int(tmp[0].rsplit(".", 1)[1])
    assert wait_until(lambda: syscall_of(pid) == FSYNC)
    os.kill(pid, signal.SIGTERM)
    assert wait_until(lambda: syscall_of(pid) == CLOSE)
    os.kill(pid, signal.SIGTERM)
    assert p.wait(timeout=60) == -signal.SIGTERM
    assert os.listdir(tmp_path) == [], "neither the document nor its temporary file"
