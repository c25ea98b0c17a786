#!/bin/bash
# check-debug: yes
# check-arm64: yes
# check-riscv64: yes
# The fprobe perf PMU attribute fuzzer: 10000 random and edge-case
# perf_event_attr, then events of two processes (one per CPU) sharing
# probes (tools/testing/selftests/perf_events/fprobe_pmu_fuzz.c).
# Every attempt must return an fd or an expected error, and the kernel must
# not warn (make check runs guest suites with --fail-on-splat; the kernel
# log is checked here too). Prints "PASS|FAIL|SKIP name" lines.
# Built for this guest's architecture (make fprobe-pmu-tests, or
# fprobe-pmu-tests-arm64, fprobe-pmu-tests-riscv64)
dir=/repo/build/fprobe-pmu
case "$(uname -m)" in
aarch64) dir=/repo/build/fprobe-pmu-arm64 ;;
riscv64) dir=/repo/build/fprobe-pmu-riscv64 ;;
esac
bin=$dir/fprobe_pmu_fuzz
n=10000
if [ ! -x "$bin" ]; then
	echo "FAIL fuzz: $bin is missing (make fprobe-pmu-tests)"
	exit 1
fi
dmesg -c >/dev/null
"$bin" $n >/tmp/fuzz.out 2>&1
status=$?
cat /tmp/fuzz.out
case $status in
4) echo "SKIP fuzz-$n: no fprobe PMU"; exit 0 ;;
0) grep -qE "^attempts $n opened [1-9]" /tmp/fuzz.out &&
	echo "PASS fuzz-$n" || echo "FAIL fuzz-$n: no event opened" ;;
*) echo "FAIL fuzz-$n: exit $status" ;;
esac
# The sharing phase: every count right, every event opened
if grep -qE "^sharing: [0-9]+ processes, .*, 0 failures$" /tmp/fuzz.out; then
	echo "PASS fuzz-sharing"
else
	echo "FAIL fuzz-sharing"
fi
if dmesg | grep -qE 'WARNING:|BUG:|Oops|RCU|lockdep|UBSAN|KASAN'; then
	dmesg | grep -E -A5 'WARNING:|BUG:|Oops|RCU|lockdep|UBSAN|KASAN' | head -40
	echo "FAIL fuzz-$n-kernel-log"
else
	echo "PASS fuzz-$n-kernel-log"
fi
exit 0
