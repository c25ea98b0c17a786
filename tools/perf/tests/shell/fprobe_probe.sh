#!/bin/bash
# perf fprobe: -V and -F, bad probes, and what a run attaches and skips (exclusive)
# SPDX-License-Identifier: GPL-2.0

# No set -e: a command that fails where it should not is a failure named
# by fail(), not a silent exit halfway through.

# shellcheck source=lib/fprobe.sh
. "$(dirname "$0")"/lib/fprobe.sh

skip_if_no_fprobe

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.fprobe.XXXXXX)
fprobe_test_begin

fails=
fail() {
	echo "FAIL: $*"
	fails="$fails
FAIL: $*"
	err=1
}

# -V: the parameters of vfs_read by name with their types, from the DWARF
# of vmlinux or, on a kernel with only BTF, from BTF (spelt "struct file *")
perf fprobe -V vfs_read >"$tmpdir/vars" || fail "-V vfs_read exits with $?"
cat "$tmpdir/vars"
if grep -q '^  from the DWARF of ' "$tmpdir/vars"; then
	proto='^ssize_t vfs_read(struct file\* file, char\* buf, size_t count, loff_t\* pos)$'
elif grep -q '^  from the BTF of ' "$tmpdir/vars"; then
	proto='^ssize_t vfs_read(struct file \* file, char \* buf, size_t count, loff_t \* pos)$'
else
	fail "-V vfs_read does not say what it read"
fi
grep -q "$proto" "$tmpdir/vars" || fail "-V vfs_read prototype"
grep -Eq '^  arg3 +count +size_t +u64$' "$tmpdir/vars" ||
	fail "-V vfs_read: count is not size_t/u64"
grep -Eq '^  return +ssize_t +s64$' "$tmpdir/vars" || fail "-V vfs_read: return type"

# --btf: the same parameters in the same registers from the kernel's BTF
if [ -r /sys/kernel/btf/vmlinux ]; then
	perf fprobe --btf -V vfs_read >"$tmpdir/btf" || fail "--btf -V vfs_read exits with $?"
	cat "$tmpdir/btf"
	grep -q '^  from the BTF of /sys/kernel/btf/vmlinux$' "$tmpdir/btf" ||
		fail "--btf -V vfs_read does not say it read BTF"
	proto='^ssize_t vfs_read(struct file \* file, char \* buf, size_t count, loff_t \* pos)$'
	grep -q "$proto" "$tmpdir/btf" || fail "--btf -V vfs_read prototype"
	if [ "$(awk '/^  arg/ { print $1, $2, $NF }' "$tmpdir/vars")" != \
	     "$(awk '/^  arg/ { print $1, $2, $NF }' "$tmpdir/btf")" ]; then
		fail "DWARF and BTF place the parameters of vfs_read differently"
	fi

	# a struct by value is in two registers: said, and refused as a parameter
	if grep -qx timespec64_add_safe /sys/kernel/tracing/available_filter_functions; then
		f=timespec64_add_safe
		for src in "" --btf; do
			perf fprobe $src -V $f >"$tmpdir/sv" || fail "$src -V $f exits with $?"
			grep -Eq '^  - +lhs .*not captured: .*two registers.*struct by value' \
				"$tmpdir/sv" ||
				fail "$src -V $f: lhs not a struct by value: $(cat "$tmpdir/sv")"
			if perf fprobe $src -a "$f lhs" -- true 2>"$tmpdir/err"; then
				fail "$src: a struct by value accepted as a parameter"
			fi
			grep -q "'lhs' of $f cannot be captured" "$tmpdir/err" ||
				fail "$src: no error for a struct by value: $(cat "$tmpdir/err")"
		done
	fi

	# recorded with BTF's registers: every ksys_read(count=1) of dd bs=1
	perf fprobe --btf -a 'ksys_read count' --calls -- \
		dd if=/dev/zero of=/dev/null bs=1 count=10 >"$tmpdir/calls" 2>"$tmpdir/err" ||
		fail "--btf -a 'ksys_read count' exits with $?: $(cat "$tmpdir/err")"
	n=$(grep -c ' ksys_read(.*count=1) = 1$' "$tmpdir/calls" || true)
	[ "$n" -eq 10 ] || fail "--btf 'ksys_read count': $n ksys_read(count=1) = 1, expected 10"

	# with no vmlinux to be found (a distribution kernel), BTF is taken:
	# every place perf fprobe looks for one hidden under an empty tmpfs
	hide=
	for d in "/lib/modules/$(uname -r)" /usr/lib/debug /boot; do
		[ -d "$d" ] && hide="$hide mount -t tmpfs none '$d' &&"
	done
	if [ -n "$hide" ] && command -v unshare >/dev/null &&
	   unshare -m true 2>/dev/null; then
		unshare -m sh -c "$hide
			perf fprobe -V vfs_read &&
			perf fprobe -a 'ksys_read count' --calls -- \
				dd if=/dev/zero of=/dev/null bs=1 count=10" \
			>"$tmpdir/nodwarf" 2>"$tmpdir/err" ||
			fail "without a vmlinux: exit $?: $(cat "$tmpdir/err")"
		grep -q '^  from the BTF of /sys/kernel/btf/vmlinux$' "$tmpdir/nodwarf" ||
			fail "without a vmlinux, -V does not read BTF: $(head -3 "$tmpdir/nodwarf")"
		n=$(grep -c ' ksys_read(.*count=1) = 1$' "$tmpdir/nodwarf" || true)
		[ "$n" -eq 10 ] || fail "without a vmlinux: $n ksys_read(count=1) = 1, expected 10"
	fi
fi

# -F: traceable functions by glob, as perf probe -F and perf ftrace -F
perf fprobe -F 'vfs_rea*' >"$tmpdir/list" || fail "-F 'vfs_rea*' exits with $?"
grep -qx vfs_read "$tmpdir/list" || fail "-F 'vfs_rea*' does not list vfs_read"
if grep -v '^vfs_rea' "$tmpdir/list"; then
	fail "-F 'vfs_rea*' lists functions that do not match"
fi
perf fprobe --funcs='vfs_rea*' | cmp -s - "$tmpdir/list" ||
	fail "--funcs='vfs_rea*' does not list what -F 'vfs_rea*' does"
if perf fprobe -F 'no_such_function_*' >/dev/null 2>&1; then
	fail "-F with no match succeeds"
fi

# a misspelt function alone: nothing to attach, an error naming the close
# matches, exit status != 0
if perf fprobe -a vfs_raed -- true 2>"$tmpdir/err"; then
	fail "unknown function accepted"
fi
cat "$tmpdir/err"
grep -q 'skipped vfs_raed: unknown function' "$tmpdir/err" || fail "no 'unknown function' error"
grep -q 'close matches.* vfs_read' "$tmpdir/err" || fail "vfs_read not suggested"
grep -q 'no function can be attached: skipped 1 (1 unknown)$' "$tmpdir/err" ||
	fail "no 'no function can be attached' error"

# a misspelt parameter: the close parameter names
if perf fprobe -a 'vfs_read cuont' -- true 2>"$tmpdir/err"; then
	fail "unknown parameter accepted"
fi
cat "$tmpdir/err"
grep -q "vfs_read has no parameter 'cuont'" "$tmpdir/err" || fail "no parameter error"
grep -q 'close matches.* count' "$tmpdir/err" || fail "count not suggested"

# a glob with a parameter some of its matches lack (ksys_lseek has no
# count): traced, the others without it; a parameter no match has is a typo
if ! perf fprobe -a 'ksys_* count' --calls -- \
	sh -c 'dd if=/dev/zero of=/dev/null bs=1 count=10; sync' \
	>"$tmpdir/calls" 2>"$tmpdir/err"; then
	fail "a glob whose matches do not all have the parameter: $(cat "$tmpdir/err")"
fi
grep -q "'ksys_\* count': [0-9]* of the [0-9]* functions it matches lack some" "$tmpdir/err" ||
	fail "the matches without the parameter are not said: $(cat "$tmpdir/err")"
n=$(grep -c ' ksys_read(.*count=1) = 1$' "$tmpdir/calls" || true)
[ "$n" -eq 10 ] || fail "'ksys_* count': $n ksys_read(count=1) calls, expected 10"
# a function shows only parameters it has, by name: ksys_sync() none
grep -q ' ksys_sync()$' "$tmpdir/calls" ||
	fail "'ksys_* count': no ksys_sync() without arguments:" \
		"$(grep -m3 ksys_sync "$tmpdir/calls")"
if grep -q 'arg[0-9]*=' "$tmpdir/calls"; then
	fail "'ksys_* count': registers shown beyond a function's parameters:" \
		"$(grep -m3 'arg[0-9]*=' "$tmpdir/calls")"
fi
if perf fprobe -a 'ksys_* cuont' -- true 2>"$tmpdir/err"; then
	fail "a glob with a parameter none of its matches has accepted"
fi
grep -q "no function matching 'ksys_\*' has a parameter 'cuont'" "$tmpdir/err" ||
	fail "no error for a parameter no match has: $(cat "$tmpdir/err")"

# a function the kernel has but ftrace cannot trace
notrace=$(awk 'FILENAME != "/proc/kallsyms" { avail[$1] = 1; next }
	$2 ~ /^[tT]$/ && $3 ~ /^[a-z_][a-z0-9_]*$/ && !($3 in avail) { print $3; exit }' \
	/sys/kernel/tracing/available_filter_functions /proc/kallsyms) ||
	fail "reading available_filter_functions and kallsyms"
if [ -n "$notrace" ]; then
	if perf fprobe -a "$notrace" -- true 2>"$tmpdir/err"; then
		fail "notrace function $notrace accepted"
	fi
	cat "$tmpdir/err"
	grep -q "skipped $notrace: not traceable" "$tmpdir/err" || fail "no 'not traceable' error"
fi

# -N/--notrace-funcs (perf ftrace's): a function the not-filter takes out
# is an error, as is a glob left with no function
if perf fprobe -a vfs_read -N 'ksys_*,vfs_*' -- true 2>"$tmpdir/err"; then
	fail "an excluded function accepted"
fi
cat "$tmpdir/err"
grep -q "skipped vfs_read: excluded by --notrace-funcs 'ksys_\*,vfs_\*'" "$tmpdir/err" ||
	fail "no 'excluded' error"
if perf fprobe -a 'vfs_rea*' --notrace-funcs='vfs_*' -- true 2>"$tmpdir/err"; then
	fail "a glob with every function excluded accepted"
fi
grep -q "no traceable function matches 'vfs_rea\*' (less --notrace-funcs)" "$tmpdir/err" ||
	fail "no 'no traceable function' error with -N: $(cat "$tmpdir/err")"

# ---- what a run attaches and skips ----

# a list with an unknown name: vfs_read is attached and recorded, the other
# named in a warning, and the run says what it attached and skipped (with
# -v, each function skipped and why)
if ! perf fprobe record -v -a 'vfs_read,fprobe_no_such_fn' -o "$tmpdir/list.data" -- \
	dd if=/dev/zero of=/dev/null bs=1 count=10 >/dev/null 2>"$tmpdir/err"; then
	fail "-a 'vfs_read,fprobe_no_such_fn' fails: $(cat "$tmpdir/err")"
fi
grep -E 'skipped|attached' "$tmpdir/err"
grep -q '^perf fprobe: skipped fprobe_no_such_fn: unknown function' "$tmpdir/err" ||
	fail "'vfs_read,fprobe_no_such_fn': no warning naming fprobe_no_such_fn"
grep -q '^perf fprobe: attached 1 function, skipped 1 (1 unknown)$' "$tmpdir/err" ||
	fail "'vfs_read,fprobe_no_such_fn': no summary of what was attached"
grep -q '^perf fprobe:   skipped fprobe_no_such_fn: unknown function' "$tmpdir/err" ||
	fail "'vfs_read,fprobe_no_such_fn' -v: the skipped function is not listed"
n=$(perf fprobe report -i "$tmpdir/list.data" --calls 2>/dev/null |
	grep -c ' vfs_read() = 1$' || true)
[ "$n" -eq 10 ] || fail "'vfs_read,fprobe_no_such_fn': $n vfs_read() = 1 recorded, expected 10"

# the same summary from the other modes that attach: record and report, trace
perf fprobe -a 'vfs_read,fprobe_no_such_fn' -- true >/dev/null 2>"$tmpdir/err" ||
	fail "perf fprobe -a 'vfs_read,fprobe_no_such_fn' fails: $(cat "$tmpdir/err")"
grep -q '^perf fprobe: attached 1 function, skipped 1 (1 unknown)$' "$tmpdir/err" ||
	fail "perf fprobe (record and report): no summary: $(cat "$tmpdir/err")"
if [ "$(fprobe_path)" = pmu ]; then
	perf fprobe trace -a 'vfs_read,fprobe_no_such_fn' -- true >/dev/null 2>"$tmpdir/err" ||
		fail "perf fprobe trace -a 'vfs_read,fprobe_no_such_fn' fails: $(cat "$tmpdir/err")"
	grep -q '^perf fprobe: attached 1 function, skipped 1 (1 unknown)$' "$tmpdir/err" ||
		fail "perf fprobe trace: no summary: $(cat "$tmpdir/err")"
fi

# every name bad: nothing to attach, an error with the reasons
if perf fprobe record -a 'fprobe_no_such_fn,fprobe_no_such_fn2' -o "$tmpdir/none.data" \
	-- true 2>"$tmpdir/err"; then
	fail "a run with nothing to attach succeeds"
fi
grep -q '^no function can be attached: skipped 2 (2 unknown)$' "$tmpdir/err" ||
	fail "no error for a run with nothing to attach: $(cat "$tmpdir/err")"
grep -q 'skipped fprobe_no_such_fn2: unknown function' "$tmpdir/err" ||
	fail "fprobe_no_such_fn2 not named: $(cat "$tmpdir/err")"

# --dry-run: the functions of a glob (as -F lists them), each one skipped
# with why (a notrace function: not traceable), and the summary; exit 0
perf fprobe --dry-run -a "vfs_rea*,${notrace:-fprobe_no_such_fn}" \
	>"$tmpdir/dry" 2>"$tmpdir/err" || fail "--dry-run exits with $?: $(cat "$tmpdir/err")"
cat "$tmpdir/dry" "$tmpdir/err"
perf fprobe -F 'vfs_rea*' >"$tmpdir/list"
grep -v 'skipped: ' "$tmpdir/dry" | cmp -s - "$tmpdir/list" ||
	fail "--dry-run -a 'vfs_rea*' does not list what -F 'vfs_rea*' does"
nr=$(wc -l <"$tmpdir/list")
if [ -n "$notrace" ]; then
	grep -q "^$notrace	skipped: not traceable: notrace" "$tmpdir/dry" ||
		fail "--dry-run: $notrace not listed as not traceable"
	why="not traceable"
else
	why=unknown
fi
grep -q "^perf fprobe: dry run, with .*: would attach $nr functions, skipped 1 (1 $why)$" \
	"$tmpdir/err" || fail "--dry-run: no summary of $nr functions and 1 $why"

# --dry-run attaches nothing: traced by perf fprobe, it makes no
# perf_event_open() and no write to dynamic_events, where a run does
opens='__*sys_perf_event_open,dyn_event_write'
nr_opens() {
	perf fprobe report -i "$1" --calls 2>/dev/null |
		grep -cE ' ([_a-z0-9]*sys_perf_event_open|dyn_event_write)\(' || true
}
perf fprobe record -a "$opens" -o "$tmpdir/dry.data" -- \
	perf fprobe --dry-run -a 'vfs_read,fprobe_no_such_fn' >/dev/null 2>"$tmpdir/err" ||
	fail "recording a --dry-run fails: $(cat "$tmpdir/err")"
n=$(nr_opens "$tmpdir/dry.data")
[ "$n" = 0 ] || fail "--dry-run opened events or wrote dynamic_events: $n calls" \
	"$(perf fprobe report -i "$tmpdir/dry.data" --calls 2>&1 | head -5)"
perf fprobe record -a "$opens" -o "$tmpdir/run.data" -- \
	perf fprobe record -a 'vfs_read,fprobe_no_such_fn' -o "$tmpdir/inner.data" -- true \
	>/dev/null 2>"$tmpdir/err" || fail "recording a run fails: $(cat "$tmpdir/err")"
n=$(nr_opens "$tmpdir/run.data")
[ "$n" -gt 0 ] || fail "the control run made no perf_event_open() or dynamic_events write"

# a function inlined everywhere (no symbol, inline in the DWARF)
if perf fprobe -V vfs_read | grep -q '^  from the DWARF of ' &&
   ! grep -q ' get_current$' /proc/kallsyms; then
	perf fprobe --dry-run -a 'vfs_read,get_current' >"$tmpdir/dry" 2>"$tmpdir/err" ||
		fail "--dry-run -a 'vfs_read,get_current' exits with $?: $(cat "$tmpdir/err")"
	grep -q '^get_current	skipped: not traceable: inlined everywhere' "$tmpdir/dry" ||
		fail "get_current not said to be inlined: $(cat "$tmpdir/dry" "$tmpdir/err")"
	grep -q 'skipped 1 (1 inlined)$' "$tmpdir/err" ||
		fail "get_current not counted as inlined: $(cat "$tmpdir/err")"
fi

# a name several functions have, with a parameter asked: skipped, as the
# parameters of which one a call is are not known
dup=$(awk '$1 ~ /^[a-z_][a-z0-9_]*$/ && !$2 && seen[$1]++ { print $1; exit }' \
	/sys/kernel/tracing/available_filter_functions)
if [ -n "$dup" ] && perf fprobe -V vfs_read | grep -q '^  from the DWARF of '; then
	perf fprobe --dry-run -a vfs_read -a "$dup x" >"$tmpdir/dry" 2>"$tmpdir/err" ||
		fail "--dry-run -a '$dup x' exits with $?: $(cat "$tmpdir/err")"
	grep -q "^$dup	skipped: ambiguous: " "$tmpdir/dry" ||
		fail "$dup (listed twice) not said to be ambiguous:" \
			"$(cat "$tmpdir/dry" "$tmpdir/err")"
fi

# the caps: the tracefs fallback takes 128 functions, the fprobe PMU
# caps/max_funcs per event (on a kernel with more traceable functions), the
# first by name
nr=$(awk '{ print $1 }' /sys/kernel/tracing/available_filter_functions | sort -u | wc -l)
perf fprobe --tracefs --dry-run -a '*' >"$tmpdir/dry" 2>"$tmpdir/err" ||
	fail "--tracefs --dry-run -a '*' exits with $?: $(cat "$tmpdir/err")"
grep -q "would attach 128 functions, skipped $((nr - 128)) ($((nr - 128)) over the cap)$" \
	"$tmpdir/err" || fail "--tracefs: no cap of 128 functions: $(tail -1 "$tmpdir/err")"
[ "$(grep -vc 'skipped: over the cap' "$tmpdir/dry")" = 128 ] ||
	fail "--tracefs --dry-run -a '*' lists $(grep -vc 'skipped: ' "$tmpdir/dry") functions"
max=$(cat /sys/bus/event_source/devices/fprobe/caps/max_funcs 2>/dev/null || echo 0)
if [ "$(fprobe_path)" = pmu ] && [ "$nr" -gt "$max" ]; then
	perf fprobe --dry-run -a '*' >"$tmpdir/dry" 2>"$tmpdir/err" ||
		fail "--dry-run -a '*' exits with $?: $(cat "$tmpdir/err")"
	# (names listed twice make the attached count less than the cap)
	grep -q " over the cap)$" "$tmpdir/err" ||
		fail "no cap of $max functions: $(tail -1 "$tmpdir/err")"
	[ "$(grep -vc 'skipped: ' "$tmpdir/dry")" -le "$max" ] ||
		fail "--dry-run -a '*' lists more than $max functions"
else
	echo "$nr traceable functions, the PMU takes $max: its cap not tried"
fi

# -N globs longer than the PMU takes: a dry run fails as the run would,
# saying why, and neither reaches the kernel
if [ "$(fprobe_path)" = pmu ]; then
	long=$(printf 'fprobe_no_such_fn_%04d,' $(seq 1 250))
	for dry in --dry-run ''; do
		if perf fprobe record $dry -a vfs_read -N "$long" -o "$tmpdir/long.data" \
			-- true >/dev/null 2>"$tmpdir/err"; then
			fail "-N of ${#long} bytes accepted ${dry:-(run)}"
		fi
		grep -q 'the -N globs are longer than the fprobe PMU takes (4095 bytes)' \
			"$tmpdir/err" ||
			fail "-N of ${#long} bytes ${dry:-(run)}: $(cat "$tmpdir/err")"
	done
fi

# a command that does not exist: an error naming why, not a crash
rc=0
perf fprobe -a vfs_read -- /no/such/command 2>"$tmpdir/err" || rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] ||
	fail "a missing command exits with $rc: $(cat "$tmpdir/err")"
grep -q 'No such file or directory' "$tmpdir/err" ||
	fail "no error for a missing command: $(cat "$tmpdir/err")"

# no target, no probe: a usage error, not a crash
rc=0
perf fprobe 2>/dev/null || rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "perf fprobe with nothing to trace exits with $rc"
rc=0
perf fprobe -A --duration 1 2>"$tmpdir/err" || rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "perf fprobe without -a exits with $rc"
grep -q 'no probe' "$tmpdir/err" || fail "no 'no probe' error"
if perf fprobe -a 'vfs_read 1x' -- true 2>/dev/null; then
	fail "invalid parameter name accepted"
fi
# a list where parameters are (and the reason said), '!' instead of -N
if perf fprobe -a 'vfs_read count,ksys_read' -- true 2>"$tmpdir/err"; then
	fail "a list after a parameter accepted"
fi
grep -q "give other functions their own -a" "$tmpdir/err" ||
	fail "no hint for a list after a parameter: $(head -2 "$tmpdir/err")"
if perf fprobe -a 'vfs_*,!vfs_read' -- true 2>"$tmpdir/err"; then
	fail "'!' in a list accepted"
fi
grep -q "give them to -N" "$tmpdir/err" || fail "no hint for '!': $(head -2 "$tmpdir/err")"
# ftrace's placeholders of functions with no ftrace site are never attached
if grep -q '^__ftrace_invalid_address__' /sys/kernel/tracing/available_filter_functions; then
	if perf fprobe --dry-run -a '__ftrace_invalid_address__*' >"$tmpdir/out" 2>&1; then
		fail "ftrace's placeholders would be attached: $(head -3 "$tmpdir/out")"
	fi
fi
# bad -m and -C: errors, and nothing left behind (checked below)
rc=0
perf fprobe -m many -a vfs_read -- true 2>"$tmpdir/err" || rc=$?
# 129: parse-options' usage error, as perf record -m many
[ $rc -ne 0 ] && [ $rc -le 129 ] || fail "-m many exits with $rc"
grep -q 'mmap_pages' "$tmpdir/err" || fail "no error for -m many: $(cat "$tmpdir/err")"
rc=0
perf fprobe -C 4096 --duration 1 -a vfs_read 2>"$tmpdir/err" || rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "-C 4096 exits with $rc: $(cat "$tmpdir/err")"
! grep -q 'nothing to trace' "$tmpdir/err" || fail "-C 4096 not taken as a target"


# bad report options
if perf fprobe report --sort bogus -i /dev/null 2>/dev/null; then
	fail "--sort bogus accepted"
fi
if perf fprobe report --min-latency 10xs -i /dev/null 2>/dev/null; then
	fail "--min-latency 10xs accepted"
fi

[ "$(grep -c '^f:perf_fprobe/' /sys/kernel/tracing/dynamic_events || true)" = 0 ] ||
	fail "fprobe events left in dynamic_events: $(grep '^f:perf_fprobe/' \
		/sys/kernel/tracing/dynamic_events)"
# the failures again, last, where a truncated log keeps them
[ -z "$fails" ] || echo "$fails"
exit $err
