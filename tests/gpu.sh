#!/usr/bin/env bash
# gpu.sh BIN PYTHON TMPDIR - GPU integration tests, called by run.sh when a GPU
# is usable. Prints "ok NAME", "FAIL NAME" (with indented detail) or "skip NAME".
# Timings are never asserted: only that every module runs, verifies its data
# and writes a document that conforms to the schema.
set -u
BIN=$1 PY=$2 TMP=$3

ok() { echo "ok   $1"; }
failed_reasons() {
	$PY -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]:
    if r["status"] == "failed": print(r["case"], "failed:", r["reason"])' "$1" 2>/dev/null
}
bad() { echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/    /' <<<"$2"; }

if "$BIN" --format json info >"$TMP/info.json" 2>"$TMP/err" &&
	$PY tests/check_schema.py "$TMP/info.json" --complete >"$TMP/s.out" &&
	$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(1 if d["device"] is None else 0)' "$TMP/info.json"; then
	ok "gpu: info and JSON"
else
	bad "gpu: info and JSON" "$(cat "$TMP/err" "$TMP/s.out")"
fi

err=$("$BIN" --sizes 64T memcpy 2>&1 >/dev/null)
rc=$?
if [ "$rc" -eq 2 ] && grep -q "larger than the device" <<<"$err"; then
	ok "gpu: size beyond device memory is a usage error"
else
	bad "gpu: size beyond device memory is a usage error" "exit $rc: $err"
fi

# Tiny arguments per module: enough to run every case and verify it.
declare -A args=(
	[memcpy]="--sizes 4K,64K --reps 2 --warmup 1"
	[overlap]="--sizes 4M --reps 2 --warmup 1 --chunks 2 --streams 2 --iters 1,16"
	[pool]="--sizes 4K,1M --reps 2 --warmup 1 --loop 20"
	[managed]="--sizes 4M --reps 2 --warmup 1"
	[xnack]="--sizes 4M --reps 2 --warmup 1"
	[vmm]="--reps 2 --warmup 1 --start 2M --step 2M --limit 8M --call-sizes 2M"
)
for mod in $("$BIN" list | awk '{print $1}'); do
	out="$TMP/$mod.json"
	# shellcheck disable=SC2086
	if "$BIN" --output "$out" --format csv "$mod" ${args[$mod]:-} >"$TMP/$mod.csv" 2>"$TMP/$mod.err" &&
		$PY tests/check_schema.py "$out" --modules "$mod" --no-failures --complete >"$TMP/s.out"; then
		ok "gpu: $mod runs at tiny sizes, verifies its data and writes valid JSON"
	else
		bad "gpu: $mod runs at tiny sizes, verifies its data and writes valid JSON" \
			"$(grep -v '^\[' "$TMP/$mod.err" | tail -n 3; failed_reasons "$out"; cat "$TMP/s.out")"
	fi
done

if "$BIN" --quick --output "$TMP/all.json" all >/dev/null 2>"$TMP/all.err" &&
	$PY tests/check_schema.py "$TMP/all.json" --complete --no-failures \
		--modules "$("$BIN" list | awk '{print $1}' | paste -sd,)" >"$TMP/s.out"; then
	ok "gpu: all --quick"
else
	bad "gpu: all --quick" "$(failed_reasons "$TMP/all.json"; cat "$TMP/s.out")"
fi

# A batch job's time limit: SIGINT mid-run keeps what was measured.
"$BIN" --output "$TMP/int.json" --format csv memcpy >/dev/null 2>"$TMP/int.err" &
pid=$!
for _ in $(seq 1 100); do
	grep -q '^\[memcpy\]' "$TMP/int.err" 2>/dev/null && break
	sleep 0.1
done
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" -eq 130 ] && $PY tests/check_schema.py "$TMP/int.json" >"$TMP/s.out" &&
	$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["interrupted"] and not d["complete"] and d["results"] else 1)' "$TMP/int.json" &&
	! ls "$TMP"/int.json.tmp.* >/dev/null 2>&1; then
	ok "gpu: SIGINT keeps measured results, marked interrupted, no temporary file left"
else
	bad "gpu: SIGINT keeps measured results, marked interrupted, no temporary file left" \
		"exit $rc; $(tail -n 3 "$TMP/int.err"; cat "$TMP/s.out")"
fi
