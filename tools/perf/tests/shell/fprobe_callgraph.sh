#!/bin/bash
# perf fprobe: --call-graph none, kernel, fp and dwarf on perf test -w readloop
# SPDX-License-Identifier: GPL-2.0
#
# perf test -w readloop N reads /dev/zero one byte at a time, N times,
# from readloop_outer() through readloop_inner(), built with frame
# pointers and DWARF. Every mode must record each of its N one-byte
# vfs_read() calls; fp and dwarf must put its user-space frames above the
# kernel ones (outermost first) in the folded stacks, and perf script must
# show them from the same recording.

set -e

# shellcheck source=lib/fprobe.sh
. "$(dirname "$0")"/lib/fprobe.sh

skip_if_no_fprobe
# the user frames are perf's own: they have names only if perf has its symbols
if ! grep -q readloop_outer "$(command -v perf)"; then
	echo "skip: this perf has no symbol table (stripped): its frames have no names"
	exit 2
fi

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.fprobe.XXXXXX)
fprobe_test_begin
nreads=50

# record MODE [OPT]: record the reads of readloop with --call-graph MODE
# into $tmpdir/MODE.data (OPT: --tracefs), and check that every read is in
# it; its folded stacks in $tmpdir/MODE.folded
record() {
	local mode=$1 data=$tmpdir/$1.data n

	perf fprobe record ${2:+"$2"} --call-graph "$mode" -a 'vfs_read count' \
		-o "$data" -- perf test -w readloop $nreads 2>"$tmpdir/$mode.err" ||
		{ cat "$tmpdir/$mode.err"; fail "perf fprobe record --call-graph $mode"; return 1; }
	if grep -q LOST "$tmpdir/$mode.err"; then
		fail "--call-graph $mode: records lost: $(cat "$tmpdir/$mode.err")"
	fi
	perf fprobe report -i "$data" --calls >"$tmpdir/$mode.calls" 2>/dev/null ||
		{ fail "perf fprobe report --calls, --call-graph $mode"; return 1; }
	n=$(grep -c 'vfs_read(.*count=1) = 1$' "$tmpdir/$mode.calls" || true)
	echo "--call-graph $mode ${2:-}: $n one-byte reads"
	[ "$n" -eq $nreads ] ||
		fail "--call-graph $mode: $n one-byte reads recorded, expected $nreads"
	perf fprobe report -i "$data" --folded >"$tmpdir/$mode.folded" 2>/dev/null ||
		{ fail "perf fprobe report --folded, --call-graph $mode"; return 1; }
}

# has_sample_type MODE TYPE: whether the recording of MODE samples TYPE
has_sample_type() {
	perf evlist -v -i "$tmpdir/$1.data" 2>/dev/null | grep -q "sample_type: .*$2"
}

if record none; then
	has_sample_type none CALLCHAIN && fail "--call-graph none records callchains"
	# the traced calls only: no frame above them
	grep -q '^vfs_read [0-9]*$' "$tmpdir/none.folded" ||
		fail "--call-graph none: no path 'vfs_read': $(cat "$tmpdir/none.folded")"
	if grep -q ';' "$tmpdir/none.folded"; then
		fail "--call-graph none: frames above the calls: $(cat "$tmpdir/none.folded")"
	fi
fi

if record kernel; then
	grep -q ';ksys_read;vfs_read [0-9]*$' "$tmpdir/kernel.folded" ||
		fail "--call-graph kernel: no path ...;ksys_read;vfs_read"
	if grep -q 'readloop' "$tmpdir/kernel.folded"; then
		fail "--call-graph kernel: user frames in the kernel callchains"
	fi
fi

# fp: the kernel walks the frame pointers from the user registers of the
# system call: readloop_outer's frame is found through readloop_inner's
# frame pointer (readloop_inner itself may be missing, when the C
# library's read() made no frame of its own)
if record fp; then
	grep -q 'readloop_outer;.*;ksys_read;vfs_read [0-9]*$' "$tmpdir/fp.folded" ||
		fail "--call-graph fp: no path readloop_outer;...;ksys_read;vfs_read:" \
			"$(cat "$tmpdir/fp.folded")"
	perf script --no-inline -i "$tmpdir/fp.data" 2>/dev/null | grep -q 'readloop_outer' ||
		fail "--call-graph fp: perf script shows no readloop_outer frame"
fi

# dwarf: perf unwinds the user stack taken with each call: both frames
if record dwarf; then
	has_sample_type dwarf STACK_USER ||
		fail "--call-graph dwarf records no user stack"
	grep -q 'readloop_outer;readloop_inner;.*;ksys_read;vfs_read [0-9]*$' \
		"$tmpdir/dwarf.folded" ||
		fail "--call-graph dwarf: no path readloop_outer;readloop_inner;...;vfs_read:" \
			"$(cat "$tmpdir/dwarf.folded")"
	perf script --no-inline -i "$tmpdir/dwarf.data" 2>/dev/null | grep -q 'readloop_inner' ||
		fail "--call-graph dwarf: perf script shows no readloop_inner frame"
fi

# the tracefs path records the user frames through perf record
if fprobe_events_in_tracefs; then
	opt=
	[ "$(fprobe_path)" = pmu ] && opt=--tracefs
	if record fp $opt; then
		grep -q 'readloop_outer;.*;ksys_read;vfs_read [0-9]*$' "$tmpdir/fp.folded" ||
			fail "--call-graph fp, tracefs: no path readloop_outer;...;vfs_read"
	fi
fi

# --no-call-graph is none; perf fprobe trace, which prints no callchain,
# takes none of the user-space ones
perf fprobe record --no-call-graph -a vfs_read -o "$tmpdir/no.data" -- true 2>/dev/null ||
	fail "perf fprobe record --no-call-graph"
has_sample_type no CALLCHAIN && fail "--no-call-graph records callchains"
if perf fprobe trace --call-graph fp -a vfs_read -- true >/dev/null 2>"$tmpdir/trace.err"; then
	fail "perf fprobe trace --call-graph fp accepted"
fi
grep -q 'perf fprobe trace prints no callchains' "$tmpdir/trace.err" ||
	fail "perf fprobe trace --call-graph fp: $(cat "$tmpdir/trace.err")"

# bad modes are errors that say what is taken
for bad in lbr 'dwarf,x' bogus; do
	if perf fprobe record --call-graph "$bad" -a vfs_read -o "$tmpdir/bad.data" \
		-- true 2>"$tmpdir/bad.err"; then
		fail "--call-graph $bad accepted"
	fi
	grep -q "invalid --call-graph '$bad': none, kernel, fp or dwarf" "$tmpdir/bad.err" ||
		fail "--call-graph $bad: no clear error: $(cat "$tmpdir/bad.err")"
done

exit $err
