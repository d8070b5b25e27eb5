"""test_corpus.py - the committed corpus of hostile input (tests/corpus/): bad command
lines, malformed documents (read by compare and by show) and sweep matrices, each with
its exit status and a fragment of what it says. Bad usage must be exactly one printable stderr line and nothing on
stdout, with no file left behind; a dry run must refuse what a real run refuses.

HMB_BIN names the hipmembench binary (tests/hmb.py; `make test` sets it)."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

import hmb

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
BIN = str(hmb.BIN)
BASE = CORPUS / "base.json"
TIMEOUT = 120


def load(name):
    """The cases of a corpus file, with their line numbers as ids."""
    cases = []
    with open(CORPUS / name, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            case = json.loads(line)
            cases.append(pytest.param(case, id=f"{n}-{case.get('name', '')}"))
    return cases


def raw(text):
    """Corpus text as bytes: \\udcXX (surrogateescape) is the raw byte XX."""
    return os.fsencode(text)


def long_path(tmp, n):
    """A path of exactly n bytes below tmp, in components of at most 200 bytes."""
    path = str(tmp)
    while len(path) + 201 < n:
        path += "/" + "d" * 199
    return path + "/" + "f" * (n - len(path) - 1)


def fixtures(tmp):
    (tmp / "file").write_bytes(b"")
    os.mkfifo(tmp / "fifo")
    return {"{tmp}": str(tmp), "{file}": str(tmp / "file"), "{fifo}": str(tmp / "fifo"),
            "{base}": str(BASE)}


def substitute(arg, tmp, names):
    for key, value in names.items():
        arg = arg.replace(key, value)
    if arg.startswith("{path") and arg.endswith("}"):
        arg = long_path(tmp, int(arg[5:-1]))
    return arg


def files_below(tmp):
    return sorted(str(p.relative_to(tmp)) for p in tmp.rglob("*"))


def check_stderr(err, rc, want_rc, fragment):
    """Printable UTF-8 only; bad usage is exactly one line."""
    text = err.decode("utf-8")  # raises on invalid UTF-8
    bad = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) < 0xa0]
    assert not bad, f"control characters on stderr: {text!r}"
    assert rc == want_rc, f"exit {rc}, expected {want_rc}; stderr: {text!r}"
    assert fragment in text, f"stderr lacks {fragment!r}: {text!r}"
    if want_rc == 2:
        assert text.endswith("\n") and text.count("\n") == 1, f"not one line: {text!r}"
    return text


def dotted(doc, path):
    for part in path.split("."):
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def run_cli(case, args, tmp, names):
    before = files_below(tmp)
    r = subprocess.run([BIN] + args, cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=TIMEOUT, env=dict(os.environ, LC_ALL="C"))
    check_stderr(r.stderr, r.returncode, case["exit"], case["stderr"])
    after = files_below(tmp)
    assert not [f for f in after if ".tmp." in f], f"temporary files left: {after}"
    if case["exit"] == 2:
        assert r.stdout == b"", f"bad usage wrote to stdout: {r.stdout[:200]!r}"
        assert after == before, f"bad usage left files: {set(after) - set(before)}"
    out = r.stdout.decode("utf-8")
    if "stdout" in case:
        assert case["stdout"] in out, f"stdout lacks {case['stdout']!r}: {out[:500]!r}"
    if case.get("stdout_json"):
        json.loads(out)  # one JSON document and nothing else
    if "doc" in case:
        path = substitute(case.get("doc_path", "{tmp}/d.json"), tmp, names)
        with open(raw(path), encoding="utf-8") as f:  # raises on invalid UTF-8
            doc = json.load(f)
        for key, want in case["doc"].items():
            if isinstance(want, str):
                want = substitute(want, tmp, names)
            assert dotted(doc, key) == want, f"{key}: {dotted(doc, key)!r}, expected {want!r}"


@pytest.mark.parametrize("case", load("cli.jsonl"))
def test_command_line(case, tmp_path):
    names = fixtures(tmp_path)
    args = [raw(substitute(a, tmp_path, names)) for a in case["args"]]
    run_cli(case, args, tmp_path, names)
    if case["exit"] == 2 and case.get("dry", True):
        run_cli(case, [b"--dry-run"] + args, tmp_path, names)


def write_doc(case, path):
    if case.get("generate") == "huge":
        with open(path, "wb") as f:
            f.write(b" " * (512 << 20))
            f.write(b"{}")
    elif case.get("generate") == "many":
        results = [{"status": "ok", "module": "m", "case": f"c{i}", "samples_s": [1e-6 * (1 + i)]}
                   for i in range(10000)]
        path.write_text(json.dumps({"tool": {"name": "hipmembench"}, "schema_version": 1,
                                    "results": results}))
    else:
        path.write_bytes(raw(case["text"]))


@pytest.mark.parametrize("case", load("docs.jsonl"))
def test_document(case, tmp_path):
    doc = tmp_path / "doc.json"
    write_doc(case, doc)
    for pair in ([str(BASE), "doc.json"], ["doc.json", str(BASE)]):
        # these documents match nothing of BASE: --allow-partial shows what they hold,
        # --wide lists all of it
        r = subprocess.run([BIN, "compare", "--allow-partial", "--wide"] + pair, cwd=tmp_path,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT)
        err = check_stderr(r.stderr, r.returncode, case["exit"], case["stderr"])
        out = r.stdout.decode("utf-8")
        bad = [c for c in out if (ord(c) < 0x20 and c not in "\n") or 0x7f <= ord(c) < 0xa0]
        assert not bad, f"control characters on stdout: {out[:500]!r}"
        if case["exit"] == 2:
            assert out == ""
        else:  # compare said what matched
            assert "figures matched" in err, err[:800]
        # labels of what one side alone has are listed on stderr
        if "stdout" in case:
            assert case["stdout"] in out + err, f"output lacks {case['stdout']!r}: {err[:800]!r}"
        if "stdout_not" in case:
            assert case["stdout_not"] not in out + err
    # show reads the same documents: what compare refuses it refuses in one line;
    # the others it shows within 120 columns, with no control characters
    r = subprocess.run([BIN, "show", "doc.json"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=TIMEOUT)
    if case["exit"] == 2:
        check_stderr(r.stderr, r.returncode, 2, case["stderr"])
        assert r.stdout == b""
    else:
        assert r.returncode == 0 and r.stderr == b"", r.stderr[:500]
        out = r.stdout.decode("utf-8")
        bad = [c for c in out if (ord(c) < 0x20 and c not in "\n") or 0x7f <= ord(c) < 0xa0]
        assert not bad, f"control characters on stdout: {out[:500]!r}"
        assert max(map(len, out.splitlines()), default=0) <= 120


@pytest.mark.parametrize("case", load("sweep.jsonl"))
def test_sweep_matrix(case, tmp_path):
    matrix = tmp_path / "matrix.json"
    if "text" in case:
        matrix.write_bytes(raw(case["text"]))
    else:
        matrix.write_text(json.dumps(case["matrix"]))
    outdir = tmp_path / "out"
    if case.get("outdir") == "file":
        outdir.write_text("")
    elif case.get("outdir") == "under-file":
        (tmp_path / "plain").write_text("")
        outdir = tmp_path / "plain" / "out"
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "hmb_sweep.py"), "--hipmembench", BIN,
                        str(matrix), str(outdir)], cwd=tmp_path, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=TIMEOUT)
    err = r.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    if case["exit"] == 2:
        check_stderr(r.stderr, r.returncode, 2, case["stderr"])
        assert case.get("outdir") or not outdir.exists(), "a refused matrix made OUTDIR"
    else:
        assert r.returncode == case["exit"], err
    for name in case.get("points", []):
        assert (outdir / "points" / name).is_file(), f"no {name}: {err}"


def test_corpus_size():
    """At least 150 cases in all, and every reproducer kind is there."""
    n = sum(len(load(f)) for f in ("cli.jsonl", "docs.jsonl", "sweep.jsonl"))
    assert n >= 150, n


def test_corpus_runs_the_binary_under_test():
    """The corpus runs HMB_BIN, so that `make sanitize` (which sets it to the build
    with AddressSanitizer and UBSan, and sets ASAN_OPTIONS) runs every case under
    them: there the binary must be that build."""
    if "HMB_BIN" in os.environ:
        assert pathlib.Path(BIN) == pathlib.Path(os.environ["HMB_BIN"]).resolve()
    if "detect_leaks=1" in os.environ.get("ASAN_OPTIONS", ""):
        with open(BIN, "rb") as f:
            image = f.read()
        assert b"__asan_init" in image and b"__ubsan_handle_" in image, \
            f"{BIN} is not built with -fsanitize=address,undefined"
