#!/usr/bin/env bash
# make help prints the Makefile's opening comment whole, and names only
# targets that exist: every 'make TARGET' it lists is a rule of the
# Makefile, and every .PHONY target and every target a user runs (the ones
# the README and docs/HACKING.md name) is in it.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

fail() { echo "FAIL: $*"; exit 1; }

help=$(make -s -C "$TOP" help) || fail "make help exits with $?"
[ -n "$help" ] || fail "make help prints nothing"
# The last line of the opening comment is in the help
last=$(sed -n '1,/^$/{/^#/p}' "$TOP/Makefile" | tail -1 | sed 's/^# \{0,1\}//')
grep -qF -- "$last" <<<"$help" || fail "make help stops before its last line: $last"

# Every target named by help, after 'make' or in a comma list after it
names=$(grep -oE 'make [a-z0-9-]+(, [a-z0-9-]+)*' <<<"$help" |
	sed 's/^make //; s/, /\n/g' | sort -u)
[ -n "$names" ] || fail "make help names no target"
targets=$(make_targets)
[ -n "$targets" ] || fail "make's database lists no target"
for t in $names; do
	grep -qxF -- "$t" <<<"$targets" || fail "make help names '$t', which is no target"
done
echo "ok: make help names $(wc -w <<<"$names") targets, each a rule"

# Every .PHONY target of the Makefile is in the help: none falls behind
phony=$(awk '/^\.PHONY:/ { p = 1; sub(/^\.PHONY:/, "") }
	p { c = sub(/\\$/, ""); print; p = c }' "$TOP/Makefile" |
	tr -s ' \t' '\n\n' | grep . | sort -u)
[ -n "$phony" ] || fail "the Makefile has no .PHONY target"
for t in $phony; do
	grep -qxF -- "$t" <<<"$names" || fail ".PHONY target '$t' is not in make help"
done
echo "ok: the $(wc -w <<<"$phony") .PHONY targets are all in make help"

# Every 'make TARGET' of the README and HACKING.md is in the help
for t in $(grep -ohE '\bmake [a-z][a-z0-9-]+' "$TOP/README.md" "$TOP/docs/HACKING.md" |
	sed 's/^make //' | sort -u); do
	grep -qE "^$t:" "$TOP/Makefile" || continue
	grep -qxF -- "$t" <<<"$names" || fail "'make $t' (README or HACKING.md) is not in make help"
done
echo "ok: the targets the README and HACKING.md name are in make help"
