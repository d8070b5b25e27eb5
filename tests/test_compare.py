"""test_compare.py - `hipmembench compare`: figures matched by identity,
ratios, and a verdict that is noise-aware: a figure is WORSE only when it moved
by more than --threshold and the Mann-Whitney U test of the samples says the
move is significant. Also its formats (one CSV table on stdout), its errors,
repeated identities, and a 200 MB document against itself."""
import copy
import csv
import io
import json
import re
import time

import pytest

import hmb
import synthetic

CSV_HEADER = ["base_file", "other_file", "result", "figure", "unit", "base", "other", "ratio",
              "p", "verdict"]


def compare(*args, timeout=120):
    return hmb.run("compare", *args, timeout=timeout)


def rows(p):
    """The CSV table of a compare run: a list of dicts; fails if stdout holds
    anything but one table."""
    table = list(csv.reader(io.StringIO(p.stdout)))
    assert table and table[0] == CSV_HEADER, p.stdout[:500]
    assert all(len(r) == len(CSV_HEADER) for r in table), "ragged CSV"
    return [dict(zip(CSV_HEADER, r)) for r in table[1:]]


@pytest.fixture
def docs(tmp_path, sample_doc):
    """write(name, results, **kw): a document with these results, in tmp_path."""
    def write(name, results, **kw):
        return synthetic.write(tmp_path / name, synthetic.document(sample_doc, results, **kw))
    return write


def overlap_result(scale=1.0, speedup=2.0, seed=3):
    import random
    rng = random.Random(seed)
    s = [1e-3 * scale * rng.uniform(0.98, 1.02) for _ in range(20)]
    return synthetic.record("overlap", "pipeline/pinned/balanced",
                            {"size": 1 << 28, "chunks": 4, "streams": 2, "load": "balanced",
                             "iters": 7}, s, metrics={"speedup": (speedup, "x")})


def test_document_against_itself(sample_doc):
    p = compare(sample_doc, sample_doc, "--threshold", "1")
    assert p.returncode == 0, p.stderr
    assert "1.000" in p.stdout and "WORSE" not in p.stdout


def test_slower_bandwidth_is_worse_higher_speedup_is_better(docs):
    base = docs("base.json", synthetic.copies(noise=0.03) + [overlap_result()])
    slower = docs("slower.json", synthetic.copies(noise=0.03, slower={"h2d/pinned/async": 1.25})
                  + [overlap_result(scale=1.25, speedup=3.0)], hostname="other-node", reps=99)
    p = compare(base, slower, "--threshold", "10")
    out = p.stdout + p.stderr
    assert p.returncode == 1, out
    assert re.search(r"h2d/pinned/async size=512M +GB/s +GB/s .* 0\.800 +\S+ +WORSE", out), out
    assert re.search(r"speedup +x .* 1\.500 +\S+ +better", out), out
    assert "other-node" in out and "warning: settings differ" in out
    assert "d2h/pinned/async size=512M" in out
    assert not re.search(r"d2h/.*WORSE", out)
    assert p.returncode == 1 and "worse than the base by more than 10%" in p.stderr


def test_change_within_the_threshold_passes(docs):
    base = docs("base.json", synthetic.copies(noise=0.03))
    slower = docs("slower.json", synthetic.copies(noise=0.03, slower={"h2d/pinned/async": 1.25}))
    assert compare(base, slower, "--threshold", "30").returncode == 0


def test_markdown_table(docs):
    base = docs("base.json", synthetic.copies(n_sizes=2))
    p = hmb.run("--format", "markdown", "compare", base, base)
    assert p.returncode == 0
    assert re.search(r"^\| memcpy h2d/pageable/async size=4K \| GB/s \|", p.stdout, re.M), p.stdout
    assert "| result | figure | unit | base | other | ratio | p | verdict |" in p.stdout


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_two_identical_noisy_runs_compare_clean_at_threshold_5(docs, seed):
    """Two runs drawn from the same distribution (every sample within +-20% of
    the truth, as pageable copies vary): many figures move by more than 5%, none
    significantly."""
    a = docs("a.json", synthetic.copies(seed=seed))
    b = docs("b.json", synthetic.copies(seed=seed + 100))
    p = hmb.run("--format", "csv", "compare", a, b, "--threshold", "5")
    r = rows(p)
    assert p.returncode == 0, p.stderr
    assert len(r) == 144
    assert not [x for x in r if x["verdict"] in ("WORSE", "better")]
    moved = [x for x in r if abs(float(x["ratio"]) - 1) > 0.05]
    assert moved and all(x["verdict"] == "n.s." for x in moved)


def test_real_regression_is_found_through_noise(docs):
    a = docs("a.json", synthetic.copies(seed=7, noise=0.05))
    b = docs("b.json", synthetic.copies(seed=8, noise=0.05, slower={"d2h/pinned/async": 1.2}))
    p = hmb.run("--format", "csv", "compare", a, b, "--threshold", "5")
    r = rows(p)
    worse = [x for x in r if x["verdict"] == "WORSE"]
    assert p.returncode == 1
    assert worse and all("d2h/pinned/async" in x["result"] for x in worse)
    assert all(float(x["p"]) < 0.01 for x in worse)
    # the large sizes, where the copy time dominates, all move by more than 5%
    assert {x["result"] for x in worse} >= {f"memcpy d2h/pinned/async size={s}"
                                            for s in ("64M", "128M", "256M", "512M")}


def test_too_few_samples_cannot_be_significant(docs):
    a = docs("a.json", synthetic.copies(n_sizes=2, reps=3, noise=0.01))
    b = docs("b.json", synthetic.copies(n_sizes=2, reps=3, noise=0.01,
                                        slower={"h2d/pinned/async": 2.0}))
    p = compare(a, b, "--threshold", "5")
    assert p.returncode == 0
    assert "n.s." in p.stdout and "WORSE" not in p.stdout
    assert re.search(r"too few samples .* --reps 5", p.stderr), p.stderr


def test_csv_is_one_table_on_stdout(docs):
    a = docs("a.json", synthetic.copies(n_sizes=3))
    b = docs("b.json", synthetic.copies(n_sizes=3, seed=2)[:-1])  # one figure less
    c = docs("c.json", synthetic.copies(n_sizes=3, seed=3))
    p = hmb.run("--format", "csv", "compare", a, b, c, "--threshold", "5")
    r = rows(p)
    assert p.returncode in (0, 1)
    assert len(r) == 24 - 1 + 24
    assert {x["other_file"] for x in r} == {str(b), str(c)}
    assert {x["base_file"] for x in r} == {str(a)}
    for x in r:
        float(x["base"]), float(x["other"]), float(x["ratio"]), float(x["p"])
        assert x["verdict"] in ("", "WORSE", "better", "n.s.")
    # what is not the table went to stderr
    assert "base  " in p.stderr and "only in" in p.stderr and "Mann-Whitney" in p.stderr


def test_identity_order_and_one_side_only(docs):
    a = synthetic.copies(n_sizes=2, noise=0.0)
    b = list(reversed(synthetic.copies(n_sizes=2, noise=0.0)))
    extra = synthetic.record("pool", "hipMalloc/loop", {"size": 4096, "loop": 10},
                             [1e-3] * 5, ops=10)
    p = hmb.run("--format", "csv", "compare", docs("a.json", a + [extra]), docs("b.json", b),
                "--threshold", "0")
    r = rows(p)
    assert p.returncode == 0
    assert len(r) == len(a) and all(x["ratio"] == "1" for x in r)
    assert [x["result"] for x in r][:2] == ["memcpy h2d/pageable/async size=4K",
                                            "memcpy h2d/pageable/async size=8K"]
    assert "base only:  pool hipMalloc/loop size=4K loop=10" in p.stderr


def test_repeated_identities_are_reported_and_matched_in_order(docs):
    first = synthetic.record("overlap", "copy-only/pinned", {"size": 1 << 20, "iters": 0},
                             [1e-3] * 10, nbytes=1 << 20)
    second = synthetic.record("overlap", "copy-only/pinned", {"size": 1 << 20, "iters": 0},
                              [2e-3] * 10, nbytes=1 << 20)
    a = docs("a.json", [first, second])
    p = hmb.run("--format", "csv", "compare", a, a, "--threshold", "0")
    r = rows(p)
    assert p.returncode == 0, p.stderr
    assert [x["base"] for x in r if x["figure"] == "GB/s"] == ["1.048576", "0.524288"]
    assert all(x["ratio"] == "1" and x["verdict"] == "" for x in r)
    assert re.search(r"a\.json: 1 figure\(s\) repeat an identity .*overlap copy-only/pinned",
                     p.stderr), p.stderr
    assert p.stderr.count("repeat an identity") == 1


def test_committed_document_against_itself_at_threshold_0():
    doc = hmb.ROOT / "results" / "nvidia-h100-pcie" / "all.json"
    p = compare(doc, doc, "--threshold", "0")
    assert p.returncode == 0, p.stderr
    assert "WORSE" not in p.stdout and "better" not in p.stdout
    assert "only in" not in p.stdout


@pytest.mark.parametrize("what,content,message", [
    ("truncated", None, "truncated.json: not valid JSON"),
    ("foreign", '{"name": "something else"}', "foreign.json: not a hipmembench document"),
    ("missing", "", "missing.json: No such file"),
])
def test_bad_file_is_named_exit_2(tmp_path, sample_doc, what, content, message):
    path = tmp_path / f"{what}.json"
    if content is None:
        path.write_text(sample_doc.read_text()[:200])
    elif content:
        path.write_text(content)
    p = compare(sample_doc, path)
    assert p.returncode == 2 and message in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and p.stdout == ""


def test_one_file_is_not_enough(sample_doc):
    p = compare(sample_doc)
    assert p.returncode == 2 and "needs a base document and at least one other" in p.stderr


def write_big(path, frame, results, copies):
    """frame with copies x results, each copy's params marked so identities stay unique."""
    head, tail = json.dumps(frame).rsplit('"results": []', 1)
    with open(path, "w") as f:
        f.write(head + '"results": [')
        sep = ""
        for c in range(copies):
            for r in results:
                r = copy.copy(r)
                r["params"] = dict(r["params"], copy=c)
                f.write(sep + json.dumps(r))
                sep = ","
        f.write("]" + tail)


def test_200_mb_document_against_itself(tmp_path, sample_doc):
    """Matching sorts and merges: a 200 MB document (about 200 000 results) compares
    with itself in seconds (the limit only stops a run that has gone quadratic)."""
    results = synthetic.copies(n_sizes=18, reps=20, noise=0.1)
    copies = 200_000_000 // (len(json.dumps(results[0])) + 2) // len(results) + 1
    path = tmp_path / "big.json"
    try:
        write_big(path, synthetic.document(sample_doc, []), results, copies)
        size = path.stat().st_size
        assert size >= 200_000_000
        started = time.monotonic()
        p = hmb.run("--format", "csv", "compare", path, path, "--threshold", "0", timeout=300)
        took = time.monotonic() - started
    finally:
        path.unlink(missing_ok=True)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.count("\n") == 1 + copies * len(results)
    assert ",WORSE" not in p.stdout and "repeat an identity" not in p.stderr
    print(f"{size / 1e6:.0f} MB, {copies * len(results)} results: compared in {took:.1f} s")


def with_access_mode(doc_path, mode, tmp_path, name):
    """The document at doc_path with device.managed_access.mode set to mode."""
    with open(doc_path) as f:
        doc = json.load(f)
    doc["device"].setdefault("managed_access", {})["mode"] = mode
    return synthetic.write(tmp_path / name, doc)


def test_managed_access_mode_difference_warns(docs, tmp_path):
    """Same XNACK settings, different managed access modes: the managed figures
    measure different things, and compare says so."""
    results = synthetic.copies(n_sizes=2)
    base = with_access_mode(docs("a.json", results), "migrate-on-fault", tmp_path, "a2.json")
    other = with_access_mode(docs("b.json", results), "host-resident, accessed over the link",
                             tmp_path, "b2.json")
    p = compare(base, other, "--threshold", "50")
    assert "warning: XNACK mode differs" in p.stderr, p.stderr
    assert "managed access host-resident, accessed over the link" in p.stderr, p.stderr
    assert "managed access migrate-on-fault" in p.stderr, p.stderr
    same = with_access_mode(docs("c.json", results), "migrate-on-fault", tmp_path, "c2.json")
    q = compare(base, same, "--threshold", "50")
    assert "XNACK mode differs" not in q.stderr, q.stderr


def amd_copy(case, kind, coherence, seed):
    import random
    rng = random.Random(seed)
    s = [1e-3 * rng.uniform(0.99, 1.01) for _ in range(20)]
    return synthetic.record("memcpy", case, {"size": 1 << 20, "direction": "h2d",
                                             "host_memory": kind, "coherence": coherence,
                                             "api": "hipMemcpyAsync"}, s, nbytes=1 << 20)


def test_renamed_amd_write_combined_cases_match_their_new_names(docs):
    """Issue 27: on AMD hipHostMallocWriteCombined does nothing, so an older
    document's write-combined copies are matched with the pinned-noncoherent
    (coarse-grained) or pinned-coherent (fine-grained) ones that replace them;
    NVIDIA's write-combined (one coherence mode) keeps its name."""
    old = docs("old.json", [
        amd_copy("h2d/write-combined/async", "write-combined",
                 "coarse-grained (HIP_HOST_COHERENT unset)", 1),
        amd_copy("h2d/write-combined-coherent/async", "write-combined-coherent",
                 "fine-grained (set by the flag)", 2)])
    new = docs("new.json", [
        amd_copy("h2d/pinned-noncoherent/async", "pinned-noncoherent",
                 "coarse-grained (set by the flag)", 3),
        amd_copy("h2d/pinned-coherent/async", "pinned-coherent",
                 "fine-grained (set by the flag)", 4)])
    p = hmb.run("--format", "csv", "compare", old, new, "--threshold", "5")
    r = rows(p)
    assert p.returncode == 0, p.stderr
    assert sorted(x["result"] for x in r if x["figure"] == "GB/s") == [
        "memcpy h2d/pinned-coherent/async size=1M", "memcpy h2d/pinned-noncoherent/async size=1M"]
    assert all(x["base"] and x["other"] for x in r), r
    assert "only" not in p.stderr, p.stderr

    one_mode = "one coherence mode on this platform (no coherence flags)"
    nv = docs("nv.json", [amd_copy("h2d/write-combined/async", "write-combined", one_mode, 5)])
    p = hmb.run("--format", "csv", "compare", nv, new, "--threshold", "5")
    assert "base only:  memcpy h2d/write-combined/async" in p.stderr, p.stderr
