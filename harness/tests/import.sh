#!/usr/bin/env bash
# make import: commits made in build/linux come back as patches/ (numbered
# in the order they apply, each in its sub-series folder, after its comment
# lines) and as the owned files' final contents; make tree then assembles
# the same tree; a fixup squashed into an early patch is carried into that
# patch, other files of patches/ stay; commits or edits not imported stop
# make tree; an owned file edited in the repository is refused until it is
# folded into a patch; dropping the first patch of a folder keeps its
# comment. On a scratch project and a scratch base of two files, not the
# kernel.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

proj=$scratch/proj
export BUILD=$proj/build
src=$BUILD/linux
mkdir -p "$proj/harness" "$proj/patches" "$src/kernel/trace"
cp -a "$TOP/harness/." "$proj/harness/"
git -C "$proj" init -q
echo 'build/' >"$proj/.gitignore"
printf '# The series.\n' >"$proj/patches/series"

# The base: a repository tagged "base", as harness/base-extract makes it
printf 'obj-y += trace.o\n' >"$src/kernel/trace/Makefile"
printf 'int a;\n' >"$src/kernel/trace/trace.c"
git -C "$src" init -q
git -C "$src" config user.name t
git -C "$src" config user.email t@localhost
git -C "$src" add -A
git -C "$src" commit -q -m base
git -C "$src" tag base
# make tree of the empty series: build/linux at the base, assembled
"$proj/harness/tree-assemble" 2>/dev/null || fail "make tree of an empty series"

# Two patches: the first adds an owned file, the second changes it and a
# file of the base
cd "$src"
printf 'int owned = 1;\n\n/* far from the end */\n\nint end;\n' >kernel/trace/zz_owned.c
printf 'obj-y += zz_owned.o\n' >>kernel/trace/Makefile
git add -A
git commit -q -m 'tracing: Add zz_owned' -m 'The first patch.'
printf 'int owned2 = 2;\n' >>kernel/trace/zz_owned.c
printf 'int b;\n' >>kernel/trace/trace.c
git commit -q -am 'tracing: Use zz_owned' -m 'The second patch.'
final=$(git rev-parse 'HEAD^{tree}')

"$proj/harness/import" 2>"$scratch/err" || { cat "$scratch/err"; fail "import"; }
cd "$proj"
[ "$(ls patches)" = "$(printf '0001-tracing-Add-zz_owned.patch\n0002-tracing-Use-zz_owned.patch\nseries')" ] ||
	fail "patches/ is not the two patches in order and the series: $(ls patches)"
[ "$(cat kernel/trace/zz_owned.c)" = "$(printf 'int owned = 1;\n\n/* far from the end */\n\nint end;\nint owned2 = 2;')" ] ||
	fail "the owned file is not at its final contents"
[ ! -e kernel/trace/trace.c ] || fail "a file of the base that a patch changes became an owned file"
grep -q '^From 0\{40\} ' patches/0001-tracing-Add-zz_owned.patch ||
	fail "the patch has the commit id in its From line (not stable from run to run)"
echo "ok: two commits imported as two patches in order, the owned file at its final contents"

# Sub-series folders with their comment lines
mkdir patches/1-add patches/2-use
mv patches/0001-tracing-Add-zz_owned.patch patches/1-add/
mv patches/0002-tracing-Use-zz_owned.patch patches/2-use/
printf '# The series.\n\n# 1-add: adding\n1-add/0001-tracing-Add-zz_owned.patch\n\n# 2-use: using\n2-use/0002-tracing-Use-zz_owned.patch\n' \
	>patches/series
cp patches/series "$scratch/series"
echo 'the cover letter' >patches/cover-letter
git add -A
git commit -q -m 'the project'
harness/tree-assemble 2>/dev/null || fail "make tree on the imported series"
[ "$(git -C "$src" rev-parse 'HEAD^{tree}')" = "$final" ] || fail "make tree does not give the tree imported"
harness/import --check 2>/dev/null || fail "import --check right after make tree"
echo "ok: make tree assembles the imported tree, and import --check finds nothing to change"

# A fixup for the first patch, squashed in build/linux: it lands there
cd "$src"
sed -i 's/owned = 1/owned = 11/' kernel/trace/zz_owned.c
git commit -q -a --fixup=HEAD~1
GIT_SEQUENCE_EDITOR=: git rebase -q -i --autosquash base
cd "$proj"
harness/import --check 2>/dev/null && fail "import --check passed with a new commit in build/linux"
harness/import 2>/dev/null || fail "import of the fixup"
grep -q '^+int owned = 11;' patches/1-add/0001-tracing-Add-zz_owned.patch ||
	fail "the fixup is not in the first patch"
grep -q '^+int owned2 = 2;' patches/2-use/0002-tracing-Use-zz_owned.patch ||
	fail "the second patch lost its change"
grep -q 'int owned = 11;' kernel/trace/zz_owned.c || fail "the owned file did not follow the fixup"
cmp -s patches/series "$scratch/series" || fail "the series lost its folders or comments: $(cat patches/series)"
[ "$(cat patches/cover-letter 2>/dev/null)" = 'the cover letter' ] || fail "import lost patches/cover-letter"
harness/tree-assemble 2>/dev/null || fail "make tree after the import of the fixup"
harness/import --check 2>/dev/null || fail "the round trip does not come back to the same series"
echo "ok: a fixup squashed in build/linux lands in its patch, folders and comments kept"

# What would lose work is refused: patches/ changed since make tree (a
# pull), a rebase stopped half-way
cd "$src"
sed -i 's/owned2 = 2/owned2 = 22/' kernel/trace/zz_owned.c
git commit -q -am 'tracing: Change zz_owned'
cd "$proj"
cp patches/2-use/0002-tracing-Use-zz_owned.patch "$scratch/saved.patch"
sed -i 's/^+int b;$/+int b2;/' patches/2-use/0002-tracing-Use-zz_owned.patch
err=$(harness/import 2>&1) && fail "import over a patch changed since make tree"
grep -q 'changed since build/linux was assembled' <<<"$err" || fail "import over a changed patch: $err"
cmp -s "$scratch/saved.patch" patches/2-use/0002-tracing-Use-zz_owned.patch &&
	fail "the changed patch was overwritten"
cp "$scratch/saved.patch" patches/2-use/0002-tracing-Use-zz_owned.patch
git -C "$src" reset -q --hard HEAD~1
(cd "$src" && GIT_SEQUENCE_EDITOR='sed -i 1s/^pick/edit/' git rebase -q -i base >/dev/null 2>&1)
err=$(harness/import 2>&1) && fail "import in the middle of a rebase"
grep -q 'in the middle of a rebase' <<<"$err" || fail "import in a rebase: $err"
git -C "$src" rebase --abort
echo "ok: import refuses to overwrite a changed patch, and to run in the middle of a rebase"

# Work in build/linux not imported stops make tree
printf 'int c;\n' >>"$src/kernel/trace/trace.c"
err=$(harness/tree-assemble 2>&1) && fail "make tree went over an edit in build/linux"
grep -q 'changes or new files not committed' <<<"$err" || fail "make tree over an edit: $err"
git -C "$src" checkout -q -- .
echo 'int new;' >"$src/kernel/trace/new.c"
err=$(harness/tree-assemble 2>&1) && fail "make tree went over a new file in build/linux"
grep -q 'changes or new files not committed' <<<"$err" || fail "make tree over a new file: $err"
rm "$src/kernel/trace/new.c"
printf 'int c;\n' >>"$src/kernel/trace/trace.c"
git -C "$src" commit -q -am 'tracing: More'
err=$(harness/tree-assemble 2>&1) && fail "make tree went over a commit not imported"
grep -q "run 'make import' to keep them" <<<"$err" || fail "make tree over a commit: $err"
git -C "$src" checkout -q assembled
echo "ok: an edit or a commit in build/linux not imported stops make tree"

# An owned file edited in the repository goes on top; import refuses it
echo 'int edited;' >>kernel/trace/zz_owned.c
harness/tree-assemble 2>/dev/null || fail "make tree with an edited owned file"
err=$(harness/import 2>&1) && fail "import took the edit on top"
grep -q "fold it into the patch it belongs to" <<<"$err" || fail "import of the edit: $err"
echo "ok: an owned file edited in the repository is built on top, and import asks to fold it"

# Dropping the first patch of a folder keeps the folder's comment lines:
# they go to the next patch of that folder
sed -i "/^int edited;$/d" kernel/trace/zz_owned.c
git -C "$src" reset -q --hard HEAD~1	# the overlay commit of the edit
git -C "$src" update-ref refs/heads/assembled HEAD
harness/tree-assemble 2>/dev/null || fail "make tree after dropping the edit"
[ "$(git -C "$src" log -1 --format=%s)" = 'tracing: Use zz_owned' ] ||
	fail "build/linux is not at the series: $(git -C "$src" log --oneline -3)"
cd "$src"
printf 'int more;\n' >kernel/trace/zz_more.c
git add kernel/trace/zz_more.c
git commit -q -m 'tracing: Add zz_more' -m 'The third patch.'
cd "$proj"
harness/import 2>"$scratch/err" || { cat "$scratch/err"; fail "import of a third patch"; }
grep -qx '2-use/0003-tracing-Add-zz_more.patch' patches/series ||
	fail "the third patch is not in the folder of the one before it: $(cat patches/series)"
git add -A
git commit -q -m 'a third patch'
harness/tree-assemble 2>/dev/null || fail "make tree with the third patch"
drop=$(git -C "$src" log --format=%h --grep='^tracing: Use zz_owned' -1)
(cd "$src" && GIT_SEQUENCE_EDITOR="sed -i 's/^pick $drop/drop $drop/'" git rebase -q -i base)
harness/import 2>"$scratch/err" || { cat "$scratch/err"; fail "import after dropping a patch"; }
[ "$(sed -n '/^# 2-use/,$p' patches/series)" = "$(printf '# 2-use: using\n2-use/0002-tracing-Add-zz_more.patch')" ] ||
	fail "the folder's comment did not go to its next patch: $(cat patches/series)"
grep -q 'comment lines .* are dropped' "$scratch/err" && fail "import warned of a comment it kept"
echo "ok: dropping the first patch of a folder keeps the folder's comment on the next"
