#!/bin/bash
# bpf-selftests.sh KERNEL: the base's BPF selftests of what attaches through
# fprobe (BPF kprobe_multi, kprobe sessions; test_progs as
# harness/bpf-selftests-build builds it) on this guest, with the
# bpf_testmod.ko built for KERNEL (patched, base or debug). Prints
# "PASS|FAIL|SKIP test[/subtest]" for each case test_progs reports, the log
# of the failed ones indented, and keeps the list in
# /repo/build/bpf-selftests/results-KERNEL.
k=${1:?usage: bpf-selftests.sh patched|base|debug}
out=/repo/build/bpf-selftests/out
results=/repo/build/bpf-selftests/results-$k
rm -f "$results"
# kprobe_multi_bench_attach attaches one program to every traceable function
# (and, with bpf_testmod loaded, to every function of the modules)
tests=kprobe_multi_test,kprobe_multi_bench_attach,kprobe_multi_testmod_test
tests+=,missed,bpf_cookie,fill_link_info,module_attach
# On the debug kernel (KASAN, lockdep) under QEMU, attaching to every
# function four times takes more than the suite's 25 minutes: the scale
# case runs on the patched and the base kernel only.
[ "$k" != debug ] || tests=${tests/,kprobe_multi_bench_attach/}
# bpf_cookie/perf_event counts the samples of a cpu-clock event while it
# spins for a fixed number of loops: under QEMU on a busy host the second
# half may see none (it failed so once on the base kernel). It tests
# perf_event programs, not fprobe.
skip=bpf_cookie/perf_event
for f in "$out/test_progs" "$out/testmod-$k/bpf_testmod.ko"; do
	if [ ! -f "$f" ]; then
		echo "FAIL bpf-selftests: $f is missing (make bpf-selftests)"
		exit 1
	fi
done

# test_progs loads bpf_testmod.ko from its working directory.
dir=$(mktemp -d)
cp "$out/test_progs" "$out/testmod-$k/bpf_testmod.ko" "$dir/"
grep -q ' /sys/fs/bpf bpf ' /proc/mounts || mount -t bpf bpf /sys/fs/bpf
cd "$dir" || exit 1
./test_progs -a "$tests" -d "$skip" >test_progs.log 2>&1
status=$?

# One line per test and subtest, before the summary that repeats the
# failed ones
awk '/^All error logs:/ { exit }
	$1 ~ /^#[0-9]+(\/[0-9]+)?$/ && $2 ~ /:(OK|SKIP|FAIL)$/ {
		n = split($2, a, ":"); s = a[n]; name = substr($2, 1, length($2) - length(s) - 1)
		print (s == "OK" ? "PASS" : s), name
	}' test_progs.log >"$results"
cat "$results"
# test_progs -a passes over a name it does not have: each must have run
for t in ${tests//,/ }; do
	grep -qE "^(PASS|FAIL|SKIP) $t\$" "$results" ||
		echo "FAIL bpf-selftests/$t: test_progs did not run it"
done
if grep -q '^FAIL ' "$results"; then
	sed -n '/^All error logs:/,$p' test_progs.log | tail -80 | sed 's/^/    /'
fi
if [ ! -s "$results" ] || ! grep -q '^Summary: ' test_progs.log; then
	echo "FAIL bpf-selftests/run: test_progs reported no summary (exit $status)"
	tail -40 test_progs.log | sed 's/^/    /'
elif [ $status -ne 0 ] && ! grep -q '^FAIL ' "$results"; then
	echo "FAIL bpf-selftests/run: test_progs exited $status with no failed case"
	tail -40 test_progs.log | sed 's/^/    /'
fi
exit 0
