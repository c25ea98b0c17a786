# Shared helpers for the harness scripts (sourced, not run).
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

note() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

# base_var NAME: read one variable from harness/base.mk
base_var() {
	sed -n "s/^$1[[:space:]]*:=[[:space:]]*//p" "$TOP/harness/base.mk"
}
