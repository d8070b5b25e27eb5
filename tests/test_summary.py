"""test_summary.py - `hipmembench summary`: each committed document's headline figures
on one screen (40 lines of 100 columns), the values checked against what this file
computes from the JSON on its own; several documents side by side with ratios that
know which way is better; the GPU of a multi-GPU document; anomalies; Markdown and -o;
bad documents (one line, exit 2); compare printing the summary first; and the HTML
report opened in headless Chromium (no console errors, every headline shown, a plot
with a legend naming every system)."""
import json
import os
import pathlib
import re
import shutil
import statistics

import pytest

import hmb
import synthetic
import test_corpus

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
    assert re.search(r"^pinned h2d +55\.08 GB/s +87% +o +1G;", out, re.M), out
    assert re.search(r"^d2d copy +1503 GB/s +90% ", out, re.M), out
    assert re.search(r"^4K h2d latency +3\.60 us ", out, re.M), out
    assert "all GPUs" not in out and "P2P" not in out
    assert re.search(r"unsupported node topology/pair: one GPU visible", out)


def test_the_resolution_line_counts_what_the_document_says():
    """The summary's resolution line, against the document's own runs.resolution: how
    many figures of several runs can show 5% and 10% between two documents like it, and
    each family too noisy for 10% with its median resolution."""
    path = hmb.ROOT / "results" / "nvidia-h100-pcie" / "resolution" / "a.json"
    res = [r["runs"]["resolution"] for r in load(path)["results"]
           if r["status"] == "ok" and (r.get("runs") or {}).get("resolution")]
    text = " ".join(summary(path).stdout.split())
    five = sum(x["resolution_rel"] <= 0.05 for x in res)
    ten = sum(x["resolution_rel"] <= 0.10 for x in res)
    assert len(res) > 400 and five < ten < len(res)
    assert f"resolution: of {len(res)} figures, {five} can show a 5% change from one document " \
        f"to the next, {ten} 10%" in text, text
    families = {}
    for x in res:
        families.setdefault(x["family"], []).append(x["resolution_rel"])
    noisy = {f: statistics.median(v) for f, v in families.items() if statistics.median(v) > 0.10}
    named = re.findall(r"([a-z][a-z ()]*?) (\d+)% \((?:session|runs)\)",
                       text.split("too noisy for 10%: ")[1].split(" marked headlines")[0])
    assert {f.strip(): int(v) for f, v in named} == {f: round(100 * m) for f, m in noisy.items()}


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


# ---- several documents ----------------------------------------------------------

def columns(out):
    """{headline: [(value text, ratio text), ...]} of a summary of several documents,
    the first column's ratio empty."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("figure "))
    rows = {}
    for line in lines[start + 1:]:
        if line.startswith("systems"):
            break
        cells = [(line[24:30].strip(), "")]
        for k in range(30, len(line), 10):
            cells.append((line[k:k + 5].strip(), line[k + 6:k + 10].strip()))
        rows[line[:18].strip()] = cells
    return rows


def ratio_text(r):
    """The summary's ratio, as the README describes it: above 1 better."""
    return f"{r:.0f}x" if r >= 9.95 else f"{r:.1f}x" if r >= 0.095 else f".{100 * r:02.0f}x"


def test_committed_documents_side_by_side():
    docs = [load(p) for p in (H100, H200_X2, H100_X2)]
    p = summary(H100, H200_X2, H100_X2)
    assert p.returncode == 0, p.stderr
    lines = fits_one_screen(p.stdout)
    assert re.match(r"figure +H100 +H200x2 +H100x2$", lines[1]), lines[1]
    rows, want = columns(p.stdout), [expected(d) for d in docs]
    higher = {"GB/s": True, "ratio": True, "x": True, "us": False, "ns": False}
    for name, base in want[0].items():
        for k in (1, 2):
            value, unit, _ = want[k][name]
            r = value / base[0] if higher[unit] else base[0] / value
            assert rows[name][k][1] == ratio_text(r), (name, k, rows[name][k], r)
    assert rows["d2d copy"][1] == ("2113", "1.4x")       # the H200's faster memory
    assert rows["4K d2h latency"][1][1] == "0.5x"        # a longer time reads worse
    assert rows["P2P copy"][0] == ("-", "")              # one GPU: no peers
    assert "H200x2    vm: NVIDIA H200 (sm_90), GPU 0 of 2" in p.stdout


@pytest.mark.parametrize("n", [2, 3])
def test_the_same_system_twice_is_numbered_by_its_column(n):
    """The same document n times: its short name, then NAME#2 (and NAME#3), so
    that no two columns read alike."""
    p = summary(*[H100] * n)
    assert p.returncode == 0, p.stderr
    head = p.stdout.splitlines()[1].split()
    assert head == ["figure", "H100"] + [f"H100#{k}" for k in range(2, n + 1)], head


def about(out, name):
    """The line or two that a summary of several documents gives document `name`."""
    lines = out.split("\nsystems, anomalies", 1)[1].splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"  {name} "))
    more = [line for line in lines[at + 1:at + 2] if line.startswith(" " * 12)]
    return "\n".join([lines[at]] + more)


def test_eight_committed_documents_fit_one_screen():
    """Every headline row, eight columns and a line per document: 41 lines."""
    paths = [H100, H200_X2, H100_X2, H100, H200_X2, H100_X2, H100, QUICK]
    p = hmb.run("summary", *[x.relative_to(hmb.ROOT) for x in paths], cwd=hmb.ROOT)
    assert p.returncode == 0, p.stderr
    lines = fits_one_screen(p.stdout)
    assert lines[1].split() == ["figure", "H100", "H200x2", "H100x2", "H100#4", "H200x2#5",
                                "H100x2#6", "H100#7", "H100#8"], lines[1]
    rows = columns(p.stdout)
    assert len(rows) == 23
    # the last column whole: the quick run's values, each with its ratio
    for name, (value, _, _) in expected(load(QUICK)).items():
        shown, ratio = rows[name][7]
        assert abs(float(shown) - value) <= 0.01 * value + 0.006, (name, shown, value)
        assert re.fullmatch(r"[0-9.]+x|\.[0-9]{2}x|>99x", ratio), (name, ratio)
    assert str(H100.relative_to(hmb.ROOT)) in about(p.stdout, "H100")
    assert str(QUICK.relative_to(hmb.ROOT)) in about(p.stdout, "H100#8")


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


def test_eight_systems_fit_one_screen_with_direction_aware_ratios(tmp_path, sample_doc):
    """Eight documents, the second twice as slow and the third twice as fast as
    the first: bandwidth and latency both read 0.5x and 2.0x (above 1 better),
    whichever way their units count."""
    factors = [1, 2, 0.5, 1, 1, 1, 1, 1]
    paths = []
    for i, f in enumerate(factors):
        doc = synthetic_doc(sample_doc, f, f"G{i}", failed=i == 1, throttled=i == 2)
        paths.append(synthetic.write(tmp_path / f"d{i}.json", doc))
    p = summary(*paths)
    assert p.returncode == 0, p.stderr
    lines = fits_one_screen(p.stdout)
    assert lines[1].split() == ["figure"] + [f"G{i}" for i in range(8)], lines[1]
    rows = columns(p.stdout)
    assert [r for _, r in rows["pinned h2d"]] == ["", "0.5x", "2.0x"] + ["1.0x"] * 5, rows
    assert [r for _, r in rows["4K h2d latency"]] == ["", "0.5x", "2.0x"] + ["1.0x"] * 5, rows
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
    assert "| figure | unit | H100 | H200x2 |" in p.stdout
    assert re.search(r"^\| pinned h2d \| GB/s \| 55\.08 \(87%\) o \| 55\.54 \(88%\) 1\.01x \|$",
                     p.stdout, re.M), p.stdout
    assert re.search(r"^\| 4K d2h latency \| us \| 2\.83 \| 5\.28 0\.54x \|$", p.stdout, re.M)
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
    yield driver
    driver.quit()


def plotted_cases(docs):
    """The cases of documents that some document (and GPU) measured at two sizes or
    more, with a bandwidth or a time, and the systems (column names) that have them."""
    cases = {}
    for name, doc in docs:
        sizes = {}
        for r in doc["results"]:
            size = (r.get("params") or {}).get("size")
            if r["status"] != "ok" or not isinstance(size, (int, float)) or not r.get("stats_s"):
                continue
            sizes.setdefault((r["module"], r["case"], gpu_of(r)), set()).add(size)
        for (module, case, gpu), s in sizes.items():
            cases.setdefault(f"{module} {case}", {}).setdefault(name, set()).add((gpu, len(s)))
    return {c: {n: g for n, g in by.items()} for c, by in cases.items()
            if any(k > 1 for g in by.values() for _, k in g)}


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
    # one plot per case measured at several sizes, its legend naming every system
    names = ["H100", "H200x2", "H100x2"]
    want = plotted_cases(list(zip(names, docs)))
    svgs = browser.find_elements(By.CSS_SELECTOR, "svg.plot")
    titles = [s.find_element(By.CSS_SELECTOR, "text.title").text for s in svgs]
    assert sorted(titles) == sorted(want), set(titles) ^ set(want)
    for svg, title in zip(svgs, titles):
        legend = [t.text for t in svg.find_elements(By.CSS_SELECTOR, "g.legend text")]
        assert svg.is_displayed() and legend, title
        for name, gpus in want[title].items():
            for gpu, _ in gpus:
                label = name if gpu is None or name == "H100" else f"{name} GPU {gpu}"
                assert any(t == label or t.startswith(label + " ") for t in legend), \
                    (title, label, legend)
        assert len(legend) == len(set(legend)), (title, legend)
    # the systems side by side
    heads = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "table.systems tr th")]
    assert heads[1:4] == names


def test_html_of_one_document_plots_and_scales(tmp_path):
    """The d2d panel of the H200 holds its 2.1 TB/s: the value axis reaches past it."""
    out = tmp_path / "one.html"
    assert summary("-f", "html", "-o", out, H100, H200_X2).returncode == 0
    html = out.read_text()
    panel = html.split("<title>memcpy d2d/device/async</title>", 1)[1].split("</svg>", 1)[0]
    ticks = [float(t) for t in re.findall(r'text-anchor="end">([0-9.]+)</text>', panel)]
    top = max(r["gbps_median"] for r in load(H200_X2)["results"]
              if r["case"] == "d2d/device/async" and r["status"] == "ok")
    assert max(ticks) >= top > 2000, (ticks, top)
    assert statistics.median(ticks) < top
