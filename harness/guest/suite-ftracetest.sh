#!/bin/bash
# The base's ftracetest: the dynamic-event and kprobe cases. Runs in the
# guest; prints one "PASS|FAIL|SKIP name" line per test case.
# UNSUPPORTED, UNTESTED and XFAIL count as skips; FAIL, UNRESOLVED and a
# test bug count as failures.
# check-debug: yes
# check-arm64: yes
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
# add_remove_uprobe.tc probes the shell at the file offset of its first
# executable mapping, assuming code that runs is there. In Debian's arm64
# bash that segment starts at offset 0, the ELF header, which never runs:
# the case cannot pass there whatever the kernel does. It is then counted
# as skipped, and a uprobe at the shell's entry point, which runs at each
# exec, is checked in its place.
uprobe_case="Generic dynamic event - add/remove/test uprobe events"
shell_text_at_0() {
	grep -m1 "r-xp .*/bin/.*sh$" /proc/$$/maps | awk '{ exit $3 != "00000000" }'
}
uprobe_at_entry() {
	local sh entry
	sh=$(grep -m1 "r-xp .*/bin/.*sh$" /proc/$$/maps | awk '{ print $6 }')
	# e_entry of an ELF64 file; in a PIE whose text starts at offset 0,
	# also the file offset
	entry=$(od -An -t x8 -j 24 -N 8 "$sh" | tr -d ' ')
	cd /sys/kernel/tracing || return 1
	echo > trace
	echo "p:entryprobe $sh:0x$entry" >>uprobe_events || return 1
	echo 1 >events/uprobes/entryprobe/enable
	echo ls | /bin/sh >/dev/null
	echo 0 >events/uprobes/entryprobe/enable
	grep -q entryprobe trace
	local found=$?
	echo "-:entryprobe" >>uprobe_events
	cd - >/dev/null
	return $found
}

while read -r res num desc; do
	if [ "$res" = FAIL ] && [ "$desc" = "$uprobe_case" ] && shell_text_at_0; then
		echo "SKIP $desc (the shell's text starts at file offset 0, the ELF header, which never runs)"
		if uprobe_at_entry; then
			echo "PASS uprobe event at the shell's entry point (in place of the case above)"
		else
			echo "FAIL uprobe event at the shell's entry point (in place of the case above)"
		fi
		continue
	fi
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
