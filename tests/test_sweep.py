"""test_sweep.py - scripts/hmb_sweep.py over a small matrix of dry runs: one
valid document per point and a manifest, resumption, SIGTERM mid-point, and a
matrix with an unknown key; a point of `all` on two GPUs killed part-way and
resumed module by module (tests/fakegpu.py stands in for the GPU runs); shards
that together make the points of one run."""
import json
import os
import re
import shutil
import signal
import subprocess
import time

import pytest

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


FAKE = str(hmb.ROOT / "tests" / "fakegpu.py")


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_point_killed_part_way_resumes_with_only_what_was_missing(tmp_path, how):
    """Killed (the sweep and its hipmembench, as scancel does) or stopped by the
    time limit's SIGTERM in managed on GPU 1: started again, it runs only that and
    what came after, and the document holds every record once, each that names its
    GPU declaring it so (gpu_param) as `all --devices` does."""
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"command": "all", "args": ["--devices", "0,1"]}))
    out, log = tmp_path / "sweep", tmp_path / "ran.log"
    # the H100's records as this build writes them: with their roles
    source = json.loads((hmb.ROOT / "results/nvidia-h100-pcie/all.json").read_text())
    for r in source["results"]:
        context, gpu = hmbdoc.legacy_roles(r)
        r["context"] = [k for k in r["params"] if k in context]
        if gpu:
            r["gpu_param"] = gpu
    (tmp_path / "source.json").write_text(json.dumps(source))
    env = dict(os.environ, FAKE_HMB_REAL=str(hmb.BIN), FAKE_LOG=str(log), FAKE_HANG="managed:1",
               FAKE_FROM=str(tmp_path / "source.json"))
    cmd = [hmb.PY, SWEEP, "--hipmembench", FAKE, str(matrix), str(out)]
    first = subprocess.Popen(cmd, env=env, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):  # at most 20 s
            if log.exists() and "managed 1" in log.read_text():
                break
            time.sleep(0.1)
        assert "managed 1" in log.read_text()
        if how == "SIGKILL":
            os.killpg(first.pid, signal.SIGKILL)
        else:
            first.send_signal(signal.SIGTERM)
        assert first.wait(timeout=30) == (-9 if how == "SIGKILL" else 143)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
            first.wait(timeout=30)
    doc_path = next((out / "points").glob("*.json"))
    killed = json.loads(doc_path.read_text())
    assert not killed["complete"]
    assert [(r["module"], r["device"]) for r in killed["module_runs"]] == \
        [("memcpy", 0), ("memcpy", 1), ("overlap", 0), ("overlap", 1), ("managed", 0)] + \
        ([("managed", 1)] if how == "SIGTERM" else [])

    assert sum(r["module"] == "managed" and r["params"]["device"] == 1 for r in killed["results"])
    (doc_path.parent / (doc_path.name + ".tmp.99999")).write_text("{")  # a write cut short
    log.write_text("")
    env.pop("FAKE_HANG")
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert log.read_text().splitlines() == ["managed 1", "xnack 0", "xnack 1", "pool 0", "pool 1",
                                           "vmm 0", "vmm 1", "node None"]
    doc = hmbdoc.assert_valid(doc_path, complete=True)
    assert [(r["module"], r["device"]) for r in doc["module_runs"]] == \
        [(m, d) for m in ("memcpy", "overlap", "managed", "xnack", "pool", "vmm")
         for d in (0, 1)] + [("node", None)]
    assert [r["order"] for r in doc["module_runs"]] == list(range(1, 14))  # in the order run
    when = {(r["module"], r["device"]): r["measured_utc"] for r in doc["module_runs"]}
    assert all(when[u] == killed["started_utc"] for u in when if u not in
               {(x["module"], d) for x in doc["resumed"] for d in (x["devices"] or [0, 1, None])})
    assert [(x["module"], x["devices"]) for x in doc["resumed"]] == [
        ("managed", [1]), ("xnack", None), ("pool", None), ("vmm", None), ("node", None)]
    assert when[("managed", 1)] == doc["resumed"][0]["started_utc"]
    template = json.loads((hmb.ROOT / "results/nvidia-h100-pcie/all.json").read_text())["results"]
    per_gpu = sum(r["module"] != "node" for r in template)
    assert len(doc["results"]) == 2 * per_gpu + len(template) - per_gpu
    managed1 = [r for r in doc["results"] if r["module"] == "managed" and r["params"]["device"] == 1]
    assert len(managed1) == sum(r["module"] == "managed" for r in template)
    assert all((set(r["context"]), r.get("gpu_param")) == hmbdoc.legacy_roles(r) and
               (r["module"] == "node" or r["gpu_param"] == "device") for r in doc["results"])
    assert not hmb.temp_files(out / "points") and not list((out / "points").glob("*.part"))


@pytest.mark.parametrize("command", ["memcpy", "all"])
def test_point_whose_run_exits_1_fails_the_sweep(tmp_path, command):
    """A point whose hipmembench exits 1 (a case failed; its document complete) is
    failed, not done: the manifest says so with its exit status, the sweep exits 1,
    and so does the sweep run again, which does not count it done either."""
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"command": command, "env": {"HSA_XNACK": ["0", "1"]}}))
    out = tmp_path / "sweep"
    # the points' check (a dry run) is not what this is about: a stand-in says yes
    env = dict(os.environ, FAKE_HMB_REAL="/bin/true", FAKE_FAIL="memcpy")
    cmd = [hmb.PY, SWEEP, "--hipmembench", FAKE, str(matrix), str(out)]
    for attempt in (1, 2):
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
        assert p.returncode == 1, (attempt, p.stderr)
        assert "0 of 2 points done, 2 failed" in p.stderr, (attempt, p.stderr)
        points = json.loads((out / "manifest.json").read_text())["points"]
        assert [(e["status"], e["exit_status"]) for e in points] == [("failed", 1)] * 2, points
    # without the manifest, the documents alone say that their points failed
    (out / "manifest.json").unlink()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 1 and "0 of 2 points done, 2 failed" in p.stderr, p.stderr
    for doc in (out / "points").glob("*.json"):
        d = hmbdoc.load(doc)
        assert d["complete"] is True and any(r["status"] == "failed" for r in d["results"])


def test_shards_together_are_the_points_of_one_run(tmp_path):
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps(dict(MATRIX, variants=[["--reps", str(n)] for n in range(2, 7)])))
    whole = sweep(matrix, tmp_path / "one")
    assert whole.returncode == 0, whole.stderr
    for k in range(3):
        p = sweep(matrix, tmp_path / "three", "--shard", f"{k}/3")
        assert p.returncode == 0, p.stderr
    one = sorted(x.name for x in (tmp_path / "one" / "points").iterdir())
    three = sorted(x.name for x in (tmp_path / "three" / "points").iterdir())
    assert len(one) == 10 and one == three
    shards = [json.loads((tmp_path / "three" / f"manifest-shard-{k}-of-3.json").read_text())
              for k in range(3)]
    assert sorted(len(s["points"]) for s in shards) == [3, 3, 4]


def test_array_task_from_slurm_and_bad_shard(tmp_path):
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps(MATRIX))
    env = dict(os.environ, SLURM_ARRAY_TASK_ID="12", SLURM_ARRAY_TASK_MIN="10",
               SLURM_ARRAY_TASK_STEP="2", SLURM_ARRAY_TASK_COUNT="2")
    p = sweep(matrix, tmp_path / "s", "--dry-run", env=env)
    assert p.returncode == 0 and [line.split()[0][:4] for line in p.stdout.splitlines()] == ["p001", "p003"]
    p = sweep(matrix, tmp_path / "s", "--shard", "4/4")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "shard 4 of 4" in p.stderr


def test_closest_placement_per_gpu_asked_and_found(tmp_path):
    """cpu and numa "closest" follow each point's GPU (not crossed with every
    device); the manifest says what was asked and what the document found."""
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"command": "memcpy", "args": ["--dry-run", "--quick"],
                                  "devices": [0, 1], "numa": ["closest"], "cpu": ["closest"]}))
    cpus = sorted(os.sched_getaffinity(0))
    local = f"{cpus[0]}|{cpus[-1]}"
    env = dict(os.environ, FAKE_HMB_REAL=str(hmb.BIN), FAKE_LOCAL_CPUS=local)
    p = subprocess.run([hmb.PY, SWEEP, "--hipmembench", FAKE, str(matrix), str(tmp_path / "s")],
                       env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    pts = json.loads((tmp_path / "s" / "manifest.json").read_text())["points"]
    assert len(pts) == 2
    for dev, pt in enumerate(pts):
        want = local.split("|")[dev]
        assert pt["placement_asked"]["cpu"] == want
        assert pt["placement_found"]["cpus_allowed"] == want  # read back by hipmembench
        if shutil.which("numactl"):
            assert pt["placement_asked"]["numa"] == dev
        else:
            assert pt["placement_asked"]["numa"] == f"{dev}: numactl not found, ran unbound"
        doc = hmbdoc.assert_valid(tmp_path / "s" / pt["json"])
        assert doc["placement"]["cpus_allowed"] == want


def test_closest_unknown_without_gpu_runs_unbound_saying_why(tmp_path):
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"command": "memcpy", "args": ["--dry-run"], "numa": ["closest"]}))
    p = sweep(matrix, tmp_path / "s")
    assert p.returncode == 0, p.stderr
    pt = json.loads((tmp_path / "s" / "manifest.json").read_text())["points"][0]
    assert pt["placement_asked"]["numa"].startswith("closest: the GPU's NUMA node is unknown (")


@pytest.mark.parametrize("bad", [{"numa": ["near"]}, {"cpu": ["0-"]}, {"cpu": []}])
def test_bad_placement_refused_in_one_line(tmp_path, bad):
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps(dict({"command": "memcpy"}, **bad)))
    p = sweep(matrix, tmp_path / "s")
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert "Traceback" not in p.stderr


def test_point_stopped_after_its_last_module_runs_nothing_again(tmp_path):
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"command": "all"}))
    out, log = tmp_path / "sweep", tmp_path / "ran.log"
    env = dict(os.environ, FAKE_HMB_REAL=str(hmb.BIN), FAKE_LOG=str(log))
    cmd = [hmb.PY, SWEEP, "--hipmembench", FAKE, str(matrix), str(out)]
    assert subprocess.run(cmd, env=env, capture_output=True, timeout=120).returncode == 0
    doc_path = next((out / "points").glob("*.json"))
    doc = json.loads(doc_path.read_text())
    doc["complete"] = False  # killed between its last module and its last write
    doc_path.write_text(json.dumps(doc))
    log.write_text("")
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert log.read_text() == "" and hmbdoc.load(doc_path)["complete"]


# Bad input: one line on stderr and exit 2, never a traceback or a wait, under
# `python -X dev -W error`; nothing written where the sweep refuses.
DEV = [hmb.PY, "-X", "dev", "-W", "error"]


def dev_sweep(*args, binary=hmb.BIN, timeout=60, **kw):
    return subprocess.run([*DEV, SWEEP, "--hipmembench", str(binary), *map(str, args)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout, **kw)


def one_line(p, status=2):
    assert "Traceback" not in p.stderr, p.stderr
    assert p.returncode == status, (p.returncode, p.stderr)
    assert p.stderr.endswith("\n") and p.stderr.count("\n") == 1, p.stderr
    return p.stderr


@pytest.mark.parametrize("text,message", [
    ("[" * 100000 + "]" * 100000, "not readable JSON"),
    ('{"command": "memcpy", "args": ["\xe9"]}'.encode("latin-1"), "not UTF-8"),
    ('{"command": "memcpy", "devices": [NaN]}', "NaN is not a JSON number"),
], ids=["deep-nesting", "not-utf8", "nan"])
def test_unreadable_matrix_is_one_line(tmp_path, text, message):
    matrix = tmp_path / "matrix.json"
    matrix.write_bytes(text if isinstance(text, bytes) else text.encode())
    err = one_line(dev_sweep(matrix, tmp_path / "s"))
    assert f"{matrix}: not a readable JSON matrix: " in err and message in err
    assert not (tmp_path / "s").exists()


def test_fifo_matrix_is_refused_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "matrix.json")
    err = one_line(dev_sweep(tmp_path / "matrix.json", tmp_path / "s", "--dry-run", timeout=20))
    assert "not a regular file" in err


def test_huge_matrix_is_refused_naming_count_and_limit(tmp_path):
    """A million points: refused at once, --dry-run too; --max-points raises the limit."""
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"command": "memcpy", "args": ["--dry-run"],
                                  "env": {"A": list(range(1000)), "B": list(range(1000))}}))
    err = one_line(dev_sweep(matrix, tmp_path / "s", "--dry-run", timeout=20))
    assert "makes 1000000 points, more than the limit of 10000" in err and "--max-points" in err
    small = tmp_path / "small.json"
    small.write_text(json.dumps(dict(MATRIX, variants=[["--reps", str(n)] for n in range(2, 5)])))
    err = one_line(dev_sweep(small, tmp_path / "s", "--dry-run", "--max-points", "5"))
    assert "makes 6 points, more than the limit of 5" in err
    p = dev_sweep(small, tmp_path / "s", "--dry-run", "--max-points", "6")
    assert p.returncode == 0 and len(p.stdout.splitlines()) == 6, p.stderr


def test_each_distinct_command_line_is_checked_once(tmp_path):
    """Points that differ only in placement make one command line: one dry run checks them."""
    log = tmp_path / "calls.log"
    fake = tmp_path / "hipmembench"
    fake.write_text(f"#!/bin/sh\necho \"$*\" >> '{log}'\nexit 0\n")
    fake.chmod(0o755)
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"command": "memcpy", "numa": [0] * 50,
                                  "variants": [["--reps", "3"], ["--reps", "5"]]}))
    dev_sweep(matrix, tmp_path / "s", binary=fake)
    checks = [c for c in log.read_text().splitlines() if c.startswith("--dry-run ")]
    assert sorted(checks) == ["--dry-run --reps 3 memcpy", "--dry-run --reps 5 memcpy"]


def test_closed_stdout_ends_quietly(tmp_path):
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"command": "memcpy", "env": {"A": list(range(5000))}}))
    proc = subprocess.Popen([*DEV, SWEEP, str(matrix), str(tmp_path / "s"), "--dry-run"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # as `| head -0` does
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1 and err == "", err


def dry_point(tmp_path):
    """A matrix of one dry-run point, swept once: (matrix, outdir, its document)."""
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"command": "memcpy", "args": ["--dry-run", "--quick"]}))
    out = tmp_path / "s"
    assert dev_sweep(matrix, out).returncode == 0
    return matrix, out, next((out / "points").glob("*.json"))


def edited(doc, how):
    doc = json.loads(json.dumps(doc))
    how(doc)
    return doc


@pytest.mark.parametrize("name,edit,message", [
    ("list", lambda d: [], "not a hipmembench document"),
    ("params-string", lambda d: edited(d, lambda x: x.update(
        complete=False, results=[{"module": "memcpy", "params": "big"}])),
     "results[0].params is not an object"),
    ("results-object", lambda d: edited(d, lambda x: x.update(complete=False, results={})),
     "results is not a list"),
    ("module-runs-strings", lambda d: edited(d, lambda x: x.update(complete=False,
                                                                  module_runs=["memcpy"])),
     "module_runs[0] is not an object"),
    ("device-string", lambda d: edited(d, lambda x: x.update(complete=False, device="gpu")),
     "device is not an object"),
    ("deep", lambda d: "[" * 100000 + "]" * 100000, "not readable JSON"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_wrong_typed_earlier_point_is_one_line(tmp_path, name, edit, message):
    """What an earlier run left that is not a document of the right shape: named, and
    nothing run over it."""
    matrix, out, doc_path = dry_point(tmp_path)
    bad = edit(json.loads(doc_path.read_text()))
    doc_path.write_text(bad if isinstance(bad, str) else json.dumps(bad))
    before = doc_path.read_bytes()
    err = one_line(dev_sweep(matrix, out))
    assert f"{doc_path}: {message}" in err, err
    assert doc_path.read_bytes() == before


@pytest.mark.parametrize("text,message", [
    ("[]", '"points" is not a list'),
    ('{"points": [7]}', "points[0] is not an object"),
    ("[" * 100000 + "]" * 100000, "not readable JSON"),
], ids=["list", "point-number", "deep"])
def test_wrong_typed_earlier_manifest_is_one_line(tmp_path, text, message):
    matrix, out, _ = dry_point(tmp_path)
    (out / "manifest.json").write_text(text)
    err = one_line(dev_sweep(matrix, out))
    assert f"{out / 'manifest.json'}: " in err and message in err, err
    assert (out / "manifest.json").read_text() == text


@pytest.mark.parametrize("sig,status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_stopped_while_checking_ends_quietly_leaving_nothing(tmp_path, sig, status):
    """Ctrl-C (to the whole process group, as a terminal sends it) or SIGTERM while the
    points are checked: exit 128+signal, no traceback, no OUTDIR."""
    fake = tmp_path / "hipmembench"
    fake.write_text(f"#!/bin/sh\ntouch '{tmp_path}/checking'\nexec sleep 30\n")
    fake.chmod(0o755)
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"command": "memcpy"}))
    proc = subprocess.Popen([*DEV, SWEEP, "--hipmembench", str(fake), str(matrix),
                             str(tmp_path / "s")], stderr=subprocess.PIPE, start_new_session=True)
    try:
        for _ in range(100):
            if (tmp_path / "checking").exists():
                break
            time.sleep(0.1)
        time.sleep(0.2)
        os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)
        err = proc.communicate(timeout=30)[1].decode()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == status and "Traceback" not in err and "refused" not in err, err
    assert not (tmp_path / "s").exists()


def test_character_device_matrix_is_refused_not_read(tmp_path):
    err = one_line(dev_sweep("/dev/zero", tmp_path / "s", "--dry-run", timeout=20))
    assert "/dev/zero: not a readable JSON matrix: not a regular file" in err


def test_fifo_log_is_refused_not_waited_on(tmp_path):
    matrix, out, doc_path = dry_point(tmp_path)
    doc_path.unlink()
    log = out / "logs" / (doc_path.stem + ".log")
    log.unlink()
    os.mkfifo(log)
    err = one_line(dev_sweep(matrix, out, timeout=20))
    assert f"{log}: exists and is not a regular file" in err


def test_numa_point_bound_with_numactl_says_so(tmp_path):
    """Where numactl is there (here a stand-in on PATH that logs its options and
    runs the command), each "numa" point runs under it and the manifest records
    the node it was bound to."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "numactl.log"
    fake = bin_dir / "numactl"
    fake.write_text(f"#!/bin/sh\necho \"$1 $2\" >> '{log}'\nshift 2\nexec \"$@\"\n")
    fake.chmod(0o755)
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"command": "memcpy", "args": ["--dry-run", "--quick"],
                                  "numa": [0, 1]}))
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    p = sweep(matrix, tmp_path / "s", env=env)
    assert p.returncode == 0, p.stderr
    pts = json.loads((tmp_path / "s" / "manifest.json").read_text())["points"]
    assert [pt["placement_asked"] for pt in pts] == [{"numa": 0}, {"numa": 1}], pts
    assert log.read_text().splitlines() == ["--cpunodebind=0 --membind=0",
                                            "--cpunodebind=1 --membind=1"]
