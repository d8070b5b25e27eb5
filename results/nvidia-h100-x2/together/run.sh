#!/bin/bash
# GPUs together on a 2-GPU machine, from the repository top, OUT=DIR: one GPU's `all`,
# `all --devices all` (--together host, the default), `--together all`, `node` and the
# quick `all --devices all`; each run's wall time in times.txt; DIR/out.tgz packed after
# each run, so that what ran comes back if the call's time runs out.
B=$PWD/build/hipmembench
cd "$OUT" || exit 1
mkdir -p w && cd w || exit 1
t() { local name=$1; shift; local s=$(date +%s.%N); "$@"; local rc=$?
      echo "$name: exit $rc in $(awk "BEGIN { print $(date +%s.%N) - $s }") s" >> times.txt
      tar czf ../out.tgz *; }
nvidia-smi topo -m > topo.txt 2>&1
$B info > info.txt 2>&1
t one $B all --output one.json > one-stdout.txt 2> one-stderr.txt
t host $B --devices all all --output host.json > host-stdout.txt 2> host-stderr.txt
t together-all $B --devices all --together all all --output together-all.json \
  > together-all-stdout.txt 2> together-all-stderr.txt
t node $B node --output node.json > node-stdout.txt 2> node-stderr.txt
t quick $B --quick --devices all all --output quick.json > quick-stdout.txt 2> quick-stderr.txt
cd .. && rm -rf w
