#!/usr/bin/env python3
"""surface.py - what a binary shows without a GPU, one file a view, to compare
two builds byte for byte: a change that only moves code (a refactoring) must
leave every file the same.

    tests/surface.py BINARY OUTDIR         (OUTDIR is made; it must not exist)
    diff -r BEFORE AFTER                   nothing: the surface is the same

The views: --help, --version, `help COMMAND` for every command, `list` and
`list --cases`, what the shell completes, and --dry-run of every module and of
`all` (the plan on stderr, the table on stdout, the exit status, and the
document with --format json -o -), each also with the test-only modules
(HMB_TEST_MODULES=1). Blanked, since they change from one run or commit to the
next: the document's started_utc, the git revision (the document's
tool.git_revision and the --version line) and the binary's path as it was run
(the document's command_line). Nothing else is touched.
"""
import json
import os
import pathlib
import re
import subprocess
import sys

REV = "<revision>"
UTC = "<started_utc>"
BINARY = "<binary>"


def run(binary, args, env):
    p = subprocess.run([binary, *args], capture_output=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


def blank(data, revision, binary):
    """The bytes with what varies between runs, commits and builds blanked."""
    text = data.decode("utf-8", "surrogateescape")
    text = text.replace(binary, BINARY)
    if revision:  # where the revision is named, not every word it may be ("unknown")
        text = text.replace(f"({revision},", f"({REV},")
        text = re.sub(r'("git_revision":\s*)"' + re.escape(revision) + '"', r'\1"' + REV + '"', text)
    text = re.sub(r'("started_utc":\s*)"[^"]*"', r'\1"' + UTC + '"', text)
    return text.encode("utf-8", "surrogateescape")


def capture(binary, out):
    base = {k: v for k, v in os.environ.items() if not k.startswith(("HMB_", "COLUMNS"))}
    base["COLUMNS"] = "100"
    envs = {"": base, "test-modules.": {**base, "HMB_TEST_MODULES": "1"}}
    version = run(binary, ["--version"], base)[1].decode()
    m = re.match(r"\S+ \S+ \(([^,]+),", version)
    revision = m.group(1) if m else None

    def keep(name, args, env, streams=True):
        rc, stdout, stderr = run(binary, args, env)
        (out / (name + ".out")).write_bytes(blank(stdout, revision, binary))
        if streams:
            (out / (name + ".err")).write_bytes(blank(stderr, revision, binary))
            (out / (name + ".rc")).write_text(f"{rc}\n")
        return stdout

    for prefix, env in envs.items():
        keep(prefix + "help", ["--help"], env)
        keep(prefix + "version", ["--version"], env)
        keep(prefix + "list", ["list"], env)
        keep(prefix + "list-cases", ["list", "--cases"], env)
        keep(prefix + "complete", ["__complete"], env)
        modules = [line.split()[0] for line in
                   run(binary, ["list"], env)[1].decode().splitlines() if line.strip()]
        commands = [line.split()[1] for line in
                    run(binary, ["__complete"], env)[1].decode().splitlines()
                    if line.startswith("command ")]
        for c in commands:
            keep(f"{prefix}help-{c}", ["help", c], env)
            keep(f"{prefix}complete-{c}", ["__complete", c], env)
        for m in modules + ["all"]:
            keep(f"{prefix}dry-{m}", ["--dry-run", m], env)
            keep(f"{prefix}dry-{m}-cases", ["--dry-run", "--case", "*", m], env)
            keep(f"{prefix}dry-{m}-quick", ["--dry-run", "--quick", m], env)
            doc = keep(f"{prefix}dry-{m}-json", ["--dry-run", "--format", "json", "-o", "-", m], env)
            json.loads(doc)  # one document, or this fails
        keep(prefix + "dry-all-runs3", ["--dry-run", "--runs", "3", "all"], env)
        keep(prefix + "dry-all-no-isolation", ["--dry-run", "--no-isolation", "all"], env)
        keep(prefix + "dry-all-devices", ["--dry-run", "--devices", "all", "all"], env)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    out = pathlib.Path(argv[2])
    out.mkdir(parents=True)
    capture(argv[1], out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
