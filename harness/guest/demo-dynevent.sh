#!/bin/bash
# Demo (runs in the guest): fprobe events on vfs_read entry and exit through
# tracefs dynamic_events, arguments by name (BTF) and the return value,
# recorded for one dd that reads 4 blocks of 512 bytes from /dev/zero.
set -eu
cd /sys/kernel/tracing

echo "# uname -r: $(uname -r)"
echo "# echo 'f:demo/read_entry vfs_read file count pos' >> dynamic_events"
echo 'f:demo/read_entry vfs_read file count pos' >>dynamic_events
echo "# echo 'f:demo/read_exit vfs_read%return ret=\$retval' >> dynamic_events"
echo 'f:demo/read_exit vfs_read%return ret=$retval' >>dynamic_events
echo "# cat dynamic_events"
cat dynamic_events

echo >trace
echo 1 >events/demo/enable
# Trace only the workload: it puts its own pid in set_event_pid, then runs.
bash -c 'echo $BASHPID > /sys/kernel/tracing/set_event_pid; exec dd if=/dev/zero of=/dev/null bs=512 count=4' 2>/dev/null
echo 0 >events/demo/enable
echo >set_event_pid

echo "# trace (dd if=/dev/zero of=/dev/null bs=512 count=4):"
grep -v '^#' trace
entries=$(grep -c 'read_entry:' trace || true)
exits=$(grep -c 'read_exit:' trace || true)
echo "# $entries entry records, $exits exit records"

echo '-:demo/read_entry' >>dynamic_events
echo '-:demo/read_exit' >>dynamic_events
[ "$entries" -gt 0 ] && [ "$entries" -eq "$exits" ]
