#!/bin/bash
# five all, then the GPU tests in the time left; packed after every step into
# $OUT/w.tar.gz so that a call cut short keeps what it made
set -u
w=$OUT/w; b=build/hipmembench; mkdir -p "$w"; t0=$(date +%s)
limit=${LIMIT:-590}
pack() { tar -C "$OUT" -czf "$OUT/w.tar.gz" w; }
cp .carry/run2.sh "$w/run.sh"
"$b" --version > "$w/info.txt" 2>&1; "$b" info >> "$w/info.txt" 2>&1
nvidia-smi > "$w/nvidia-smi.txt" 2>&1
for i in 1 2 3 4 5; do
	"$b" --output "$w/all$i.json" all > "$w/all$i.out" 2> "$w/all$i.err"
	echo "all$i exit $? at $(( $(date +%s) - t0 )) s" >> "$w/log"; pack
done
left=$(( limit - ($(date +%s) - t0) ))
if [ "$left" -gt 60 ]; then
	PYTHONPATH=$PWD/.carry/py HMB_REQUIRE_GPU=1 HMB_BIN=$PWD/$b timeout "$left" \
		python3 -m pytest tests/test_gpu.py -q -p no:cacheprovider > "$w/gpu-tests.log" 2>&1
	echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> "$w/log"
fi
pack
rm -rf "$w"
