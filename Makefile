# fprobe on the function-graph tracer for Linux 6.12, with an fprobe perf PMU
# and `perf fprobe`. This Makefile is the only entry point; see README.md.
#
# Use:
#   make demo     build what is missing, boot the patched kernel, show it
#   make check    every test: host, KUnit, and the guest tests
#   make check-debug  KUnit, ftracetest and fuzzers on a lockdep+KASAN kernel
#   make bench    probe costs, patched vs base kernel, as ratios in one run
#   make bench-arm64, bench-riscv64  the same per-call and scale sections there
#   make vm-run CMD='...' [KERNEL=base|patched|debug] [TIMEOUT=s]
#   make shell    the patched guest with a shell on this terminal (exit ends it)
#   make kunit    the KUnit suites of lib/kunit-fprobe/ booted in the guest
#   make help     this list
#
# Build (each step also runs the ones it needs):
#   make deps     install the pinned Debian packages the project needs
#   make tree     build/linux: the pinned base with patches/ applied
#   make kernel, kernel-base, kernel-debug  the patched, base and debug guests
#   make perf     tools/perf of build/linux, with perf fprobe
#   make fprobe-pmu-tests  the PMU's selftest and fuzzer, static
#   make bpf-selftests  the BPF kprobe_multi selftests, for both kernels
#
# Change the series:
#   make import   the series in build/linux back into patches/ and the owned files
#   make series   the series as git format-patch files in build/series/,
#                 checked with checkpatch.pl --strict
#
# Other architectures:
#   make cross    the series built for arm64, riscv64, s390x and ppc64le
#   make cross-series  every patch of the series built in order, x86_64 and arm64
#   make series-kunit  the KUnit suites booted at the end of each sub-series
#   make check-arm64, check-riscv64  that build booted there: KUnit,
#                 ftracetest, the PMU's test and fuzzer
#   make check-ppc64le, check-s390x  that build's KUnit suites booted there
#   make check-cross  all of the cross targets above, in order
#   make cross-arm64, cross-riscv, cross-s390, cross-powerpc  one of them
#   make cross-base-arm64, cross-base-riscv  the base built so, for bench-ARCH
#   make initramfs-arm64, initramfs-riscv64  the root file system of that guest
#
# Steps the targets above run, and housekeeping:
#   make all      kernel, perf and initramfs: the default goal
#   make initramfs  the x86_64 guest's root file system, with perf
#   make kernel-base-tree, bpf-selftests-debug, fprobe-pmu-tests-arm64,
#   make fprobe-pmu-tests-riscv64  steps of kernel-base, check-debug, check-ARCH
#   make clean    the builds, not the extracted base; make distclean: all of build/

SHELL		:= /bin/bash
TOP		:= $(CURDIR)
BUILD		:= $(TOP)/build
include harness/base.mk

# ccache: keyed on paths relative to the checkout, so a fresh clone in
# another directory (CI) still hits the cache of earlier builds.
export CCACHE_BASEDIR	:= $(TOP)
export CCACHE_NOHASHDIR	:= 1
export CCACHE_MAXSIZE	?= 10G
export BUILD

KERNEL		?= patched
TIMEOUT		?= 900
CMD		?= uname -a

.PHONY: all deps tree kernel kernel-base kernel-base-tree kernel-debug perf initramfs vm-run \
	kunit shell check check-debug demo bench clean distclean help fprobe-pmu-tests \
	bpf-selftests bpf-selftests-debug \
	cross cross-arm64 cross-riscv cross-s390 cross-powerpc cross-series series-kunit check-arm64 check-riscv64 check-ppc64le check-s390x \
	check-cross initramfs-arm64 initramfs-riscv64 fprobe-pmu-tests-arm64 fprobe-pmu-tests-riscv64 \
	cross-base-arm64 cross-base-riscv bench-arm64 bench-riscv64

# Builds run one at a time: they share build/linux and both cores.
.NOTPARALLEL:

all: kernel perf initramfs

# The comment block this file opens with, up to its first blank line
help:
	@sed -n '1,/^$$/{/^#/s/^# \{0,1\}//p}' Makefile

deps:
	@harness/deps

tree: deps
	@harness/tree-assemble

kernel: tree
	@harness/kernel-build $(BUILD)/linux $(BUILD)/kernel

# The unpatched base, built with the same config, for side-by-side runs.
# build/base/{linux,kernel} mirror build/{linux,kernel}, so that ccache
# (keyed on paths relative to the object directory) shares every object the
# series does not change.
kernel-base: kernel-base-tree
	@KCONFIG_BASE=1 harness/kernel-build $(BUILD)/base/linux $(BUILD)/base/kernel

# The debug kernel: guest.config plus harness/configs/debug.config (lockdep,
# RCU lockdep, atomic sleep, KASAN), for make check-debug.
kernel-debug: tree
	@KCONFIG_FRAGMENTS=debug harness/kernel-build $(BUILD)/linux $(BUILD)/kernel-debug

# The series cross-built with a tracing config (harness/configs/cross*.config):
# no option of the base lost, no warning in the series' files.
CROSS_ARCHS	:= arm64 riscv s390 powerpc
cross: $(addprefix cross-,$(CROSS_ARCHS))

$(addprefix cross-,$(CROSS_ARCHS)): tree kernel-base-tree
	@harness/cross-build $(@:cross-%=%)

# The base built the same way, for make bench on arm64 and riscv64
cross-base-arm64 cross-base-riscv: cross-base-%: kernel-base-tree
	@harness/cross-build --base $*

# Bisectable: each patch of the series, in order, built for x86_64 and
# arm64.
cross-series: tree
	@harness/cross-series x86_64
	@harness/cross-series arm64

# The KUnit suites at the end of each sub-series (folder of patches/)
series-kunit: tree initramfs
	@harness/series-kunit

# The arm64, riscv64 and ppc64le builds booted under QEMU (TCG; the virt
# machine, pseries for ppc64le): the KUnit suites (fprobe, the fprobe PMU,
# fgraph_regs) on that architecture;
# on arm64 and riscv64 also ftracetest and the PMU's test and fuzzer, in a
# guest with busybox and bash of that architecture (harness/sysroot:
# Debian's arm64 packages; riscv64, which Debian 12 lacks, built from
# Debian's sources).
check-arm64: cross-arm64 initramfs-arm64 fprobe-pmu-tests-arm64
	@harness/check --arch arm64

check-riscv64: cross-riscv initramfs-riscv64 fprobe-pmu-tests-riscv64
	@harness/check --arch riscv64

initramfs-arm64 initramfs-riscv64: initramfs-%: deps
	@harness/sysroot $*
	@harness/mkinitramfs --arch $* $(BUILD)/initramfs-$*.cpio

fprobe-pmu-tests-arm64 fprobe-pmu-tests-riscv64: fprobe-pmu-tests-%: tree
	@harness/fprobe-pmu-tests-build --arch $* $(BUILD)/fprobe-pmu-$*

check-ppc64le: cross-powerpc
	@harness/cross-kunit powerpc

# s390x's KUnit suites: where fprobe keeps its two ftrace_ops (no fast
# return path), the one booted architecture that runs that design
check-s390x: cross-s390
	@harness/cross-kunit s390

# Everything beyond x86_64 that make check leaves out: the four builds, the
# series patch by patch, and the four guests.
check-cross: cross cross-series check-arm64 check-riscv64 check-ppc64le check-s390x

kernel-base-tree: deps
	@harness/base-worktree

perf: tree
	@harness/perf-build $(BUILD)/linux $(BUILD)/perf

initramfs: perf
	@harness/mkinitramfs $(BUILD)/initramfs.cpio $(BUILD)/perf/perf

# CMD reaches the guest as one shell command line, pipes and all.
export CMD
vm-run: kernel initramfs
	@$(if $(filter-out patched,$(KERNEL)),$(MAKE) --no-print-directory kernel-$(KERNEL) &&) \
		harness/vm-run --kernel $(KERNEL) --timeout $(TIMEOUT) -- "$$CMD"

kunit: kernel initramfs
	@harness/kunit

# The patched guest with an interactive shell on this terminal
shell: kernel initramfs
	@harness/vm-run --tty --timeout 86400 -- 'exec bash -i'

# The fprobe PMU test programs (static), run by the guest suites
fprobe-pmu-tests: tree
	@harness/fprobe-pmu-tests-build $(BUILD)/fprobe-pmu

# The base's BPF selftests of kprobe_multi and kprobe sessions (a subset of
# test_progs, clang-16), and bpf_testmod.ko for the patched and the base
# kernel; bpf-selftests-debug adds the one of the debug kernel.
bpf-selftests: kernel kernel-base
	@harness/bpf-selftests-build patched base

bpf-selftests-debug: kernel-debug
	@harness/bpf-selftests-build debug

# The base kernel too: perf fprobe's tests and the BPF selftests run on it.
check: kernel kernel-base initramfs fprobe-pmu-tests bpf-selftests
	@harness/check

# The KUnit suites, the ftracetest cases and the fuzzers on the debug kernel,
# failing on any lockdep, RCU, KASAN or other kernel report.
check-debug: kernel-debug initramfs fprobe-pmu-tests bpf-selftests-debug
	@harness/check --debug

demo: kernel initramfs
	@harness/demo

# Benchmarks: the patched and the base kernel side by side, in one run; a
# table, and build/bench/results.json. Not part of make check.
bench: kernel kernel-base initramfs
	@harness/bench/run

# Sections 1 and 2 of make bench in the arm64 or riscv64 guest: the cross
# builds of the series and of the base
bench-arm64: cross-arm64 cross-base-arm64 initramfs-arm64
	@BENCH_ARCH=arm64 harness/bench/run

bench-riscv64: cross-riscv cross-base-riscv initramfs-riscv64
	@BENCH_ARCH=riscv64 harness/bench/run

# Keeps the extracted base (build/linux, build/base/linux): re-extracting
# and committing it takes a minute.
clean:
	rm -rf $(BUILD)/kernel $(BUILD)/base/kernel $(BUILD)/kernel-debug \
		$(BUILD)/perf $(BUILD)/initramfs.cpio $(BUILD)/vm $(BUILD)/check \
		$(BUILD)/check-debug $(BUILD)/bench

distclean:
	rm -rf $(BUILD)

# The whole change as a git format-patch series in build/series/, checked
# with the base's checkpatch.pl --strict.
.PHONY: series
series: tree
	@harness/series-export

# Commits made in build/linux (on top of 'base': fixups, a rebase -i) back
# into patches/ and the owned files at their kernel paths.
.PHONY: import
import:
	@harness/import
