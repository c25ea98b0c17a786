#!/bin/bash
# The base's ftracetest: the dynamic-event and kprobe cases. Runs in the
# guest; prints one "PASS|FAIL|SKIP name" line per test case.
# UNSUPPORTED, UNTESTED and XFAIL count as skips; FAIL, UNRESOLVED and a
# test bug count as failures.
# check-debug: yes
cd /repo/build/linux/tools/testing/selftests/ftrace || exit 1
logdir=/tmp/ftracetest-logs

# The raw output streams (into the suite log on the host); the verdict
# lines are printed after it.
./ftracetest -l "$logdir" test.d/dynevent test.d/kprobe 2>&1 | tee /tmp/ftracetest.out
sed -n 's/^\[\([0-9]*\)\] \(.*\)[[:space:]]\[\([A-Z]*\)\]$/\3 \1 \2/p' /tmp/ftracetest.out |
	while read -r res num desc; do
		case "$res" in
		PASS) echo "PASS $desc" ;;
		UNSUPPORTED|UNTESTED|XFAIL) echo "SKIP $desc ($res)" ;;
		*)
			echo "FAIL $desc ($res)"
			cat "$logdir/$num-"*-log.* 2>/dev/null | tail -30 | sed 's/^/    /'
			;;
		esac
	done
exit 0
