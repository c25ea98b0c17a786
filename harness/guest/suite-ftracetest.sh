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
# "[N] description" starts a case; its verdict "[RESULT]" ends that line or,
# when the case printed something in between, a later one.
awk '
/^\[[0-9]+\] / {
	num = substr($1, 2, length($1) - 2)
	desc = $0
	sub(/^\[[0-9]+\] /, "", desc)
	sub(/[[:space:]]*\[[A-Z]+\][[:space:]]*$/, "", desc)
	sub(/\+\+ .*$/, "", desc)
	open = 1
}
open && match($0, /\[(PASS|FAIL|UNRESOLVED|UNTESTED|UNSUPPORTED|XFAIL|UNDEFINED)\][[:space:]]*$/) {
	res = substr($0, RSTART + 1, RLENGTH - 2)
	sub(/\].*$/, "", res)
	print res, num, desc
	open = 0
}' /tmp/ftracetest.out >/tmp/ftracetest.verdicts
while read -r res num desc; do
	case "$res" in
	PASS) echo "PASS $desc" ;;
	UNSUPPORTED|UNTESTED|XFAIL) echo "SKIP $desc ($res)" ;;
	*)
		echo "FAIL $desc ($res)"
		cat "$logdir/$num-"*-log.* 2>/dev/null | tail -30 | sed 's/^/    /'
		;;
	esac
done </tmp/ftracetest.verdicts

# Every case ftracetest counted must have been read above.
total=$(sed -n 's/^# of [a-z()]*[a-z ()]*: *\([0-9]*\)$/\1/p' /tmp/ftracetest.out |
	awk '{ n += $1 } END { print n + 0 }')
read=$(wc -l </tmp/ftracetest.verdicts)
if [ "$total" -ne "$read" ]; then
	echo "FAIL ftracetest counted $total cases, this suite read $read verdicts"
fi
exit 0
