#!/bin/bash
# The guest environment harness/vm-run promises: 2 CPUs online, tracefs and
# debugfs mounted, perf on PATH with DWARF, vmlinux reachable, modules.
# Runs in the guest; prints one "PASS|FAIL|SKIP name" line per check.

check() { # NAME CMD...
	local name=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then
		echo "PASS $name"
	else
		echo "FAIL $name"
		sed 's/^/    /' /tmp/check.out | tail -20
	fi
}

check cpus-online test "$(cat /sys/devices/system/cpu/online)" = 0-1
check tracefs test -e /sys/kernel/tracing/available_tracers
check debugfs grep -q ' /sys/kernel/debug debugfs ' /proc/mounts
check function-graph-tracer grep -qw function_graph /sys/kernel/tracing/available_tracers
check fprobe-events grep -q 'f\[:\[<group>/\]\[<event>\]\]' /sys/kernel/tracing/README
check perf-on-path perf version
check vmlinux-reachable test -f "/lib/modules/$(uname -r)/build/vmlinux"
check perf-dwarf-vfs_read bash -c 'perf probe -V vfs_read | grep -qw count'
check repo-mounted test -f /repo/harness/vm-run
