#!/usr/bin/env bash
# compiler.sh BUILD [REFERENCE] - what a compiler changes, for a build made with it
# (make ... BUILD=BUILD unit_tests): the C unit tests (the AMD semantics on faked
# devices among them), the tests of the build and of the command line, and the
# binary's surface without a GPU (tests/surface.py: help, lists, completion, every
# dry-run plan and document), kept in BUILD/surface. With REFERENCE (the surface of
# another compiler's build for the same platform) the two must be the same byte for
# byte, the OS line of a document aside (a root of another Debian): a compiler
# changes nothing a user sees. The rest of the suite reads documents and runs
# scripts that no compiler touches: it runs under the sanitizers and once more at the
# end of .ci/run, not for every compiler. Prints one line a step.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
ref=${2:-}
py=${PYTHON:-python3}
[ -n "${PYTHON:-}" ] || [ ! -x /usr/bin/python3 ] || py=/usr/bin/python3  # Debian's, with pytest
t0=$SECONDS
if ! HMB_BIN=$build/hipmembench HMB_UNIT=$build/unit_tests PYTHONDONTWRITEBYTECODE=1 \
	"$py" -m pytest -q -p no:cacheprovider -n 2 --basetemp="$build/pytest" \
	tests/test_unit.py tests/test_build.py tests/test_cli.py >"$build/tests.log" 2>&1; then
	tail -n 40 "$build/tests.log"
	echo "compiler.sh: the tests of $build failed"
	exit 1
fi
echo "   tests: $(tail -n 1 "$build/tests.log")"
rm -rf "$build/surface"
"$py" tests/surface.py "$build/hipmembench" "$build/surface"
if [ -n "$ref" ]; then
	if ! diff -r -I '"os":' "$ref" "$build/surface" >"$build/surface.diff"; then
		head -n 40 "$build/surface.diff"
		echo "compiler.sh: $build shows what $ref does not (whole diff: $build/surface.diff)"
		exit 1
	fi
	echo "   surface: $(ls "$build/surface" | wc -l) views, the same as $ref's"
else
	echo "   surface: $(ls "$build/surface" | wc -l) views kept in $build/surface"
fi
printf '   %s: %d s\n' "$build" $((SECONDS - t0))
