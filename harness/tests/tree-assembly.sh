#!/usr/bin/env bash
# make tree: patches apply in series order (from sub-series folders too),
# an owned file edited in the repository goes on top as a commit of its own,
# and a patch that does not apply (or is missing) stops the assembly naming
# it.
# Works on a scratch project beside the real one; build/linux is not moved.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
export BUILD=${BUILD:-$TOP/build}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

mkdir -p "$scratch/harness" "$scratch/patches/1-test" "$scratch/kernel/trace"
cp -a "$TOP/harness/." "$scratch/harness/"
git -C "$scratch" init -q
echo 'build/' >"$scratch/.gitignore"
# An owned file: one the series adds, kept at its kernel path as it builds it
echo '/* owned marker 4242 */' >"$scratch/kernel/trace/zz_owned.c"

cat >"$scratch/patches/1-test/0001-good.patch" <<'P'
--- a/kernel/trace/Makefile
+++ b/kernel/trace/Makefile
@@ -1,3 +1,4 @@
+# tree-assembly test marker 1717
 # SPDX-License-Identifier: GPL-2.0
 
 # Do not instrument the tracer itself:
--- /dev/null
+++ b/kernel/trace/zz_owned.c
@@ -0,0 +1 @@
+/* owned marker 4242 */
P
printf '# 1-test: a sub-series in a folder\n1-test/0001-good.patch\n' >"$scratch/patches/series"

fail() { echo "FAIL: $*"; exit 1; }

commit=$("$scratch/harness/tree-assemble" --no-checkout) || fail "a good series did not assemble"
git -C "$BUILD/linux" show "$commit:kernel/trace/Makefile" | head -1 | grep -q 1717 ||
	fail "the good patch is not in the assembled tree"
git -C "$BUILD/linux" show "$commit:kernel/trace/zz_owned.c" | grep -q 4242 ||
	fail "the owned file the patch adds is not in the assembled tree"
[ "$(git -C "$BUILD/linux" log --format=%s "base..$commit")" = "1-test/0001-good.patch" ] ||
	fail "the assembly is not one commit per patch"
echo "ok: a patch in a sub-series folder assembles, one commit, with the owned file it adds"

# An owned file edited in the repository: the edit goes on top, named
echo '/* edited 5353 */' >>"$scratch/kernel/trace/zz_owned.c"
commit=$("$scratch/harness/tree-assemble" --no-checkout 2>"$scratch/err") ||
	fail "an edited owned file did not assemble"
err=$(cat "$scratch/err")
git -C "$BUILD/linux" show "$commit:kernel/trace/zz_owned.c" | grep -q 5353 ||
	fail "the edit of the owned file is not in the assembled tree"
[ "$(git -C "$BUILD/linux" log -1 --format=%s "$commit")" = "overlay: owned files changed in the repository, not yet in a patch" ] ||
	fail "the edit is not a commit of its own on top"
grep -q 'differ from the series, committed on top: kernel/trace/zz_owned.c' <<<"$err" ||
	fail "the assembly does not name the edited owned file: $err"
echo "ok: an owned file edited in the repository goes on top, named"
echo '/* owned marker 4242 */' >"$scratch/kernel/trace/zz_owned.c"

# The same patch again does not apply on top of itself.
cp "$scratch/patches/1-test/0001-good.patch" "$scratch/patches/0002-broken.patch"
printf '1-test/0001-good.patch\n0002-broken.patch\n' >"$scratch/patches/series"
if err=$("$scratch/harness/tree-assemble" --no-checkout 2>&1); then
	fail "a broken patch assembled"
fi
grep -q 'patches/0002-broken.patch does not apply' <<<"$err" || fail "the error does not name the patch: $err"
echo "ok: a broken patch is named: $(tail -1 <<<"$err")"

printf '1-test/0001-good.patch\n0003-missing.patch\n' >"$scratch/patches/series"
err=$("$scratch/harness/tree-assemble" --no-checkout 2>&1) && fail "a missing patch assembled"
grep -q 'patches/0003-missing.patch, which does not exist' <<<"$err" || fail "the error does not name the missing patch: $err"
echo "ok: a missing patch is named"
