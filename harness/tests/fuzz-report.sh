#!/usr/bin/env bash
# check-debug: only
# The fuzz target of the perf fprobe record decoding and report path
# (tools/perf/tests/fuzz/fprobe-report-fuzz.c), built with libFuzzer, ASan
# and UBSan and run for a bounded time (FUZZ_REPORT_SECONDS, default 120)
# by harness/fuzz-report: no crash, leak, timeout or sanitizer report on
# corrupt or truncated input. A make check-debug test only.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
secs=${FUZZ_REPORT_SECONDS:-120}
out=$("$TOP/harness/fuzz-report" "$secs")
echo "$out"
grep -qE "^fuzz-report: [1-9][0-9]* runs in ${secs}s, no crash" <<<"$out" ||
	{ echo "FAIL: fuzz-report printed no run count"; exit 1; }
