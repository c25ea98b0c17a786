#!/usr/bin/env bash
# harness/selftest-results reads the boot-time tracer selftests of a kernel
# log as make check does: a verdict on the "Testing" line or, when another
# CPU's message came in between, on a line of its own; FAILED and NG fail;
# a test with no verdict is a FAIL "(no result)".
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

cat >"$tmp" <<'LOG'
Testing tracer function: PASSED
Testing dynamic ftrace: PASSED
trace_kprobe: Testing kprobe tracing: 
clocksource: timekeeping watchdog on CPU1: Marking clocksource 'tsc' as unstable because the skew is too large:
clocksource:                       'hpet' wd_nsec: 512000000 wd_now: 1 wd_last: 2 mask: ffffffff
OK
Testing ftrace recursion: *Could not set filter* FAILED!
Testing tracer wakeup: 
sched: RT throttling activated
PASSED
trace_kprobe: Testing kprobe tracing: NG: Some tests are failed. Please check them.
Testing tracer nop: 
Testing tracer irqsoff: PASSED
Testing tracer last: 
LOG
got=$("$TOP/harness/selftest-results" "$tmp")
want='PASS selftest tracer function
PASS selftest dynamic ftrace
PASS selftest kprobe tracing
FAIL selftest ftrace recursion
PASS selftest tracer wakeup
FAIL selftest kprobe tracing
FAIL selftest tracer nop (no result)
PASS selftest tracer irqsoff
FAIL selftest tracer last (no result)'
[ "$got" = "$want" ] || fail "$(diff <(echo "$want") <(echo "$got"))"
echo "ok: verdicts on the line and on a line of their own, failures, and no verdict"
