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
    builtins = ["list", "info", "all", "help", "compare", "show", "summary", "merge"]
    assert modules and set(builtins + modules) == set(cmds), cmds


@pytest.mark.parametrize("form", ["help CMD", "CMD --help"])
def test_help_for_every_command(form):
    for cmd in help_commands():
        r = run(*form.replace("CMD", cmd).split())
        assert r.returncode == 0 and r.stderr == "", (cmd, r.returncode, r.stderr)
        assert r.stdout.startswith("usage: hipmembench"), (cmd, r.stdout[:200])
        assert cmd in r.stdout.splitlines()[0] or cmd == "help", (cmd, r.stdout[:200])


@pytest.mark.parametrize("args", [["--help"], ["help"]] + [["help", c] for c in
                         ["list", "info", "all", "help", "compare", "show", "summary", "memcpy",
                          "overlap",
                          "managed", "xnack", "pool", "vmm"]])
def test_help_fits_80_columns(args):
    r = run(*args)
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert len(lines) >= 3 and "hipmembench" in r.stdout, r.stdout[:300]  # help was printed
    long = [line for line in lines if len(line) > 80]
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
    assert rows and rows[0][:4] == ["module", "case", "direction", "status"]
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
    documents = 0
    # the moments span a whole run of this binary (slower under the sanitizers)
    start = time.monotonic()
    assert subprocess.run([BIN, "--dry-run", "-o", str(tmp_path / "whole.json"), "all"],
                          capture_output=True).returncode == 0
    span = time.monotonic() - start
    os.unlink(tmp_path / "whole.json")
    for trial in range(60):
        out = tmp_path / f"out{trial}.json"
        p = subprocess.Popen([BIN, "--dry-run", "-o", str(out), "all"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0, span))
        for _ in range(signals):
            try:
                p.send_signal(signal.SIGTERM)
            except ProcessLookupError:
                pass
        rc = p.wait(timeout=60)
        assert rc in (0, 143, -signal.SIGTERM), rc
        if out.exists():
            doc = json.loads(out.read_text())  # never half-written
            documents += 1
            if rc != -signal.SIGTERM:
                assert doc["interrupted"] is (rc == 143), (rc, doc["interrupted"])
    assert not tmp_files(tmp_path), tmp_files(tmp_path)
    assert documents, "no trial wrote a document: the binary under test did not run"


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
    pid = int(tmp[0].split(".tmp.")[1].split(".")[0])  # NAME.tmp.PID.XXXXXX
    assert wait_until(lambda: syscall_of(pid) == FSYNC)
    os.kill(pid, signal.SIGTERM)
    assert wait_until(lambda: syscall_of(pid) == CLOSE)
    os.kill(pid, signal.SIGTERM)
    assert p.wait(timeout=60) == -signal.SIGTERM
    assert os.listdir(tmp_path) == [], "neither the document nor its temporary file"


def traced_child(pid):
    """The hipmembench that strace (pid) started, once it runs, or None."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = f.read().split()
        with open(f"/proc/{kids[0]}/comm") as f:
            return int(kids[0]) if f.read().startswith("hipmembench") else None
    except (OSError, IndexError):
        return None


@pytest.mark.skipif(not shutil.which("strace") or os.uname().machine != "x86_64",
                    reason="needs strace (Debian: strace) on x86_64 (syscall numbers)")
def test_sigkill_mid_write_leaves_the_old_document_whole(tmp_path):
    """SIGKILL cannot be caught: killed while its new document is written (held in
    the temporary file's fsync), hipmembench leaves the old document byte for byte,
    and the next run into the same place removes the dead run's temporary file."""
    FSYNC = "74"
    old = b'{"an": "old document", "kept": true}\n'
    (tmp_path / "out.json").write_bytes(old)
    p = subprocess.Popen(["strace", "-f", "-o", "/dev/null", "-e", "trace=fsync",
                          "-e", "inject=fsync:delay_enter=200000", BIN, "--dry-run", "-o",
                          "out.json", "all"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, env=traced_env())
    pid = wait_until(lambda: traced_child(p.pid))
    assert pid, "hipmembench did not start under strace"
    assert wait_until(lambda: syscall_of(pid) == FSYNC)
    os.kill(pid, signal.SIGKILL)
    p.wait(timeout=60)
    assert (tmp_path / "out.json").read_bytes() == old
    assert tmp_files(tmp_path), "the killed run's temporary file is still there"
    r = run("--dry-run", "-o", "out.json", "memcpy", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "out.json").read_text())["complete"] is True
    assert sorted(os.listdir(tmp_path)) == ["out.json"], "the dead run's temporary file is removed"


# ---- output files that cannot be turned against the user -------------------

def plant_and_run(tmp_path, plant, *args, timeout=20):
    """Plant something at the name the temporary file had before (NAME.tmp.PID: the
    shell's pid, which exec keeps), then run hipmembench ARGS in tmp_path."""
    return subprocess.run(["sh", "-c", f'{plant} "out.json.tmp.$$" && exec "$0" "$@"', BIN, *args],
                          cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize("plant", ["ln -s victim", "mkfifo", "mkdir"])
def test_nothing_planted_at_a_temporary_name_is_used(tmp_path, plant):
    """A link planted where the temporary file goes is not written through (the
    victim is untouched and out.json is a document, not a link); a FIFO does not
    make the run hang; a directory does not make it fail."""
    victim = tmp_path / "victim"
    victim.write_text("precious")
    r = plant_and_run(tmp_path, plant, "--dry-run", "-o", "out.json", "memcpy")
    assert r.returncode == 0, r.stderr
    assert victim.read_text() == "precious"
    out = tmp_path / "out.json"
    assert not out.is_symlink() and json.loads(out.read_text())["complete"] is True
    planted = [n for n in os.listdir(tmp_path) if n.startswith("out.json.tmp.")]
    assert len(planted) == 1, planted  # what was planted, left alone; nothing of ours


@pytest.mark.skipif(not shutil.which("strace"), reason="strace is not installed")
def test_temporary_file_is_made_exclusively(tmp_path):
    """O_CREAT|O_EXCL|O_NOFOLLOW, a random name beside the output: mkstemp's way."""
    r = subprocess.run(["strace", "-f", "-e", "trace=openat", BIN, "--dry-run", "-o",
                        "out.json", "memcpy"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120, env=traced_env())
    assert r.returncode == 0, r.stderr[-2000:]
    opens = [line for line in r.stderr.splitlines() if '"out.json.tmp.' in line]
    assert opens, r.stderr[-2000:]
    for line in opens:
        assert re.search(r'"out\.json\.tmp\.\d+\.[A-Za-z0-9]{6}"', line), line
        assert "O_EXCL" in line and "O_NOFOLLOW" in line and "O_TRUNC" not in line, line


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o444 | 0o200])
def test_replaced_document_keeps_its_mode(tmp_path, mode):
    out = tmp_path / "out.json"
    out.write_text("old")
    out.chmod(mode)
    r = run("--dry-run", "-o", "out.json", "memcpy", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert stat.S_IMODE(out.stat().st_mode) == mode
    assert json.loads(out.read_text())["complete"] is True


@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o644)])
def test_new_document_mode_is_0644_less_the_umask(tmp_path, umask, mode):
    r = subprocess.run([BIN, "--dry-run", "-o", "out.json", "memcpy"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120,
                       preexec_fn=lambda: os.umask(umask))
    assert r.returncode == 0, r.stderr
    assert stat.S_IMODE((tmp_path / "out.json").stat().st_mode) == mode


@pytest.mark.parametrize("dry", [[], ["--dry-run"]])
def test_output_in_a_removed_folder_is_refused_before_measuring(tmp_path, dry):
    """The folder is checked by making a file there, not by access(): a working
    directory that was removed (and /proc, for root) fails at once, exit 2."""
    (tmp_path / "gone").mkdir()
    r = subprocess.run(["sh", "-c", 'cd gone && rmdir ../gone && exec "$0" "$@"', BIN, *dry,
                        "-o", "out.json", "memcpy"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("hipmembench: cannot write --output out.json: cannot create a "
                               "file in its folder .: No such file or directory")
    assert r.stderr.count("\n") == 1


def dead_pid():
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def test_stale_temporaries_are_removed_by_the_next_write(tmp_path):
    """NAME.tmp.PID.XXXXXX of a process that is gone (SIGKILL, power loss) goes when
    the same output is written again; a live process's, a locked one, another
    output's and names of another form stay."""
    import fcntl
    gone, me = dead_pid(), os.getpid()
    stale = [f"out.json.tmp.{gone}.Ab3xYz", f"out.json.tmp.{gone}.000000"]
    kept = [f"out.json.tmp.{me}.Ab3xYz", f"other.json.tmp.{gone}.Ab3xYz",
            f"out.json.tmp.{gone}", f"out.json.tmp.{gone}.Ab3xYzz", f"out.json.tmp.{gone}.lock"]
    for name in stale + kept:
        (tmp_path / name).write_text("{")
    (tmp_path / "out.json.tmp.{}.Lock01".format(gone)).write_text("{")
    kept.append(f"out.json.tmp.{gone}.Lock01")
    with open(tmp_path / f"out.json.tmp.{gone}.Lock01", "r+") as held:
        fcntl.lockf(held, fcntl.LOCK_EX)  # a run elsewhere (another host) still writing
        r = run("--dry-run", "-o", "out.json", "memcpy", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    left = sorted(os.listdir(tmp_path))
    assert left == sorted(kept + ["out.json"]), left


CATCHABLE = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGPIPE,
             signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM, signal.SIGXCPU, signal.SIGXFSZ,
             signal.SIGVTALRM, signal.SIGPROF]


@pytest.fixture
def no_core_dumps():
    """SIGQUIT, SIGXCPU and SIGXFSZ dump core where not caught: not here."""
    import resource
    old = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (0, old[1]))
    yield
    resource.setrlimit(resource.RLIMIT_CORE, old)


def catches(pid, sig):
    """Has process pid a handler for sig yet (SigCgt of /proc/PID/status)? None once
    it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (sig - 1) & 1)
    except OSError:
        pass
    return None


def signal_dry_run(tmp_path, sig, i, delay, preexec=None):
    """A dry run replacing out{i}.json ("old"), sent sig delay seconds after its
    handler is in place (at once if it never is): exit status, the output's text and
    whether the handler was seen in place."""
    out = tmp_path / f"out{i}.json"
    out.write_text("old")
    p = subprocess.Popen([BIN, "--dry-run", "-o", out.name, "all"], cwd=tmp_path,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         preexec_fn=preexec)
    try:
        deadline = time.monotonic() + 10
        while not (seen := catches(p.pid, sig)) and p.poll() is None and \
                time.monotonic() < deadline:
            time.sleep(0.0002)
        time.sleep(delay)
        if p.poll() is None:
            p.send_signal(sig)
        return p.wait(timeout=60), out.read_text(), bool(seen)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


@pytest.mark.parametrize("sig", CATCHABLE, ids=lambda s: signal.Signals(s).name)
def test_every_terminating_signal_leaves_a_whole_document(tmp_path, sig, no_core_dumps):
    """Each catchable terminating signal at 50 random moments of dry runs that
    replace an old document (from its handler's installation to the end of the
    write): never a temporary file left, the output either the old file or a whole
    new document, marked interrupted where the signal was caught (exit 128 +
    signal); and hipmembench has a handler for it."""
    from concurrent.futures import ThreadPoolExecutor
    # A background job (`make test &`, nohup) starts with SIGINT, SIGQUIT or SIGHUP
    # ignored, which hipmembench then rightly keeps: its runs here start with the
    # default (subprocess restores SIGPIPE and SIGXFSZ itself).
    inherited = signal.getsignal(sig)
    if inherited == signal.SIG_IGN and sig not in (signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(sig, signal.SIG_DFL)
    try:
        signal_runs(tmp_path, sig)
    finally:
        if inherited == signal.SIG_IGN:
            signal.signal(sig, inherited)


def signal_runs(tmp_path, sig):
    from concurrent.futures import ThreadPoolExecutor
    rng = random.Random(2600 + int(sig))
    # half at once after the handler is in place (before the write: caught), half
    # at any moment up to the end of the write
    delays = [0.0 if i % 2 else rng.uniform(0, 0.004) for i in range(50)]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda a: signal_dry_run(tmp_path, sig, *a), enumerate(delays)))
    for rc, text, seen in results:
        assert rc in (0, 128 + sig, -sig), rc
        if text != "old":
            doc = json.loads(text)  # never half-written
            assert doc["interrupted"] is (rc == 128 + sig), (rc, doc["interrupted"])
        else:
            assert rc == -sig, "the old document stays only where the run was killed"
        assert not (seen and rc == -sig), "killed by a signal it has a handler for"
    assert not tmp_files(tmp_path), tmp_files(tmp_path)
    assert any(seen for _, _, seen in results), f"no handler for {signal.Signals(sig).name}"


def test_ignored_hangup_stays_ignored(tmp_path):
    """Under nohup (SIGHUP ignored) a hangup does not stop the run."""
    def ignore_hup():
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    for i in range(5):
        rc, text, _ = signal_dry_run(tmp_path, signal.SIGHUP, i, 0.001 * i, preexec=ignore_hup)
        assert rc == 0 and json.loads(text)["interrupted"] is False


def test_module_output_is_not_taken_from_a_stranger(tmp_path):
    """Where a module's document goes is the parent's word only (HMB_CHILD_OUTPUT with
    the parent's pid): set by anyone else, it is ignored."""
    env = dict(os.environ, HMB_CHILD_OUTPUT=f"1:{tmp_path}/stolen.json")
    r = subprocess.run([BIN, "--dry-run", "-o", "out.json", "memcpy"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(tmp_path)) == ["out.json"]
