#!/usr/bin/env bash
# Commit messages as the kernel's, from the commit that added this test on:
# a subject of at most 72 characters, not a fixup/squash/amend marker and
# not ending in a period; from the commit that added the one-change rule
# on, no "wip" or "fixup" prefix and one change a subject (no "a; b"
# list); a body (what and why) for every commit that
# changes more than Markdown; lines of the body at most 100 characters
# (a quoted log line may be longer than the kernel's 75). The commits
# before it are history and are not checked.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

fail() { echo "FAIL: $*"; exit 1; }
cd "$TOP"
git rev-parse -q --verify HEAD >/dev/null || { echo "skip: not a git checkout"; exit 4; }
[ "$(git rev-parse --is-shallow-repository)" = false ] ||
	{ echo "skip: a shallow clone has not the history to check"; exit 4; }
self=harness/tests/commit-messages.sh
intro=$(git log --diff-filter=A --format=%H -- "$self" | tail -1)
if [ -z "$intro" ]; then
	echo "skip: $self is not committed yet"
	exit 4
fi

# The commits from the one that added the one-change rule on (none
# before it was committed)
one_change=$(git log -G'one-change rule on' --format=%H -- "$self" | tail -1)
one_change_commits=
[ -z "$one_change" ] || one_change_commits=$(git rev-list "$one_change^..HEAD")

bad=0
n=0
while read -r c; do
	n=$((n + 1))
	subject=$(git log -1 --format=%s "$c")
	short=$(git log -1 --format=%h "$c")
	if [ ${#subject} -gt 72 ]; then
		echo "$short: subject of ${#subject} characters (at most 72): $subject"
		bad=1
	fi
	case "$subject" in
	fixup!* | squash!* | amend!*) echo "$short: a $subject"; bad=1 ;;
	*.) echo "$short: the subject ends in a period: $subject"; bad=1 ;;
	esac
	if grep -qxF "$c" <<<"$one_change_commits"; then
		# after an area prefix too ("harness: wip ..."); fixup! is said above
		if [[ "$subject" != fixup!* ]] &&
			grep -qiE '^([[:alnum:]_./-]+: *)?(wip|fixup)([^[:alnum:]]|$)' <<<"$subject"; then
			echo "$short: a work-in-progress subject: $subject"
			bad=1
		fi
		if [[ "$subject" == *"; "* ]]; then
			echo "$short: one change per commit, not a list: $subject"
			bad=1
		fi
	fi
	body=$(git log -1 --format=%b "$c" | sed '/^[[:space:]]*$/d')
	if [ -z "$body" ] &&
		git diff-tree --no-commit-id --name-only -r "$c" | grep -qv '\.md$'; then
		echo "$short: no body (say why, and what was measured): $subject"
		bad=1
	fi
	long=$(git log -1 --format=%b "$c" | awk 'length > 100' | head -1)
	if [ -n "$long" ]; then
		echo "$short: a body line over 100 characters: ${long:0:60}..."
		bad=1
	fi
done < <(git rev-list --reverse --no-merges "$intro^..HEAD")
[ $bad -eq 0 ] || fail "commit messages above are not as the kernel's (docs: docs/HACKING.md)"
echo "ok: $n commits since $(git log -1 --format=%h "$intro") have kernel-style messages"
