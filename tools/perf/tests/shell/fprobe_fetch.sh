#!/bin/bash
# perf fprobe: PARAM:ustring and PARAM->member on the PMU and tracefs, bad paths refused (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# The file names cat opens (do_sys_openat2's filename, a user pointer) and
# a member of its struct open_how, read at entry: printed live by perf
# fprobe trace, listed by report --calls and shown by perf script, through
# the fprobe PMU and through fprobe events in tracefs. A path through a
# member a struct does not have, a '->' of a non-pointer or a :string of a
# non-char pointer is refused with an error naming it.

# shellcheck source=lib/fprobe.sh
. "$(dirname "$0")"/lib/fprobe.sh

skip_if_no_fprobe

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.fprobe.XXXXXX)
fprobe_test_begin

probe='do_sys_openat2 dfd filename:ustring how->flags:x64'
# O_RDONLY | O_LARGEFILE on the 64-bit architectures, as cat opens
want='filename="/etc/hostname", flags=0x'

# -V -v: the members of struct open_how
perf fprobe -v -V do_sys_openat2 >"$tmpdir/vars" 2>"$tmpdir/err" ||
	fail "-V -v do_sys_openat2 exits with $?: $(cat "$tmpdir/err")"
grep -q -- '->flags .* at +0$' "$tmpdir/vars" ||
	fail "-V -v lists no member flags of struct open_how: $(cat "$tmpdir/vars")"

# bad paths: refused before anything is attached, naming the wrong part
check_bad() {
	if perf fprobe record -o "$tmpdir/bad.data" -a "$1" -- true >/dev/null 2>"$tmpdir/err"; then
		fail "-a '$1' accepted"
	fi
	grep -q -- "$2" "$tmpdir/err" || fail "-a '$1': no error naming '$2': $(cat "$tmpdir/err")"
}
check_bad 'do_sys_openat2 how->nope' "no member 'nope'"
check_bad 'do_sys_openat2 dfd->x' "'dfd' in 'dfd->x' is not a pointer"
check_bad 'do_sys_openat2 how:string' 'no :string of it'
check_bad 'do_sys_openat2 nope->x' "no parameter 'nope'"
check_bad 'do_sys_openat2 how->flags:q8' "invalid type 'q8'"
check_bad 'vfs_read file->f_path.dentry->d_iname:ustring' 'use :string, not :ustring'

if [ "$(fprobe_path)" = pmu ]; then
	perf fprobe trace -a "$probe" -- cat /etc/hostname >"$tmpdir/out" 2>"$tmpdir/err" ||
		fail "perf fprobe trace exits with $?: $(cat "$tmpdir/err")"
	grep -q " cat/[0-9]* .*do_sys_openat2(dfd=-100, ${want}[0-9a-f]*) = [0-9]" "$tmpdir/out" ||
		fail "trace: no open of /etc/hostname: $(cat "$tmpdir/out") $(cat "$tmpdir/err")"
	echo "trace: $(grep -c 'do_sys_openat2(' "$tmpdir/out") opens printed"
	paths="pmu tracefs"
else
	paths=tracefs
fi

for path in $paths; do
	opt=
	[ "$path" = tracefs ] && opt=--tracefs
	if [ "$path" = tracefs ] && ! fprobe_events_in_tracefs; then
		continue
	fi
	# shellcheck disable=SC2086 # opt is empty or one word
	perf fprobe record $opt -o "$tmpdir/$path.data" -a "$probe" -- cat /etc/hostname \
		>/dev/null 2>"$tmpdir/err" ||
		fail "$path: record exits with $?: $(cat "$tmpdir/err")"
	perf fprobe report -i "$tmpdir/$path.data" --calls >"$tmpdir/calls" 2>"$tmpdir/err" ||
		fail "$path: report exits with $?: $(cat "$tmpdir/err")"
	grep -q "do_sys_openat2(dfd=-100, ${want}[0-9a-f]*) = [0-9]" "$tmpdir/calls" ||
		fail "$path: report --calls has no open of /etc/hostname: $(cat "$tmpdir/calls")"
	echo "$path: $(grep -c 'do_sys_openat2(' "$tmpdir/calls") opens listed"
	perf script -i "$tmpdir/$path.data" >"$tmpdir/script" 2>"$tmpdir/err" ||
		fail "$path: perf script exits with $?: $(cat "$tmpdir/err")"
	grep -q 'filename="/etc/hostname"' "$tmpdir/script" ||
		fail "$path: perf script shows no filename: $(cat "$tmpdir/script")"
	# the PMU's samples: the entry record with what it fetched, the exit
	# record with the return value, the parameters of the event's name
	if [ "$path" = pmu ]; then
		grep -q ": do_sys_openat2(dfd=-100, ${want}[0-9a-f]*)\$" "$tmpdir/script" ||
			fail "pmu: perf script shows no entry of the open: $(cat "$tmpdir/script")"
		grep -q ': do_sys_openat2(dfd=-100) = [0-9]' "$tmpdir/script" ||
			fail "pmu: perf script shows no exit of the open: $(cat "$tmpdir/script")"
	fi
done

exit $err
