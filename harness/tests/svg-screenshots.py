#!/usr/bin/python3
"""svg-screenshots.py AS-OPENED.png ZOOMED.png: Chromium's screenshots of
the flame graph (1200x600, the SVG in the top 200 rows) show its frames in
their colours where they belong, as opened and zoomed into ksys_read with
the search highlighted; one ok/FAIL line per pixel checked, exit 1 on a
FAIL. The PNGs are decoded here (8-bit RGB or RGBA, no interlace)."""
import struct, sys, zlib

def png(path, upto):  # the pixels of rows 0 .. upto-1
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', path + ': not a PNG'
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 6) and not interlace, path + ': unexpected PNG format'
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(min(h, upto)):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])

ok = True
def expect(name, px, x, y, rgb, what):
    global ok
    got = px(x, y)
    if max(abs(g - e) for g, e in zip(got, rgb)) > 3:
        print('FAIL %s: pixel (%d,%d) is rgb%s, not rgb%s (%s)' % (name, x, y, got, rgb, what))
        ok = False
    else:
        print('ok %s: pixel (%d,%d) is rgb%s (%s)' % (name, x, y, got, what))

for path, name, checks in (
    (sys.argv[1], 'as opened', [
        (600, 151, (190, 190, 190), 'all'),
        (600, 135, (132, 184, 239), 'entry_SYSCALL_64'),
        (600, 103, (226, 215, 18), 'ksys_read'),
        (600, 87, (241, 99, 20), 'vfs_read under ksys_read'),
        (1160, 103, (241, 99, 20), 'the other vfs_read'),
        (600, 60, (250, 250, 245), 'background'),
        (600, 71, (250, 250, 245), 'nothing above vfs_read but touch_atime')]),
    (sys.argv[2], 'zoomed', [
        (1160, 103, (226, 215, 18), 'ksys_read, now full width'),
        (600, 87, (230, 0, 230), 'vfs_read, found by the search'),
        (30, 65, (252, 126, 57), 'touch_atime, now 34.71 px wide'),
        (600, 71, (250, 250, 245), 'nothing right of touch_atime'),
        (600, 135, (179, 210, 241), 'entry_SYSCALL_64, an ancestor at 0.6 opacity')])):
    w, h, px = png(path, 200)  # the SVG is 1200x200
    if (w, h) != (1200, 600):
        print('FAIL %s: %dx%d, not 1200x600' % (name, w, h)); ok = False; continue
    colours = {px(x, y) for y in range(0, 200) for x in range(w)}
    print(('ok' if len(colours) >= 30 else 'FAIL') + ' %s: %d colours in the flame graph' % (name, len(colours)))
    ok &= len(colours) >= 30
    for x, y, rgb, what in checks:
        expect(name, px, x, y, rgb, what)
sys.exit(0 if ok else 1)
