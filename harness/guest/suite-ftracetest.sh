#!/bin/bash
# The base's ftracetest: the dynamic-event and kprobe cases. Runs in the
# guest; prints ftracetest's KTAP, which harness/check reads on the host
# with kunit.py parse. ftracetest reports UNSUPPORTED and UNTESTED as SKIP,
# XFAIL as a pass, and FAIL, UNRESOLVED and a test bug as "not ok".
# ktap: yes
# check-debug: yes
# check-arm64: yes
# check-riscv64: yes
cd /repo/build/linux/tools/testing/selftests/ftrace || exit 1
logdir=/tmp/ftracetest-logs

# ftracetest's KTAP output (-K): the host reads it with kunit.py parse
# (harness/check, "ktap: yes" above), which also checks the plan against the
# results. Each test's own output is in $logdir.
./ftracetest -K -l "$logdir" test.d/dynevent test.d/kprobe >/tmp/ftracetest.ktap 2>&1
# add_remove_uprobe.tc probes the shell at the file offset of its first
# executable mapping, assuming code that runs is there. In Debian's arm64
# bash that segment starts at offset 0, the ELF header, which never runs:
# the case cannot pass there whatever the kernel does. It is then counted
# as skipped, and a uprobe at the shell's entry point, which runs at each
# exec, is checked in its place.
failed=()
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

# riscv64 on 6.12 has no KPROBES_ON_FTRACE, and a function's ftrace site is
# its first instruction: a kprobe there is EINVAL (kernel/kprobes.c,
# check_ftrace_location(), which the series does not change), so every case
# that puts a kprobe on a function's name fails there, in the base too.
# Checked live: a kprobe on kernel_clone is EINVAL while one on the
# instruction after its ftrace site is taken. Only then is a failed case
# whose test file is a kprobe one and whose log shows a kprobe_events write
# refused with EINVAL counted as skipped.
kprobe_entry_einval() {
	local ev=/sys/kernel/tracing/kprobe_events ok=1
	[ "$(uname -m)" = riscv64 ] || return 1
	if echo 'p:entrycheck kernel_clone' >>"$ev" 2>/dev/null; then
		echo '-:entrycheck' >>"$ev"
		return 1
	fi
	echo 'p:entrycheck kernel_clone+8' >>"$ev" 2>/dev/null || ok=0
	echo '-:entrycheck' >>"$ev" 2>/dev/null
	[ $ok -eq 1 ]
}
kprobe_entry_skip=
kprobe_entry_einval && kprobe_entry_skip=1
entry_einval_case() {
	local log
	log=$(ls "$logdir/$1-"*-log.* 2>/dev/null | head -1)
	[ -n "$log" ] && head -1 "$log" | grep -q 'kprobe' &&
		grep -q 'write error: Invalid argument' "$log"
}

ktap_fail_re='^not ok ([0-9]+) (.*[^ ])[[:space:]]*$'
while IFS= read -r line; do
	if [[ "$line" =~ $ktap_fail_re ]]; then
		num=${BASH_REMATCH[1]} desc=${BASH_REMATCH[2]}
		if [ "$desc" = "$uprobe_case" ] && shell_text_at_0; then
			echo "ok $num $desc # SKIP the shell's text starts at file offset 0, the ELF header, which never runs"
			uprobe_checked=1
			continue
		fi
		if [ -n "$kprobe_entry_skip" ] && entry_einval_case "$num"; then
			echo "ok $num $desc # SKIP riscv64 6.12: no kprobe on a function's ftrace site (no KPROBES_ON_FTRACE), as in the base"
			continue
		fi
		failed+=("$num")
	fi
	printf '%s\n' "$line"
done </tmp/ftracetest.ktap
if [ -n "${uprobe_checked:-}" ]; then
	if uprobe_at_entry; then
		echo "PASS uprobe event at the shell's entry point (in place of the uprobe case)"
	else
		echo "FAIL uprobe event at the shell's entry point (in place of the uprobe case)"
	fi
fi
# The output of each failed case, indented, after the KTAP
for num in "${failed[@]}"; do
	echo "    == case $num"
	cat "$logdir/$num-"*-log.* 2>/dev/null | tail -30 | sed 's/^/    /'
done
exit 0
