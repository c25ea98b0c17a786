# Shared helpers for the harness scripts (sourced, not run).
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

note() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

# The lines of a kernel log that report a bug, a warning or a lock problem
# (vm-run --fail-on-splat, cross-kunit)
SPLAT_RE='WARNING:|BUG:|Oops|general protection fault|possible recursive locking|inconsistent lock state|circular locking|suspicious RCU usage|rcu_.*self-detected stall|KASAN:|UBSAN:|FAILED!|INFO: task .* blocked'

# base_var NAME: read one variable from harness/base.mk
base_var() {
	sed -n "s/^$1[[:space:]]*:=[[:space:]]*//p" "$TOP/harness/base.mk"
}

# series_entries: the patches of patches/series, one per line, in order,
# as paths under patches/ ('#' comments and blank lines left out).
series_entries() {
	local series=$TOP/patches/series line p
	[ -f "$series" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		read -r p _ <<<"${line%%#*}" || true
		[ -z "$p" ] || printf '%s\n' "$p"
	done <"$series"
}

# worktree_at DIR REV: keep DIR a git worktree of build/linux, checked out
# clean (detached) at REV.
worktree_at() {
	local wt=$1 rev=$2
	if [ ! -e "$wt/.git" ]; then
		rm -rf "$wt"
		mkdir -p "$(dirname "$wt")"
		git -C "$BUILD/linux" worktree prune
		git -C "$BUILD/linux" worktree add -q --detach "$wt" "$rev"
	fi
	git -C "$wt" checkout -q -f --detach "$rev"
	git -C "$wt" clean -fdq
}

# cross_prefix ARCH: the compiler prefix (CROSS_COMPILE) of Debian's cross
# compiler for the kernel's ARCH (x86_64: the host's, no prefix); dies
# naming the ones there are for any other
cross_prefix() {
	case "$1" in
	x86_64) echo ;;
	arm64) echo aarch64-linux-gnu- ;;
	riscv) echo riscv64-linux-gnu- ;;
	s390) echo s390x-linux-gnu- ;;
	powerpc) echo powerpc64le-linux-gnu- ;;
	*) die "no build for '$1' (x86_64, arm64, riscv, s390, powerpc)" ;;
	esac
}

# cross_make SRC OBJ ARCH CROSS MAKEARGS...: the kernel's make for ARCH out
# of tree, with ccache, fixed build stamps and a clean make environment (the
# top-level Makefile's variables must not reach kbuild)
cross_make() {
	local src=$1 obj=$2 arch=$3 cross=$4
	shift 4
	env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL -u CMD \
		make -C "$src" O="$obj" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" KBUILD_BUILD_TIMESTAMP="2000-01-01" \
		KBUILD_BUILD_USER=fprobe KBUILD_BUILD_HOST=harness \
		-j"$(($(nproc) + 1))" "$@"
}

# make_targets: the Makefile's targets, one per line, its pattern lists
# expanded, from make's own database (-q exits non-zero: the ':' target is
# never up to date)
make_targets() {
	{ make -s -C "$TOP" -pRrq -f Makefile : 2>/dev/null || :; } |
		awk -F: '/^[a-z][a-z0-9-]*:([^=]|$)/ { print $1 }' | sort -u
}
