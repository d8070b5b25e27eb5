"""refusals.py - what the refusal tests (test_refusals.py, test_refusals_emulated.py)
walk: the commands and options as the binary declares them (`hipmembench __complete`,
printed from its tables under src/cli/), and for every option how to ask it for what
cannot be: a value that cannot be read, a name there is not, a thing the machine or
the documents do not have, the option again with another value. Every option the
binary declares is classified here, and only those: an option added later fails the
walk until it is."""
import dataclasses
import os
import re
import subprocess


@dataclasses.dataclass(frozen=True)
class Opt:
    """How one option is walked."""
    good: tuple = ()          # two values it takes (empty: a flag)
    malformed: tuple = ()     # values that cannot be read as its kind
    unknown: tuple = ()       # names there are not (a format, a case)
    absent: str = ""          # what it can ask for that is not there: "gpus" (a GPU past the
    #                           last) and "memory" (more than a GPU holds), walked by
    #                           test_refusals_emulated.py; "documents" (a GPU the documents
    #                           lack), "folder" (a file in a folder there is not)
    repeatable: bool = False  # given again with another value, each value counts
    anywhere: bool = False    # goes with every command, as the help says (--help, --version)

    @property
    def flag(self):
        return not self.good


FLAG = Opt()
SIZE = ("12Q", "0", "4K:")

OPTIONS = {
    # global options (src/cli/cli.c, hmb_global_options)
    "device": Opt(("1", "2"), ("x", "-1", "1.5", "", "1000001"), absent="gpus"),
    "output": Opt(("a.json", "b.json"), ("--quick",), absent="folder"),
    "format": Opt(("table", "json"), unknown=("xml", "")),
    "sizes": Opt(("4K", "8K"), SIZE + ("4097", "1G:4K:x2", "", "4K,,8K"), absent="memory"),
    "reps": Opt(("1", "2"), ("0", "x", "1000001", "2.5")),
    "warmup": Opt(("0", "1"), ("-1", "x", "1000001")),
    "quick": FLAG,
    "dry-run": FLAG,
    "case": Opt(("*", "*/*"), ("", "-x"), unknown=("no/such/case",), repeatable=True),
    "cases": FLAG,
    "devices": Opt(("0", "1"), ("0,x", "0,0", "1024", "", "0,"), absent="gpus"),
    "together": Opt(("all", "host"), unknown=("some", "")),
    "no-isolation": FLAG,
    "runs": Opt(("1", "2"), ("0", "101", "x")),
    "peak-gbps": Opt(("10", "20"), ("0", "x", "inf", "100001")),
    "oversubscribe": Opt(("1", "2"), ("-2", "65", "x", "nan")),
    "threshold": Opt(("1", "2"), ("-1", "x", "1001")),
    "gpu": Opt(("0", "1"), ("-1", "x", "1024"), absent="documents"),
    "wide": FLAG,
    "allow-partial": FLAG,
    "help": Opt(anywhere=True),
    "version": Opt(anywhere=True),
    # module options (each module's table of struct hmb_opt_decl)
    "streams": Opt(("2", "4"), ("0", "17", "x", "1,,2")),
    "chunks": Opt(("2", "4"), ("0", "1025", "x")),
    "iters": Opt(("1", "2"), ("0", "1,2,3,4", "x")),
    "grid-stride": FLAG,
    "loop": Opt(("20", "40"), ("0", "x", "4194305")),
    "grow-step": Opt(("4M", "8M"), SIZE),
    "grow-limit": Opt(("64M", "128M"), SIZE),
    "start": Opt(("4M", "8M"), SIZE),
    "step": Opt(("4M", "8M"), SIZE),
    "limit": Opt(("64M", "128M"), SIZE),
    "call-sizes": Opt(("2M", "4M"), SIZE + ("2M,12Q", "")),
    "share-size": Opt(("2M", "4M"), SIZE),
    "copy-size": Opt(("4M", "8M"), SIZE),
    "chase-loads": Opt(("100", "200"), ("0", "x", "1.5")),
    "chase-stride": Opt(("256", "512"), SIZE),
    "alloc-sizes": Opt(("2M", "4M"), SIZE + ("2M,12Q",)),
}

# Documents commands that take the same document twice, and why; any other refuses it.
SAME_DOCUMENT_TWICE = {
    "compare": "a document against itself: how far its figures repeat",
    "summary": "a column each, numbered NAME, NAME#2",
}


@dataclasses.dataclass
class Declared:
    """One option as `__complete` declares it."""
    name: str
    short: str       # "-d", or "" for none
    value: str       # its value's name, or "" for a flag
    choices: tuple


@dataclasses.dataclass
class Command:
    name: str
    args: str        # "-" (none), "command" (help's topic) or "documents"
    options: dict    # name -> Declared: the options that go with it


def run(binary, *args, env=None, cwd=None, timeout=60):
    return subprocess.run([str(binary), *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=timeout)


def _options(text):
    out = {}
    for line in text.splitlines():
        f = line.split()
        if f and f[0] == "option":
            name = f[1][2:]
            out[name] = Declared(name, "" if f[2] == "-" else f[2], "" if f[3] == "-" else f[3],
                                 tuple(f[4:]))
    return out


def declarations(binary, env=None):
    """Every command and module the binary declares, each with its options, and every
    option (without a command: all of them)."""
    top = run(binary, "__complete", env=env)
    assert top.returncode == 0, top.stderr
    commands = {}
    for line in top.stdout.splitlines():
        f = line.split()
        if f and f[0] == "command":
            p = run(binary, "__complete", f[1], env=env)
            assert p.returncode == 0, p.stderr
            commands[f[1]] = Command(f[1], f[2], _options(p.stdout))
    assert len(commands) >= 8, top.stdout
    return commands, _options(top.stdout)


def typo(name):
    """A near miss of a name: one letter less, or one more where it is short."""
    return name[:-1] if len(name) > 3 else name + "x"


def nearest(line):
    """The names a refusal offers after "nearest: "."""
    m = re.search(r"nearest: (.*?)(?: \(|$)", line)
    return [w.strip() for w in m.group(1).split(",")] if m else []


def refused(binary, args, *named, env=None, cwd=None):
    """args are refused: exit 2, nothing on stdout, one line on stderr starting
    "hipmembench: " and naming each of named. The line."""
    p = run(binary, *args, env=env, cwd=cwd, timeout=30)
    lines = p.stderr.splitlines()
    where = f"hipmembench {' '.join(map(str, args))}: exit {p.returncode}, stderr {p.stderr!r}"
    assert p.returncode == 2, where
    assert len(lines) == 1 and lines[0].startswith("hipmembench: "), where
    assert p.stdout == "", where + f", stdout {p.stdout[:200]!r}"
    for n in named:
        assert str(n) in lines[0], f"{where}: does not name {n!r}"
    return lines[0]


def option_args(opt, value):
    return [f"--{opt}"] if value is None else [f"--{opt}", value]


def is_root():
    return os.geteuid() == 0
