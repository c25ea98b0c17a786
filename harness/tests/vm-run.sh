#!/usr/bin/env bash
# harness/vm-run keeps its contract: CMD's output and exit status, 2 CPUs,
# --icount boots, 124 on timeout, clear errors for bad arguments.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
vm=$TOP/harness/vm-run

fail() { echo "FAIL: $*"; exit 1; }

out=$("$vm" -- 'nproc; echo "two words"') || fail "nproc failed"
[ "$out" = "$(printf '2\ntwo words')" ] || fail "expected '2' and 'two words', got: $out"
echo "ok: nproc prints 2, output passes through"

s=0
"$vm" -- false || s=$?
[ $s -eq 1 ] || fail "'false' exited $s, not 1"
s=0
"$vm" -- 'exit 42' || s=$?
[ $s -eq 42 ] || fail "'exit 42' exited $s"
echo "ok: exit statuses 1 and 42 come back"

out=$("$vm" --icount -- 'echo $VMRUN_CLOCK') || fail "--icount: 'echo \$VMRUN_CLOCK' failed"
[ "$out" = icount ] || fail "--icount: the guest's VMRUN_CLOCK is '$out', not 'icount'"
echo "ok: --icount boots and runs CMD, which sees VMRUN_CLOCK=icount"

s=0
"$vm" --timeout 20 -- sleep 600 2>/dev/null || s=$?
[ $s -eq 124 ] || fail "a timed-out run exited $s, not 124"
echo "ok: --timeout gives 124"

s=0
err=$("$vm" --kernel nope -- true 2>&1) || s=$?
[ $s -ne 0 ] && grep -q "takes 'base', 'patched' or 'debug', not 'nope'" <<<"$err" || fail "bad --kernel: $err"
err=$("$vm" --timeout soon -- true 2>&1) && fail "bad --timeout accepted"
grep -q 'whole seconds' <<<"$err" || fail "bad --timeout: $err"
echo "ok: bad arguments are refused clearly"
