#!/usr/bin/env bash
# run.sh - every test of hipmembench: unit tests (C), the command line and its
# exit codes, the JSON schema, and GPU integration tests that run every module
# at tiny sizes (skipped, with the reason, where no GPU is usable).
# Ends with "N passed, N failed, N skipped"; exits 1 when anything failed.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-build/hipmembench}
UNIT=${UNIT:-build/unit_tests}
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0 skipped=0

pass() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/    /' <<<"$2"; failed=$((failed + 1)); }
skip() { echo "skip $1${2:+: $2}"; skipped=$((skipped + 1)); }
# Count the ok/FAIL/skip lines that a helper script prints; pass its detail through.
relay() {
	while IFS= read -r line; do
		case $line in
		"ok   "*) pass "${line#ok   }" ;;
		"FAIL "*) fail "${line#FAIL }" ;;
		"skip "*) skip "${line#skip }" ;;
		"    "*) echo "$line" ;;
		esac
	done
}

# expect STATUS PATTERN NAME -- ARGS...: exit status and a stderr line matching PATTERN
expect() {
	local want=$1 pattern=$2 name=$3
	shift 4
	local err rc lines
	err=$("$BIN" "$@" 2>&1 >/dev/null)
	rc=$?
	lines=$(printf '%s' "$err" | grep -c .)
	if [ "$rc" -ne "$want" ]; then
		fail "$name" "exit $rc, expected $want; stderr: $err"
	elif [ -n "$pattern" ] && ! grep -qiE -- "$pattern" <<<"$err"; then
		fail "$name" "stderr does not mention /$pattern/: $err"
	elif [ "$want" -eq 2 ] && [ "$lines" -ne 1 ]; then
		fail "$name" "expected one line on stderr, got $lines: $err"
	else
		pass "$name"
	fi
}

echo "== unit tests"
out=$("$UNIT" 2>&1)
while IFS= read -r line; do
	case $line in
	"ok   unit: "*) pass "${line#ok   }" ;;
	"FAIL unit: "*) fail "${line#FAIL }" "$out" ;;
	esac
done <<<"$out"
if "$UNIT" --sample-json "$TMP/sample.json" && $PY tests/check_schema.py "$TMP/sample.json" --complete >"$TMP/schema.out"; then
	pass "schema: a document built by json.c conforms to docs/schema.md"
else
	fail "schema: a document built by json.c conforms to docs/schema.md" "$(cat "$TMP/schema.out")"
fi
printf '{"schema_version": 1, "results": [' >"$TMP/truncated.json"
if ! $PY tests/check_schema.py "$TMP/truncated.json" >/dev/null; then
	pass "schema: a truncated document is rejected"
else
	fail "schema: a truncated document is rejected"
fi

echo "== command line"
expect 2 "unknown command 'frobnicate'" "cli: unknown command" -- frobnicate
expect 2 "unknown option '--frob'" "cli: unknown option" -- --frob memcpy
expect 2 "needs a value" "cli: option without its value" -- memcpy --sizes
expect 2 "greater than zero" "cli: zero size" -- --sizes 0 memcpy
expect 2 "invalid size '12Q'" "cli: malformed size" -- --sizes 4K,12Q memcpy
expect 2 "end is below start" "cli: backwards range" -- --sizes 1G:4K:x2 memcpy
expect 2 "multiple of 4" "cli: size not a multiple of 4 bytes" -- --sizes 4097 memcpy
expect 2 "--reps: '0'" "cli: --reps 0" -- --reps 0 memcpy
expect 2 "--warmup: 'x'" "cli: --warmup not a number" -- --warmup x memcpy
expect 2 "--device: '-1'" "cli: negative device" -- --device -1 info
expect 2 "unknown format 'xml'" "cli: unknown format" -- --format xml info
expect 2 "oversubscribe" "cli: bad --oversubscribe" -- --oversubscribe -2 all
expect 2 "cannot write --output /nonexistent-dir/out.json" "cli: unwritable --output" -- --output /nonexistent-dir/out.json memcpy
expect 2 "unexpected argument 'extra'" "cli: stray argument" -- memcpy extra
expect 2 "help: unknown command 'nope'" "cli: help for an unknown command" -- help nope
"$BIN" >/dev/null 2>"$TMP/usage.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "no command given; usage: hipmembench" "$TMP/usage.err"; then
	pass "cli: no command prints a one-line usage on stderr and exits 2"
else
	fail "cli: no command prints a one-line usage on stderr and exits 2" "exit $rc"
fi
for mod in $("$BIN" list | awk '{print $1}'); do
	if "$BIN" help "$mod" | grep -q "usage: hipmembench .* $mod"; then
		pass "cli: help $mod"
	else
		fail "cli: help $mod"
	fi
done
if "$BIN" list | grep -q '^memcpy ' && "$BIN" --version | grep -q '^hipmembench '; then
	pass "cli: list and --version"
else
	fail "cli: list and --version"
fi

out=$("$BIN" --dry-run --quick --output "$TMP/plan.json" all 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ "$(grep -c 'would run' <<<"$out")" -eq "$("$BIN" list | wc -l)" ] &&
	$PY tests/check_schema.py "$TMP/plan.json" --complete >"$TMP/s.out" &&
	$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["settings"]["dry_run"] and d["device"] is None and not d["results"] and len(d["modules"]) > 1 else 1)' "$TMP/plan.json"; then
	pass "cli: --dry-run lists every module of all and writes a document without a GPU"
else
	fail "cli: --dry-run lists every module of all and writes a document without a GPU" "exit $rc: $out $(cat "$TMP/s.out")"
fi

echo "== compare"
"$UNIT" --sample-json "$TMP/base.json"
$PY - "$TMP/base.json" "$TMP/slower.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r.get("gbps_median"):
        r["gbps_median"] *= 0.8          # 20% less bandwidth: worse
    for m in r["metrics"].values():
        m["value"] *= 1.5                # a speedup ("x") 50% higher: better
d["host"]["hostname"] = "other-node"
d["settings"]["reps"] = 99
json.dump(d, open(sys.argv[2], "w"))
PYEOF
out=$("$BIN" compare "$TMP/base.json" "$TMP/base.json" --threshold 1 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && grep -q "1.000" <<<"$out" && ! grep -q WORSE <<<"$out"; then
	pass "compare: a document against itself: ratios 1, exit 0"
else
	fail "compare: a document against itself: ratios 1, exit 0" "exit $rc: $out"
fi
out=$("$BIN" compare "$TMP/base.json" "$TMP/slower.json" --threshold 10 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && grep -q "GB/s .*0.800 *WORSE" <<<"$out" && grep -q "speedup .*1.500 *better" <<<"$out" &&
	grep -q "other-node" <<<"$out" && grep -q "warning: settings differ" <<<"$out"; then
	pass "compare: --threshold flags lower bandwidth as worse, a higher speedup as better, exit 1"
else
	fail "compare: --threshold flags lower bandwidth as worse, a higher speedup as better, exit 1" "exit $rc: $out"
fi
if "$BIN" compare "$TMP/base.json" "$TMP/slower.json" --threshold 30 >/dev/null 2>&1; then
	pass "compare: a change within the threshold passes"
else
	fail "compare: a change within the threshold passes"
fi
if "$BIN" --format markdown compare "$TMP/base.json" "$TMP/slower.json" 2>/dev/null | grep -q '^| memcpy h2d/pinned/async size=4K | GB/s |'; then
	pass "compare: markdown table"
else
	fail "compare: markdown table"
fi
head -c 200 "$TMP/base.json" >"$TMP/truncated-doc.json"
echo '{"name": "something else"}' >"$TMP/foreign.json"
expect 2 "truncated-doc.json: not valid JSON" "compare: a truncated file is named, exit 2" -- compare "$TMP/base.json" "$TMP/truncated-doc.json"
expect 2 "foreign.json: not a hipmembench document" "compare: a foreign document is named, exit 2" -- compare "$TMP/base.json" "$TMP/foreign.json"
expect 2 "missing.json: No such file" "compare: a missing file is named, exit 2" -- compare "$TMP/base.json" "$TMP/missing.json"
expect 2 "needs a base document and at least one other" "compare: one file is not enough" -- compare "$TMP/base.json"
expect 2 "--threshold goes with compare" "cli: --threshold without compare" -- --threshold 5 memcpy

echo "== scripts: sweep, Slurm, plots"
cat >"$TMP/matrix.json" <<'JSON'
{"command": "memcpy", "args": ["--dry-run", "--quick"], "env": {"HSA_XNACK": ["0", "1"]},
 "variants": [["--reps", "3"], ["--reps", "5"]]}
JSON
if $PY scripts/hmb_sweep.py --hipmembench "$BIN" "$TMP/matrix.json" "$TMP/sweep" 2>"$TMP/sweep.err" &&
	[ "$(ls "$TMP"/sweep/points/*.json | wc -l)" -eq 4 ] &&
	$PY scripts/hmb_sweep.py --hipmembench "$BIN" "$TMP/matrix.json" "$TMP/sweep" 2>>"$TMP/sweep.err" &&
	$PY -c 'import json,sys
pts = json.load(open(sys.argv[1]))["points"]
sys.exit(0 if len(pts) == 4 and all(p["status"] == "done" and p.get("resumed") for p in pts)
         and pts[2]["env"] == {"HSA_XNACK": "1"} and pts[1]["args"][-1] == "5" else 1)' "$TMP/sweep/manifest.json"; then
	pass "sweep: one document per point, manifest, and a second run skips finished points"
else
	fail "sweep: one document per point, manifest, and a second run skips finished points" "$(cat "$TMP/sweep.err")"
fi
# A point still running when the job's time limit strikes: stopped, recorded, resumable.
printf '#!/bin/sh\n[ "$1" = --dry-run ] && exit 0\nexec sleep 30\n' >"$TMP/slow-hipmembench"
chmod +x "$TMP/slow-hipmembench"
$PY scripts/hmb_sweep.py --hipmembench "$TMP/slow-hipmembench" "$TMP/matrix.json" "$TMP/sweep2" 2>/dev/null &
spid=$!
for _ in $(seq 1 50); do [ -f "$TMP/sweep2/manifest.json" ] && break; sleep 0.1; done
sleep 0.3
kill -TERM "$spid"
wait "$spid"
rc=$?
if [ "$rc" -eq 143 ] && $PY -c 'import json,sys
st = [p["status"] for p in json.load(open(sys.argv[1]))["points"]]
sys.exit(0 if st == ["interrupted", "pending", "pending", "pending"] else 1)' "$TMP/sweep2/manifest.json"; then
	pass "sweep: SIGTERM stops the running point and records it and the pending ones (exit 143)"
else
	fail "sweep: SIGTERM stops the running point and records it and the pending ones (exit 143)" "exit $rc; $(cat "$TMP/sweep2/manifest.json" 2>/dev/null | head -c 600)"
fi
echo '{"command": "memcpy", "colour": "blue"}' >"$TMP/bad-matrix.json"
if ! $PY scripts/hmb_sweep.py "$TMP/bad-matrix.json" "$TMP/sweep3" 2>"$TMP/err" && grep -q "unknown key(s) colour" "$TMP/err"; then
	pass "sweep: a matrix with an unknown key is refused, naming it"
else
	fail "sweep: a matrix with an unknown key is refused, naming it" "$(cat "$TMP/err")"
fi
relay < <(bash tests/slurm_test.sh "$BIN" "$PY" 2>&1)
real=$(ls results/*/all.json 2>/dev/null | head -n 2)
if ! $PY -c 'import matplotlib' 2>/dev/null; then
	skip "plots: PNG figures from the committed real results" "matplotlib is not installed (Debian: python3-matplotlib)"
elif [ -z "$real" ]; then
	fail "plots: PNG figures from the committed real results" "no results/*/all.json"
else
	# shellcheck disable=SC2086
	$PY scripts/hmb_plot.py -o "$TMP/plots" $real >"$TMP/plots.out" 2>&1
	n=0 bad=""
	for f in memcpy-bandwidth overlap-speedup managed-variants xnack-fault-cost pool-cost vmm-growth; do
		png="$TMP/plots/$f.png"
		if [ -s "$png" ] && [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] &&
			[ "$(stat -c %s "$png")" -gt 10000 ]; then
			n=$((n + 1))
		else
			bad="$bad $f"
		fi
	done
	if [ "$n" -eq 6 ]; then
		pass "plots: six PNG figures from the committed real results"
	else
		fail "plots: six PNG figures from the committed real results" "missing or empty:$bad; $(cat "$TMP/plots.out")"
	fi
fi

echo "== device"
"$BIN" info >"$TMP/info.txt" 2>"$TMP/info.err"
info_rc=$?
if [ "$info_rc" -ne 0 ]; then
	reason=$(head -n 1 "$TMP/info.err")
	expect 3 "no GPU|out of range|cannot open device" "no GPU: info says so and exits 3" -- info
	"$BIN" --output "$TMP/nogpu.json" memcpy >/dev/null 2>&1
	rc=$?
	if [ "$rc" -eq 3 ] && $PY tests/check_schema.py "$TMP/nogpu.json" >"$TMP/s.out" &&
		$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(1 if d["device"] is not None or d["results"] else 0)' "$TMP/nogpu.json" &&
		! ls "$TMP"/nogpu.json.tmp.* >/dev/null 2>&1; then
		pass "no GPU: a module exits 3, writes a valid document without a device, no temporary file"
	else
		fail "no GPU: a module exits 3, writes a valid document without a device, no temporary file" "exit $rc; $(cat "$TMP/s.out" 2>/dev/null)"
	fi
	for t in "info and JSON" "size beyond device memory" "every module at tiny sizes" "all --quick" "SIGINT keeps measured results"; do
		skip "gpu: $t" "no usable GPU ($reason)"
	done
else
	skip "no GPU: info exits 3" "a GPU is present"
	skip "no GPU: a module exits 3 and still writes a valid document" "a GPU is present"
	bash tests/gpu.sh "$BIN" "$PY" "$TMP" >"$TMP/gpu.out" 2>&1
	relay <"$TMP/gpu.out"
fi

if BIN="$BIN" $PY -m pytest -q -p no:cacheprovider tests/test_corpus.py tests/test_outputs.py >"$TMP/pytest.out" 2>&1; then pass "corpus, outputs and signals (pytest): $(tail -n 1 "$TMP/pytest.out")"; else fail "corpus, outputs and signals (pytest)" "$(tail -n 60 "$TMP/pytest.out")"; fi

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
