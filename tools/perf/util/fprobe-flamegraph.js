// SPDX-License-Identifier: GPL-2.0
/*
 * The script of perf fprobe's SVG flame graphs, which
 * fprobe_report__write_svg() writes inline after "use strict" and the
 * layout of the graph: W (its width), XPAD (the margin) and CW (the width
 * of a character), in pixels.
 *
 * Zoom: a click on a frame lays out its subtree over the whole width and
 * stretches its ancestors; "Reset Zoom" returns to the whole graph. Search
 * (the button, Ctrl-F or F3): frames whose name matches a regular
 * expression turn magenta, and the share of the time they cover (nested
 * matches counted once) is shown.
 */
var frames, details, unzoombtn, searchbtn, matchedtxt;
var rootw = 0, searching = false;
function init(evt) {
	frames = document.querySelectorAll("g.f");
	details = document.getElementById("details").firstChild;
	unzoombtn = document.getElementById("unzoom");
	searchbtn = document.getElementById("search");
	matchedtxt = document.getElementById("matched");
	for (var i = 0; i < frames.length; i++) {
		var g = frames[i];
		if (num(g, "l") == 0)
			rootw = num(g, "w");
		g.addEventListener("click", function () { zoom(this); });
		g.addEventListener("mouseover", function () {
			details.nodeValue = this.getElementsByTagName("title")[0].textContent;
		});
		g.addEventListener("mouseout", function () { details.nodeValue = " "; });
	}
	unzoombtn.addEventListener("click", unzoom);
	searchbtn.addEventListener("click", search_prompt);
	matchedtxt.addEventListener("click", reset_search);
	window.addEventListener("keydown", function (e) {
		if (e.keyCode === 114 || (e.ctrlKey && e.keyCode === 70)) {
			e.preventDefault();
			search_prompt();
		}
	});
}
function num(g, a) { return Number(g.getAttribute("data-" + a)); }
function label(name, w) {
	var fit = Math.floor((w - 6) / CW);
	if (fit < 3)
		return "";
	return name.length <= fit ? name : name.substring(0, fit - 2) + "..";
}
function layout(s, w, l) {
	for (var i = 0; i < frames.length; i++) {
		var g = frames[i], gs = num(g, "s"), gw = num(g, "w"), gl = num(g, "l");
		var r = g.getElementsByTagName("rect")[0], t = g.getElementsByTagName("text")[0];
		var x, fw;
		g.classList.remove("anc");
		if (gl < l && gs <= s && gs + gw >= s + w) {
			x = XPAD;
			fw = W - 2 * XPAD;
			g.classList.add("anc");
		} else if (gl >= l && gs >= s && gs + gw <= s + w) {
			x = XPAD + (gs - s) / w * (W - 2 * XPAD);
			fw = gw / w * (W - 2 * XPAD);
		} else {
			g.classList.add("hide");
			continue;
		}
		g.classList.remove("hide");
		r.setAttribute("x", x.toFixed(2));
		r.setAttribute("width", fw.toFixed(2));
		t.setAttribute("x", (x + 3).toFixed(2));
		t.textContent = label(g.getAttribute("data-n"), fw);
	}
}
function zoom(g) {
	if (num(g, "w") <= 0)
		return;
	layout(num(g, "s"), num(g, "w"), num(g, "l"));
	unzoombtn.classList.remove("hide");
}
function unzoom() {
	layout(0, rootw, 0);
	unzoombtn.classList.add("hide");
}
function search_prompt() {
	var term = prompt("Search for (regular expression):", "");
	if (term)
		search(term);
}
function reset_search() {
	for (var i = 0; i < frames.length; i++) {
		var r = frames[i].getElementsByTagName("rect")[0];
		if (r.hasAttribute("data-fill")) {
			r.setAttribute("fill", r.getAttribute("data-fill"));
			r.removeAttribute("data-fill");
		}
	}
	matchedtxt.firstChild.nodeValue = " ";
	searchbtn.firstChild.nodeValue = "Search";
	searching = false;
}
function search(term) {
	var re, spans = [], covered = 0, end = -1;
	try {
		re = new RegExp(term);
	} catch (e) {
		alert("bad regular expression: " + e.message);
		return;
	}
	reset_search();
	for (var i = 0; i < frames.length; i++) {
		var g = frames[i], r = g.getElementsByTagName("rect")[0];
		if (num(g, "l") == 0 || !re.test(g.getAttribute("data-n")))
			continue;
		r.setAttribute("data-fill", r.getAttribute("fill"));
		r.setAttribute("fill", "rgb(230,0,230)");
		spans.push([num(g, "s"), num(g, "s") + num(g, "w")]);
	}
	spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
	for (var j = 0; j < spans.length; j++) {
		var from = Math.max(spans[j][0], end);
		if (spans[j][1] > from)
			covered += spans[j][1] - from;
		end = Math.max(end, spans[j][1]);
	}
	searching = true;
	searchbtn.firstChild.nodeValue = "Search: " + term;
	matchedtxt.firstChild.nodeValue = "Matched: " +
		(rootw ? (100 * covered / rootw).toFixed(1) : "0.0") + "% (click to reset)";
}
