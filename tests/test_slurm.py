"""test_slurm.py - the Slurm templates, the sweep and the gather and fleet steps
against a real Slurm of two nodes: slurmctld and two slurmd on this host (each
its own node name and port), authenticated by a private munged, are started in a
temporary folder and stopped afterwards, whatever happens. The jobs run
hipmembench --dry-run, which needs no GPU, or tests/fakegpu.py where figures are
needed, so the plumbing is proven anywhere: a sweep split over a four-task array
gives the points of one run, a sweep whose job was cancelled part-way resumes with
only what was missing, and the fleet template over both nodes names the GPU given
a half-width link. Skipped, saying why, without Slurm or root."""
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time

import pytest

import hmb
import hmbdoc

TOOLS = ("munged", "slurmctld", "slurmd", "sbatch", "sinfo", "scontrol", "squeue", "scancel")
PATH = os.environ.get("PATH", "") + ":/usr/sbin"

CONF = """ClusterName=hmbtest
SlurmctldHost={host}
SlurmUser=root
SlurmdUser=root
SlurmctldPort={ctld_port}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={d}/munge.socket
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool/%n
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd-%n.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd-%n.log
KillWait=5
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
{nodes}
PartitionName=debug Nodes={names} Default=YES MaxTime=INFINITE State=UP
"""
NODE = ("NodeName={name} NodeHostname={host} NodeAddr=127.0.0.1 Port={port} CPUs={cpus} "
        "RealMemory=1000 State=UNKNOWN")
NODES = ("hmbn1", "hmbn2")  # two slurmd on this host, told apart by name and port
FAKE = str(hmb.ROOT / "tests" / "fakegpu.py")
TEMPLATES = hmb.ROOT / "scripts" / "slurm"


def logs(d):
    out = []
    for root, _, names in os.walk(d):
        for n in sorted(names):
            if n.endswith(".log"):
                with open(os.path.join(root, n), errors="replace") as f:
                    out.append(f"--- {n}\n" + "".join(f.readlines()[-5:]))
    return "\n".join(out)


def free_port():
    """A TCP port nobody listens on now, so that runs side by side do not meet."""
    with socket.socket() as s:
        s.bind(("", 0))
        return s.getsockname()[1]


def wait_for(what, check, timeout, detail=None):
    """Poll check() until it is true; fail naming what (and detail(), where given)
    after timeout seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.3)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}" +
                         (f"\n{detail()}" if detail else ""))


def stop(pidfile):
    """Stop the daemon whose pid is in pidfile and wait until it is gone."""
    try:
        with open(pidfile) as f:
            pid = int(f.read().strip())
        os.kill(pid, 15)
        for _ in range(100):
            os.kill(pid, 0)
            time.sleep(0.1)
    except (OSError, ValueError):
        pass


@pytest.fixture
def slurm():
    """A running two-node cluster: yields (folder, environment for its clients)."""
    missing = [t for t in TOOLS if not shutil.which(t, path=PATH)]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (Debian: slurm-wlm, munge)")
    if os.geteuid() != 0:
        pytest.skip("starting slurmd needs root")
    d = tempfile.mkdtemp(prefix="hmb-slurm-")
    env = dict(os.environ, PATH=PATH, SLURM_CONF=f"{d}/slurm.conf")
    try:
        for sub in ["state", "spool", "results"] + [f"spool/{n}" for n in NODES]:
            os.mkdir(os.path.join(d, sub))
        with open(f"{d}/munge.key", "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(f"{d}/munge.key", 0o400)
        subprocess.run(["munged", "--force", f"--socket={d}/munge.socket",
                        f"--key-file={d}/munge.key", f"--pid-file={d}/munged.pid",
                        f"--log-file={d}/munged.log", f"--seed-file={d}/munge.seed"],
                       env=env, check=True, timeout=30)
        with open(f"{d}/slurm.conf", "w") as f:
            host = socket.gethostname().split(".")[0]
            f.write(CONF.format(host=host, d=d, ctld_port=free_port(), names=",".join(NODES),
                                nodes="\n".join(NODE.format(name=n, host=host, port=free_port(),
                                                            cpus=os.cpu_count()) for n in NODES)))
        for daemon in [["slurmctld"]] + [["slurmd", "-N", n] for n in NODES]:
            p = subprocess.run(daemon, env=env, capture_output=True, text=True, timeout=30)
            assert p.returncode == 0, f"{' '.join(daemon)} did not start: {p.stderr}\n{logs(d)}"
        # (two minutes: a loaded machine, the sanitizers' run of the suite, registers slowly)
        wait_for("both nodes idle", lambda: subprocess.run(
            ["sinfo", "-h", "-N", "-o", "%t"], env=env, capture_output=True, text=True,
            timeout=30).stdout.split().count("idle") == len(NODES), 120,
            lambda: subprocess.run(["sinfo", "-N", "-o", "%N %t %E"], env=env,
                                   capture_output=True, text=True, timeout=30).stdout + logs(d))
        yield d, env
    finally:
        # jobs a failed test left running first, so that none outlives the cluster
        try:
            jobs = subprocess.run(["squeue", "-h", "-o", "%A"], env=env, capture_output=True,
                                  text=True, timeout=30).stdout.split()
            if jobs:
                subprocess.run(["scancel", *jobs], env=env, capture_output=True, timeout=30)
                wait_for("the jobs to end", lambda: not subprocess.run(
                    ["squeue", "-h"], env=env, capture_output=True, text=True,
                    timeout=30).stdout.strip(), 30)
        except (AssertionError, OSError, subprocess.SubprocessError):
            pass  # the daemons stop below all the same
        subprocess.run(["scontrol", "shutdown"], env=env, capture_output=True, timeout=30)
        for pidfile in [f"slurmd-{n}.pid" for n in NODES] + ["slurmctld.pid", "munged.pid"]:
            stop(os.path.join(d, pidfile))
        shutil.rmtree(d, ignore_errors=True)


def test_array_job_from_the_template_gathered_and_compared(slurm):
    d, env = slurm
    host = socket.gethostname().split(".")[0]
    results = os.path.join(d, "results")
    # The template as shipped, less its GPU request: this test cluster has no GPUs.
    with open(hmb.ROOT / "scripts" / "slurm" / "hipmembench.sbatch") as f:
        job = "".join(line for line in f if "--gpus-per-task" not in line)
    with open(f"{d}/job.sbatch", "w") as f:
        f.write(job)
    p = sbatch(env, "--wait", "--array=0-1", f"--output={results}/task-%a.log",
               f"--export=ALL,HMB={hmb.BIN},HMB_ARGS=--dry-run --quick all,"
               f"HMB_RESULTS={results}", f"{d}/job.sbatch")
    assert p.returncode == 0, p.stdout + p.stderr + logs(d)
    docs = [os.path.join(results, f"{host}-gpu0-task{t}.json") for t in (0, 1)]
    for doc in docs:
        assert os.path.exists(doc), os.listdir(results)
        hmbdoc.assert_valid(doc, complete=True)
    g = subprocess.run([hmb.PY, str(hmb.ROOT / "scripts" / "hmb_gather.py"), results,
                        "--hipmembench", str(hmb.BIN)], capture_output=True, text=True,
                       timeout=120)
    assert g.returncode == 0, g.stdout + g.stderr
    with open(os.path.join(results, "index.json")) as f:
        runs = json.load(f)["runs"]
    assert len(runs) == 2
    assert all(r["valid"] and r["complete"] and not r["failed"] and r["slurm_job_id"]
               for r in runs), runs
    with open(os.path.join(results, "comparison.txt")) as f:
        assert any(line.startswith("base ") for line in f)


def test_templates_ask_for_one_gpu_per_task_and_a_place_for_module_load():
    """What the per-GPU template asks of Slurm, as shipped (the test cluster
    has no GPUs, so this is read, not run); the node-wide one takes the node."""
    per_gpu = (hmb.ROOT / "scripts" / "slurm" / "hipmembench.sbatch").read_text()
    node = (hmb.ROOT / "scripts" / "slurm" / "hipmembench-node.sbatch").read_text()
    lines = per_gpu.splitlines()
    assert "#SBATCH --gpus-per-task=1" in lines
    assert any(line.startswith("srun ") or " srun " in line for line in lines
               if "--gpu-bind=closest" in line)
    assert "#SBATCH --exclusive" not in lines
    assert any(line.startswith("# module load") for line in lines)
    assert "#SBATCH --exclusive" in node.splitlines()


def test_node_template_runs_every_gpu_of_its_node_in_turn(slurm):
    d, env = slurm
    host = socket.gethostname().split(".")[0]
    results = os.path.join(d, "node")
    os.mkdir(results)
    p = sbatch(env, "--wait", f"--output={results}/job.log",
               f"--export=ALL,HMB={hmb.BIN},HMB_ARGS=--dry-run --quick all,"
               f"HMB_RESULTS={results},HMB_GPUS=2",
               hmb.ROOT / "scripts" / "slurm" / "hipmembench-node.sbatch")
    assert p.returncode == 0, p.stdout + p.stderr + logs(d)
    docs = [os.path.join(results, f"{host}-gpu{g}.json") for g in (0, 1)]
    assert all(os.path.exists(x) for x in docs), os.listdir(results)
    assert [hmbdoc.load(x)["settings"]["device"] for x in docs] == [0, 1]


# The states a job (each task of an array) ends in.
ENDED = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
         "BOOT_FAIL", "DEADLINE", "PREEMPTED"}


def sbatch(env, *args, timeout=120):
    """sbatch in the repository. With --wait, waits as sbatch --wait does (every task
    ended; exit status 0 only where each completed with 0), asking every 0.3 s where
    sbatch's own wait sleeps longer after each time it asks, up to 10 s."""
    args = [str(a) for a in args]
    wait = "--wait" in args
    if wait:
        args = ["--parsable"] + [a for a in args if a != "--wait"]
    p = subprocess.run(["sbatch", f"--chdir={hmb.ROOT}", *args], env=env,
                       capture_output=True, text=True, timeout=timeout)
    if not wait or p.returncode != 0:
        return p
    job, tasks = p.stdout.strip().split(";")[0], []

    def ended():
        out = subprocess.run(["scontrol", "-o", "show", "job", job], env=env,
                             capture_output=True, text=True, timeout=30).stdout
        tasks[:] = [(m.group(1), m.group(2)) for m in
                    (re.search(r"\bJobState=(\S+).*\bExitCode=(\S+)", line)
                     for line in out.splitlines()) if m]
        return bool(tasks) and all(state in ENDED for state, _ in tasks)
    wait_for(f"job {job} to end", ended, timeout, lambda: f"{tasks}\n{p.stderr}")
    ok = all(t == ("COMPLETED", "0:0") for t in tasks)
    return subprocess.CompletedProcess(p.args, 0 if ok else 1,
                                       f"job {job}: {tasks}\n{p.stdout}", p.stderr)


def test_sweep_over_a_four_task_array_makes_the_points_of_one_run(slurm):
    d, env = slurm
    matrix = os.path.join(d, "matrix.json")
    with open(matrix, "w") as f:
        json.dump({"command": "memcpy", "args": ["--dry-run", "--quick"],
                   "env": {"HSA_XNACK": ["0", "1"]},
                   "variants": [["--reps", str(n)] for n in (2, 3, 4, 5, 6)]}, f)
    runs = {}
    p = subprocess.run([hmb.PY, str(hmb.ROOT / "scripts" / "hmb_sweep.py"), "--hipmembench",
                        str(hmb.BIN), matrix, os.path.join(d, "one")], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    p = sbatch(env, "--wait", "--array=0-3", f"--output={d}/array-%a.log",
               f"--export=ALL,HMB={hmb.BIN},HMB_MATRIX={matrix},HMB_RESULTS={d}/array",
               TEMPLATES / "hipmembench-sweep.sbatch")
    assert p.returncode == 0, p.stdout + p.stderr + logs(d)
    for name in ("one", "array"):
        out = os.path.join(d, name)
        manifests = [n for n in os.listdir(out) if n.startswith("manifest")]
        points = []
        for m in manifests:
            with open(os.path.join(out, m)) as f:
                points += [(e["id"], e["args"], e["env"], e["status"]) for e in json.load(f)["points"]]
        runs[name] = (sorted(os.listdir(os.path.join(out, "points"))), sorted(points), manifests)
    with open(f"{d}/array-0.log") as f:
        text = f.read()
        assert "points done" in text and "of 10 points" not in text  # its share only
    assert len(runs["one"][0]) == 10 and runs["one"][0] == runs["array"][0]
    assert runs["one"][1] == runs["array"][1]
    assert sorted(runs["array"][2]) == [f"manifest-shard-{k}-of-4.json" for k in range(4)]
    for doc in runs["array"][0]:
        hmbdoc.assert_valid(os.path.join(d, "array", "points", doc), complete=True)


def test_sweep_job_cancelled_part_way_resumes_with_only_what_was_missing(slurm):
    d, env = slurm
    matrix, out, ran = (os.path.join(d, n) for n in ("matrix.json", "resume", "ran.log"))
    with open(matrix, "w") as f:
        json.dump({"command": "all", "args": ["--devices", "0,1"]}, f)
    export = f"--export=ALL,HMB={FAKE},HMB_MATRIX={matrix},HMB_RESULTS={out}," \
             f"FAKE_HMB_REAL={hmb.BIN},FAKE_LOG={ran}"
    p = sbatch(env, "--parsable", f"--output={d}/resume-1.log", export + ",FAKE_HANG=managed:1",
               TEMPLATES / "hipmembench-sweep.sbatch")
    assert p.returncode == 0, p.stdout + p.stderr
    job = p.stdout.strip().split(";")[0]
    wait_for("the job to reach managed on GPU 1",
             lambda: os.path.exists(ran) and "managed 1" in open(ran).read(), 60)
    subprocess.run(["scancel", job], env=env, check=True, timeout=30)
    wait_for("the cancelled job to end", lambda: not subprocess.run(
        ["squeue", "-h", "-j", job], env=env, capture_output=True, text=True,
        timeout=30).stdout.strip(), 60)
    doc_path = os.path.join(out, "points", "p000.json")
    assert not hmbdoc.load(doc_path)["complete"]
    os.unlink(ran)
    p = sbatch(env, "--wait", f"--output={d}/resume-2.log", export,
               TEMPLATES / "hipmembench-sweep.sbatch")
    assert p.returncode == 0, p.stdout + p.stderr + logs(d)
    with open(ran) as f:
        assert f.read().splitlines() == ["managed 1", "xnack 0", "xnack 1", "pool 0", "pool 1",
                                         "vmm 0", "vmm 1", "node None"]
    doc = hmbdoc.assert_valid(doc_path, complete=True)
    assert [x["module"] for x in doc["resumed"]] == ["managed", "xnack", "pool", "vmm", "node"]


def test_fleet_template_on_two_nodes_names_the_gpu_with_a_half_width_link(slurm):
    d, env = slurm
    out = os.path.join(d, "fleet")
    # The template as shipped, less its GPU request: this test cluster has no GPUs.
    with open(TEMPLATES / "hipmembench-fleet.sbatch") as f:
        job = "".join(line for line in f if "--gpus-per-task" not in line)
    with open(f"{d}/fleet.sbatch", "w") as f:
        f.write(job)
    p = sbatch(env, "--wait", "--nodes=2", "--ntasks-per-node=2", f"--output={d}/fleet.log",
               f"--export=ALL,HMB={FAKE},HMB_RESULTS={out},FAKE_HMB_REAL={hmb.BIN},"
               "FAKE_HALF_LINK=hmbn2:1", f"{d}/fleet.sbatch")
    with open(f"{d}/fleet.log") as f:
        log = f.read()
    assert p.returncode == 1, p.stdout + p.stderr + log + logs(d)  # 1: an outlier was found
    assert sorted(os.listdir(out)) == ["fleet-summary.json", "hmbn1-gpu0.json", "hmbn1-gpu1.json",
                                       "hmbn2-gpu0.json", "hmbn2-gpu1.json"]
    with open(os.path.join(out, "fleet-summary.json")) as f:
        summary = json.load(f)
    assert summary["documents"] == 4 and summary["gpus"] == 4
    h2d = next(x for x in summary["figures"] if x["figure"] == "h2d pinned GB/s")
    assert [(o["host"], o["pci_bus_id"], o["likely_reasons"][0]) for o in h2d["outliers"]] == \
        [("hmbn2", "0000:42:00.0", "PCIe link width x8 of x16")]
    assert "hmbn2 gpu 0 (0000:42:00.0)" in log
