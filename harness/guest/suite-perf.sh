#!/bin/bash
# perf's own shell tests named fprobe*, and the mmap test of the libperf
# fix that perf fprobe record depends on (no event written during a read
# of a ring buffer is skipped), run by `perf test` from the source tree of
# build/linux; all but "fprobe prototypes" (below). Prints one
# "PASS|FAIL|SKIP name" line per test.
cd /repo/build/linux/tools/perf || exit 1
# "fprobe prototypes" compares the DWARF and the BTF of the guest kernel's
# vmlinux, which the host test perf-fprobe-protos.sh does on the host:
# 80 s of a guest's time, for nothing the running kernel does
skip=$(perf test list 'fprobe prototypes' 2>/dev/null | sed -n 's/^ *\([0-9]*\): .*/\1/p' | head -1)
perf test -v ${skip:+--skip "$skip"} fprobe 'written during a read' >/tmp/perf-test.out 2>&1
n=0
# " 12: name of the test    : Ok|Skip (reason)|FAILED!"
while read -r verdict name; do
	echo "$verdict $name"
	n=$((n + 1))
done < <(grep -v 'Skip (user override)' /tmp/perf-test.out |
	sed -n -E 's/^ *[0-9.]+: (.*[^ ]) *: (Ok|Skip|FAILED!).*$/\2 \1/p' |
	sed -e 's/^Ok /PASS /' -e 's/^Skip /SKIP /' -e 's/^FAILED! /FAIL /')
# the verbose output of a failed test, indented (never read as a result)
if grep -q 'FAILED!' /tmp/perf-test.out; then
	sed 's/^/    /' /tmp/perf-test.out
fi
if [ $n -eq 0 ]; then
	echo "SKIP perf test fprobe* (no such tests in this tree yet)"
fi
exit 0
