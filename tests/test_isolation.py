"""test_isolation.py - `all` runs each module in a process of its own
(src/run/isolate.c): a module process that dies by a signal (a crash, the OOM
killer) is a failed record naming the signal, its module run keeps 128 + the
signal as its exit status, and `all` exits 1 with the document complete. No GPU
is needed: strace kills each module's process with SIGKILL as it puts its
document in place (its rename), which the parent, writing JSON to stdout,
never does."""
import json
import os
import shutil
import subprocess

import pytest

import hmb
import hmbdoc

RENAMES = "rename,renameat,renameat2"


def traced_env():
    """For a run under strace: LeakSanitizer cannot work under ptrace."""
    asan = os.environ.get("ASAN_OPTIONS", "")
    return dict(os.environ, ASAN_OPTIONS=(asan + ":" if asan else "") + "detect_leaks=0")


@pytest.mark.skipif(not shutil.which("strace"), reason="strace is not installed (Debian: strace)")
def test_module_process_killed_by_a_signal_fails_the_run(tmp_path):
    """... and leaves nothing in $TMPDIR: neither the document the module's process
    was to write nor the temporary it was killed writing."""
    p = subprocess.run(["strace", "-f", "-o", "/dev/null", "-e", f"trace={RENAMES}",
                        "-e", f"inject={RENAMES}:signal=SIGKILL", str(hmb.BIN),
                        "--runs", "1", "--quick", "--sizes", "4K", "--format", "json",
                        "--output", "-", "all"],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
                       env=dict(traced_env(), TMPDIR=str(tmp_path)))
    assert p.returncode == 1, (p.returncode, p.stderr[-3000:])
    assert not list(tmp_path.iterdir()), list(tmp_path.iterdir())
    doc = json.loads(p.stdout)
    modules = hmb.module_names()
    assert doc["complete"] is True and doc["interrupted"] is False
    assert doc["modules"] == modules, doc["modules"]
    # each module's process died: one failed record each, naming the signal
    failed = {r["module"]: r for r in doc["results"] if r["status"] == "failed"}
    assert sorted(failed) == sorted(modules), doc["results"]
    for m, r in failed.items():
        assert "killed by signal 9" in (r["reason"] or ""), r
        assert f"[{m}] module: failed: its process was killed by signal 9" in p.stderr
    assert not [r for r in doc["results"] if r["status"] == "ok"]
    assert [(r["module"], r["exit_status"]) for r in doc["module_runs"]] == \
        [(m, 128 + 9) for m in modules]
    assert not [r for r in doc["module_runs"] if "note" in r and not r["note"]], doc["module_runs"]
    assert not hmbdoc.problems(doc), hmbdoc.problems(doc)
    assert "case(s) failed" in p.stderr.splitlines()[-1], p.stderr[-500:]


@pytest.mark.skipif(not shutil.which("strace"), reason="strace is not installed (Debian: strace)")
def test_module_process_that_cannot_start_names_the_binary(tmp_path):
    """A module's process whose execve fails says which program it could not start
    (the binary, not one of its options), exits 127, and the module is a failed
    record. The top process is started by a relative path so that only the module
    processes' execve (of the absolute path) is failed."""
    p = subprocess.run(["strace", "-f", "-o", "/dev/null", "-P", str(hmb.BIN),
                        "-e", "trace=execve", "-e", "inject=execve:error=EACCES",
                        f"./{hmb.BIN.name}", "--runs", "1", "--quick", "--sizes", "4K",
                        "--output", str(tmp_path / "doc.json"), "all"], cwd=hmb.BIN.parent, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=120, env=traced_env())
    assert p.returncode == 1, (p.returncode, p.stderr[-3000:])
    assert f"hipmembench: cannot start {hmb.BIN}: Permission denied" in p.stderr, p.stderr[-3000:]
    doc = json.loads((tmp_path / "doc.json").read_text())
    failed = [r["reason"] for r in doc["results"] if r["status"] == "failed"]
    assert failed and all(r == "its process left no document (exit status 127)" for r in failed)


@pytest.mark.skipif(not shutil.which("strace"), reason="strace is not installed (Debian: strace)")
def test_module_process_that_refuses_its_options_stops_the_run_without_a_failed_record(tmp_path):
    """A module's process that exits 2 (usage) has said why itself: the run stops
    with exit 2, no failed record is made up for it, and a command refused before
    anything was measured leaves no document. The stand-in module process is a
    script: with readlink failed, the binary re-executes itself by argv[0]."""
    child = tmp_path / "refuses"
    child.write_text("#!/bin/sh\necho 'stand-in: --sizes refused' >&2\nexit 2\n")
    child.chmod(0o755)
    out = tmp_path / "doc.json"
    p = subprocess.run(["strace", "-f", "-o", "/dev/null", "-e", "trace=readlink,readlinkat",
                        "-e", "inject=readlink,readlinkat:error=ENOENT",
                        "bash", "-c", 'exec -a "$0" "$@"', str(child), str(hmb.BIN),
                        "--runs", "1", "--quick", "--sizes", "4K", "--output", str(out), "all"],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
                       env=traced_env())
    assert p.returncode == 2, (p.returncode, p.stderr[-3000:])
    assert "stand-in: --sizes refused" in p.stderr
    assert "module: failed" not in p.stderr, p.stderr[-3000:]
    assert not out.exists(), out.read_text()[:500]
