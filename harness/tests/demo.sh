#!/usr/bin/env bash
# make demo's guest part on the built kernel: it ends by itself (no pager
# waiting for a key on the guest's serial port) and prints plain text: the
# fprobe events it defines, the records of dd's reads, the perf fprobe
# reports with their vfs_read lines whole, and the flame graph it wrote.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

mkdir -p "$BUILD/check"
out=$BUILD/check/demo.out
s=0
"$TOP/harness/demo" >"$out" 2>&1 || s=$?
fail() {
	echo "FAIL: $*"
	echo "(the demo's output: $out)"
	exit 1
}
[ $s -ne 124 ] || fail "the demo did not end by itself (timed out)"
[ $s -eq 0 ] || fail "the demo exited $s"
grep -q "$(printf '\033')" "$out" && fail "escape sequences in the output (a pager or colours)"
grep -qi 'standard input' "$out" && fail "a pager's prompt in the output"
echo "ok: ended by itself (exit 0), plain text"

# The fprobe events, as dynamic_events lists them
grep -qx 'f:demo/read_entry vfs_read file=file count=count pos=pos' "$out" ||
	fail "no entry event in dynamic_events"
grep -qx 'f:demo/read_exit vfs_read%return ret=$retval' "$out" ||
	fail "no exit event in dynamic_events"
echo "ok: both fprobe events defined"

# dd's four 512-byte reads, entry and exit, and as many exits as entries
n=$(grep -c 'read_entry: (vfs_read+0x0/0x[0-9a-f]*) file=0x[0-9a-f]* count=512 pos=0x' "$out" || true)
[ "$n" -ge 4 ] || fail "$n entry records of 512-byte reads, expected dd's 4"
n=$(grep -c 'read_exit: (.* <- vfs_read) ret=512$' "$out" || true)
[ "$n" -ge 4 ] || fail "$n exit records returning 512, expected dd's 4"
grep -Eq '^# ([1-9][0-9]*) entry records, \1 exit records$' "$out" ||
	fail "entry and exit records do not pair: $(grep 'entry records' "$out")"
echo "ok: dd's reads traced at entry and exit"

# perf fprobe's call graph of dd's 64 reads: ksys_read calls vfs_read,
# whose line is whole (count, total, self, avg, max and p99, then the name:
# not cut at a terminal's width)
dur=' +[0-9.]+ (ns|us|ms|s)'
awk '/^# perf fprobe -a/ { on = 1 } /^# perf fprobe report/ { on = 0 } on' "$out" >"$out.tree"
grep -Eq "^ +[0-9]+($dur| +-)+ +ksys_read\$" "$out.tree" ||
	fail "no ksys_read line in perf fprobe's call graph"
line=$(grep -E "^ +[0-9]+($dur){5} +vfs_read\$" "$out.tree" | head -1)
[ -n "$line" ] || fail "no whole vfs_read line in perf fprobe's call graph: $(grep vfs_read "$out.tree")"
n=$(awk '{ print $1 }' <<<"$line")
[ "$n" -ge 64 ] || fail "vfs_read called $n times, dd read 64 blocks: '$line'"
echo "ok: the call graph has dd's $n vfs_read calls: '$line'"

# the report's histogram and calls, and perf report, list vfs_read
grep -Eq "^# vfs_read: [0-9]+ calls, total [0-9.]+ (ns|us|ms|s), avg " "$out" ||
	fail "no vfs_read histogram in perf fprobe report --hist"
grep -Eq "^ +[0-9]+\.[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ us +vfs_read\(count=512\) = 512\$" "$out" ||
	fail "no vfs_read(count=512) = 512 call in perf fprobe report --calls"
grep -Eq '^ +[0-9.]+% +[0-9.]+% +\[k\] vfs_read$' "$out" || fail "no vfs_read line in perf report"
echo "ok: the report's histogram, calls and perf report list vfs_read"

grep -Eq '^# flame graph: build/demo/flame.svg \([1-9][0-9]* bytes\)$' "$out" ||
	fail "no flame graph at the end"
echo "ok: the demo ends with its flame graph"
