"""test_load.py - how a document is read (src/doc/json_read.c, cJSON whole, into records:
json_import.c), as compare sees it: it refuses what cJSON refuses, even where compare does
not look, and reads what cJSON reads, however it is written. Each document here is the
sample document (json_write.c) with its text changed where compare does not look (a
result's observed states, its shape), or in how it is written."""
import csv
import json
import re
import subprocess

import pytest

import hmb


def text_of(sample_doc):
    """The sample document as text, a value a line."""
    doc = json.loads(sample_doc.read_text())
    return json.dumps(doc, indent=1)


def compare_text(tmp_path, text, name="doc.json"):
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return hmb.run("--format", "csv", "compare", path, path)


def observed_value(text, value):
    """text with the first result's observed states replaced by {"x": value}."""
    at = text.index('"observed": {')
    end = text.index("}", at)
    return text[:at] + '"observed": {"x": ' + value + text[end:]


@pytest.mark.parametrize("value", ["tru", '"bad \\q escape"', '"\\ud800 alone"', "[1, 2,]",
                                   "{\"a\" 1}", "1.2.3", '"unterminated'])
def test_what_cjson_refuses_in_a_skipped_part_is_refused(tmp_path, sample_doc, value):
    p = compare_text(tmp_path, observed_value(text_of(sample_doc), value))
    assert p.returncode == 2, p.stdout + p.stderr
    assert re.search(r"doc\.json: not valid JSON \(truncated or malformed near byte \d+",
                     p.stderr), p.stderr
    assert p.stdout == ""


@pytest.mark.parametrize("what,change", [
    ("a number cJSON reads though JSON has none such", lambda t: observed_value(t, "01")),
    ("a number ending in a point", lambda t: observed_value(t, "[1., -0.5e+3]")),
    ("escapes and a surrogate pair", lambda t: observed_value(t, '"\\u00e9\\ud83d\\ude00\\/"')),
    ("form feeds between values", lambda t: t.replace(",\n", ",\f\n")),
    ("a byte-order mark", lambda t: "\ufeff" + t),
    ("deep nesting, within cJSON's limit", lambda t: observed_value(t, "[" * 995 + "]" * 995)),
    ("a key written with escapes", lambda t: t.replace('"module": "memcpy"',
                                                       '"mod\\u0075le": "memcpy"')),
])
def test_what_cjson_reads_is_read(tmp_path, sample_doc, what, change):
    p = compare_text(tmp_path, change(text_of(sample_doc)))
    assert p.returncode == 0, f"{what}: {p.stderr}"
    figures = [line.split(",")[2:4] for line in p.stdout.splitlines()[1:]]
    assert figures == [['"memcpy h2d/pinned/async size=4K latched=yes"', '"GB/s"'],
                       ['"memcpy h2d/pinned/async size=4K latched=yes"', '"speedup"'],
                       ['"memcpy h2d/pageable/sync size=4K"', '"GB/s"']], what


def test_results_given_twice_are_read_as_cjson_reads_them(tmp_path, sample_doc):
    """cJSON takes the first of two keys of one name: so does compare."""
    doc = json.loads(sample_doc.read_text())
    first = json.dumps(doc, indent=1)
    text = first[:-2] + ',\n "results": []\n}'
    p = compare_text(tmp_path, text)
    assert p.returncode == 0 and len(p.stdout.splitlines()) == 4, p.stderr


@pytest.mark.parametrize("where", ["between two values", "at the end"])
def test_a_nul_byte_is_named_where_it_is(tmp_path, sample_doc, where):
    text = text_of(sample_doc).encode()
    at = text.index(b",\n", text.index(b'"results"')) + 1 if where != "at the end" else len(text)
    data = text[:at] + b"\0" + text[at:]
    p = compare_text(tmp_path, data)
    assert p.returncode == 2
    assert f"doc.json: a NUL byte at byte {at}: not a JSON document" in p.stderr, p.stderr
    # the same from standard input, which is read rather than mapped
    q = subprocess.run([str(hmb.BIN), "compare", "-", tmp_path / "doc.json"], input=data,
                       capture_output=True)
    assert q.returncode == 2 and f"-: a NUL byte at byte {at}:" in q.stderr.decode(), q.stderr


def test_a_result_with_its_median_alone(tmp_path, sample_doc):
    """Neither bytes nor operations: the figure is the median time of its samples,
    as show and the tables derive it."""
    doc = json.loads(sample_doc.read_text())
    r = doc["results"][0]
    r.update(bytes=None, ops=None, gbps_median=None, gbps_best=None, us_per_op_median=None,
             metrics={})
    p = compare_text(tmp_path, json.dumps(doc))
    rows = p.stdout.splitlines()[1:]
    assert p.returncode == 0 and '"median","s",' in rows[0], p.stdout + p.stderr
    assert float(rows[0].split(",")[5]) == pytest.approx(r["stats_s"]["median"])


def test_a_document_written_compact_reads_as_written_spaced(tmp_path, sample_doc):
    """No space anywhere (json.dumps with separators=(",", ":"), as jq -c writes):
    the same figures as the document written with spaces, matched one to one."""
    doc = json.loads(sample_doc.read_text())
    compact = tmp_path / "compact.json"
    compact.write_text(json.dumps(doc, separators=(",", ":")))
    spaced = tmp_path / "spaced.json"
    spaced.write_text(json.dumps(doc, indent=1))
    p = hmb.run("--format", "csv", "compare", spaced, compact)
    assert p.returncode == 0, p.stderr
    rows = p.stdout.splitlines()[1:]
    itself = hmb.run("--format", "csv", "compare", spaced, spaced).stdout.splitlines()[1:]
    assert len(rows) == len(itself) >= 2, p.stdout
    head = p.stdout.splitlines()[0].split(",")
    ratio, pv = head.index("ratio"), head.index("p")
    cells = [next(csv.reader([r])) for r in rows]
    # ratio 1, p 1 (or none: a figure of one run has no noise to judge it by)
    assert all(c[ratio] == "1" and c[pv] in ("1", "") for c in cells), p.stdout
    assert "all " in p.stderr and "figures of the base matched" in p.stderr, p.stderr
    shown = [hmb.run("show", f).stdout for f in (spaced, compact)]
    assert shown[0] == shown[1] and shown[0], shown


@pytest.mark.parametrize("length", [63, 64, 65, 100])
def test_a_long_metric_unit_is_read_whole(tmp_path, sample_doc, length):
    """A metric's unit of any length is shown as written."""
    doc = json.loads(sample_doc.read_text())
    r = doc["results"][0]
    assert "speedup" in r["metrics"]
    unit = ("per-" * 64)[:length]
    r["metrics"]["speedup"]["unit"] = unit
    p = compare_text(tmp_path, json.dumps(doc, indent=1))
    assert p.returncode == 0, p.stderr
    rows = [next(csv.reader([line])) for line in p.stdout.splitlines()[1:]]
    assert [row[3:5] for row in rows if row[3] == "speedup"] == [["speedup", unit]], p.stdout


def test_a_document_cut_after_a_key_at_a_page_end(tmp_path, sample_doc):
    """A document cut right after a result's first key, its length a whole number
    of pages (a mapped file has nothing after it): named as truncated, exit 2."""
    text = json.dumps(json.loads(sample_doc.read_text()), indent=1)
    cut = text[:text.index('"module"', text.index('"results"')) + len('"module"')]
    page = 4096
    cut = "{" + " " * (-len(cut) % page) + cut[1:]
    assert len(cut) % page == 0
    p = compare_text(tmp_path, cut)
    assert p.returncode == 2, p.stdout + p.stderr
    assert re.search(rf"doc\.json: not valid JSON \(truncated or malformed near byte \d+ of "
                     rf"{len(cut)}\)", p.stderr), p.stderr
