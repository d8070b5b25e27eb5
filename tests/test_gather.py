"""test_gather.py - scripts/hmb_gather.py: an index of every document in a
folder, runs that did not complete or found no device shown as failed and left
out of the comparison, and a non-zero exit when a run failed."""
import copy
import json
import os
import re
import signal
import subprocess

import pytest

import hmb

GATHER = str(hmb.ROOT / "scripts" / "hmb_gather.py")


def gather(*args):
    return subprocess.run([hmb.PY, GATHER, *map(str, args), "--hipmembench", str(hmb.BIN)],
                          capture_output=True, text=True, timeout=120)


def test_failed_runs_are_shown_and_left_out(tmp_path, sample_doc):
    doc = json.loads(sample_doc.read_text())
    good = tmp_path / "a-good.json"
    good.write_text(json.dumps(doc))
    (tmp_path / "b-good.json").write_text(json.dumps(doc))
    stopped = copy.deepcopy(doc)
    stopped["complete"], stopped["interrupted"] = False, True
    (tmp_path / "c-interrupted.json").write_text(json.dumps(stopped))
    nodev = copy.deepcopy(doc)
    nodev["device"], nodev["results"] = None, []
    (tmp_path / "d-nodevice.json").write_text(json.dumps(nodev))
    plan = copy.deepcopy(nodev)
    plan["settings"]["dry_run"] = True
    (tmp_path / "e-plan.json").write_text(json.dumps(plan))
    (tmp_path / "f-foreign.json").write_text('{"name": "x"}')

    p = gather(tmp_path)
    assert p.returncode == 1, p.stdout + p.stderr
    runs = {r["file"].rsplit("/", 1)[1]: r for r in
            json.loads((tmp_path / "index.json").read_text())["runs"]}
    assert not runs["a-good.json"]["failed"] and not runs["e-plan.json"]["failed"]
    assert runs["c-interrupted.json"]["failed"] and runs["c-interrupted.json"]["why"] == "interrupted"
    assert runs["d-nodevice.json"]["failed"] and "no device" in runs["d-nodevice.json"]["why"]
    assert not runs["f-foreign.json"]["valid"]
    assert [n for n, r in runs.items() if r.get("interrupted")] == ["c-interrupted.json"], runs
    assert [n for n, r in runs.items() if r.get("dry_run")] == ["e-plan.json"], runs
    assert "c-interrupted.json: FAILED (interrupted)" in p.stdout
    assert "2 run(s) failed" in p.stderr
    comparison = (tmp_path / "comparison.txt").read_text()
    assert "b-good.json" in comparison and "e-plan.json" in comparison
    assert "c-interrupted" not in comparison and "d-nodevice" not in comparison


def test_all_good_runs_exit_0(tmp_path, sample_doc):
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(sample_doc.read_text())
    p = gather(tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "FAILED" not in p.stdout
    # the binary compared them: its table, a row per figure, "same" for a copy
    comparison = (tmp_path / "comparison.txt").read_text()
    assert "figure" in comparison and "GB/s" in comparison, comparison[:500]


def test_threshold_fails_the_gather_on_a_regression(tmp_path, sample_doc):
    """Two tasks of an array job, the second's pinned host-to-device copies 25%
    slower: the gather with --threshold 10 exits 1 and its comparison flags them
    WORSE; without --threshold, or with one above the change, it exits 0."""
    import synthetic
    r = tmp_path / "slurm-7"
    r.mkdir()
    synthetic.write(r / "node1-gpu0-task0.json",
                    synthetic.document(sample_doc, synthetic.copies(noise=0.03)))
    synthetic.write(r / "node2-gpu0-task1.json", synthetic.document(
        sample_doc, synthetic.copies(noise=0.03, seed=2, slower={"h2d/pinned/async": 1.25})))
    p = gather(r, "--threshold", "10")
    assert p.returncode == 1, p.stdout + p.stderr
    comparison = (r / "comparison.txt").read_text()
    worse = [line for line in comparison.splitlines() if line.endswith("WORSE")]
    assert worse and all("GB/s" in line for line in worse), comparison[-3000:]
    assert "WORSE memcpy h2d/pinned/async size=512M" in comparison
    assert "WORSE memcpy d2h" not in comparison
    assert "(exit 1)" in p.stdout
    for args in ([], ["--threshold", "40"]):
        q = gather(r, *args)
        assert q.returncode == 0, (args, q.stdout + q.stderr)
        assert "WORSE" not in (r / "comparison.txt").read_text()


def test_nothing_to_gather_exit_2(tmp_path):
    p = gather(tmp_path)
    assert p.returncode == 2 and "no hipmembench document" in p.stderr


# Bad input: never a traceback or a wait, under `python -X dev -W error`; where the
# gather fails (exit 2) it writes nothing.
DEV = [hmb.PY, "-X", "dev", "-W", "error"]


def dev_gather(*args, binary=hmb.BIN, timeout=60):
    return subprocess.run([*DEV, GATHER, *map(str, args), "--hipmembench", str(binary)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout)


def one_line(p, status=2):
    assert "Traceback" not in p.stderr, p.stderr
    assert p.returncode == status, (p.returncode, p.stderr)
    assert p.stderr.endswith("\n") and p.stderr.count("\n") == 1, p.stderr
    return p.stderr


def two_good(folder, sample_doc):
    folder.mkdir(exist_ok=True)
    for name in ("a.json", "b.json"):
        (folder / name).write_text(sample_doc.read_text())


def compared(folder):
    """The comparison of the two good runs, as hipmembench compare wrote it: a.json
    the base, b.json the other, a row per figure (the same)."""
    text = (folder / "comparison.txt").read_text()
    assert re.search(r"^base \S*a\.json:$", text, re.M) and \
        re.search(r"^other \S*b\.json:$", text, re.M) and "1.00x same" in text, text[:1000]
    return text


def test_missing_folder_is_one_line_and_writes_nothing(tmp_path):
    err = one_line(dev_gather(tmp_path / "nowhere"))
    assert f"{tmp_path / 'nowhere'}: no such folder" in err
    assert not (tmp_path / "nowhere").exists()


def test_missing_binary_is_one_line_and_writes_nothing(tmp_path, sample_doc):
    two_good(tmp_path / "r", sample_doc)
    err = one_line(dev_gather(tmp_path / "r", binary=tmp_path / "no-hipmembench"))
    assert "not an executable" in err
    assert sorted(x.name for x in (tmp_path / "r").iterdir()) == ["a.json", "b.json"]


def test_failed_comparison_writes_nothing(tmp_path, sample_doc):
    two_good(tmp_path / "r", sample_doc)
    fake = tmp_path / "hipmembench"
    fake.write_text("#!/bin/sh\necho half a table\necho 'compare: bad' >&2\nexit 2\n")
    fake.chmod(0o755)
    p = dev_gather(tmp_path / "r", binary=fake)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert "compare` exited 2: nothing written" in p.stderr
    assert sorted(x.name for x in (tmp_path / "r").iterdir()) == ["a.json", "b.json"]


BAD = [
    ("not-utf8", b'{"tool": {"name": "hipmembench"}, "host": {"hostname": "\xe9"}}', "not UTF-8"),
    ("deep-nesting", b"[" * 100000 + b"]" * 100000, "not readable JSON"),
    ("results-object", b'{"tool": {"name": "hipmembench"}, "results": {}}', "results is not a list"),
    ("result-number", b'{"tool": {"name": "hipmembench"}, "results": [7]}',
     "results[0] is not an object"),
    ("device-string", b'{"tool": {"name": "hipmembench"}, "results": [], "device": "gpu"}',
     "device is not an object"),
    ("status-list", b'{"tool": {"name": "hipmembench"}, "results": [{"status": []}]}',
     "results[0].status is not a string"),
]


@pytest.mark.parametrize("name,data,message", BAD, ids=[b[0] for b in BAD])
def test_unreadable_document_is_named_and_fails_the_gather(tmp_path, sample_doc, name, data,
                                                           message):
    """Beside two good runs, a document that cannot be read is named on stderr, left
    out, and the exit status says so (1); the comparison is still made."""
    r = tmp_path / "r"
    two_good(r, sample_doc)
    (r / "c-bad.json").write_bytes(data)
    p = dev_gather(r)
    assert "Traceback" not in p.stderr and p.returncode == 1, (p.returncode, p.stderr)
    assert f"{r / 'c-bad.json'}: left out: {message}" in p.stderr, p.stderr
    runs = json.loads((r / "index.json").read_text())["runs"]
    assert [x["valid"] for x in runs] == [True, True, False]
    assert "c-bad" not in compared(r)


def test_fifo_document_is_refused_not_waited_on(tmp_path, sample_doc):
    two_good(tmp_path / "r", sample_doc)
    os.mkfifo(tmp_path / "r" / "c-fifo.json")
    p = dev_gather(tmp_path / "r", timeout=20)
    assert p.returncode == 1 and "c-fifo.json: left out: not a regular file" in p.stderr, p.stderr
    compared(tmp_path / "r")


def test_fifo_base_is_refused_not_waited_on(tmp_path, sample_doc):
    two_good(tmp_path / "r", sample_doc)
    os.mkfifo(tmp_path / "base.json")
    err = one_line(dev_gather(tmp_path / "r", "--base", tmp_path / "base.json", timeout=20))
    assert "base.json: not a regular file" in err
    assert sorted(x.name for x in (tmp_path / "r").iterdir()) == ["a.json", "b.json"]


def test_bad_usage_is_one_line(tmp_path):
    assert "(see --help)" in one_line(dev_gather("--frob"))


@pytest.mark.parametrize("threshold", ["-5", "inf", "nan", "ten"])
def test_threshold_not_a_percentage_is_one_line(tmp_path, sample_doc, threshold):
    two_good(tmp_path / "r", sample_doc)
    err = one_line(dev_gather(tmp_path / "r", "--threshold", threshold))
    assert f"--threshold {threshold}: a percentage of at least 0" in err
    assert sorted(x.name for x in (tmp_path / "r").iterdir()) == ["a.json", "b.json"]


def corpus_documents():
    import test_corpus
    return [c for c in test_corpus.load("docs.jsonl") if c.values[0].get("generate") != "huge"]


@pytest.mark.parametrize("case", corpus_documents())
def test_no_traceback_on_the_corpus(tmp_path, sample_doc, case):
    """Every malformed document of the corpus beside two good runs: listed, never a
    traceback or a warning; the good runs are still compared."""
    import test_corpus
    two_good(tmp_path / "r", sample_doc)
    test_corpus.write_doc(case, tmp_path / "r" / "c-corpus.json")
    p = dev_gather(tmp_path / "r")
    assert "Traceback" not in p.stderr and "Warning" not in p.stderr, p.stderr
    assert p.returncode in (0, 1), (p.returncode, p.stderr)
    assert not hmb.temp_files(tmp_path / "r")
    runs = {os.path.basename(x["file"]): x for x in
            json.loads((tmp_path / "r" / "index.json").read_text())["runs"]}
    assert runs["a.json"]["valid"] and runs["b.json"]["valid"] and "c-corpus.json" in runs, runs
    # the good runs compared by the binary; the corpus document only where it was good
    text = compared(tmp_path / "r")
    corpus = runs["c-corpus.json"]
    assert ("c-corpus.json" in text) == (corpus["valid"] and not corpus["failed"]), text[:1000]
    assert p.returncode == (1 if not corpus["valid"] and corpus.get("unreadable") or
                            corpus["valid"] and corpus["failed"] else 0), (p.returncode, corpus)


def test_sigint_during_the_comparison_writes_nothing(tmp_path, sample_doc):
    two_good(tmp_path / "r", sample_doc)
    fake = tmp_path / "hipmembench"
    fake.write_text(f"#!/bin/sh\necho started > '{tmp_path}/started'\nexec sleep 30\n")
    fake.chmod(0o755)
    cmd = [*DEV, GATHER, tmp_path / "r", "--hipmembench", fake]
    for sig, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        err = tmp_path / "err"
        with open(err, "w") as f:
            rc = hmb.signal_when(cmd, lambda: (tmp_path / "started").exists(), sig, settle=0.2,
                                 timeout=30, stderr=f)
        assert rc == status and "Traceback" not in err.read_text(), err.read_text()
        assert sorted(x.name for x in (tmp_path / "r").iterdir()) == ["a.json", "b.json"]
        os.unlink(tmp_path / "started")


def test_character_device_document_is_refused_not_read(tmp_path, sample_doc):
    two_good(tmp_path / "r", sample_doc)
    os.symlink("/dev/zero", tmp_path / "r" / "c-zero.json")
    p = dev_gather(tmp_path / "r", timeout=20)
    assert p.returncode == 1 and "c-zero.json: left out: not a regular file" in p.stderr, p.stderr
    compared(tmp_path / "r")


@pytest.mark.parametrize("taken", ["index.json", "comparison.txt"])
def test_output_name_taken_by_a_folder_is_one_line_writes_nothing(tmp_path, sample_doc, taken):
    two_good(tmp_path / "r", sample_doc)
    (tmp_path / "r" / taken).mkdir()
    err = one_line(dev_gather(tmp_path / "r"))
    assert f"{taken}: exists and is not a regular file" in err
    assert sorted(x.name for x in (tmp_path / "r").iterdir()) == sorted(["a.json", "b.json", taken])


def test_closed_stdout_ends_quietly(tmp_path, sample_doc):
    two_good(tmp_path / "r", sample_doc)
    proc = subprocess.Popen([*DEV, GATHER, str(tmp_path / "r"), "--hipmembench", str(hmb.BIN)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # as `| head -0` does
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1 and "Traceback" not in err, err
    assert not hmb.temp_files(tmp_path / "r")
    compared(tmp_path / "r")
