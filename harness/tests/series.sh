#!/usr/bin/env bash
# make series: the exported series is checkpatch --strict clean, applies with
# git am to the pinned base, and gives exactly the assembled tree.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
export BUILD

fail() { echo "FAIL: $*"; exit 1; }

"$TOP/harness/series-export" || fail "make series failed"
n=$(find "$BUILD/series" -name '*.patch' | wc -l)
echo "ok: $n patches exported, checkpatch --strict clean"

wt=$BUILD/series-am
git -C "$wt" am --abort >/dev/null 2>&1 || true
worktree_at "$wt" base
cd "$wt"
if [ "$n" -gt 0 ]; then
	git -c user.name=test -c user.email=test@localhost am -q "$BUILD"/series/*.patch ||
		fail "the exported series does not apply with git am to the base"
fi
git diff --quiet HEAD "$(git -C "$BUILD/linux" rev-parse assembled)" ||
	fail "git am of the series does not give the assembled tree"
echo "ok: git am on the base reproduces the assembled tree"
