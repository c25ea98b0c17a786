#!/usr/bin/env bash
# make tree: the overlay is copied, patches apply in series order, and a
# patch that does not apply (or is missing) stops the assembly naming it.
# Works on a scratch project beside the real one; build/linux is not moved.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
export BUILD=${BUILD:-$TOP/build}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

mkdir -p "$scratch/harness" "$scratch/patches" "$scratch/kernel/trace"
cp -a "$TOP/harness/." "$scratch/harness/"
git -C "$scratch" init -q
echo 'build/' >"$scratch/.gitignore"
echo '/* overlay marker 4242 */' >"$scratch/kernel/trace/zz_overlay.c"

cat >"$scratch/patches/0001-good.patch" <<'P'
--- a/kernel/trace/Makefile
+++ b/kernel/trace/Makefile
@@ -1,3 +1,4 @@
+# tree-assembly test marker 1717
 # SPDX-License-Identifier: GPL-2.0
 
 # Do not instrument the tracer itself:
P
printf '# topic: test\n0001-good.patch\n' >"$scratch/patches/series"

fail() { echo "FAIL: $*"; exit 1; }

commit=$("$scratch/harness/tree-assemble" --no-checkout) || fail "a good series did not assemble"
git -C "$BUILD/linux" show "$commit:kernel/trace/Makefile" | head -1 | grep -q 1717 ||
	fail "the good patch is not in the assembled tree"
git -C "$BUILD/linux" show "$commit:kernel/trace/zz_overlay.c" | grep -q 4242 ||
	fail "the overlay file is not in the assembled tree"
[ "$(git -C "$BUILD/linux" log --format=%s "base..$commit")" = "0001-good.patch
overlay: project files no patch introduces yet" ] ||
	fail "the assembly is not one commit for the overlay, then one per patch"
echo "ok: overlay and a good patch assemble, one commit each"

# The same patch again does not apply on top of itself.
cp "$scratch/patches/0001-good.patch" "$scratch/patches/0002-broken.patch"
printf '0001-good.patch\n0002-broken.patch\n' >"$scratch/patches/series"
if err=$("$scratch/harness/tree-assemble" --no-checkout 2>&1); then
	fail "a broken patch assembled"
fi
grep -q 'patches/0002-broken.patch does not apply' <<<"$err" || fail "the error does not name the patch: $err"
echo "ok: a broken patch is named: $(tail -1 <<<"$err")"

printf '0001-good.patch\n0003-missing.patch\n' >"$scratch/patches/series"
err=$("$scratch/harness/tree-assemble" --no-checkout 2>&1) && fail "a missing patch assembled"
grep -q 'patches/0003-missing.patch, which does not exist' <<<"$err" || fail "the error does not name the missing patch: $err"
echo "ok: a missing patch is named"

# An overlay file named in patches/overlay goes in with its patch.
printf '0001-good.patch\n' >"$scratch/patches/series"
printf '0001-good.patch: kernel/trace/zz_overlay.c\n' >"$scratch/patches/overlay"
commit=$("$scratch/harness/tree-assemble" --no-checkout) || fail "a named overlay file did not assemble"
git -C "$BUILD/linux" show "$commit:kernel/trace/zz_overlay.c" | grep -q 4242 ||
	fail "the named overlay file is not in the assembled tree"
printf '0001-good.patch: kernel/trace/zz_nothere.c\n' >"$scratch/patches/overlay"
err=$("$scratch/harness/tree-assemble" --no-checkout 2>&1) && fail "a missing overlay file assembled"
grep -q 'introduces kernel/trace/zz_nothere.c, which does not exist' <<<"$err" ||
	fail "the error does not name the missing overlay file: $err"
printf '0009-other.patch: kernel/trace/zz_overlay.c\n' >"$scratch/patches/overlay"
err=$("$scratch/harness/tree-assemble" --no-checkout 2>&1) && fail "an overlay entry for a patch not in the series assembled"
grep -q 'patches/overlay names 0009-other.patch, which patches/series does not' <<<"$err" ||
	fail "the error does not name the stray patch: $err"
echo "ok: overlay files named in patches/overlay go in with their patch"
