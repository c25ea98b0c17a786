#!/bin/bash
# check-debug: yes
# check-arm64: yes
# check-riscv64: yes
# The fprobe perf PMU from user space: exact records and counts of a known
# read() workload and of calls that migrate between CPUs, errors of bad
# attributes, of an unprivileged caller, over the cap of functions, of an
# open killed while it expands its globs, and, last, under lockdown
# (tools/testing/selftests/perf_events/fprobe_pmu_test.c, built by
# harness/fprobe-pmu-tests-build). Prints one "PASS|FAIL|SKIP name" line
# per test.
# Built for this guest's architecture (make fprobe-pmu-tests, or
# fprobe-pmu-tests-arm64, fprobe-pmu-tests-riscv64)
dir=/repo/build/fprobe-pmu
case "$(uname -m)" in
aarch64) dir=/repo/build/fprobe-pmu-arm64 ;;
riscv64) dir=/repo/build/fprobe-pmu-riscv64 ;;
esac
bin=$dir/fprobe_pmu_test
if [ ! -x "$bin" ]; then
	echo "FAIL fprobe_pmu_test: $bin is missing (make fprobe-pmu-tests)"
	exit 1
fi
"$bin"
status=$?
# 4: no fprobe PMU in this kernel, already reported as SKIP.
[ $status -eq 0 ] || [ $status -eq 4 ] || echo "fprobe_pmu_test exited $status"
# Lockdown cannot be lifted: this is the end of the boot.
if [ $status -ne 4 ]; then
	"$bin" --lockdown
	status=$?
	[ $status -eq 0 ] || echo "fprobe_pmu_test --lockdown exited $status"
fi
exit 0
