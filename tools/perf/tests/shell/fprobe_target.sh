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

# -p: the reads of the loop's children, forked after perf attached
perf fprobe -p "$loop" --duration 4 -a 'vfs_read count' --calls \
	>"$tmpdir/pid.out" 2>"$tmpdir/pid.err" || fail "perf fprobe -p exits with $?"
n=$(grep -c 'vfs_read(.*count=5) = 5$' "$tmpdir/pid.out" || true)
echo "-p: $n reads of 5 bytes"
[ "$n" -ge 2 ] || fail "-p $loop --duration 4 saw $n reads of 5 bytes"
[ "$(events_left)" = 0 ] || fail "fprobe events left after -p"

# -A --duration: system-wide, ends by itself with status 0
perf fprobe -A --duration 4 -a 'vfs_read count' --calls \
	>"$tmpdir/all.out" 2>"$tmpdir/all.err" || fail "perf fprobe -A --duration exits with $?"
n=$(grep -c 'vfs_read(.*count=5) = 5$' "$tmpdir/all.out" || true)
echo "-A --duration 4: $n reads of 5 bytes"
[ "$n" -ge 2 ] || fail "-A --duration 4 saw $n reads of 5 bytes"
grep -q '^perf fprobe: [0-9]* calls' "$tmpdir/all.err" || fail "-A: no summary"
[ "$(events_left)" = 0 ] || fail "fprobe events left after -A --duration"

# Ctrl-C ends the recording and the report is still printed
perf fprobe -A -a 'vfs_read count' --calls >"$tmpdir/int.out" 2>"$tmpdir/int.err" &
pid=$!
sleep 8
kill -INT $pid
wait $pid || true
n=$(grep -c 'vfs_read(.*count=5) = 5$' "$tmpdir/int.out" || true)
echo "Ctrl-C after 8s: $n reads of 5 bytes"
[ "$n" -ge 2 ] || fail "Ctrl-C: $n reads of 5 bytes reported"
grep -q '^perf fprobe: [0-9]* calls' "$tmpdir/int.err" || fail "Ctrl-C: no summary"
[ "$(events_left)" = 0 ] || fail "fprobe events left after Ctrl-C"

exit $err
