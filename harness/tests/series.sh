#!/usr/bin/env bash
# make series: the exported series is checkpatch --strict clean, applies with
# git am to the pinned base, and gives exactly the assembled tree.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
export BUILD

fail() { echo "FAIL: $*"; exit 1; }

"$TOP/harness/series-export" || fail "make series failed"
mapfile -t patches < <(find "$BUILD/series" -name '*.patch' ! -name 0000-cover-letter.patch | sort)
n=${#patches[@]}
echo "ok: $n patches exported, checkpatch --strict clean"

# The cover letter: patches/cover-letter's subject and body, no placeholder
cover=$BUILD/series/0000-cover-letter.patch
[ -f "$cover" ] || fail "no cover letter in build/series"
grep -q "^Subject: \[PATCH 00/$n\] $(head -1 "$TOP/patches/cover-letter" | cut -c1-30)" "$cover" ||
	fail "the cover letter's subject is not patches/cover-letter's: $(grep '^Subject:' "$cover")"
grep -qF "$(sed -n 3p "$TOP/patches/cover-letter")" "$cover" || fail "the cover letter has not its body"
grep -q 'HERE \*\*\*' "$cover" && fail "the cover letter kept a placeholder"
echo "ok: the cover letter has the series' subject and body"

# patches/series: the files numbered 0001.. in the order they apply, the
# sub-series folders one after the other, each after a comment line naming it
prev= i=0 seen=
while IFS= read -r e; do
	i=$((i + 1))
	f=${e##*/}
	[ "${f%%-*}" = "$(printf '%04d' $i)" ] || fail "patches/series: entry $i is $e"
	d=$(dirname "$e")
	[ "$d" != . ] || continue
	if [ "$d" != "$prev" ]; then
		[[ " $seen " != *" $d "* ]] || fail "patches/series: folder $d comes back at $e"
		grep -q "^# $d: ." "$TOP/patches/series" || fail "patches/series: no '# $d: ...' line"
		seen="$seen $d" prev=$d
	fi
done < <(series_entries)
[ "$i" -eq "$n" ] || fail "patches/series has $i entries, the export $n patches"
echo "ok: patches/series numbered in order, $(wc -w <<<"$seen") sub-series folders"

wt=$BUILD/series-am
git -C "$wt" am --abort >/dev/null 2>&1 || true
worktree_at "$wt" base
cd "$wt"
if [ "$n" -gt 0 ]; then
	git -c user.name=test -c user.email=test@localhost am -q "${patches[@]}" ||
		fail "the exported series does not apply with git am to the base"
fi
git diff --quiet HEAD "$(git -C "$BUILD/linux" rev-parse assembled)" ||
	fail "git am of the series does not give the assembled tree"
echo "ok: git am on the base reproduces the assembled tree"
