#!/bin/bash
# The overlap module's balanced load a power of two (this folder's commit) against the
# build before it (ad85110, carried as build/hipmembench-old), on one H100 PCIe, from the
# repository top, OUT=DIR: four processes of `overlap` of each build in turn
# (ov-old-N.json, ov-new-N.json); then two `all` documents of this build back to back
# (a.json, b.json) and two of the build before (old-a.json, old-b.json). Wall times in
# times.txt; everything packed into DIR/out.tgz after each step.
NEW=$PWD/build/hipmembench OLD=$PWD/build/hipmembench-old
W=$(mktemp -d); cd "$W" || exit 1
pack() { tar czf "$OUT/out.tgz.tmp" *.json *.txt 2>/dev/null && mv "$OUT/out.tgz.tmp" "$OUT/out.tgz"; }
timed() { # name cmd...: runs it, its wall time and exit status into times.txt
  local name=$1 s=$(date +%s.%N); shift
  "$@" > "$name-stdout.txt" 2> "$name-stderr.txt"
  echo "$name: exit $? in $(awk "BEGIN { print $(date +%s.%N) - $s }") s" >> times.txt
}
$NEW info > info.txt 2>&1
for i in 1 2 3 4; do
  timed ov-old-$i $OLD overlap --output ov-old-$i.json
  timed ov-new-$i $NEW overlap --output ov-new-$i.json
done
pack
timed a $NEW all --output a.json; pack
timed b $NEW all --output b.json; pack
timed old-a $OLD all --output old-a.json; pack
timed old-b $OLD all --output old-b.json; pack
