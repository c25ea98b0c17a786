#!/bin/bash
# Helpers for the perf fprobe shell tests
# SPDX-License-Identifier: GPL-2.0

# skip_if_no_fprobe: exit 2 unless perf fprobe can trace here (root, tracefs
# with fprobe events or the fprobe PMU, and the DWARF of vmlinux or BTF)
skip_if_no_fprobe() {
	if [ "$(id -u)" != 0 ]; then
		echo "skip: perf fprobe tests need root"
		exit 2
	fi
	if ! perf fprobe -h >/dev/null 2>&1 && ! perf fprobe -h 2>&1 | grep -q Usage; then
		echo "skip: this perf has no fprobe command"
		exit 2
	fi
	tracefs=/sys/kernel/tracing
	[ -f $tracefs/dynamic_events ] || tracefs=/sys/kernel/debug/tracing
	if [ ! -d /sys/bus/event_source/devices/fprobe ] &&
	   ! grep -q 'f\[:\[<group>/\]\[<event>\]\]' $tracefs/README 2>/dev/null; then
		echo "skip: the kernel has neither the fprobe PMU nor fprobe events"
		exit 2
	fi
	if ! perf fprobe -V vfs_read >/dev/null 2>&1; then
		echo "skip: neither the DWARF of vmlinux nor BTF for the running kernel"
		exit 2
	fi
}

# fprobe_events_in_tracefs: whether the kernel has fprobe events in tracefs
fprobe_events_in_tracefs() {
	local t=/sys/kernel/tracing

	[ -f $t/README ] || t=/sys/kernel/debug/tracing
	grep -q 'f\[:\[<group>/\]\[<event>\]\]' $t/README 2>/dev/null
}

# fprobe_path: which path perf fprobe takes on this kernel
fprobe_path() {
	if [ -d /sys/bus/event_source/devices/fprobe ]; then
		echo pmu
	else
		echo tracefs
	fi
}

# wait_attached PID: wait until the perf process PID has its perf events
# open (anon inodes [perf_event] among its fds); 1 if it ended before
wait_attached() {
	while kill -0 "$1" 2>/dev/null; do
		if ls -l /proc/"$1"/fd 2>/dev/null | grep -q 'perf_event'; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# The kernel throttles the records of the fprobe PMU as it throttles a
# hardware PMU's samples: kernel.perf_event_max_sample_rate per second and
# CPU. The tests count every call of loops that call faster than that, and
# raise it for their run; fprobe_default_rate is the value it had, for a
# test of the throttling itself.
fprobe_rate_file=/proc/sys/kernel/perf_event_max_sample_rate
fprobe_default_rate=

# fprobe_test_begin: after a test has set err=0 (fail() sets it to 1) and
# made its temporary directory $tmpdir: remove $tmpdir at exit, and on TERM
# or INT, which fail the test. A test that leaves processes behind defines
# fprobe_test_cleanup_hook, called first at exit.
fprobe_test_begin() {
	if [ -w $fprobe_rate_file ]; then
		fprobe_default_rate=$(cat $fprobe_rate_file)
		echo 100000000 >$fprobe_rate_file 2>/dev/null || true
	fi
	trap 'fprobe_test_cleanup; exit 1' TERM INT
	trap fprobe_test_cleanup EXIT
}

# fprobe_set_rate RATE: set kernel.perf_event_max_sample_rate for a test
# (fprobe_test_cleanup puts back fprobe_default_rate)
fprobe_set_rate() {
	echo "$1" >$fprobe_rate_file
}

fprobe_test_cleanup() {
	if declare -F fprobe_test_cleanup_hook >/dev/null; then
		fprobe_test_cleanup_hook
	fi
	[ -z "$fprobe_default_rate" ] || echo "$fprobe_default_rate" >$fprobe_rate_file
	rm -rf "$tmpdir"
	trap - EXIT TERM INT
}

# shellcheck disable=SC2034 # err is the test's exit status
fail() {
	echo "FAIL: $*"
	err=1
}
