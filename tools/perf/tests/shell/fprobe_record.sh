#!/bin/bash
# perf fprobe: exact vfs_read count, args and retval of dd bs=1 count=1000 (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# dd reads /dev/zero one byte at a time: each of its 1000 reads is one
# vfs_read(count=1) returning 1. perf fprobe record, traced only for the
# workload, must see exactly those calls (plus the reads dd makes as it
# starts, counted apart), and perf fprobe report, perf report and perf
# script must all read the recording.

set -e

# shellcheck source=lib/fprobe.sh
. "$(dirname "$0")"/lib/fprobe.sh

skip_if_no_fprobe

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.fprobe.XXXXXX)
fprobe_test_begin
data=$tmpdir/fprobe.data

# the tracefs fallback must leave no fprobe event behind
events_left() {
	grep -c '^f:perf_fprobe/' /sys/kernel/tracing/dynamic_events 2>/dev/null || true
}

# ncalls ARGS...: the number of calls perf fprobe report -i $data --calls ARGS lists
ncalls() {
	perf fprobe report -i "$data" --calls "$@" 2>/dev/null | grep -c 'vfs_read(' || true
}

# check_tid_time: perf fprobe report --tid and --time, as perf report's, on
# the recording of dd's 1000 reads, one after the other
check_tid_time() {
	local tid t n m

	tid=$(awk '/vfs_read\(/ { print $2; exit }' "$tmpdir/calls")
	[ -n "$tid" ] || { fail "no thread id in --calls"; return; }
	n=$(ncalls --tid "$tid")
	[ "$n" -eq 1000 ] || fail "--tid $tid (dd): $n calls, expected 1000"
	n=$(ncalls --tid "1,$tid")
	[ "$n" -eq 1000 ] || fail "--tid 1,$tid: $n calls, expected 1000"
	n=$(ncalls --tid 1)
	[ "$n" -eq 0 ] || fail "--tid 1 (init): $n calls, expected 0"
	if perf fprobe report -i "$data" --tid 1,,x >/dev/null 2>"$tmpdir/err"; then
		fail "--tid 1,,x accepted"
	fi
	grep -q "invalid --tid '1,,x'" "$tmpdir/err" ||
		fail "no '--tid' error: $(cat "$tmpdir/err")"

	# --time selects a call by when it ends (its record): from the start
	# of the 501st read, the last 500 reads; up to it, the first 500
	t=$(awk '/vfs_read\(/ && ++n == 501 { print $1; exit }' "$tmpdir/calls")
	n=$(ncalls --time "$t,")
	m=$(ncalls --time ",$t")
	echo "--time $t,: $n calls; --time ,$t: $m calls"
	[ "$n" -eq 500 ] && [ "$m" -eq 500 ] ||
		fail "--time $t, and ,$t: $n and $m calls, expected 500 and 500"
	# percentages of the recording, from the first and last sample times
	# of its header: two halves, every call in one of them
	n=$(ncalls --time 0%-50%)
	m=$(ncalls --time 50%-100%)
	echo "--time 0%-50%: $n calls; 50%-100%: $m calls"
	[ "$n" -gt 0 ] && [ "$m" -gt 0 ] && [ $((n + m)) -eq 1000 ] ||
		fail "--time 0%-50% and 50%-100%: $n and $m calls, expected 1000 in all"
	if perf fprobe report -i "$data" --time 10.5.3 >/dev/null 2>"$tmpdir/err"; then
		fail "--time 10.5.3 accepted"
	fi
	grep -q "invalid --time '10.5.3'" "$tmpdir/err" ||
		fail "no '--time' error: $(cat "$tmpdir/err")"
}

# check_path PATH: record and read back through PATH (pmu or tracefs)
check_path() {
	local opt='' using="fprobe events in tracefs"

	if [ "$1" = pmu ]; then
		using="the fprobe PMU"
	elif [ "$(fprobe_path)" = pmu ]; then
		opt=--tracefs
	fi
	echo "path: $1"
	perf fprobe record ${opt:+"$opt"} -a 'vfs_read count' -o "$data" -- \
		dd if=/dev/zero of=/dev/null bs=1 count=1000 2>"$tmpdir/record.err" ||
		{ cat "$tmpdir/record.err"; fail "perf fprobe record"; exit 1; }
	grep -q "^perf fprobe: .*using $using" "$tmpdir/record.err" ||
		fail "perf fprobe does not say it uses $using: $(cat "$tmpdir/record.err")"
	[ "$(events_left)" = 0 ] || fail "fprobe events left in dynamic_events"
	if grep -q LOST "$tmpdir/record.err"; then
		fail "records lost: $(cat "$tmpdir/record.err")"
	fi

	perf fprobe report -i "$data" --calls >"$tmpdir/calls" 2>"$tmpdir/report.err" ||
		{ cat "$tmpdir/report.err"; fail "perf fprobe report --calls"; exit 1; }

	# every call of the 1000 one-byte reads: count=1 by DWARF name, retval 1
	ones=$(grep -c 'vfs_read(.*count=1) = 1$' "$tmpdir/calls" || true)
	all=$(grep -c 'vfs_read(' "$tmpdir/calls" || true)
	echo "vfs_read calls: $all, of them count=1 returning 1: $ones"
	[ "$ones" -eq 1000 ] || fail "expected exactly 1000 vfs_read(count=1) = 1, got $ones"
	# dd (busybox) reads nothing else than the 1000 bytes
	[ "$all" -eq 1000 ] || fail "expected exactly 1000 vfs_read calls of dd, got $all"
	grep -q ' 1000 calls' "$tmpdir/report.err" ||
		fail "report summary is not '1000 calls': $(cat "$tmpdir/report.err")"
	if grep -q 'no exit\|no entry' "$tmpdir/calls"; then
		fail "calls without entry or exit in a clean recording"
	fi

	# durations: every completed call has one, never negative (its value
	# is checked against the record's period below)
	bad=$(awk '/vfs_read\(/ && ($5 != "us" || $4 + 0 < 0) { n++ } END { print n + 0 }' \
		"$tmpdir/calls")
	[ "$bad" -eq 0 ] || fail "$bad calls without a duration or with a negative one"

	# the call path: vfs_read under ksys_read, its own frame not repeated
	perf fprobe report -i "$data" --folded >"$tmpdir/folded" 2>/dev/null ||
		fail "perf fprobe report --folded"
	grep -q ';ksys_read;vfs_read [0-9]*$' "$tmpdir/folded" ||
		fail "no call path ...;ksys_read;vfs_read: $(cat "$tmpdir/folded")"
	perf fprobe report -i "$data" --csv >"$tmpdir/csv" 2>/dev/null ||
		fail "perf fprobe report --csv"
	# the same 1000 calls, none without its entry or exit, in the CSV
	grep -qE '^vfs_read,1000(,[0-9]+){5},0,0$' "$tmpdir/csv" ||
		fail "no CSV line of vfs_read's 1000 complete calls: $(cat "$tmpdir/csv")"
	if grep -q 'vfs_read;vfs_read' "$tmpdir/folded"; then
		fail "the probed function's own frame is in its call path"
	fi

	# perf script sees the records: one exit record (tracefs) or one sample
	# (PMU: the event is named fprobe:GLOB(PARAMS)) per call, its period the
	# duration
	perf script -i "$data" -F period,event 2>/dev/null >"$tmpdir/script" ||
		fail "perf script -i"
	exits='^(perf_fprobe:vfs_read__return|fprobe:vfs_read[(]count[)]):$'
	n=$(awk -v e="$exits" '$2 ~ e { n++ } END { print n + 0 }' "$tmpdir/script")
	[ "$n" -eq 1000 ] || fail "perf script shows $n exit records, expected 1000"
	total=$(awk -v e="$exits" '$2 ~ e { s += $1 } END { print s + 0 }' "$tmpdir/script")
	# each exit record's period is its call's duration in ns, as perf
	# fprobe report computes it from the same recording: the two sorted
	# lists are identical, value by value
	awk -v e="$exits" '$2 ~ e { print $1 }' "$tmpdir/script" | sort -n >"$tmpdir/periods"
	awk '/vfs_read\(/ && $5 == "us" { printf "%.0f\n", $4 * 1000 }' "$tmpdir/calls" |
		sort -n >"$tmpdir/durations"
	[ "$(wc -l <"$tmpdir/durations")" -eq 1000 ] ||
		fail "--calls lists $(wc -l <"$tmpdir/durations") vfs_read durations, expected 1000"
	cmp -s "$tmpdir/periods" "$tmpdir/durations" ||
		fail "exit periods are not the calls' durations: $(diff "$tmpdir/periods" \
			"$tmpdir/durations" | head -5 | tr '\n' ' ')"

	# perf report ranks by time: vfs_read carries the durations
	perf report -i "$data" --stdio --sort sym -g none 2>/dev/null >"$tmpdir/report" ||
		fail "perf report -i"
	grep -q 'vfs_read' "$tmpdir/report" || fail "perf report does not show vfs_read"
	grep -q "Event count (approx.): $total\$" "$tmpdir/report" ||
		fail "perf report does not count the $total ns of the exit records"

	check_tid_time

	# -N (the PMU's not-filter, config2): ksys_read is matched by
	# 'ksys_*' but not traced; ksys_write and vfs_read are
	perf fprobe record ${opt:+"$opt"} -a 'ksys_*' -a vfs_read -N ksys_read \
		-o "$data" -- dd if=/dev/zero of=/dev/null bs=1 count=100 \
		2>"$tmpdir/record.err" ||
		{ cat "$tmpdir/record.err"; fail "perf fprobe record -N"; exit 1; }
	perf fprobe report -i "$data" --calls >"$tmpdir/calls" 2>/dev/null ||
		fail "perf fprobe report --calls of the -N recording"
	reads=$(grep -c ' ksys_read(' "$tmpdir/calls" || true)
	writes=$(grep -c ' ksys_write(' "$tmpdir/calls" || true)
	vfs=$(grep -c ' vfs_read(' "$tmpdir/calls" || true)
	echo "-N ksys_read: ksys_read $reads, ksys_write $writes, vfs_read $vfs calls"
	[ "$reads" -eq 0 ] || fail "-N ksys_read: $reads ksys_read calls traced"
	# dd's 100 one-byte writes, then its one write of the summary
	[ "$writes" -eq 101 ] || fail "-N ksys_read: $writes ksys_write calls, expected 101"
	[ "$vfs" -eq 100 ] || fail "-N ksys_read: $vfs vfs_read calls, expected 100"

	check_filters "$1" "$opt"
}

# check_filters PATH OPT: --errors and --min-latency, in the kernel on the
# PMU path (the recording holds only the calls that pass), in user space on
# the tracefs path (the recording holds every call, the report drops them)
check_filters() {
	local path=$1 opt=$2 n listed

	# 50 one-byte reads that succeed, then reads of a directory: EISDIR
	perf fprobe record ${opt:+"$opt"} -a 'vfs_read count' --errors -o "$data" -- \
		sh -c 'dd if=/dev/zero of=/dev/null bs=1 count=50 2>/dev/null
			cat / 2>/dev/null; true' 2>"$tmpdir/record.err" ||
		{ cat "$tmpdir/record.err"; fail "perf fprobe record --errors"; return; }
	perf fprobe report -i "$data" --errors --calls >"$tmpdir/calls" 2>/dev/null ||
		fail "perf fprobe report --errors --calls"
	listed=$(grep -c ' vfs_read(' "$tmpdir/calls" || true)
	n=$(grep -c ' vfs_read(.*) = -21$' "$tmpdir/calls" || true)
	echo "--errors: $listed vfs_read calls listed, $n of them EISDIR"
	[ "$n" -ge 1 ] || fail "--errors: the read of a directory (EISDIR) is not listed"
	[ "$n" -eq "$listed" ] ||
		fail "--errors: calls that did not fail are listed: $(head -5 "$tmpdir/calls")"
	exits='^ *(perf_fprobe:vfs_read__return|fprobe:vfs_read[(]count[)]):'
	n=$(perf script -i "$data" -F event 2>/dev/null | grep -cE "$exits" || true)
	if [ "$path" = pmu ]; then
		# the kernel made a record of the failed calls only
		[ "$n" -eq "$listed" ] ||
			fail "--errors on the PMU: $n exit records for $listed failed calls"
	else
		[ "$n" -ge 50 ] || fail "--errors on tracefs: $n exit records, every call expected"
		grep -q 'tracefs records every call' "$tmpdir/record.err" ||
			fail "--errors on tracefs does not say it filters in user space"
	fi

	# a sleep among fast reads, recorded whole: the report's --min-latency,
	# at half the longest call of this recording, lists exactly the calls
	# that the recording times that long or longer, the longest among them
	perf fprobe record ${opt:+"$opt"} -a vfs_read -a hrtimer_nanosleep -o "$data" -- \
		sh -c 'dd if=/dev/zero of=/dev/null bs=1 count=20 2>/dev/null; sleep 0.2' \
		2>"$tmpdir/record.err" ||
		{ cat "$tmpdir/record.err"; fail "perf fprobe record (all calls)"; return; }
	perf fprobe report -i "$data" --calls >"$tmpdir/all" 2>/dev/null ||
		{ fail "perf fprobe report --calls"; return; }
	half=$(awk '/ (vfs_read|hrtimer_nanosleep)\(/ && $5 == "us" && $4 > max { max = $4 }
		END { printf "%d", max / 2 }' "$tmpdir/all")
	[ "$half" -gt 0 ] || { fail "no call of 2 us or more in --calls"; return; }
	awk -v t="$half" '/ (vfs_read|hrtimer_nanosleep)\(/ && $5 == "us" && $4 >= t' \
		"$tmpdir/all" >"$tmpdir/long"
	perf fprobe report -i "$data" --min-latency "${half}us" --calls \
		>"$tmpdir/calls" 2>/dev/null ||
		{ fail "perf fprobe report --min-latency ${half}us --calls"; return; }
	grep -E ' (vfs_read|hrtimer_nanosleep)\(' "$tmpdir/calls" >"$tmpdir/listed" || true
	echo "--min-latency ${half}us in the report: $(wc -l <"$tmpdir/listed") of the calls listed"
	[ -s "$tmpdir/listed" ] && cmp -s "$tmpdir/long" "$tmpdir/listed" ||
		fail "report --min-latency ${half}us does not list the calls that long:" \
			"$(diff "$tmpdir/long" "$tmpdir/listed" | head -4)"

	# the same filter at record time: every call kept is at least 50 ms
	# long (that a call the clock of the records times longer is kept is
	# fprobe_pmu_test_filter_duration's, in KUnit, where the test can read
	# that clock); on the PMU, the recording holds only those
	perf fprobe record ${opt:+"$opt"} -a vfs_read -a hrtimer_nanosleep \
		--min-latency 50ms -o "$data" -- \
		sh -c 'dd if=/dev/zero of=/dev/null bs=1 count=20 2>/dev/null; sleep 0.2' \
		2>"$tmpdir/record.err" ||
		{ cat "$tmpdir/record.err"; fail "perf fprobe record --min-latency"; return; }
	perf fprobe report -i "$data" --min-latency 50ms --calls >"$tmpdir/calls" 2>/dev/null ||
		fail "perf fprobe report --min-latency --calls"
	listed=$(grep -cE ' (vfs_read|hrtimer_nanosleep)\(' "$tmpdir/calls" || true)
	echo "--min-latency 50ms at record time: $listed calls listed"
	short=$(awk '/ (vfs_read|hrtimer_nanosleep)\(/ && ($5 != "us" || $4 < 50000) { n++ }
		END { print n + 0 }' "$tmpdir/calls")
	[ "$short" -eq 0 ] || fail "--min-latency: $short calls under 50 ms listed"
	if [ "$path" = pmu ]; then
		n=$(perf script -i "$data" -F event 2>/dev/null | grep -c 'fprobe:' || true)
		[ "$n" -eq "$listed" ] ||
			fail "--min-latency on the PMU: $n records for $listed calls that long"
	fi

	# --calls lists what the tree shows: with --max-depth 1, the reads
	# without the vfs_read nested in each (ksys_pread64 too: a dynamic
	# loader reads its libraries with pread64)
	perf fprobe record ${opt:+"$opt"} -a ksys_read -a ksys_pread64 -a vfs_read -o "$data" -- \
		dd if=/dev/zero of=/dev/null bs=1 count=20 2>"$tmpdir/record.err" ||
		{ cat "$tmpdir/record.err"; fail "perf fprobe record ksys_read vfs_read"; return; }
	perf fprobe report -i "$data" --calls >"$tmpdir/calls" 2>/dev/null ||
		fail "perf fprobe report --calls"
	perf fprobe report -i "$data" --max-depth 1 --calls >"$tmpdir/calls1" 2>/dev/null ||
		fail "perf fprobe report --max-depth 1 --calls"
	n=$(grep -c ' ksys_read(' "$tmpdir/calls" || true)
	listed=$(grep -c ' ksys_read(' "$tmpdir/calls1" || true)
	nested=$(grep -c ' vfs_read(' "$tmpdir/calls1" || true)
	echo "--max-depth 1 --calls: $listed of $n ksys_read calls, $nested vfs_read"
	[ "$n" -ge 20 ] || fail "--calls: $n ksys_read calls, 20 reads made"
	[ "$listed" -eq "$n" ] || fail "--max-depth 1 --calls: $listed of $n ksys_read calls"
	[ "$nested" -eq 0 ] || fail "--max-depth 1 --calls lists $nested nested vfs_read calls"
}

# check_report_ctrl_c: Ctrl-C while perf fprobe report reads a recording
# stops the reading, and the report covers what was read: it exits 0, says
# so, and shows some of the calls of the recording, not all. SIGINT is sent
# half a second after the report catches it (SigCgt), which it does only
# while reading (for about 2 s in a TCG guest).
check_report_ctrl_c() {
	local pid cgt rc=0 all part tries=0

	perf fprobe record -a 'vfs_read count' -o "$data" -- \
		dd if=/dev/zero of=/dev/null bs=1 count=100000 2>"$tmpdir/record.err" ||
		{ cat "$tmpdir/record.err"; fail "perf fprobe record of 100000 reads"; return; }
	perf fprobe report -i "$data" --hist >/dev/null 2>"$tmpdir/all.err" ||
		fail "perf fprobe report of 100000 reads: $(tail -2 "$tmpdir/all.err")"
	all=$(sed -n 's/^perf fprobe: \([0-9]*\) calls.*/\1/p' "$tmpdir/all.err")
	perf fprobe report -i "$data" --calls >/dev/null 2>"$tmpdir/int.err" &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$pid/status 2>/dev/null)
		[ -z "$cgt" ] || [ $((0x$cgt & 2)) -eq 0 ] || break
		tries=$((tries + 1))
		sleep 0.01
	done
	sleep 0.5
	kill -INT $pid 2>/dev/null || true
	wait $pid || rc=$?
	if ! grep -q 'interrupted: the report covers the part' "$tmpdir/int.err"; then
		# the report ended before it caught SIGINT: nothing to check
		echo "report Ctrl-C: the report of $all calls ended before SIGINT ($tries polls)"
		[ $rc -eq 0 ] || fail "report Ctrl-C: status $rc: $(tail -2 "$tmpdir/int.err")"
		return
	fi
	part=$(sed -n 's/^perf fprobe: \([0-9]*\) calls.*/\1/p' "$tmpdir/int.err")
	echo "report Ctrl-C: $part of $all calls reported"
	[ $rc -eq 0 ] || fail "report Ctrl-C: status $rc: $(tail -2 "$tmpdir/int.err")"
	[ -n "$part" ] && [ "$part" -gt 0 ] && [ "$part" -lt "$all" ] ||
		fail "report Ctrl-C: ${part:-no} of $all calls: $(tail -2 "$tmpdir/int.err")"
}

# record_calls OPT NAME: a fixed workload recorded with OPT (--tracefs or
# none), and what of its report does not vary from run to run: the calls
# as --calls lists them, less time, tid, cpu and duration (so the nesting,
# the calls, their arguments and return values) in $tmpdir/NAME.calls, and
# the tree less its latencies (so the counts and call paths) in NAME.tree
record_calls() {
	perf fprobe record ${1:+"$1"} -a 'ksys_read count' -a 'vfs_read count' \
		-a 'ksys_write count' -o "$data" -- \
		dd if=/dev/zero of=/dev/null bs=1 count=50 2>"$tmpdir/record.err" ||
		{ cat "$tmpdir/record.err"; fail "perf fprobe record $1"; return 1; }
	perf fprobe report -i "$data" --calls 2>/dev/null | grep -v '^#' |
		sed -E 's/^ +[0-9.]+ +[0-9]+ +[0-9]+ +([0-9.]+ us|\(no [a-z]+\))  //' \
		>"$tmpdir/$2.calls"
	perf fprobe report -i "$data" --tree -s name 2>/dev/null | grep -v '^#' |
		sed -E 's/^( *[0-9]+)( +([0-9.]+ [a-z]+|-)){5}  /\1 /' >"$tmpdir/$2.tree"
	# the report keeps each call for --chrome, and only the sums of the
	# threads out of every traced call otherwise: the same tree
	perf fprobe report -i "$data" --tree >"$tmpdir/sums" 2>/dev/null
	perf fprobe report -i "$data" --tree --chrome "$tmpdir/calls.json" >"$tmpdir/kept" \
		2>/dev/null
	[ -s "$tmpdir/sums" ] && cmp -s "$tmpdir/sums" "$tmpdir/kept" ||
		fail "$2: the tree of the sums is not that of the calls kept:" \
			"$(diff "$tmpdir/sums" "$tmpdir/kept" | head -6)"
}

# check_agree: the same workload recorded through the PMU and through
# tracefs gives the same calls, nested alike, and the same call paths
check_agree() {
	record_calls '' pmu && record_calls --tracefs tracefs || return
	echo "PMU and tracefs: $(wc -l <"$tmpdir/pmu.calls") and" \
		"$(wc -l <"$tmpdir/tracefs.calls") calls"
	grep -q '^  vfs_read(count=1) = 1$' "$tmpdir/pmu.calls" ||
		fail "no vfs_read nested in ksys_read: $(head -3 "$tmpdir/pmu.calls")"
	cmp -s "$tmpdir/pmu.calls" "$tmpdir/tracefs.calls" ||
		fail "the PMU and tracefs record different calls:" \
			"$(diff "$tmpdir/pmu.calls" "$tmpdir/tracefs.calls" | head -6)"
	cmp -s "$tmpdir/pmu.tree" "$tmpdir/tracefs.tree" ||
		fail "the PMU and tracefs give different trees:" \
			"$(diff "$tmpdir/pmu.tree" "$tmpdir/tracefs.tree" | head -6)"
}

# the PMU where there is one, and the tracefs fallback where there are
# fprobe events (on a PMU kernel too, through --tracefs)
paths=0
if [ "$(fprobe_path)" = pmu ]; then
	check_path pmu
	check_report_ctrl_c
	paths=$((paths + 1))
fi
if grep -q 'f\[:\[<group>/\]\[<event>\]\]' /sys/kernel/tracing/README 2>/dev/null; then
	check_path tracefs
	paths=$((paths + 1))
fi
[ $paths -gt 0 ] || fail "no path checked"
if [ $paths -eq 2 ]; then
	check_agree
else
	echo "PMU and tracefs: one path only, not compared"
fi

exit $err
