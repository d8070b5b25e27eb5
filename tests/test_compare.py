"""test_compare.py - `hipmembench compare`: figures matched by identity,
ratios, and a verdict that is noise-aware: a figure is WORSE only when it moved
by more than --threshold and beyond its noise (src/compare/noise.c: its runs and
documents, weighed against the figures alike). Also its formats (one CSV table on
stdout), its errors, repeated identities, and a 20 MB document against
itself. test_noise.py has the false alarms and the slowdowns caught."""
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
              "p", "verdict", "resolution_rel"]
# then the identity's parts: module, case, size and each parameter of the base's results
ID_HEADER = ["module", "case", "size"]


def compare(*args, timeout=120):
    return hmb.run("compare", *args, timeout=timeout)


def rows_wide(p):
    """The CSV table of compare --wide: the noise columns too."""
    table = list(csv.reader(io.StringIO(p.stdout)))
    header = CSV_HEADER + ["noise", "noise_rel", "noise_df", "base_runs", "other_runs",
                           "base_documents", "other_documents"] + ID_HEADER
    assert table and table[0][:len(header)] == header, p.stdout[:500]
    return [dict(zip(table[0], r)) for r in table[1:]]


def rows(p):
    """The CSV table of a compare run: a list of dicts; fails if stdout holds
    anything but one table."""
    table = list(csv.reader(io.StringIO(p.stdout)))
    assert table and table[0][:len(CSV_HEADER) + 3] == CSV_HEADER + ID_HEADER, p.stdout[:500]
    assert all(len(r) == len(table[0]) for r in table), "ragged CSV"
    return [dict(zip(table[0], r)) for r in table[1:]]


def test_csv_has_a_column_for_each_part_of_the_identity(tmp_path):
    """compare -f csv: module, case, size (bytes) and each parameter in a column of its own,
    the same as the result's label says (a byte count there in binary units, in the CSV
    every byte), read with a CSV reader."""
    a = hmb.ROOT / "results" / "nvidia-h100-pcie" / "resolution" / "a.json"
    b = hmb.ROOT / "results" / "nvidia-h100-pcie" / "resolution" / "b.json"
    p = hmb.run("--format", "csv", "compare", a, b, "--threshold", "5")
    r = rows(p)
    assert len(r) > 600
    params = list(csv.reader(io.StringIO(p.stdout)))[0][len(CSV_HEADER) + 3:]
    assert {"direction", "host_memory", "api", "streams", "allocator"} <= set(params), params
    sizes = {"4K": "4096", "1M": "1048576", "256M": "268435456", "1G": "1073741824"}
    for x in r:
        assert x["result"].startswith(f"{x['module']} {x['case']}"), x
        for part in re.split(r" (?=[a-z_0-9]+=)", x["result"][len(x["module"]) + len(x["case"]) + 2:]):
            if "=" not in part:
                continue
            k, v = part.split("=", 1)
            if k == "size":
                assert sizes.get(v, x["size"]) == x["size"], x
            elif k in ("step", "start", "stride") or "bytes" in k:
                m = re.fullmatch(r"(\d+)([KMGT]?)", v)
                assert m and int(m.group(1)) << 10 * " KMGT".index(m.group(2) or " ") == \
                    int(x[k]), (k, x)
            elif k in params:
                assert x[k] == v or x[k].startswith(v), (k, x)
        if x["verdict"] and x["verdict"][0] == "?":
            assert float(x["resolution_rel"]) * 100 > 5


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
                             "iters": 7}, s, metrics={"speedup": (speedup, "x")}, runs=2)


def group(out, heading):
    """The lines of the table group whose heading starts with `heading`."""
    for block in out.split("\n\n"):
        if block.startswith(heading):
            return block.splitlines()
    raise AssertionError(f"no group {heading!r} in:\n{out}")


def test_document_against_itself(sample_doc):
    p = compare(sample_doc, sample_doc, "--threshold", "1")
    assert p.returncode == 0, p.stderr
    assert "1.00x same" in p.stdout and "WORSE" not in p.stdout
    assert not re.search(r"x (faster|slower|better|worse)", p.stdout)


def test_slower_bandwidth_is_worse_higher_speedup_is_better(docs):
    base = docs("base.json", synthetic.copies(noise=0.03) + [overlap_result()])
    slower = docs("slower.json", synthetic.copies(noise=0.03, slower={"h2d/pinned/async": 1.25})
                  + [overlap_result(scale=1.25, speedup=5.0)], hostname="other-node", reps=99)
    p = compare(base, slower, "--threshold", "10")
    out = p.stdout + p.stderr
    assert p.returncode == 1, out
    h2d = "\n".join(group(p.stdout, "memcpy h2d/pinned/async"))
    assert re.search(r"^  size=512M +GB/s +\S+ +\S+ +0\.80x slower +\S+ +WORSE$", h2d, re.M), h2d
    assert re.search(r"^ +speedup \(x\) +\S+ +\S+ +2\.50x better +\S+ +better$", out, re.M), out
    assert "other-node" in out and "settings differ" in out
    d2h = "\n".join(group(p.stdout, "memcpy d2h/pinned/async"))
    assert re.search(r"^  size=512M +GB/s ", d2h, re.M) and "WORSE" not in d2h
    assert p.returncode == 1 and "worse than the base by more than 10%" in p.stderr


def test_change_within_the_threshold_passes(docs):
    base = docs("base.json", synthetic.copies(noise=0.03))
    slower = docs("slower.json", synthetic.copies(noise=0.03, slower={"h2d/pinned/async": 1.25}))
    p = compare("--format", "csv", "--threshold", "30", base, slower)
    assert p.returncode == 0, p.stderr
    moved = [r for r in rows(p) if "h2d/pinned/async" in r["result"]]
    assert moved, p.stdout[:500]
    # 25% slower (where size outweighs latency): seen, and within the 30% allowed
    assert all("WORSE" not in r["verdict"].upper() for r in moved), moved
    ratios = [float(r["ratio"]) for r in moved]
    assert min(ratios) < 0.85 and all(x > 0.7 for x in ratios), ratios


def test_markdown_table(docs):
    base = docs("base.json", synthetic.copies(n_sizes=2))
    p = hmb.run("--format", "markdown", "compare", base, base)
    assert p.returncode == 0
    assert re.search(r"^\| memcpy h2d/pageable/async size=4K \| GB/s \| [0-9.]+ \| [0-9.]+ \| "
                     r"1\.00x same \| 1 \|  \|$", p.stdout, re.M), p.stdout
    assert "| result | figure | base | other | other vs base | p | verdict |" in p.stdout


def test_two_identical_noisy_runs_compare_clean_at_threshold_5(docs):
    """Pairs of runs drawn from the same distribution (every sample within +-20%
    of the truth, as pageable copies vary), five of them: many figures move by
    more than 5%, almost none beyond the noise (each says why: n.s., or ?N% where
    its noise cannot tell 5%)."""
    r = []
    for seed in (1, 2, 3, 4, 5):
        a = docs(f"a{seed}.json", synthetic.copies(seed=seed))
        b = docs(f"b{seed}.json", synthetic.copies(seed=seed + 100))
        p = hmb.run("--format", "csv", "compare", a, b, "--threshold", "5")
        assert len(rows(p)) == 144 and p.returncode in (0, 1), p.stderr
        r += rows(p)
    moved = [x for x in r if abs(float(x["ratio"]) - 1) > 0.05]
    flagged = [x for x in r if x["verdict"] in ("WORSE", "better")]
    assert len(moved) > 100 and all(x["verdict"] in ("n.s.", "WORSE", "better") or
                                    re.fullmatch(r"\?[0-9.]+%", x["verdict"]) for x in moved)
    assert len([x for x in flagged if x["verdict"] == "WORSE"]) <= 0.01 * len(r), flagged
    assert len(flagged) <= 0.02 * len(r), flagged


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


def test_one_run_with_few_samples_is_not_judged(docs):
    """Three samples a side and one run: how a figure moves from one process to the next
    is not known, so twice as slow is shown (0.5x) but not judged: '?', exit 0, and the
    legend says why."""
    a = docs("a.json", synthetic.copies(reps=3, noise=0.01, runs=1))
    b = docs("b.json", synthetic.copies(reps=3, noise=0.01, runs=1,
                                        slower={"h2d/pinned/async": 2.0}))
    p = hmb.run("--format", "csv", "--wide", "compare", a, b, "--threshold", "5")
    r = rows_wide(p)
    slowed = [x for x in r if "h2d/pinned/async" in x["result"]]
    assert p.returncode == 0 and len(slowed) == 18, p.stderr
    assert all(x["verdict"] == "?" and x["noise"] == "" for x in r)
    assert float(slowed[-1]["ratio"]) < 0.55
    assert "no runs on either side" in p.stderr


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
        assert x["verdict"] in ("", "WORSE", "better", "n.s.") or \
            re.fullmatch(r"\?[0-9.]+%", x["verdict"])
    # what is not the table went to stderr
    assert "base  " in p.stderr and "only in" in p.stderr
    assert "The noise is measured on the documents" in p.stderr


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
    # one run each: not judged, so no verdict but '?' (no runs to know the noise by)
    assert all(x["ratio"] == "1" and x["verdict"] in ("", "?") for x in r)
    assert re.search(r"a\.json: 1 figure\(s\) repeat an identity .*overlap copy-only/pinned",
                     p.stderr), p.stderr
    assert p.stderr.count("repeat an identity") == 1


def test_an_identity_repeated_three_times_is_matched_in_order(docs):
    """A figure repeated three times after another figure: the n-th of the base is paired
    with the n-th of the other (each twice as slow there), none left over, none crossed
    with the other figure."""
    def results(scale):
        pool = synthetic.record("pool", "hipMalloc/loop", {"size": 4096, "loop": 10},
                                [1e-3 * scale] * 10, ops=10)
        return [pool] + [synthetic.record("overlap", "copy-only/pinned",
                                          {"size": 1 << 20, "iters": 0}, [k * 1e-3 * scale] * 10,
                                          nbytes=1 << 20) for k in (1, 2, 4)]
    p = hmb.run("--format", "csv", "compare", docs("a.json", results(1)),
                docs("b.json", results(2)), "--threshold", "0")
    r = rows(p)
    copies = [x for x in r if x["figure"] == "GB/s" and x["result"].startswith("overlap")]
    assert [x["base"] for x in copies] == ["1.048576", "0.524288", "0.262144"], r
    assert all(x["ratio"] == "0.5" for x in copies), copies
    assert "all 4 figures of the base matched" in p.stderr and "only:" not in p.stderr, p.stderr


def test_gpu_picks_node_records_by_their_gpu():
    """compare --gpu of a node document (the 4xH100's): node's per-GPU records carry the
    GPU as params.gpu, so --gpu 1 keeps GPU 1's and leaves the others' out, and no figure
    is taken for a repeat of another GPU's."""
    doc = hmb.ROOT / "results" / "nvidia-h100-x4" / "together" / "node.json"
    p = hmb.run("--format", "csv", "compare", "--gpu", "1", doc, doc)
    assert p.returncode == 0, p.stderr
    assert "holds 4 GPUs' results: GPU 1 compared" in p.stderr, p.stderr
    assert "repeat an identity" not in p.stderr, p.stderr


def test_committed_document_against_itself_at_threshold_0():
    doc = hmb.ROOT / "results" / "nvidia-h100-pcie" / "all.json"
    p = compare(doc, doc, "--threshold", "0")
    assert p.returncode == 0, p.stderr
    assert not re.search(r"(WORSE|better)$", p.stdout, re.M)
    assert "only in" not in p.stdout + p.stderr
    assert re.search(r"all \d+ figures of the base matched", p.stderr), p.stderr


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


def test_20_mb_document_against_itself(tmp_path, sample_doc):
    """Matching sorts and merges: a 20 MB document (about 20 000 results) compares
    with itself, every result matched to itself once (the limit only stops a run that
    has gone quadratic; how long 300 000 results take is scripts/bench/compare_large.py's
    to measure)."""
    results = synthetic.copies(n_sizes=18, reps=20, noise=0.1)
    copies = 20_000_000 // (len(json.dumps(results[0])) + 2) // len(results) + 1
    path = tmp_path / "big.json"
    try:
        write_big(path, synthetic.document(sample_doc, []), results, copies)
        size = path.stat().st_size
        assert size >= 20_000_000
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
    assert "XNACK mode differs" in p.stderr, p.stderr
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
    """On AMD hipHostMallocWriteCombined does nothing, so an older
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
        "memcpy h2d/pinned-coherent/async size=1M api=hipMemcpyAsync",
        "memcpy h2d/pinned-noncoherent/async size=1M api=hipMemcpyAsync"]
    assert all(x["base"] and x["other"] for x in r), r
    assert "only" not in p.stderr, p.stderr

    one_mode = "one coherence mode on this platform (no coherence flags)"
    nv = docs("nv.json", [amd_copy("h2d/write-combined/async", "write-combined", one_mode, 5)])
    p = hmb.run("--format", "csv", "compare", nv, new, "--threshold", "5")
    assert "base only:  memcpy h2d/write-combined/async" in p.stderr, p.stderr


# ---- identity: what defines a result, what is context (issues 20 and 28) ----

def copy_result(params, scale=1.0, seed=1, nbytes=1 << 20, module="memcpy",
                case="h2d/pinned/async"):
    import random
    rng = random.Random(seed)
    s = [1e-4 * scale * rng.uniform(0.99, 1.01) for _ in range(10)]
    return synthetic.record(module, case, params, s, nbytes=nbytes, runs=2)


def matched(p):
    """(matched, of) from compare's count on stderr."""
    m = re.search(r"all (\d+) figures of the base matched", p.stderr)
    if m:
        return int(m[1]), int(m[1])
    m = re.search(r"(\d+) of the base's (\d+) figures matched", p.stderr)
    assert m, p.stderr
    return int(m[1]), int(m[2])


def test_key_order_does_not_change_identity(docs):
    params = {"size": 1 << 20, "direction": "h2d", "host_memory": "pinned", "api": "x"}
    a = docs("a.json", [copy_result(params)])
    b = docs("b.json", [copy_result(dict(reversed(list(params.items()))), seed=2)])
    p = hmb.run("--format", "csv", "compare", a, b)
    assert p.returncode == 0, p.stderr
    assert len(rows(p)) == 1 and matched(p) == (1, 1)


@pytest.mark.parametrize("what,change", [
    ("a number", {"size": 2 << 20}),
    ("a workload text parameter", {"placement": "far"}),
])
def test_one_defining_parameter_apart_is_another_result(docs, what, change):
    params = {"size": 1 << 20, "placement": "near"}
    near = copy_result(params, module="node", case="host/h2d/alone")
    other = copy_result(dict(params, **change), module="node", case="host/h2d/alone")
    a = docs("a.json", [near, copy_result({"size": 4096}, seed=5)])
    b = docs("b.json", [other, copy_result({"size": 4096}, seed=6)])
    p = hmb.run("--format", "csv", "compare", a, b)
    assert p.returncode == 0, p.stderr  # one of two matched: half is enough
    assert [x["result"] for x in rows(p)] == ["memcpy h2d/pinned/async size=4K"]
    assert matched(p) == (1, 2)
    assert re.search(r"1 only in the base \(node 1\), 1 only in \S+b\.json \(node 1\)", p.stderr)


def test_results_apart_in_a_text_parameter_print_apart(docs):
    """Two results that differ only in a text parameter (placement) never share a label."""
    near = copy_result({"size": 1 << 20, "placement": "near"}, module="node",
                       case="host/h2d/alone")
    far = copy_result({"size": 1 << 20, "placement": "far"}, module="node",
                      case="host/h2d/alone", scale=2)
    a = docs("a.json", [near, far])
    p = hmb.run("--format", "csv", "compare", a, a)
    labels = [x["result"] for x in rows(p)]
    assert labels == ["node host/h2d/alone size=1M placement=near",
                      "node host/h2d/alone size=1M placement=far"], labels
    assert "repeat an identity" not in p.stderr
    t = compare(a, a)
    assert "placement=near" in t.stdout and "placement=far" in t.stdout, t.stdout


def test_context_parameters_do_not_stop_a_match(docs):
    """The GPU index, machine-tuned and descriptive parameters, launch geometry:
    context, shown with --wide, never a reason not to match."""
    ctx_a = {"device": 0, "buffer_sets": 8, "timed": "hipMemcpyAsync; 8 buffers",
             "grid_blocks": 1 << 20, "block_threads": 256, "coherence": "one mode"}
    ctx_b = {"device": 1, "buffer_sets": 9, "timed": "hipMemcpyAsync; 9 buffers",
             "grid_blocks": 1 << 21, "block_threads": 512, "coherence": "another"}
    a = docs("a.json", [copy_result(dict({"size": 4096, "loads": 1 << 20}, **ctx_a))])
    b = docs("b.json", [copy_result(dict({"size": 4096, "loads": 1 << 20}, **ctx_b))])
    p = hmb.run("--format", "csv", "compare", a, b)
    assert p.returncode == 0, p.stderr
    assert [x["result"] for x in rows(p)] == ["memcpy h2d/pinned/async size=4K loads=1048576"]
    w = compare(a, b, "--wide")
    assert "buffer_sets=8 | 9" in w.stdout and "grid_blocks=1048576 | 2097152" in w.stdout, w.stdout
    t = compare(a, b)
    assert "context differs, base vs other: buffer_sets 8 vs 9" in t.stdout, t.stdout
    assert "e+0" not in t.stdout + w.stdout


def declared(params, context, gpu=None, **kw):
    """A result that lists its context and GPU parameter, as a module declares them."""
    r = copy_result(params, **kw)
    r["context"] = context
    if gpu:
        r["gpu_param"] = gpu
    return r


def test_the_context_a_result_declares_is_what_compare_reads(docs):
    """A result that lists its context ("context", as its module declared it) is matched
    by that list, not by what older documents took for context: a parameter none knew is
    context where it is listed, and timed is identity where it is not; gpu_param names
    the GPU, compared GPU against GPU."""
    a = docs("a.json", [declared({"size": 4096, "warmth": 1, "timed": "x", "slot": 0},
                                 ["warmth", "slot"], "slot")])
    b = docs("b.json", [declared({"size": 4096, "warmth": 2, "timed": "x", "slot": 0},
                                 ["warmth", "slot"], "slot", scale=2)])
    p = hmb.run("--format", "csv", "compare", a, b)
    assert p.returncode == 0 and matched(p) == (1, 1), p.stderr
    assert [x["result"] for x in rows(p)] == ["memcpy h2d/pinned/async size=4K timed=x"]
    assert "context differs, base vs other: warmth 1 vs 2" in compare(a, b).stdout
    other_text = docs("c.json", [declared({"size": 4096, "warmth": 1, "timed": "y", "slot": 0},
                                          ["warmth", "slot"], "slot")])
    assert matched(compare(a, other_text, "--allow-partial")) == (0, 1)
    # two GPUs a side, the other's in the other order: GPU against GPU, by the
    # parameter each result names (in order, each ratio would be 1)
    two = [declared({"size": 4096, "warmth": 1, "slot": g}, ["warmth", "slot"], "slot",
                    scale=1 + g) for g in (0, 1)]
    other = [declared({"size": 4096, "warmth": 1, "slot": g}, ["warmth", "slot"], "slot",
                      scale=2 - g) for g in (1, 0)]
    p = hmb.run("--format", "csv", "compare", docs("d.json", two), docs("e.json", other))
    assert matched(p) == (2, 2), p.stderr
    assert sorted(round(float(x["ratio"]), 1) for x in rows(p)) == [0.5, 2.0], p.stdout


def test_a_flagged_line_says_where_the_tuned_work_differs(docs):
    """A figure flagged between results whose machine-tuned work differs (a calibrated
    load's steps): its flagged line names the difference, so the change can be read as
    the work's; a flagged figure of the same work says nothing of the kind."""
    a = docs("a.json", [copy_result({"size": 4096, "busy_kernel": 1000}),
                        copy_result({"size": 8192, "busy_kernel": 1000})])
    b = docs("b.json", [copy_result({"size": 4096, "busy_kernel": 1300}, scale=2, seed=2),
                        copy_result({"size": 8192, "busy_kernel": 1000}, scale=2, seed=2)])
    out = compare(a, b, "--threshold", "5").stdout
    flagged = out[out.index("flagged (module"):].split("\n\n")[0]
    lines = re.split(r"\n  (?=\S)", flagged)[1:]
    assert len(lines) == 2, flagged
    assert all(x.startswith("WORSE memcpy h2d/pinned/async") for x in lines), flagged
    tuned = [x for x in lines if "size=4K" in x]
    same = [x for x in lines if "size=8K" in x]
    assert len(tuned) == 1 and len(same) == 1, flagged
    assert re.search(r"; context\s+differs:\s+busy_kernel\s+1000\s+vs\s+1300", tuned[0]), tuned
    assert "context differs" not in same[0], same
    assert all(len(x) <= 120 for x in flagged.split("\n")), flagged


@pytest.mark.parametrize("reader", ["fast", "cjson"])
def test_a_figure_that_ran_at_once_says_so_where_the_other_did_not(docs, reader):
    """A result measured beside other GPUs (observed.ran_beside_gpus, and
    host_link_shared_with_gpus where they shared its way to the host) against the same
    result measured alone: its group's note and its flagged line name who ran at once,
    whichever reader took the result (an unusual result is read by cJSON); results whose
    company is the same say nothing of it."""
    long = {"note": "x" * 600} if reader == "cjson" else {}  # a text too long for the fast one
    alone = copy_result(dict({"size": 4096}, **long))
    beside = copy_result(dict({"size": 4096}, **long), scale=2, seed=2)
    beside["observed"] = {"ran_beside_gpus": "1,2,3", "host_link_shared_with_gpus": "1,3"}
    same = [copy_result({"size": 8192}, seed=s) for s in (3, 4)]
    for r in same:
        r["observed"] = {"ran_beside_gpus": "2", "host_link_shared_with_gpus": "2"}
    same[1] = copy_result({"size": 8192}, scale=2, seed=4)
    same[1]["observed"] = {"ran_beside_gpus": "2", "host_link_shared_with_gpus": "2"}
    a = docs("a.json", [alone, same[0]])
    b = docs("b.json", [beside, same[1]])
    out = compare(a, b, "--threshold", "5").stdout
    text = " ".join(out.split())
    assert ("ran at once, base vs other: ran_beside_gpus none vs 1,2,3, "
            "host_link_shared_with_gpus none vs 1,3") in text, out
    assert text.count("ran at once, base vs other") == 1, out
    flagged = out[out.index("flagged (module"):].split("\n\n")[0]
    lines = [" ".join(x.split()) for x in re.split(r"\n  (?=\S)", flagged)[1:]]
    assert len(lines) == 2, flagged
    moved = [x for x in lines if "size=4K" in x]
    kept = [x for x in lines if "size=8K" in x]
    assert len(moved) == 1 and moved[0].endswith(
        "; ran at once: ran_beside_gpus none vs 1,2,3, host_link_shared_with_gpus none vs 1,3"), \
        moved
    assert len(kept) == 1 and "ran at once" not in kept[0], kept
    assert all(len(x) <= 120 for x in out.split("\n")), out


def test_a_long_context_note_wraps_within_the_table(docs):
    """Many context parameters apart: the note wraps, each line within the table's
    120 columns and indented as the note is."""
    tuned = ("buffer_sets", "copy_engines", "hw_queues", "threads_launched",
             "resident_thread_capacity", "async_engine_count", "busy_kernel", "block_threads",
             "grid_blocks", "elements_per_thread")
    a = docs("a.json", [copy_result(dict({"size": 4096}, **{k: 1000 + i for i, k in
                                                              enumerate(tuned)}))])
    b = docs("b.json", [copy_result(dict({"size": 4096}, **{k: 200000 + 7 * i for i, k in
                                                              enumerate(tuned)}), seed=2)])
    out = compare(a, b).stdout
    at = out.index("    context differs")
    note = []
    for line in out[at:].split("\n"):
        if not re.match(r"^    \S", line):
            break
        note.append(line)
    assert len(note) >= 3, out[at:at + 1000]
    assert all(len(x) <= 120 for x in note), [len(x) for x in note]
    assert max(len(x) for x in note) > 100, [len(x) for x in note]  # wrapped near the edge


def multi_gpu(gpus, scale=1.0):
    out = []
    for g in gpus:
        out += [copy_result({"size": s, "device": g}, scale=scale * (1 + g), seed=s + g)
                for s in (4096, 8192)]
    return out


def test_multi_gpu_document_against_a_single_gpu_one(docs):
    single = docs("one.json", [copy_result({"size": s}, seed=s) for s in (4096, 8192)])
    two = docs("two.json", multi_gpu([0, 1]))
    p = hmb.run("--format", "csv", "compare", single, two)
    assert p.returncode == 0, p.stderr
    r = rows(p)
    assert len(r) == 2 and all(abs(float(x["ratio"]) - 1) < 0.05 for x in r), r
    assert "two.json holds 2 GPUs' results: GPU 0 compared" in p.stderr, p.stderr
    assert matched(p) == (2, 2)
    q = hmb.run("--format", "csv", "compare", single, two, "--gpu", "1")
    assert q.returncode == 0, q.stderr
    # GPU 0's two records, one figure each, and nothing else counted
    assert "GPU 1 compared, 2 figures of the others left out" in q.stderr, q.stderr
    assert all(abs(float(x["ratio"]) - 0.5) < 0.05 for x in rows(q)), q.stdout  # GPU 1: 2x slower
    bad = compare(single, two, "--gpu", "3")
    assert bad.returncode == 2 and "two.json has no results of GPU 3" in bad.stderr
    # two multi-GPU documents: GPU against GPU
    both = hmb.run("--format", "csv", "compare", two, two)
    assert both.returncode == 0 and len(rows(both)) == 4, both.stderr
    assert "repeat an identity" not in both.stderr
    # the table's group headings name each GPU, GPU 0 too
    text = hmb.run("compare", two, two)
    heads = [x for x in text.stdout.splitlines() if x.startswith("memcpy ")]
    assert heads == [f"memcpy h2d/pinned/async GPU {g}" for g in (0, 1)], text.stdout


@pytest.mark.parametrize("n,lines", [(64, 1), (65, 2)])
def test_a_heading_of_exactly_the_tables_width_stays_on_one_line(docs, n, lines):
    """A group's heading is broken between words only past 120 columns: one that ends
    exactly at column 120 is one line; a column more puts its last word on the next line,
    indented."""
    params = {"stream": "w" * n, "api": "a" * 20}
    doc = docs("wide.json", [copy_result(dict(params, size=s), seed=s) for s in (4096, 8192)])
    p = hmb.run("compare", doc, doc)
    assert p.returncode == 0, p.stderr
    out = p.stdout.splitlines()
    at = next(i for i, x in enumerate(out) if x.startswith("memcpy h2d/pinned/async stream="))
    head = out[at:at + lines]
    assert " ".join(x.strip() for x in head) == \
        f"memcpy h2d/pinned/async stream={'w' * n} api={'a' * 20}", head
    assert len(head[0]) == (120 if lines == 1 else 31 + n) and out[at + lines].startswith("  size="), \
        out[at:at + lines + 1]
    if lines == 2:
        assert head[1] == "    api=" + "a" * 20


def test_fewer_than_half_matched_exits_2_unless_allowed(docs):
    base = docs("a.json", [copy_result({"size": 4096 << i}, seed=i) for i in range(4)])
    other = docs("b.json", [copy_result({"size": 4096}, seed=9),
                            copy_result({"size": 4096, "stream": "other"}, seed=8)])
    p = compare(base, other)
    assert p.returncode == 2 and p.stdout == "", p.stdout
    assert re.search(r"1 of the base's 4 figures matched; 3 only in the base \(memcpy 3\), "
                     r"1 only in \S+b\.json \(memcpy 1\)", p.stderr), p.stderr
    assert p.stderr.strip().splitlines()[-1].endswith(
        "fewer than half of the base's figures matched: these documents measure different "
        "things (--allow-partial compares them anyway)")
    q = compare(base, other, "--allow-partial")
    assert q.returncode == 0 and "size=4K" in q.stdout, q.stderr


def test_median_and_us_per_op_of_the_same_samples_are_one_figure(docs):
    r = synthetic.record("pool", "hipMalloc/loop", {"size": 4096, "loop": 10}, [1e-3] * 5, ops=10)
    a = docs("a.json", [r])
    p = hmb.run("--format", "csv", "compare", a, a)
    assert [(x["figure"], x["unit"]) for x in rows(p)] == [("us/op", "us")]


H100 = hmb.ROOT / "results" / "nvidia-h100-pcie" / "all.json"
H200_X2 = hmb.ROOT / "results" / "nvidia-h200-x2" / "all.json"


def test_committed_h100_against_two_h200s():
    """One H100 against a two-GPU document made with --devices all:
    at least 90% of the H100's figures match (GPU 0 of the other), stderr says
    what did not and why, and the default table fits 120 columns, the unit once,
    which way is better in every row."""
    p = compare(H100, H200_X2)
    assert p.returncode == 0, p.stderr
    n, of = matched(p)
    assert n >= 0.9 * of and of > 600, p.stderr
    assert "all.json holds 2 GPUs' results: GPU 0 compared" in p.stderr
    # the node module's two-GPU cases, and what an older build's overlap and
    # managed modules ran by default
    assert re.search(r"only in \S+all\.json \((overlap \d+, )?(managed \d+, )?node \d+\)",
                     p.stderr), p.stderr
    long = [line for line in p.stdout.splitlines() if len(line) > 120]
    assert not long, long[:3]
    assert not re.search(r"GB/s +GB/s", p.stdout)
    body = [line for line in p.stdout.splitlines() if re.match(r"  \S.* [0-9.e+-]+ +[0-9.e+-]+ ", line)
            or re.match(r" {20,}\S", line)]
    assert len(body) >= n
    assert re.search(r"x faster", p.stdout) and re.search(r"x slower", p.stdout)
    assert not re.search(r"=[0-9.]+e[+-]?\d", p.stdout)
    w = compare(H100, H200_X2, "--wide")
    assert w.returncode == 0 and "grid_blocks=1048576" in w.stdout


# ---- which way is better, for every unit compare prints ----

# unit -> (the word for better, for worse): speeds and times say faster and slower,
# speedups and ratios better and worse; lower is better for times and x-slower.
UNIT_WORDS = {"GB/s": ("faster", "slower"), "faults/s": ("faster", "slower"),
              "x": ("better", "worse"), "ratio": ("better", "worse"),
              "s": ("faster", "slower"), "ms": ("faster", "slower"),
              "us": ("faster", "slower"), "ns": ("faster", "slower"),
              "x-slower": ("better", "worse")}
LOWER_IS_BETTER = {"s", "ms", "us", "ns", "x-slower"}


def unit_results(factor_of):
    """A result per unit, its one metric of that unit at factor_of(unit)."""
    import random
    rng = random.Random(4)
    out = []
    for i, unit in enumerate(UNIT_WORDS):
        s = [1e-3 * rng.uniform(0.99, 1.01) for _ in range(20)]
        out.append(synthetic.record("pool", "unit/" + unit.replace("/", "-per-"), {"size": 4096 << i},
                                    s, metrics={"figure": (factor_of(unit), unit)}))
    return out


@pytest.mark.parametrize("way", ["worse", "better"])
def test_every_unit_says_which_way_is_better(docs, way):
    """Twice as bad in every unit: a doubled latency (us, s, ...) is slower, half
    the bandwidth is slower, half the speedup is worse, each by 0.50x; twice as
    good the other way round, 2.00x. Each row as the table prints it."""
    def other(unit):
        lower = unit in LOWER_IS_BETTER
        return 2.0 if (way == "worse") == lower else 0.5
    base = docs("base.json", unit_results(lambda unit: 1.0))
    changed = docs("other.json", unit_results(other))
    p = compare(base, changed)
    assert p.returncode == 0, p.stderr
    for unit, words in UNIT_WORDS.items():
        text = "\n".join(group(p.stdout, "pool unit/" + unit.replace("/", "-per-")))
        factor, word = ("0.50x", words[1]) if way == "worse" else ("2.00x", words[0])
        value = "2" if other(unit) == 2.0 else "0.5"
        assert re.search(rf"^ +figure \({re.escape(unit)}\) +1 +{value} +{factor} {word}\b",
                         text, re.M), f"{unit}: {text}"
    # the CSV's ratio is other / base whatever the direction
    r = {x["unit"]: float(x["ratio"]) for x in rows(hmb.run("--format", "csv", "compare",
                                                            base, changed)) if x["figure"] == "figure"}
    assert r == {u: other(u) for u in UNIT_WORDS}, r


def test_doubled_latency_is_worse_and_fails_the_threshold(docs):
    """Every time of one case doubled: its latencies (us/op) and times are WORSE
    beyond the noise, the comparison exits 1; the case that did not change is not
    flagged; half the time is better."""
    import random

    def loops(scale_of, seed):
        rng = random.Random(seed)
        out = []
        for case in ("latency/h2d", "latency/d2h"):
            for i in range(6):
                s = [1e-4 * (1 + i) * scale_of(case) * rng.uniform(0.99, 1.01) for _ in range(30)]
                out.append(synthetic.record("node", case, {"size": 4096 << i}, s, ops=10, runs=2))
        return out
    base = docs("base.json", loops(lambda c: 1.0, 1))
    slow = docs("slow.json", loops(lambda c: 2.0 if c == "latency/h2d" else 1.0, 2))
    p = compare(base, slow, "--threshold", "10")
    assert p.returncode == 1, p.stdout + p.stderr
    for line in group(p.stdout, "node latency/h2d")[1:]:
        assert re.search(r" us/op +\S+ +\S+ +0\.(49|50|51)x slower +\S+ +WORSE$", line), line
    assert "WORSE" not in "\n".join(group(p.stdout, "node latency/d2h"))
    q = compare(slow, base, "--threshold", "10")
    assert q.returncode == 0, q.stdout + q.stderr
    for line in group(q.stdout, "node latency/h2d")[1:]:
        assert re.search(r" us/op +\S+ +\S+ +(1\.9\d|2\.0\d)x faster +\S+ +better$", line), line


@pytest.mark.parametrize("how", ["as json_write.c writes it", "read through cJSON"])
def test_gpu_0_is_not_taken_for_no_gpu(docs, how):
    """Two documents of GPUs 0 and 1, each also holding a figure of no GPU of the same
    identity: GPU against GPU, GPU 0's figures pair with GPU 0's and the one of no GPU
    with its own, none repeating another's identity; whether the results are read
    straight from the text or (a key written with an escape) through cJSON."""
    results = multi_gpu([0, 1]) + [copy_result({"size": 4096}, scale=4.0, seed=7)]
    path = docs("two.json", results)
    if how == "read through cJSON":
        path.write_text(path.read_text().replace('"observed"', '"ob\\u0073erved"'))
    p = hmb.run("--format", "csv", "compare", path, path)
    assert p.returncode == 0, p.stderr
    assert "repeat an identity" not in p.stderr and "left out" not in p.stderr, p.stderr
    got = sorted((x["result"], x["ratio"]) for x in rows(p))
    want = sorted([(f"memcpy h2d/pinned/async size={s} GPU {g}", "1")
                   for g in (0, 1) for s in ("4K", "8K")] +
                  [("memcpy h2d/pinned/async size=4K", "1")])
    assert got == want, p.stdout


@pytest.mark.parametrize("change, compare_says, summary_says, meaning", [
    (lambda d: d["tool"].__setitem__("git_revision", "0123abc"), "another build (0123abc, ",
     "another build", "a change of method reads as one of the machine"),
    (lambda d: d.__setitem__("schema_version", d["schema_version"] + 1), "schema version ",
     "another schema", "what one lacks is not compared"),
    (lambda d: d["settings"].__setitem__("reps", 99), "settings differ (",
     "other settings", "figures of sizes or counts one lacks are left out"),
    (lambda d: d.setdefault("environment", {}).__setitem__("HSA_XNACK", "1"),
     "XNACK mode differs (HSA_XNACK=1", "another XNACK mode",
     "managed and page-fault figures measure other paths"),
])
def test_documents_that_differ_are_named_in_one_line(docs, tmp_path, change, compare_says,
                                                     summary_says, meaning):
    """Two documents of another build, schema, settings or XNACK mode, compared or
    summarised: one line says so and what it may explain, in the same words in both."""
    a = docs("a.json", synthetic.copies(n_sizes=2))
    doc = json.loads(a.read_text())
    change(doc)
    b = synthetic.write(tmp_path / "b.json", doc)
    p = hmb.run("compare", a, b)
    said = [line for line in p.stderr.splitlines() if "differs from the base" in line]
    assert len(said) == 1 and compare_says in said[0] and said[0].endswith(": " + meaning), \
        p.stderr
    s = hmb.run("summary", a, b)
    assert [line for line in s.stdout.splitlines() if line.startswith("note: ")] == \
        [f"note: Test#2 of {summary_says} ({meaning})"], s.stdout
    html = hmb.run("-f", "html", "summary", a, b).stdout
    assert html.count(summary_says) == 1 and \
        f'<p class="note differs">note: Test#2 of {summary_says}' in html, html[:2000]
    q = hmb.run("compare", a, a)
    assert "differs from the base" not in q.stderr
