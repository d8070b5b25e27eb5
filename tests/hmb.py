"""hmb.py - the binaries under test (HMB_BIN and HMB_UNIT, which `make test`
sets; build/ by default) and small helpers to run them."""
import os
import pathlib
import re
import subprocess
import sys
import time

import hmbdoc

ROOT = hmbdoc.ROOT
BIN = pathlib.Path(os.environ.get("HMB_BIN", ROOT / "build" / "hipmembench")).resolve()
UNIT = pathlib.Path(os.environ.get("HMB_UNIT", ROOT / "build" / "unit_tests")).resolve()
PY = sys.executable


def run(*args, timeout=120, **kw):
    """hipmembench ARGS...: the finished process, with text stdout and stderr."""
    return subprocess.run([str(BIN), *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, **kw)


def declared_headline(source, table):
    """The first row of a module's table of headlines (src/engine/headline.h), as its
    folder declares it: name, case, params, figure and what it is."""
    text = (ROOT / source).read_text()
    m = re.search(table + r'\[\] = \{\s*\{ "([^"]+)", "([^"]+)", "([^"]*)", "([^"]+)", NULL,'
                  r'\s*"([^"]+)"', text)
    assert m, f"no {table} in {source}"
    return m.groups()


def module_names():
    return [line.split()[0] for line in run("list").stdout.splitlines() if line.strip()]


_gpu_reason = None


NO_GPU_EXIT = 3  # `hipmembench info` where no GPU is usable (docs/running.md: exit status)


class BrokenInfo(Exception):
    """`hipmembench info` failed otherwise than with "no GPU": a bug, not a skip."""


GPU_LINE = re.compile(r"^device \d+/\d+ +\S", re.M)  # info's line for the GPU it opened


def gpu_reason():
    """None when a GPU is usable, else the first line of `hipmembench info`'s
    "no GPU" error (exit 3). A GPU is there when info exits 0 and names it
    ("device N/M  NAME ..."), not on its exit status alone; any other outcome
    (a crash, a binary that prints nothing, exit 3 without saying why) raises
    BrokenInfo: it must fail the GPU tests, never skip them or pass them."""
    global _gpu_reason
    if _gpu_reason is None:
        p = run("info")
        first = (p.stderr.strip().splitlines() or [f"info exited {p.returncode}"])[0]
        if p.returncode not in (0, NO_GPU_EXIT):
            raise BrokenInfo(f"`{BIN} info` exited {p.returncode}, not 0 or {NO_GPU_EXIT} "
                             f"(no GPU): {first}")
        if p.returncode == 0 and not GPU_LINE.search(p.stdout):
            raise BrokenInfo(f"`{BIN} info` exited 0 but names no GPU (no line "
                             f"\"device N/M NAME\"): {p.stdout.strip()[:200]!r}")
        if p.returncode == NO_GPU_EXIT and not p.stderr.strip():
            raise BrokenInfo(f"`{BIN} info` exited {NO_GPU_EXIT} (no GPU) without saying why")
        _gpu_reason = "" if p.returncode == 0 else first
    return _gpu_reason or None


def temp_files(folder):
    """Names of leftover temporary files (NAME.tmp.PID.XXXXXX) in folder."""
    return sorted(p.name for p in pathlib.Path(folder).iterdir() if ".tmp." in p.name)


def signal_when(cmd, ready, sig, settle=0.0, timeout=120, stderr=subprocess.DEVNULL, env=None):
    """Start cmd, wait (at most 10 s) until ready() is true, then settle seconds,
    send sig and return the exit status; the process never outlives the call."""
    proc = subprocess.Popen([str(c) for c in cmd], stdout=subprocess.DEVNULL, stderr=stderr,
                            env=env)
    try:
        for _ in range(100):
            if ready():
                break
            time.sleep(0.1)
        time.sleep(settle)
        proc.send_signal(sig)
        return proc.wait(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
