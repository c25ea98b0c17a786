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
