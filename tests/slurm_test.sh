#!/usr/bin/env bash
# slurm_test.sh BIN PYTHON - the Slurm templates (one task per GPU; a whole node,
# every GPU in turn) and the gather step, against a real single-node Slurm
# (slurmctld + slurmd, authenticated by a private munged) started here in a
# temporary folder on ports free at the time, then stopped. The jobs run hipmembench
# --dry-run, which needs no GPU, so the plumbing is proven anywhere.
# Prints "ok NAME", "FAIL NAME" (with detail) or "skip NAME: reason".
set -u
BIN=$(realpath "$1") PY=$2
REPO=$(pwd)
NAME="slurm: array job from the sbatch template, JSON per task, gathered and compared"
NODE_NAME="slurm: the node-wide template runs every GPU of its node in turn"

# What the per-GPU template asks of Slurm, as shipped (this test cluster has no GPUs).
T="$REPO/scripts/slurm/hipmembench.sbatch"
if grep -q '^#SBATCH --gpus-per-task=1$' "$T" && grep -q 'srun .*--gpu-bind=closest' "$T" &&
	! grep -q '^#SBATCH --exclusive' "$T" && grep -q '^# module load' "$T" &&
	grep -q '^#SBATCH --exclusive' "$REPO/scripts/slurm/hipmembench-node.sbatch"; then
	echo "ok   slurm: one GPU per task, bound closest, nodes shared, a place for module load"
else
	echo "FAIL slurm: one GPU per task, bound closest, nodes shared, a place for module load"
fi
for tool in munged slurmctld slurmd sbatch sinfo scontrol; do
	if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
		echo "skip $NAME: $tool not installed (Debian: slurm-wlm, munge)"
		echo "skip $NODE_NAME: $tool not installed (Debian: slurm-wlm, munge)"
		exit 0
	fi
done
if [ "$(id -u)" -ne 0 ]; then
	echo "skip $NAME: starting slurmd needs root"
	echo "skip $NODE_NAME: starting slurmd needs root"
	exit 0
fi
export PATH="$PATH:/usr/sbin"
D=$(mktemp -d /tmp/hmb-slurm-XXXXXX)
HOST=$(hostname -s)
cleanup() {
	SLURM_CONF=$D/slurm.conf scontrol shutdown >/dev/null 2>&1
	sleep 1
	for f in slurmd.pid slurmctld.pid munged.pid; do
		[ -f "$D/$f" ] && kill "$(cat "$D/$f")" 2>/dev/null
	done
	rm -rf "$D"
}
trap cleanup EXIT
detail() { for f in "$D"/*.log "$D"/results/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -n 5 "$f"; }; done; }

mkdir -p "$D/state" "$D/spool" "$D/results"
dd if=/dev/urandom of="$D/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$D/munge.key"
munged --force --socket="$D/munge.socket" --key-file="$D/munge.key" \
	--pid-file="$D/munged.pid" --log-file="$D/munged.log" --seed-file="$D/munge.seed" ||
	{ echo "FAIL $NAME"; echo "    munged did not start"; exit 0; }
# Ports that are free now: other test runs on this machine may hold fixed ones.
read -r CTLD_PORT SLURMD_PORT < <("$PY" -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("", 0))
print(*[x.getsockname()[1] for x in s])')
cat >"$D/slurm.conf" <<CONF
ClusterName=hmbtest
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge.socket
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$HOST CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$D/slurm.conf
slurmctld && slurmd || { echo "FAIL $NAME"; detail | sed 's/^/    /'; exit 0; }
for _ in $(seq 1 60); do
	sinfo -h -o %t 2>/dev/null | grep -q idle && break
	sleep 0.5
done
# The template as shipped, less its GPU request: this test cluster has no GPUs.
sed '/--gpus-per-task/d' "$REPO/scripts/slurm/hipmembench.sbatch" >"$D/job.sbatch"
if ! timeout 120 sbatch --wait --array=0-1 --chdir="$REPO" --output="$D/results/task-%a.log" \
	--export=ALL,HMB="$BIN",HMB_ARGS="--dry-run --quick all",HMB_RESULTS="$D/results" \
	"$D/job.sbatch" >"$D/sbatch.out" 2>&1; then
	echo "FAIL $NAME"
	{ cat "$D/sbatch.out"; detail; } | sed 's/^/    /'
	exit 0
fi
"$PY" "$REPO/scripts/hmb_gather.py" "$D/results" --hipmembench "$BIN" >"$D/gather.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && [ -f "$D/results/$HOST-gpu0-task0.json" ] && [ -f "$D/results/$HOST-gpu0-task1.json" ] &&
	"$PY" -c 'import json,sys
runs = json.load(open(sys.argv[1]))["runs"]
ok = len(runs) == 2 and all(r["valid"] and r["complete"] and r["slurm_job_id"] for r in runs)
sys.exit(0 if ok else 1)' "$D/results/index.json" &&
	grep -q "^base " "$D/results/comparison.txt"; then
	echo "ok   $NAME"
else
	echo "FAIL $NAME"
	{ echo "gather exit $rc"; cat "$D/gather.out"; ls "$D/results"; detail; } | sed 's/^/    /'
fi

# The node-wide template as shipped: two GPUs (HMB_GPUS), one document each.
mkdir -p "$D/node"
if timeout 120 sbatch --wait --chdir="$REPO" --output="$D/node/job.log" \
	--export=ALL,HMB="$BIN",HMB_ARGS="--dry-run --quick all",HMB_RESULTS="$D/node",HMB_GPUS=2 \
	"$REPO/scripts/slurm/hipmembench-node.sbatch" >"$D/sbatch-node.out" 2>&1 &&
	[ -f "$D/node/$HOST-gpu0.json" ] && [ -f "$D/node/$HOST-gpu1.json" ] &&
	"$PY" -c 'import json,sys
docs = [json.load(open(f)) for f in sys.argv[1:]]
sys.exit(0 if [d["settings"]["device"] for d in docs] == [0, 1] else 1)' "$D/node/$HOST-gpu0.json" "$D/node/$HOST-gpu1.json"; then
	echo "ok   $NODE_NAME"
else
	echo "FAIL $NODE_NAME"
	{ cat "$D/sbatch-node.out" "$D/node/job.log"; ls "$D/node"; detail; } 2>&1 | sed 's/^/    /'
fi
