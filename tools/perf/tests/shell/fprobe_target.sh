#!/bin/bash
# perf fprobe: -p, -t, -A --duration, -A -a '*' and Ctrl-C end cleanly and report (exclusive)
# SPDX-License-Identifier: GPL-2.0

set -e

# shellcheck source=lib/fprobe.sh
. "$(dirname "$0")"/lib/fprobe.sh

skip_if_no_fprobe

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.fprobe.XXXXXX)
fprobe_test_begin
loop=

two_pids=
tracer_set=

fprobe_test_cleanup_hook() {
	[ -z "$loop" ] || kill "$loop" 2>/dev/null || true
	# shellcheck disable=SC2086 # two pids, or none
	[ -z "$two_pids" ] || kill $two_pids 2>/dev/null || true
	if [ -n "$tracer_set" ]; then
		echo nop >/sys/kernel/tracing/current_tracer
		echo >/sys/kernel/tracing/set_ftrace_filter
	fi
}

events_left() {
	grep -c '^f:perf_fprobe/' /sys/kernel/tracing/dynamic_events 2>/dev/null || true
}

# A process that reads /dev/zero without pause, one dd after the other,
# the i-th dd reading SEQ_BASE + i bytes in one read: the reads a recording
# caught are then a run of consecutive sizes, and a gap is a lost call.
# It writes i to $tmpdir/seq after each read. It stays on one CPU: with
# per-CPU events (-A), a call that moves to another CPU while it runs is
# a case of its own for the fprobe PMU, not what this test is about.
SEQ_BASE=300000
taskset -c 0 bash -c "i=0; while :; do i=\$((i + 1));
	dd if=/dev/zero of=/dev/null bs=\$(($SEQ_BASE + i)) count=1 2>/dev/null;
	echo \$i >$tmpdir/seq; done" &
loop=$!

# loop_seq: how many reads the loop has made so far
loop_seq() {
	local n

	n=$(cat "$tmpdir/seq" 2>/dev/null) || true
	echo "${n:-0}"
}

# loop_reads FILE: "N LO HI BAD" for the loop's reads in perf fprobe's
# --calls FILE: N reads, the i of the first and last ones, and BAD reads
# whose size read is not the size asked
loop_reads() {
	awk -v base=$SEQ_BASE '
		match($0, /vfs_read\(.*count=[0-9]+\) = [0-9]+$/) {
			call = substr($0, RSTART, RLENGTH)
			sub(/.*count=/, "", call)
			split(call, v, /\) = /)
			if (v[1] + 0 <= base || v[1] + 0 > base + 10000000)
				next
			if (v[1] != v[2]) { bad++; next }
			i = v[1] - base
			if (!n || i < lo) lo = i
			if (!n || i > hi) hi = i
			n++
		}
		END { printf "%d %d %d %d\n", n, lo, hi, bad }' "$1"
}

# check_reads WHAT FILE: the loop's reads in perf fprobe's --calls FILE are
# each complete (the size asked is the size read), and consecutive; there
# is at least one, the loop having read throughout the recording
check_reads() {
	local what=$1 file=$2 out

	out=$(loop_reads "$file")
	read -r n lo hi bad <<<"$out"
	echo "$what: $n reads of the loop, its reads $lo..$hi"
	[ "$n" -ge 1 ] || fail "$what: none of the loop's reads recorded"
	[ "$bad" -eq 0 ] || fail "$what: $bad of the loop's reads with a wrong count or retval"
	# A gap is a call lost without being counted, on either path. (One
	# read in a few hundred went missing from PMU recordings now and then:
	# libperf's perf_mmap__read_done() skipped the records the kernel wrote
	# while perf fprobe read the ring buffer, fixed since.)
	[ "$n" -eq 0 ] || [ $((hi - lo + 1)) -ge "$n" ] ||
		fail "$what: $n reads recorded for the run $lo..$hi: reads recorded twice:" \
			"$(grep -oE 'count=[0-9]+\) = [0-9]+$' "$file" | sort | uniq -d |
				head -4 | tr '\n' ' ')"
	[ "$n" -eq 0 ] || [ $((hi - lo + 1)) -le "$n" ] ||
		fail "$what: $n reads recorded for the run $lo..$hi: calls lost"
}

# ctrl_c N: perf fprobe -A, interrupted by SIGINT once its output file has
# a header and the loop has read N more times; fails (status 1) if none of
# the loop's reads was recorded, which happens when perf was still
# synthesizing the tasks (with its events not enabled yet) after those N
# reads: the caller then tries again with a longer wait. Whatever the wait,
# perf must exit cleanly and print its summary.
ctrl_c() {
	local wait=$1 start s=0

	rm -f "$tmpdir/int.data"
	perf fprobe ${opt:+"$opt"} -A -a 'vfs_read count' -o "$tmpdir/int.data" --calls \
		>"$tmpdir/int.out" 2>"$tmpdir/int.err" &
	pid=$!
	while kill -0 $pid 2>/dev/null && [ ! -s "$tmpdir/int.data" ]; do
		sleep 0.2
	done
	start=$(loop_seq)
	while kill -0 $pid 2>/dev/null && [ "$(loop_seq)" -lt $((start + wait)) ]; do
		sleep 0.2
	done
	kill -INT $pid
	wait $pid || s=$?
	# 0, or killed by the SIGINT it re-raises once done, as perf record does
	[ $s -eq 0 ] || [ $s -eq 130 ] ||
		fail "Ctrl-C: perf fprobe exits with $s: $(cat "$tmpdir/int.err")"
	grep -q '^perf fprobe: [0-9]* calls' "$tmpdir/int.err" || fail "Ctrl-C: no summary"
	[ "$(events_left)" = 0 ] || fail "fprobe events left after Ctrl-C"
	[ "$(loop_reads "$tmpdir/int.out" | cut -d' ' -f1)" -gt 0 ] ||
		{ echo "Ctrl-C after $wait reads: none of the loop's reads recorded"; return 1; }
}

# target_exits PATH -p|-t: perf fprobe -p or -t of a task that exits once
# perf attached: the recording ends with it, and reports. The task may exit
# while the recording is still being set up: the PMU path then records and
# reports without its comm; on the tracefs path, perf record fails on it,
# but must not hang either. ($opt is check_path's.)
target_exits() {
	local what="$1 $2 of a task that exits" task rc=0 perf_pid

	rm -f "$tmpdir/stop"
	sh -c "while [ ! -e $tmpdir/stop ]; do sleep 1; done" &
	task=$!
	timeout 60 perf fprobe ${opt:+"$opt"} "$2" $task -a hrtimer_nanosleep --calls \
		>"$tmpdir/exit.out" 2>"$tmpdir/exit.err" &
	perf_pid=$!
	wait_attached $perf_pid || fail "$1 $2: perf fprobe ended before it attached"
	touch "$tmpdir/stop"
	wait $perf_pid || rc=$?
	if [ "$1" = pmu ]; then
		[ $rc -eq 0 ] || fail "$what: status $rc (124: it did not end with it)"
		grep -q '^perf fprobe: [0-9]* calls' "$tmpdir/exit.err" ||
			fail "$what: no report: $(cat "$tmpdir/exit.err")"
	else
		[ $rc -ne 124 ] || fail "$what: it did not end with it"
	fi
	wait $task 2>/dev/null || true
}

# check_path PATH: -p, -t, -A --duration and Ctrl-C through PATH (pmu or tracefs)
check_path() {
	local opt='' other='' others n secs

	if [ "$1" = tracefs ] && [ "$(fprobe_path)" = pmu ]; then
		opt=--tracefs
	fi
	# -p: the reads of the loop's children, forked after perf attached
	perf fprobe ${opt:+"$opt"} -p "$loop" --duration 4 -a 'vfs_read count' --calls \
		>"$tmpdir/pid.out" 2>"$tmpdir/pid.err" || fail "perf fprobe -p exits with $?"
	check_reads "$1 -p --duration 4" "$tmpdir/pid.out"
	[ "$(events_left)" = 0 ] || fail "fprobe events left after -p"

	# -t, as perf record -t: the loop's own thread (its writes of seq),
	# not the dd processes it forks ("time tid cpu duration call").
	# --duration counts perf record's setup too (tracefs), which can take
	# all of 2 s on a loaded machine: the loop is then given 16
	for secs in 2 16; do
		perf fprobe ${opt:+"$opt"} -t "$loop" --duration $secs -a 'ksys_write count' \
			--calls >"$tmpdir/tid.out" 2>"$tmpdir/tid.err" ||
			fail "$1 perf fprobe -t exits with $?"
		n=$(awk -v t="$loop" '/ksys_write\(/ && $2 == t' "$tmpdir/tid.out" | wc -l)
		[ "$n" -eq 0 ] || break
		echo "$1 -t $loop --duration $secs: none of the loop's writes:" \
			"$(tail -1 "$tmpdir/tid.err")"
	done
	others=$(awk -v t="$loop" '/ksys_write\(/ && $2 != t' "$tmpdir/tid.out" | head -3)
	echo "$1 -t $loop --duration $secs: $n writes of the loop's thread"
	[ "$n" -ge 1 ] || fail "$1 -t: none of the loop's writes: $(tail -3 "$tmpdir/tid.err")"
	[ -z "$others" ] || fail "$1 -t: calls of other threads: $others"
	[ "$(events_left)" = 0 ] || fail "fprobe events left after -t"

	# -t or -p of a task that exits once perf attached
	target_exits "$1" -t
	target_exits "$1" -p

	# -A --duration: system-wide, ends by itself with status 0
	perf fprobe ${opt:+"$opt"} -A --duration 4 -a 'vfs_read count' --calls \
		>"$tmpdir/all.out" 2>"$tmpdir/all.err" ||
		fail "perf fprobe -A --duration exits with $?"
	check_reads "$1 -A --duration 4" "$tmpdir/all.out"
	grep -q '^perf fprobe: [0-9]* calls' "$tmpdir/all.err" || fail "-A: no summary"
	# the calls cut by the start or the end of the recording are not shown,
	# on tracefs as on the PMU (which has no record of them): only records
	# lost leave calls without entry or exit
	if ! grep -q LOST "$tmpdir/all.err" && grep -q '(no e[a-z]*)' "$tmpdir/all.out"; then
		fail "$1 -A: calls without entry or exit: $(grep -m2 '(no e' "$tmpdir/all.out")"
	fi
	[ "$(events_left)" = 0 ] || fail "fprobe events left after -A --duration"

	# -C 0: system-wide on CPU 0 only, where the loop runs, while another
	# reader runs on CPU 1
	rm -f "$tmpdir/stop1"
	if [ "$(nproc)" -gt 1 ]; then
		taskset -c 1 sh -c "while [ ! -e $tmpdir/stop1 ]; do
			dd if=/dev/zero of=/dev/null bs=1 count=10 2>/dev/null; done" &
		other=$!
	fi
	# --duration counts perf record's setup too (tracefs): on a loaded
	# machine it can take all of 4 s, then the loop is given 16
	for secs in 4 16; do
		perf fprobe ${opt:+"$opt"} -C 0 --duration $secs -a 'vfs_read count' --calls \
			>"$tmpdir/cpu.out" 2>"$tmpdir/cpu.err" ||
			fail "perf fprobe -C 0 --duration exits with $?:" \
				"$(tail -3 "$tmpdir/cpu.err")"
		read -r n _ <<<"$(loop_reads "$tmpdir/cpu.out")"
		[ "$n" -eq 0 ] || break
		echo "$1 -C 0 --duration $secs: none of the loop's reads:" \
			"$(tail -1 "$tmpdir/cpu.err")"
	done
	touch "$tmpdir/stop1"
	[ -z "$other" ] || wait "$other" 2>/dev/null || true
	check_reads "$1 -C 0 --duration $secs" "$tmpdir/cpu.out"
	# "time tid cpu duration call": every call on CPU 0
	other=$(awk 'NF >= 5 && $1 !~ /^#/ && $3 != 0' "$tmpdir/cpu.out" | head -3)
	[ -z "$other" ] || fail "$1 -C 0: calls on other CPUs: $other"

	# -A with a command: the events are enabled before it starts
	perf fprobe ${opt:+"$opt"} -A -a vfs_read -- \
		dd if=/dev/zero of=/dev/null bs=1 count=100 >/dev/null 2>"$tmpdir/cmd.err" ||
		fail "perf fprobe -A -- dd exits with $?: $(tail -3 "$tmpdir/cmd.err")"
	n=$(sed -n 's/^perf fprobe: \([0-9]*\) calls.*/\1/p' "$tmpdir/cmd.err")
	[ "${n:-0}" -ge 100 ] ||
		fail "$1 -A -- dd of 100 reads: ${n:-no} calls: $(tail -3 "$tmpdir/cmd.err")"

	# Ctrl-C ends the recording and the report is still printed
	ctrl_c 20 || ctrl_c 100 || ctrl_c 500 ||
		fail "$1 Ctrl-C: none of the loop's reads recorded in 3 tries"
	check_reads "$1 Ctrl-C" "$tmpdir/int.out"
	[ "$(events_left)" = 0 ] || fail "fprobe events left after Ctrl-C"
}

# -A -a '*' (the PMU path): every traceable function, system-wide, for
# 2 s, with a ring buffer of 1 MiB per CPU. It must end and report: what
# perf's threads do in task context is left out (the PMU's
# exclude_opener), and so are the calls the kernel makes to write a
# record; records beyond what the ring buffer holds are lost and counted.
check_all_functions() {
	local rc=0 perf_pid tids n bad own sys

	# an event attaches to at most max_funcs functions
	if ! all_functions_fit; then
		echo "-A -a '*': more traceable functions than the PMU's caps/max_funcs, not run"
		return
	fi

	perf fprobe -A -a '*' --duration 2 -m 1M --calls \
		>"$tmpdir/star.out" 2>"$tmpdir/star.err" &
	perf_pid=$!
	wait_attached $perf_pid || true
	tids=$(ls /proc/$perf_pid/task 2>/dev/null | tr '\n' ' ')
	[ -n "$tids" ] || fail "-A -a '*': perf's threads not found"

	wait $perf_pid || rc=$?
	if [ $rc -ne 0 ]; then
		fail "-A -a '*' --duration 2: status $rc: $(tail -3 "$tmpdir/star.err")"
		return
	fi
	n=$(sed -n 's/^perf fprobe: \([0-9]*\) calls.*/\1/p' "$tmpdir/star.err")
	echo "-A -a '*' --duration 2: $(tail -1 "$tmpdir/star.err"); perf's threads: $tids"
	[ "${n:-0}" -gt 0 ] || fail "-A -a '*': no call reported: $(cat "$tmpdir/star.err")"
	# "time tid cpu duration call": no system call of a thread of perf's
	# (what its threads do in task context is left out; the interrupts
	# that come while they run are not)
	sys='do_syscall_64|x64_sys_call|__x64_sys_[a-z0-9_]+|ksys_[a-z]+|vfs_[a-z]+'
	bad=$(awk -v tids=" $tids" 'NR > 1 && index(tids, " " $2 " ")' "$tmpdir/star.out" |
		grep -E " ($sys)\\(" | head -3)
	[ -z "$bad" ] || fail "-A -a '*': system calls of perf's own threads recorded: $bad"
	# nor the calls the PMU makes to write a record
	own='perf_inplace_sample_begin|perf_prepare_sample|perf_callchain'
	own="$own|perf_swevent_get_recursion_context|perf_swevent_put_recursion_context"
	bad=$(grep -E " ($own)\\(" "$tmpdir/star.out" | head -3)
	[ -z "$bad" ] || fail "-A -a '*': the PMU's own calls recorded: $bad"
}

# Whether an event can attach to every traceable function (at most the
# PMU's caps/max_funcs)
all_functions_fit() {
	[ "$(wc -l </sys/kernel/tracing/available_filter_functions)" -le \
	  "$(cat /sys/bus/event_source/devices/fprobe/caps/max_funcs)" ]
}

# Two recordings of every function at once, at the default sample rate
# (100000; the tests raise it): each records the other's reader, whose
# every record makes more calls for the first, so that only perf's throttle
# keeps them from taking the whole machine. Then one under the
# function_graph tracer. Each must end (the timeout only guards against a
# hang), with status 0, and say what it lost and how often it was
# throttled.
check_throttled() {
	local rc rc_a=0 rc_b=0 pid_a pid_b start tr=/sys/kernel/tracing f log
	local throttled='\(throttled [0-9]+ times'

	all_functions_fit || return 0
	fprobe_set_rate 100000
	start=$(date +%s)
	timeout -k 10 -s INT 300 perf fprobe -A -a '*' --duration 2 -m 1M \
		>/dev/null 2>"$tmpdir/two-a.err" &
	pid_a=$!
	timeout -k 10 -s INT 300 perf fprobe -A -a '*' --duration 2 -m 1M \
		>/dev/null 2>"$tmpdir/two-b.err" &
	pid_b=$!
	two_pids="$pid_a $pid_b"
	wait $pid_a || rc_a=$?
	wait $pid_b || rc_b=$?
	two_pids=
	echo "two -A -a '*' at once, at 100000 samples/s: ended in $(($(date +%s) - start)) s"
	for f in a b; do
		if [ "$f" = a ]; then rc=$rc_a; else rc=$rc_b; fi
		log=$tmpdir/two-$f.err
		[ "$rc" -eq 0 ] ||
			fail "two -A -a '*' at once: status $rc: $(tail -2 "$log")"
		grep -Eq "^perf fprobe: [0-9]+ calls, [0-9]+ records LOST $throttled" "$log" ||
			fail "two -A -a '*' at once: no throttle reported: $(tail -2 "$log")"
	done

	if [ -w $tr/current_tracer ] && grep -qw function_graph $tr/available_tracers; then
		tracer_set=1
		echo '*read*' >$tr/set_ftrace_filter
		echo function_graph >$tr/current_tracer
		start=$(date +%s)
		rc=0
		timeout -k 10 -s INT 300 perf fprobe -A -a '*' --duration 2 -m 1M \
			>/dev/null 2>"$tmpdir/fg.err" || rc=$?
		echo nop >$tr/current_tracer
		echo >$tr/set_ftrace_filter
		tracer_set=
		echo "-A -a '*' under function_graph: ended in $(($(date +%s) - start)) s"
		log=$tmpdir/fg.err
		[ $rc -eq 0 ] ||
			fail "-A -a '*' under function_graph: status $rc: $(tail -2 "$log")"
		grep -Eq '^perf fprobe: [0-9]+ calls' "$log" ||
			fail "-A -a '*' under function_graph: no summary: $(tail -2 "$log")"
	fi
	fprobe_set_rate 100000000
}

# the PMU where there is one, and the tracefs fallback where there are
# fprobe events (on a PMU kernel too, through --tracefs)
paths=0
if [ "$(fprobe_path)" = pmu ]; then
	check_path pmu
	check_all_functions
	check_throttled
	paths=$((paths + 1))
fi
if grep -q 'f\[:\[<group>/\]\[<event>\]\]' /sys/kernel/tracing/README 2>/dev/null; then
	check_path tracefs
	paths=$((paths + 1))
fi
[ $paths -gt 0 ] || fail "no path checked"

exit $err
