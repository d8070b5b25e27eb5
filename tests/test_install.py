"""test_install.py - `make install` into a staging folder (DESTDIR), then `make
uninstall` and `make dist`: the binary, the scripts as hipmembench-NAME pointing at
the installed binary, the man page made by help2man from --help, the bash
completion (which completes from the installed binary), the Slurm templates and
the licence land where they belong, nothing is rebuilt, and uninstall removes them.

Runs against the build that HMB_BIN (as `make test` sets it; default
build/hipmembench) belongs to, with the
make variables of the `make ... test` that started it (MAKEFLAGS), so that the
install uses that very build.
"""
import os
import pathlib
import shutil
import subprocess
import tarfile

import pytest

import hmb

# One process runs the file under pytest-xdist (make test TEST_JOBS=N): its
# module-scoped fixture is made once.
pytestmark = pytest.mark.xdist_group("test_install")

REPO = pathlib.Path(__file__).resolve().parent.parent
BIN = hmb.BIN
PREFIX = "/usr"
SCRIPTS = ("sweep", "gather", "fleet")


def make(*args):
    """make in the repository with the variables of the calling make, if any."""
    env = dict(os.environ)
    flags = env.pop("MAKEFLAGS", "")
    env.pop("MFLAGS", None)
    for var in ("XDG_DATA_DIRS", "XDG_DATA_HOME", "BASH_COMPLETION_USER_DIR"):
        env.pop(var, None)  # bash-completion's defaults, for the completion note
    if " -- " in f" {flags}":
        env["MAKEFLAGS"] = "-- " + f" {flags}".split(" -- ", 1)[1]
    build = os.path.relpath(BIN.parent, REPO)  # as the build was made: flags name it
    cmd = ["make", "--no-print-directory", f"BUILD={build}", *args]
    return subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    if not BIN.exists():
        pytest.skip(f"{BIN} is not built")
    if shutil.which("help2man") is None:
        pytest.skip("help2man is not installed (Debian: help2man)")
    dest = tmp_path_factory.mktemp("destdir")
    before = BIN.stat().st_mtime_ns
    r = make("install", f"DESTDIR={dest}", f"PREFIX={PREFIX}")
    assert r.returncode == 0, r.stdout + r.stderr
    return dest, before


def test_binary_installed_and_not_rebuilt(staged):
    dest, before = staged
    exe = dest / "usr/bin/hipmembench"
    assert os.access(exe, os.X_OK)
    out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    assert out.startswith("hipmembench 0.2.0 ")
    assert BIN.stat().st_mtime_ns == before, "make install rebuilt the binary"


def test_managed_array_installed_where_the_binary_looks(staged):
    """AMD builds keep the __managed__ array in a shared object found beside
    the binary (bench/managed/managed_static.c); NVIDIA builds link it in."""
    dest, _ = staged
    built = BIN.parent / "lib" / "hipmembench-managed-static.so"
    installed = dest / "usr/lib/hipmembench/hipmembench-managed-static.so"
    assert installed.exists() == built.exists()
    if built.exists():
        assert installed.read_bytes() == built.read_bytes()


@pytest.mark.parametrize("name", SCRIPTS)
def test_scripts_installed_pointing_at_installed_binary(staged, name):
    dest, _ = staged
    script = dest / f"usr/bin/hipmembench-{name}"
    assert os.access(script, os.X_OK)
    text = script.read_text()
    assert text.startswith("#!")
    if name in ("sweep", "gather"):  # these run hipmembench
        assert f'"{PREFIX}/bin/hipmembench"' in text
        assert '"build/hipmembench"' not in text
    assert f'\nLIBDIR = "{PREFIX}/share/hipmembench/python"\n' in text
    shared = dest / "usr/share/hipmembench/python/hmb_files.py"
    assert shared.read_bytes() == (REPO / "scripts/hmb_files.py").read_bytes()


def test_installed_scripts_run_from_their_prefix(tmp_path):
    """Installed under a prefix of its own, away from the source, each script finds
    the module the scripts share: --help works, a bad option is one line and exit 2;
    without the module, one line naming where it looked, never a traceback."""
    if not BIN.exists() or shutil.which("help2man") is None:
        pytest.skip("needs the binary and help2man")
    prefix = tmp_path / "prefix"
    r = make("install", f"PREFIX={prefix}")
    assert r.returncode == 0, r.stdout + r.stderr
    for name in SCRIPTS:
        script = prefix / "bin" / f"hipmembench-{name}"
        ok = subprocess.run([script, "--help"], capture_output=True, text=True, cwd=tmp_path)
        assert ok.returncode == 0 and "usage:" in ok.stdout, (name, ok.stderr)
        bad = subprocess.run([script, "--no-such-option", "a", "b"], capture_output=True,
                             text=True, cwd=tmp_path)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1, (name, bad.stderr)
        assert "--no-such-option" in bad.stderr, (name, bad.stderr)
    (prefix / "share/hipmembench/python/hmb_files.py").unlink()
    gone = subprocess.run([prefix / "bin/hipmembench-fleet", "--help"], capture_output=True,
                          text=True, cwd=tmp_path)
    assert gone.returncode != 0 and gone.stderr.count("\n") == 1, gone.stderr
    assert f"cannot load hmb_files.py from {prefix}/share/hipmembench/python" in gone.stderr


def test_man_page_from_help(staged):
    dest, _ = staged
    page = (dest / "usr/share/man/man1/hipmembench.1").read_text()
    assert page.startswith(".\\\" DO NOT MODIFY THIS FILE!  It was generated by help2man")
    assert ".TH HIPMEMBENCH \"1\"" in page and "hipmembench 0.2.0" in page
    # the options of --help, and the text of man/hipmembench.h2m
    assert "\\-\\-dry\\-run" in page and ".SH \"SEE ALSO\"" in page


def test_bash_completion_completes_from_installed_binary(staged):
    dest, _ = staged
    comp = dest / "usr/share/bash-completion/completions/hipmembench"
    exe = dest / "usr/bin/hipmembench"
    script = f"""source {comp}
complete -p hipmembench >/dev/null || exit 1
COMP_WORDS=({exe} mem); COMP_CWORD=1; _hipmembench; echo "${{COMPREPLY[*]}}"
COMP_WORDS=({exe} --dry); COMP_CWORD=1; _hipmembench; echo "${{COMPREPLY[*]}}"
COMP_WORDS=({exe} overlap --str); COMP_CWORD=2; _hipmembench; echo "${{COMPREPLY[*]}}"
COMP_WORDS=({exe} -f c); COMP_CWORD=2; _hipmembench; echo "${{COMPREPLY[*]}}"
"""
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["memcpy", "--dry-run", "--streams", "csv"]


@pytest.mark.parametrize("prefix", ["/usr", "/usr/local", "/opt/x"])
def test_completion_note_where_bash_completion_does_not_look(staged, tmp_path, prefix):
    r = make("install", f"DESTDIR={tmp_path}", f"PREFIX={prefix}")
    assert r.returncode == 0, r.stdout + r.stderr
    notes = [l for l in r.stdout.splitlines() if l.startswith("note:")]
    comp = f"{prefix}/share/bash-completion/completions"
    expected = [f"note: bash-completion does not look in {comp}: for completion of hipmembench, "
                f"add to ~/.bashrc: source {comp}/hipmembench"]
    assert notes == ([] if prefix.startswith("/usr") else expected)


def test_slurm_templates_and_licence(staged):
    dest, _ = staged
    slurm = dest / "usr/share/hipmembench/slurm"
    assert sorted(p.name for p in slurm.iterdir()) == sorted(
        p.name for p in (REPO / "scripts/slurm").glob("*.sbatch"))
    assert "MIT License" in (dest / "usr/share/doc/hipmembench/LICENSE").read_text()


def test_uninstall_removes_every_file(staged):
    dest, _ = staged
    r = make("uninstall", f"DESTDIR={dest}", f"PREFIX={PREFIX}")
    assert r.returncode == 0, r.stdout + r.stderr
    left = [str(p.relative_to(dest)) for p in dest.rglob("*") if not p.is_dir()]
    assert left == []


def test_dist_makes_a_versioned_tarball(tmp_path):
    if subprocess.run(["git", "-C", REPO, "rev-parse"], capture_output=True).returncode:
        pytest.skip("not a git checkout")
    r = make("dist", f"BUILD={tmp_path}")
    assert r.returncode == 0, r.stdout + r.stderr
    tarball = tmp_path / "hipmembench-0.2.0.tar.gz"
    with tarfile.open(tarball) as t:
        names = t.getnames()
    for f in ("Makefile", "LICENSE", "REVISION", "src/cli/main.c", "scripts/setup.sh"):
        assert f"hipmembench-0.2.0/{f}" in names
