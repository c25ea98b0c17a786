#!/bin/bash
# perf fprobe trace: calls printed live, --errors (DWARF, BTF only), -p target exit (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# perf fprobe trace prints each call as its record comes, while the
# workload runs; --errors leaves only the failing calls (in the kernel);
# with -p it ends when the traced task does, with --duration on time.
# Without the fprobe PMU it says so and fails.

# shellcheck source=lib/fprobe.sh
. "$(dirname "$0")"/lib/fprobe.sh

skip_if_no_fprobe

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.fprobe.XXXXXX)
fprobe_test_begin

if [ "$(fprobe_path)" != pmu ]; then
	if perf fprobe trace -a vfs_read -- true >"$tmpdir/out" 2>"$tmpdir/err"; then
		fail "perf fprobe trace without the fprobe PMU succeeded"
	fi
	grep -q 'fprobe trace needs the fprobe PMU: this kernel has no fprobe PMU' "$tmpdir/err" ||
		fail "no clear error without the PMU: $(cat "$tmpdir/err")"
	[ ! -s "$tmpdir/out" ] || fail "output without the PMU: $(cat "$tmpdir/out")"
	exit $err
fi

# Live: dd's three one-byte reads are printed while the workload still
# sleeps (it ends only when the test has seen them, or after a minute)
perf fprobe trace -a 'vfs_read count' -- sh -c "dd if=/dev/zero of=/dev/null bs=1 count=3 \
	2>/dev/null; i=0; while [ ! -e $tmpdir/seen ] && [ \$i -lt 600 ]; do \
	sleep 0.1; i=\$((i + 1)); done" >"$tmpdir/out" 2>"$tmpdir/err" &
perf_pid=$!
live=0
while kill -0 $perf_pid 2>/dev/null; do
	if [ "$(grep -c ' dd/[0-9]* .* vfs_read(.*count=1) = 1$' "$tmpdir/out")" -ge 3 ]; then
		live=1
		touch "$tmpdir/seen"
		break
	fi
	sleep 0.1
done
wait $perf_pid || fail "perf fprobe trace exits with $?: $(cat "$tmpdir/err")"
[ $live -eq 1 ] ||
	fail "the calls were not printed while the workload ran: $(cat "$tmpdir/out")"
n=$(grep -c ' dd/[0-9]* .* vfs_read(.*count=1) = 1$' "$tmpdir/out" || true)
echo "live: $n vfs_read(count=1) calls of dd printed while it ran"
[ "$n" -eq 3 ] || fail "expected 3 calls of dd, got $n: $(cat "$tmpdir/out")"
grep -q 'perf fprobe: [0-9]* calls' "$tmpdir/err" || fail "no summary: $(cat "$tmpdir/err")"

# --errors: among 30 good reads, the reads of a directory (EISDIR) only
perf fprobe trace -a 'vfs_read count' --errors -- sh -c \
	'dd if=/dev/zero of=/dev/null bs=1 count=30 2>/dev/null; cat / 2>/dev/null; true' \
	>"$tmpdir/out" 2>"$tmpdir/err" || fail "perf fprobe trace --errors: $(cat "$tmpdir/err")"
calls=$(grep -c ' vfs_read(' "$tmpdir/out" || true)
eisdir=$(grep -c ' cat/[0-9]* .* vfs_read(.*) = -21$' "$tmpdir/out" || true)
echo "--errors: $calls calls printed, $eisdir of them cat's EISDIR"
[ "$eisdir" -ge 1 ] || fail "--errors: the EISDIR read is not printed: $(cat "$tmpdir/out")"
[ "$eisdir" -eq "$calls" ] || fail "--errors: calls that did not fail: $(cat "$tmpdir/out")"

# The same on a kernel with BTF only (a distribution kernel): every place
# perf fprobe looks for a vmlinux hidden under an empty tmpfs, -V types
# vfs_read's parameters from BTF, and --errors prints the failing calls
# only, the return values typed from BTF
hide=
for d in "/lib/modules/$(uname -r)" /usr/lib/debug /boot; do
	[ -d "$d" ] && hide="$hide mount -t tmpfs none '$d' &&"
done
if [ -n "$hide" ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	work='dd if=/dev/zero of=/dev/null bs=1 count=30 2>/dev/null; cat / 2>/dev/null; true'
	unshare -m sh -c "$hide
		perf fprobe -V vfs_read >$tmpdir/btf.vars &&
		perf fprobe trace -a 'vfs_read count' --errors -- sh -c '$work'" \
		>"$tmpdir/out" 2>"$tmpdir/err" ||
		fail "BTF only: exit $?: $(cat "$tmpdir/err")"
	grep -q '^  from the BTF of /sys/kernel/btf/vmlinux$' "$tmpdir/btf.vars" ||
		fail "BTF only: -V does not read BTF: $(head -3 "$tmpdir/btf.vars")"
	grep -Eq '^  arg3 +count +size_t +u64$' "$tmpdir/btf.vars" ||
		fail "BTF only: -V vfs_read: count is not size_t/u64: $(cat "$tmpdir/btf.vars")"
	calls=$(grep -c ' vfs_read(' "$tmpdir/out" || true)
	eisdir=$(grep -c ' cat/[0-9]* .* vfs_read(count=[0-9]*) = -21$' "$tmpdir/out" || true)
	echo "BTF only, --errors: $calls calls printed, $eisdir of them cat's EISDIR"
	if [ "$eisdir" -lt 1 ] || [ "$eisdir" -ne "$calls" ]; then
		fail "BTF only, --errors: $(cat "$tmpdir/out")"
	fi
fi

# -p: the task sleeps until the test has seen one of its sleeps printed,
# then exits; perf fprobe trace ends by itself with it
sh -c "while [ ! -e $tmpdir/stop ]; do sleep 1; done" &
target=$!
timeout 60 perf fprobe trace -a hrtimer_nanosleep -p $target >"$tmpdir/out" 2>"$tmpdir/err" &
perf_pid=$!
wait_attached $perf_pid ||
	fail "-p: perf fprobe trace ended before it attached: $(cat "$tmpdir/err")"
while kill -0 $perf_pid 2>/dev/null &&
	! grep -q ' sleep/[0-9]* .* hrtimer_nanosleep(' "$tmpdir/out"; do
	sleep 0.1
done
touch "$tmpdir/stop"
rc=0
wait $perf_pid || rc=$?
[ $rc -eq 0 ] || fail "-p: perf fprobe trace exits with $rc (124: it did not end with its task)"
n=$(grep -c ' sleep/[0-9]* .* hrtimer_nanosleep(' "$tmpdir/out" || true)
echo "-p: $n sleeps of the task printed, then the trace ended with it"
[ "$n" -ge 1 ] || fail "-p: no sleep printed: $(cat "$tmpdir/out")"
wait $target 2>/dev/null

# --duration: ends on time, system wide
rc=0
timeout 60 perf fprobe trace -A --duration 1 -a ksys_read >/dev/null 2>"$tmpdir/err" || rc=$?
[ $rc -eq 0 ] || fail "-A --duration 1 exits with $rc: $(cat "$tmpdir/err")"

# no file, no report output
if perf fprobe trace -o "$tmpdir/x" -a vfs_read -- true 2>"$tmpdir/err"; then
	fail "perf fprobe trace -o accepted"
fi
grep -q 'takes no -o' "$tmpdir/err" || fail "no error for -o: $(cat "$tmpdir/err")"

exit $err
