#!/bin/bash
# check-arm64: yes
# check-riscv64: yes
# samples/fprobe/fprobe_example.ko, the fprobe user the kernel ships as an
# example, loaded as its comment says to use it: on one function, on a
# comma-separated list, on a glob with a not-glob, on a function that does
# not exist, and with its stack dumps. Each workload runs in a subshell
# (a child of this shell, no exec) whose pid the sample's trace_printk()
# lines (use_trace=1) carry, so the entries and returns of that pid are
# counted exactly; the sample's own hit count, printed at rmmod, must
# equal the lines it wrote. Callers are matched by the end of their
# names: an architecture's system call wrapper may inline __do_sys_NAME.
# Prints one "PASS|FAIL|SKIP name" line per test.
T=/sys/kernel/tracing
mod=fprobe_example
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -z "$(find -L "/lib/modules/$(uname -r)/" -name "$mod.ko*" 2>/dev/null)" ]; then
	echo "SKIP $mod: not built (CONFIG_SAMPLE_FPROBE=m)"
	exit 0
fi
echo 1 >"$T/tracing_on"

# result NAME: PASS NAME if $tmp/err is empty, else FAIL and what it says
result() {
	if [ -s "$tmp/err" ]; then
		echo "FAIL $1"
		sed 's/^/    /' "$tmp/err"
	else
		echo "PASS $1"
	fi
	: >"$tmp/err"
}

err() { echo "$*" >>"$tmp/err"; }

# expect WHAT GOT WANT
expect() { [ "$2" = "$3" ] || err "$1: $2, expected $3"; }

# load PARAMS...: load the sample with a clear kernel log and trace
load() {
	: >"$T/trace"
	dmesg -c >/dev/null
	modprobe "$mod" "$@" 2>>"$tmp/err" || err "modprobe $mod $* failed"
}

# unload: remove the sample, keep what it traced in $tmp/trace (read once
# no probe of it is left: reading the trace is a vfs_read() too), and check
# that its hit count is the number of lines it traced and that it missed
# no call. Its handlers' names are gone with it: the lines are found by
# their text.
unload() {
	local msg
	rmmod "$mod" || err "rmmod $mod failed"
	grep -E ': (Enter|Return from) <' "$T/trace" >"$tmp/trace"
	msg=$(dmesg | grep 'fprobe_exit: ')
	[[ "$msg" =~ unregistered\.\ ([0-9]+)\ times\ hit,\ ([0-9]+)\ times\ missed ]] ||
		{ err "no unregister message: '$msg'"; return; }
	expect "hits" "${BASH_REMATCH[1]}" "$(wc -l <"$tmp/trace")"
	expect "missed" "${BASH_REMATCH[2]}" 0
}

# traced PID: the sample's lines traced in task PID
traced() { grep -E "^ *[^ ]+-$1 +\[" "$tmp/trace" | sed -E 's/.*: (Enter <|Return from <)/\1/'; }

# calls PID FUNC NR CALLER: the lines of PID name NR entries to FUNC and NR
# returns from it to CALLER (an extended regular expression), each from
# the address the entry had
calls() {
	local f=$tmp/lines.$1 at="$2\\+0x[0-9a-f]+/[^>]*>"
	traced "$1" >"$f"
	expect "$2 entries of pid $1" "$(grep -cE "^Enter <$at" "$f")" "$3"
	expect "$2 returns of pid $1" "$(grep -cE "^Return from <$at" "$f")" "$3"
	expect "$2 returns to $4" \
		"$(grep -E "^Return from <$at" "$f" | grep -cE " \(($4)\+0x")" "$3"
	expect "$2 addresses" "$(sed -nE "s#^(Enter|Return from) <$at ip = ([^ ]*).*#\2#p" "$f" |
		sort -u | wc -l)" "$([ "$3" -gt 0 ] && echo 1 || echo 0)"
}

# one function, exactly: five forks of the subshell
load symbol=kernel_clone stackdump=0 use_trace=1
(for i in 1 2 3 4 5; do /bin/true; done) &
pid=$!
wait $pid
unload
calls "$pid" kernel_clone 5 "[a-z0-9_]*sys_clone"
grep -q "fprobe_init: Planted fprobe at kernel_clone$" <(dmesg) ||
	err "no 'Planted fprobe at kernel_clone' message"
result one-function

# a list of functions: two read()s and three write()s of the subshell
printf 'abc\n' >"$tmp/f"
workload() {
	local i x

	for i in 1 2; do read -r x <"$tmp/f"; done
	for i in 1 2 3; do echo x >/dev/null; done
}
load symbol=vfs_read,vfs_write stackdump=0 use_trace=1
workload &
pid=$!
wait $pid
unload
calls "$pid" vfs_read 2 "[a-z0-9_]*sys_read"
calls "$pid" vfs_write 3 "[a-z0-9_]*sys_write"
grep -q "fprobe_init: 2 symbols found" <(dmesg) || err "no '2 symbols found' message"
result function-list

# a glob and a not-glob: vfs_* but vfs_write*
load 'symbol=vfs_*' 'nosymbol=vfs_write*' stackdump=0 use_trace=1
workload &
pid=$!
wait $pid
unload
calls "$pid" vfs_read 2 "[a-z0-9_]*sys_read"
expect "vfs_write* lines of pid $pid" "$(traced "$pid" | grep -c 'vfs_write')" 0
other=$(traced "$pid" | sed -n 's/^Enter <\([^+]*\)+.*/\1/p' | sort -u | grep -vx vfs_read)
[ -n "$other" ] || err "no vfs_* function but vfs_read traced"
for f in $other; do
	[[ "$f" == vfs_* ]] || err "$f traced, outside vfs_*"
	expect "$f returns of pid $pid" "$(traced "$pid" | grep -c "^Return from <$f+")" \
		"$(traced "$pid" | grep -c "^Enter <$f+")"
done
result glob-and-not-glob

# a function that does not exist: the load fails and says why
: >"$T/trace"
dmesg -c >/dev/null
modprobe "$mod" symbol=no_such_function_at_all 2>/dev/null &&
	err "modprobe $mod symbol=no_such_function_at_all succeeded"
grep -qw "^$mod" /proc/modules && { err "$mod loaded"; rmmod "$mod"; }
grep -q "register_fprobe failed, returned -2$" <(dmesg) ||
	err "no 'register_fprobe failed, returned -2' (ENOENT) message"
result unknown-function

# stack dumps through printk: at the entry, from the handler through
# fprobe's callback to the caller; at the return, through the return
# trampoline to the caller. Other tasks clone too (kernel threads): one
# dump of each must show the fork system call.
load symbol=kernel_clone
/bin/true
rmmod "$mod" || err "rmmod $mod failed"
dmesg | awk '
	/sample_entry_handler: Enter <kernel_clone\+/ { where = "entry"; next }
	/sample_exit_handler: Return from <kernel_clone\+/ { where = "exit"; next }
	/^[ \t]/ { if (where != "" && $1 ~ /sys_clone\+/) seen[where] = 1; next }
	{ where = "" }
	END {
		if (!seen["entry"]) print "no entry stack dump shows sys_clone"
		if (!seen["exit"]) print "no return stack dump shows sys_clone"
	}' >>"$tmp/err" || err "awk failed"
[ -s "$tmp/err" ] && dmesg | grep -A8 'kernel_clone' | head -40 >>"$tmp/err"
result stack-dumps
exit 0
