"""test_gather.py - scripts/hmb_gather.py: an index of every document in a
folder, runs that did not complete or found no device shown as failed and left
out of the comparison, and a non-zero exit when a run failed."""
import copy
import json
import subprocess

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


def test_nothing_to_gather_exit_2(tmp_path):
    p = gather(tmp_path)
    assert p.returncode == 2 and "no hipmembench document" in p.stderr
