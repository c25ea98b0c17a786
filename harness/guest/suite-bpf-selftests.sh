#!/bin/bash
# check-debug: yes
# after: bpf-base
# The base's BPF kprobe_multi selftests on the patched (or the debug)
# kernel, BPF's own tests of fprobe's biggest user
# (harness/guest/bpf-selftests.sh). On the patched kernel, each case that
# passed on the base (suite-bpf-base.sh, which make check runs first) must
# pass here: a skip counts as a failure.
k=patched
zcat /proc/config.gz 2>/dev/null | grep -q '^CONFIG_KASAN=y' && k=debug
bash /repo/harness/guest/bpf-selftests.sh $k
base=/repo/build/bpf-selftests/results-base
[ $k = patched ] || exit 0
if [ ! -s $base ]; then
	echo "SKIP same-as-base: no results of the base kernel (run the bpf-base suite first)"
	exit 0
fi
here=/repo/build/bpf-selftests/results-$k
missing=$(grep '^PASS ' $base | while read -r _ name; do
	grep -qxF "PASS $name" $here || echo "$name"
done)
if [ -z "$missing" ]; then
	echo "PASS same-as-base: $(grep -c '^PASS ' $base) cases pass on both kernels"
else
	echo "FAIL same-as-base: passed on the base, not here: $(tr '\n' ' ' <<<"$missing")"
fi
