#!/bin/bash
# The resolution evidence, from the repository top, OUT=DIR: two `all` documents back to
# back (a.json, b.json), then eight processes of memcpy's pinned cases at 16 MiB and more,
# the reference loop beside the tool's own timings (mc-1.json ... mc-8.json); each run's
# wall time in times.txt; everything packed into DIR/out.tgz.
B=$PWD/build/hipmembench
cd "$OUT" || exit 1
$B info > info.txt 2>&1
for t in a b; do
  s=$(date +%s.%N)
  $B all --output $t.json > $t-stdout.txt 2> $t-stderr.txt
  echo "all $t: exit $? in $(awk "BEGIN { print $(date +%s.%N) - $s }") s" >> times.txt
done
for i in 1 2 3 4 5 6 7 8; do
  s=$(date +%s.%N)
  $B memcpy --case 'h2d/pinned/*' --case 'd2h/pinned/*' --sizes 16M,64M,256M,1G \
    --output mc-$i.json > /dev/null 2>> mc-stderr.txt
  echo "memcpy $i: exit $? in $(awk "BEGIN { print $(date +%s.%N) - $s }") s" >> times.txt
done
tar czf out.tgz *.json *.txt; rm -f *.json
