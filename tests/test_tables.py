"""test_tables.py - the tables people read, from the committed documents: `hipmembench
show DOC` prints a document's tables as `all` prints them, each line within 120
columns, a group's shared parameters once in its heading, context left to --wide, the
GPU index a column where a document has several GPUs; the CSV's direction column; and
show's refusals (one line, exit 2).

HMB_BIN names the hipmembench binary (tests/hmb.py; `make test` sets it)."""
import copy
import collections
import csv
import io
import json
import re

import pytest

import hmb

RESULTS = hmb.ROOT / "results"
# every committed document: all of each system, the H100's on-request and alone runs
DOCUMENTS = sorted(RESULTS.glob("*/all*.json")) + sorted(RESULTS.glob("*/*/*.json")) + \
    sorted(RESULTS.glob("*/node.json"))
WIDTH = 120


def show(*args, cwd=None):
    p = hmb.run(*args, cwd=cwd)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    return p.stdout


def test_every_committed_document_is_checked():
    names = [str(d.relative_to(RESULTS)) for d in DOCUMENTS]
    assert {"nvidia-h100-pcie/all.json", "nvidia-h200-x2/all.json",
            "nvidia-h100-pcie/on-request/memcpy-pinning.json",
            "nvidia-h100-pcie/alone/node.json"} <= set(names), names


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda d: str(d.relative_to(RESULTS)))
def test_no_line_over_120_columns(doc):
    out = show("show", doc)
    wide = [line for line in out.splitlines() if len(line) > WIDTH]
    assert not wide, f"{len(wide)} lines over {WIDTH} columns, e.g. {wide[0]!r}"
    # every module of the document has its table, and every result a row or a heading
    modules = {r["module"] for r in json.loads(doc.read_text())["results"]}
    assert {m for m in modules if f"== {m} ==" in out} == modules
    assert not re.search(r"\b\d(\.\d+)?e[+-]\d", out), "a number printed with an exponent"


def test_parameters_once_per_group_and_context_for_wide():
    doc = RESULTS / "nvidia-h100-pcie" / "all.json"
    out = show("show", doc)
    lines = out.splitlines()
    # each async memcpy case names its API once, in its heading, not on each of its rows
    async_cases = {r["case"] for r in json.loads(doc.read_text())["results"]
                   if r["module"] == "memcpy" and r["params"].get("api") == "hipMemcpyAsync"}
    assert sum("api=hipMemcpyAsync" in line for line in lines) == len(async_cases)
    assert "\nh2d/pinned/async api=hipMemcpyAsync ops_per_sample=1\n" in out
    for context in ("timed=", "coherence=", "figure_meaning=", "grid_blocks", "clock="):
        assert context not in out, context
    # a figure's unit once, in its column's heading: no row says GB/s or us
    rows = [line for line in lines if re.match(r"^ +\S+ +\d", line)]
    assert rows and not [r for r in rows if re.search(r"\d (GB/s|us|ms)\b", r)]
    wide = show("--wide", "show", doc)
    timed = [r for r in json.loads(doc.read_text())["results"]
             if r["params"].get("timed") == "hipMemcpyAsync h2d; HIP events around it"]
    assert wide.count("timed=hipMemcpyAsync h2d; HIP events around it clock=") == len(timed) > 1
    assert "grid_blocks=1048576" in wide


def test_cases_side_by_side_keep_to_one_size():
    """Cases of one record each (pool's, managed's) share a table per size: every
    heading of a measured group names its size."""
    out = show("show", RESULTS / "nvidia-h100-pcie" / "all.json")
    for module in ("managed", "pool"):
        table = out.split(f"== {module} ==")[1].split("\n== ")[0]
        headings = [line for line in table.splitlines()
                    if line and not line.startswith(" ") and "unsupported:" not in line]
        assert headings and all("size=" in h for h in headings), (module, headings)
    assert "\nsize=4K ops_per_sample=1000\n" in out  # pool's first, beside each other


def three_gpus(tmp_path):
    """The H100's memcpy and overlap results as if run with --devices on 3 GPUs."""
    doc = json.loads((RESULTS / "nvidia-h100-pcie" / "all.json").read_text())
    results = []
    for module in ("memcpy", "overlap"):
        for device in range(3):
            for r in doc["results"]:
                if r["module"] == module:
                    r = copy.deepcopy(r)
                    r["params"]["device"] = device
                    results.append(r)
    doc["results"] = results
    path = tmp_path / "three.json"
    path.write_text(json.dumps(doc))
    return path


def test_three_gpus_each_row_says_its_gpu(tmp_path):
    out = show("show", three_gpus(tmp_path))
    assert out.count("== memcpy ==") == 3 and out.count("== overlap ==") == 3
    seen = set()
    for table in out.split("\n== ")[1:]:
        heads = [line for line in table.splitlines() if re.match(r"^  gpu  ", line)]
        rows = [line for line in table.splitlines() if re.match(r"^ +\d+  ", line)]
        assert heads and rows, table[:300]
        gpus = {int(row.split()[0]) for row in rows}
        assert len(gpus) == 1, gpus  # a table per GPU, as a run prints them
        seen |= gpus
    assert seen == {0, 1, 2}
    assert max(len(line) for line in out.splitlines()) <= WIDTH


def test_a_slow_peer_figure_keeps_its_matrix_cell(tmp_path):
    """node's matrices show every figure the document holds, however slow: a peer copy
    at a few hundred MB/s (a link that trained down, a copy staged through the host)
    is a number in its cell, not "n/a"."""
    doc = json.loads((RESULTS / "nvidia-h100-x2" / "together" / "node.json").read_text())
    slow = next(r for r in doc["results"] if r["case"] == "p2p/ce/write"
                and (r["params"]["src"], r["params"]["dst"]) == (0, 1))
    slow["samples_s"] = [s * 1000 for s in slow["samples_s"]]
    slow["gbps_median"] = slow["gbps_median"] / 1000
    gbps = slow["bytes"] / sorted(slow["samples_s"])[len(slow["samples_s"]) // 2] / 1e9
    assert gbps < 1, gbps
    path = tmp_path / "slow.json"
    path.write_text(json.dumps(doc))
    out = show("show", path)
    matrix = out.split("\np2p/ce/write GB/s:")[1].split("\n\n")[0].splitlines()
    row = next(line.split() for line in matrix if line.startswith("gpu0 "))
    assert row[1] == "-" and 0 < float(row[2]) < 1, matrix


def test_a_peer_figure_of_a_gpu_the_topology_does_not_list_has_no_cell(tmp_path):
    """A peer figure of a GPU past those the document's topology lists (a record edited
    in, or left from a run on more GPUs) has no cell to go in: with no other figure of
    its case, no matrix of it is printed."""
    doc = json.loads((RESULTS / "nvidia-h100-x2" / "together" / "node.json").read_text())
    gpus = sum(r["case"] == "topology/gpu" for r in doc["results"])
    peer = [r for r in doc["results"] if r["case"] == "p2p/ce/write"]
    assert gpus == 2 and peer
    path = tmp_path / "edited.json"
    for dst in (1, gpus):  # a GPU listed, then one past them
        peer[0]["params"]["dst"] = dst
        doc["results"] = [r for r in doc["results"] if r["case"] != "p2p/ce/write" or r is peer[0]]
        path.write_text(json.dumps(doc))
        out = show("show", path)
        assert ("\np2p/ce/write GB/s:" in out) is (dst < gpus), out
        assert "\np2p/ce/read GB/s:" in out


def tables_of(text):
    """The non-empty lines a run printed before its summary: the tables, node's topology
    and matrices."""
    out = []
    for line in text.splitlines():
        if line.startswith("hipmembench summary"):
            break
        if line.strip():
            out.append(line)
    return out


SIZE = re.compile(r"(\d+(?:\.\d+)?)([KMGT])")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def numbers(line):
    """The numbers a table line says, whatever the tables' form of the day: figures as
    written (55.08), whole numbers and sizes (raw bytes, or in binary units: 64M,
    15.9G) to 3 significant digits."""
    out = []
    for token in re.split(r"[\s=]+", line):
        m = SIZE.fullmatch(token)
        if m:
            out.append(f"{float(m.group(1)) * 1024 ** ('KMGT'.index(m.group(2)) + 1):.3g}")
        elif NUMBER.fullmatch(token):
            out.append(token if "." in token else f"{int(token):.3g}")
    return out


def within(small, big):
    """small's items, in their order, among big's (big may say more between them)."""
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


@pytest.mark.parametrize("stdout", ["nvidia-h200-x4/all-stdout.txt",
                                    "nvidia-h100-pcie/resolution/a-stdout.txt",
                                    "nvidia-h100-pcie/resolution/b-stdout.txt"])
def test_show_prints_what_the_run_printed(stdout):
    """A committed run's stdout against `show` of its document: every line of its tables,
    the node's topology and peer matrices that holds a figure has a line of show that
    holds its numbers, in their order, in the tables' form of today: sizes in binary
    units, the columns added since (a small copy's time per copy, the peak % where the
    summary has one) between them, and cases beside each other as they fit now. (A run
    prints its tables as show prints them, line for line: test_emulated.py.) The 4xH200
    run printed node's topology and matrices before its table, show after it: the
    lines are matched in any order. The H100 runs printed the chase of their last run
    where show prints that of the runs' pooled samples (so does a run now): its one line
    aside."""
    run = (RESULTS / stdout).read_text()
    doc = RESULTS / (stdout.replace("all-stdout.txt", "all.json") if stdout.endswith("all-stdout.txt")
                     else stdout.replace("-stdout.txt", ".json"))
    shown = show("show", doc)
    lines = [numbers(line) for line in tables_of(shown)]
    by_first = collections.defaultdict(list)
    for i, said in enumerate(lines):
        if said:
            by_first[said[0]].append(i)
    used, unmatched, figures = set(), [], 0
    for line in tables_of(run):
        said = numbers(line)
        if not re.search(r"(^|\s)-?\d+\.\d+(\s|$)", line):
            continue  # headings: their words and parameters go where the groups are now
        figures += 1
        free = [i for i in by_first[said[0]] if i not in used]
        at = next((i for i in free if lines[i] == said), None)
        if at is None:
            at = next((i for i in free if within(said, lines[i])), None)
        if at is None:
            unmatched.append(line)
        else:
            used.add(at)
    assert not unmatched or ("resolution" in stdout and len(unmatched) == 1 and
                             re.fullmatch(r"gpu0 +\S+ +\S+", unmatched[0])), unmatched[:3]
    assert figures > 400, figures
    assert "\nhipmembench summary: " in shown and "cases not ok" in shown.split("\n")[-2] + \
        shown


def test_csv_says_each_results_mark_and_resolution(tmp_path):
    """show -f csv: the mark, whether the result is stable, and its resolution, as a
    document this build wrote says them in runs.resolution and stability (a merge of two
    committed documents of one H100)."""
    doc = tmp_path / "merged.json"
    p = hmb.run("merge", "-o", doc, RESULTS / "nvidia-h100-pcie" / "resolution" / "a.json",
                RESULTS / "nvidia-h100-pcie" / "resolution" / "b.json")
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(io.StringIO(show("--format", "csv", "show", doc))))
    results = json.loads(doc.read_text())["results"]
    assert len(rows) == len(results)
    judged = 0
    for row, r in zip(rows, results):
        res = (r.get("runs") or {}).get("resolution")
        if res:
            judged += 1
            assert abs(float(row["resolution_rel"]) / res["resolution_rel"] - 1) < 1e-5, row
            assert row["stable"] == ("yes" if r["stability"]["stable"] else "no"), row
            assert row["mark"].startswith("~") == (not r["stability"]["stable"]), row
        else:
            assert row["resolution_rel"] == "", row
    assert judged > 400



def test_show_marks_a_result_as_its_run_did(tmp_path):
    """A document whose stability says otherwise than today's rule would (an older build's
    rule, another threshold): show says stable or not, and marks it, as the document does."""
    doc = json.loads((RESULTS / "nvidia-h100-pcie" / "resolution" / "a.json").read_text())
    flipped = [r for r in doc["results"] if (r.get("stability") or {}).get("stable")
               is not None][:40:2]
    for r in flipped:
        r["stability"]["stable"] = not r["stability"]["stable"]
        r["stability"]["meets_target"] = r["stability"]["stable"]
        r["stability"]["reason"] = "as its run judged it"
    path = tmp_path / "flipped.json"
    path.write_text(json.dumps(doc))
    rows = list(csv.DictReader(io.StringIO(show("--format", "csv", "show", path))))
    assert len(rows) == len(doc["results"]) and len(flipped) == 20
    for row, r in zip(rows, doc["results"]):
        if (r.get("stability") or {}).get("stable") is not None:
            assert row["stable"] == ("yes" if r["stability"]["stable"] else "no"), (row, r)
            assert row["mark"].startswith("~") == (not r["stability"]["stable"]), (row, r)

def test_csv_keeps_every_column_and_says_the_direction():
    doc = RESULTS / "nvidia-h100-pcie" / "all.json"
    rows = list(csv.DictReader(io.StringIO(show("--format", "csv", "show", doc))))
    results = json.loads(doc.read_text())["results"]
    assert len(rows) == len(results)
    direction = {(r["module"], r["case"]): r["direction"] for r in rows}
    assert direction[("memcpy", "d2h/pinned/async")] == "d2h"
    assert direction[("memcpy", "d2d/device/async")] == "d2d"
    assert direction[("overlap", "h2d-only/pinned")] == "h2d"
    assert direction[("node", "host/bidir/alone")] == "bidir"
    assert direction[("pool", "course/hipMalloc")] == ""
    # the parameters whole, context too
    first = next(r for r in rows if r["case"] == "h2d/pageable/async")
    assert "timed=hipMemcpyAsync h2d; HIP events around it" in first["params"]


@pytest.mark.parametrize("args,message", [
    (["show"], "show needs a document"),
    (["show", "a.json", "b.json"], "show takes one document; unexpected argument 'b.json'"),
    (["show", "-"], "'-' (standard input) is not one"),
    (["--format", "json", "show", "x.json"], "show: --format json: use table or csv"),
    (["--threshold", "5", "show", "x.json"], "--threshold does not go with show"),
    (["--wide", "info"], "--wide does not go with info"),
    (["show", "missing.json"], "missing.json"),
], ids=["none", "two", "stdin", "json", "threshold", "wide-info", "missing"])
def test_show_refuses_in_one_line(args, message, tmp_path):
    p = hmb.run(*args, cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == "", p.stdout[:300]
    assert len(p.stderr.splitlines()) == 1 and message in p.stderr, p.stderr


def test_show_names_a_document_that_is_not_one(tmp_path):
    (tmp_path / "bad.json").write_text('{"results": []}')
    p = hmb.run("show", "bad.json", cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("hipmembench: show: bad.json: not a hipmembench document")


def test_docs_example_is_what_show_prints():
    """docs/reading.md's example table: lines of show's output for the H100, in their order."""
    text = (hmb.ROOT / "docs" / "reading.md").read_text()
    marker = "<!-- lines of `hipmembench show results/nvidia-h100-pcie/all.json`"
    block = text.split(marker, 1)[1].split("```\n", 1)[1].split("```", 1)[0]
    out = show("show", RESULTS / "nvidia-h100-pcie" / "all.json").splitlines()
    at = 0
    for line in filter(None, block.splitlines()):
        assert line in out[at:], f"docs/reading.md shows {line!r}, show does not (after line {at})"
        at = out.index(line, at) + 1


@pytest.mark.parametrize("system", sorted(p.parent.name for p in RESULTS.glob("*/all-table.txt")))
def test_committed_tables_are_what_show_prints(system):
    """results/SYSTEM/all-table.txt is `hipmembench show all.json`: the tables of the
    committed document, made again where the table changes."""
    folder = RESULTS / system
    doc = (folder / "all.json").relative_to(hmb.ROOT)  # the summary names it so
    assert (folder / "all-table.txt").read_text() == show("show", doc, cwd=hmb.ROOT), \
        f"make it again, from the top: build/hipmembench show {doc} > {doc.parent}/all-table.txt"
