#!/bin/bash
# run.sh - what made this folder (from the top of a checkout, build/ made by make portable):
# the h2d ramp: one all, then memcpy's pinned h2d at 64M and 256M with 1 and with 40
# warm-up copies, twice each; packed into $OUT/r.tar.gz after each step (OUT: the folder
# the GPU machine's results go back from; kept as it ran, the names of `log` its own)
set -u
w=$OUT/r; b=build/hipmembench; mkdir -p "$w"; t0=$(date +%s)
pack() { tar -C "$OUT" -czf "$OUT/r.tar.gz" r; }
nvidia-smi -L > "$w/gpu.txt" 2>&1
"$b" --output "$w/all.json" all > /dev/null 2> "$w/all.err"; echo "all exit $? at $(( $(date +%s) - t0 )) s" >> "$w/log"; pack
for k in 1 2; do
	for wu in 1 40; do
		"$b" --output "$w/h2d-w$wu-$k.json" --sizes 64M,256M --warmup $wu --case 'h2d/pinned/*' memcpy > /dev/null 2> "$w/h2d-w$wu-$k.err"
		echo "h2d warmup $wu ($k) exit $? at $(( $(date +%s) - t0 )) s" >> "$w/log"; pack
	done
done
"$b" --output "$w/memcpy.json" memcpy > /dev/null 2> "$w/memcpy.err"; echo "memcpy exit $? at $(( $(date +%s) - t0 )) s" >> "$w/log"; pack
rm -rf "$w"
