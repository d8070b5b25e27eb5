"""test_summary.py - `hipmembench summary`: each committed document's headline figures
on one screen (40 lines of 100 columns), the values checked against what this file
computes from the JSON on its own; several documents side by side with ratios that
know which way is better; the GPU of a multi-GPU document; anomalies; Markdown and -o;
bad documents (one line, exit 2); compare printing the summary first; and the HTML
report opened in headless Chromium (no console errors, every headline shown, a plot
with a legend naming every system)."""
import csv
import html
import io
import json
import math
import os
import pathlib
import re
import shutil
import statistics

import pytest

import hmb
import synthetic
import test_corpus

# One process runs the file under pytest-xdist (make test TEST_JOBS=N): its
# module-scoped fixture is made once.
pytestmark = pytest.mark.xdist_group("test_summary")

RESULTS = hmb.ROOT / "results"
H100 = RESULTS / "nvidia-h100-pcie" / "all.json"
H200_X2 = RESULTS / "nvidia-h200-x2" / "all.json"
H100_X2 = RESULTS / "nvidia-h100-x2" / "all.json"
QUICK = RESULTS / "nvidia-h100-pcie" / "all-quick.json"
LINES, COLUMNS = 40, 100


def summary(*args, timeout=120):
    return hmb.run("summary", *args, timeout=timeout)


def load(path):
    with open(path) as f:
        return json.load(f)


def fits_one_screen(out):
    lines = out.splitlines()
    assert 3 <= len(lines) <= LINES, f"{len(lines)} lines:\n{out}"
    wide = [line for line in lines if len(line) > COLUMNS]
    assert not wide, wide
    return lines


# ---- what the headlines should read, from the JSON --------------------------

def gpu_of(r):
    p = r.get("params") or {}
    if isinstance(p.get("device"), (int, float)):
        return int(p["device"])
    if r["module"] == "node" and isinstance(p.get("gpu"), (int, float)):
        return int(p["gpu"])
    return None


def ok(doc, module, case, gpu=0):
    """The ok records of module/case on GPU gpu (or none named)."""
    return [r for r in doc["results"] if r["status"] == "ok" and r["module"] == module and
            r["case"] == case and gpu_of(r) in (None, gpu)]


def largest(records):
    return max(records, key=lambda r: r["params"]["size"]) if records else None


def metric(r, name):
    return ((r.get("metrics") or {}).get(name) or {}).get("value")


def link_peak(doc):
    return doc["device"]["host_link"]["peak_gbps"]


def expected(doc, gpu=0):
    """{headline: (value, unit, peak percent or None)} for what doc holds."""
    out = {}

    def gbps(name, module, case, peak=None):
        r = largest(ok(doc, module, case, gpu))
        if r and r.get("gbps_median"):
            out[name] = (r["gbps_median"], "GB/s", peak(r) if peak else None)

    record_peak = lambda r: 100 * r["peak_fraction"]  # noqa: E731
    gbps("pinned h2d", "memcpy", "h2d/pinned/async", record_peak)
    gbps("pinned d2h", "memcpy", "d2h/pinned/async", record_peak)
    gbps("pinned bidir", "overlap", "bidirectional/concurrent",
         lambda r: 100 * r["gbps_median"] / (2 * link_peak(doc)))
    gbps("pageable h2d", "memcpy", "h2d/pageable/async", record_peak)
    gbps("pageable d2h", "memcpy", "d2h/pageable/async", record_peak)
    dev = doc["device"]
    hbm = dev["memory_clock_khz"] * 1e3 * 2 * dev["memory_bus_width_bits"] / 8 / 1e9
    # a copy reads and writes every byte it counts: half the memory's peak
    gbps("d2d copy", "memcpy", "d2d/device/async", lambda r: 100 * r["gbps_median"] / (hbm / 2))
    for d in ("h2d", "d2h"):
        small = [r for r in ok(doc, "memcpy", f"{d}/pinned/async", gpu) if r["params"]["size"] == 4096]
        if small:
            out[f"4K {d} latency"] = (small[0]["stats_s"]["median"] * 1e6, "us", None)
    pipes = ok(doc, "overlap", "pipeline/pinned/balanced", gpu)
    if pipes:
        deepest = max(pipes, key=lambda r: (r["params"]["streams"], r["params"]["chunks"]))
        out["overlap efficiency"] = (metric(deepest, "overlap_efficiency"), "ratio", None)
    gbps("managed 1st touch", "managed", "touch/gpu-first",
         lambda r: 100 * r["gbps_median"] / link_peak(doc))
    gbps("managed on demand", "managed", "on-demand/first-kernel",
         lambda r: 100 * r["gbps_median"] / link_peak(doc))
    gbps("managed prefetch", "managed", "prefetch/prefetch-only",
         lambda r: 100 * r["gbps_median"] / link_peak(doc))
    for stride in ("4K", "64K", "2M"):
        r = ok(doc, "xnack", f"managed/fault-latency/stride={stride}/random", gpu)
        if r and metric(r[0], "us_per_fault") is not None:
            out[f"fault latency {stride}"] = (metric(r[0], "us_per_fault"), "us", None)
    r = largest(ok(doc, "pool", "course/default-pool", gpu))
    if r:
        out["pool vs hipMalloc"] = (metric(r, "speedup_over_hipMalloc"), "x", None)
    vmm, realloc = (largest(ok(doc, "vmm", f"grow/{v}/fixed-step", gpu))
                    for v in ("vmm-extend", "realloc-copy"))
    if vmm and realloc:
        out["VMM vs realloc"] = (metric(realloc, "total_s") / metric(vmm, "total_s"), "x", None)
    for d in ("h2d", "d2h", "bidir"):
        r = [x for x in ok(doc, "node", f"host/{d}/all") if x["params"].get("gpus", 1) > 1]
        if r:
            gpus = r[0]["params"]["gpus"]
            peak = link_peak(doc) * gpus * (2 if d == "bidir" else 1)
            out[f"all GPUs {d}"] = (r[0]["gbps_median"], "GB/s", 100 * r[0]["gbps_median"] / peak)
    for name, case, what in (("P2P copy", "p2p/ce/write", "gbps"),
                             ("P2P bidir", "p2p/ce/bidir-write", "gbps"),
                             ("peer latency", "p2p/latency", "ns_per_load")):
        r = [x for x in ok(doc, "node", case) if x["params"].get("src") == gpu]
        if r:
            out[name] = (r[0]["gbps_median"], "GB/s", None) if what == "gbps" else \
                (metric(r[0], what), "ns", None)
    return out


def table(out):
    """{headline: (value, unit, peak percent or None)} as one document's summary reads."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("figure "))
    rows = {}
    for line in lines[start + 1:]:
        if line.startswith("anomalies:"):
            break
        name, rest = line[:18].strip(), line[18:].split()
        rows[name] = (float(rest[0]), rest[1], None if rest[2] == "-" else float(rest[2][:-1]))
    return rows


def close(a, b, rel=0.005):
    return abs(a - b) <= rel * abs(b) + 1e-3


@pytest.mark.parametrize("path", [H100, H200_X2, H100_X2, QUICK], ids=lambda p: p.parent.name +
                         "/" + p.name)
def test_committed_document_on_one_screen_with_its_headlines(path):
    p = summary(path)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    fits_one_screen(p.stdout)
    want, got = expected(load(path)), table(p.stdout)
    assert set(got) == set(want), (set(got) ^ set(want), p.stdout)
    for name, (value, unit, peak) in want.items():
        assert got[name][1] == unit, (name, got[name], unit)
        assert close(got[name][0], value), (name, got[name][0], value)
        assert (got[name][2] is None) == (peak is None), (name, got[name], peak)
        if peak is not None:
            assert abs(got[name][2] - peak) <= 0.51, (name, got[name][2], peak)
    assert "anomalies:" in p.stdout and "not throttled" in p.stdout


def test_the_h100_reads_what_its_json_holds():
    """The headlines most people paste, spelled out: the H100's pinned copies at 1 GiB,
    its device copy against half the HBM peak, and the node rows left out on one GPU."""
    out = summary(H100).stdout
    assert re.search(r"^pinned h2d +55\.08 GB/s +87% +~o +1G;", out, re.M), out
    assert re.search(r"^d2d copy +1503 GB/s +90% ", out, re.M), out
    assert re.search(r"^4K h2d latency +3\.60 us ", out, re.M), out
    assert "all GPUs" not in out and "P2P" not in out
    # the reasons as far as the screen allows, the rest counted; Markdown lists them all
    assert re.search(r"unsupported node topology/pair: one GPU visible", out) or \
        re.search(r"\.\.\. \d+ more reasons", out), out
    assert "unsupported node topology/pair: one GPU visible" in summary("-f", "markdown", H100).stdout


H200_X4 = RESULTS / "nvidia-h200-x4" / "all.json"
LABEL = 22  # the headline's column in a summary of one document


@pytest.mark.parametrize("paths", [[H100], [H200_X4], [H200_X2], [H100, H200_X4],
                                   [H100, H200_X2, H100_X2, H200_X4]],
                         ids=["h100", "h200x4", "h200x2", "h100-h200x4", "four"])
@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_no_line_is_cut_inside_a_word(paths, fmt):
    """A line that does not fit is cut after a whole word and says so (" ..."); every
    marked headline the summary lists is there whole."""
    args = ["-f", "markdown"] if fmt == "markdown" else []
    out = summary(*args, *paths).stdout
    whole = summary("-f", "markdown", *paths).stdout  # markdown cuts nothing
    headlines = re.findall(r"^\| ([a-zA-Z0-9 ]+?) \| ", whole, re.M)
    in_list = False
    for line in out.splitlines():
        in_list = line.startswith("  marked headlines: ") or (in_list and line.startswith("    "))
        if line.endswith("...") and not re.search(r"\.\.\. \d+ more reasons$", line):
            assert line.endswith(" ..."), line
            kept = line[:-4].strip()
            if in_list:  # a list is cut after a whole item: a headline and its marks
                assert kept.split(", ")[-1].rsplit(" ", 1)[0] in headlines, \
                    f"cut inside a name: {line!r}"
                continue
            at = whole.find(kept)
            assert at >= 0, line
            assert at + len(kept) == len(whole) or not whole[at + len(kept)].isalnum(), \
                f"cut inside a word: {line!r}"
    if len(paths) == 1 and fmt == "text":
        text = " ".join(out.split())
        if "marked headlines: " in text:
            listed = text.split("marked headlines: ")[1].split(" cases not ok")[0]
            rows = out.split("\nfigure ")[1].split("\nanomalies:")[0].splitlines()[1:]
            names = [row[:LABEL].strip() for row in rows]
            for item in listed.rstrip(" .").split(", "):
                assert item.rsplit(" ", 1)[0] in names, (item, listed)


def test_headlines_are_paired_at_the_base_identity(tmp_path):
    """Several documents: every column holds the base's figure at the base's size and
    parameters (the H100's managed prefetch is at 256 MiB; the 4xH200 document's own pick
    would be 1 GiB), the size is shown in every format, and a document without a figure of
    that identity says so instead of giving another size."""
    h200 = load(H200_X4)
    want = next(r["gbps_median"] for r in h200["results"] if r["module"] == "managed" and
                r["case"] == "prefetch/prefetch-only" and r["status"] == "ok" and
                r["params"]["size"] == 256 << 20 and r["params"].get("device") == 0)
    text = summary(H100, H200_X4).stdout
    row = next(line for line in text.splitlines() if line.startswith("managed prefetch"))
    assert row.split()[3:5] == ["256M", "50.2"] and close(float(row.split()[5]), want), row
    md = summary("-f", "markdown", H100, H200_X4).stdout
    assert f"| managed prefetch | GB/s | 256M | 50.15 (80%) ~ | {want:.2f} (74%)" in md, md
    # the 4xH200 without its 256 MiB prefetches: said, not replaced by another size
    h200["results"] = [r for r in h200["results"] if not (
        r["module"] == "managed" and r["case"] == "prefetch/prefetch-only" and
        r["params"].get("size") == 256 << 20)]
    lacking = tmp_path / "lacking.json"
    lacking.write_text(json.dumps(h200))
    row = next(line for line in summary(H100, lacking).stdout.splitlines()
               if line.startswith("managed prefetch"))
    assert row.split()[3:6] == ["256M", "50.2", "n/a"], row
    assert "| managed prefetch | GB/s | 256M | 50.15 (80%) ~ | no figure at 256M |" in \
        summary("-f", "markdown", H100, lacking).stdout
    html = summary("-f", "html", H100, lacking).stdout
    assert "no figure at 256M" in html


def test_a_node_says_what_its_figures_say_together(tmp_path):
    """The 4xH200: host copies with every GPU at once do not scale (d2h 66% of the GPUs
    alone, 57% of their links; bidir 43%, 35%), named with the numbers of the document;
    a peer pair and a GPU made slow on purpose are named against their median."""
    doc = load(H200_X4)
    d2h = next(r for r in doc["results"] if r["case"] == "host/d2h/all")
    text = " ".join(summary(H200_X4).stdout.split())
    sum_alone = d2h["metrics"]["sum_alone_gbps"]["value"]
    assert f"node: host d2h with every GPU at once {d2h['gbps_median']:.1f} GB/s: " \
        f"{100 * d2h['metrics']['vs_sum_alone']['value']:.0f}% of the 4 GPUs alone " \
        f"({sum_alone:.1f}), 57% of their links (252)" in text, text
    assert "node: host bidir with every GPU at once 174.7 GB/s: 43% of the 4 GPUs alone" in text
    assert "host h2d with every GPU at once" not in text  # 182.5 of 4 alone: it scales
    for r in doc["results"]:
        slow = (r["case"] == "p2p/ce/read" and (r["params"]["src"], r["params"]["dst"]) == (2, 3)) \
            or (r["case"] == "host/h2d/alone" and r["params"].get("device", r["params"].get("gpu")) == 2)
        if slow:
            r["samples_s"] = [x * 2 for x in r["samples_s"]]
    path = tmp_path / "slow.json"
    path.write_text(json.dumps(doc))
    text = " ".join(summary("-f", "markdown", path).stdout.split())
    assert re.search(r"node: p2p/ce/read 2->3 18\d\.\d GB/s: 5\d% of the median of its 12 pairs "
                     r"\(377\.\d\)", text), text
    assert re.search(r"node: host/h2d/alone on GPU 2 \d+\.\d GB/s: 5\d% of the median of the 4 "
                     r"GPUs", text), text


def test_the_resolution_line_counts_what_the_document_says():
    """The summary's resolution line, against each record's resolution as show -f csv gives
    it (the same model: stats/resolution.h): how many figures of several runs can show 5% and
    10% between two documents like it, and each module too noisy for 10% with its median
    resolution and what it was measured over."""
    import csv
    path = hmb.ROOT / "results" / "nvidia-h100-pcie" / "resolution" / "a.json"
    rows = list(csv.DictReader(io.StringIO(hmb.run("-f", "csv", "show", path).stdout)))
    res = [(r["module"], float(r["resolution_rel"])) for r in rows if r["resolution_rel"]]
    text = " ".join(summary(path).stdout.split())
    five = sum(x <= 0.05 for _, x in res)
    ten = sum(x <= 0.10 for _, x in res)
    assert len(res) > 400 and five < ten < len(res)
    assert f"resolution: of {len(res)} figures, {five} can show a 5% change from one document " \
        f"to the next, {ten} 10%" in text, text
    modules = {}
    for m, x in res:
        modules.setdefault(m, []).append(x)
    noisy = {m: statistics.median(v) for m, v in modules.items() if statistics.median(v) > 0.10}
    named = re.findall(r"([a-z]+) (\d+)% \(runs\)",
                       text.split("too noisy for 10%: ")[1].split(" marked headlines")[0])
    assert noisy and {m: int(v) for m, v in named} == {m: round(100 * x) for m, x in noisy.items()}


def test_one_run_says_its_resolution_is_not_measured(tmp_path, sample_doc):
    doc = load(sample_doc)
    for r in doc["results"]:
        r.pop("runs", None)
    path = tmp_path / "one.json"
    path.write_text(json.dumps(doc))
    text = " ".join(summary(path).stdout.split())
    assert "resolution: one run: how far the figures repeat from one process to the next is " \
        "not measured" in text, text


def test_a_multi_gpu_document_gives_gpu_0_and_gpu_picks_another():
    doc = load(H200_X2)
    p = summary(H200_X2)
    assert "GPU 0 of 2" in p.stdout
    assert close(table(p.stdout)["pinned h2d"][0], expected(doc, 0)["pinned h2d"][0])
    q = summary("--gpu", "1", H200_X2)
    assert q.returncode == 0 and "GPU 1 of 2" in q.stdout, q.stderr
    one = expected(doc, 1)
    for name in ("pinned h2d", "d2d copy", "4K d2h latency", "P2P copy", "peer latency"):
        assert close(table(q.stdout)[name][0], one[name][0]), name
    bad = summary("--gpu", "3", H200_X2)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "no results of GPU 3" in bad.stderr, bad.stderr


def test_the_document_of_all_keeps_its_summary(sample_doc):
    """What all writes (json_write.c from a report, as unit_tests --sample-json makes it):
    the headlines it found, each with the record it came from, and the anomalies."""
    import hmbdoc
    doc = hmbdoc.assert_valid(sample_doc)
    s = doc["summary"]
    assert [f["name"] for f in s["figures"]] == ["pinned h2d", "4K h2d latency"]
    r = doc["results"][0]
    pinned, latency = s["figures"]
    assert (pinned["case"], pinned["params"], pinned["unit"]) == (r["case"], r["params"], "GB/s")
    assert close(pinned["value"], r["gbps_median"]) and pinned["higher_is_better"] is True
    assert close(pinned["peak_fraction"], r["peak_fraction"])
    assert close(latency["value"], r["stats_s"]["median"] * 1e6) and not latency["higher_is_better"]
    a = s["anomalies"]
    assert (a["records"], a["failed"], a["unsupported"], a["unstable"], a["gpu_shared"]) == \
        (4, 1, 1, 1, 1)
    assert [x["status"] for x in a["not_ok"]] == ["failed", "unsupported"]
    # one run: no figure carries a resolution, no family is named too noisy
    assert a["resolution"] == {"figures": 0, "within_5": 0, "within_10": 0,
                               "too_noisy_for_10": []}, a["resolution"]


# ---- several documents ----------------------------------------------------------

def columns(out):
    """{headline: [(value text, ratio text), ...]} of a summary of several documents,
    the first column's ratio empty."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("figure "))
    shift = 7 if " at " in lines[start] else 0  # the size each row is compared at
    rows = {}
    for line in lines[start + 1:]:
        if line.startswith("systems") or line.startswith("at ("):
            break
        cells = [(line[24 + shift:30 + shift].strip(), "")]
        for k in range(30 + shift, len(line), 11):
            cells.append((line[k:k + 5].strip(), line[k + 6:k + 11].strip()))
        rows[line[:18].strip()] = cells
    return rows


def ratio_text(r):
    """The summary's ratio, as docs/summary.md describes it: above 1 better, two
    decimals below 10 (enough for a 5% change), whole from 10, in 5 columns."""
    return ">99x" if r >= 99.5 else f"{r:.0f}x" if r >= 9.995 else f"{r:.2f}x" if r >= 0.005 \
        else "<0.01"


def test_committed_documents_side_by_side():
    docs = [load(p) for p in (H100, H200_X2, H100_X2)]
    p = summary(H100, H200_X2, H100_X2)
    assert p.returncode == 0, p.stderr
    lines = fits_one_screen(p.stdout)
    # documents of other builds than the first's, named in one line
    assert lines[1] == "note: H200x2, H100x2 of another build (a change of method reads as one " \
        "of the machine)", lines[1]
    assert re.match(r"figure +at +H100 +H200x2 +H100x2$", lines[2]), lines[2]
    rows, want = columns(p.stdout), [expected(d) for d in docs]
    higher = {"GB/s": True, "ratio": True, "x": True, "us": False, "ns": False}
    for name, base in want[0].items():
        for k in (1, 2):
            value, unit, _ = want[k][name]
            r = value / base[0] if higher[unit] else base[0] / value
            assert rows[name][k][1] == ratio_text(r), (name, k, rows[name][k], r)
    assert rows["d2d copy"][1] == ("2113", "1.41x")      # the H200's faster memory
    assert rows["4K d2h latency"][1][1] == "0.54x"       # a longer time reads worse
    assert rows["pinned bidir"][2][1] == "0.96x"         # a 4% change shows
    assert rows["P2P copy"][0] == ("-", "")              # one GPU: no peers
    assert "H200x2    vm: NVIDIA H200 (sm_90), GPU 0 of 2" in p.stdout


def test_the_html_note_names_the_noise_band_only_for_a_document_of_several_runs():
    """The report's charts draw a band of run-to-run noise only for figures
    measured over several runs; its note speaks of the band only then."""
    seen = set()
    for path in (H100, H100_X2):
        runs = any(isinstance(r.get("runs"), dict) and r["runs"].get("count", 0) >= 2
                   for r in json.loads(path.read_text())["results"])
        p = summary("-f", "html", path)
        assert p.returncode == 0, p.stderr
        assert ("the band, +-1 sigma of the figure's run-to-run noise" in p.stdout) == runs, path
        seen.add(runs)
    assert seen == {True, False}


def declared_charts():
    """The charts of what each module's headline varies with, as its folder declares
    them (src/engine/chart.h): {module: ([what of each chart], charts_about)}."""
    out = {}
    for src in sorted((hmb.ROOT / "bench").glob("*/*.c")):
        text = src.read_text()
        table = re.search(r"static const struct hmb_chart charts\[\] = \{(.*?)\n\};", text, re.S)
        about = re.search(r'\.charts_about = "([^"]+)"', text)
        if table or about:
            out[src.parent.name] = (re.findall(r'\.what = "([^"]+)"', table.group(1)),
                                    about.group(1))
    return out


def test_the_report_draws_the_charts_each_module_declares():
    """Each chart a module declares is drawn in that module's section of the report,
    and the note names what they show, in the order the modules run."""
    declared = declared_charts()
    assert declared and all(whats for whats, _ in declared.values()), declared
    p = summary("-f", "html", H100)
    assert p.returncode == 0, p.stderr
    for module, (whats, _) in declared.items():
        section = p.stdout.split(f'<h3 id="module-{module}">')[1].split("<h3 ")[0]
        for what in whats:
            assert what in section, (module, what)
    order = [m for m in hmb.module_names() if m in declared]
    assert ("Then what the module's headline varies with: " +
            "; ".join(declared[m][1] for m in order) + ".") in p.stdout


@pytest.mark.parametrize("n", [2, 3])
def test_the_same_system_twice_is_numbered_by_its_column(n):
    """The same document n times: its short name, then NAME#2 (and NAME#3), so
    that no two columns read alike."""
    p = summary(*[H100] * n)
    assert p.returncode == 0, p.stderr
    head = p.stdout.splitlines()[1].split()
    assert head == ["figure", "at", "H100"] + [f"H100#{k}" for k in range(2, n + 1)], head


def about(out, name):
    """The line or two that a summary of several documents gives document `name`."""
    lines = out.split("\nsystems, anomalies", 1)[1].splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"  {name} "))
    more = [line for line in lines[at + 1:at + 2] if line.startswith(" " * 12)]
    return "\n".join([lines[at]] + more)


def test_seven_committed_documents_fit_one_screen():
    """Every headline row, seven columns and a line per document."""
    paths = [H100, H200_X2, H100_X2, H100, H200_X2, H100_X2, QUICK]
    p = hmb.run("summary", *[x.relative_to(hmb.ROOT) for x in paths], cwd=hmb.ROOT)
    assert p.returncode == 0, p.stderr
    lines = fits_one_screen(p.stdout)
    assert lines[1].startswith("note: H200x2, H100x2, H200x2#5, H100x2#6 of another build")
    assert lines[2].split() == ["figure", "H100", "H200x2", "H100x2", "H100#4", "H200x2#5",
                                "H100x2#6", "H100#7"], lines[2]
    rows = columns(p.stdout)
    assert len(rows) == 23
    # the last column whole: the quick run's values at the base's sizes, each with its
    # ratio; where the quick run has no figure at the base's size (its largest copy is
    # 16M, the base's 1G), n/a, not another size's figure
    lacking = 0
    for name, (value, _, _) in expected(load(QUICK)).items():
        shown, ratio = rows[name][6]
        if shown == "n/a":
            lacking += 1
            continue
        assert abs(float(shown) - value) <= 0.01 * value + 0.006, (name, shown, value)
        assert re.fullmatch(r"[0-9]\.[0-9]{2}x|[0-9]+x|>99x|<0\.01", ratio), (name, ratio)
    assert rows["pinned h2d"][6][0] == "n/a" and rows["4K h2d latency"][6][0] != "n/a"
    assert 0 < lacking < len(rows)
    assert "at (the base's size, every column): pinned h2d 1G, pinned d2h 1G," in p.stdout
    assert str(H100.relative_to(hmb.ROOT)) in about(p.stdout, "H100")
    assert str(QUICK.relative_to(hmb.ROOT)) in about(p.stdout, "H100#7")


def synthetic_doc(frame, factor, name, failed=False, throttled=False):
    """A document whose copies take factor times the base's time: a pinned h2d
    bandwidth at 64M and a 4 KiB latency."""
    results = []
    for size, t in ((4096, 4e-6), (1 << 26, 1.25e-3)):
        s = [t * factor * (1 + 0.001 * i) for i in range(10)]
        results.append(synthetic.record("memcpy", "h2d/pinned/async",
                                        {"size": size, "direction": "h2d", "host_memory": "pinned"},
                                        s, nbytes=size))
    if failed:
        r = synthetic.record("memcpy", "d2h/pinned/async", {"size": 4096}, [1e-6])
        r.update(status="failed", reason="hipMemcpyAsync(...) failed: out of memory")
        results.append(r)
    doc = synthetic.document(frame, results, hostname=f"node-{name}")
    doc["device"]["name"] = f"{name} 80GB"
    if throttled:
        doc["telemetry"]["samples"].append({
            "module": "memcpy", "when": "after", "sm_clock_mhz": 900, "memory_clock_mhz": None,
            "temperature_c": 95, "power_w": 700, "pcie_generation": 5, "pcie_width": 16,
            "pcie_max_generation": 5, "pcie_max_width": 16, "throttle_reasons_mask": 8,
            "throttle_reasons": "hw thermal slowdown", "throttled": True, "processes": None})
    return doc


def test_seven_systems_fit_one_screen_with_direction_aware_ratios(tmp_path, sample_doc):
    """Seven documents, the second twice as slow and the third twice as fast as
    the first: bandwidth and latency both read 0.50x and 2.00x (above 1 better),
    whichever way their units count."""
    factors = [1, 2, 0.5, 1, 1, 1, 1]
    paths = []
    for i, f in enumerate(factors):
        doc = synthetic_doc(sample_doc, f, f"G{i}", failed=i == 1, throttled=i == 2)
        paths.append(synthetic.write(tmp_path / f"d{i}.json", doc))
    p = summary(*paths)
    assert p.returncode == 0, p.stderr
    lines = fits_one_screen(p.stdout)
    assert lines[1].split() == ["figure"] + [f"G{i}" for i in range(7)], lines[1]
    rows = columns(p.stdout)
    assert [r for _, r in rows["pinned h2d"]] == ["", "0.50x", "2.00x"] + ["1.00x"] * 4, rows
    assert [r for _, r in rows["4K h2d latency"]] == ["", "0.50x", "2.00x"] + ["1.00x"] * 4, rows
    median = statistics.median(1 + 0.001 * i for i in range(10))
    assert rows["pinned h2d"][0][0] == f"{(1 << 26) / (1.25e-3 * median) / 1e9:.1f}"
    assert rows["pinned h2d"][1][0] == f"{(1 << 26) / (2.5e-3 * median) / 1e9:.1f}"
    assert rows["4K h2d latency"][1][0] == f"{8 * median:.2f}"
    assert "1 failed" in about(p.stdout, "G1") and "0 failed" in about(p.stdout, "G0")
    assert "THROTTLED: memcpy (hw thermal slowdown)" in about(p.stdout, "G2"), p.stdout
    assert "G1: failed memcpy d2h/pinned/async: hipMemcpyAsync(...) failed" in p.stdout


def test_one_document_names_its_anomalies(tmp_path, sample_doc):
    doc = synthetic_doc(sample_doc, 1, "A", failed=True, throttled=True)
    p = summary(synthetic.write(tmp_path / "a.json", doc))
    assert p.returncode == 0, p.stderr
    assert "telemetry: THROTTLED after memcpy (hw thermal slowdown)" in p.stdout, p.stdout
    assert "cases not ok: 1 failed, 0 unsupported, 0 skipped of 3" in p.stdout
    assert "    failed memcpy d2h/pinned/async: hipMemcpyAsync(...) failed: out of memory" in p.stdout


def test_a_module_declares_the_headline_the_summary_prints(tmp_path, sample_doc):
    """The probe, a test-only module (HMB_TEST_MODULES=1), declares a headline of
    its own in bench/selftest/: the summary of a document of its records prints it
    (text, Markdown, the report) with its figure; without the module, no such line.
    The modules' own declarations, not a table of the summary's, make the lines."""
    name, case, params, figure, what = hmb.declared_headline("bench/selftest/selftest.c",
                                                             "probe_headlines")
    assert (params, figure) == ("", "time")
    samples = [2e-6 * (1 + 0.01 * i) for i in range(10)]
    doc = synthetic.document(sample_doc, [
        synthetic.record("probe", case, {}, samples),
        synthetic.record("probe", "free-memory", {}, [1e-3] * 10)])
    path = synthetic.write(tmp_path / "probe.json", doc)
    env = {k: v for k, v in os.environ.items() if k != "HMB_TEST_MODULES"}
    with_probe = dict(env, HMB_TEST_MODULES="1")
    p = hmb.run("summary", path, env=with_probe)
    assert p.returncode == 0, p.stderr
    rows = [line for line in p.stdout.splitlines() if line.startswith(name + " ")]
    assert len(rows) == 1, p.stdout
    value, unit = rows[0][len(name):].split()[:2]
    assert unit == "us" and float(value) == pytest.approx(1e6 * statistics.median(samples),
                                                          rel=0.01), rows
    assert rows[0].endswith(what), rows
    md = hmb.run("summary", "-f", "markdown", path, env=with_probe)
    assert f"| {name} | us |" in md.stdout and what in md.stdout, md.stdout
    report = hmb.run("summary", "-f", "html", path, env=with_probe)
    assert f"<tr><td>{html.escape(name)}</td>" in report.stdout
    p = hmb.run("summary", path, env=env)
    assert p.returncode == 0 and name not in p.stdout, p.stdout


# ---- bad input, formats, compare ------------------------------------------------

@pytest.mark.parametrize("what", ["missing", "folder", "truncated", "foreign", "empty", "fifo"])
def test_a_document_that_cannot_be_read_is_one_line_exit_2(tmp_path, what):
    path = tmp_path / f"{what}.json"
    if what == "folder":
        path.mkdir()
    elif what == "truncated":
        path.write_text(H100.read_text()[:5000])
    elif what == "foreign":
        path.write_text('{"name": "something else"}')
    elif what == "empty":
        path.write_text("")
    elif what == "fifo":
        os.mkfifo(path)
    p = summary(H100, path)
    assert p.returncode == 2 and p.stdout == "", (p.returncode, p.stdout[:300])
    assert p.stderr.count("\n") == 1 and f"{what}.json" in p.stderr, p.stderr


@pytest.mark.parametrize("args,message", [
    ([], "summary needs at least one document"),
    (["-f", "json"], "--format json is not a summary format"),
    (["-o", "-"], "--output - is standard output"),
    (["--threshold", "5"], "--threshold does not go with summary"),
    (["-", "-"], "'-' (standard input) can be given once"),
])
def test_bad_usage(args, message):
    p = hmb.run("summary", *args, *([H100] if args and args[0] != "-" else []))
    assert p.returncode == 2 and message in p.stderr and p.stdout == "", p.stderr
    assert p.stderr.count("\n") == 1


def test_html_goes_with_summary_only():
    p = hmb.run("-f", "html", "compare", H100, H100)
    assert p.returncode == 2 and "--format html is not a comparison format" in p.stderr
    q = hmb.run("-f", "html", "--dry-run", "memcpy")
    assert q.returncode == 2 and "--format html goes with summary" in q.stderr


def test_markdown(tmp_path):
    p = summary("-f", "markdown", H100, H200_X2)
    assert p.returncode == 0, p.stderr
    assert "| figure | unit | at | H100 | H200x2 |" in p.stdout
    assert re.search(r"^\| pinned h2d \| GB/s \| 1G \| 55\.08 \(87%\) ~o \| 55\.54 \(88%\) 1\.01x \|$",
                     p.stdout, re.M), p.stdout
    assert re.search(r"^\| 4K d2h latency \| us \| 4K \| 2\.83 ~ \| 5\.28 0\.54x \|$", p.stdout, re.M)
    assert "## Anomalies" in p.stdout and "## Systems" in p.stdout
    assert "| host | vm | vm |" in p.stdout


def test_output_file_is_written_whole(tmp_path):
    out = tmp_path / "report.md"
    p = summary("-f", "markdown", "-o", out, H100)
    assert p.returncode == 0 and p.stdout == "", p.stderr
    assert out.read_text().startswith("# hipmembench summary\n")
    assert out.read_text().endswith("|\n") and sorted(os.listdir(tmp_path)) == ["report.md"]
    bad = summary("-o", tmp_path / "nowhere" / "x.html", H100)
    assert bad.returncode == 2 and "nowhere/x.html" in bad.stderr and bad.stderr.count("\n") == 1


def test_standard_input_once():
    p = hmb.run("summary", "-", input=H100.read_text())
    assert p.returncode == 0 and "pinned h2d" in p.stdout and "  -\n" in p.stdout, p.stderr


def test_compare_prints_the_summary_first():
    p = hmb.run("compare", H100, H200_X2)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("hipmembench summary of 2 documents")
    head, _, rest = p.stdout.partition("\n\n")
    fits_one_screen(head)
    assert rest.startswith(f"base {H100}:") and f"{H200_X2} vs {H100}" in rest
    csv = hmb.run("--format", "csv", "compare", H100, H100)
    assert csv.stdout.startswith("base_file,other_file,"), csv.stdout[:200]


def test_compare_prints_the_summary_first_of_standard_input_too():
    p = hmb.run("compare", "-", H200_X2, input=H100.read_text())
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("hipmembench summary of 2 documents")
    by_name = hmb.run("compare", H100, H200_X2).stdout
    assert p.stdout.count("\n") == by_name.count("\n")
    # past the summary (which shortens long names), what compare prints of it by name
    assert p.stdout.partition("\n\n")[2] == by_name.partition("\n\n")[2].replace(str(H100), "-")


@pytest.mark.parametrize("case", test_corpus.load("docs.jsonl"))
def test_corpus_documents(case, tmp_path):
    """Every odd document of the corpus: refused in one line where compare refuses
    it, else a summary of printable lines within one screen."""
    doc = tmp_path / "doc.json"
    test_corpus.write_doc(case, doc)
    p = hmb.run("summary", doc, cwd=tmp_path, timeout=120)
    if case["exit"] == 2:
        assert p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1, p.stderr
    else:
        assert p.returncode == 0, p.stderr
        fits_one_screen(p.stdout)
        assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f]", p.stdout)


# ---- the HTML report in a browser -------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("python3-selenium is not installed (Debian: python3-selenium)")
    if not CHROMIUM or not CHROMEDRIVER:
        pytest.skip("Chromium is not installed (Debian: chromium chromium-driver)")
    options = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1400,1000"):
        options.add_argument(a)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield Page(driver)
    driver.quit()


# What an element's query brings back at once: its words as shown (an SVG text's
# tooltip left out), its box, its attributes, its colours, whether it is shown.
QUERY_JS = """
const [css, within] = arguments;
const base = within ? document.querySelector(`[data-query="${within}"]`) : document;
window.queried = window.queried || 0;
return Array.from(base.querySelectorAll(css)).map(e => {
  if (!e.hasAttribute('data-query')) e.setAttribute('data-query', String(++window.queried));
  const r = e.getBoundingClientRect(), style = getComputedStyle(e);
  let text;
  if (e instanceof HTMLElement) {
    text = e.innerText;
  } else {
    const shown = e.cloneNode(true);
    shown.querySelectorAll('title').forEach(t => t.remove());
    text = shown.textContent;
  }
  const attributes = {};
  for (const a of e.attributes) attributes[a.name] = a.value;
  const displayed = (r.width > 0 || r.height > 0) && e.checkVisibility({visibilityProperty: true});
  return {id: e.getAttribute('data-query'), text: displayed ? text : '', attributes,
          textContent: e.textContent, displayed,
          rect: {x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height},
          css: {stroke: style.stroke, color: style.color, 'background-color': style.backgroundColor}};
});
"""


class Finder:
    """find_element over a find_elements: the first found, or a failed assertion
    saying where it was looked for."""
    where = ""

    def find_element(self, by, css):
        found = self.find_elements(by, css)
        assert found, f"no {css} {self.where}"
        return found[0]


class Element(Finder):
    """What the tests read of a page's element, fetched with its query in one call to
    the browser (selenium's own elements ask for each property apart: about 2000
    calls and 20 s a report)."""
    where = "in the element"

    def __init__(self, driver, data):
        self.driver, self.data = driver, data
        self.text = " ".join(data["text"].split())
        self.rect = data["rect"]

    def find_elements(self, by, css):
        return query(self.driver, by, css, self.data["id"])

    def get_attribute(self, name):
        return self.data["textContent"] if name == "textContent" else \
            self.data["attributes"].get(name)

    def value_of_css_property(self, name):
        return self.data["css"][name]

    def is_displayed(self):
        return self.data["displayed"]


def query(driver, by, css, within=None):
    assert by in ("css selector", "tag name"), by
    return [Element(driver, d) for d in driver.execute_script(QUERY_JS, css, within)]


class Page(Finder):
    """The browser, its elements found through query()."""
    where = "on the page"

    def __init__(self, driver):
        self.driver = driver

    def __getattr__(self, name):
        return getattr(self.driver, name)

    def find_elements(self, by, css):
        return query(self.driver, by, css)


# Parameters that never set a chart's lines apart (context: the GPU, tuned counts,
# text, launch geometry), as far as the committed documents hold them.
CONTEXT = {"size", "device", "gpu", "timed", "grid", "grid_blocks", "block_threads",
           "elements_per_thread", "grid_stride", "clock", "sync", "ops_per_sample", "latch",
           "iters", "copy_engines", "copy_engines_source", "coherence", "api", "slots",
           "loads", "stride_bytes", "async_engine_count"}
MIN_SIZES = 3


def unit_of(r):
    if r.get("gbps_median"):
        return "GB/s"
    return "us per op" if r.get("us_per_op_median") else "us (median)"


def curves(docs):
    """{module: {(system, case, params that set lines apart)}}: what the report's
    charts against size should draw, from the JSON: each case of each document (its
    GPU 0, or no GPU named) measured at MIN_SIZES sizes or more, in its unit."""
    points = {}
    for name, doc in docs:
        for r in doc["results"]:
            size = (r.get("params") or {}).get("size")
            if r["status"] != "ok" or not isinstance(size, (int, float)) or size < 1 or \
                    not r.get("stats_s") or gpu_of(r) not in (None, 0):
                continue
            points.setdefault((r["module"], r["case"], unit_of(r)), []).append((name, r))
    out = {}
    for (module, case, unit), recs in points.items():
        split = set()
        for name, r in recs:
            for _, o in recs:
                if o is not r and _ == name and o["params"]["size"] == r["params"]["size"]:
                    split |= {k for k in set(r["params"]) | set(o["params"]) if k not in CONTEXT
                              and r["params"].get(k) != o["params"].get(k)}
        sizes = {}
        for name, r in recs:
            kind = (name, case, tuple((k, r["params"].get(k)) for k in sorted(split)))
            sizes.setdefault(kind, set()).add(r["params"]["size"])
        for kind, s in sizes.items():
            if len(s) >= MIN_SIZES:
                out.setdefault(module, set()).add(kind)
    return out


# Every text of every plot: its box on the page against its SVG's, and its words.
BOXES_JS = """
return Array.from(document.querySelectorAll('svg.plot')).map(svg => {
  const s = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
  const left = s.left + svg.clientLeft, top = s.top + svg.clientTop;
  return {title: (svg.querySelector('text.title') || {}).textContent, kind: svg.getAttribute('class'),
          svg: [left, top, left + svg.clientWidth, top + svg.clientHeight],
          viewbox: [vb.width, vb.height],
          texts: Array.from(svg.querySelectorAll('text')).map(t => {
            const b = t.getBoundingClientRect();
            return [t.textContent, b.left, b.top, b.right, b.bottom,
                    t.closest('g.legend') ? 'legend' : t.closest('g.peak') ? 'peak' : 'other'];
          })};
});
"""


def check_plots_render(browser):
    """Every plot's texts inside its SVG (nothing clipped) and apart from each other
    (a peak's label on its halo may cross the curves, never another text); every
    curve of MIN_SIZES points or more; a legend entry per series. Returns the plots."""
    from selenium.webdriver.common.by import By
    plots = browser.execute_script(BOXES_JS)
    assert plots
    for p in plots:
        left, top, right, bottom = p["svg"]
        assert (right - left, bottom - top) == tuple(p["viewbox"]), p["title"]
        for text, *box, _ in p["texts"]:
            if not text.strip():
                continue
            assert box[0] >= left - 0.5 and box[2] <= right + 0.5 and box[1] >= top - 0.5 and \
                box[3] <= bottom + 0.5, (p["title"], text, box, p["svg"])
        texts = [t for t in p["texts"] if t[0].strip()]
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                overlap_x = min(a[3], b[3]) - max(a[1], b[1])
                overlap_y = min(a[4], b[4]) - max(a[2], b[2])
                assert overlap_x <= 1 or overlap_y <= 1, (p["title"], a, b)
    for svg in browser.find_elements(By.CSS_SELECTOR, "svg.plot.curves"):
        title = svg.find_element(By.CSS_SELECTOR, "text.title").text
        series = svg.find_elements(By.CSS_SELECTOR, "g.series")
        legend = svg.find_elements(By.CSS_SELECTOR, "g.legend g.entry")
        assert series and len(series) == len(legend), title
        for line in svg.find_elements(By.CSS_SELECTOR, "g.series polyline"):
            xs = [float(xy.split(",")[0]) for xy in line.get_attribute("points").split()]
            # a curve: MIN_SIZES sizes or more, each once (one GPU's, one kind's)
            assert len(xs) >= MIN_SIZES and xs == sorted(set(xs)), (title, xs)
    return plots


def overlaps(a, b):
    """Two of selenium's rects (x, y, width, height) share more than a pixel each way."""
    return min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 1 and \
        min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 1


def rgb(css):
    """(r, g, b) of a CSS colour as the browser gives it (rgb(...) or rgba(...))."""
    return tuple(int(x) for x in re.findall(r"\d+", css)[:3])


CHART_PART = re.compile(r" \((\d+) of (\d+)\):")


def chart_series(browser):
    """{chart title: [legend labels]} of the curves charts, a chart split in parts
    ("NAME (1 of 2): WHAT") as one ("NAME: WHAT")."""
    from selenium.webdriver.common.by import By
    out = {}
    for svg in browser.find_elements(By.CSS_SELECTOR, "svg.plot.curves"):
        title = CHART_PART.sub(":", svg.find_element(By.CSS_SELECTOR, "text.title").text)
        out.setdefault(title, []).extend(
            t.text for t in svg.find_elements(By.CSS_SELECTOR, "g.legend g.entry text"))
    return out


def chart_parts(browser):
    """{chart title: [its svg elements]}, a chart split in parts under one title."""
    from selenium.webdriver.common.by import By
    out = {}
    for svg in browser.find_elements(By.CSS_SELECTOR, "svg.plot"):
        title = CHART_PART.sub(":", svg.find_element(By.CSS_SELECTOR, "text.title").text)
        out.setdefault(title, []).append(svg)
    return out


def test_html_report_in_chromium(tmp_path, browser):
    from selenium.webdriver.common.by import By
    paths = (H100, H200_X2, H100_X2)
    out = tmp_path / "report.html"
    p = summary("-f", "html", "-o", out, *paths)
    assert p.returncode == 0 and p.stdout == "", p.stderr
    html = out.read_text()
    # self-contained: no script, no link, nothing fetched
    assert not re.search(r"<script|<link|<img|<iframe|@import|url\(", html, re.I)
    assert not re.search(r"<[^>]*\s(src|href)\s*=", html)
    browser.get(out.as_uri())
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert not errors, errors
    assert browser.title == "hipmembench report"
    # every headline of every document, shown with the value its JSON holds
    docs = [load(x) for x in paths]
    rows = {}
    for tr in browser.find_elements(By.CSS_SELECTOR, "table.summary tbody tr"):
        cells = tr.find_elements(By.TAG_NAME, "td")
        assert all(c.is_displayed() for c in cells)
        rows[cells[0].text] = [c.text for c in cells[2:2 + len(paths)]]
    for k, doc in enumerate(docs):
        for name, (value, unit, peak) in expected(doc).items():
            shown = rows[name][k]
            assert close(float(shown.split()[0]), value), (name, k, shown, value)
            if peak is not None:
                assert f"({peak:.0f}%)" in shown or f"({peak + 0.5:.0f}%)" in shown or \
                    f"({peak - 0.5:.0f}%)" in shown, (name, shown, peak)
    # per module, every case of every document measured at 3 sizes or more is a
    # series of one of its charts against size, named by its system
    names = ["H100", "H200x2", "H100x2"]
    want = curves(list(zip(names, docs)))
    charts = {t: labels for t, labels in chart_series(browser).items() if "against size" in t}
    for module, kinds in want.items():
        labels = [lab for t, ls in charts.items() if t.split()[0].rstrip(":") == module for lab in ls]
        assert len(labels) == len(kinds), (module, sorted(labels), sorted(kinds))
        for name in names:
            assert sum(lab.split()[0] == name for lab in labels) == \
                sum(k[0] == name for k in kinds), (module, name, labels)
    for title, labels in charts.items():
        assert len(labels) == len(set(labels)), (title, labels)
    assert {t.split()[0].rstrip(":") for t in charts} == set(want)
    check_plots_render(browser)
    # the systems side by side
    heads = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "table.systems tr th")]
    assert heads[1:4] == names


H100_RUNS = RESULTS / "nvidia-h100-pcie" / "resolution" / "a.json"


def test_report_heatmap_cells_name_their_unit_beside_a_number_only(tmp_path):
    """The report's peer heatmaps: a cell's tooltip names its pair, and its figure with
    the unit; a cell with no figure (a GPU to itself) says "-" and no unit."""
    out = tmp_path / "report.html"
    assert summary("-f", "html", "-o", out, H200_X2).returncode == 0
    cells = re.findall(r"<title>GPU (\d+) to GPU (\d+): ([^<]*)</title>", out.read_text())
    assert len(cells) >= 8, cells
    for src, dst, text in cells:
        if src == dst:
            assert text == "-", (src, dst, text)
        else:
            assert re.fullmatch(r"[0-9.]+ (GB/s|ns)", text), (src, dst, text)


def test_report_draws_each_peak_line_once(tmp_path):
    """A chart's peak lines, one per distinct peak of the documents drawn (three HBM
    peaks on the d2d chart here), each drawn and labelled once: the labels are placed
    from the highest line down."""
    third = load(H200_X2)
    for dev in [third["device"]] + third.get("devices", []):
        dev["memory_clock_khz"] //= 2  # GPUs of half the HBM bandwidth
    path = tmp_path / "slower.json"
    path.write_text(json.dumps(third))
    out = tmp_path / "report.html"
    assert summary("-f", "html", "-o", out, H100, H200_X4, path).returncode == 0
    html = out.read_text()
    d2d = next(svg for svg in re.findall(r'<svg class="plot[^"]*".*?</svg>', html, re.S)
               if "memcpy d2d: GB/s against size" in svg)
    labels = [re.sub(r"<[^>]+>", "", g) for g in re.findall(r'<g class="peak"><line.*?</g>',
                                                           d2d, re.S)]
    peaks = [float(re.search(r"peak ([0-9.]+) GB/s", t).group(1)) for t in labels]
    assert len(peaks) == 3 and len(set(peaks)) == 3, labels


def h2d_alone_bar(tmp_path, doc):
    """The report of doc: the segments of its first "GPUs alone" host bar (h2d), as
    (label, GB/s text) from their tooltips."""
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc))
    out = tmp_path / "report.html"
    assert summary("-f", "html", "-o", out, path).returncode == 0
    alone = re.findall(r'<g class="bar" fill="[^"]*" fill-opacity="0.4">(.*?)</g>', out.read_text(),
                       re.S)
    return re.findall(r"<title>([^:<]+): ([0-9.]+)</title>", alone[0])


def test_report_host_bars_keep_a_slow_gpu(tmp_path):
    """The report's host bars of a node (each GPU alone, stacked, beside all at once) keep
    every GPU that has a figure, however slow: a GPU whose link trained down to a few
    hundred MB/s is a segment of its own, not left out."""
    doc = load(H200_X2)
    slow = next(r for r in doc["results"] if r["module"] == "node" and r["status"] == "ok"
                and r["case"] == "host/h2d/alone" and r["params"].get("gpu") == 1
                and r["params"].get("placement", "local") == "local")
    slow["samples_s"] = [t * 100 for t in slow["samples_s"]]
    slow["gbps_median"] /= 100
    h2d = h2d_alone_bar(tmp_path, doc)
    assert [g for g, _ in h2d] == ["GPU0", "GPU1"] and float(h2d[1][1]) < 1, h2d


def test_report_host_bars_of_a_node_without_its_gpus_alone(tmp_path):
    """A node document that holds every GPU at once and the sum of the GPUs alone, but
    not the records of each GPU alone (a run that selected only host/*/all): the report's
    "GPUs alone" bar is that sum, whole."""
    doc = load(H200_X2)
    doc["results"] = [r for r in doc["results"] if not r["case"].endswith("/alone")]
    every = next(r for r in doc["results"] if r["case"] == "host/h2d/all")
    h2d = h2d_alone_bar(tmp_path, doc)
    assert len(h2d) == 1 and h2d[0][0] == "sum", h2d
    assert abs(float(h2d[0][1]) / every["metrics"]["sum_alone_gbps"]["value"] - 1) < 0.01, h2d


def test_report_legend_is_a_column_per_document_and_a_row_per_kind(tmp_path):
    """Every chart's legend of the report: each entry at a place of its own, and where
    the labels fit, a column per document (one colour) and a row per kind (one line
    style); also where the first document lacks the first kind (here the H100 without
    its pageable copies)."""
    first = load(H100_RUNS)
    first["results"] = [r for r in first["results"] if "/pageable/" not in r["case"]]
    path = tmp_path / "no-pageable.json"
    path.write_text(json.dumps(first))
    out = tmp_path / "report.html"
    assert summary("-f", "html", "-o", out, path, H200_X4).returncode == 0
    legends = re.findall(r'<g class="legend">(.*?)\n</g>', out.read_text(), re.S)
    assert len(legends) >= 6, len(legends)
    for legend in legends:
        entries = re.findall(r'<g class="entry" stroke="([^"]+)"[^>]*><line x1="([0-9.]+)" '
                             r'x2="[0-9.]+" y1="([0-9]+)" y2="[0-9]+" stroke-width="[0-9.]+"'
                             r'([^/]*)/>', legend)
        assert entries, legend[:300]
        assert len({(x, y) for _, x, y, _ in entries}) == len(entries), entries
        if len({x for _, x, _, _ in entries}) != len({c for c, _, _, _ in entries}):
            continue  # labels too long for a column each: laid out kind by kind, wrapped
        for key, same in ((1, 0), (2, 3)):  # a column's colour, a row's line style
            seen = {}
            for e in entries:
                assert seen.setdefault(e[key], e[same]) == e[same], entries


def test_report_of_the_h100_and_the_4xh200_in_chromium(tmp_path, browser):
    """The report people share, of one H100 (two runs) and four H200: memcpy's host
    memory kinds of both systems overlaid on log-log charts with the link's peak and
    the H100's run-to-run band; time per copy at small sizes; the 4xH200's peer
    copies as heatmaps and its host copies with every GPU against each alone; each
    system in one colour throughout; nothing clipped."""
    from selenium.webdriver.common.by import By
    out = tmp_path / "report.html"
    assert summary("-f", "html", "-o", out, H100_RUNS, H200_X4).returncode == 0
    browser.get(out.as_uri())
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert not errors, errors
    h100, h200 = load(H100_RUNS), load(H200_X4)
    plots = check_plots_render(browser)
    charts = chart_series(browser)
    # one chart per direction and API holds every kind of both systems: pageable,
    # pinned, registered, write-combined (and the H100's reference loop)
    for d in ("h2d", "d2h"):
        labels = charts[f"memcpy {d}, hipMemcpyAsync: GB/s against size"]
        want = [f"{n} {c.split('/', 1)[1].replace('/', ' ')}" for n, doc in (("H100", h100),
                ("H200x4", h200)) for c in sorted({r["case"] for r in ok(doc, "memcpy", "", 0)}
                if False else {r["case"] for r in doc["results"] if r["module"] == "memcpy" and
                               r["status"] == "ok" and r["case"].startswith(d + "/") and
                               not r["case"].endswith("/sync")})]
        assert sorted(labels) == sorted(want), (labels, want)
        assert len(labels) == 9 and sum(x.startswith("H100 ") for x in labels) == 5
        assert sorted(charts[f"memcpy {d}, hipMemcpyAsync: time per copy, small sizes"]) == \
            sorted(labels)
        assert len(charts[f"memcpy {d}, hipMemcpy: GB/s against size"]) == 8
    parts = chart_parts(browser)
    svgs = {t: v[0] for t, v in parts.items()}

    def with_kind(title, kind):  # the part of a chart that holds a kind's lines
        return next(svg for svg in parts[title] if any(
            t.text.endswith(kind) for t in svg.find_elements(By.CSS_SELECTOR, "g.legend text")))

    # nine lines, more than a chart holds: two charts, a kind's lines on one
    assert len(parts["memcpy h2d, hipMemcpyAsync: GB/s against size"]) == 2
    # time per copy at small sizes: 4K to 1M, each point the copy's median time
    small = with_kind("memcpy h2d, hipMemcpyAsync: time per copy, small sizes", "pinned async")
    xt = [t.text for t in small.find_elements(By.CSS_SELECTOR, "text.xtick")]
    assert xt[0] == "4K" and xt[-1] == "1M", xt
    shown = {}
    for t in small.find_elements(By.CSS_SELECTOR, "g.series title"):
        m = re.fullmatch(r"(.*): ([0-9.]+) us per copy at (\w+)(, .*)?", t.get_attribute("textContent"))
        assert m, t.get_attribute("textContent")
        shown[(m.group(1), m.group(3))] = float(m.group(2))
    for name, doc in (("H100", h100), ("H200x4", h200)):
        for r in ok(doc, "memcpy", "h2d/pinned/async", 0):
            if r["params"]["size"] <= 1 << 20:
                size = {4096: "4K", 16384: "16K", 65536: "64K", 262144: "256K", 1 << 20: "1M"}
                assert close(shown[(f"{name} pinned async", size[r["params"]["size"]])],
                             r["stats_s"]["median"] * 1e6, 0.01), (name, r["params"]["size"])
    h2d = with_kind("memcpy h2d, hipMemcpyAsync: GB/s against size", "pinned async")
    # log2 sizes labelled 4K to 1G, log10 GB/s labelled at 1, 2, 5 x 10^k
    xt = [t.text for t in h2d.find_elements(By.CSS_SELECTOR, "text.xtick")]
    assert xt == ["4K", "16K", "64K", "256K", "1M", "4M", "16M", "64M", "256M", "1G"], xt
    yt = [float(t.text) for t in h2d.find_elements(By.CSS_SELECTOR, "text.ytick")]
    assert len(yt) >= 4 and yt == sorted(yt, reverse=True) or yt == sorted(yt)
    for v in yt:
        m = v / 10 ** math.floor(math.log10(v) + 1e-9)
        assert any(abs(m - x) < 1e-6 for x in (1, 2, 5)), yt
    assert max(yt) / min(yt) >= 100, yt  # 4K copies of ~1 GB/s and 55 GB/s: decades
    # the link's peak, one line for both (both links are gen5 x16)
    peaks = [t.text for t in h2d.find_elements(By.CSS_SELECTOR, "g.peak text")]
    link = h100["device"]["host_link"]["peak_gbps"]
    assert peaks == [f"H100, H200x4 peak {link:.1f} GB/s"], peaks
    # the band: the H100's figures hold two runs, each series its band; the H200's one
    h2d_parts = parts["memcpy h2d, hipMemcpyAsync: GB/s against size"]
    bands = [b for svg in h2d_parts for b in svg.find_elements(By.CSS_SELECTOR, "polygon.band")]
    colours = {rgb(e.value_of_css_property("stroke"))
               for svg in h2d_parts for e in svg.find_elements(By.CSS_SELECTOR, "g.series")}
    h100_colour, h200_colour = (rgb(browser.find_element(
        By.CSS_SELECTOR, f"table.summary thead th:nth-child({k}) span.swatch").value_of_css_property(
        "background-color")) for k in (3, 4))
    assert h100_colour != h200_colour
    assert len(bands) == 5 and len(colours) == 2
    sigma = [r["runs"]["resolution"]["sigma_rel"] for r in ok(h100, "memcpy", "h2d/pinned/async")]
    assert all(0 < x < 0.5 for x in sigma)
    # each system in its colour in every chart, as in the summary's heads
    assert colours == {h100_colour, h200_colour}
    for svg in svgs.values():
        for entry in svg.find_elements(By.CSS_SELECTOR, "g.legend g.entry"):
            name = entry.find_element(By.TAG_NAME, "text").text.split()[0]
            want = h100_colour if name == "H100" else h200_colour
            assert rgb(entry.value_of_css_property("stroke")) == want, (name, want)
    # the 4xH200's peer copies: GPU to GPU, rows source, columns destination
    for case in ("p2p/ce/write", "p2p/ce/read"):
        heat = svgs[f"H200x4: {case} GB/s"]
        cells = [t.text for t in heat.find_elements(By.CSS_SELECTOR, "g.cell text")]
        want = [["-"] * 4 for _ in range(4)]
        for r in ok(h200, "node", case):
            want[r["params"]["src"]][r["params"]["dst"]] = f"{r['gbps_median']:.0f}"
        assert cells == [v for row in want for v in row], (case, cells)
        # the axes' words (GPU names, "source", "destination") beside the grid, on no cell
        rects = [c.rect for c in heat.find_elements(By.CSS_SELECTOR, "g.cell rect")]
        for t in heat.find_elements(By.CSS_SELECTOR, "g.axes text"):
            assert not any(overlaps(t.rect, c) for c in rects), (case, t.text, t.rect)
    # host copies with every GPU at once against the GPUs alone, each direction
    bars = svgs["H200x4: host copies with every GPU at once against each alone"]
    groups = bars.find_elements(By.CSS_SELECTOR, "g.group")
    assert len(groups) == 3
    for g, d in zip(groups, ("h2d", "d2h", "bidir")):
        words = [t.text for t in g.find_elements(By.TAG_NAME, "text")]
        r = ok(h200, "node", f"host/{d}/all")[0]
        alone, vs = metric(r, "sum_alone_gbps"), metric(r, "vs_sum_alone")
        assert d in words and f"{alone:.1f}" in words, (d, words)
        assert f"{r['gbps_median']:.1f} ({100 * vs:.0f}%)" in words, (d, words)
        assert len(g.find_elements(By.CSS_SELECTOR, "g.bar rect")) == 8  # 4 GPUs, 2 bars
    assert any(p["kind"] == "plot heatmap" for p in plots)


@pytest.mark.parametrize("others", [1, 8])
def test_a_long_path_keeps_its_end_on_the_screen(tmp_path, others):
    """A document deep in folders: its line ends with the end of its path, the file's
    name, cut at the front with "..." to fill the screen's width exactly (a line each
    for few documents, the system's line left out for many)."""
    deep = tmp_path / ("d" * 60) / ("e" * 60) / ("f" * 60)
    deep.mkdir(parents=True)
    docs = [deep / "first-of-the-documents.json"] + [deep / f"doc{i}.json" for i in range(others)]
    for d in docs:
        shutil.copy(H100, d)
    p = summary(*docs)
    assert p.returncode == 0, p.stderr
    for d in docs:
        (at,) = [x for x in p.stdout.splitlines() if x.endswith(f"/{d.name}")]
        assert "unsupported; ...f" in at and len(at) == COLUMNS, at


def test_long_names_are_cut_never_clipped(tmp_path, browser):
    """A kind whose name is too long for its legend (and a system of one GPU beside
    one of four): cut with an ellipsis, its whole in a tooltip; no text leaves its
    plot."""
    from selenium.webdriver.common.by import By
    doc = load(H100)
    long = "pinned-" + "very-long-name-" * 6
    doc["results"] += [dict(r, case=f"h2d/{long}/async") for r in ok(doc, "memcpy",
                                                                   "h2d/pinned/async")]
    path = tmp_path / "long.json"
    path.write_text(json.dumps(doc))
    out = tmp_path / "report.html"
    assert summary("-f", "html", "-o", out, path, H200_X4).returncode == 0
    browser.get(out.as_uri())
    check_plots_render(browser)
    labels = chart_series(browser)["memcpy h2d, hipMemcpyAsync: GB/s against size"]
    cut = [x for x in labels if x.endswith("\u2026")]
    assert len(cut) == 1 and cut[0].startswith("H100 pinned-very-long-name-"), labels
    tips = [t.get_attribute("textContent") for t in browser.find_elements(
        By.CSS_SELECTOR, "g.legend g.entry text title")]
    assert f"H100 {long}" in tips


# ---- the report's verdicts are compare's ------------------------------------------

def main_figure(r):
    """The name compare gives a record's own figure."""
    return "GB/s" if r.get("gbps_median") else "us/op" if r.get("us_per_op_median") else "median"


def headline_records(doc, gpu=0):
    """{headline: [(record, compare's name of its figure)]}: the records each headline
    of a single-GPU base reads, picked from the JSON as expected() picks them (two for
    VMM against realloc)."""
    out = {}

    def put(name, r, figure=None):
        if r:
            out[name] = [(r, figure or main_figure(r))]

    for name, case in (("pinned h2d", "h2d/pinned/async"), ("pinned d2h", "d2h/pinned/async"),
                       ("pageable h2d", "h2d/pageable/async"), ("pageable d2h", "d2h/pageable/async"),
                       ("d2d copy", "d2d/device/async")):
        put(name, largest(ok(doc, "memcpy", case, gpu)))
    put("pinned bidir", largest(ok(doc, "overlap", "bidirectional/concurrent", gpu)))
    for d in ("h2d", "d2h"):
        put(f"4K {d} latency", next((r for r in ok(doc, "memcpy", f"{d}/pinned/async", gpu)
                                      if r["params"]["size"] == 4096), None))
    pipes = ok(doc, "overlap", "pipeline/pinned/balanced", gpu)
    if pipes:
        put("overlap efficiency", max(pipes, key=lambda r: (r["params"]["streams"],
                                                            r["params"]["chunks"])),
            "overlap_efficiency")
    for name, case in (("managed 1st touch", "touch/gpu-first"),
                       ("managed on demand", "on-demand/first-kernel"),
                       ("managed prefetch", "prefetch/prefetch-only")):
        put(name, largest(ok(doc, "managed", case, gpu)))
    for stride in ("4K", "64K", "2M"):
        put(f"fault latency {stride}", next(iter(ok(
            doc, "xnack", f"managed/fault-latency/stride={stride}/random", gpu)), None),
            "us_per_fault")
    put("pool vs hipMalloc", largest(ok(doc, "pool", "course/default-pool", gpu)),
        "speedup_over_hipMalloc")
    vmm, realloc = (largest(ok(doc, "vmm", f"grow/{v}/fixed-step", gpu))
                    for v in ("vmm-extend", "realloc-copy"))
    if vmm and realloc:
        out["VMM vs realloc"] = [(vmm, "total_s"), (realloc, "total_s")]
    return out


def same_csv_value(text, v):
    """Is a CSV field of compare's (every digit of a number, yes/no, text) the value v?"""
    if isinstance(v, bool):
        return text == ("yes" if v else "no")
    if isinstance(v, (int, float)):
        try:
            return float(text) == float(v)
        except ValueError:
            return False
    return text == str(v)


def compare_verdicts(base, other, threshold=5):
    """compare's CSV rows of other against base, at the threshold."""
    p = hmb.run("-f", "csv", "compare", "--threshold", threshold, "--allow-partial", base, other)
    assert p.returncode in (0, 1), p.stderr
    return list(csv.DictReader(io.StringIO(p.stdout)))


def compare_row(rows, r, figure):
    """compare's row of record r's figure: its module, case, size and every identity
    column equal to r's parameters (empty where r has none)."""
    ids = [k for k in rows[0] if k not in COMPARE_COLUMNS]
    found = [row for row in rows if row["module"] == r["module"] and row["case"] == r["case"]
             and row["figure"] == figure and all(
                 same_csv_value(row[k], r["params"][k]) if k in r["params"] else row[k] == ""
                 for k in ids)]
    assert len(found) == 1, (r["module"], r["case"], figure, len(found))
    return found[0]


COMPARE_COLUMNS = {"base_file", "other_file", "result", "figure", "unit", "base", "other",
                   "ratio", "p", "verdict", "resolution_rel", "module", "case"}
RATIO = re.compile(r'<span class="ratio( better| worse)?" title="([^"]*)">([^<]*)</span>')
PART = re.compile(r'<span class="part" title="([^"]*)">([^<]*)</span>')


def report_ratios(html):
    """{headline: (class, text, title, [(part title, part text)])} of the second column."""
    out = {}
    for name, cells in re.findall(r"<tr><td>([^<]*)</td><td>[^<]*</td>(.*?)</tr>", html):
        cell = re.findall(r'<td class="v">(.*?)</td>', cells)[1]
        m = RATIO.search(cell)
        if m:
            out[name] = ((m.group(1) or "").strip(), m.group(3), m.group(2), PART.findall(cell))
    return out


def slowed(r, factor):
    """r with every time of its samples and runs times factor (bandwidth over it)."""
    for k in ("samples_s",):
        r[k] = [t * factor for t in r[k]]
    for k in ("min", "median", "mean", "max", "stddev"):
        r["stats_s"][k] *= factor
    for k in ("ci_low_s", "ci_high_s"):
        r["stability"][k] *= factor
    r["runs"]["median_s"] = [t * factor for t in r["runs"]["median_s"]]
    for k in ("gbps_median", "gbps_best", "peak_fraction"):
        if r.get(k):
            r[k] /= factor
    return r


def with_changes(tmp_path):
    """resolution/b.json with pinned h2d at 1G 1.6 times slower, pinned d2h 1.6 times
    faster and pool's speedup at 256M halved: changes far beyond their noise."""
    doc = load(H100_B)
    for r in doc["results"]:
        if r["status"] == "ok" and r["params"].get("size") == 1 << 30 and \
                r["case"] in ("h2d/pinned/async", "d2h/pinned/async"):
            slowed(r, 1.6 if r["case"].startswith("h2d") else 1 / 1.6)
        if r["status"] == "ok" and r["case"] == "course/default-pool" and \
                r["params"]["size"] == 1 << 28:
            r["metrics"]["speedup_over_hipMalloc"]["value"] /= 2
            r["runs"]["metrics"]["speedup_over_hipMalloc"] = [
                v / 2 for v in r["runs"]["metrics"]["speedup_over_hipMalloc"]]
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(doc))
    return path


H100_B = RESULTS / "nvidia-h100-pcie" / "resolution" / "b.json"
VERDICT_PAIRS = {
    "two-runs-of-one-h100": lambda tmp: (H100_RUNS, H100_B),
    "h100-and-4xh200": lambda tmp: (H100_RUNS, H200_X4),
    "h100-and-older-h100": lambda tmp: (H100, H100_RUNS),
    "4xh200-and-h100": lambda tmp: (H200_X4, H100),
    "h100-and-changes": lambda tmp: (H100_RUNS, with_changes(tmp)),
}


@pytest.mark.parametrize("pair", VERDICT_PAIRS, ids=list(VERDICT_PAIRS))
def test_the_reports_verdicts_are_compares(tmp_path, pair):
    """compare's CSV at 5% and the report of the same two documents tell one story:
    each headline's ratio green where compare says better, red where WORSE, uncoloured
    otherwise and followed by compare's word (n.s., ?N%, ?; nothing within 5%); its
    tooltip names compare's row. VMM against realloc, a ratio of two figures, shows
    each one's verdict and no colour."""
    base, other = VERDICT_PAIRS[pair](tmp_path)
    rows = compare_verdicts(base, other)
    p = summary("-f", "html", base, other)
    assert p.returncode == 0, p.stderr
    shown = report_ratios(p.stdout)
    want = headline_records(load(base))
    # a headline the other lacks at the base's identity has no ratio: "no figure at"
    for name in set(want) - set(shown):
        assert re.search(rf"<tr><td>{re.escape(name)}</td>.*?no figure at ", p.stdout), name
        del want[name]
    assert len(want) >= 15, (sorted(want), sorted(shown))
    flagged = set()
    for name, records in want.items():
        cls, text, title, parts = shown[name]
        verdicts = [compare_row(rows, r, figure) for r, figure in records]
        if len(records) == 1:
            v = verdicts[0]["verdict"]
            assert cls == {"better": "better", "WORSE": "worse"}.get(v, ""), (name, cls, v)
            assert re.fullmatch(r"[0-9.<>]+x" + (" " + re.escape(v) if v else ""), text), \
                (name, text, v)
            assert verdicts[0]["result"] in html.unescape(title), (name, title)
            flagged |= {name} if cls else set()
        else:
            assert cls == "" and re.fullmatch(r"[0-9.<>]+x", text), (name, cls, text)
            assert [t.rsplit(" ", 1)[-1] if " " in t else "" for _, t in parts] == \
                [v["verdict"] for v in verdicts], (name, parts)
    if pair == "h100-and-changes":
        assert flagged == {"pinned h2d", "pinned d2h", "pool vs hipMalloc"}, flagged
        assert shown["pinned h2d"][0] == "worse" and shown["pinned d2h"][0] == "better"
    elif pair in ("h100-and-4xh200", "4xh200-and-h100"):  # one run: compare says '?'
        assert all(v[1].endswith(" ?") for k, v in shown.items() if k in want and len(want[k]) == 1)
    else:
        assert not flagged, flagged
    if pair == "two-runs-of-one-h100":  # compare cannot judge 5% for 4K faults: ?12%
        assert re.fullmatch(r"0\.\d+x \?\d+%", shown["fault latency 4K"][1]), shown["fault latency 4K"]


def test_a_document_on_standard_input_gets_the_verdicts_too(tmp_path):
    """The documents are read once, into the records the summary and compare's judgement
    share: a document given as '-' is judged as the same document given by name."""
    changed = with_changes(tmp_path)
    by_name = report_ratios(summary("-f", "html", H100_RUNS, changed).stdout)
    p = hmb.run("summary", "-f", "html", "-", changed, input=H100_RUNS.read_text())
    assert p.returncode == 0, p.stderr
    from_stdin = report_ratios(p.stdout)
    assert from_stdin == by_name
    assert from_stdin["pinned h2d"][0] == "worse" and from_stdin["pinned d2h"][0] == "better"


FRAMES_JS = """
return Array.from(document.querySelectorAll('svg.plot')).map(svg => {
  const f = svg.querySelector('rect.frame');
  const b = f ? f.getBoundingClientRect() : null;
  return {title: svg.querySelector('text.title').textContent,
          width: svg.getBoundingClientRect().right,
          frame: b ? [b.left, b.top, b.right, b.bottom] : null,
          texts: Array.from(svg.querySelectorAll('text')).filter(t => t.textContent.trim()).map(t => {
            const r = t.getBoundingClientRect();
            return [t.textContent, r.left, r.top, r.right, r.bottom];
          })};
});
"""
GREEN, RED, INK = (26, 127, 55), (198, 40, 40), (34, 34, 34)  # report_html.c's style


def points_of(svg):
    """{(legend label, x as its tooltip says it): value} of a curves chart."""
    from selenium.webdriver.common.by import By
    out = {}
    for t in svg.find_elements(By.CSS_SELECTOR, "g.series title"):
        m = re.fullmatch(r"(.*): (-?[0-9.e+-]+) .*? at (\S+?)(, .*)?", t.get_attribute("textContent"))
        assert m, t.get_attribute("textContent")
        out[(m.group(1), m.group(3))] = float(m.group(2))
    return out


SIZES = {4096: "4K", 65536: "64K", 2 << 20: "2M"}


def size_text(n):
    """A size as the report writes it: 192M, 8G."""
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def test_every_modules_headline_has_a_chart_in_chromium(tmp_path, browser):
    """The report of two runs of one H100 (the second with three headlines changed
    far beyond their noise) and a 4xH200 in Chromium, 1400 px wide: a chart of what
    each module's headline varies with (overlap's efficiency against chunks, a line
    per streams; a page fault's time by page size; pool's speedup per allocator;
    each step of VMM's growth), each point the JSON's; no chart of more than 8 lines
    (memcpy's, pool's and vmm's calls split, a kind's lines kept together); no text
    across a plot's frame, none past the page's width; and each ratio of the summary
    green, red or plain as compare's verdict on its figure says."""
    from selenium.webdriver.common.by import By
    changed = with_changes(tmp_path)
    paths = (H100_RUNS, changed, H200_X4)
    out = tmp_path / "report.html"
    assert summary("-f", "html", "-o", out, *paths).returncode == 0
    browser.set_window_size(1400, 1000)
    browser.get(out.as_uri())
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert not errors, errors
    names = ("H100", "H100#2", "H200x4")
    docs = [load(p) for p in paths]
    check_plots_render(browser)
    parts = chart_parts(browser)
    series = chart_series(browser)
    # at most 8 lines a chart; those of more split, a kind on one part
    for title, svgs in parts.items():
        for svg in svgs:
            assert len(svg.find_elements(By.CSS_SELECTOR, "g.series")) <= 8, title
    for title in ("memcpy h2d, hipMemcpyAsync: GB/s against size", "vmm call: us (median) against size",
                  "pool course: us per op against size"):
        assert len(parts[title]) >= 2, title
        kinds = [{" ".join(t.text.split()[1:]) for t in svg.find_elements(
            By.CSS_SELECTOR, "g.legend g.entry text")} for svg in parts[title]]
        assert all(not (a & b) for i, a in enumerate(kinds) for b in kinds[i + 1:]), (title, kinds)
    # overlap: efficiency against chunks, a line per streams of each document
    for case in ("pipeline/pinned/copy-bound", "pipeline/pinned/balanced",
                 "pipeline/pinned/compute-bound"):
        (svg,) = parts[f"overlap {case}: copies hidden against chunks"]
        assert [t.text for t in svg.find_elements(By.CSS_SELECTOR, "text.xtick")] == \
            ["2", "4", "8", "16"]
        shown = points_of(svg)
        want = {(f"{n} streams={r['params']['streams']}", f"chunks={r['params']['chunks']}"):
                metric(r, "overlap_efficiency") for n, doc in zip(names, docs)
                for r in ok(doc, "overlap", case)}
        assert shown.keys() == want.keys(), (case, sorted(shown), sorted(want))
        assert all(abs(shown[k] - v) <= 0.0051 for k, v in want.items()), case
        assert [t.text for t in svg.find_elements(By.CSS_SELECTOR, "g.peak text")] == \
            ["1: every copy hidden behind the kernels"]
    # xnack: a page fault's time by page size, a line per order
    (svg,) = parts["xnack managed/fault-latency: time per page fault by page size"]
    shown = points_of(svg)
    want = {(f"{n} order={r['params']['order']}", SIZES[r["params"]["stride"]]):
            metric(r, "us_per_fault") for n, doc in zip(names, docs)
            for r in doc["results"] if r["status"] == "ok" and gpu_of(r) in (None, 0) and
            re.fullmatch(r"managed/fault-latency/stride=\w+/(sequential|random)", r["case"])}
    assert shown.keys() == want.keys() and len(want) == 18, (sorted(shown), sorted(want))
    assert all(close(shown[k], v, 0.01) for k, v in want.items())
    # pool: the speedup over hipMalloc of each allocator against size
    for shape in ("course", "sync-each", "alloc-free"):
        labels = series[f"pool {shape}: speedup over hipMalloc, per allocator"]
        assert sorted(labels) == sorted(f"{n} {a}" for n in names for a in (
            "hipMalloc-empty-heap", "default-pool", "default-pool-retain", "created-pool")), labels
    # the changed document's course/default-pool at 256M: half the first's speedup
    shown = {k: v for svg in parts["pool course: speedup over hipMalloc, per allocator"]
             for k, v in points_of(svg).items()}
    first, second = shown[("H100 default-pool", "256M")], shown[("H100#2 default-pool", "256M")]
    assert 0.4 < second / first < 0.6, (first, second)
    # vmm: each growth step against the size it reached, per policy
    for policy, steps in (("fixed step", 127), ("doubling", 7)):
        svgs = parts[f"vmm grow, {policy}: time of each growth step against the size reached"]
        lines = [line for svg in svgs for line in svg.find_elements(By.CSS_SELECTOR,
                                                                    "g.series polyline")]
        assert len(lines) == 9 and all(len(x.get_attribute("points").split()) == steps
                                       for x in lines), policy
        xt = [t.text for svg in svgs for t in svg.find_elements(By.CSS_SELECTOR, "text.xtick")]
        assert xt[0] == "128M" and xt[-1] == "8G", xt
        # each step the median of its runs (the H100's two: their mean), in ms
        shown = {k: v for svg in svgs for k, v in points_of(svg).items()}
        (r,) = ok(docs[0], "vmm", "grow/vmm-extend/" + policy.replace(" ", "-"))
        per, start = r["runs"]["samples"][0], r["params"]["start"]
        checked = 0
        for k in range(per):
            reached = start + (k + 1) * r["params"]["step"] if "step" in r["params"] \
                else start << (k + 1)
            key = ("H100 vmm-extend", size_text(reached))
            if key in shown:
                want = 1e3 * (r["samples_s"][k] + r["samples_s"][per + k]) / 2
                assert close(shown[key], want, 0.01), (policy, k, shown[key], want)
                checked += 1
        assert checked >= 6, (policy, checked)
    # no text across a frame; every plot within the page's 1400 px
    for p in browser.execute_script(FRAMES_JS):
        assert p["width"] <= 1400, p["title"]
        if not p["frame"]:
            continue
        fl, ft, fr, fb = p["frame"]
        for text, l, t, r, b in p["texts"]:
            inside = l >= fl - 0.5 and r <= fr + 0.5 and t >= ft - 0.5 and b <= fb + 0.5
            apart = r <= fl + 0.5 or l >= fr - 0.5 or b <= ft + 0.5 or t >= fb - 0.5
            assert inside or apart, (p["title"], text, (l, t, r, b), p["frame"])
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 1400
    # the summary's colours are compare's verdicts (compare of the same three documents)
    p = hmb.run("-f", "csv", "compare", "--threshold", 5, "--allow-partial", *paths)
    assert p.returncode == 1, p.stderr  # the changed document: WORSE
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    want = headline_records(docs[0])
    seen = set()
    for tr in browser.find_elements(By.CSS_SELECTOR, "table.summary tbody tr"):
        name = tr.find_element(By.TAG_NAME, "td").text
        if name not in want or len(want[name]) != 1:
            continue
        r, figure = want[name][0]
        for k, other in ((1, changed), (2, H200_X4)):
            cell = tr.find_elements(By.CSS_SELECTOR, "td.v")[k]
            ratio = cell.find_element(By.CSS_SELECTOR, "span.ratio")
            v = compare_row([x for x in rows if x["other_file"] == str(other)], r, figure)["verdict"]
            colour = rgb(ratio.value_of_css_property("color"))
            assert colour == {"better": GREEN, "WORSE": RED}.get(v, INK), (name, k, v, colour)
            assert ratio.text.endswith(" " + v) if v else re.fullmatch(r"[0-9.]+x", ratio.text)
            seen.add(v)
    assert {"better", "WORSE", "?"} <= seen, seen


def test_html_of_one_document_plots_and_scales(tmp_path):
    """The d2d chart holds the H200's 2.1 TB/s and the H100's smallest copies: every
    point and band within the frame, the value axis a decade or more each way."""
    out = tmp_path / "one.html"
    assert summary("-f", "html", "-o", out, H100, H200_X2).returncode == 0
    html = out.read_text()
    panel = html.split("<title>memcpy d2d: GB/s against size</title>", 1)[1].split("</svg>", 1)[0]
    ticks = [float(t) for t in re.findall(r'class="ytick"[^>]*>([0-9.]+)</text>', panel)]
    top = max(r["gbps_median"] for r in load(H200_X2)["results"]
              if r["case"] == "d2d/device/async" and r["status"] == "ok")
    assert top > 2000 and max(ticks) >= top / 10 and min(ticks) <= 1, (ticks, top)
    x, y, w, h = (float(v) for v in re.search(
        r'<rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)" height="([0-9.]+)" class="frame"',
        panel).groups())
    drawn = panel.split('<g class="legend">')[0]
    lines = re.findall(r'<polyline[^>]*points="([^"]*)"', drawn)
    bands = re.findall(r'class="band"[^>]*points="([^"]*)"', drawn)
    points = [(float(a), float(b)) for a, b in re.findall(r"(-?[0-9.]+),(-?[0-9.]+)",
                                                            " ".join(lines + bands))]
    assert len(lines) == 4 and len(points) >= 40, lines  # async and sync, both systems
    for px, py in points:
        assert x - 0.1 <= px <= x + w + 0.1 and y - 0.1 <= py <= y + h + 0.1, (px, py)


def test_together_says_who_ran_beside_the_summarised_gpu(tmp_path):
    """A document of --devices whose records ran beside other GPUs: the summary of each
    GPU counts its own records that did, and those that shared its host link (their host
    figures may read lower than alone), in text and Markdown; a document whose GPUs ran
    one at a time says nothing of it."""
    doc = load(H200_X2)
    want = {0: [0, 0], 1: [0, 0]}
    for r in doc["results"]:
        g = gpu_of(r)
        if r["status"] != "ok" or g is None or r["module"] not in ("pool", "memcpy"):
            continue
        r.setdefault("observed", {})["ran_beside_gpus"] = str(1 - g)
        want[g][0] += 1
        if r["module"] == "memcpy" and g == 1:
            r["observed"]["host_link_shared_with_gpus"] = "0"
            want[1][1] += 1
    assert all(n for n, _ in want.values()) and want[1][1], want
    path = tmp_path / "together.json"
    path.write_text(json.dumps(doc))
    for g in (0, 1):
        out = summary("--gpu", str(g), path)
        assert out.returncode == 0, out.stderr
        fits_one_screen(out.stdout)
        text = " ".join(out.stdout.split())
        line = f"together: {want[g][0]} figures beside GPUs {1 - g}"
        if want[g][1]:
            line += f"; {want[g][1]} shared its host link: may read lower than alone"
        assert line in text, text
        if not want[g][1]:
            assert "host link:" not in text, text
        md = " ".join(summary("-f", "markdown", "--gpu", str(g), path).stdout.split())
        assert f"together: {want[g][0]} figures beside GPUs {1 - g}" in md, md
        html = tmp_path / f"gpu{g}.html"
        assert summary("-f", "html", "-o", html, "--gpu", str(g), path).returncode == 0
        assert f"together: {want[g][0]} figures beside GPUs {1 - g}" in html.read_text()
    plain = summary(H200_X2).stdout
    assert "together:" not in plain, plain


def test_a_headline_picked_by_nothing_pairs_with_the_base(tmp_path):
    """Fault latency records without a size (the headline selects by no parameter):
    each document's record pairs with the base's, with nothing shown at, even beside
    a headline that the second document lacks at the base's size."""
    docs = []
    for name in ("a", "b"):
        doc = load(H100)
        for r in doc["results"]:
            if r["case"].startswith("managed/fault-latency/"):
                r["params"].pop("size", None)
        if name == "b":  # no 256 MiB prefetch: the row before says n/a
            doc["results"] = [r for r in doc["results"] if not (
                r["case"] == "prefetch/prefetch-only" and r["params"].get("size") == 256 << 20)]
        docs.append(tmp_path / f"{name}.json")
        docs[-1].write_text(json.dumps(doc))
    p = summary(*docs)
    assert p.returncode == 0, p.stderr
    rows = {line[:18].strip(): line[18:].split() for line in p.stdout.splitlines()}
    assert rows["managed prefetch"][1:4] == ["256M", "50.2", "n/a"], rows["managed prefetch"]
    for name in ("fault latency 4K", "fault latency 64K", "fault latency 2M"):
        r = rows[name]
        assert r == ["us", "-", r[2], r[2], "1.00x"], (name, r)
