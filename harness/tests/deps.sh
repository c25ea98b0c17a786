#!/usr/bin/env bash
# make deps is idempotent and quiet once everything is installed, and the
# pinned base tarball is the one harness/base.mk names.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/harness/lib.sh"

fail() { echo "FAIL: $*"; exit 1; }

out=$("$TOP/harness/deps" 2>&1) || fail "harness/deps failed: $out"
[ -z "$out" ] || fail "harness/deps is not quiet when everything is installed: $out"
echo "ok: deps is quiet"

v=$(dpkg-query -W -f='${Version}' "$(base_var BASE_PKG)")
[ "$v" = "$(base_var BASE_VERSION)" ] || fail "$(base_var BASE_PKG) is $v, not $(base_var BASE_VERSION)"
echo "$(base_var BASE_SHA256)  $(base_var BASE_TARBALL)" | sha256sum --quiet -c - ||
	fail "the base tarball does not match its pinned sha256"
echo "ok: base $(base_var BASE_PKG) $v, sha256 verified"
