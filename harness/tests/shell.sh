#!/usr/bin/env bash
# make shell: the patched guest with an interactive shell on this terminal
# (harness/vm-run --tty), driven on a pseudo-terminal by shell-tty.py.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

fail() { echo "FAIL: $*"; exit 1; }
[ -f "$BUILD/kernel/arch/x86/boot/bzImage" ] && [ -f "$BUILD/initramfs.cpio" ] ||
	{ echo "skip: no guest kernel or initramfs built"; exit 4; }
/usr/bin/python3 "$(dirname "$0")/shell-tty.py" "$TOP/harness/vm-run" || fail "make shell (above)"
