#!/usr/bin/env bash
# slurm_test.sh BIN PYTHON - the Slurm template and gather step, against a real
# single-node Slurm (slurmctld + slurmd, authenticated by a private munged) started
# here in a temporary folder on its own ports, then stopped. The job runs
# hipmembench --dry-run, which needs no GPU, so the plumbing is proven anywhere.
# Prints "ok NAME", "FAIL NAME" (with detail) or "skip NAME: reason".
set -u
BIN=$(realpath "$1") PY=$2
REPO=$(pwd)
NAME="slurm: array job from the sbatch template, JSON per task, gathered and compared"
for tool in munged slurmctld slurmd sbatch sinfo scontrol; do
	if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
		echo "skip $NAME: $tool not installed (Debian: slurm-wlm, munge)"
		exit 0
	fi
done
if [ "$(id -u)" -ne 0 ]; then
	echo "skip $NAME: starting slurmd needs root"
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
cat >"$D/slurm.conf" <<CONF
ClusterName=hmbtest
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
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
