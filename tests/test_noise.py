"""test_noise.py - every figure's noise is measured on its own documents (src/stats/resolution.h,
src/compare/noise.c): its runs, weighed against the figures alike in its document, and, where a
document merges several (hipmembench merge), the spread between them. On made-up documents whose
noise is known per figure: pairs made alike flag almost nothing; a steady figure beside noisy
siblings keeps its own narrow resolution; one slow run widens its own figure, not its
neighbours'; a figure's own samples scale its prior; one machine's two documents weigh their
runs together; documents that drift apart are seen by replicates, not by one document a side;
replicates catch a 10% change; a merge keeps every run with its document and refuses documents
that are not replicates; documents of one run are not judged and say why; a figure too noisy
for the threshold says what change it can tell; older committed documents still compare."""
import csv
import io
import json
import math
import random

import pytest

import hmb
import hmbdoc
import synthetic

H100 = hmb.ROOT / "results" / "nvidia-h100-pcie"


@pytest.fixture
def docs(tmp_path, sample_doc):
    """Made-up documents, each started a minute after the one before (replicates)."""
    made = []

    def write(name, results, **kw):
        made.append(name)
        kw.setdefault("started", f"2026-12-01T10:{len(made):02d}:00Z")
        return synthetic.write(tmp_path / name, synthetic.document(sample_doc, results, **kw))
    return write


def judged(base, other, threshold=5, *extra):
    """compare --wide as CSV rows (dicts), and the process."""
    p = hmb.run("--format", "csv", "--wide", *extra, "compare", base, other,
                "--threshold", threshold)
    assert p.returncode in (0, 1), p.stderr
    return list(csv.DictReader(io.StringIO(p.stdout))), p


def copies(seed, **kw):
    """Made-up memcpy documents of two runs (a process each) with known noise: samples
    within +-1% of the run's time, pinned and registered runs 0.3% apart, pageable 6%."""
    kw.setdefault("run_noise", {"pageable": 0.06, "pinned": 0.003, "registered": 0.003})
    kw.setdefault("kinds", ("pageable", "pinned", "registered"))
    return synthetic.copies(seed=seed, noise=0.01, n_sizes=12, tail=False, **kw)


def flagged(rows):
    return [r for r in rows if r["verdict"] in ("WORSE", "better")]


def test_pairs_made_alike_flag_almost_nothing(docs):
    """Eight pairs of documents drawn alike: at most 1% of the figures flagged, and most
    pairs pass a gate at --threshold 5."""
    rows, exits = [], 0
    for s in range(8):
        r, p = judged(docs(f"a{s}.json", copies(s)), docs(f"b{s}.json", copies(100 + s)))
        rows += r
        exits += p.returncode
    assert len(rows) == 8 * 72
    assert len(flagged(rows)) <= 0.01 * len(rows), flagged(rows)
    assert exits <= 1


def test_a_steady_figure_beside_noisy_siblings_keeps_its_own_resolution(docs):
    """In one document, pinned copies repeat within 0.3% a run and pageable ones 6%:
    each kind's resolution is its own (pinned about 1%, pageable several times wider),
    and a pinned case 10% slower (where the copy's time is, not its fixed cost) is
    flagged wherever it moved by more than the threshold."""
    a, b = docs("a.json", copies(1)), docs("b.json", copies(2, slower={"h2d/pinned/async": 1.1}))
    rows, p = judged(a, b)
    res = {}
    for r in rows:
        kind = r["result"].split()[1].split("/")[1]
        res.setdefault(kind, []).append(float(r["resolution_rel"]))
    med = {k: sorted(v)[len(v) // 2] for k, v in res.items()}
    assert med["pinned"] < 0.03 and med["registered"] < 0.03, med
    assert med["pageable"] > 3 * med["pinned"], med
    slowed = [r for r in rows if "h2d/pinned/async" in r["result"]]
    moved = [r for r in slowed if float(r["ratio"]) < 0.95]
    assert len(moved) >= 6 and all(r["verdict"] == "WORSE" for r in moved), moved
    assert p.returncode == 1
    assert len([r for r in flagged(rows) if r not in moved]) <= 1
    assert {r["noise"] for r in rows} == {"runs"}


def one_slow(results, case, size, factor):
    """results with one run of one result slower by factor (its samples and median)."""
    for r in results:
        if r["case"] == case and r["params"]["size"] == size:
            n = r["runs"]["samples"][0]
            r["samples_s"] = [x * factor if i >= n else x for i, x in enumerate(r["samples_s"])]
            r["runs"]["median_s"][1] *= factor
            s = sorted(r["samples_s"])
            r["stats_s"]["median"] = (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2
            r["gbps_median"] = size / r["stats_s"]["median"] / 1e9
    return results


def test_one_slow_run_widens_its_own_figure_not_its_neighbours(docs):
    """One run of one pinned copy 30% slow: that figure's resolution is wide (it is not
    flagged, and not taken as quiet); the pinned figures two sizes or more away keep theirs."""
    base = docs("a.json", copies(3))
    calm, _ = judged(base, docs("b.json", copies(4)))
    slow, _ = judged(base, docs("c.json", one_slow(copies(4), "d2h/pinned/async", 4096 << 6,
                                                      1.3)))
    at = {(r["result"], r["figure"]): r for r in slow}
    hit = [r for r in slow if r["result"] == "memcpy d2h/pinned/async size=256K"][0]
    assert hit["verdict"] not in ("WORSE", "better")
    assert float(hit["resolution_rel"]) > 0.1
    far = 0
    for r in calm:
        if "d2h/pinned/async" in r["result"] and r["result"].split("size=")[1] not in (
                "64K", "128K", "256K", "512K", "1M"):
            s = at[(r["result"], r["figure"])]
            assert float(s["resolution_rel"]) < 1.5 * float(r["resolution_rel"]), (r, s)
            far += 1
    assert far == 7


def sized(seed, small_sigma, large_sigma):
    """One case at twelve sizes, two runs each: the six small sizes' runs move by
    small_sigma, the six large ones' by large_sigma (each sample within +-1% of its run);
    every other size first, as a document need not hold them in order. At 2M the two
    runs agree to the last digit."""
    rng, out = random.Random(seed), []
    for i in range(12):
        size, sigma = 4096 << i, small_sigma if i < 6 else large_sigma
        true = 5e-6 + size / 25e9
        each = []
        for _ in range(2):
            run = true * math.exp(rng.gauss(0.0, sigma))
            each.append([run * rng.uniform(0.99, 1.01) for _ in range(20)])
        if i == 9:  # two runs that agree exactly: its prior says how wide it is
            each[1] = list(each[0])
        out.append(synthetic.record("memcpy", "h2d/pinned/async",
                                    {"size": size, "direction": "h2d", "host_memory": "pinned"},
                                    each[0], nbytes=size, runs=each))
    return out[0::2] + out[1::2]  # not in the order of their sizes


def test_the_figures_alike_are_those_of_the_nearest_sizes(docs):
    """A copy whose small sizes move 8% from run to run and whose large ones 0.2%: each
    figure's prior comes from the sizes beside it, so the large sizes two sizes or more from
    the small ones keep a resolution several times narrower than theirs, the one whose runs
    agree exactly too (its prior is its neighbours' in size, not the whole case's nor its
    neighbours in the document)."""
    rows, _ = judged(docs("a.json", sized(1, 0.08, 0.002)), docs("b.json", sized(2, 0.08, 0.002)))
    res = {r["result"].split("size=")[1]: float(r["resolution_rel"])
           for r in rows if r["figure"] == rows[0]["figure"]}
    small = [res[k] for k in ("4K", "8K", "16K", "32K", "64K", "128K")]
    far = [res[k] for k in ("1M", "2M", "4M", "8M")]  # two sizes or more from the small
    assert min(small) > 0.1 and max(far) < 0.05, res


def test_drift_between_documents_is_seen_by_replicates(docs, tmp_path):
    """Pageable copies that move 8% from one document to the next while their two runs agree
    within 0.3%: one document a side calls them changed; three merged against two, where the
    documents' spread is measured, does not, and their resolution there is wide."""
    kw = {"run_noise": 0.003, "doc_noise": {"pageable": 0.08}}
    paths = [docs(f"d{s}.json", copies(10 + s, **kw)) for s in range(5)]
    one_a_side = sum(len(flagged(judged(paths[i], paths[i + 1])[0])) for i in range(4))
    assert one_a_side > 0
    m123, m45 = tmp_path / "m123.json", tmp_path / "m45.json"
    assert hmb.run("merge", "-o", m123, *paths[:3]).returncode == 0
    assert hmb.run("merge", "-o", m45, *paths[3:]).returncode == 0
    rows, p = judged(m123, m45)
    assert p.returncode == 0 and not flagged(rows), flagged(rows)
    assert {r["noise"] for r in rows} == {"documents"}
    res = {k: [float(r["resolution_rel"]) for r in rows if f"/{k}/" in r["result"]]
           for k in ("pageable", "pinned")}
    assert min(res["pageable"]) > 2 * max(res["pinned"]), res


def test_replicates_catch_a_10_percent_change(docs, tmp_path):
    """Three documents merged against two, the second's copies 10% slower (where the copy's
    time is): every pinned and registered figure that moved by more than 5% is flagged
    WORSE, and the gate fails."""
    paths = [docs(f"r{s}.json", copies(20 + s)) for s in range(3)]
    slow = [docs(f"s{s}.json", copies(30 + s, slower={f"{d}/{k}/async": 1.1
                                                      for d in ("h2d", "d2h")
                                                      for k in ("pinned", "registered",
                                                                "pageable")}))
            for s in range(2)]
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert hmb.run("merge", "-o", a, *paths).returncode == 0
    assert hmb.run("merge", "-o", b, *slow).returncode == 0
    rows, p = judged(a, b)
    quiet = [r for r in rows if "/pageable/" not in r["result"] and float(r["ratio"]) < 0.95]
    assert len(quiet) >= 24 and all(r["verdict"] == "WORSE" for r in quiet), \
        [r for r in quiet if r["verdict"] != "WORSE"]
    assert p.returncode == 1


def test_a_merge_keeps_every_run_with_its_document(docs, tmp_path):
    """merge: each result holds every run of every document, each run's document in
    runs.documents, its samples pooled; merged_from names the documents; the noise says it
    comes from documents; a merge of merges numbers its documents on."""
    paths = [docs(f"k{s}.json", copies(40 + s)) for s in range(3)]
    out = tmp_path / "m.json"
    p = hmb.run("merge", "-o", out, *paths)
    assert p.returncode == 0 and p.stdout == "" and p.stderr == "", p.stderr
    m = hmbdoc.assert_valid(out, complete=True)
    assert [f["file"] for f in m["merged_from"]] == [str(x) for x in paths]
    assert len(m["results"]) == 72
    for r in m["results"]:
        assert r["runs"]["count"] == 6 and r["runs"]["documents"] == [0, 0, 1, 1, 2, 2]
        assert len(r["samples_s"]) == sum(r["runs"]["samples"]) == r["stats_s"]["count"]
        res = r["runs"]["resolution"]
        assert res["documents"] == 3 and res["runs"] == 6 and res["document"]["own_df"] == 2
    again = tmp_path / "mm.json"
    assert hmb.run("merge", "-o", again, out, docs("k9.json", copies(49))).returncode == 0
    mm = json.loads(again.read_text())
    assert len(mm["merged_from"]) == 4
    assert mm["results"][0]["runs"]["documents"] == [0, 0, 1, 1, 2, 2, 3, 3]
    # show and summary read it like any other
    assert hmb.run("show", out).returncode == 0
    assert hmb.run("summary", out).returncode == 0


@pytest.mark.parametrize("change, says", [
    (lambda d: d["tool"].__setitem__("git_revision", "0000000"), "differ in build"),
    (lambda d: d["host"].__setitem__("hostname", "elsewhere"), "differ in host"),
    (lambda d: d["settings"].__setitem__("reps", 99), "other settings"),
    (lambda d: None, "are one document"),
])
def test_merge_refuses_documents_that_are_not_replicates(docs, tmp_path, change, says):
    """Another build, host or settings, or the same document twice: one line naming the
    difference, exit 2, nothing written."""
    a = docs("a.json", copies(50))
    doc = json.loads(a.read_text())
    change(doc)
    b = synthetic.write(tmp_path / "b.json", doc)
    out = tmp_path / "out.json"
    p = hmb.run("merge", "-o", out, a, b)
    assert p.returncode == 2 and says in p.stderr and len(p.stderr.splitlines()) == 1, p.stderr
    assert not out.exists()


def test_merge_needs_an_output_and_two_documents(docs, tmp_path):
    a, b = docs("a.json", copies(60)), docs("b.json", copies(61))
    for args, says in ((["merge", a, b], "needs --output"),
                       (["merge", "-o", tmp_path / "o.json", a], "at least two"),
                       (["merge", "-o", a, a, b], "written over")):
        p = hmb.run(*args)
        assert p.returncode == 2 and says in p.stderr, p.stderr


def test_documents_of_one_run_are_not_judged_and_say_why(docs):
    """One run a side: how a figure moves from one process to the next is not measured;
    every figure says '?' and the legend says why; no gate fails on it."""
    one = dict(runs=1)
    rows, p = judged(docs("a.json", copies(70, **one)), docs("b.json", copies(71, **one)))
    assert rows and all(r["verdict"] == "?" and r["p"] == "" for r in rows)
    assert p.returncode == 0
    assert "no runs on either side" in p.stderr
    # one side of two runs: its noise stands for both (one machine)
    rows, p = judged(docs("c.json", copies(72, **one)), docs("d.json", copies(73)))
    assert {r["noise"] for r in rows} == {"one-side"}


def test_older_committed_documents_still_compare():
    """Documents an earlier build wrote: of two runs (judged by their runs) and of one
    (not judged, saying so)."""
    rows, p = judged(H100 / "resolution" / "a.json", H100 / "resolution" / "b.json")
    assert len(rows) > 600 and {r["noise"] for r in rows} - {""} <= {"runs", "one-side"}
    assert sum(r["noise"] == "runs" for r in rows) > 600
    assert "judged by runs" in p.stderr
    rows, p = judged(H100 / "back-to-back-one-run" / "a.json",
                     H100 / "back-to-back-one-run" / "b.json")
    assert rows and all(r["verdict"] in ("?", "") for r in rows)


def test_help_compare_describes_the_model():
    text = hmb.run("help", "compare").stdout
    flat = " ".join(text.split())
    for words in ("measured on the documents", "weighed against the figures alike",
                  "hipmembench merge", "Student's t", "merge three documents a side"):
        assert words in flat, words
    for old in ("floor", "p < 0.01", "Welch", "session"):
        assert old not in flat, old


def test_a_figure_too_noisy_for_the_threshold_says_what_it_can_tell(docs):
    """Pageable copies that move 6% from run to run cannot show a 5% change: each such figure
    says ?N%, N its resolution (the change it tells from noise), and the legend counts them;
    pinned and registered copies (0.3%) are judged."""
    rows, p = judged(docs("a.json", copies(80)), docs("b.json", copies(81)))
    cannot = [r for r in rows if r["verdict"].startswith("?") and r["verdict"] != "?"]
    assert len(cannot) >= 12 and all("/pageable/" in r["result"] for r in cannot), cannot
    for r in cannot:
        assert r["verdict"] == f"?{100 * float(r['resolution_rel']):.2g}%", r
    wide = [r for r in rows if float(r["resolution_rel"]) > 0.05
            and r["verdict"] not in ("WORSE", "better")]
    assert wide == cannot
    assert f"?N%: cannot judge 5%, this pair tells a change of N% or more from noise (95%): " \
           f"{len(cannot)} figure(s)" in " ".join(p.stderr.split())



def test_one_machine_weighs_both_sides_runs_together(docs):
    """Two documents of one machine: both sides' runs weighed together, the figures alike
    counted once ('pooled', and for most figures fewer degrees of freedom than where the
    documents are of two machines, each side's noise its own, whose sum counts each side's
    figures alike)."""
    a, b = docs("a.json", copies(90)), docs("b.json", copies(91))
    elsewhere = docs("c.json", copies(91), hostname="elsewhere")
    one, _ = judged(a, b)
    two, _ = judged(a, elsewhere)
    assert len(one) == len(two) == 72
    fewer = sum(float(x["noise_df"]) < float(y["noise_df"]) for x, y in zip(one, two))
    assert fewer >= 54, [(x["noise_df"], y["noise_df"]) for x, y in zip(one, two)]
    for other, pooled in ((b, True), (elsewhere, False)):
        text = hmb.run("--wide", "compare", a, other, "--threshold", 5).stdout
        rows = [line for line in text.splitlines() if line.startswith("memcpy ")]
        assert len(rows) == 72 and all((" pooled, " in x) == pooled for x in rows), rows


def alternating(seed, quiet, loud, run_over_within=1.0):
    """One case at sixteen sizes, two runs each, twenty samples a run: the even sizes' samples
    spread by quiet, the odd ones' by loud; each run moves from the truth by run_over_within
    times its samples' spread."""
    rng, out = random.Random(seed), []
    for i in range(16):
        size, w = 4096 << i, quiet if i % 2 == 0 else loud
        true = 5e-6 + size / 25e9
        each = []
        for _ in range(2):
            run = true * math.exp(rng.gauss(0.0, run_over_within * w))
            each.append([run * math.exp(rng.gauss(0.0, w)) for _ in range(20)])
        out.append(synthetic.record("memcpy", "h2d/pinned/async",
                                    {"size": size, "direction": "h2d", "host_memory": "pinned"},
                                    each[0], nbytes=size, runs=each))
    return out



def test_a_figure_s_own_samples_scale_its_prior(docs):
    """Sizes whose samples spread ten times less than those of the sizes beside them (their
    runs too): each figure's prior is its own samples' spread scaled by how far runs exceed
    samples over its neighbours, so the quiet sizes keep a resolution several times narrower
    than the loud ones between them, not their neighbours' noise."""
    rows, _ = judged(docs("a.json", alternating(1, 0.002, 0.02, 0.3)),
                     docs("b.json", alternating(2, 0.002, 0.02, 0.3)))
    res = [float(r["resolution_rel"]) for r in rows]
    quiet, loud = res[0::2], res[1::2]
    assert len(res) == 16 and max(quiet) < 0.005 and min(loud) > 3 * max(quiet), res
