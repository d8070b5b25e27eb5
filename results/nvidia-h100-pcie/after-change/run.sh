#!/bin/bash
# one all and one memcpy, packed into $OUT/w.tar.gz after each
set -u
w=$OUT/w; b=build/hipmembench; mkdir -p "$w"; t0=$(date +%s)
pack() { tar -C "$OUT" -czf "$OUT/w.tar.gz" w; }
"$b" info > "$w/info.txt" 2>&1; nvidia-smi > "$w/nvidia-smi.txt" 2>&1
"$b" --output "$w/all.json" all > "$w/all.out" 2> "$w/all.err"
echo "all exit $? at $(( $(date +%s) - t0 )) s" >> "$w/log"; pack
"$b" --output "$w/memcpy.json" memcpy > "$w/memcpy.out" 2> "$w/memcpy.err"
echo "memcpy exit $? at $(( $(date +%s) - t0 )) s" >> "$w/log"; pack
rm -rf "$w"
