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
	[node]="--reps 2 --warmup 1 --copy-size 4M --chase-loads 50 --alloc-sizes 2M"
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

# Every measured record says what its timed region contains and verified its data.
if $PY - "$TMP/all.json" >"$TMP/timed.out" 2>&1 <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
bad = [f'{r["module"]} {r["case"]}' for r in d["results"]
       if r["status"] == "ok" and r["samples_s"]
       and not (r["params"].get("timed") and r["params"].get("clock") and r["observed"].get("verified") is True)]
runs = d.get("module_runs", [])
if bad:
    print("no timed/clock/verified:", bad[:10]); sys.exit(1)
if len(runs) != len(d["modules"]) or any(m["process"] != "own" for m in runs):
    print("module_runs:", runs); sys.exit(1)
PYEOF
then
	ok "gpu: every measured record states its timed region and is verified; all runs each module in its own process"
else
	bad "gpu: every measured record states its timed region and is verified; all runs each module in its own process" "$(cat "$TMP/timed.out")"
fi

# --case selects cases by shell pattern, in a module and in all.
if "$BIN" --case 'h2d/pinned/*' --sizes 4K --reps 2 --output "$TMP/case.json" memcpy >/dev/null 2>"$TMP/case.err" &&
	"$BIN" --case 'course/default-pool' --sizes 64K --reps 2 --loop 20 --output "$TMP/case-all.json" all >/dev/null 2>>"$TMP/case.err" &&
	$PY -c 'import json,sys
a = json.load(open(sys.argv[1]))["results"]; b = json.load(open(sys.argv[2]))
ok = a and all(r["case"].startswith("h2d/pinned/") for r in a) and len(a) == 2
ok = ok and [r["case"] for r in b["results"]] == ["course/default-pool"] and b["modules"] == ["pool"]
sys.exit(0 if ok else 1)' "$TMP/case.json" "$TMP/case-all.json"; then
	ok "gpu: --case selects cases by pattern in a module and in all"
else
	bad "gpu: --case selects cases by pattern in a module and in all" "$(tail -n 3 "$TMP/case.err")"
fi

# Isolation: a module that leaks 1 GiB, an attached stream and a pool setting
# must not change what the next module finds; in one process it does (which
# shows that the test can fail).
sel="--case planted --case free-memory --case launch-sync --reps 2"
# shellcheck disable=SC2086
if HMB_TEST_MODULES=1 "$BIN" $sel --output "$TMP/alone.json" probe >/dev/null 2>"$TMP/iso.err" &&
	HMB_TEST_MODULES=1 "$BIN" $sel --output "$TMP/iso.json" all >/dev/null 2>>"$TMP/iso.err" &&
	HMB_TEST_MODULES=1 "$BIN" $sel --no-isolation --output "$TMP/shared.json" all >/dev/null 2>>"$TMP/iso.err" &&
	$PY - "$TMP/alone.json" "$TMP/iso.json" "$TMP/shared.json" >"$TMP/iso.out" 2>&1 <<'PYEOF'
import json, sys
def free(p):
    d = json.load(open(p))
    return [r["observed"]["free_device_bytes"] for r in d["results"] if r["case"] == "free-memory"][0]
alone, iso, shared = (free(p) for p in sys.argv[1:4])
print(f"free memory seen by the probe: alone {alone/2**30:.2f} GiB, after the leak in all "
      f"{iso/2**30:.2f} GiB, in one process {shared/2**30:.2f} GiB")
sys.exit(0 if abs(alone - iso) < 0.25 * 2**30 and alone - shared > 0.75 * 2**30 else 1)
PYEOF
then
	ok "gpu: isolation: a leak planted by one module does not reach the next (it does with --no-isolation)"
else
	bad "gpu: isolation: a leak planted by one module does not reach the next (it does with --no-isolation)" "$(cat "$TMP/iso.out"; tail -n 3 "$TMP/iso.err")"
fi
