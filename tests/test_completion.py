"""test_completion.py - the bash completion (completion/hipmembench.bash) against
the binary under test: it completes commands, the options that go with the
command typed, their values (formats, case names, files) and documents, all
read from the binary (`hipmembench __complete`); every option the help names
is completed, and a word that is an option's value is never taken for the
command."""
import re
import shutil
import subprocess

import pytest

import hmb

SCRIPT = hmb.ROOT / "completion" / "hipmembench.bash"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def complete(*words, cwd=None):
    """What the completion offers for the last of words (after the binary)."""
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in (str(hmb.BIN), *words))
    script = (f"source '{SCRIPT}'\nCOMP_WORDS=({quoted}); COMP_CWORD={len(words)}\n"
              '_hipmembench; printf "%s\\n" "${COMPREPLY[@]}"\n')
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=cwd,
                       timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return sorted(w for w in r.stdout.splitlines() if w)


def help_options(*args):
    """The options a help text lists: the leading -x/--name words of its items."""
    names = []
    for line in hmb.run(*args).stdout.splitlines():
        m = re.match(r"^  ((?:-\w, )?--[\w-]+)", line)
        if m:
            names += [w.rstrip(",") for w in m.group(1).split()]
    return names


@pytest.mark.parametrize("words, offered", [
    (["mem"], ["memcpy"]),
    (["--dry"], ["--dry-run"]),
    (["overlap", "--str"], ["--streams"]),
    (["-f", "c"], ["csv"]),
    (["--format", "m"], ["markdown"]),
    (["--devices", "all", "--together", ""], ["all", "host", "none"]),
    (["memcpy", "--case", "h2d/pinned/s"], ["h2d/pinned/sync"]),
    (["overlap", "--case", "h2d-only/pi"], ["h2d-only/pinned"]),
    (["help", "sum"], ["summary"]),
    (["help", "memcpy", ""], []),
    (["list", "--cases", ""], []),            # a flag: no value to complete
    (["list", "--ca"], ["--cases"]),
    (["memcpy", "--cas"], ["--case"]),        # --cases goes with list only
    (["-d", "0", "--sizes", ""], []),
    (["compare", "--"], ["--allow-partial", "--format", "--gpu", "--help", "--threshold",
                         "--wide"]),
])
def test_completes(words, offered):
    assert complete(*words) == offered
    if not offered:  # nothing to offer there, not a binary that says nothing
        assert re.findall(r"^command (\S+)", hmb.run("__complete").stdout, re.M)


@pytest.mark.parametrize("before", [["--streams", "4"], ["-d", "0"], ["--output", "x.json"],
                                    ["-o", "x.json", "--quick"], ["--case", "h2d/*"]])
def test_an_options_value_is_not_the_command(before):
    # the command is overlap, so its option --streams is offered; an option's
    # value taken for the command would offer nothing
    assert complete(*before, "overlap", "--stre") == ["--streams"]
    assert complete(*before, "ov") == ["overlap"]


def test_every_option_of_the_help_is_completed():
    options, modules = help_options("--help"), hmb.module_names()
    assert len(options) >= 10 and len(modules) >= 5, (options, modules)
    for option in options:
        assert option in complete(option), option
    for module in modules:
        for option in help_options("help", module):
            assert complete(module, option) == [option], (module, option)


def test_documents_and_output_files(tmp_path):
    (tmp_path / "a.json").write_text("{}")
    (tmp_path / "b.txt").write_text("")
    assert complete("compare", "", cwd=tmp_path) == ["a.json"]
    assert complete("show", "a", cwd=tmp_path) == ["a.json"]
    assert complete("-o", "", cwd=tmp_path) == ["a.json", "b.txt"]


def test_complete_lists_commands_of_the_help():
    out = hmb.run("__complete").stdout
    commands = re.findall(r"^command (\S+)", out, re.M)
    helped = re.findall(r"^  (\w+)", hmb.run("--help").stdout.split("\ncommands:\n")[1]
                        .split("\n\n")[0], re.M)
    assert commands == helped


def test_complete_refuses_two_commands():
    r = hmb.run("__complete", "memcpy", "overlap")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "hipmembench: __complete takes at most one command\n"
