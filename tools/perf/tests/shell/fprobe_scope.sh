#!/bin/bash
# perf fprobe: -G records only the calls inside a function, exact counts on dd (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# dd bs=1 count=10 makes 10 vfs_read and 10 vfs_write calls (and one
# more write, of its summary), each calling rw_verify_area once. With -G
# vfs_read the fprobe PMU sees vfs_read and the 10 rw_verify_area calls
# inside it, and no vfs_write; without -G, all of them. A scope that
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
grep -q -- '-G needs an fprobe PMU' "$tmpdir/err" || fail "--tracefs -G: $(cat "$tmpdir/err")"

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
	if [ -z "$scope" ]; then
		# dd's writes, and that of its summary to stderr
		[ "$r" -eq 10 ] && [ "$w" -ge 10 ] && [ "$v" -eq $((r + w)) ] ||
			fail "without -G: expected 10, 10 or more, the sum: $(cat "$tmpdir/calls")"
	else
		[ "$r" -eq 10 ] && [ "$w" -eq 0 ] && [ "$v" -eq 10 ] ||
			fail "-G vfs_read: expected 10, 0, 10: $(cat "$tmpdir/calls")"
	fi
done

exit $err
