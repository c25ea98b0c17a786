#!/usr/bin/env bash
# harness/vm-run keeps its contract: CMD's output and exit status, 2 CPUs,
# --icount boots, --console keeps the kernel log, 124 on timeout, clear
# errors for bad arguments; --arch arm64 and riscv64 boot those guests when
# they are built (make check-arm64, check-riscv64).
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
vm=$TOP/harness/vm-run

fail() { echo "FAIL: $*"; exit 1; }

# CMD's output is a serial port, a terminal: PAGER=cat, so that no pager
# waits there for a key
out=$("$vm" -- 'nproc; echo "two words"; echo "PAGER=$PAGER"; [ -t 1 ] && echo tty') ||
	fail "nproc failed"
[ "$out" = "$(printf '2\ntwo words\nPAGER=cat\ntty')" ] ||
	fail "expected '2', 'two words', 'PAGER=cat' and 'tty', got: $out"
echo "ok: nproc prints 2, output passes through, a terminal without a pager"

s=0
"$vm" -- false || s=$?
[ $s -eq 1 ] || fail "'false' exited $s, not 1"
s=0
"$vm" -- 'exit 42' || s=$?
[ $s -eq 42 ] || fail "'exit 42' exited $s"
echo "ok: exit statuses 1 and 42 come back"

con=$(mktemp)
trap 'rm -f "$con"' EXIT
"$vm" --console "$con" -- true || fail "--console: 'true' failed"
grep -q 'Linux version' "$con" || fail "--console: no kernel log in the file"
echo "ok: --console FILE gets the kernel log"

# the guests of the other architectures, where they are built
for a in arm64:aarch64:arm64 riscv64:riscv64:riscv; do
	arch=${a%%:*} machine=${a#*:} machine=${machine%%:*} karch=${a##*:}
	[ -f "$TOP/build/initramfs-$arch.cpio" ] &&
		[ -f "$TOP/build/cross/$karch/arch/$karch/boot/Image" ] || continue
	s=0
	out=$("$vm" --arch "$arch" -- 'uname -m; exit 7') || s=$?
	[ $s -eq 7 ] || fail "--arch $arch: 'exit 7' exited $s"
	[ "$out" = "$machine" ] || fail "--arch $arch: uname -m says '$out'"
	echo "ok: --arch $arch boots the $arch guest, output and status come back"
done

out=$("$vm" --icount -- 'echo $VMRUN_CLOCK') || fail "--icount: 'echo \$VMRUN_CLOCK' failed"
[ "$out" = icount ] || fail "--icount: the guest's VMRUN_CLOCK is '$out', not 'icount'"
echo "ok: --icount boots and runs CMD, which sees VMRUN_CLOCK=icount"

s=0
"$vm" --timeout 20 -- sleep 600 2>/dev/null || s=$?
[ $s -eq 124 ] || fail "a timed-out run exited $s, not 124"
echo "ok: --timeout gives 124"

s=0
err=$("$vm" --kernel nope -- true 2>&1) || s=$?
[ $s -ne 0 ] && grep -q "takes 'base', 'patched', 'debug' or 'series-FOLDER', not 'nope'" <<<"$err" || fail "bad --kernel: $err"
s=0
err=$("$vm" --kernel series-nope -- true 2>&1) || s=$?
[ $s -ne 0 ] && grep -q "series-kunit/nope/kernel/arch/x86/boot/bzImage is missing: run 'make series-kunit'" <<<"$err" ||
	fail "--kernel series-FOLDER without its build: $err"
err=$("$vm" --timeout soon -- true 2>&1) && fail "bad --timeout accepted"
grep -q 'whole seconds' <<<"$err" || fail "bad --timeout: $err"
err=$("$vm" --arch mips -- true 2>&1) && fail "bad --arch accepted"
grep -q "takes 'x86_64', 'arm64' or 'riscv64', not 'mips'" <<<"$err" || fail "bad --arch: $err"
echo "ok: bad arguments are refused clearly"
