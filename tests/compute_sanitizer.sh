#!/usr/bin/env bash
# compute_sanitizer.sh [BIN] - every module at tiny sizes under NVIDIA's
# compute-sanitizer: memcheck (out-of-bounds and misaligned accesses, leaks of
# device memory at exit, failed API calls), and racecheck and synccheck on the
# modules whose kernels could share data. Needs a GPU and compute-sanitizer on
# PATH; prints one line per run and exits 1 if any run reports an error.
#
# One leak report is expected in every process and is not counted: the
# program's __managed__ array (managed_static, kernels/managed_static.hip: 2^20 words,
# 4,194,304 bytes). The CUDA runtime allocates it when it loads the program's
# device code (cuLibraryLoadData, at the first runtime call) and never frees
# it: it lives as long as the program. tests/sanitizer/managed_static.cu
# shows the same report from a program that has nothing but such an array.
# Any other leak, or that one with another size or origin, fails the run.
#
# memcheck also runs each module with HMB_FAULT (src/engine/fault.h) failing a
# case's 9th operation and whatever comes 100th: failure paths must leave no
# more behind than a run that succeeds.
set -u
BIN=${1:-build/hipmembench}
CS=${CS:-compute-sanitizer}
MANAGED_STATIC_BYTES=4,194,304
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

# The leak reports in a memcheck log that are the __managed__ array: a leak
# of exactly its size whose allocation backtrace goes through cuLibraryLoadData.
known_leaks() { # LOG
	awk -v size="$MANAGED_STATIC_BYTES" '
		/Leaked [0-9,]+ bytes/ { inleak = 1; match_size = ($3 == size); loaded = 0; next }
		inleak && /cuLibraryLoadData/ { loaded = 1 }
		inleak && /^========= *$/ { n += match_size && loaded; inleak = 0 }
		END { print n + 0 }' "$1"
}

run() { # TOOL MODULE [HMB_FAULT]
	local extra="" tmp rc summary errors known=0 note="" fault=${3:-} exits=" 0 "
	tmp=$(mktemp)
	[ "$1" = memcheck ] && extra="--leak-check full --backtrace-short no"
	# a case failed on purpose: the program exits 1 (0 where the point never came)
	[ -n "$fault" ] && exits=" 0 1 "
	# the sanitizer's report goes to stdout with the figures (CSV): keep its lines
	# shellcheck disable=SC2086
	env ${fault:+HMB_FAULT=$fault} "$CS" --tool "$1" $extra --error-exitcode 99 "$BIN" \
		--format csv ${TINY[$2]} "$2" >"$tmp" 2>&1
	rc=$?
	summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$tmp" | tail -n 1)
	# memcheck and synccheck: "ERROR SUMMARY: N errors"; racecheck: "N hazards displayed"
	errors=$(sed -n -e 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' \
		-e 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$tmp" | tail -n 1)
	if [ "$1" = memcheck ]; then
		known=$(known_leaks "$tmp")
		[ "$known" -gt 0 ] && note=" ($known of them the __managed__ array, expected)"
	fi
	echo "$1 $2${fault:+ HMB_FAULT=$fault}: exit $rc; ${summary:-no summary}$note"
	# clean: no errors but the expected one; the program's own exit as expected
	# (compute-sanitizer exits 99 for the expected report, whatever the program did)
	if [ "$known" -gt 1 ] || [ "${errors:-x}" != "$known" ] ||
		{ [ "$known" -eq 0 ] && [[ $exits != *" $rc "* ]]; } ||
		{ [ "$known" -eq 1 ] && [ "$rc" -ne 99 ]; }; then
		grep -vE '^\[|^"' "$tmp" | grep -v "Host Frame:.*libcudart_static\|Host Frame:.*libc.so" |
			head -n 60 | sed 's/^/    /'
		bad=1
	fi
	rm -f "$tmp"
}
for m in memcpy overlap pool managed xnack vmm node; do
	run memcheck "$m"
	run memcheck "$m" op:9
	run memcheck "$m" any:100
done
for m in memcpy overlap pool; do
	run racecheck "$m"
	run synccheck "$m"
done
exit $bad
