#!/usr/bin/env bash
# The series cross-built for arm64 and booted there (make check-arm64): the
# tracing config of harness/configs/cross*.config keeps every option the
# base has there, no file the series touches has a warning, and the KUnit
# suites pass under qemu-system-aarch64. The other architectures are in
# make cross and make check-riscv64 (minutes each, so not in every make
# check).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
export BUILD

"$TOP/harness/base-worktree"
"$TOP/harness/cross-build" arm64
"$TOP/harness/cross-kunit" arm64
