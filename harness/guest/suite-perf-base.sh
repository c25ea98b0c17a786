#!/bin/bash
# kernel: base
# perf's fprobe* shell tests on the base kernel, which has no fprobe PMU:
# perf fprobe must work through fprobe events in tracefs and say so. Every
# test must run (a skip here is a failure: the base has fprobe events).
out=$(bash /repo/harness/guest/suite-perf.sh)
echo "$out" | sed 's/^SKIP /FAIL skipped on the base kernel: /'
[ ! -e /sys/bus/event_source/devices/fprobe ] ||
	echo "FAIL base-has-no-pmu: the base kernel has an fprobe PMU"
