"""test_sweep.py - scripts/hmb_sweep.py over a small matrix of dry runs: one
valid document per point and a manifest, resumption, SIGTERM mid-point, and a
matrix with an unknown key."""
import json
import os
import re
import signal
import subprocess

import hmb
import hmbdoc

SWEEP = str(hmb.ROOT / "scripts" / "hmb_sweep.py")
MATRIX = {"command": "memcpy", "args": ["--dry-run", "--quick"],
          "env": {"HSA_XNACK": ["0", "1"]}, "variants": [["--reps", "3"], ["--reps", "5"]]}


def sweep(*args, binary=hmb.BIN, **kw):
    return subprocess.run([hmb.PY, SWEEP, "--hipmembench", str(binary), *map(str, args)],
                          capture_output=True, text=True, timeout=120, **kw)


def test_one_document_per_point_manifest_and_resume(tmp_path):
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps(MATRIX))
    out = tmp_path / "sweep"
    p = sweep(matrix, out)
    assert p.returncode == 0, p.stderr
    points = sorted((out / "points").glob("*.json"))
    assert len(points) == 4
    for doc in points:
        hmbdoc.assert_valid(doc, complete=True)
    p = sweep(matrix, out)
    assert p.returncode == 0, p.stderr
    pts = json.loads((out / "manifest.json").read_text())["points"]
    assert len(pts) == 4
    assert all(pt["status"] == "done" and pt.get("resumed") for pt in pts)
    assert pts[2]["env"] == {"HSA_XNACK": "1"} and pts[1]["args"][-1] == "5"


def test_sigterm_stops_the_running_point_and_records_it(tmp_path):
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps(MATRIX))
    slow = tmp_path / "slow-hipmembench"
    slow.write_text("#!/bin/sh\n[ \"$1\" = --dry-run ] && exit 0\nexec sleep 30\n")
    slow.chmod(0o755)
    out = tmp_path / "sweep"
    rc = hmb.signal_when([hmb.PY, SWEEP, "--hipmembench", slow, matrix, out],
                         lambda: (out / "manifest.json").exists(), signal.SIGTERM, settle=0.3,
                         timeout=30)
    assert rc == 143
    st = [pt["status"] for pt in json.loads((out / "manifest.json").read_text())["points"]]
    assert st == ["interrupted", "pending", "pending", "pending"]


def test_unknown_matrix_key_is_refused_naming_it(tmp_path):
    matrix = tmp_path / "bad-matrix.json"
    matrix.write_text('{"command": "memcpy", "colour": "blue"}')
    p = subprocess.run([hmb.PY, SWEEP, str(matrix), str(tmp_path / "sweep3")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and "unknown key(s) colour" in p.stderr
    assert not os.path.exists(tmp_path / "sweep3" / "points")


def test_shipped_amd_matrix_is_xnack_by_sdma(tmp_path):
    p = subprocess.run([hmb.PY, SWEEP, str(hmbdoc.ROOT / "scripts" / "sweeps" / "amd-xnack-sdma.json"),
                        str(tmp_path / "amd"), "--dry-run"], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0, p.stderr
    points = [line for line in p.stdout.splitlines()
              if re.search(r"HSA_ENABLE_SDMA=[01] HSA_XNACK=[01] ", line)]
    assert len(points) == 4, p.stdout
