#!/usr/bin/env bash
# The SVG flame graph of perf fprobe report in a real browser, offline: the
# SVG that perf test "fprobe report" writes (as perf-fprobe-report.sh) refers
# to nothing outside itself; headless Chromium, with no network (proxy to a
# closed port, no DNS), loads a copy with svg-browser-check.js appended, which
# clicks, zooms, resets, searches (Search button, F3, Ctrl+F) and resets the
# search in the real DOM; the values it saw (attributes, computed styles,
# rendered boxes, texts) must be exactly those the fixture implies, with no
# JavaScript error. Two screenshots (the SVG as opened, and zoomed into
# ksys_read with "vfs_" searched) must show the frames in their colours at
# their places. SVG_BROWSER_KEEP=DIR keeps the SVGs, DOM and PNGs there.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
perf=$BUILD/perf/perf

fail() { echo "FAIL: $*"; exit 1; }

[ -x "$perf" ] || fail "$perf is not built (make perf)"
command -v chromium >/dev/null || fail "chromium is not installed (make deps installs it)"
out=$(mktemp -d)
keep() { [ -z "${SVG_BROWSER_KEEP:-}" ] || { mkdir -p "$SVG_BROWSER_KEEP" && cp "$out"/*.svg "$out"/*.png "$out"/*.dom "$SVG_BROWSER_KEEP"/ 2>/dev/null; } || true; }
trap 'keep; rm -rf "$out"' EXIT

# 1. the SVG, as perf-fprobe-report.sh makes it
PERF_FPROBE_REPORT_OUTPUT=$out "$perf" test -v 'fprobe report' >"$out/perf-test.log" 2>&1 || {
	tail -20 "$out/perf-test.log" | sed 's/^/    /'
	fail "perf test 'fprobe report' failed (see harness/tests/perf-fprobe-report.sh)"
}
svg=$out/fprobe-report.svg
[ -s "$svg" ] || fail "perf test 'fprobe report' wrote no $svg"
echo "ok: perf test 'fprobe report' wrote the SVG ($(wc -c <"$svg") bytes)"

# 2. self-contained: no URI but the SVG/XLink namespaces (and SVG 1.1 DTD),
# no href, src, url() or @import out of the file, no fetching from script
refs=$(grep -oE '[a-zA-Z][a-zA-Z0-9+.-]*://[^"'\''<> )]*|(xlink:)?href="[^#"][^"]*"|src="[^"]*"|url\([^#)][^)]*\)|@import|fetch\(|XMLHttpRequest|import\(|<(image|iframe|foreignObject|link)\b' "$svg" |
	grep -vxE 'http://www\.w3\.org/(2000/svg|1999/xlink|Graphics/SVG/1\.1/DTD/svg11\.dtd)' || true)
[ -z "$refs" ] || fail "the SVG refers to things outside itself: $(tr '\n' ' ' <<<"$refs")"
echo "ok: the SVG refers to nothing outside itself"

# 3. the copies run in the browser: an error hook before the SVG's script,
# the check script after it
instrument() { # MODE OUT.svg
	python3 "$TOP/harness/tests/svg-instrument.py" "$svg" \
		"$TOP/harness/tests/svg-browser-check.js" "$1" "$2"
}
instrument check "$out/check.svg" || fail "cannot instrument the SVG"
instrument shot "$out/zoomed.svg" || fail "cannot instrument the SVG"

n=0
browser() { # ARGS... : headless Chromium, its own profile and HOME, no network
	n=$((n + 1))
	mkdir -p "$out/home$n"
	HOME=$out/home$n XDG_CONFIG_HOME=$out/home$n/.config XDG_CACHE_HOME=$out/home$n/.cache \
	timeout 30 chromium --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
		--no-first-run --no-default-browser-check --disable-extensions --disable-sync \
		--disable-background-networking --disable-component-update \
		--proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>' \
		--host-resolver-rules='MAP * ~NOTFOUND' \
		--user-data-dir="$out/home$n/profile" "$@" 2>"$out/chromium$n.err"
}

s=0
browser --dump-dom "file://$out/check.svg" >"$out/check.dom" || s=$?
[ $s -eq 0 ] || { tail -5 "$out/chromium$n.err" | sed 's/^/    /'; fail "chromium --dump-dom exited $s"; }
# the last <desc id="browser-check"> block, the one the script added
got=$(awk '/^<desc id="browser-check">$/ { on = 1; v = ""; next }
	on && /^<\/desc>/ { on = 0; last = v; next }
	on { v = v $0 "\n" }
	END { printf "%s", last }' "$out/check.dom" |
	sed -e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&amp;/\&/g')
[ -n "$got" ] || fail "the check script did not run in the browser (no <desc id=\"browser-check\"> in the DOM)"
# the fixture: all 18 us; ksys_read 0-17 us, vfs_read 0-14 us under it with
# touch_atime 0-0.5 us, a second vfs_read 17-18 us; 1180 px wide frames
want=$(cat <<'EOF'
frames=7
title=vfs <&> "test"
initial.vfs_read.width=917.78
initial.vfs_read.box=917.78
initial.reset_zoom=hidden
hover.details=ksys_read (3 calls, total 17.000 us, self 3.000 us, 94.44%)
hover.out.details=" "
zoom.ksys_read.x=10.00
zoom.ksys_read.width=1180.00
zoom.ksys_read.box=1180.00
zoom.vfs_read.width=971.76
zoom.vfs_read.box=971.76
zoom.touch_atime.width=34.71
zoom.touch_atime.label=to..
zoom.other_vfs_read=hidden
zoom.do_syscall_64.width=1180.00
zoom.do_syscall_64.opacity=0.6
zoom.reset_zoom=shown
unzoom.vfs_read.width=917.78
unzoom.other_vfs_read=shown
unzoom.do_syscall_64.opacity=1
unzoom.reset_zoom=hidden
search.prompt=Search for (regular expression):
search.button=Search: vfs_
search.matched=Matched: 83.3% (click to reset)
search.vfs_read.fill=rgb(230,0,230)
search.other_vfs_read.fill=rgb(230,0,230)
search.ksys_read.fill=rgb(226,215,18)
f3.prevented=true
f3.matched=Matched: 100.0% (click to reset)
ctrl_f.prevented=true
ctrl_f.matched=Matched: 2.8% (click to reset)
reset.matched=" "
reset.button=Search
reset.vfs_read.fill=rgb(241,99,20)
reset.touch_atime.fill=rgb(252,126,57)
errors=none
EOF
)
if [ "$got" != "$want" ]; then
	diff <(echo "$want") <(echo "$got") | sed 's/^/    /' || true
	fail "in Chromium the flame graph does not zoom, reset or search as it should (< expected, > seen)"
fi
echo "ok: in Chromium, click to zoom, Reset Zoom, search (button, F3, Ctrl+F) and its matched share: $(wc -l <<<"$want") values as expected, no JavaScript error"

# 4. what it looks like: frames in their colours where they belong
for shot in fprobe-report zoomed; do
	s=0
	browser --window-size=1200,600 --hide-scrollbars --screenshot="$out/$shot.png" \
		"file://$out/$shot.svg" >/dev/null || s=$?
	if [ $s -ne 0 ] || [ ! -s "$out/$shot.png" ]; then
		tail -5 "$out/chromium$n.err" | sed 's/^/    /'
		fail "chromium --screenshot of $shot.svg exited $s, or wrote no PNG"
	fi
done
python3 "$TOP/harness/tests/svg-screenshots.py" "$out/fprobe-report.png" "$out/zoomed.png" ||
	fail "the screenshots do not show the flame graph"
echo "ok: the screenshots show the flame graph as opened and zoomed into ksys_read, with the search highlighted"
