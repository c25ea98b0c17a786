#!/usr/bin/env bash
# lib/kunit-fprobe/.kunitconfig is what `kunit.py run --arch=x86_64
# --kunitconfig=lib/kunit-fprobe` builds: kunit.py accepts it and every
# option it names comes out in the configured kernel.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
scratch=$(mktemp -d "$BUILD/kunitconfig-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

cd "$BUILD/linux"
python3 tools/testing/kunit/kunit.py config --arch=x86_64 \
	--kunitconfig=lib/kunit-fprobe --build_dir="$scratch" ||
	fail "kunit.py config rejects lib/kunit-fprobe/.kunitconfig"
while IFS= read -r line; do
	case "$line" in CONFIG_*) ;; *) continue ;; esac
	grep -qxF "$line" "$scratch/.config" || fail "$line is not in the kunit.py .config"
done <lib/kunit-fprobe/.kunitconfig
echo "ok: lib/kunit-fprobe/.kunitconfig configures with kunit.py"
