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

# paths FILE: each line of the tree of FILE as "frame;...;function count",
# its place found by its indentation under the header's "call path"
paths() {
	awk '/^#.* call path$/ { off = index($0, "call path") }
	     off && /^ +[0-9]+ / {
		rest = substr($0, off); d = (match(rest, /[^ ]/) - 1) / 2
		k[d] = substr(rest, 2 * d + 1); key = k[0]
		for (i = 1; i <= d; i++) key = key ";" k[i]
		print key, $1 }' "$1" | sort
}

# grown A B: "path count" of each line of tree B less its count in tree A
grown() {
	paths "$1" >"$tmpdir/paths.a"
	paths "$2" >"$tmpdir/paths.b"
	awk 'FILENAME == ARGV[1] { a[$1] = $2; next } { print $1, $2 - a[$1] }' \
		"$tmpdir/paths.a" "$tmpdir/paths.b"
}

# The reads dd makes as it starts (a dynamically linked dd reads its
# libraries) are counted apart, by a run with count=0, and taken out.
exact() { # OUT COUNT ARGS...: perf fprobe -b ARGS on dd's COUNT reads
	local out=$1 count=$2

	shift 2
	if ! perf fprobe -b "$@" -- dd if=/dev/zero of=/dev/null bs=1 count="$count" \
		>"$out" 2>"$out.err"; then
		fail "perf fprobe -b $* (count=$count) failed: $(cat "$out.err")"
	fi
}

# the call paths: ksys_read, and vfs_read nested in it
exact "$tmpdir/tree0" 0 -a ksys_read -a vfs_read
exact "$tmpdir/tree" $calls -a ksys_read -a vfs_read
cat "$tmpdir/tree.err" "$tmpdir/tree"
grown "$tmpdir/tree0" "$tmpdir/tree" >"$tmpdir/grown"
# every line grew by all the calls or by none; ksys_read by all, and
# vfs_read in it by all
awk -v n=$calls '$2 != 0 && $2 != n { exit 1 }' "$tmpdir/grown" ||
	fail "a call path grew by neither 0 nor $calls: $(cat "$tmpdir/grown")"
grep -Eq ";ksys_read $calls\$" "$tmpdir/grown" ||
	fail "ksys_read did not grow by $calls calls: $(cat "$tmpdir/grown")"
grep -Eq ";ksys_read;vfs_read $calls\$" "$tmpdir/grown" ||
	fail "vfs_read in ksys_read did not grow by $calls calls: $(cat "$tmpdir/grown")"
grep -q '^# calls not counted: 0$' "$tmpdir/tree" || fail "calls not counted"
summed() { sed -n 's/^perf fprobe: \([0-9]*\) calls, each counted in the kernel$/\1/p' "$1"; }
n=$(summed "$tmpdir/tree.err")
n0=$(summed "$tmpdir/tree0.err")
[ "$((n - n0))" -eq $((2 * calls)) ] ||
	fail "the summaries say $n and $n0 calls: not $((2 * calls)) more"
# ksys_read's line: its self time below its total, its p99 at most its max
awk 'function ns(v, u) { return v * (u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "us" ? 1e3 : 1) }
     $NF == "ksys_read" && $1 ~ /^[0-9]+$/ {
	seen = 1
	if ($4 == "-" || ns($4, $5) >= ns($2, $3) || ns($10, $11) > ns($8, $9)) bad = 1 }
     END { exit !seen || bad }' "$tmpdir/tree" ||
	fail "ksys_read: no self time below its total, or a p99 over its max"

# a histogram's buckets add up to the calls; no call path, the CSV agrees
exact "$tmpdir/hist0" 0 --call-graph none --csv -a vfs_read
exact "$tmpdir/hist" $calls --call-graph none --hist --csv -a vfs_read
cat "$tmpdir/hist"
csv() { awk -F, '$1 == "vfs_read" { n = $2 } END { print n + 0 }' "$1"; }
n=$(awk -F'|' '/^ +[0-9.]+ [nmu]?s - / { n += $2 } END { print n + 0 }' "$tmpdir/hist")
[ "$n" -eq "$(csv "$tmpdir/hist")" ] ||
	fail "histogram: its buckets hold $n calls, the CSV line $(csv "$tmpdir/hist")"
[ "$(($(csv "$tmpdir/hist") - $(csv "$tmpdir/hist0")))" -eq $calls ] ||
	fail "CSV: $(csv "$tmpdir/hist") calls, $(csv "$tmpdir/hist0") of count=0: not $calls more"

# perf ftrace latency -b counts the same calls (kprobes, a BPF skeleton too)
latency() { # COUNT: the calls perf ftrace latency -b counts of dd's COUNT reads
	if ! perf ftrace latency -b -T vfs_read -- dd if=/dev/zero of=/dev/null bs=1 \
		count="$1" >"$tmpdir/ftrace" 2>&1; then
		fail "perf ftrace latency -b failed: $(cat "$tmpdir/ftrace")"
		return
	fi
	awk -F'|' '/^ +[0-9]+ - / { n += $2 } END { print n + 0 }' "$tmpdir/ftrace"
}
n0=$(latency 0)
n=$(latency $calls)
[ "$((n - n0))" -eq $calls ] || fail "perf ftrace latency -b: $n and $n0 calls, not $calls more"

# --min-latency is applied in the kernel: no one-byte read takes a second
perf fprobe -b --min-latency 1s --csv -a vfs_read -- dd if=/dev/zero of=/dev/null bs=1 \
	count=100 >"$tmpdir/min" 2>&1 || fail "perf fprobe -b --min-latency failed"
grep -q '^function,count,' "$tmpdir/min" || fail "--min-latency 1s: no CSV: $(cat "$tmpdir/min")"
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
