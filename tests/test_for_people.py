"""test_for_people.py - what people read of every committed document, old and new
(results/**/*.json, and *.json.gz unpacked to a temporary file): `show`, `summary`
(text and Markdown) and `compare` of the document against itself, and the summary of
each folder's documents side by side, hold three rules (docs/reading.md, "For people"):

- no line over 120 columns (the summary's text: its screen's 100);
- no word of a heading split: a name of the document (a parameter, a figure, a case)
  is printed whole or, in a column heading on two lines, as words (its underscores as
  blanks), never as a piece such as `touch_one_` or `page_in`, and every word of show's
  tables is a word of the document or of the tables' own (no `thr` over `ead`);
- no byte count printed raw: a size or byte count of the document (parameters size,
  step, start, stride and those named for bytes; figures in bytes or B/s) of 7 digits
  or more never appears as those digits, only in binary units (64M, 15.9G).

Then the rules' particulars on the H100's document: ratios of two decimals in the
summary (1.05x, 0.06x, never .06x), the d2d copies' peak % in the tables, and the
small copies' time per copy beside their GB/s.

HMB_BIN names the hipmembench binary (tests/hmb.py; `make test` sets it)."""
import gzip
import json
import re

import pytest

import hmb

RESULTS = hmb.ROOT / "results"
DOCUMENTS = sorted(p for p in RESULTS.rglob("*.json") if p.name != "schema.json") + \
    sorted(RESULTS.rglob("*.json.gz"))
WIDTH, SUMMARY_WIDTH = 120, 100
H100 = RESULTS / "nvidia-h100-pcie" / "all.json"
# what a parameter's name says it holds: bytes (the test's own list, as docs/reading.md)
BYTE_PARAMS = re.compile(r"^(size|step|start|stride)$|(^|_)bytes(_|$)")
DIGITS = re.compile(r"(?<![\w.])\d{7,}(?![\w.])")


def readable(path, tmp_path):
    """The document as a plain file: a .json.gz unpacked into tmp_path."""
    if path.suffix != ".gz":
        return path
    out = tmp_path / path.name[:-3]
    out.write_bytes(gzip.decompress(path.read_bytes()))
    return out


def run(*args, ok=(0,)):
    p = hmb.run(*args, timeout=300)
    assert p.returncode in ok, (args, p.returncode, p.stderr[-500:])
    return p.stdout


def names_of(doc):
    """Every string of the document, and each word of them (between blanks, '=', '/',
    commas and brackets): what a printed name may be."""
    words = set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                words.add(k)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            words.add(x)
            words.update(w for w in re.split(r"[\s=/,;:()\[\]'\"]+", x) if w)
    walk(doc)
    return words


def byte_counts(doc):
    """The digits of every byte count of 7 digits or more the document holds."""
    out = set()
    for r in doc.get("results", []):
        values = [v for k, v in (r.get("params") or {}).items() if BYTE_PARAMS.search(k)]
        values += [m.get("value") for m in (r.get("metrics") or {}).values()
                   if isinstance(m, dict) and m.get("unit") in ("bytes", "B/s")]
        for v in values:
            if isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) >= 1e6:
                out |= {str(int(v)), str(round(v))}
    return out


def split_words(text, names):
    """Pieces of names: printed words with an underscore that are not a name (nor a
    part of one between '=' and '/') of the document; a text cut visibly to fit its
    room ("...", a path's start or a long value's end) is not a name split."""
    bad = set()
    for token in text.split():
        if token.startswith("...") or token.rstrip(")]:,;'\"").endswith("..."):
            continue
        for part in re.split(r"[=/,;()\[\]]", token):
            part = part.strip("()[]:,;.'\"")
            if "_" in part and part not in names:
                bad.add(part)
    return sorted(bad)


# the tables' own words (node's topology and matrices among them), and the marks
TABLE_WORDS = {"mark", "yes", "no", "s", "ms", "us", "ns", "x", "directions", "column", "row",
               "chase", "links", "reads", "writes", "P", "r"}
MARKS = re.compile(r"[~?DBoS]+")


def cut_words(text, names):
    """Words (letters alone) of show's tables that are no word of the document's
    strings, nor one of the tables' own: a word cut in two ("thr" over "ead")."""
    words = {w for n in names for w in re.findall(r"[A-Za-z]+", n)} | TABLE_WORDS
    tables = text.split("\nhipmembench summary", 1)[0]
    return sorted({t for t in tables.split() if re.fullmatch(r"[A-Za-z]+", t) and
                   t not in words and not MARKS.fullmatch(t)})


def check(view, text, names, counts, width):
    wide = [line for line in text.splitlines() if len(line) > width]
    assert not wide, f"{view}: {len(wide)} lines over {width} columns, e.g. {wide[0]!r}"
    pieces = split_words(text, names)
    assert not pieces, f"{view}: names split: {pieces[:8]}"
    if view == "show":
        cut = cut_words(text, names)
        assert not cut, f"{view}: words cut: {cut[:8]}"
    raw = sorted({d for d in DIGITS.findall(text) if d in counts})
    assert not raw, f"{view}: byte counts printed raw: {raw[:8]}"


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(RESULTS)))
def test_every_committed_document_reads_for_people(path, tmp_path):
    doc_path = readable(path, tmp_path)
    doc = json.loads(doc_path.read_text())
    names, counts = names_of(doc) | set(re.split(r"[/]", str(doc_path))), byte_counts(doc)
    check("show", run("show", doc_path), names, counts, WIDTH)
    check("summary", run("summary", doc_path), names, counts, SUMMARY_WIDTH)
    check("summary -f markdown", run("summary", "-f", "markdown", doc_path), names, counts,
          10 ** 6)  # a Markdown table's row is one line, however long
    check("compare", run("compare", "--allow-partial", doc_path, doc_path, ok=(0, 1)), names,
          counts, WIDTH)


FOLDERS = sorted({p.parent for p in DOCUMENTS if p.suffix == ".json"})


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: str(p.relative_to(RESULTS)))
def test_each_folders_documents_side_by_side(folder):
    """The summary of a folder's documents (at most seven: one screen), and compare of
    its first two: the same rules, and every ratio with its two decimals."""
    docs = sorted(folder.glob("*.json"))[:7]
    names, counts = set(), set()
    for d in docs:
        doc = json.loads(d.read_text())
        names |= names_of(doc)
        counts |= byte_counts(doc)
    text = run("summary", *docs)
    check("summary", text, names, counts, SUMMARY_WIDTH)
    if len(docs) > 1:
        assert not re.search(r"(?<![\d<])\.\d+x", text), text
        check("compare", run("compare", "--allow-partial", docs[0], docs[1], ok=(0, 1, 2)),
              names, counts, WIDTH)


def ratios(text):
    """The ratios of a summary of several documents (value, then ratio, a column each)."""
    return re.findall(r"(?<=\s)(\S+x|<0\.01)(?=\s|$)", text.split("\nsystems,", 1)[0])


def test_summary_ratios_show_a_five_percent_change():
    """51.9 against 54.4 is 1.05x, not 1.0x: two decimals below 10, a whole number from
    10, never a bare .06x."""
    other = RESULTS / "nvidia-h200-x2" / "all.json"
    got = ratios(run("summary", H100, other))
    assert got and all(re.fullmatch(r"\d\.\d\dx|\d\dx|>99x|<0\.01", r) for r in got), got
    assert "0.06x" in got  # VMM vs realloc: 7.13 against 121
    md = run("summary", "-f", "markdown", H100, other)
    assert " 0.06x |" in md and not re.search(r"[ (]\.\d+x", md)


def block(text, heading):
    """The lines of show's group under `heading`, up to the blank line after it."""
    return text.split(f"\n{heading}\n", 1)[1].split("\n\n", 1)[0].splitlines()


def test_d2d_copies_have_the_peak_share_the_summary_gives():
    summary = run("summary", H100)
    share = re.search(r"^d2d copy +\S+ GB/s +(\d+)% ", summary, re.M).group(1)
    out = run("show", H100)
    for case in ("d2d/device/async", "d2d/device/sync"):
        lines = block(out, f"{case} api={'hipMemcpyAsync' if 'async' in case else 'hipMemcpy'}"
                      " ops_per_sample=1")
        assert "peak %" in lines[0], lines[0]
        rows = {line.split()[0]: line.split() for line in lines[1:]}
        assert all(r[-2].isdigit() or r[-1].isdigit() for r in rows.values()), rows
    one_g = block(out, "d2d/device/async api=hipMemcpyAsync ops_per_sample=1")[-1].split()
    assert one_g[0] == "1G" and share in one_g, (one_g, share)


def test_small_copies_say_their_time_per_copy():
    """memcpy's copies up to 1M: the median time of one copy beside their GB/s (the
    bytes over the median GB/s), blank for larger copies."""
    doc = json.loads(H100.read_text())
    lines = block(run("show", H100), "h2d/pinned/async api=hipMemcpyAsync ops_per_sample=1")
    head = lines[0].split("  ")
    head = [h.strip() for h in head if h.strip()]
    assert head == ["size", "median GB/s", "best GB/s", "median us/copy", "peak %", "mark"], head
    medians = {r["params"]["size"]: r["stats_s"]["median"] for r in doc["results"]
               if r["module"] == "memcpy" and r["case"] == "h2d/pinned/async"}
    for line in lines[1:]:
        cells = line.split()
        size = int(cells[0][:-1]) << {"K": 10, "M": 20, "G": 30}[cells[0][-1]]
        if size <= 1 << 20:
            assert abs(float(cells[3]) / (medians[size] * 1e6) - 1) < 0.001, line
        else:
            assert len(cells) <= 5 and line[len("  size  median GB/s  best GB/s  "):][:14].strip() \
                == "", line
