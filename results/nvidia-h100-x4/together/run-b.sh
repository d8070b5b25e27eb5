#!/bin/bash
# GPUs together, part B, from the repository top, OUT=DIR: `all --devices all --together
# all` (every module on every GPU at once), `node` with its reference loops, and the
# quick `all --devices all`; each run's wall time in times-b.txt; packed into DIR/b.tgz.
B=$PWD/build/hipmembench
cd "$OUT" || exit 1
t() { local name=$1; shift; local s=$(date +%s.%N); "$@"; local rc=$?
      echo "$name: exit $rc in $(awk "BEGIN { print $(date +%s.%N) - $s }") s" >> times-b.txt; }
t together-all $B --devices all --together all all --output together-all.json \
  > together-all-stdout.txt 2> together-all-stderr.txt
t node $B node --output node.json > node-stdout.txt 2> node-stderr.txt
for s in 64 4096; do
  t node-stride-$s $B node --case 'p2p/latency*' --case device/latency --chase-stride $s \
    --output node-stride-$s.json > /dev/null 2>> node-stride-stderr.txt
done
t quick $B --quick --devices all all --output quick.json > quick-stdout.txt 2> quick-stderr.txt
tar czf b.tgz *.json *.txt; rm -f *.json *.txt
