// svg-flamegraph-check.js SVG: run the inline script of the flame graph that
// perf test "fprobe report" writes (harness/tests/perf-fprobe-report.sh)
// against a minimal DOM, and check click to zoom, Reset Zoom and search with
// its matched share, on the known frames of that recording.
const fs = require('fs');
const svg = fs.readFileSync(process.argv[2], 'utf8');
const script = svg.match(/<!\[CDATA\[([\s\S]*?)\]\]>/)[1];
function unesc(s) { return s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'); }
function attrs(s) { const a = {}; s.replace(/([\w-]+)="([^"]*)"/g, (m, k, v) => { a[k] = unesc(v); }); return a; }
class El {
	constructor(tag, a, text) { this.tag = tag; this.a = a || {}; this.kids = []; this.listeners = {}; this.textContent = text || '';
		const self = this; this.firstChild = { get nodeValue() { return self.textContent; }, set nodeValue(v) { self.textContent = v; } };
		this.classList = { add: c => { const s = new Set((self.a['class'] || '').split(' ').filter(x => x)); s.add(c); self.a['class'] = [...s].join(' '); },
			remove: c => { self.a['class'] = (self.a['class'] || '').split(' ').filter(x => x && x !== c).join(' '); },
			contains: c => (self.a['class'] || '').split(' ').includes(c) }; }
	getAttribute(k) { return k in this.a ? this.a[k] : null; }
	setAttribute(k, v) { this.a[k] = String(v); }
	hasAttribute(k) { return k in this.a; }
	removeAttribute(k) { delete this.a[k]; }
	getElementsByTagName(t) { return this.kids.filter(k => k.tag === t); }
	addEventListener(ev, fn) { this.listeners[ev] = fn; }
	click() { this.listeners.click.call(this); }
}
const frames = [], byId = {};
for (const m of svg.matchAll(/<g (class="f"[^>]*)><title>([^<]*)<\/title><rect ([^>]*)\/><text ([^>]*)>([^<]*)<\/text><\/g>/g)) {
	const g = new El('g', attrs(m[1]));
	g.kids.push(new El('title', {}, unesc(m[2])), new El('rect', attrs(m[3])), new El('text', attrs(m[4]), unesc(m[5])));
	frames.push(g);
}
for (const m of svg.matchAll(/<text id="(\w+)"([^>]*)>([^<]*)<\/text>/g))
	byId[m[1]] = new El('text', Object.assign(attrs(m[2]), { id: m[1] }), m[3]);
let promptAnswer = null;
global.document = { querySelectorAll: () => frames, getElementById: id => byId[id] };
global.window = { addEventListener: () => {} };
global.prompt = () => promptAnswer;
global.alert = m => { throw new Error('alert: ' + m); };
eval(script + '\n;init(null);\nglobal.__search = search; global.__unzoom = unzoom;');
let fail = 0;
function check(what, got, want) { if (got !== want) { console.log(`FAIL ${what}: got ${got}, want ${want}`); fail = 1; } else console.log(`ok ${what}: ${got}`); }
const f = (n, s) => frames.find(g => g.a['data-n'] === n && (s === undefined || g.a['data-s'] === String(s)));
const rect = g => g.getElementsByTagName('rect')[0], text = g => g.getElementsByTagName('text')[0];
check('frames', frames.length, 7);
check('initial vfs_read width', rect(f('vfs_read', 0)).a.width, '917.78');
f('ksys_read').click();
check('zoomed ksys_read x', rect(f('ksys_read')).a.x, '10.00');
check('zoomed ksys_read width', rect(f('ksys_read')).a.width, '1180.00');
check('zoomed vfs_read width', rect(f('vfs_read', 0)).a.width, (14000 / 17000 * 1180).toFixed(2));
check('zoomed touch_atime width', rect(f('touch_atime')).a.width, (500 / 17000 * 1180).toFixed(2));
check('zoomed touch_atime label', text(f('touch_atime')).textContent, 'to..');
check('other vfs_read hidden', f('vfs_read', 17000).classList.contains('hide'), true);
check('ancestor stretched', rect(f('do_syscall_64')).a.width, '1180.00');
check('ancestor dimmed', f('do_syscall_64').classList.contains('anc'), true);
check('reset zoom shown', byId.unzoom.classList.contains('hide'), false);
byId.unzoom.click();
check('unzoomed vfs_read width', rect(f('vfs_read', 0)).a.width, '917.78');
check('unzoomed other vfs_read shown', f('vfs_read', 17000).classList.contains('hide'), false);
check('unzoomed ancestor', f('do_syscall_64').classList.contains('anc'), false);
check('reset zoom hidden', byId.unzoom.classList.contains('hide'), true);
promptAnswer = 'vfs_';
byId.search.click();
check('matched', byId.matched.textContent, 'Matched: 83.3% (click to reset)');
check('highlighted', rect(f('vfs_read', 0)).a.fill, 'rgb(230,0,230)');
check('not highlighted', rect(f('ksys_read')).a.fill === 'rgb(230,0,230)', false);
promptAnswer = 'read';   /* ksys_read contains vfs_read: counted once */
byId.search.click();
check('nested matches once', byId.matched.textContent, 'Matched: 100.0% (click to reset)');
byId.matched.click();
check('search reset', rect(f('vfs_read', 0)).a.fill === 'rgb(230,0,230)', false);
check('search button', byId.search.textContent, 'Search');
process.exit(fail);
