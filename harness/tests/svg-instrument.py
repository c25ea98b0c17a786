#!/usr/bin/python3
"""svg-instrument.py SVG CHECK.js MODE OUT.svg: a copy of the flame graph
SVG with an error hook before its own script and the browser check
(svg-browser-check.js, in MODE "check" or "shot") after it, for
svg-browser.sh to open in headless Chromium."""
import re, sys
svg, js, mode, dst = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3], sys.argv[4]
hook = ('<script type="text/ecmascript"><![CDATA[\nvar svgBrowserErrors = [];\n'
	'window.addEventListener("error", function (e) { svgBrowserErrors.push('
	'(e.message || "error") + " (line " + e.lineno + ")"); });\n]]></script>\n')
check = ('<script type="text/ecmascript"><![CDATA[\nvar svgBrowserMode = "%s";\n%s]]></script>\n'
	% (mode, js))
m = re.search(r'<svg\b[^>]*>\n?', svg)
end = svg.rindex('</svg>')
assert m and end > m.end(), 'no <svg> root element'
open(dst, 'w').write(svg[:m.end()] + hook + svg[m.end():end] + check + svg[end:])
