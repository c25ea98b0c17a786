#!/usr/bin/env bash
# The project-owned files at their kernel paths are exactly the files the
# full series builds, and patches/ is exactly what make import writes of
# the assembled series: an edit of an owned file that no patch carries, or
# a patch file edited by hand, fails here (docs: README, "The series").
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
export BUILD

fail() { echo "FAIL: $*"; exit 1; }

"$TOP/harness/tree-assemble" 2>&1 || fail "make tree failed"
edited=$(git -C "$BUILD/linux" log --format=%b --grep='^overlay: ' base..HEAD)
[ -z "$edited" ] || fail "owned files differ from what the series builds: $edited"
echo "ok: every owned file is as the series builds it"
"$TOP/harness/import" --check 2>&1 || fail "make import would change the repository (above)"
echo "ok: make import of the assembled series gives patches/ and the owned files back unchanged"
