"""test_files.py - scripts/hmb_files.py, the module every script reads and writes
through: a file is written whole or left as it was, with no temporary left behind;
a file that is not a regular file of JSON is refused with the reason, never waited
on; a bad command line is one line and exit 2."""
import importlib.util
import json
import os
import subprocess
import sys

import pytest

import hmb

spec = importlib.util.spec_from_file_location("hmb_files", hmb.ROOT / "scripts" / "hmb_files.py")
files = importlib.util.module_from_spec(spec)
spec.loader.exec_module(files)


def test_a_write_that_fails_leaves_the_file_as_it_was_and_no_temporary(tmp_path):
    path = tmp_path / "summary.json"
    path.write_text('{"before": 1}')

    def half(f):
        f.write('{"aft')
        raise RuntimeError("stopped part-way")
    with pytest.raises(RuntimeError):
        files.write_whole(str(path), half)
    assert path.read_text() == '{"before": 1}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.json"]


def test_a_write_replaces_the_file_whole_with_the_umask_permissions(tmp_path):
    path = tmp_path / "summary.json"
    path.write_text("old")
    old = os.umask(0o027)
    try:
        files.write_json_whole(str(path), {"figures": [1, 2]})
    finally:
        os.umask(old)
    assert json.loads(path.read_text()) == {"figures": [1, 2]}
    assert path.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.json"]


@pytest.mark.parametrize("content,reason", [
    (b'{"x": NaN}', "not readable JSON: NaN is not a JSON number"),
    (b"[" * 100000, "not readable JSON"),
    (b'{"x": "\xff"}', "not UTF-8 (byte 7)"),
])
def test_what_is_not_json_is_refused_with_the_reason(tmp_path, content, reason):
    path = tmp_path / "doc.json"
    path.write_bytes(content)
    with pytest.raises(files.BadFile, match=reason.replace("(", r"\(").replace(")", r"\)")):
        files.read_json(str(path))


def test_a_fifo_or_a_folder_is_refused_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    for path, reason in ((tmp_path / "fifo", "not a regular file"),
                         (tmp_path, "not a regular file"),
                         (tmp_path / "missing.json", "cannot read it: No such file")):
        with pytest.raises(files.BadFile, match=reason):
            files.read_json(str(path))


def test_a_bad_command_line_is_one_line_and_exit_2():
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import hmb_files; "
            "cli = hmb_files.Cli('tool.py'); p = cli.parser(); p.add_argument('x'); "
            "cli.run(lambda argv: p.parse_args(argv[2:]) and 0)")
    p = subprocess.run([sys.executable, "-c", code, str(hmb.ROOT / "scripts"), "--bad", "y"],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 2 and p.stdout == "", p
    assert p.stderr.startswith("tool.py: ") and p.stderr.count("\n") == 1, p.stderr
    assert "--bad" in p.stderr and "(see --help)" in p.stderr


def test_a_file_that_cannot_be_written_is_one_line_and_exit_1(tmp_path):
    """An OSError out of a script's main (a full disk, a folder gone) is named in one
    line with its file, never a traceback."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import hmb_files; "
            "cli = hmb_files.Cli('tool.py'); "
            "cli.run(lambda argv: open(argv[2] + '/gone/manifest.json', 'w') and 0)")
    p = subprocess.run([sys.executable, "-c", code, str(hmb.ROOT / "scripts"), str(tmp_path)],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 1 and p.stdout == "", p
    assert p.stderr == f"tool.py: {tmp_path}/gone/manifest.json: No such file or directory\n"
