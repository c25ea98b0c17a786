#!/usr/bin/env bash
# The series cross-built for arm64 (make cross-arm64): the tracing config of
# harness/configs/cross*.config keeps every option the base has there, and no
# file the series touches has a warning. The other architectures are in
# make cross (minutes each, so not in every make check).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
export BUILD

"$TOP/harness/base-worktree"
"$TOP/harness/cross-build" arm64
