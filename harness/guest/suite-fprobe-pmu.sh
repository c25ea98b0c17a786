#!/bin/bash
# check-debug: yes
# The fprobe perf PMU from user space: exact records and counts of a known
# read() workload, errors of bad attributes and of an unprivileged caller
# (tools/testing/selftests/perf_events/fprobe_pmu_test.c, built by
# harness/fprobe-pmu-tests-build). Prints one "PASS|FAIL|SKIP name" line
# per test.
bin=/repo/build/fprobe-pmu/fprobe_pmu_test
if [ ! -x "$bin" ]; then
	echo "FAIL fprobe_pmu_test: $bin is missing (make fprobe-pmu-tests)"
	exit 1
fi
"$bin"
status=$?
# 4: no fprobe PMU in this kernel, already reported as SKIP.
[ $status -eq 0 ] || [ $status -eq 4 ] || echo "fprobe_pmu_test exited $status"
exit 0
