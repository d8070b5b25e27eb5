#!/bin/bash
# GPUs together, part A, from the repository top, OUT=DIR: the node's topology, a smoke
# test of --devices all, then one GPU's `all` and `all --devices all` (--together host,
# the default) back to back; each run's wall time in times-a.txt; packed into DIR/a.tgz.
B=$PWD/build/hipmembench
cd "$OUT" || exit 1
t() { local name=$1; shift; local s=$(date +%s.%N); "$@"; local rc=$?
      echo "$name: exit $rc in $(awk "BEGIN { print $(date +%s.%N) - $s }") s" >> times-a.txt; }
nvidia-smi topo -m > topo.txt 2>&1
$B info > info.txt 2>&1
t smoke $B --quick --devices all --case 'h2d/pinned/async' --sizes 1M memcpy --output smoke.json \
  > smoke-stdout.txt 2> smoke-stderr.txt
t one $B all --output one.json > one-stdout.txt 2> one-stderr.txt
t host $B --devices all all --output host.json > host-stdout.txt 2> host-stderr.txt
tar czf a.tgz *.json *.txt; rm -f *.json *.txt
