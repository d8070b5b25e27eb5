#!/usr/bin/env python3
"""mutagen.py - mutants made by rule, not by hand: do the no-GPU tests catch them?

tests/mutants.txt holds bugs written next to the tests that catch them. This
script makes mutants from operators over every source file instead, samples
them across the tree with a fixed seed, and runs the tests against each:

  C (src/*/*.c, bench/*/*.c; not the emulated runtime, the tests' stand-in for a
  GPU), from a tokenizer that skips comments, strings and preprocessor lines:
    cmp      a comparison flipped: < <=, <= <, > >=, >= >, == !=, != ==
    logic    && and || swapped
    arith    a binary + - * / swapped (+ -, * /; written with spaces around)
    const    an integer constant off by one (n + 1)
    negate   the condition of an if or a while negated
    drop     a statement dropped: a call or an assignment becomes (void)0
    return   a returned value replaced: 0 by 1, anything else by 0
  Python (scripts/*.py), on the syntax tree (the ast module), the same:
    cmp (< <=, > >=, == !=, in / not in, is / is not), logic (and / or), arith,
    const, negate (if, while, a conditional expression), drop (a call or an
    assignment becomes pass) and return (a value becomes None)

Each mutant is named by a stable id (its file, operator, the text of its line
and its place among the same on that file), so that a sample stays the same
while unrelated code moves. In a scratch copy of the tree (tests/mutate.py's:
tracked and untracked files, build/ copied in, only what a mutant touches
compiled again), one mutant at a time:

  1. a C mutant is compiled first: one that does not build is "broken"; one
     whose object file is the same as the original's, debug information
     aside, is "same-code" (equivalent by the compiler's word: code for
     another platform, or an operator the compiler folds away);
  2. the fastest tests that run its line, from the coverage map (--map): the
     unit tests by name, then the pytest files, quickest first, stopping at
     the first failure. A line no test of the no-GPU suite runs is
     "unreached": no test can see the mutant, so it survives without a run;
  3. before a mutant is called survived, the whole no-GPU suite (unit tests
     and every pytest file) runs against it.

  tests/mutagen.py [--sample N] [--seed S] [--only ID,...] [--timeout S]
                   [--results FILE] [--report FILE] [--map] [--list] [--sanitize]
                   [--just SELECTOR]...

  --map       make the coverage map first (build/mutagen/map.json): a build
              with gcov (-O0 --coverage), then every pytest file and every unit
              test on its own, each line of C (gcov) and of the scripts (a line
              tracer, tests/mutagen_trace/sitecustomize.py) noted with the tests
              that ran it, and how long each took; also tests/mutagen-map.json,
              committed, with each source file's tests (what --sample uses
              where the map of lines is not there, as in CI)
  --map-only REGEX  with --map: only the tests whose id (unit: NAME, pytest: FILE)
              matches, into the map there
  --sample N  the first N mutants of the seeded order (default 10)
  --seed S    the order's seed (default 36)
  --list      print the sample (id, file:line, operator, the change), run nothing
  --results   append one JSON line a mutant (default build/mutagen/results.jsonl);
              mutants already there are not run again (a long run can stop and go on)
  --report    write the Markdown report of the results (kill rate per folder,
              survivors as unified diffs and their classification from
              tests/mutagen-survivors.txt)
  --report-only FILE  the report of the sample's results there, running nothing
  --known-only  a survivor listed in tests/mutagen-survivors.txt is not run again
              (CI: its verdict is known; it still counts as a survivor)
  --run-unreached  run the whole suite for a mutant of a line the map says no test
              runs, too (a check of the map: gcov loses what a process killed by a
              signal ran)
  --redo-survivors  run the survivors of --results again (after tests were added)
  --tests REGEX  only the tests whose id matches (with --redo-survivors: the tests
              added since; a survivor that none of them runs keeps its verdict)
  --cap S     stop a mutant's tests (the ones that run its line) after the batch that
              passes S seconds: it is "covering-partial", not confirmed, and runs no
              further (for a large sample in little time; 0: no cap)
  --sanitize  a C mutant that survives: the tests that run its line again, against
              make sanitize's build (ASan, UBSan, LeakSanitizer), in the scratch copy;
              a report there kills it (stage "sanitize": a leak or an out-of-bounds
              access that changes nothing printed); one that build refuses (warnings
              as errors, as CI's) is broken
  --just SEL  (repeatable) these tests only, for each mutant: 'unit: NAME' or
              'pytest: FILE [-k EXPR]'; nothing confirms a survivor (stage "just"):
              a quick check that a new test kills the mutants it was written for
  --confirm   what runs before a mutant is called survived: the whole no-GPU suite
              (suite, the default); the tests that run its file at all, by the map
              (file: the others cannot reach it; for a quicker first pass); none

Exit status: 0 every mutant of the sample killed, broken, same-code or a
survivor listed in tests/mutagen-survivors.txt; 1 a survivor not listed there
(add the test that kills it, or list it saying why it cannot be killed); 2 bad
usage. Environment as tests/mutate.py (BUILD, PLATFORM, PYTHON, MAKE,
HMB_MUTATE_JOBS)."""
import argparse
import ast
import copy
import difflib
import glob
import hashlib
import json
import os
import pathlib
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import mutate  # noqa: E402  (the scratch copy, builds and timeouts)

ROOT = mutate.ROOT
WORK = mutate.SOURCE_BUILD / "mutagen"  # the coverage build, its map, results
SURVIVORS = ROOT / "tests" / "mutagen-survivors.txt"
FILE_MAP = ROOT / "tests" / "mutagen-map.json"
TRACE_DIR = ROOT / "tests" / "mutagen_trace"


# The emulated runtime is the tests' stand-in for a GPU (as tests/fakegpu.py is), not
# code a measurement runs: its mutants would measure the stand-in's own tests.
STAND_INS = {"src/platform/hip_emulated.c"}


def sources():
    c = sorted(set(glob.glob("src/*/*.c", root_dir=ROOT) + glob.glob("bench/*/*.c", root_dir=ROOT))
               - STAND_INS)
    py = sorted(glob.glob("scripts/*.py", root_dir=ROOT))
    return c, py


def folder_of(path):
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0] in ("src", "bench") and len(parts) > 2 else parts[0]


# ---- C: a tokenizer that skips comments, strings and preprocessor lines --------

PUNCT = re.compile(r">>=|<<=|\.\.\.|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||\*=|/=|%=|\+=|-=|&=|"
                   r"\^=|\|=|##|[{}\[\]();,.?:~!+\-*/%<>=&|^#]")
NUMBER = re.compile(r"(0[xX][0-9a-fA-F]+|\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|"
                    r"\d+(?:[eE][+-]?\d+)?)([uUlLfF]*)")
IDENT = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = {"return", "if", "else", "while", "for", "do", "switch", "case", "default", "break",
            "continue", "goto", "sizeof", "typedef", "struct", "union", "enum", "static",
            "const", "volatile", "extern", "inline", "unsigned", "signed", "int", "long",
            "short", "char", "float", "double", "void", "_Bool", "register", "restrict"}
ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="}


class Tok:
    __slots__ = ("kind", "text", "start", "end")

    def __init__(self, kind, text, start, end):
        self.kind, self.text, self.start, self.end = kind, text, start, end


def c_tokens(src):
    """Tokens of C source: (kind ident/num/punct, text, start, end); comments,
    string and character literals become one 'str' token; preprocessor lines
    (with their continuations) are left out."""
    toks, i, n = [], 0, len(src)
    line_start = True
    while i < n:
        c = src[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if line_start and c == "#":
            while i < n:  # to the end of the line, past continuations
                j = src.find("\n", i)
                if j < 0:
                    i = n
                    break
                if src[j - 1] == "\\":
                    i = j + 1
                    continue
                i = j
                break
            continue
        line_start = False
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            toks.append(Tok("str", src[i:j + 1], i, j + 1))
            i = j + 1
            continue
        m = IDENT.match(src, i)
        if m:
            toks.append(Tok("ident", m.group(), i, m.end()))
            i = m.end()
            continue
        m = NUMBER.match(src, i)
        if m:
            toks.append(Tok("num", m.group(), i, m.end()))
            i = m.end()
            continue
        m = PUNCT.match(src, i)
        if m:
            toks.append(Tok("punct", m.group(), i, m.end()))
            i = m.end()
            continue
        i += 1  # anything else (a stray character): skipped
    return toks


def matching(toks, k):
    """The index of the bracket that closes toks[k] (an opening one), or None."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    open_, close, depth = toks[k].text, pairs[toks[k].text], 0
    for j in range(k, len(toks)):
        if toks[j].text == open_:
            depth += 1
        elif toks[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    return None


def statement_end(toks, k):
    """The index of the ';' that ends the statement starting at k (brackets
    balanced), or None."""
    depth = 0
    for j in range(k, len(toks)):
        t = toks[j].text
        if t in "([{":
            depth += 1
        elif t in ")]}":
            depth -= 1
            if depth < 0:
                return None
        elif t == ";" and depth == 0:
            return j
    return None


CMP_C = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
ARITH_C = {"+": "-", "-": "+", "*": "/", "/": "*"}


def c_sites(src):
    """Every mutation site of C source: (operator, start, end, replacement)."""
    toks = c_tokens(src)
    out = []
    paren = 0
    for k, t in enumerate(toks):
        prev = toks[k - 1] if k else None
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        if t.text == "(":
            paren += 1
        elif t.text == ")":
            paren -= 1
        if t.kind == "punct" and t.text in CMP_C:
            out.append(("cmp", t.start, t.end, CMP_C[t.text]))
        elif t.kind == "punct" and t.text in ("&&", "||"):
            out.append(("logic", t.start, t.end, "||" if t.text == "&&" else "&&"))
        elif t.kind == "punct" and t.text in ARITH_C and \
                src[t.start - 1:t.start] == " " and src[t.end:t.end + 1] == " " and \
                prev is not None and (prev.kind in ("ident", "num") and prev.text not in KEYWORDS
                                      or prev.text in (")", "]")):
            out.append(("arith", t.start, t.end, ARITH_C[t.text]))
        elif t.kind == "num" and re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*", t.text):
            # not an array's size in a declaration (char buf[64]), nor a bit-field's width
            if prev is not None and prev.text == "[" and k >= 2 and \
                    toks[k - 2].kind == "ident" and k >= 3 and \
                    (toks[k - 3].kind == "ident" and toks[k - 3].text not in ("return", "case")
                     or toks[k - 3].text == "*"):
                continue
            if prev is not None and prev.text == ":" and k >= 2 and toks[k - 2].kind == "ident" \
                    and nxt is not None and nxt.text == ";":
                continue
            m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)", t.text)
            lit = m.group(1)
            if lit[:2].lower() == "0x":
                text = hex(int(lit, 16) + 1)
            elif len(lit) > 1 and lit[0] == "0":
                text = "0" + oct(int(lit, 8) + 1)[2:]
            else:
                text = str(int(lit) + 1)
            out.append(("const", t.start, t.end, text + m.group(2)))
        elif t.kind == "ident" and t.text in ("if", "while") and nxt is not None and nxt.text == "(":
            close = matching(toks, k + 1)
            if close is not None and not (t.text == "while" and prev is not None and prev.text == "}"
                                          and close + 1 < len(toks) and toks[close + 1].text == ";"):
                inner = src[nxt.end:toks[close].start]
                out.append(("negate", nxt.start, toks[close].end, f"(!({inner}))"))
        elif t.kind == "ident" and t.text == "return" and nxt is not None and nxt.text != ";":
            end = statement_end(toks, k + 1)
            if end is not None:
                expr = src[nxt.start:toks[end].start].strip()
                if expr in ("NULL", "EXIT_SUCCESS"):
                    continue
                out.append(("return", nxt.start, toks[end].start, "1" if expr == "0" else "0"))
        # a statement dropped: at a statement's start, outside any brackets of an
        # expression; a call (f(...);) or an assignment (a->b[i] = ...;)
        if t.kind == "ident" and t.text not in KEYWORDS and paren == 0 and \
                (prev is None or prev.text in (";", "{", "}") or prev.text == "else"):
            end = statement_end(toks, k)
            if end is None:
                continue
            j = k + 1
            if nxt is not None and nxt.text == "(" and matching(toks, k + 1) == end - 1:
                out.append(("drop", t.start, toks[end].end, "(void)0;"))
                continue
            while j < end and (toks[j].text in ("->", ".") and toks[j + 1].kind == "ident" or
                               toks[j].text == "["):
                j = (matching(toks, j) or end) + 1 if toks[j].text == "[" else j + 2
            if j < end and toks[j].text in ASSIGN:
                out.append(("drop", t.start, toks[end].end, "(void)0;"))
    return out


# ---- Python: the same on the syntax tree ----------------------------------------

CMP_PY = {ast.Lt: ("<", "<="), ast.LtE: ("<=", "<"), ast.Gt: (">", ">="), ast.GtE: (">=", ">"),
          ast.Eq: ("==", "!="), ast.NotEq: ("!=", "=="), ast.In: ("in", "not in"),
          ast.NotIn: ("not in", "in"), ast.Is: ("is", "is not"), ast.IsNot: ("is not", "is")}
ARITH_PY = {ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "/"), ast.Div: ("/", "*")}


def py_sites(src):
    """Every mutation site of Python source: (operator, start, end, replacement)."""
    tree = ast.parse(src)
    starts = [0]
    for line in src.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def off(line, col):  # ast columns are UTF-8 byte offsets
        text = src[starts[line - 1]:starts[line]]
        return starts[line - 1] + len(text.encode()[:col].decode(errors="replace"))

    def span(node):
        return off(node.lineno, node.col_offset), off(node.end_lineno, node.end_col_offset)

    def in_gap(a, b, pattern):
        """The operator in src[a:b] (between two operands): (start, end) or None."""
        m = re.search(pattern, src[a:b])
        return (a + m.start(), a + m.end()) if m else None

    out = []
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and node.body and isinstance(node.body[0], ast.Expr) and \
                isinstance(node.body[0].value, ast.Constant) and \
                isinstance(node.body[0].value.value, str):
            docstrings.add(id(node.body[0]))
            docstrings.add(id(node.body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            left = node.left
            for op, right in zip(node.ops, node.comparators):
                old, new = CMP_PY[type(op)]
                pat = r"\bnot\s+in\b" if old == "not in" else r"\bis\s+not\b" if old == "is not" else \
                    rf"(?<![\w<>=!]){re.escape(old)}(?![\w=])" if old.isalpha() else \
                    rf"(?<![<>=!]){re.escape(old)}(?![<>=])"
                g = in_gap(span(left)[1], span(right)[0], pat)
                if g:
                    out.append(("cmp", g[0], g[1], new))
                left = right
        elif isinstance(node, ast.BoolOp):
            old, new = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
            for a, b in zip(node.values, node.values[1:]):
                g = in_gap(span(a)[1], span(b)[0], rf"\b{old}\b")
                if g:
                    out.append(("logic", g[0], g[1], new))
        elif isinstance(node, ast.BinOp) and type(node.op) in ARITH_PY:
            old, new = ARITH_PY[type(node.op)]
            g = in_gap(span(node.left)[1], span(node.right)[0],
                       rf"(?<![*/]){re.escape(old)}(?![*/=])")
            if g:
                out.append(("arith", g[0], g[1], new))
        elif isinstance(node, ast.Constant) and type(node.value) is int and id(node) not in docstrings:
            a, b = span(node)
            out.append(("const", a, b, str(node.value + 1)))
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            test = node.test
            if isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and \
                    test.left.id == "__name__":
                continue  # the script's entry point: every test would see it
            a, b = span(test)
            out.append(("negate", a, b, f"not ({src[a:b]})"))
        if isinstance(node, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)) and \
                id(node) not in docstrings and \
                (not isinstance(node, ast.Expr) or isinstance(node.value, ast.Call)):
            a, b = span(node)
            out.append(("drop", a, b, "pass"))
        elif isinstance(node, ast.Return) and node.value is not None and \
                not (isinstance(node.value, ast.Constant) and node.value.value is None):
            a, b = span(node.value)
            out.append(("return", a, b, "None"))
    return out


# ---- mutants: sites with stable ids --------------------------------------------

def mutants_of(path):
    src = (ROOT / path).read_text()
    try:
        sites = c_sites(src) if path.endswith(".c") else py_sites(src)
    except SyntaxError:
        return []
    lines = src.splitlines()
    seen = {}
    out = []
    for op, a, b, new in sorted(set(sites), key=lambda s: (s[1], s[2], s[0], s[3])):
        line = src.count("\n", 0, a) + 1
        text = lines[line - 1].strip() if line <= len(lines) else ""
        key = (op, text, src[a:b], new)
        seen[key] = seen.get(key, 0) + 1
        h = hashlib.sha1(f"{path}\0{op}\0{text}\0{src[a:b]}\0{new}\0{seen[key]}".encode()).hexdigest()
        out.append({"id": f"{pathlib.Path(path).stem}-{op}-{h[:8]}", "file": path, "op": op,
                    "line": line, "start": a, "end": b, "old": src[a:b], "new": new})
    return out


def all_mutants():
    c, py = sources()
    out = []
    for path in c + py:
        out += mutants_of(path)
    return out


def seeded(mutants, seed):
    """Every mutant in an order drawn with seed: the first N are the sample. A
    mutant's place comes from its id and the seed alone, so one added or gone
    elsewhere in the tree moves no other: a sample keeps its mutants as the tree
    grows, less those whose line changed and plus the new ones that rank before."""
    return sorted(mutants, key=lambda m: hashlib.sha256(f"{seed}:{m['id']}".encode()).digest())


def apply(src, m):
    """src with m made; the lines a change removes kept as empty ones, so that
    the rest of the file keeps its line numbers (__LINE__, the coverage map)."""
    lost = src.count("\n", m["start"], m["end"]) - m["new"].count("\n")
    return src[:m["start"]] + m["new"] + "\n" * max(lost, 0) + src[m["end"]:]


def diff(m):
    src = (ROOT / m["file"]).read_text()
    return "".join(difflib.unified_diff(src.splitlines(keepends=True),
                                        apply(src, m).splitlines(keepends=True),
                                        f"a/{m['file']}", f"b/{m['file']}", n=1))


# ---- the coverage map -----------------------------------------------------------

def load_map():
    """The map of lines (build/mutagen/map.json) where it is there and made from
    these sources, else the committed map of files: (map, 'lines' or 'files')."""
    path = WORK / "map.json"
    if path.is_file():
        cov = json.loads(path.read_text())
        cov["stale"] = {f for f, h in cov.get("hashes", {}).items()
                        if not (ROOT / f).is_file() or file_hash(ROOT / f) != h}
        return cov, "lines"
    if FILE_MAP.is_file():
        return json.loads(FILE_MAP.read_text()), "files"
    return None, None


def file_hash(path):
    return hashlib.sha1(pathlib.Path(path).read_bytes()).hexdigest()


def gcov_lines(objdir):
    """{source: {line: count}} from every .gcda under objdir."""
    gcdas = sorted(glob.glob(f"{objdir}/**/*.gcda", recursive=True))
    out = {}
    for i in range(0, len(gcdas), 40):
        p = subprocess.run(["gcov", "--json-format", "--stdout", *gcdas[i:i + 40]], cwd=ROOT,
                           capture_output=True, text=True)
        for line in p.stdout.splitlines():
            try:
                doc = json.loads(line)
            except ValueError:
                continue
            for f in doc.get("files", []):
                name = os.path.relpath(os.path.join(ROOT, f["file"]), ROOT)
                if not name.endswith(".c") or name.startswith(".."):
                    continue
                lines = out.setdefault(name, {})
                for ln in f["lines"]:
                    lines[ln["line_number"]] = lines.get(ln["line_number"], 0) + ln["count"]
    return out


def py_executable(path):
    """The lines of a script that hold code."""
    code = compile((ROOT / path).read_text(), path, "exec")
    lines, todo = set(), [code]
    while todo:
        co = todo.pop()
        lines.update(ln for _, _, ln in co.co_lines() if ln is not None)
        todo += [c for c in co.co_consts if hasattr(c, "co_lines")]
    return sorted(lines)


COV_CFLAGS, COV_LDFLAGS = "-O0 --coverage -Wno-error", "--coverage"


def make_map(timeout, only=None):
    """build/mutagen/map.json: for each line of C and of the scripts, the tests
    that run it; each test's duration; and tests/mutagen-map.json (by file)."""
    cov = WORK / "cov"
    python = os.environ.get("PYTHON") or ("/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK)
                                          else sys.executable)
    make = [os.environ.get("MAKE", "make"), f"-j{os.environ.get('HMB_MUTATE_JOBS', '2')}",
            f"BUILD={os.path.relpath(cov, ROOT)}", f"CFLAGS={COV_CFLAGS}", f"LDFLAGS={COV_LDFLAGS}"]
    make += [f"{v}={os.environ[v]}" for v in ("PLATFORM", "CUDA_ARCH", "OFFLOAD_ARCH")
             if os.environ.get(v)]
    # and the binary on the emulated runtime (tests/test_emulated.py), whose objects
    # say which lines of the modules those tests run
    targets = [f"{os.path.relpath(cov, ROOT)}/hipmembench", f"{os.path.relpath(cov, ROOT)}/unit_tests",
               "emulated"]
    src_build = mutate.SOURCE_BUILD
    if not (cov / "hipmembench").exists() and src_build.is_dir():
        # the device code as built already: only the host code is built again
        for d in src_build.glob("obj-*"):
            if (d / "kernels").is_dir():
                shutil.copytree(d / "kernels", cov / d.name / "kernels", dirs_exist_ok=True)
        for f in src_build.glob("archs-*"):
            shutil.copy2(f, cov / f.name)
    subprocess.run(make + ["-n"] + targets, cwd=ROOT, capture_output=True)  # the flags stamp
    for o in cov.glob("obj-*/kernels/*.o"):  # newer than it: the device code is kept
        o.touch()
    t0 = time.monotonic()
    p = subprocess.run(make + targets, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        print(f"mutagen: the coverage build failed:\n{mutate.tail(p.stdout + p.stderr)}")
        return 1
    print(f"mutagen: coverage build: {time.monotonic() - t0:.0f} s", flush=True)
    objdirs = [max(cov.glob("obj-*"), key=lambda d: d.stat().st_mtime),
               cov / "emulated" / "obj-emulated"]
    trace = WORK / "trace"
    # CFLAGS and LDFLAGS in the environment too: a test that runs make in this
    # build (test_install) then builds it with the same flags, not again without
    env = dict(os.environ, HMB_BIN=str(cov / "hipmembench"), HMB_UNIT=str(cov / "unit_tests"),
               HMB_EMULATED_BIN=str(cov / "emulated" / "hipmembench"),
               PYTHONDONTWRITEBYTECODE="1", HMB_MUTAGEN_TRACE=str(trace),
               CFLAGS=COV_CFLAGS, LDFLAGS=COV_LDFLAGS,
               PYTHONPATH=os.pathsep.join([str(TRACE_DIR)] + [x for x in
                                          [os.environ.get("PYTHONPATH")] if x]))
    for v in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(v, None)
    units = subprocess.run([str(cov / "unit_tests"), "--list"], capture_output=True,
                           text=True).stdout.splitlines()
    tests = [f"unit: {u}" for u in units] + \
        [f"pytest: {os.path.relpath(f, ROOT)}" for f in sorted(glob.glob(str(ROOT / "tests/test_*.py")))]
    c_files, py_files = sources()
    lines = {}       # file -> line -> [tests]
    executable = {}  # file -> [lines with code]
    durations = {}
    if only:  # these tests again, into the map there
        tests = [t for t in tests if re.search(only, t)]
        old = json.loads((WORK / "map.json").read_text())
        durations = old["durations"]
        executable = {f: set(v) for f, v in old["executable"].items()}
        for f, v in old["lines"].items():
            for ln, ts in v.items():
                keep = [t for t in ts if t not in tests]
                if keep:
                    lines.setdefault(f, {})[int(ln)] = keep
    for k, test in enumerate(tests):
        for g in (g for d in objdirs for g in d.rglob("*.gcda")):
            g.unlink()
        shutil.rmtree(trace, ignore_errors=True)
        trace.mkdir(parents=True)
        kind, _, arg = test.partition(": ")
        cmd = [str(cov / "unit_tests"), arg] if kind == "unit" else \
            [python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             f"--basetemp={WORK / 'pytest-map'}", arg]
        t0 = time.monotonic()
        rc, out = mutate.run_group(cmd, timeout=timeout, cwd=ROOT, env=env)
        durations[test] = round(time.monotonic() - t0, 2)
        for f, counts in (fc for d in objdirs for fc in gcov_lines(d).items()):
            executable.setdefault(f, set()).update(counts)
            for ln, n in counts.items():
                if n and test not in lines.setdefault(f, {}).setdefault(ln, []):
                    lines[f][ln].append(test)
        for dump in trace.glob("*.json"):
            try:
                seen = json.loads(dump.read_text())
            except ValueError:
                continue
            for name, lns in seen.items():
                f = f"scripts/{name}"
                if f in py_files:
                    for ln in lns:
                        tl = lines.setdefault(f, {}).setdefault(ln, [])
                        if not tl or tl[-1] != test:
                            tl.append(test)
        print(f"mutagen: map {k + 1}/{len(tests)} {durations[test]:6.1f} s  {test}"
              + ("" if rc in (0, 1, 5) else f" (exit {rc})"), flush=True)
    for f in py_files:
        executable[f] = set(py_executable(f))
    cov_map = {"hashes": {f: file_hash(ROOT / f) for f in c_files + py_files},
               "durations": durations,
               "executable": {f: sorted(v) for f, v in executable.items()},
               "lines": {f: {str(ln): t for ln, t in sorted(v.items())} for f, v in lines.items()}}
    (WORK / "map.json").write_text(json.dumps(cov_map))
    by_file = {}
    for f, v in lines.items():
        ts = sorted({t for lt in v.values() for t in lt}, key=lambda t: durations.get(t, 0))
        by_file[f] = ts
    FILE_MAP.write_text(json.dumps({"durations": durations, "files": by_file}, indent=0,
                                   sort_keys=True) + "\n")
    print(f"mutagen: map of {len(lines)} files: {WORK / 'map.json'}, {FILE_MAP}")
    return 0


# ---- running mutants ------------------------------------------------------------

def stripped(obj, dest):
    """The object without its debug information, for comparing code."""
    p = subprocess.run(["objcopy", "--strip-debug", "--remove-section=.comment", str(obj),
                        str(dest)], capture_output=True)
    return dest.read_bytes() if p.returncode == 0 else None


def object_of(scratch, path):
    objs = [o for o in (scratch / mutate.BUILD).glob(f"obj-*/{path[:-2]}.o")]
    return max(objs, key=lambda o: o.stat().st_mtime) if objs else None


class Plan:
    """Which tests run a mutant's line, quickest first; and the whole suite."""

    def __init__(self, cov, kind):
        self.cov, self.kind = cov, kind
        self.dur = (cov or {}).get("durations", {})
        units = subprocess.run([str(mutate.SOURCE_BUILD / "unit_tests"), "--list"],
                               capture_output=True, text=True).stdout.splitlines()
        files = sorted(os.path.relpath(f, ROOT) for f in glob.glob(str(ROOT / "tests/test_*.py")))
        self.suite = [f"pytest: {f}" for f in files]
        self.units = units

    def covering(self, m):
        """(tests that run m's line, quickest first; 'unreached' where none does,
        None where the map cannot say)."""
        if not self.cov:
            return None
        f = m["file"]
        if self.kind == "lines" and f not in self.cov["stale"]:
            tests = self.cov["lines"].get(f, {}).get(str(m["line"]))
            if tests:
                return sorted(tests, key=lambda t: self.dur.get(t, 0))
            if m["line"] in set(self.cov["executable"].get(f, [])):
                return "unreached"
            # a line with no code of its own (a declaration, a table, a
            # continuation): the tests of its file
        tests = self.cov["files"].get(f) if self.kind == "files" else \
            sorted({t for lt in self.cov["lines"].get(f, {}).values() for t in lt},
                   key=lambda t: self.dur.get(t, 0))
        return tests or None

    def of_file(self, m):
        """The tests that run m's file at all, quickest first."""
        f = m["file"]
        if not self.cov:
            return []
        tests = set(self.cov["files"].get(f, [])) if self.kind == "files" else \
            {t for lt in self.cov["lines"].get(f, {}).values() for t in lt}
        return sorted(tests, key=lambda t: self.dur.get(t, 0))

    def rest(self, m, done, confirm):
        """What runs before m is called survived, less what ran: the whole suite
        (every unit test, every pytest file), or with confirm 'file' the tests
        that run m's file at all (the others cannot reach it)."""
        everything = [f"unit: {u}" for u in self.units] + self.suite
        if confirm == "file" and self.cov:
            f = m["file"]
            ran_file = set(self.cov["files"].get(f, [])) if self.kind == "files" else \
                {t for lt in self.cov["lines"].get(f, {}).values() for t in lt}
            everything = [t for t in everything if t in ran_file]
        rest = [t for t in everything if t not in done]
        return sorted(rest, key=lambda t: self.dur.get(t, 30))


def run_tests(run, tests, dur, deadline=None):
    """Unit tests one by one, then the pytest files (-x), in batches of about 30 s
    (by dur): ('killed', by) at the first that fails or hangs, else ('survived',
    ''); ('partial', 'N of M') where the deadline came before the last batch."""
    units = [t for t in tests if t.startswith("unit: ")]
    files = [t.partition(": ")[2] for t in tests if t.startswith("pytest: ")]
    for t in units:
        v, out = run.kill(t)
        if v in ("fail", "timeout"):
            return "killed", t + (" (timeout)" if v == "timeout" else "")
    batches, cur, est = [], [], 0.0
    for f in files:
        cur.append(f)
        est += dur.get(f"pytest: {f}", 30)
        if est >= 30:
            batches.append(cur)
            cur, est = [], 0.0
    if cur:
        batches.append(cur)
    for k, batch in enumerate(batches):
        if deadline is not None and k and time.monotonic() > deadline:
            ran = sum(len(b) for b in batches[:k])
            return "partial", f"{ran} of {len(files)} test files"
        v, out = run.kill("pytest: " + " ".join(batch))
        if v in ("fail", "timeout"):
            m = re.search(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", out, re.M)
            return "killed", (m.group(1) if m else "pytest: " + " ".join(batch[:3])) + \
                (" (timeout)" if v == "timeout" else "")
        # v 'error': every test of the batch skipped or deselected here: it tests nothing
    return "survived", ""


def sanitize_runner(run):
    """The scratch copy's tests against make sanitize's build (ASan, UBSan and
    LeakSanitizer; its own folder, built on as the plain one is): a report fails
    the test that ran into it."""
    san = copy.copy(run)
    build = f"{mutate.BUILD}/sanitize"
    base = [a for a in run.make if not a.startswith(f"{mutate.BUILD}/") and
            not a.startswith("BUILD=")] + [f"BUILD={build}", "SANITIZE=1"]
    san.make = base + [f"{build}/hipmembench", f"{build}/unit_tests"]
    san.make_emulated = base + ["emulated"]
    san.env = dict(run.env, HMB_BIN=str(run.tree / build / "hipmembench"),
                   HMB_UNIT=str(run.tree / build / "unit_tests"),
                   HMB_EMULATED_BIN=str(run.tree / build / "emulated" / "hipmembench"),
                   ASAN_OPTIONS="protect_shadow_gap=0:detect_leaks=1",
                   UBSAN_OPTIONS="print_stacktrace=1")
    return san


def known_survivors():
    """tests/mutagen-survivors.txt: `ID  CLASS  reason`, CLASS equivalent, gpu,
    sanitize or open; # comments."""
    out = {}
    if SURVIVORS.is_file():
        for line in SURVIVORS.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                parts = line.split(None, 2)
                if len(parts) >= 2:
                    out[parts[0]] = (parts[1], parts[2] if len(parts) > 2 else "")
    return out


def run_sample(sample, args):
    cov, kind = load_map()
    plan = Plan(cov, kind)
    results_path = pathlib.Path(args.results)
    results_path.parent.mkdir(parents=True, exist_ok=True)
    done = {}
    if results_path.is_file():
        for line in results_path.read_text().splitlines():
            try:
                r = json.loads(line)
                done[r["id"]] = r
            except (ValueError, KeyError):
                pass
    # a survivor confirmed by fewer tests than asked for now runs again
    redo = {i for i, r in done.items() if r["verdict"] == "survived" and
            (args.redo_survivors or
             args.confirm == "suite" and (r["stage"] in ("file-tests", "covering", "no-tests",
                                                        "covering-partial") or
                                          args.run_unreached and r["stage"] == "unreached"))}
    todo = [m for m in sample if m["id"] not in done or m["id"] in redo]
    previous = {i: done[i] for i in redo}
    known = known_survivors()
    print(f"mutagen: {len(sample)} mutants (seed {args.seed}), {len(sample) - len(todo)} done "
          f"before; map: {kind or 'none'}", flush=True)
    def stop(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)  # as Ctrl-C: the scratch copy goes, and the tests
    signal.signal(signal.SIGHUP, stop)
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="hmb-mutagen-"))
    t_all = time.monotonic()
    try:
        needs_build = any(m["file"].endswith(".c") for m in todo)
        mutate.copy_tree(scratch, with_build=needs_build)
        run = mutate.Runner(scratch, args.timeout)
        # warnings as errors, as CI builds: a mutant the compiler warns about (a
        # variable left unused) cannot land, so it is broken, not a survivor
        run.env["WERROR"] = "1"
        if needs_build:
            ok, out = run.build()
            if not ok:
                print(f"mutagen: the unchanged tree does not build:\n{mutate.tail(out)}")
                return 1
        else:
            for v, name in (("HMB_BIN", "hipmembench"), ("HMB_UNIT", "unit_tests")):
                run.env[v] = str(pathlib.Path(os.environ.get(v, mutate.SOURCE_BUILD / name)).resolve())
        originals = {}
        san = None
        if args.sanitize and needs_build:  # the unchanged tree first: a failure there is no mutant's
            san = sanitize_runner(run)
            ok, out = san.build()
            if not ok:
                print(f"mutagen: the unchanged tree does not build with the sanitizers:\n"
                      f"{mutate.tail(out)}")
                return 1
        for m in todo:
            t0 = time.monotonic()
            if args.known_only and m["id"] in known:  # its verdict is known: not run again
                r = dict(m, verdict="survived", by="", stage="known", seconds=0.0)
                done[m["id"]] = r
                with open(results_path, "a") as f:
                    f.write(json.dumps(r) + "\n")
                print(f"{'survived':9} {m['id']:34} {m['file']}:{m['line']} {m['op']:6} "
                      f"    0 s  known: {known[m['id']][0]}", flush=True)
                continue
            path = scratch / m["file"]
            original = path.read_bytes()
            verdict, by, stage, ran = "survived", "", "", []
            try:
                if m["file"].endswith(".c") and m["file"] not in originals:
                    obj = object_of(scratch, m["file"])
                    originals[m["file"]] = stripped(obj, scratch / "orig.o") if obj else None
                path.write_text(apply(original.decode(), m))
                if m["file"].endswith(".c"):
                    obj = object_of(scratch, m["file"])
                    rc, out = mutate.run_group(run.make[:-2] + [os.path.relpath(obj, scratch)]
                                               if obj else run.make, cwd=scratch, env=run.env)
                    if rc != 0:
                        verdict, stage = "broken", "build"
                    elif obj and originals[m["file"]] is not None and \
                            stripped(obj, scratch / "mut.o") == originals[m["file"]]:
                        verdict, stage = "same-code", "build"
                    else:
                        ok, out = run.build()
                        if not ok:
                            verdict, stage = "broken", "build"
                if verdict == "survived" and args.just:
                    ran = list(args.just)
                    verdict, by = run_tests(run, ran, plan.dur)
                    stage = "just"
                elif verdict == "survived":
                    tests = plan.covering(m)
                    if args.tests and isinstance(tests, list):
                        tests = [t for t in tests if re.search(args.tests, t)]
                        if not tests and m["id"] in previous:
                            done[m["id"]] = previous[m["id"]]  # none of these runs it
                            continue
                    if tests == "unreached" and args.run_unreached:
                        tests = plan.of_file(m)  # then the whole suite all the same
                    if tests == "unreached":
                        verdict, stage = "survived", "unreached"
                    else:
                        ran = list(tests or [])
                        stage = "no-tests"
                        if ran:
                            deadline = time.monotonic() + args.cap if args.cap else None
                            verdict, by = run_tests(run, ran, plan.dur, deadline)
                            stage = "covering"
                            if verdict == "partial":
                                verdict, stage = "survived", "covering-partial"
                        if verdict == "survived" and stage != "covering-partial":
                            if args.confirm != "none":
                                verdict, by = run_tests(run, plan.rest(m, set(ran), args.confirm),
                                                        plan.dur)
                                stage = args.confirm if args.confirm == "suite" else "file-tests"
                if verdict == "survived" and args.sanitize and ran and \
                        m["file"].endswith(".c") and stage != "covering-partial":
                    ok, out = san.build()
                    if not ok:  # warnings as errors there too (a bound the compiler sees)
                        verdict, stage = "broken", "sanitize-build"
                    else:
                        verdict, by = run_tests(san, ran, plan.dur)
                        if verdict == "killed":
                            stage = "sanitize"
            finally:
                path.write_bytes(original)
            if args.tests and verdict == "survived" and m["id"] in previous:
                stage = previous[m["id"]]["stage"]  # what it survived before, and these
            r = dict(m, verdict=verdict, by=by, stage=stage,
                     seconds=round(time.monotonic() - t0, 1))
            done[m["id"]] = r
            with open(results_path, "a") as f:
                f.write(json.dumps(r) + "\n")
            print(f"{verdict:9} {m['id']:34} {m['file']}:{m['line']} {m['op']:6} "
                  f"{r['seconds']:5.0f} s  {stage} {by}", flush=True)
        if needs_build:
            run.build()
        # every test that killed a mutant passes on the unchanged tree: one that
        # fails there would kill every mutant it runs for
        # (a test of a parameter list by its function: all of its cases pass there)
        killers = sorted({re.sub(r"\[.*$", "", r["by"].split(" (timeout)")[0])
                          for r in done.values()
                          if r["id"] in {m["id"] for m in todo} and r["verdict"] == "killed"})
        bad = []
        for k in killers:
            sel = k if k.startswith(("unit: ", "pytest: ")) else f"pytest: {shlex.quote(k)}"
            v, out = run.kill(sel)
            if v != "pass":
                bad.append(k)
                print(f"mutagen: {k} does not pass on the unchanged tree ({v}): its kills do "
                      f"not count\n{mutate.tail(out)}", flush=True)
        for r in done.values():
            if r["verdict"] == "killed" and \
                    re.sub(r"\[.*$", "", r["by"].split(" (timeout)")[0]) in bad:
                r["verdict"] = "error"
                with open(results_path, "a") as f:
                    f.write(json.dumps(r) + "\n")
    except KeyboardInterrupt:
        print("mutagen: interrupted", file=sys.stderr)
        return 130
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    rs = [done[m["id"]] for m in sample]
    counts = {}
    for r in rs:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    print(f"mutagen: {len(rs)} mutants: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
          + f"; {time.monotonic() - t_all:.0f} s")
    if args.report:
        write_report(rs, args, pathlib.Path(args.report))
    new = [r["id"] for r in rs if r["verdict"] == "survived" and r["id"] not in known]
    if new:
        print("mutagen: survivors not in tests/mutagen-survivors.txt: " + ", ".join(new)
              + " (add the test that kills each, or list it saying why it cannot be killed)")
        return 1
    return 0


# ---- the report -----------------------------------------------------------------

def write_report(rs, args, path):
    known = known_survivors()
    folders = {}
    for r in rs:
        folders.setdefault(folder_of(r["file"]), []).append(r)
    lines = ["# Mutants made by rule: what the no-GPU tests catch", "",
             "`tests/mutagen.py` (operators, sampling and stages in its help): " +
             (f"the first {len(rs)} mutants of the order" if len(rs) == args.sample or args.only
              else f"{len(rs)} of the first {args.sample} mutants of the order (the others not run)"),
             f"seeded with {args.seed} over src/, bench/ and scripts/. "
             "Killed: a test failed or hung. Survived: every", "test that runs its line (by the "
             "coverage map: gcov for the C, a line tracer for the", "scripts) passed; *unreached*: "
             "no test of the no-GPU suite runs the line at all, so none", "can see it; *partial*: "
             f"the tests that run the line were cut after {args.cap or '-'} s, the rest not", "run. Same-code: "
             "the compiler made the same object code (code for AMD only, or", "folded away). "
             "Broken: it did not build (-Werror). The kill rate is killed of killed", "and "
             "survived; same-code and broken mutants test nothing. The kill rate of reached", "leaves the unreached out: "
             "of the lines the no-GPU suite runs. *gpu*: survivors classed", "so in "
             "tests/mutagen-survivors.txt (their lines run only with a GPU; the GPU tests", "see them), "
             "unreached or not; they are in survived and in the kill rate all the same.", "",
             "| folder | mutants | killed | survived | unreached | partial | gpu | same-code | broken | "
             "kill rate | kill rate of reached |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name in sorted(folders):
        lines.append(row(name, folders[name]))
    lines.append(row("**all**", rs))
    survivors = [r for r in rs if r["verdict"] == "survived"]
    classes = {}
    for r in survivors:
        cls = known.get(r["id"], ("unclassified", ""))[0]
        classes[cls] = classes.get(cls, 0) + 1
    lines += ["", "Survivors by class (tests/mutagen-survivors.txt): " +
              (", ".join(f"{k} {v}" for k, v in sorted(classes.items())) or "none") + ".", ""]
    # the notes written by hand in the report there are kept
    old = path.read_text() if path.is_file() else ""
    if "\n## Notes\n" in old:
        notes = old[old.index("\n## Notes\n") + 1:]
        notes = notes[:notes.index("\n## Survivors\n") + 1] if "\n## Survivors\n" in notes else notes
        lines += notes.rstrip("\n").splitlines() + [""]
    lines += ["## Survivors", ""]
    for r in sorted(survivors, key=lambda r: (r["file"], r["line"])):
        cls, why = known.get(r["id"], ("unclassified", "not yet looked at"))
        lines += [f"### {r['id']} ({r['stage']}{': ' + r['by'] if r['by'] else ''}): {cls}", "",
                  why, "", "```diff", diff(r).rstrip("\n"), "```", ""]
    path.write_text("\n".join(lines) + "\n")
    print(f"mutagen: report: {path}")


def row(name, rs):
    count = {}
    for r in rs:
        count[r["verdict"]] = count.get(r["verdict"], 0) + 1
    killed, survived = count.get("killed", 0), count.get("survived", 0)
    unreached = sum(1 for r in rs if r["verdict"] == "survived" and r["stage"] == "unreached")
    partial = sum(1 for r in rs if r["verdict"] == "survived" and r["stage"] == "covering-partial")

    known = known_survivors()
    gpu = sum(1 for r in rs if r["verdict"] == "survived" and known.get(r["id"], ("",))[0] == "gpu")

    def rate(k, n):
        return f"{100 * k / n:.0f}%" if n else "-"
    return (f"| {name} | {len(rs)} | {killed} | {survived} | {unreached} | {partial} | {gpu} | "
            f"{count.get('same-code', 0)} | {count.get('broken', 0)} | "
            f"{rate(killed, killed + survived)} | {rate(killed, killed + survived - unreached)} |")


def main():
    ap = argparse.ArgumentParser(description="Mutants made by rule against the no-GPU tests.")
    ap.add_argument("--sample", type=int, default=10)
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--results", default=str(WORK / "results.jsonl"))
    ap.add_argument("--report", default="")
    ap.add_argument("--report-only", metavar="FILE", default="")
    ap.add_argument("--map", action="store_true")
    ap.add_argument("--map-only", metavar="REGEX")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--known-only", action="store_true")
    ap.add_argument("--confirm", choices=("suite", "file", "none"), default="suite")
    ap.add_argument("--run-unreached", action="store_true")
    ap.add_argument("--redo-survivors", action="store_true")
    ap.add_argument("--cap", type=int, default=0)
    ap.add_argument("--tests", metavar="REGEX", default="")
    ap.add_argument("--sanitize", action="store_true")
    ap.add_argument("--just", metavar="SELECTOR", action="append", default=[])
    try:
        args = ap.parse_args()
    except SystemExit as e:
        return 2 if e.code else 0
    if args.map:
        WORK.mkdir(parents=True, exist_ok=True)
        rc = make_map(args.timeout, args.map_only)
        if rc:
            return rc
    order = seeded(all_mutants(), args.seed)
    if args.only:
        want = set(w for w in args.only.split(",") if w)
        sample = [m for m in order if m["id"] in want]
        unknown = want - {m["id"] for m in sample}
        if unknown:
            print(f"mutagen: --only: no mutant named {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
    else:
        sample = order[:args.sample]
    if args.report_only:
        done = {}
        if pathlib.Path(args.results).is_file():
            for line in pathlib.Path(args.results).read_text().splitlines():
                r = json.loads(line)
                done[r["id"]] = r
        write_report([done[m["id"]] for m in sample if m["id"] in done], args,
                     pathlib.Path(args.report_only))
        return 0
    if args.list:
        for m in sample:
            print(f"{m['id']:34} {m['file']}:{m['line']} {m['op']:6} {m['old']!r} -> {m['new']!r}")
        return 0
    for need in ("hipmembench", "unit_tests"):
        if not (mutate.SOURCE_BUILD / need).is_file():
            print(f"mutagen: no {mutate.SOURCE_BUILD / need}: build it first "
                  f"(make {mutate.SOURCE_BUILD.name}/{need})", file=sys.stderr)
            return 2
    return run_sample(sample, args)


if __name__ == "__main__":
    sys.exit(main())
