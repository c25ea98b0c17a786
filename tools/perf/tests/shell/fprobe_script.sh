#!/bin/bash
# perf fprobe: perf script report flamegraph and gecko read the recording (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# A perf fprobe recording is a plain perf.data: perf's own Python reports
# read it. dd reads /dev/zero one byte at a time, each read a vfs_read
# under ksys_read. Through the fprobe PMU, each call is one sample whose
# callchain starts at the traced function: perf script report flamegraph
# must put every vfs_read call under ksys_read, and perf script report
# gecko (the Firefox Profiler's format) must give dd's thread all its
# samples, vfs_read among its functions. Through tracefs, both scripts must
# read the recording and write their files (they leave tracepoint records
# to handlers of their own, and have none).

set -e

# shellcheck source=lib/fprobe.sh
. "$(dirname "$0")"/lib/fprobe.sh

skip_if_no_fprobe

if ! perf version --build-options | grep -q 'libpython: \[ on'; then
	echo "skip: perf is built without libpython (no perf script report)"
	exit 2
fi
# the scripts of the source tree when perf runs from there
if ! perf script -l 2>/dev/null | grep -q '^ *flamegraph '; then
	PERF_EXEC_PATH=$(cd "$(dirname "$0")"/../.. && pwd)
	export PERF_EXEC_PATH
	if ! perf script -l 2>/dev/null | grep -q '^ *flamegraph '; then
		echo "skip: perf script -l has no flamegraph report"
		exit 2
	fi
fi

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.fprobe.XXXXXX)
fprobe_test_begin

# gecko_threads PROFILE: "comm samples vfs_read-frames" per thread of a
# Firefox Profiler profile, read by perf's own Python (perf script -s runs
# trace_begin() once, whatever the recording)
gecko_threads() {
	cat >"$tmpdir/gecko_threads.py" <<'PY'
import json
import sys


def trace_begin():
    with open(sys.argv[1]) as f:
        profile = json.load(f)
    for t in profile["threads"]:
        print(t["name"], len(t["samples"]["data"]),
              sum(s.startswith("vfs_read ") for s in t["stringTable"]))
PY
	perf script -i "$tmpdir/perf.data" -s "$tmpdir/gecko_threads.py" -- "$1" \
		2>"$tmpdir/gecko_threads.err"
}

# check_path PATH: record 200 reads through PATH (pmu or tracefs), run both
# scripts on the recording (in $tmpdir, as perf.data), check what they made
check_path() {
	local opt='' samples dd re n

	[ "$1" = tracefs ] && [ "$(fprobe_path)" = pmu ] && opt=--tracefs
	echo "path: $1"
	rm -f "$tmpdir"/*
	(cd "$tmpdir" && perf fprobe record ${opt:+"$opt"} -a vfs_read -a ksys_read -- \
		dd if=/dev/zero of=/dev/null bs=1 count=200) 2>"$tmpdir/record.err" ||
		{ cat "$tmpdir/record.err"; fail "$1: perf fprobe record"; return; }
	(cd "$tmpdir" && perf script report flamegraph -f json -o flame.json) \
		>"$tmpdir/flame.out" 2>&1 ||
		{ cat "$tmpdir/flame.out"; fail "$1: perf script report flamegraph"; return; }
	[ -s "$tmpdir/flame.json" ] || fail "$1: flamegraph wrote no flame.json"
	(cd "$tmpdir" && perf script report gecko --save-only gecko.json) \
		>"$tmpdir/gecko.out" 2>&1 ||
		{ cat "$tmpdir/gecko.out"; fail "$1: perf script report gecko"; return; }
	[ -s "$tmpdir/gecko.json" ] || fail "$1: gecko wrote no gecko.json"
	# Through tracefs, the calls are tracepoint records, which the two
	# scripts leave to handlers of their own (they have none): there is
	# nothing to check in what they wrote
	[ "$1" = pmu ] || return 0

	# flamegraph.py, one line of JSON: {"n": name, "l": kind, "v": samples,
	# "c": [children]}; each of dd's vfs_read calls is a sample whose
	# callchain goes up from vfs_read through ksys_read
	samples=$(perf script -i "$tmpdir/perf.data" -F event 2>/dev/null |
		grep -c '^ *fprobe:vfs_read:' || true)
	dd=$(perf script -i "$tmpdir/perf.data" -F comm 2>/dev/null |
		awk '$1 == "dd" { n++ } END { print n + 0 }')
	echo "pmu: $samples samples of vfs_read, $dd of dd"
	[ "$samples" -ge 200 ] || fail "pmu: $samples samples of vfs_read, 200 reads made"
	# every vfs_read sample is in the flame graph (a dynamic loader reads
	# its libraries with pread64: not all under ksys_read), dd's 200 reads
	# under ksys_read
	re='"n": "vfs_read", "l": "[a-z]*", "v": [0-9]+'
	n=$(grep -oE "$re" "$tmpdir/flame.json" | awk '{ s += $NF } END { print s + 0 }')
	[ "$n" -eq "$samples" ] ||
		fail "pmu: the flame graph has $n vfs_read calls, not $samples:" \
			"$(head -c 400 "$tmpdir/flame.json")"
	re='"n": "ksys_read", "l": "[a-z]*", "v": [0-9]+, "c": [[][{]'
	re+='"n": "vfs_read", "l": "[a-z]*", "v": [0-9]+'
	n=$(grep -oE "$re" "$tmpdir/flame.json" | awk '{ s += $NF } END { print s + 0 }')
	[ "$n" -ge 200 ] ||
		fail "pmu: the flame graph has $n vfs_read calls under ksys_read, 200 reads made:" \
			"$(head -c 400 "$tmpdir/flame.json")"

	# gecko.py: a thread per task, its samples, the function names in its
	# string table
	gecko_threads "$tmpdir/gecko.json" >"$tmpdir/threads" ||
		{ fail "pmu: perf script -s could not read the profile:" \
			"$(tail -3 "$tmpdir/gecko_threads.err")"; return; }
	grep -qx "dd $dd 1" "$tmpdir/threads" ||
		fail "pmu: the gecko profile has not dd's $dd samples with vfs_read:" \
			"$(cat "$tmpdir/threads")"
}

# tracefs, where the kernel has fprobe events
if fprobe_events_in_tracefs; then
	check_path tracefs
fi
[ "$(fprobe_path)" = pmu ] && check_path pmu

exit $err
