#!/usr/bin/env bash
# perf test "fprobe prototypes" on the host, on the guest kernel's vmlinux
# (its DWARF and its .BTF section): the calling-convention placement rules,
# and DWARF and BTF placing every parameter of every function both describe
# in the same register. Skips (4) when that vmlinux is not built.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
perf=$BUILD/perf/perf
vmlinux=$BUILD/kernel/vmlinux
cases=2

fail() { echo "FAIL: $*"; exit 1; }

[ -x "$perf" ] || fail "$perf is not built (make perf)"
[ -f "$vmlinux" ] || { echo "skip: no $vmlinux (make kernel)"; exit 4; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT

s=0
PERF_TEST_FPROBE_VMLINUX=$vmlinux "$perf" test -vv 'fprobe prototypes' >"$log" 2>&1 || s=$?
results=$(sed -nE 's/^ *[0-9]+\.[0-9]+: (.*[^ ]) *: (Ok|FAILED!|Skip.*)$/\2 \1/p' "$log")
pass=$(grep -c '^Ok ' <<<"$results" || true)
printf '%s\n' "$results" | sed 's/^/  /'
if [ "$pass" -ne $cases ] || grep -qv '^Ok ' <<<"$results"; then
	grep -v 'no DWARF subprogram' "$log" | tail -40 | sed 's/^/    /'
	fail "perf test 'fprobe prototypes': $pass of $cases cases passed (exit $s)"
fi
# the test's own count of what it compared, for the log
grep -E 'functions in both' "$log" | sed 's/^/  /'
echo "ok: perf test 'fprobe prototypes': $pass of $cases cases passed"
