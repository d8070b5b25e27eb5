#!/bin/bash
# `all --devices all` at the default (--together all) against one GPU's `all`, from the
# repository top, OUT=DIR: the topology, one GPU's `all`, then `all --devices all`, the
# quick one and `node`, back to back; each run's wall time in times.txt; packed into
# DIR/r.tgz.
B=$PWD/build/hipmembench
cd "$OUT" || exit 1
t() { local name=$1; shift; local s=$(date +%s.%N); "$@"; local rc=$?
      echo "$name: exit $rc in $(awk "BEGIN { print $(date +%s.%N) - $s }") s" >> times.txt; }
nvidia-smi topo -m > topo.txt 2>&1
$B info > info.txt 2>&1
t one $B all --output one.json > one-stdout.txt 2> one-stderr.txt
t devices-all $B --devices all all --output devices-all.json \
  > devices-all-stdout.txt 2> devices-all-stderr.txt
t quick $B --quick --devices all all --output quick.json > quick-stdout.txt 2> quick-stderr.txt
t node $B node --output node.json > node-stdout.txt 2> node-stderr.txt
gzip -9 *.json
tar czf r.tgz *.json.gz *.txt; rm -f *.json.gz *.txt
