#!/bin/bash
# Two `all` documents back to back with the build whose modules live in folders of their
# own (bench/<module>/) and whose node tables come from its records, for the comparison
# with resolution/a.json and b.json (the build before); from the repository top,
# OUT=DIR: c.json, d.json, their stdout, each run's wall time in times.txt, packed into
# DIR/out.tgz.
B=$PWD/build/hipmembench
cd "$OUT" || exit 1
for t in c d; do
  s=$(date +%s.%N)
  $B all --output $t.json > $t-stdout.txt 2> $t-stderr.txt
  echo "all $t: exit $? in $(awk "BEGIN { print $(date +%s.%N) - $s }") s" >> times.txt
done
tar czf out.tgz *.json *.txt; rm -f *.json
