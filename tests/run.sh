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
skip() { echo "skip $1: $2"; skipped=$((skipped + 1)); }

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
if [ "$rc" -eq 2 ] && grep -q "^usage: hipmembench" "$TMP/usage.err"; then
	pass "cli: no command prints usage on stderr and exits 2"
else
	fail "cli: no command prints usage on stderr and exits 2" "exit $rc"
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
	while IFS= read -r line; do
		case $line in
		"ok   "*) pass "${line#ok   }" ;;
		"FAIL "*) fail "${line#FAIL }" ;;
		"skip "*) skip "${line#skip }" "" ;;
		"    "*) echo "$line" ;;
		esac
	done <"$TMP/gpu.out"
fi

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
