#!/bin/bash
# run.sh DIR - what made this folder: five `all` of one build back to back on one GPU
# machine, then three `memcpy` (eight processes that copy against their own reference
# loop), each document's stdout and stderr beside it, then the GPU tests in the time
# left; every step packed into DIR/w.tar.gz as it ends, so that a run cut short keeps
# what it made. PYTHONPATH: where the GPU machine's Python finds jsonschema.
# Run from the top of a checkout where build/ holds the build (make portable).
set -u
dir=${1:?usage: run.sh DIR}
w=$dir/w; b=build/hipmembench; mkdir -p "$w"; t0=$(date +%s)
pack() { tar -C "$dir" -czf "$dir/w.tar.gz" w; }
"$b" info > "$w/info.txt" 2>&1
nvidia-smi > "$w/nvidia-smi.txt" 2>&1
for i in 1 2 3 4 5; do
	"$b" --output "$w/all$i.json" all > "$w/all$i.out" 2> "$w/all$i.err"
	echo "all$i exit $? at $(( $(date +%s) - t0 )) s" >> "$w/log"; pack
done
for i in 6 7 8; do
	[ $(( $(date +%s) - t0 )) -lt 530 ] || break
	"$b" --output "$w/memcpy$i.json" memcpy > "$w/memcpy$i.out" 2> "$w/memcpy$i.err"
	echo "memcpy$i exit $? at $(( $(date +%s) - t0 )) s" >> "$w/log"; pack
done
left=$(( 585 - ($(date +%s) - t0) ))
if [ "$left" -gt 110 ]; then
	PYTHONPATH=${PYTHONPATH:-} HMB_REQUIRE_GPU=1 HMB_BIN=$PWD/$b timeout "$left" \
		python3 -m pytest tests/test_gpu.py -q -p no:cacheprovider > "$w/gpu-tests.log" 2>&1
	echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> "$w/log"
fi
pack
