"""test_slurm.py - the Slurm template and the gather step against a real
single-node Slurm: slurmctld and slurmd, authenticated by a private munged, are
started in a temporary folder on their own ports and stopped afterwards. The
job runs hipmembench --dry-run, which needs no GPU, so the plumbing is proven
anywhere; skipped, saying why, without Slurm or root."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest

import hmb
import hmbdoc

TOOLS = ("munged", "slurmctld", "slurmd", "sbatch", "sinfo", "scontrol")
PATH = os.environ.get("PATH", "") + ":/usr/sbin"

CONF = """ClusterName=hmbtest
SlurmctldHost={host}
SlurmUser=root
SlurmdUser=root
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={d}/munge.socket
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName={host} CPUs={cpus} RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""


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
    """A running single-node cluster: yields (folder, environment for its clients)."""
    missing = [t for t in TOOLS if not shutil.which(t, path=PATH)]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (Debian: slurm-wlm, munge)")
    if os.geteuid() != 0:
        pytest.skip("starting slurmd needs root")
    d = tempfile.mkdtemp(prefix="hmb-slurm-")
    env = dict(os.environ, PATH=PATH, SLURM_CONF=f"{d}/slurm.conf")
    try:
        for sub in ("state", "spool", "results"):
            os.mkdir(os.path.join(d, sub))
        with open(f"{d}/munge.key", "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(f"{d}/munge.key", 0o400)
        subprocess.run(["munged", "--force", f"--socket={d}/munge.socket",
                        f"--key-file={d}/munge.key", f"--pid-file={d}/munged.pid",
                        f"--log-file={d}/munged.log", f"--seed-file={d}/munge.seed"],
                       env=env, check=True, timeout=30)
        with open(f"{d}/slurm.conf", "w") as f:
            f.write(CONF.format(host=socket.gethostname().split(".")[0], d=d,
                                cpus=os.cpu_count(), ctld_port=free_port(),
                                slurmd_port=free_port()))
        for daemon in ("slurmctld", "slurmd"):
            p = subprocess.run([daemon], env=env, capture_output=True, text=True, timeout=30)
            assert p.returncode == 0, f"{daemon} did not start: {p.stderr}\n{logs(d)}"
        for _ in range(60):
            p = subprocess.run(["sinfo", "-h", "-o", "%t"], env=env, capture_output=True,
                               text=True)
            if "idle" in p.stdout:
                break
            time.sleep(0.5)
        yield d, env
    finally:
        subprocess.run(["scontrol", "shutdown"], env=env, capture_output=True, timeout=30)
        for pidfile in ("slurmd.pid", "slurmctld.pid", "munged.pid"):
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
    p = subprocess.run(["sbatch", "--wait", "--array=0-1", f"--chdir={hmb.ROOT}",
                        f"--output={results}/task-%a.log",
                        f"--export=ALL,HMB={hmb.BIN},HMB_ARGS=--dry-run --quick all,"
                        f"HMB_RESULTS={results}", f"{d}/job.sbatch"],
                       env=env, capture_output=True, text=True, timeout=120)
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
    p = subprocess.run(["sbatch", "--wait", f"--chdir={hmb.ROOT}", f"--output={results}/job.log",
                        f"--export=ALL,HMB={hmb.BIN},HMB_ARGS=--dry-run --quick all,"
                        f"HMB_RESULTS={results},HMB_GPUS=2",
                        str(hmb.ROOT / "scripts" / "slurm" / "hipmembench-node.sbatch")],
                       env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr + logs(d)
    docs = [os.path.join(results, f"{host}-gpu{g}.json") for g in (0, 1)]
    assert all(os.path.exists(x) for x in docs), os.listdir(results)
    assert [hmbdoc.load(x)["settings"]["device"] for x in docs] == [0, 1]
