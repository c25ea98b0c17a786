#!/bin/bash
# perf's own shell tests named fprobe*, run by `perf test` from the source
# tree of build/linux. Prints one "PASS|FAIL|SKIP name" line per test.
cd /repo/build/linux/tools/perf || exit 1
perf test -v fprobe >/tmp/perf-test.out 2>&1
n=0
while IFS= read -r line; do
	case "$line" in
	*': Ok') echo "PASS ${line%: Ok}"; n=$((n + 1)) ;;
	*': Skip'*) echo "SKIP ${line%%: Skip*}"; n=$((n + 1)) ;;
	*': FAILED!'*) echo "FAIL ${line%%: FAILED!*}"; n=$((n + 1)) ;;
	esac
done < <(sed -n 's/^ *[0-9.:]* *\(.*: \(Ok\|Skip.*\|FAILED!.*\)\)$/\1/p' /tmp/perf-test.out)
if [ $n -eq 0 ]; then
	echo "SKIP perf test fprobe* (no such tests in this tree yet)"
fi
exit 0
