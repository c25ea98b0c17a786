#!/usr/bin/env bash
# harness/kernel-config: the guest fragment applies in full, and an option
# that cannot be had (a typo, a missing dependency) fails naming it.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
scratch=$(mktemp -d "$BUILD/kconfig-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

"$TOP/harness/kernel-config" "$BUILD/linux" "$scratch/ok" "$TOP/harness/configs/guest.config" ||
	fail "guest.config does not apply"
for opt in SMP ACPI FUNCTION_GRAPH_TRACER DYNAMIC_FTRACE_WITH_ARGS FPROBE FPROBE_EVENTS \
	KPROBE_EVENTS PERF_EVENTS BPF_EVENTS DEBUG_INFO_DWARF5 DEBUG_INFO_BTF MODULES \
	KUNIT FTRACE_STARTUP_TEST 9P_FS; do
	grep -qx "CONFIG_$opt=y" "$scratch/ok/.config" || fail "CONFIG_$opt is not y"
done
echo "ok: guest.config applies"

printf 'CONFIG_FPROBE_DOES_NOT_EXIST=y\n' >"$scratch/bad.config"
err=$("$TOP/harness/kernel-config" "$BUILD/linux" "$scratch/bad" \
	"$TOP/harness/configs/guest.config" "$scratch/bad.config" 2>&1) && fail "a bogus option was accepted"
grep -q 'CONFIG_FPROBE_DOES_NOT_EXIST: asked for y, got not set' <<<"$err" ||
	fail "the error does not name the option: $err"
echo "ok: a bogus option is named"

# The debug fragment overrides guest.config (PREEMPT_VOLUNTARY=y there).
"$TOP/harness/kernel-config" "$BUILD/linux" "$scratch/debug" "$TOP/harness/configs/guest.config" \
	"$TOP/harness/configs/debug.config" || fail "debug.config does not apply over guest.config"
for opt in PREEMPT DEBUG_PREEMPT PROVE_LOCKING PROVE_RCU DEBUG_ATOMIC_SLEEP KASAN FPROBE \
	FPROBE_KUNIT_TEST FPROBE_PMU_KUNIT_TEST; do
	grep -qx "CONFIG_$opt=y" "$scratch/debug/.config" || fail "debug: CONFIG_$opt is not y"
done
grep -q '^CONFIG_PREEMPT_VOLUNTARY=y' "$scratch/debug/.config" &&
	fail "debug: the override of CONFIG_PREEMPT_VOLUNTARY did not apply"
echo "ok: debug.config applies over guest.config"

# make cross: with KCONFIG_REPORT, what does not come out is listed, not
# fatal; the series keeps FPROBE on arm64, riscv and s390 (not yet on
# powerpc, which lacks HAVE_FUNCTION_GRAPH_FREGS: make cross-powerpc says so).
KCONFIG_REPORT=$scratch/bad.lost "$TOP/harness/kernel-config" "$BUILD/linux" "$scratch/bad2" \
	"$TOP/harness/configs/guest.config" "$scratch/bad.config" 2>/dev/null ||
	fail "KCONFIG_REPORT: a missing option was fatal"
[ "$(cat "$scratch/bad.lost")" = "CONFIG_FPROBE_DOES_NOT_EXIST=y not set" ] ||
	fail "KCONFIG_REPORT: the report is '$(cat "$scratch/bad.lost")'"
echo "ok: KCONFIG_REPORT lists what did not come out"
for arch in arm64:aarch64 riscv:riscv64 s390:s390x; do
	KCONFIG_ARCH=${arch%%:*} KCONFIG_CROSS=${arch#*:}-linux-gnu- KCONFIG_REPORT=$scratch/${arch%%:*}.lost \
		"$TOP/harness/kernel-config" "$BUILD/linux" "$scratch/${arch%%:*}" \
		"$TOP/harness/configs/cross.config" "$TOP/harness/configs/cross-${arch%%:*}.config" 2>/dev/null ||
		fail "${arch%%:*}: cross.config does not apply"
	grep -qx "CONFIG_FPROBE=y" "$scratch/${arch%%:*}/.config" || fail "${arch%%:*}: CONFIG_FPROBE is not y"
	echo "ok: ${arch%%:*}: cross.config gives FPROBE ($(wc -l <"$scratch/${arch%%:*}.lost") options not had)"
done
