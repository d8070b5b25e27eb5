#!/bin/bash
# run.sh - what made this folder: pool, and memcpy's pageable and registered copies, in
# fifteen processes, five each unbound (U), bound to CPU 4 (T) and to CPUs 4-7 (Q) with
# taskset, interleaved; packed into $OUT/w.tar.gz after each round.
# Run from the top of a checkout where build/ holds the build (make portable).
set -u
w=$OUT/w; mkdir -p $w; b=build/hipmembench
t0=$(date +%s)
for i in 1 2 3 4 5; do
  for v in U T Q; do
    case $v in U) pre="";; T) pre="taskset -c 4";; Q) pre="taskset -c 4-7";; esac
    $pre $b --runs 1 -o $w/pool-$v$i.json pool > /dev/null 2> $w/pool-$v$i.err
    $pre $b --runs 1 -s 4K,256K,16M -c 'd2h/pageable/*' -c 'd2h/registered/sync' -c 'h2d/pageable/*' -o $w/mc-$v$i.json memcpy > /dev/null 2> $w/mc-$v$i.err
  done
  echo "round $i at $(( $(date +%s) - t0 )) s" >> $w/log
  tar -C $OUT -czf $OUT/w.tar.gz w
done
