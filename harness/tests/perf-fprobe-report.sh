#!/usr/bin/env bash
# perf test "fprobe report" on the host: the C tests of the fprobe record
# decoding and of the report (tree values, histograms, folded stacks, SVG,
# Chrome trace, CSV) all pass, the SVG they write is well-formed XML (xmllint)
# whose script zooms and searches (svg-flamegraph-check.js, under node),
# and the Chrome trace valid JSON (python3 -m json.tool).
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
perf=$BUILD/perf/perf
cases=13

fail() { echo "FAIL: $*"; exit 1; }

[ -x "$perf" ] || fail "$perf is not built (make perf)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# the list taken whole first: grep -q quitting early would kill perf with
# SIGPIPE, and pipefail would take that for a missing suite
list=$("$perf" test list 2>&1) || fail "perf test list failed: $list"
grep -qE '^ *[0-9]+: fprobe report$' <<<"$list" ||
	fail "perf test has no 'fprobe report' suite"
s=0
PERF_FPROBE_REPORT_OUTPUT=$out "$perf" test -v 'fprobe report' >"$out/log" 2>&1 || s=$?
# one "NN.M: description : Ok|FAILED!|Skip" line per case
results=$(sed -nE 's/^ *[0-9]+\.[0-9]+: (.*[^ ]) *: (Ok|FAILED!|Skip.*)$/\2 \1/p' "$out/log")
pass=$(grep -c '^Ok ' <<<"$results" || true)
printf '%s\n' "$results" | sed 's/^/  /'
if [ "$pass" -ne $cases ] || grep -qv '^Ok ' <<<"$results"; then
	sed 's/^/    /' "$out/log"
	fail "perf test 'fprobe report': $pass of $cases cases passed (exit $s)"
fi
echo "ok: perf test 'fprobe report': $pass of $cases cases passed"

[ -s "$out/fprobe-report.svg" ] || fail "the SVG test wrote no $out/fprobe-report.svg"
xmllint --noout "$out/fprobe-report.svg" || fail "the SVG flame graph is not well-formed XML"
echo "ok: the SVG flame graph is well-formed XML"
node "$TOP/harness/tests/svg-flamegraph-check.js" "$out/fprobe-report.svg" >"$out/js.log" 2>&1 || {
	sed 's/^/    /' "$out/js.log"
	fail "the SVG flame graph's script does not zoom or search right"
}
echo "ok: the SVG flame graph zooms, resets and searches ($(grep -c '^ok ' "$out/js.log") checks)"
[ -s "$out/fprobe-report.json" ] || fail "the Chrome test wrote no $out/fprobe-report.json"
python3 -m json.tool "$out/fprobe-report.json" >/dev/null ||
	fail "the Chrome trace is not valid JSON"
echo "ok: the Chrome trace is valid JSON"
