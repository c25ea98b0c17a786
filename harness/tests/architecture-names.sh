#!/usr/bin/env bash
# docs/ARCHITECTURE.md names what exists: every function (`name()`), file
# (`dir/file.c`), constant or config option (`ALL_CAPS`) and make target
# (`make target`) it names is in the assembled tree (build/linux), the
# repository or the Makefile; and it quotes no measurement of its own:
# every number of three digits or more is one BENCHMARKS.md has.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

fail() { echo "FAIL: $*"; exit 1; }

doc=$TOP/docs/ARCHITECTURE.md
linux=$BUILD/linux
[ -e "$linux/.git" ] || { echo "SKIP: no assembled tree (make tree)"; exit 4; }

# The backquoted names of the document, one per line
names=$(grep -o '`[^`]*`' "$doc" | tr -d '`' | sort -u)
[ -n "$names" ] || fail "no backquoted name in $doc"

# A word of the tree: the sources of build/linux (the series applied)
in_tree() { git -C "$linux" grep -qw -F -e "$1" -- '*.[chS]' '*.rst' '*Kconfig*' '*.sh'; }

nf=0 nfile=0 nconst=0
while IFS= read -r n; do
	case $n in
	*"()")	# a function or macro
		f=${n%"()"}
		in_tree "$f" || fail "ARCHITECTURE.md names $n, which is not in the tree"
		nf=$((nf + 1)) ;;
	*/*.[chS]|*/*.js|*/*.md|*/*.rst|*/*.sh|harness/*|*.[ch])
		# a file: of the tree, of perf (util/...), or of the repository
		p=${n%% *}
		# (a glob: one file matches it)
		compgen -G "$linux/$p" >/dev/null || compgen -G "$linux/tools/perf/$p" >/dev/null ||
			compgen -G "$TOP/$p" >/dev/null || [ -n "$(git -C "$linux" ls-files "*/$p")" ] ||
			fail "ARCHITECTURE.md names the file $p, which does not exist"
		nfile=$((nfile + 1)) ;;
	[A-Z][A-Z0-9_]*)
		[ "${#n}" -ge 4 ] || continue
		in_tree "$n" || fail "ARCHITECTURE.md names $n, which is not in the tree"
		nconst=$((nconst + 1)) ;;
	esac
done <<<"$names"
echo "ok: the $nf functions, $nfile files and $nconst constants ARCHITECTURE.md names exist"

# make targets, from make's own database
targets=$(make_targets)
nt=0
for t in $(grep -oE '`make [a-z][a-z0-9-]*' "$doc" | sed 's/^`make //' | sort -u); do
	grep -qxF -- "$t" <<<"$targets" || fail "ARCHITECTURE.md names make $t, which is no target"
	nt=$((nt + 1))
done
echo "ok: the $nt make targets ARCHITECTURE.md names exist"

# Numbers of three digits and more (1,542 or 838): BENCHMARKS.md has them
nn=0
for v in $(grep -oE '\b[0-9]{1,3}(,[0-9]{3})+\b|\b[0-9]{3,}\b' "$doc" | sort -u); do
	grep -qw -F -- "$v" "$TOP/BENCHMARKS.md" ||
		fail "ARCHITECTURE.md quotes $v, which BENCHMARKS.md does not have"
	nn=$((nn + 1))
done
echo "ok: the $nn numbers ARCHITECTURE.md quotes are BENCHMARKS.md's"
