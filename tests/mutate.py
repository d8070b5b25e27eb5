#!/usr/bin/env python3
"""mutate.py - mutation testing: seeded bugs that the tests must catch.

Each mutant of tests/mutants.txt is one change to one file (a text that must
occur there exactly once, and its replacement) with the tests that must fail
once it is made. In a scratch copy of the tree (tracked and untracked files,
never the checkout itself; build/ copied in so that only what a mutant
touches is compiled again), this script first runs every mutant's tests on
the unchanged code, which must pass (the test ids of one file in one pytest
run); then, for each mutant: makes the change, rebuilds, runs its tests and
puts the file back. Mutants are taken several at a time, each worker in a
scratch copy of its own (a worker a core).

  tests/mutate.py [--list FILE] [--only ID,...] [--check] [--timeout S]
                  [--binaries DIR | --prebuilt DIR]

  --check    only check the list: every file there, every text exactly once,
             every test it names there (unit tests: those of HMB_UNIT, else
             build/unit_tests, where built)
  --only     these mutants alone (the list is still checked whole)
  --timeout  seconds one run of tests may take (300); past that it is stopped,
             and a mutant's tests stopped so count as failed (a hang is a bug)
  --binaries build each mutant and keep its binary as DIR/ID/hipmembench,
             running no test: for mutants only a GPU shows
             (tests/gpu_mutants.txt), built here and carried to a GPU machine;
             the shared libraries of `make portable` (build/lib) go beside
             each, in DIR/ID/lib, where the binary looks for them
  --prebuilt run each mutant's tests against DIR/ID/hipmembench, building
             nothing, in this checkout (the unchanged binary: HMB_BIN, else
             build/hipmembench)

It needs a git checkout (the files copied are those git lists).

A mutant is killed when its tests fail (or hang past --timeout), survives
when they pass, is broken when it does not build (a mutant that does not
build tests nothing: fix its text). One line per mutant, then a summary.
Exit 0: every mutant killed; 1: one survived or was broken, or the tests
fail on the unchanged code; 2: bad input (the list, an option).

Environment: BUILD (build), PLATFORM, CUDA_ARCH, OFFLOAD_ARCH as for the build
there (make passes them; that build is copied and built on: give the settings
it was made with, or it is built again in full), PYTHON (/usr/bin/python3,
else this one), MAKE (make), HMB_MUTATE_WORKERS (mutants at a time: a core
each), HMB_MUTATE_JOBS (make's jobs per worker: 2 for one worker, else 1). Where
every mutant chosen is
of a Python script, nothing is built: the tests use HMB_BIN and HMB_UNIT (else
build/'s binaries) as they are."""
import argparse
import os
import pathlib
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

ROOT = pathlib.Path(__file__).resolve().parent.parent
# make's BUILD, the build copied in: under the same name where it is inside the
# tree (make then finds it current), else as build/ (then built again in full)
SOURCE_BUILD = ROOT / (os.environ.get("BUILD") or "build")
_inside = not pathlib.PurePath(os.environ.get("BUILD") or "build").is_absolute() and \
    ".." not in pathlib.PurePath(os.environ.get("BUILD") or "build").parts
BUILD = (os.environ.get("BUILD") or "build") if _inside else "build"
KEYS = ("id", "file", "find", "replace", "kill")


class BadInput(Exception):
    pass


# The process groups of the builds and tests running now, and whether the run
# was interrupted: then each goes, and none starts.
RUNNING = set()
RUNNING_LOCK = threading.Lock()
STOP = threading.Event()


def kill_running():
    STOP.set()
    with RUNNING_LOCK:
        groups = list(RUNNING)
    for pid in groups:
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def unescape(text):
    """\\n, \\t and \\\\ in find and replace texts; anything else as written."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in "nt\\":
            out.append({"n": "\n", "t": "\t", "\\": "\\"}[text[i + 1]])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def parse_list(path):
    """Mutants: blocks of `key: value` lines (id, file, find, replace, one or
    more kill), separated by blank lines; lines starting with # are comments."""
    try:
        lines = pathlib.Path(path).read_text().splitlines()
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror}")
    mutants, cur, start = [], None, 0
    lines.append("")
    for no, line in enumerate(lines, 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur is not None:
                missing = [k for k in KEYS if k not in cur or k == "kill" and not cur[k]]
                if missing:
                    raise BadInput(f"{path}:{start}: mutant without {', '.join(missing)}")
                mutants.append(cur)
                cur = None
            continue
        key, sep, value = line.partition(": ")
        if not sep and line.endswith(":"):
            key, sep, value = line[:-1], ":", ""
        if not sep or key not in KEYS:
            raise BadInput(f"{path}:{no}: expected `KEY: VALUE` with KEY one of "
                           f"{', '.join(KEYS)}, got {line[:60]!r}")
        if cur is None:
            cur, start = {"line": no, "kill": []}, no
        if key == "kill":
            cur["kill"].append(value.strip())
        elif key in cur:
            raise BadInput(f"{path}:{no}: second {key} in one mutant")
        else:
            cur[key] = value if key in ("find", "replace") else value.strip()
    ids = set()
    for m in mutants:
        if m["id"] in ids:
            raise BadInput(f"{path}:{m['line']}: mutant {m['id']} named twice")
        ids.add(m["id"])
        m["find"], m["replace"] = unescape(m["find"]), unescape(m["replace"])
        if not m["find"] or m["find"] == m["replace"]:
            raise BadInput(f"{path}:{m['line']}: {m['id']}: empty find, or replace the same")
        for k in m["kill"]:
            if not (k.startswith("unit:") or k.startswith("pytest:")) or not k.partition(":")[2].strip():
                raise BadInput(f"{path}:{m['line']}: {m['id']}: kill must be `unit: NAME` or "
                               f"`pytest: ARGS`, got {k!r}")
    return mutants


def check_texts(mutants, tree):
    """Every file there and every find text in it exactly once."""
    problems = []
    for m in mutants:
        f = tree / m["file"]
        try:
            text = f.read_text()
        except OSError:
            problems.append(f"{m['id']}: no file {m['file']}")
            continue
        n = text.count(m["find"])
        if n != 1:
            problems.append(f"{m['id']}: {m['file']} has its text {n} times, not once: "
                            f"{m['find'][:70]!r}")
    if problems:
        raise BadInput("the mutant list no longer fits the code:\n  " + "\n  ".join(problems))


def check_selectors(mutants, tree, unit):
    """Every `unit:` name a test of unit (its --list), every pytest file there."""
    problems = []
    names = None
    if unit and os.access(unit, os.X_OK):
        p = subprocess.run([str(unit), "--list"], capture_output=True, text=True)
        if p.returncode == 0:
            names = set(p.stdout.splitlines())
    for m in mutants:
        for sel in m["kill"]:
            kind, _, arg = sel.partition(":")
            arg = arg.strip()
            if kind == "unit" and names is not None and arg not in names:
                problems.append(f"{m['id']}: no unit test named {arg!r}")
            if kind == "pytest":
                try:
                    words = shlex.split(arg)
                except ValueError as e:
                    problems.append(f"{m['id']}: kill: {e}")
                    continue
                for w in words:
                    f = w.split("::")[0]
                    if f.endswith(".py") and not (tree / f).is_file():
                        problems.append(f"{m['id']}: no test file {f}")
    if problems:
        raise BadInput("the mutant list names tests that are not there:\n  " +
                       "\n  ".join(problems))


def copy_tree(dest, with_build):
    """The checkout's tracked and untracked (not ignored) files, and build/
    without pytest's folders, into dest."""
    p = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                       cwd=ROOT, capture_output=True, check=True)
    for name in sorted(set(p.stdout.decode().split("\0")) - {""}):
        if name.startswith(BUILD.rstrip("/") + "/"):
            continue  # a build folder git does not ignore: copied whole below
        src = ROOT / name
        if not src.is_file() or src.is_symlink() and not src.exists():
            continue  # deleted in the working tree, or a submodule
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / name, follow_symlinks=False)
    build = SOURCE_BUILD
    if with_build and build.is_dir():
        # the objects and binaries; not pytest's folders (pytest, pytest-*) or
        # other builds kept there (sanitize, fuzz, mutagen's coverage build)
        skip = ("sanitize", "fuzz", "mutagen")
        shutil.copytree(build, dest / BUILD, symlinks=True, dirs_exist_ok=True,
                        ignore=lambda d, names: [n for n in names if n in skip or
                                                 n.startswith("pytest")]
                        if pathlib.Path(d) == build else [])


def run_group(cmd, timeout=None, **kw):
    """cmd in a process group of its own, which goes whole (pytest's children
    too) on a timeout or an interruption: (exit status or None on a timeout,
    what it printed)."""
    with RUNNING_LOCK:
        if STOP.is_set():
            return None, ""
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True, **kw)
        RUNNING.add(proc.pid)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out
    except subprocess.TimeoutExpired:
        return None, ""
    finally:
        with RUNNING_LOCK:
            RUNNING.discard(proc.pid)
        if proc.returncode is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.communicate()


class Runner:
    def __init__(self, tree, timeout, jobs="2"):
        """jobs: make's, where HMB_MUTATE_JOBS does not say (2 for one worker)."""
        self.tree, self.timeout = tree, timeout
        jobs = os.environ.get("HMB_MUTATE_JOBS") or jobs
        (tree / BUILD).mkdir(parents=True, exist_ok=True)  # pytest's --basetemp is made in it
        # as `make test`: /usr/bin/python3 where present, not a shim on PATH
        self.python = os.environ.get("PYTHON") or (
            "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable)
        # the settings of the build copied in (make's defaults where not given),
        # so that only what a mutant touches is compiled again
        self.make = [os.environ.get("MAKE", "make"), f"-j{jobs}", f"BUILD={BUILD}"]
        self.make += [f"{v}={os.environ[v]}" for v in ("PLATFORM", "CUDA_ARCH", "OFFLOAD_ARCH")
                      if os.environ.get(v)]
        # the binary on the emulated runtime, built for the tests that run it
        # (tests/test_emulated.py) when they are about to
        self.make_emulated = self.make + ["emulated"]
        self.make += [f"{BUILD}/hipmembench", f"{BUILD}/unit_tests"]
        self.env = dict(os.environ, HMB_BIN=str(tree / BUILD / "hipmembench"),
                        HMB_UNIT=str(tree / BUILD / "unit_tests"),
                        HMB_EMULATED_BIN=str(tree / BUILD / "emulated" / "hipmembench"),
                        PYTHONDONTWRITEBYTECODE="1")
        for v in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
            self.env.pop(v, None)

    def build(self):
        rc, out = run_group(self.make, cwd=self.tree, env=self.env)
        return rc == 0, out

    def kill(self, sel):
        """Runs one selector: 'pass', 'fail' or 'timeout', and what it printed."""
        kind, _, arg = sel.partition(":")
        arg = arg.strip()
        if kind == "unit":
            cmd = [self.env["HMB_UNIT"], arg]
        else:
            if "test_emulated" in arg:
                rc, out = run_group(self.make_emulated, cwd=self.tree, env=self.env)
                if rc != 0:  # what `make test` would stop at
                    return "fail", out
            cmd = [self.python, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                   f"--basetemp={self.tree / BUILD / 'pytest'}", *shlex.split(arg)]
        rc, out = run_group(cmd, timeout=self.timeout, cwd=self.tree, env=self.env)
        if rc is None:
            return "timeout", ""
        if kind == "pytest" and rc not in (0, 1, 2):
            # 3: internal error, 4: usage, 5: no tests: the selector, not the code
            return f"error (pytest exit {rc})", out
        if kind == "pytest" and rc == 0 and not re.search(r"\b[1-9]\d* passed", out):
            return "error (every test skipped here: it tests nothing)", out
        return ("pass" if rc == 0 else "fail"), out

    def check(self, sels):
        """Selectors on the unchanged code: {selector: verdict} as kill() says it.
        Several (test ids of one file, from together()) run in one pytest run (one
        start instead of one a selector), each judged by pytest's report of its
        tests (-rA); a run that reports nothing usable (a crash, a collection
        error) leaves each to kill() alone."""
        if len(sels) == 1:
            return {sels[0]: self.kill(sels[0])}
        ids = [sel.partition(":")[2].strip() for sel in sels]
        cmd = [self.python, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
               f"--basetemp={self.tree / BUILD / 'pytest'}", *ids]
        rc, out = run_group(cmd, timeout=self.timeout * len(sels), cwd=self.tree, env=self.env)
        if rc not in (0, 1):
            return {sel: self.kill(sel) for sel in sels}
        seen = re.findall(r"^(PASSED|FAILED|ERROR) (\S+)", out, re.M)
        verdicts = {}
        for sel, tid in zip(sels, ids):
            mine = {o for o, test in seen if test == tid or test.startswith((tid + "[", tid + "::"))}
            verdicts[sel] = ("fail", out) if {"FAILED", "ERROR"} & mine else \
                ("pass", out) if mine else \
                ("error (every test skipped here: it tests nothing)", out)
        return verdicts


def together(sels):
    """The selectors in the runs that check them on the unchanged code: the plain test
    ids of one file (no -k, no emulated build to make first) in one run, each other
    selector in its own."""
    runs, by_file = [], {}
    for sel in sels:
        kind, _, arg = sel.partition(":")
        arg = arg.strip()
        if kind == "pytest" and "::" in arg and " " not in arg and "test_emulated" not in arg:
            by_file.setdefault(arg.split("::")[0], []).append(sel)
        else:
            runs.append([sel])
    return runs + list(by_file.values())


def keep_binaries(mutants, scratch, run, dest):
    """Each mutant built in turn, its binary kept as dest/ID/hipmembench (with
    build/lib, where `make portable` made it, as dest/ID/lib)."""
    broken = []
    libs = ROOT / BUILD / "lib"
    for m in mutants:
        path = scratch / m["file"]
        original = path.read_bytes()
        try:
            path.write_text(original.decode().replace(m["find"], m["replace"], 1))
            ok, out = run.build()
            if ok:
                (dest / m["id"]).mkdir(parents=True, exist_ok=True)
                shutil.copy2(scratch / BUILD / "hipmembench", dest / m["id"] / "hipmembench")
                if libs.is_dir():
                    shutil.copytree(libs, dest / m["id"] / "lib", dirs_exist_ok=True)
        finally:
            path.write_bytes(original)
        print(f"{'built' if ok else 'broken':8} {m['id']}", flush=True)
        if not ok:
            broken.append(m["id"])
            print(tail(out), flush=True)
    run.build()  # the scratch build unchanged again, for nobody: it goes
    return 1 if broken else 0


def run_prebuilt(mutants, binaries, timeout, t_all):
    """The tests of each mutant against its binary built elsewhere
    (--binaries): first against the unchanged one, where they must pass."""
    run = Runner(ROOT, timeout)
    run.env["HMB_BIN"] = str(pathlib.Path(os.environ.get("HMB_BIN", SOURCE_BUILD / "hipmembench"))
                             .resolve())
    for sel in sorted({s for m in mutants for s in m["kill"]}):
        verdict, out = run.kill(sel)
        if verdict != "pass":
            print(f"mutate: {sel!r} does not pass on the unchanged binary ({verdict})\n{tail(out)}")
            return 1
    print("every selector passes on the unchanged binary", flush=True)
    bad = []
    for m in mutants:
        t0 = time.monotonic()
        run.env["HMB_BIN"] = str(binaries / m["id"] / "hipmembench")
        verdict, by = "survived", ""
        for sel in m["kill"]:
            v, out = run.kill(sel)
            if v in ("fail", "timeout"):
                verdict, by = "killed", f"by {sel}" + (" (timeout)" if v == "timeout" else "")
                break
            if v != "pass":
                verdict, by = "error", f"{sel}: {v}\n{tail(out)}"
                break
        print(f"{verdict:8} {m['id']:34} {time.monotonic() - t0:5.0f} s  {by}", flush=True)
        if verdict != "killed":
            bad.append(m["id"])
    print(f"mutants: {len(mutants)}, killed {len(mutants) - len(bad)}; "
          f"{time.monotonic() - t_all:.0f} s")
    return 1 if bad else 0


def tail(text, n=15):
    return "\n".join("    " + line for line in text.strip().splitlines()[-n:])


def main():
    ap = argparse.ArgumentParser(description="Seeded bugs that the tests must catch.")
    ap.add_argument("--list", default=str(ROOT / "tests/mutants.txt"))
    ap.add_argument("--only", default="")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--binaries", type=pathlib.Path)
    ap.add_argument("--prebuilt", type=pathlib.Path)
    try:
        args = ap.parse_args()
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        mutants = parse_list(args.list)
        check_texts(mutants, ROOT)
        check_selectors(mutants, ROOT, os.environ.get("HMB_UNIT", SOURCE_BUILD / "unit_tests"))
        if args.only:
            want = [w for w in args.only.split(",") if w]
            unknown = [w for w in want if w not in {m["id"] for m in mutants}]
            if unknown:
                raise BadInput(f"--only: no mutant named {', '.join(unknown)}")
            mutants = [m for m in mutants if m["id"] in want]
        if args.binaries and args.prebuilt:
            raise BadInput("--binaries builds, --prebuilt runs: give one")
        if args.prebuilt:
            missing = [m["id"] for m in mutants
                       if not (args.prebuilt / m["id"] / "hipmembench").is_file()]
            if missing:
                raise BadInput(f"--prebuilt: no {args.prebuilt}/ID/hipmembench for "
                               + ", ".join(missing))
    except BadInput as e:
        print(f"mutate: {e}", file=sys.stderr)
        return 2
    if args.check:
        print(f"mutate: {len(mutants)} mutants, each text found once, their tests there")
        return 0

    def stop(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)  # as Ctrl-C: the scratch copy goes, and the tests
    signal.signal(signal.SIGHUP, stop)
    t_all = time.monotonic()
    if args.prebuilt:
        return run_prebuilt(mutants, args.prebuilt.resolve(), args.timeout, t_all)
    try:
        workers = int(os.environ.get("HMB_MUTATE_WORKERS") or os.cpu_count() or 1)
    except ValueError:
        print(f"mutate: HMB_MUTATE_WORKERS={os.environ['HMB_MUTATE_WORKERS']!r} is not a "
              "whole number", file=sys.stderr)
        return 2
    workers = max(1, min(len(mutants), workers))
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="hmb-mutate-"))
    scratches = [scratch]
    jobs = "2" if workers == 1 else "1"
    needs_build = any(not m["file"].endswith(".py") for m in mutants)
    free = queue.Queue()

    def make_runner(tree):
        r = Runner(tree, args.timeout, jobs)
        if not needs_build:
            r.build = lambda: (True, "")
            for v, name in (("HMB_BIN", "hipmembench"), ("HMB_UNIT", "unit_tests")):
                r.env[v] = str(pathlib.Path(os.environ.get(v, SOURCE_BUILD / name)).resolve())
        return r
    try:
        copy_tree(scratch, with_build=needs_build)
        run = make_runner(scratch)
        if needs_build:
            t0 = time.monotonic()
            ok, out = run.build()
            if not ok:
                print(f"mutate: the unchanged tree does not build:\n{tail(out)}")
                return 1
            print(f"build of the unchanged tree: {time.monotonic() - t0:.0f} s", flush=True)
            if args.binaries:
                return keep_binaries(mutants, scratch, run, args.binaries.resolve())
        for _ in range(1, workers):  # the other workers' copies
            s_i = pathlib.Path(tempfile.mkdtemp(prefix="hmb-mutate-"))
            scratches.append(s_i)
            copy_tree(s_i, with_build=needs_build)
            free.put(make_runner(s_i))
        free.put(run)

        def on_a_worker(fn, *a):
            r = free.get()
            try:
                return fn(r, *a)
            finally:
                free.put(r)
        counts = {"killed": 0, "survived": 0, "broken": 0, "error": 0}
        bad = set()
        pool = ThreadPoolExecutor(max_workers=workers)
        try:
            t0 = time.monotonic()
            runs = together(sorted({s for m in mutants for s in m["kill"]}))
            futures = [pool.submit(on_a_worker, Runner.check, run) for run in runs]
            for f in as_completed(futures):
                for sel, (verdict, out) in f.result().items():
                    if verdict != "pass":
                        print(f"mutate: {sel!r} does not pass on the unchanged code "
                              f"({verdict}): it would kill every mutant\n{tail(out)}")
                        kill_running()
                        return 1
            print(f"every selector passes on the unchanged code: {time.monotonic() - t0:.0f} s",
                  flush=True)
            futures = {pool.submit(on_a_worker, try_mutant, m): m for m in mutants}
            for f in as_completed(futures):
                m = futures[f]
                verdict, by, detail, took = f.result()
                counts[verdict] += 1
                print(f"{verdict:8} {m['id']:34} {took:5.0f} s  {by}", flush=True)
                if verdict != "killed":
                    bad.add(m["id"])
                    if detail:
                        print(detail, flush=True)
        except BaseException:
            kill_running()  # an interruption: the tests running now go too
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        bad = [m["id"] for m in mutants if m["id"] in bad]
        print(f"mutants: {len(mutants)}, " + ", ".join(f"{k} {v}" for k, v in counts.items())
              + f"; {time.monotonic() - t_all:.0f} s")
        if bad:
            print("not killed: " + ", ".join(bad) + " (add the test that catches each)")
            return 1
        return 0
    except KeyboardInterrupt:
        kill_running()
        print("mutate: interrupted", file=sys.stderr)
        return 130
    except (OSError, subprocess.SubprocessError) as e:
        print(f"mutate: {e}", file=sys.stderr)
        return 1
    finally:
        for s_i in scratches:
            shutil.rmtree(s_i, ignore_errors=True)


def try_mutant(run, m):
    """Makes mutant m in run's tree, builds, runs its tests, puts the file back:
    (verdict, by which test, what to show, seconds)."""
    t0 = time.monotonic()
    path = run.tree / m["file"]
    original = path.read_bytes()
    try:
        path.write_text(original.decode().replace(m["find"], m["replace"], 1))
        ok, out = run.build()
        if not ok:
            return "broken", "", tail(out), time.monotonic() - t0
        for sel in m["kill"]:
            v, out = run.kill(sel)
            if v in ("fail", "timeout"):
                by = f"by {sel}" + (" (timeout)" if v == "timeout" else "")
                return "killed", by, "", time.monotonic() - t0
            if v != "pass":
                return "error", f"{sel}: {v}", tail(out), time.monotonic() - t0
        return "survived", "", "", time.monotonic() - t0
    finally:
        path.write_bytes(original)


if __name__ == "__main__":
    sys.exit(main())
