#!/bin/bash
# perf fprobe: -p PID, -A --duration and Ctrl-C end cleanly and report
# SPDX-License-Identifier: GPL-2.0

set -e

# shellcheck source=lib/fprobe.sh
. "$(dirname "$0")"/lib/fprobe.sh

skip_if_no_fprobe

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.fprobe.XXXXXX)
loop=

cleanup() {
	[ -z "$loop" ] || kill "$loop" 2>/dev/null || true
	rm -rf "$tmpdir"
	trap - EXIT TERM INT
}

trap_cleanup() {
	cleanup
	exit 1
}
trap trap_cleanup TERM INT
trap cleanup EXIT

fail() {
	echo "FAIL: $*"
	err=1
}

events_left() {
	grep -c '^f:perf_fprobe/' /sys/kernel/tracing/dynamic_events 2>/dev/null || true
}

# a process that reads 5 bytes from /dev/zero three times a second
bash -c 'while :; do dd if=/dev/zero of=/dev/null bs=5 count=1 2>/dev/null; sleep 0.3; done' &
loop=$!

# check_path PATH: -p, -A --duration and Ctrl-C through PATH (pmu or tracefs)
check_path() {
	local opt=''

	if [ "$1" = tracefs ] && [ "$(fprobe_path)" = pmu ]; then
		opt=--tracefs
	fi
	# -p: the reads of the loop's children, forked after perf attached
	perf fprobe ${opt:+"$opt"} -p "$loop" --duration 4 -a 'vfs_read count' --calls \
		>"$tmpdir/pid.out" 2>"$tmpdir/pid.err" || fail "perf fprobe -p exits with $?"
	n=$(grep -c 'vfs_read(.*count=5) = 5$' "$tmpdir/pid.out" || true)
	echo "$1 -p: $n reads of 5 bytes"
	[ "$n" -ge 2 ] || fail "-p $loop --duration 4 saw $n reads of 5 bytes"
	[ "$(events_left)" = 0 ] || fail "fprobe events left after -p"

	# -A --duration: system-wide, ends by itself with status 0
	perf fprobe ${opt:+"$opt"} -A --duration 4 -a 'vfs_read count' --calls \
		>"$tmpdir/all.out" 2>"$tmpdir/all.err" ||
		fail "perf fprobe -A --duration exits with $?"
	n=$(grep -c 'vfs_read(.*count=5) = 5$' "$tmpdir/all.out" || true)
	echo "$1 -A --duration 4: $n reads of 5 bytes"
	[ "$n" -ge 2 ] || fail "-A --duration 4 saw $n reads of 5 bytes"
	grep -q '^perf fprobe: [0-9]* calls' "$tmpdir/all.err" || fail "-A: no summary"
	[ "$(events_left)" = 0 ] || fail "fprobe events left after -A --duration"

	# Ctrl-C ends the recording and the report is still printed
	perf fprobe ${opt:+"$opt"} -A -a 'vfs_read count' --calls \
		>"$tmpdir/int.out" 2>"$tmpdir/int.err" &
	pid=$!
	sleep 8
	kill -INT $pid
	wait $pid || true
	n=$(grep -c 'vfs_read(.*count=5) = 5$' "$tmpdir/int.out" || true)
	echo "$1 Ctrl-C after 8s: $n reads of 5 bytes"
	[ "$n" -ge 2 ] || fail "Ctrl-C: $n reads of 5 bytes reported"
	grep -q '^perf fprobe: [0-9]* calls' "$tmpdir/int.err" || fail "Ctrl-C: no summary"
	[ "$(events_left)" = 0 ] || fail "fprobe events left after Ctrl-C"
}

# the PMU where there is one, and the tracefs fallback where there are
# fprobe events (on a PMU kernel too, through --tracefs)
paths=0
if [ "$(fprobe_path)" = pmu ]; then
	check_path pmu
	paths=$((paths + 1))
fi
if grep -q 'f\[:\[<group>/\]\[<event>\]\]' /sys/kernel/tracing/README 2>/dev/null; then
	check_path tracefs
	paths=$((paths + 1))
fi
[ $paths -gt 0 ] || fail "no path checked"

exit $err
