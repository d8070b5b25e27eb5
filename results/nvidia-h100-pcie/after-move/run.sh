#!/bin/bash
# `all` of this build twice back to back (n1, n2), of the build before this session's work
# (855c46e, carried as .carry/oldbin: o1), and of this build again (n3), on one machine in
# one call: a pair of one build for the gate and the marks, the builds side by side for
# the move, and the time `all` takes with each; from the repository top, OUT=DIR: the
# documents, their stdout and stderr, times.txt, packed into DIR/out.tgz.
OLD=$PWD/.carry/oldbin/hipmembench NEW=$PWD/build/hipmembench
cd "$OUT" || exit 1
for t in n1 n2 o1 n3; do
  B=$NEW; [ "${t#o}" != "$t" ] && B=$OLD
  s=$(date +%s.%N)
  $B all --output $t.json > $t-stdout.txt 2> $t-stderr.txt
  echo "all $t ($B): exit $? in $(awk "BEGIN { print $(date +%s.%N) - $s }") s" >> times.txt
done
tar czf out.tgz *.json *.txt
