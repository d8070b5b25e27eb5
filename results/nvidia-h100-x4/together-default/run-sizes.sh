#!/bin/bash
# The aggregate host figures against the host memory they keep in flight, from the
# repository top, OUT=DIR: node's host cases (each GPU alone, one among all, all at once)
# at copy sizes 64M to 2G, each size twice, in turn; packed into DIR/s.tgz.
B=$PWD/build/hipmembench
cd "$OUT" || exit 1
for k in 1 2; do
  for s in 64M 256M 1G 2G; do
    $B node --case 'host/h2d/*' --case 'host/d2h/*' --copy-size $s \
      --output node-host-$s-$k.json > /dev/null 2>> node-host-stderr.txt || echo "$s $k: exit $?" >> node-host-stderr.txt
  done
done
gzip -9 *.json
tar czf s.tgz *.json.gz *.txt; rm -f *.json.gz *.txt
