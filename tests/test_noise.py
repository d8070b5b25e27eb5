"""test_noise.py - compare judges a change against run-to-run noise (src/compare/noise.c):
two runs of one build flag at most 1% of their figures WORSE at --threshold 5, on the
committed H100 runs and on made-up runs with the H100's run-to-run noise, while a case
made 10% slower on purpose is flagged, with --runs 3 on both sides and, where its family's
floor allows, with one run a side. scripts/noise_floor.py measures the committed pairs."""
import csv
import io
import json
import subprocess

import pytest

import hmb
import synthetic

WIDE = ["base_file", "other_file", "result", "figure", "unit", "base", "other", "ratio", "p",
        "verdict", "noise", "noise_family", "noise_floor", "noise_rel", "noise_own_rel"]


@pytest.fixture
def docs(tmp_path, sample_doc):
    def write(name, results):
        return synthetic.write(tmp_path / name, synthetic.document(sample_doc, results))
    return write


def judged(base, other, threshold=5):
    """compare --wide as CSV rows, and its exit status."""
    p = hmb.run("--format", "csv", "--wide", "compare", base, other, "--threshold", threshold)
    table = list(csv.reader(io.StringIO(p.stdout)))
    assert table and table[0] == WIDE, p.stdout[:300] + p.stderr
    return [dict(zip(WIDE, r)) for r in table[1:]], p


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
    assert "Noise model: runs" in p.stderr and "Welch" in p.stderr


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
    """Pageable copies move by 5% from run to run (their floor: 8%): a 10% slowdown
    is within one run's noise, but five steady runs a side show it."""
    rows, p = slowed(docs, runs=1, case="d2h/pageable/async", factor=1.10, seed=3)
    assert sizes_of(rows, "WORSE", "d2h/pageable/async") == []
    steady = {"pageable": 0.005, "pinned": 0.005, "registered": 0.005, "write-combined": 0.005}
    a = docs("a5.json", synthetic.copies(seed=3, noise=0.02, runs=5, run_noise=steady))
    b = docs("b5.json", synthetic.copies(seed=4, noise=0.02, runs=5, run_noise=steady,
                                         slower={"d2h/pageable/async": 1.10}))
    rows, p = judged(a, b)
    assert {"64M", "128M", "256M", "512M"} <= set(sizes_of(rows, "WORSE", "d2h/pageable/async"))


def test_a_shared_gpu_adds_to_the_noise(docs):
    """A figure measured while another process used the GPU (observed.gpu_shared_with)
    moves far more: 30% slower is within its noise."""
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
    assert shared[0]["verdict"] == "n.s." and float(shared[0]["noise_own_rel"]) > 0.25, shared


def test_help_names_the_floors():
    p = hmb.run("help", "compare")
    assert p.returncode == 0
    assert "memcpy async (events)              2.0%" in p.stdout, p.stdout
    assert "another process\nusing the GPU around a figure adds 25%" in p.stdout
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
