#!/bin/bash
# perf fprobe -b: every call of a hot function counted, by call path (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# dd reads /dev/zero 200,000 times one byte at a time, as fast as it can:
# ksys_read calls vfs_read once per read. perf fprobe -b counts the calls
# in the kernel, at the default kernel.perf_event_max_sample_rate (which
# throttles a recording of them): each call path, each histogram and the
# CSV must count exactly 200,000, as perf ftrace latency -b does.

set -e

# shellcheck source=lib/fprobe.sh
. "$(dirname "$0")"/lib/fprobe.sh

skip_if_no_fprobe
if ! perf version --build-options | grep -q 'bpf_skeletons: \[ on'; then
	echo "skip: this perf was built without BPF skeletons"
	exit 2
fi

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.fprobe.XXXXXX)
fprobe_test_begin
# what a user who never raised it has: -b does not depend on it
[ -z "$fprobe_default_rate" ] || fprobe_set_rate "$fprobe_default_rate"
calls=200000
dd_reads="dd if=/dev/zero of=/dev/null bs=1 count=$calls"

# count FILE FUNC: the calls of FUNC in the tree of FILE, over its call paths
count() {
	awk -v f="$2" '$NF == f && $1 ~ /^[0-9]+$/ { n += $1 } END { print n + 0 }' "$1"
}

# indent FILE FUNC: the depth of FUNC's first line in the tree
indent() {
	awk -v f="$2" '$NF == f && $1 ~ /^[0-9]+$/ {
		match($0, / +[^ ]+$/); print RLENGTH - length(f) - 1; exit }' "$1"
}

# the call paths: ksys_read, and vfs_read nested in it
if ! perf fprobe -b -a ksys_read -a vfs_read -- $dd_reads \
	>"$tmpdir/tree" 2>"$tmpdir/tree.err"; then
	fail "perf fprobe -b failed: $(cat "$tmpdir/tree.err")"
fi
cat "$tmpdir/tree.err" "$tmpdir/tree"
for f in ksys_read vfs_read; do
	n=$(count "$tmpdir/tree" $f)
	[ "$n" -eq $calls ] || fail "$f: $n calls in the tree, expected $calls"
	# one call path each: every read comes the same way
	p=$(grep -c " $f\$" "$tmpdir/tree" || true)
	[ "$p" -eq 1 ] || fail "$f: $p call paths, expected 1"
done
[ "$(indent "$tmpdir/tree" vfs_read)" -gt "$(indent "$tmpdir/tree" ksys_read)" ] ||
	fail "vfs_read is not nested in ksys_read"
grep -q '^# calls not counted: 0$' "$tmpdir/tree" || fail "calls not counted"
grep -q "^perf fprobe: $((2 * calls)) calls, each counted in the kernel" "$tmpdir/tree.err" ||
	fail "no summary of $((2 * calls)) calls"
# a call path with its latency: self below total, p99 at most max
awk '$NF == "ksys_read" && $3 == "-" { bad = 1 } END { exit bad }' "$tmpdir/tree" ||
	fail "ksys_read has no self time"

# a histogram's buckets add up to the calls; no call path, the CSV agrees
if ! perf fprobe -b --call-graph none --hist --csv -a vfs_read -- $dd_reads \
	>"$tmpdir/hist" 2>"$tmpdir/hist.err"; then
	fail "perf fprobe -b --hist failed: $(cat "$tmpdir/hist.err")"
fi
cat "$tmpdir/hist"
n=$(awk -F'|' '/^ +[0-9.]+ [nmu]?s - / { n += $2 } END { print n + 0 }' "$tmpdir/hist")
[ "$n" -eq $calls ] || fail "histogram: its buckets hold $n calls, expected $calls"
grep -Eq "^vfs_read,$calls(,[0-9]+){5},0,0\$" "$tmpdir/hist" ||
	fail "no CSV line of vfs_read with $calls calls"

# perf ftrace latency -b counts the same calls (kprobes, a BPF skeleton too)
if perf ftrace latency -b -T vfs_read -- $dd_reads >"$tmpdir/ftrace" 2>&1; then
	n=$(awk -F'|' '/^ +[0-9]+ - / { n += $2 } END { print n + 0 }' "$tmpdir/ftrace")
	[ "$n" -eq $calls ] || fail "perf ftrace latency -b: $n calls, expected $calls"
else
	fail "perf ftrace latency -b failed: $(cat "$tmpdir/ftrace")"
fi

# --min-latency is applied in the kernel: no one-byte read takes a second
perf fprobe -b --min-latency 1s --csv -a vfs_read -- dd if=/dev/zero of=/dev/null bs=1 \
	count=100 >"$tmpdir/min" 2>&1 || fail "perf fprobe -b --min-latency failed"
grep -q '^vfs_read,' "$tmpdir/min" && fail "--min-latency 1s: calls counted"

# what -b cannot do is refused, saying why
refused() {
	local what=$1

	shift
	if perf fprobe "$@" -- true >"$tmpdir/err" 2>&1; then
		fail "$what: accepted"
	elif ! grep -q -- "-b " "$tmpdir/err"; then
		fail "$what: no -b error: $(cat "$tmpdir/err")"
	fi
}
refused "record -b" record -b -a vfs_read
refused "-b with a parameter" -b -a 'vfs_read count'
refused "-b --calls" -b --calls -a vfs_read
refused "-b --call-graph dwarf" -b --call-graph dwarf -a vfs_read

exit $err
