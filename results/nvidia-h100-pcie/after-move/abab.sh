#!/bin/bash
# `all` of the build before this session's work (855c46e, carried as .carry/oldbin) and of
# this build, in turn on one machine (old, new, old, new): their wall times and documents,
# for the time `all` takes and for a comparison of the builds with the machine's state
# alike; from the repository top, OUT=DIR: o1.json n1.json o2.json n2.json, times.txt,
# packed into DIR/abab.tgz.
OLD=$PWD/.carry/oldbin/hipmembench NEW=$PWD/build/hipmembench
cd "$OUT" || exit 1
for t in o1 n1 o2 n2; do
  B=$NEW; [ "${t#o}" != "$t" ] && B=$OLD
  s=$(date +%s.%N)
  $B all --output $t.json > $t-stdout.txt 2> $t-stderr.txt
  echo "all $t ($B): exit $? in $(awk "BEGIN { print $(date +%s.%N) - $s }") s" >> times.txt
done
tar czf abab.tgz *.json *.txt; rm -f *.json *-stdout.txt *-stderr.txt
