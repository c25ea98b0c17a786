// svg-browser-check.js: appended by harness/tests/svg-browser.sh, as one more
// <script>, to a copy of the flame graph that perf test "fprobe report"
// writes, and run in headless Chromium. Once the page has loaded (the SVG's
// own onload="init(evt)" has run), it drives the real DOM the way a user
// would: mouse over and click a frame (real MouseEvents), click Reset Zoom,
// click Search and press F3 and Ctrl+F (window.prompt answered here), click
// the matched share to reset the search; and writes "key=value" lines of
// what it saw (attributes, computed styles, rendered boxes) into
// a desc element with id browser-check, which the shell test reads with --dump-dom.
// svgBrowserMode "shot" only zooms into ksys_read and searches "vfs_", for
// the screenshot. Errors are collected by the hook svg-browser.sh puts
// before the SVG's own script (svgBrowserErrors).
window.addEventListener('load', function () {
	var lines = [], answer = null, asked = null;
	function put(k, v) { lines.push(k + '=' + v); }
	function frame(n, s) {
		var fs = document.querySelectorAll('g.f');
		for (var i = 0; i < fs.length; i++)
			if (fs[i].getAttribute('data-n') === n &&
			    (s === undefined || fs[i].getAttribute('data-s') === String(s)))
				return fs[i];
		throw new Error('no frame ' + n + (s === undefined ? '' : ' at ' + s));
	}
	function rect(g) { return g.getElementsByTagName('rect')[0]; }
	function label(g) { return g.getElementsByTagName('text')[0].textContent; }
	// hidden in the rendering, not only by class: display none, empty box
	function vis(el) {
		var hidden = getComputedStyle(el).display === 'none',
			box = el.getBoundingClientRect().width > 0;
		return hidden && !box ? 'hidden' : !hidden && box ? 'shown' :
			'inconsistent (display ' + getComputedStyle(el).display + ')';
	}
	function box(el) { return el.getBoundingClientRect().width.toFixed(2); }
	function mouse(el, type) {
		el.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, view: window }));
	}
	function key(code, ctrl) {
		var e = new KeyboardEvent('keydown', { keyCode: code, ctrlKey: !!ctrl,
			bubbles: true, cancelable: true, view: window });
		document.documentElement.dispatchEvent(e);
		return e.defaultPrevented;
	}
	window.prompt = function (q) { asked = q; return answer; };
	var $ = function (id) { return document.getElementById(id); };
	try {
		if (svgBrowserMode === 'shot') {
			mouse(frame('ksys_read'), 'click');
			answer = 'vfs_';
			mouse($('search'), 'click');
		} else {
			put('frames', document.querySelectorAll('g.f').length);
			put('title', $('title').textContent);
			put('initial.vfs_read.width', rect(frame('vfs_read', 0)).getAttribute('width'));
			put('initial.vfs_read.box', box(rect(frame('vfs_read', 0))));
			put('initial.reset_zoom', vis($('unzoom')));
			mouse(frame('ksys_read'), 'mouseover');
			put('hover.details', $('details').textContent);
			mouse(frame('ksys_read'), 'mouseout');
			put('hover.out.details', JSON.stringify($('details').textContent));

			mouse(frame('ksys_read'), 'click');
			put('zoom.ksys_read.x', rect(frame('ksys_read')).getAttribute('x'));
			put('zoom.ksys_read.width', rect(frame('ksys_read')).getAttribute('width'));
			put('zoom.ksys_read.box', box(rect(frame('ksys_read'))));
			put('zoom.vfs_read.width', rect(frame('vfs_read', 0)).getAttribute('width'));
			put('zoom.vfs_read.box', box(rect(frame('vfs_read', 0))));
			put('zoom.touch_atime.width', rect(frame('touch_atime')).getAttribute('width'));
			put('zoom.touch_atime.label', label(frame('touch_atime')));
			put('zoom.other_vfs_read', vis(frame('vfs_read', 17000)));
			put('zoom.do_syscall_64.width', rect(frame('do_syscall_64')).getAttribute('width'));
			put('zoom.do_syscall_64.opacity', getComputedStyle(frame('do_syscall_64')).opacity);
			put('zoom.reset_zoom', vis($('unzoom')));

			mouse($('unzoom'), 'click');
			put('unzoom.vfs_read.width', rect(frame('vfs_read', 0)).getAttribute('width'));
			put('unzoom.other_vfs_read', vis(frame('vfs_read', 17000)));
			put('unzoom.do_syscall_64.opacity', getComputedStyle(frame('do_syscall_64')).opacity);
			put('unzoom.reset_zoom', vis($('unzoom')));

			answer = 'vfs_';
			mouse($('search'), 'click');
			put('search.prompt', asked);
			put('search.button', $('search').textContent);
			put('search.matched', $('matched').textContent);
			put('search.vfs_read.fill', rect(frame('vfs_read', 0)).getAttribute('fill'));
			put('search.other_vfs_read.fill', rect(frame('vfs_read', 17000)).getAttribute('fill'));
			put('search.ksys_read.fill', rect(frame('ksys_read')).getAttribute('fill'));

			answer = 'read';	// ksys_read contains vfs_read: counted once
			put('f3.prevented', key(114));
			put('f3.matched', $('matched').textContent);
			answer = 'touch';
			put('ctrl_f.prevented', key(70, true));
			put('ctrl_f.matched', $('matched').textContent);

			mouse($('matched'), 'click');
			put('reset.matched', JSON.stringify($('matched').textContent));
			put('reset.button', $('search').textContent);
			put('reset.vfs_read.fill', rect(frame('vfs_read', 0)).getAttribute('fill'));
			put('reset.touch_atime.fill', rect(frame('touch_atime')).getAttribute('fill'));
		}
	} catch (e) {
		svgBrowserErrors.push('check script: ' + e);
	}
	put('errors', svgBrowserErrors.length ? svgBrowserErrors.join(' | ') : 'none');
	var d = document.createElementNS('http://www.w3.org/2000/svg', 'desc');
	d.setAttribute('id', 'browser-check');
	d.textContent = '\n' + lines.join('\n') + '\n';
	document.documentElement.appendChild(d);
});
