"""test_surface.py - tests/surface.py, the binary's surface without a GPU (help,
list --cases, completion, every --dry-run plan and document), one file a view:
two runs of one binary give the same files (only what varies from run to run
is blanked, so a diff of two builds shows changes, never noise), every module
and command has its views, and what is kept is the binary's output byte for
byte."""
import subprocess
import sys
import time

import pytest

import hmb

SURFACE = hmb.ROOT / "tests" / "surface.py"
# One process runs the file under pytest-xdist: its surface is made once.
pytestmark = pytest.mark.xdist_group("test_surface")


def surface(out):
    p = subprocess.run([sys.executable, str(SURFACE), str(hmb.BIN), str(out)],
                       capture_output=True, text=True, timeout=300)
    assert (p.returncode, p.stderr) == (0, "")
    return {f.name: f.read_bytes() for f in sorted(out.iterdir())}


@pytest.fixture(scope="module")
def views(tmp_path_factory):
    """The surface of the binary under test, made once for the file's tests."""
    return surface(tmp_path_factory.mktemp("surface") / "s")


def test_two_runs_of_one_binary_give_the_same_surface(tmp_path, views):
    time.sleep(1.1)  # another second in started_utc than the first run's, at least
    assert surface(tmp_path / "again") == views


def test_every_module_and_command_has_its_views(views):
    for m in hmb.module_names() + ["all"]:
        for view in ("dry-{}", "dry-{}-cases", "dry-{}-quick", "dry-{}-json"):
            assert view.format(m) + ".out" in views
    for c in ("list", "info", "all", "help", "compare", "show", "summary", *hmb.module_names()):
        assert f"help-{c}.out" in views and f"complete-{c}.out" in views
    for m in ("leak", "probe"):
        assert f"test-modules.dry-{m}-json.out" in views
    assert views["list-cases.rc"] == b"0\n" and views["dry-all-json.rc"] == b"0\n"


def test_only_the_start_and_the_revision_are_blanked(views):
    assert views["list-cases.out"] == hmb.run("list", "--cases").stdout.encode()
    assert views["help.out"] == hmb.run("--help").stdout.encode()
    doc = views["dry-all-json.out"].decode()
    assert '"started_utc":\t"<started_utc>"' in doc and '"git_revision":\t"<revision>"' in doc
    revision = hmb.run("--version").stdout.split("(")[1].split(",")[0]
    assert revision not in doc and views["version.out"].decode().count("<revision>") == 1
