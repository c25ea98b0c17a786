#!/bin/bash
# perf fprobe: -G records only the calls inside a function, counts on dd (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# dd bs=1 count=10 makes 10 vfs_read and 10 vfs_write calls (and one
# more write, of its summary), each calling rw_verify_area once. With -G
# vfs_read the fprobe PMU sees the same vfs_read calls and the
# rw_verify_area calls inside them, and no vfs_write; without -G, all. A scope that
# matches no function, and a scope on the tracefs path, which has none,
# are refused.

# shellcheck source=lib/fprobe.sh
. "$(dirname "$0")"/lib/fprobe.sh

skip_if_no_fprobe

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.fprobe.XXXXXX)
fprobe_test_begin

if perf fprobe record --tracefs -o "$tmpdir/t.data" -a vfs_read -G ksys_read -- true \
	>/dev/null 2>"$tmpdir/err"; then
	fail "-G with --tracefs accepted"
fi
# refused, saying why the PMU is not used
grep -q -- '-G needs an fprobe PMU .*: --tracefs$' "$tmpdir/err" ||
	fail "--tracefs -G: $(cat "$tmpdir/err")"

if [ "$(fprobe_path)" != pmu ]; then
	echo "no fprobe PMU: -G is refused, as checked"
	exit $err
fi

if perf fprobe record -o "$tmpdir/n.data" -a vfs_read -G no_such_function_xyz -- true \
	>/dev/null 2>"$tmpdir/err"; then
	fail "-G no_such_function_xyz accepted"
fi
grep -q -- "-G 'no_such_function_xyz' matches no traceable function" "$tmpdir/err" ||
	fail "-G no_such_function_xyz: $(cat "$tmpdir/err")"

# count NAME FILE: the calls of NAME listed by report --calls
count() {
	grep -c " $1(" "$2" || true
}

for scope in "" "-G vfs_read"; do
	# shellcheck disable=SC2086 # scope is empty or two words
	perf fprobe record -o "$tmpdir/s.data" -a 'vfs_read,vfs_write,rw_verify_area' $scope -- \
		dd if=/dev/zero of=/dev/null bs=1 count=10 >/dev/null 2>"$tmpdir/err" ||
		fail "record $scope exits with $?: $(cat "$tmpdir/err")"
	perf fprobe report -i "$tmpdir/s.data" --calls >"$tmpdir/calls" 2>"$tmpdir/err" ||
		fail "report exits with $?: $(cat "$tmpdir/err")"
	r=$(count vfs_read "$tmpdir/calls")
	w=$(count vfs_write "$tmpdir/calls")
	v=$(count rw_verify_area "$tmpdir/calls")
	echo "${scope:-no scope}: vfs_read $r, vfs_write $w, rw_verify_area $v"
	# dd's reads (and a dynamically linked one's of its libraries), its
	# writes and that of its summary; each checked once
	if [ -z "$scope" ]; then
		[ "$r" -ge 10 ] && [ "$w" -ge 10 ] && [ "$v" -eq $((r + w)) ] ||
			fail "without -G: 10 or more each, and their sum: $(cat "$tmpdir/calls")"
		reads=$r
	else
		[ "$r" -eq "$reads" ] && [ "$w" -eq 0 ] && [ "$v" -eq "$r" ] ||
			fail "-G vfs_read: expected $reads, 0, $reads: $(cat "$tmpdir/calls")"
	fi
done

exit $err
