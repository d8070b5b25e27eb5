"""test_refusals.py - every refusal alike: each command and each option, as the binary
declares them (`__complete`, from its tables under src/cli/), walked through the
ways a command line can ask for what cannot be, each refused with exit 2, nothing on
stdout and one line on stderr that names what it refuses (and, where there are names
to choose from, the nearest ones), leaving no output file made or written over:

- unknown: a command, a help topic, a long or short option that is not there, an
  option of another command or module, a name an option does not know (a format, a
  case), an argument a command does not take;
- unreadable: a value that cannot be read as its option's kind (a number, a size, a
  list), a document that is missing, a folder, empty, not JSON, not a document, a FIFO
  or (as a user) unreadable;
- absent: a GPU the documents lack (--gpu), a file in a folder there is not
  (--output); a GPU past the machine's last and a size larger than its memory are
  test_refusals_emulated.py's;
- repeated: an option again with another value (an option that takes several, again
  and again), '-' (standard input) twice, the same document twice where the command
  does not take that (SAME_DOCUMENT_TWICE), --output over a document it reads.

How each option is walked is classified in tests/refusals.py: an option the binary
declares and that table lacks fails here, so that one added later is walked too."""
import os
import shutil
import subprocess

import pytest

import hmb
from refusals import (OPTIONS, SAME_DOCUMENT_TWICE, declarations, is_root, nearest,
                      option_args, refused, typo)

COMMANDS, EVERY = declarations(hmb.BIN)
FOUR_GPUS = hmb.ROOT / "results" / "nvidia-h100-x4" / "together" / "node.json"


def ids(pairs):
    return [f"{c}-{o}" for c, o in pairs]


def command_options(kind=None):
    """(command, option) for every option each command takes, as declared."""
    return [(c.name, o) for c in COMMANDS.values() for o in sorted(c.options)
            if o in OPTIONS and (kind is None or kind(OPTIONS[o]))]


def test_every_option_is_classified():
    declared = set(EVERY) | {o for c in COMMANDS.values() for o in c.options}
    missing = sorted(declared - set(OPTIONS))
    assert not missing, (f"options not classified in tests/refusals.py (OPTIONS): "
                         f"{', '.join('--' + o for o in missing)}")
    stale = sorted(set(OPTIONS) - declared)
    assert not stale, f"tests/refusals.py classifies options that are not there: {stale}"
    for name, d in EVERY.items():
        assert OPTIONS[name].flag == (d.value == ""), f"--{name}: a flag here, not there"


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    """Three copies of a document (unit_tests --sample-json) and four of a document of
    four GPUs (the committed node run of a 4xH100), each under a name of its own."""
    folder = tmp_path_factory.mktemp("documents")
    subprocess.run([str(hmb.UNIT), "--sample-json", str(folder / "one-1.json")], check=True,
                   stdout=subprocess.DEVNULL)
    for k in (2, 3, 4):
        shutil.copy(folder / "one-1.json", folder / f"one-{k}.json")
    for k in (1, 2, 3, 4):
        shutil.copy(FOUR_GPUS, folder / f"four-{k}.json")
    return folder


ARITY = {}


def arity(command, docs, out):
    """How many documents a command reads: the fewest with which a missing first one is
    what it refuses (rather than how many there are)."""
    if command in ARITY:
        return ARITY[command]
    for n in range(1, 5):
        args = [command, docs / "missing.json", *[docs / f"one-{k}.json" for k in range(2, n + 1)]]
        args += ["-o", out] if "output" in COMMANDS[command].options else []
        p = hmb.run(*args)
        if p.returncode == 2 and "missing.json" in p.stderr:
            ARITY[command] = n
            return n
    pytest.fail(f"{command}: no number of documents up to 4 makes it read them")


def document_args(command, docs, kind="one", out=None):
    """A documents command's arguments: as many documents as it reads, the first
    replaced where kind is a path."""
    n = arity(command, docs, out or docs / "probe.out")
    if isinstance(kind, str):
        return [docs / f"{kind}-{k}.json" for k in range(1, n + 1)]
    return [kind] + [docs / f"one-{k}.json" for k in range(2, n + 1)]


@pytest.fixture
def base(docs, tmp_path):
    """base(command, leave_out=()): a command line that the command takes whole (no
    GPU is opened: --dry-run where it takes it), with -o OUT where it takes --output;
    base.out is OUT, which no refusal may make or write over."""
    out = tmp_path / "out.json"

    def make(command, leave_out=()):
        c = COMMANDS[command]
        args = [command]
        if "dry-run" in c.options:
            args.append("--dry-run")
        if "output" in c.options and "output" not in leave_out:
            args += ["-o", out]
        if c.args == "documents":
            args += document_args(command, docs)
        return args
    make.out = out
    return make


def untouched(out):
    assert not out.exists(), f"a refused command left {out}"


# ---- unknown ----------------------------------------------------------------------

@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unknown_command_names_the_nearest(command):
    line = refused(hmb.BIN, [typo(command)], f"unknown command '{typo(command)}'")
    assert command in nearest(line), line


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_and_completion_of_an_unknown_command_name_the_nearest(command):
    for c in (c for c in COMMANDS.values() if c.args == "command"):
        line = refused(hmb.BIN, [c.name, typo(command)], f"unknown command '{typo(command)}'")
        assert command in nearest(line), line
    line = refused(hmb.BIN, ["__complete", typo(command)], f"'{typo(command)}'")
    assert command in nearest(line), line


# What the binary and its scripts run that is not in the command table (main.c):
# refused like any other command line where a user gets it wrong.
INTERNAL = [["__complete", "memcpy", "list"], ["__vmm-importer"], ["__vmm-importer", "x"]]


@pytest.mark.parametrize("args", INTERNAL, ids=[" ".join(a) for a in INTERNAL])
def test_an_internal_command_given_by_hand_is_refused(args):
    refused(hmb.BIN, args, args[0])


@pytest.mark.parametrize("command,option", command_options(), ids=ids(command_options()))
def test_an_unknown_option_names_the_nearest(base, command, option):
    line = refused(hmb.BIN, base(command) + [f"--{option}x"], f"unknown option '--{option}x'")
    assert f"--{option}" in nearest(line), line
    untouched(base.out)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unknown_short_option_names_those_there_are(base, command):
    shorts = [d.short for d in EVERY.values() if d.short]
    free = next(f"-{c}" for c in "ZYXWUTSPMLKJIGEB" if f"-{c}" not in shorts)
    line = refused(hmb.BIN, base(command) + [free], f"unknown option '{free}'")
    assert all(s in line for s in shorts), line
    untouched(base.out)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_option_of_another_command_is_refused(base, command):
    """Every option that the command does not take (but those that go anywhere), with
    a value it could take elsewhere."""
    for name in sorted(set(EVERY) - set(COMMANDS[command].options)):
        if OPTIONS[name].anywhere:
            continue
        value = OPTIONS[name].good[0] if OPTIONS[name].good else None
        refused(hmb.BIN, base(command) + option_args(name, value), f"--{name}")
        untouched(base.out)


UNKNOWN = command_options(lambda o: o.unknown)


@pytest.mark.parametrize("command,option", UNKNOWN, ids=ids(UNKNOWN))
def test_a_name_an_option_does_not_know_is_refused(base, command, option):
    for value in OPTIONS[option].unknown:
        line = refused(hmb.BIN, base(command) + [f"--{option}", value], f"--{option}",
                       f"'{value}'")
        choices = COMMANDS[command].options[option].choices
        offered = nearest(line) or [c for c in choices if c in line]
        assert offered, f"names no {option} there is: {line}"
        assert set(offered) <= set(choices), line
        untouched(base.out)


@pytest.mark.parametrize("command", sorted(c.name for c in COMMANDS.values()
                                           if c.args != "documents"))
def test_an_argument_the_command_does_not_take_is_refused(base, command):
    """(A command of documents takes as many as it reads: below.)"""
    if COMMANDS[command].args == "command":
        refused(hmb.BIN, [command, "memcpy", "list"], "'list'")
    else:
        refused(hmb.BIN, base(command) + ["extra"], "'extra'")
    untouched(base.out)


# ---- unreadable -------------------------------------------------------------------

MALFORMED = command_options(lambda o: o.malformed)


@pytest.mark.parametrize("command,option", MALFORMED, ids=ids(MALFORMED))
def test_a_value_that_cannot_be_read_is_refused(base, command, option):
    for value in OPTIONS[option].malformed:
        refused(hmb.BIN, base(command, leave_out=[option]) + [f"--{option}", value],
                f"--{option}")
        untouched(base.out)


@pytest.mark.parametrize("command,option", command_options(lambda o: o.good),
                         ids=ids(command_options(lambda o: o.good)))
def test_an_option_without_its_value_is_refused(base, command, option):
    refused(hmb.BIN, base(command, leave_out=[option]) + [f"--{option}"], f"--{option}",
            "needs a value")


def bad_documents(folder):
    """Documents that cannot be read, by what is wrong with them."""
    (folder / "empty.json").write_text("")
    (folder / "broken.json").write_text('{"tool": {"name": "hipm')
    (folder / "array.json").write_text("[1, 2]\n")
    (folder / "folder.json").mkdir(exist_ok=True)
    fifo = folder / "fifo.json"
    if not fifo.exists():
        os.mkfifo(fifo)
    bad = {"missing": folder / "missing.json", "empty": folder / "empty.json",
           "not JSON": folder / "broken.json", "not a document": folder / "array.json",
           "a folder": folder / "folder.json", "a FIFO": fifo}
    if not is_root():
        locked = folder / "locked.json"
        shutil.copy(folder / "one-1.json", locked)
        locked.chmod(0)
        bad["unreadable"] = locked
    return bad


DOCUMENTS = sorted(c.name for c in COMMANDS.values() if c.args == "documents")


@pytest.mark.parametrize("command", DOCUMENTS)
def test_a_document_that_cannot_be_read_is_named(base, docs, tmp_path, command):
    for what, path in bad_documents(tmp_path).items():
        args = base(command)[:1] + (["-o", base.out] if "output" in COMMANDS[command].options
                                    else [])
        refused(hmb.BIN, args + document_args(command, docs, path), path.name)
        untouched(base.out)


@pytest.mark.parametrize("command", sorted(c.name for c in COMMANDS.values()
                                           if "output" in c.options))
def test_an_output_in_a_folder_that_is_not_there_is_refused(base, tmp_path, command):
    where = tmp_path / "not-there" / "out.json"
    refused(hmb.BIN, base(command, leave_out=["output"]) + ["-o", where], "--output")
    assert not where.parent.exists()


@pytest.mark.parametrize("command", sorted(c.name for c in COMMANDS.values()
                                           if "output" in c.options))
def test_a_refused_command_leaves_an_existing_output_as_it_was(base, command):
    base.out.write_text("kept\n")
    refused(hmb.BIN, base(command) + ["--frob"], "unknown option")
    refused(hmb.BIN, ["--reps", "0"] + base(command), "--reps")
    assert base.out.read_text() == "kept\n"


# ---- absent -----------------------------------------------------------------------

@pytest.mark.parametrize("command", sorted(c for c in DOCUMENTS if "gpu" in COMMANDS[c].options))
def test_a_gpu_the_documents_lack_is_refused_naming_those_they_hold(base, docs, command):
    head = base(command)[:1] + (["-o", base.out] if "output" in COMMANDS[command].options
                                else [])
    refused(hmb.BIN, head + ["--gpu", "7"] + document_args(command, docs, "four"), "GPU 7",
            "0-3")
    refused(hmb.BIN, head + ["--gpu", "0"] + document_args(command, docs, "one"), "--gpu 0",
            "several GPUs")
    untouched(base.out)


def test_every_absent_kind_is_walked():
    """The kinds of `absent` that tests/refusals.py may give an option, each walked by a
    test here or in test_refusals_emulated.py."""
    kinds = {o.absent for o in OPTIONS.values()} - {""}
    assert kinds <= {"gpus", "memory", "documents", "folder"}, kinds
    for name, o in OPTIONS.items():
        if o.absent == "documents":
            assert name == "gpu", f"--{name}: walked only for --gpu"
        if o.absent == "folder":
            assert name == "output", f"--{name}: walked only for --output"


# ---- repeated ---------------------------------------------------------------------

ONCE = command_options(lambda o: o.good and not o.repeatable)


@pytest.mark.parametrize("command,option", ONCE, ids=ids(ONCE))
def test_an_option_again_with_another_value_is_refused(base, tmp_path, command, option):
    a, b = OPTIONS[option].good
    if option == "output":
        a, b = tmp_path / a, tmp_path / b
    args = base(command, leave_out=[option]) + [f"--{option}", a, f"--{option}={b}"]
    refused(hmb.BIN, args, f"--{option} given twice", f"'{a}'", f"'{b}'")
    if option != "output":  # the same value again is no refusal of its own
        refused(hmb.BIN, base(command) + [f"--{option}", a, f"--{option}={a}", "--frob"],
                "unknown option '--frob'")
    untouched(base.out)
    if option == "output":
        assert not a.exists() and not b.exists(), f"a refused command left {a} or {b}"


REPEATABLE = command_options(lambda o: o.repeatable)


@pytest.mark.parametrize("command,option", REPEATABLE, ids=ids(REPEATABLE))
def test_an_option_that_takes_several_takes_them(base, command, option):
    a, b = OPTIONS[option].good
    p = hmb.run(*base(command, leave_out=["output"]), f"--{option}", a, f"--{option}", b)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("command", DOCUMENTS)
def test_standard_input_twice_is_refused(base, docs, command):
    head = base(command)[:1] + (["-o", base.out] if "output" in COMMANDS[command].options
                                else [])
    n = max(2, len(document_args(command, docs)))
    refused(hmb.BIN, head + ["-", "-"] + [docs / f"one-{k}.json" for k in range(3, n + 1)], "'-'")
    untouched(base.out)


@pytest.mark.parametrize("command", DOCUMENTS)
def test_the_same_document_twice(base, docs, command):
    """Refused, naming it, but where the command's row takes it (SAME_DOCUMENT_TWICE);
    under two names (./X, a link) it is the same document."""
    c = COMMANDS[command]
    one = docs / "one-1.json"
    link = docs / "link-1.json"
    if not link.exists():
        link.symlink_to(one)
    n = max(2, len(document_args(command, docs)))
    rest = [docs / f"one-{k}.json" for k in range(3, n + 1)]
    for twice in ([one, one], [one, link]):
        args = [command, *twice, *rest]
        if command in SAME_DOCUMENT_TWICE:
            p = hmb.run(*args)
            assert p.returncode == 0, p.stderr
        elif len(document_args(command, docs)) == 1:
            refused(hmb.BIN, args, command)
        else:
            refused(hmb.BIN, args + (["-o", base.out] if "output" in c.options else []),
                    str(twice[-1]))
            untouched(base.out)


@pytest.mark.parametrize("command", sorted(c for c in DOCUMENTS if "output" in COMMANDS[c].options))
def test_an_output_over_a_document_it_reads_is_refused(docs, command):
    args = document_args(command, docs)
    before = [p.read_bytes() for p in args]
    for out in (args[-1], docs / "." / args[-1].name):
        refused(hmb.BIN, [command, "-o", out, *args], "--output", "document it reads")
    assert [p.read_bytes() for p in args] == before
