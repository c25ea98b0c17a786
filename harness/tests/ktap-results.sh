#!/usr/bin/env bash
# The KTAP of a guest suite ("# ktap: yes", ftracetest -K) as harness/check
# reads it: kunit.py parse, then harness/kunit-results. Each verdict of
# ftracetest's KTAP comes out as its PASS, FAIL or SKIP line, the noise
# around the document is ignored, and a case the plan counts but that never
# came is a FAIL.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

fail() { echo "FAIL: $*"; exit 1; }
kunit=$BUILD/linux/tools/testing/kunit/kunit.py
[ -f "$kunit" ] || fail "no kunit.py in build/linux: make tree"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# As ftracetest -K prints them (ktaptest(): "ok N name # comment")
cat >"$tmp/suite.log" <<'EOF'
a line of the guest before the document
TAP version 13
1..5
ok 1 Generic dynamic event - add/remove kprobe events
not ok 2 Generic dynamic event - add/remove/test uprobe events
ok 3 Kprobe event with comm arguments # SKIP
ok 4 Kprobe events - probe points # XFAIL
not ok 5  (instance) Kprobe dynamic event - adding and removing # UNRESOLVED
# Totals: pass:1 fail:1 xfail:1 xpass:0 skip:1 error:1
PASS a line the suite prints itself
    == case 2
EOF
python3 "$kunit" parse --json="$tmp/out.json" "$tmp/suite.log" >"$tmp/parse.log" 2>&1 || true
"$TOP/harness/kunit-results" "$tmp/out.json" >"$tmp/got"
cat >"$tmp/want" <<'EOF'
PASS Generic dynamic event - add/remove kprobe events
FAIL Generic dynamic event - add/remove/test uprobe events
SKIP Kprobe event with comm arguments
PASS Kprobe events - probe points
FAIL (instance) Kprobe dynamic event - adding and removing
EOF
diff -u "$tmp/want" "$tmp/got" || fail "the verdicts of a KTAP document"
echo "ok: ftracetest's KTAP verdicts, read by kunit.py parse"

# A document cut short: the plan says 3, 2 came
printf 'TAP version 13\n1..3\nok 1 a\nok 2 b\n' >"$tmp/short.log"
python3 "$kunit" parse --json="$tmp/short.json" "$tmp/short.log" >"$tmp/parse.log" 2>&1 || true
"$TOP/harness/kunit-results" "$tmp/short.json" >"$tmp/got"
grep -q '^FAIL ' "$tmp/got" || fail "a case missing from the plan is not a FAIL: $(cat "$tmp/got")"
[ "$(grep -c '^PASS ' "$tmp/got")" -eq 2 ] || fail "the cases that came: $(cat "$tmp/got")"
echo "ok: a case the plan counts and that never came is a FAIL"

# No document at all: no verdict (harness/check then records no-results)
printf 'the guest died\n' >"$tmp/none.log"
python3 "$kunit" parse --json="$tmp/none.json" "$tmp/none.log" >"$tmp/parse.log" 2>&1 || true
[ -z "$("$TOP/harness/kunit-results" "$tmp/none.json")" ] || fail "verdicts from no KTAP"
echo "ok: no KTAP, no verdict"
