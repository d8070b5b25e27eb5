#!/usr/bin/env bash
# compute_sanitizer.sh [BIN] - every module at tiny sizes under NVIDIA's
# compute-sanitizer: memcheck (out-of-bounds and misaligned accesses, leaks of
# device memory at exit, failed API calls), and racecheck and synccheck on the
# modules whose kernels could share data. Needs a GPU and compute-sanitizer on
# PATH; prints one line per run and exits 1 if any run reports an error.
set -u
BIN=${1:-build/hipmembench}
CS=${CS:-compute-sanitizer}
declare -A TINY=(
	[memcpy]="--sizes 4K,64K --reps 2 --warmup 1"
	[overlap]="--sizes 4M --reps 2 --warmup 1 --chunks 2 --streams 2 --iters 1,16"
	[pool]="--sizes 4K,1M --reps 2 --warmup 1 --loop 20"
	[managed]="--sizes 4M --reps 2 --warmup 1"
	[xnack]="--sizes 4M --reps 2 --warmup 1"
	[vmm]="--reps 2 --warmup 1 --start 2M --step 2M --limit 8M --call-sizes 2M"
	[node]="--reps 2 --warmup 1 --copy-size 4M --chase-loads 50 --alloc-sizes 2M"
)
bad=0
run() { # TOOL MODULE
	local extra="" tmp rc summary
	tmp=$(mktemp)
	[ "$1" = memcheck ] && extra="--leak-check full"
	# the sanitizer's report goes to stdout with the figures (CSV): keep its lines
	# shellcheck disable=SC2086
	"$CS" --tool "$1" $extra --error-exitcode 99 "$BIN" --format csv ${TINY[$2]} "$2" \
		>"$tmp" 2>&1
	rc=$?
	summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$tmp" | tail -n 1)
	echo "$1 $2: exit $rc; ${summary:-no summary}"
	if [ "$rc" -ne 0 ]; then
		grep -vE '^\[|^"' "$tmp" | head -n 60 | sed 's/^/    /'
		bad=1
	fi
	rm -f "$tmp"
}
for m in memcpy overlap pool managed xnack vmm node; do
	run memcheck "$m"
done
for m in memcpy overlap pool; do
	run racecheck "$m"
	run synccheck "$m"
done
exit $bad
