"""test_noise.py - compare judges a change against the noise of each figure from one
document to the next (src/compare/noise.c, src/stats/resolution.h: its family's run-to-run
noise pooled over the document, its own runs, its family's session noise), with false
alarms held over all the figures by Benjamini-Hochberg: two documents of one build flag
at most 1% of their figures at --threshold 5 (2% on the committed pair of two runs), on
the committed H100 runs and on made-up runs with known noise, while a case or a whole
document made 10% slower on purpose is flagged wherever its noise lets it be, and every
figure it cannot judge says why. scripts/noise_floor.py measures the committed pairs of
one run."""
import csv
import io
import json
import math
import statistics
import subprocess

import pytest

import hmb
import synthetic

WIDE = ["base_file", "other_file", "result", "figure", "unit", "base", "other", "ratio", "p",
        "verdict", "resolution_rel", "noise", "noise_family", "noise_floor", "noise_rel",
        "noise_own_rel", "base_runs", "other_runs", "module", "case", "size"]
H100 = hmb.ROOT / "results" / "nvidia-h100-pcie"
# compare's session noise per kind of memory (src/stats/resolution.c): made-up documents
# that move by it from one to the next are what the model expects
SESSION = {"pageable": 0.056, "pinned": 0.012, "registered": 0.012, "write-combined": 0.012}


@pytest.fixture
def docs(tmp_path, sample_doc):
    def write(name, results):
        return synthetic.write(tmp_path / name, synthetic.document(sample_doc, results))
    return write


def judged(base, other, threshold=5):
    """compare --wide as CSV rows, and its exit status."""
    p = hmb.run("--format", "csv", "--wide", "compare", base, other, "--threshold", threshold)
    table = list(csv.reader(io.StringIO(p.stdout)))
    assert table and table[0][:len(WIDE)] == WIDE, p.stdout[:300] + p.stderr
    return [dict(zip(table[0], r)) for r in table[1:]], p


def pairs(docs, seeds, **kw):
    """Back-to-back pairs of made-up memcpy runs with the H100's run-to-run noise."""
    rows = []
    for s in seeds:
        a = docs(f"a{s}.json", synthetic.copies(seed=s, noise=0.02,
                                                run_noise=synthetic.REALISTIC_RUN_NOISE, **kw))
        b = docs(f"b{s}.json", synthetic.copies(seed=s + 1000, noise=0.02,
                                                run_noise=synthetic.REALISTIC_RUN_NOISE, **kw))
        rows += judged(a, b)[0]
    return rows


def test_committed_back_to_back_runs_flag_at_most_1_percent(tmp_path):
    """An `all` run against each module run alone after it, the two runs that shared the
    GPU and two `all` runs back to back: scripts/noise_floor.py runs compare on each pair
    (one run a side: the floors)."""
    out = tmp_path / "floors.json"
    p = subprocess.run([hmb.PY, str(hmb.ROOT / "scripts" / "noise_floor.py"), "--binary",
                        str(hmb.BIN), "--json", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    figures = json.loads(out.read_text())
    assert figures["matched"] > 850
    assert figures["worse"] <= 0.01 * figures["matched"], p.stdout
    assert "flagged WORSE at --threshold 5:" in p.stdout.splitlines()[-1]


def test_committed_runs_3_pair_flags_at_most_1_percent():
    """Two `all --runs 3` one after the other on the H100 (results/.../runs3): judged on
    the runs' figures, at most 1% of the figures WORSE at --threshold 5."""
    folder = hmb.ROOT / "results" / "nvidia-h100-pcie" / "runs3"
    rows, p = judged(folder / "a.json", folder / "b.json")
    assert len(rows) > 800 and {r["noise"] for r in rows if r["p"] not in ("", "-")} == {"runs"}
    worse = [r for r in rows if r["verdict"] == "WORSE"]
    assert len(worse) <= 0.01 * len(rows), worse[:5]


@pytest.mark.parametrize("runs", [1, 3])
def test_made_up_back_to_back_runs_flag_at_most_1_percent(docs, runs):
    """Ten pairs of memcpy documents whose runs move as the H100's do (one run in 20
    three times as much): one run a side (the floor) and three (--runs 3)."""
    rows = pairs(docs, range(10), runs=runs)
    worse = [r for r in rows if r["verdict"] == "WORSE"]
    assert len(rows) == 1440
    assert {r["noise"] for r in rows} == {"floor" if runs == 1 else "runs"}
    assert len(worse) <= 0.01 * len(rows), worse[:5]


def slowed(docs, runs, case="h2d/pinned/async", factor=1.10, seed=5):
    a = docs("a.json", synthetic.copies(seed=seed, noise=0.02, runs=runs,
                                        run_noise=synthetic.REALISTIC_RUN_NOISE))
    b = docs("b.json", synthetic.copies(seed=seed + 1000, noise=0.02, runs=runs,
                                        run_noise=synthetic.REALISTIC_RUN_NOISE,
                                        slower={case: factor}))
    return judged(a, b)


def sizes_of(rows, verdict, case="h2d/pinned/async"):
    return [r["result"].split("size=")[1] for r in rows
            if case in r["result"] and r["verdict"] == verdict]


def test_a_slowdown_of_10_percent_is_flagged_with_runs(docs):
    """--runs 3 on both sides: the slowed case is WORSE at its sizes from 1 MiB on,
    where the copy's time outweighs the call's (but where a run that moved three times
    as much as the others widens the noise: at most 2 of the 10), at none below
    256 KiB, where the figure moves by less than 5%; and nothing else is."""
    rows, p = slowed(docs, runs=3)
    assert p.returncode == 1, p.stderr
    worse = set(sizes_of(rows, "WORSE"))
    large = {"1M", "2M", "4M", "8M", "16M", "32M", "64M", "128M", "256M", "512M"}
    assert len(large & worse) >= 8 and worse <= large | {"256K", "512K"}, worse
    assert not [r for r in rows if r["verdict"] == "WORSE" and "h2d/pinned/async" not in r["result"]]
    assert "Noise model: runs" in p.stderr and "pooled" in p.stderr


def test_a_slowdown_of_10_percent_is_flagged_in_one_run(docs):
    """One run a side: the asynchronous copies' floor (2%) leaves a 10% slowdown of
    the large sizes beyond the noise."""
    rows, p = slowed(docs, runs=1)
    assert p.returncode == 1, p.stderr
    large = {"64M", "128M", "256M", "512M"}
    assert len(large & set(sizes_of(rows, "WORSE"))) >= 3, sizes_of(rows, "WORSE")
    assert not [r for r in rows if r["verdict"] == "WORSE" and "h2d/pinned/async" not in r["result"]]
    assert "Noise model: floor" in p.stderr


def test_runs_see_what_one_run_cannot(docs):
    """hipMemcpy's figures move by 15% from one run to the next (their floor): a 10%
    slowdown is within one run's noise, but five steady runs a side show it."""
    one = {"pinned": 0.15}
    a = docs("a1.json", synthetic.copies(seed=3, noise=0.02, kinds=("pinned",), api="sync",
                                         run_noise=one))
    b = docs("b1.json", synthetic.copies(seed=4, noise=0.02, kinds=("pinned",), api="sync",
                                         run_noise=one, slower={"d2h/pinned/sync": 1.10}))
    rows, p = judged(a, b)
    assert sizes_of(rows, "WORSE", "d2h/pinned/sync") == []
    steady = {"pinned": 0.005}
    a = docs("a5.json", synthetic.copies(seed=3, noise=0.02, runs=5, kinds=("pinned",),
                                         api="sync", run_noise=steady))
    b = docs("b5.json", synthetic.copies(seed=4, noise=0.02, runs=5, kinds=("pinned",),
                                         api="sync", run_noise=steady,
                                         slower={"d2h/pinned/sync": 1.10}))
    rows, p = judged(a, b)
    assert {"64M", "128M", "256M", "512M"} <= set(sizes_of(rows, "WORSE", "d2h/pinned/sync"))


def test_committed_two_run_pair_flags_at_most_2_percent():
    """Two `all` documents of two runs a module, one after the other on the H100: at most
    2% of the figures flagged either way at --threshold 5 (vmm's calls read three times
    faster in the second; the session noise calibrated on these pairs leaves the tail
    beyond its 90th percentile flagged), and every figure that moved by more than that and
    is not flagged says why (n.s., or ?N%: it cannot be judged at 5%)."""
    rows, p = judged(H100 / "all.json", H100 / "back-to-back" / "b.json")
    assert len(rows) > 650
    flagged = [r for r in rows if r["verdict"] in ("WORSE", "better")]
    assert len(flagged) <= 0.02 * len(rows), flagged[:5]
    says_why(rows)


def says_why(rows, threshold=5):
    """Every figure with a direction that moved past the threshold is flagged, n.s.,
    or cannot be judged (?N%, N above the threshold)."""
    for r in rows:
        if r["p"] in ("", "-") or r["ratio"] in ("", "-"):
            continue
        moved = abs(float(r["ratio"]) - 1) * 100 > threshold
        info = r["unit"] in ("bytes", "fraction", "count", "") or "share" in r["figure"]
        if not info and float(r["resolution_rel"]) * 100 > threshold and \
                r["verdict"] not in ("WORSE", "better"):
            assert r["verdict"].startswith("?"), r  # what it cannot judge, it says
        if r["verdict"].startswith("?"):
            assert float(r["resolution_rel"]) * 100 > threshold, r
        elif moved and r["verdict"] == "":
            # a figure without a direction (information) has no verdict
            assert r["unit"] in ("bytes", "fraction", "count", "") or "share" in r["figure"], r


def test_every_time_10_percent_slower_is_flagged_where_the_noise_allows(docs, sample_doc):
    """Made-up documents of three runs whose figures move as the model says (runs and
    sessions): the second with every time 10% longer. Copies of page-locked memory
    (noise about 1.5% a document) are flagged WORSE nearly everywhere their figure moves by
    more than 5%; pageable copies (5.6% a session) cannot be judged at 5% and say so."""
    kw = dict(noise=0.02, runs=3, run_noise=synthetic.REALISTIC_RUN_NOISE, doc_noise=SESSION)
    a = docs("a.json", synthetic.copies(seed=11, **kw))
    slow = synthetic.every_time_slower(synthetic.document(sample_doc, synthetic.copies(seed=12, **kw)), 1.10)
    b = docs("b.json", slow["results"])
    rows, p = judged(a, b)
    assert p.returncode == 1
    locked = [r for r in rows if "pageable" not in r["result"] and r["figure"] == "GB/s"]
    moved = [r for r in locked if float(r["ratio"]) < 0.95]
    worse = [r for r in moved if r["verdict"] == "WORSE"]
    assert len(moved) > 100 and len(worse) >= 0.95 * len(moved), len(worse) / len(moved)
    pageable = [r for r in rows if "pageable" in r["result"] and r["figure"] == "GB/s"]
    unjudged = [r for r in pageable if r["verdict"].startswith("?")]
    assert len(unjudged) >= 0.67 * len(pageable) and all(
        r["verdict"] in ("WORSE", "n.s.") for r in pageable if r not in unjudged), pageable[:3]
    says_why(rows)


def test_committed_pair_made_10_percent_slower_says_why_where_not_flagged(tmp_path):
    """The committed pair of two runs, the second with every time 10% longer: the
    figures compare cannot judge at 5% say so, the rest are flagged."""
    with open(H100 / "back-to-back" / "b.json") as f:
        slow = synthetic.every_time_slower(json.load(f), 1.10)
    path = synthetic.write(tmp_path / "slow.json", slow)
    rows, p = judged(H100 / "all.json", path)
    assert p.returncode == 1
    says_why(rows)
    timed = [r for r in rows if r["unit"] in ("GB/s", "s", "us") and r["p"] not in ("", "-")]
    judgeable = [r for r in timed if float(r["resolution_rel"]) * 100 <= 5]
    worse = [r for r in judgeable if r["verdict"] == "WORSE"]
    assert len(judgeable) > 50 and len(worse) >= 0.9 * len(judgeable), \
        [r for r in judgeable if r["verdict"] != "WORSE"][:5]


def test_false_alarms_are_held_over_many_figures(docs):
    """Ten pairs of made-up documents of one build that move exactly as the model says,
    judged at --threshold 0 (every discovery flagged): each p is then uniform, 5% of the
    figures would fall below 0.05, and Benjamini-Hochberg flags at most a few."""
    kw = dict(noise=0.02, runs=2, run_noise=synthetic.REALISTIC_RUN_NOISE, doc_noise=SESSION,
              tail=False)
    flagged = total = low = 0
    for s in range(10):
        a = docs(f"a{s}.json", synthetic.copies(seed=100 + s, **kw))
        b = docs(f"b{s}.json", synthetic.copies(seed=200 + s, **kw))
        rows, p = judged(a, b, threshold=0)
        total += len(rows)
        flagged += sum(r["verdict"] in ("WORSE", "better") for r in rows)
        low += sum(float(r["p"]) < 0.05 for r in rows if r["p"] not in ("", "-"))
    assert low >= 0.025 * total  # the noise is as the model says: p is not inflated
    assert flagged <= 0.01 * total, (flagged, low, total)


@pytest.mark.parametrize("sigma", [0.01, 0.05])
def test_the_noise_compare_reads_is_the_runs_noise(docs, sigma):
    """Made-up copies of page-locked memory whose runs move by a known sigma (three runs a
    side, no tail, nothing between documents beyond the runs): the noise compare
    judges each change against is what that sigma and the family's session noise make,
    sqrt(2 (sigma^2 / 3 + 1.2%^2)), read from the runs' own figures."""
    kw = dict(noise=0.002, runs=3, run_noise={"pinned": sigma}, kinds=("pinned",), tail=False)
    rows, p = judged(docs("a.json", synthetic.copies(seed=21, **kw)),
                     docs("b.json", synthetic.copies(seed=22, **kw)))
    want = math.sqrt(2 * (sigma ** 2 / 3 + SESSION["pinned"] ** 2))
    got = statistics.median(float(r["noise_rel"]) for r in rows if r["noise"] == "runs")
    assert len(rows) == 36 and 0.8 * want < got < 1.25 * want, (got, want)


def test_fdr_steps_up_past_a_p_above_its_bound(docs):
    """Twenty copies, one run a side (noise: the 2% floor on each), all 6.6% slower: each
    p is about 0.02, above the first bound (0.05 / 20) but within the last (0.05):
    Benjamini-Hochberg steps up and flags all twenty."""
    def steady(factor):
        return [synthetic.record("memcpy", "h2d/pinned/async",
                                 {"size": 4096 << i, "direction": "h2d", "host_memory": "pinned"},
                                 [(4096 << i) / 25e9 * factor] * 20, nbytes=4096 << i)
                for i in range(20)]
    rows, p = judged(docs("a.json", steady(1.0)), docs("b.json", steady(1.066)))
    ps = [float(r["p"]) for r in rows]
    assert all(0.0025 < x < 0.05 for x in ps), ps
    assert [r["verdict"] for r in rows] == ["WORSE"] * 20, rows[:2]


def test_a_shared_gpu_adds_to_the_noise(docs):
    """A figure measured while another process used the GPU (observed.gpu_shared_with)
    moves far more: 30% slower is within its noise, which cannot judge 5% (?51%)."""
    base = synthetic.copies(n_sizes=1, kinds=("pinned",), directions=("h2d",), seed=1)
    other = synthetic.copies(n_sizes=1, kinds=("pinned",), directions=("h2d",), seed=2,
                             slower={"h2d/pinned/async": 1.0})
    for r in other:
        r["samples_s"] = [x * 30 for x in r["samples_s"]]  # the copy's time, 30x the latency
        r["gbps_median"] /= 1.3
    alone = judged(docs("a.json", base), docs("b.json", other))[0]
    for r in other:
        r["observed"]["gpu_shared_with"] = "4242"
    shared = judged(docs("a.json", base), docs("c.json", other))[0]
    assert alone[0]["verdict"] == "WORSE", alone
    assert shared[0]["verdict"] == "?51%" and float(shared[0]["noise_own_rel"]) > 0.25, shared


def test_help_names_the_floors():
    p = hmb.run("help", "compare")
    assert p.returncode == 0
    assert "  memcpy async (events)                    1.2%     2.0%" in p.stdout, p.stdout
    assert "another process using the GPU around a figure adds 25%" in p.stdout
    assert max(len(line) for line in p.stdout.splitlines()) <= 80


@pytest.mark.parametrize("args,message", [
    (["badpair"], "'badpair' is not BASE.json=OTHER.json"),
    (["missing.json=other.json"], "missing.json: no such file"),
])
def test_noise_floor_script_refuses_bad_input(tmp_path, args, message):
    p = subprocess.run([hmb.PY, str(hmb.ROOT / "scripts" / "noise_floor.py"), "--binary",
                        str(hmb.BIN)] + args, capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 2 and message in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
