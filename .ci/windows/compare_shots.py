"""Checks the Windows build's screenshot against the Linux build's (.ci/windows-smoke).

Usage: compare_shots.py WINDOWS.png LINUX.png

Both are loam's RGBA PNGs of the same view. The Windows one must show terrain over most of the 3D
view (the same measure as tests/screenshot_xvfb.rs: pixels that are not the sky colour) and differ
from the Linux one by little on average (wine draws through the same Mesa, so only rounding and
driver paths differ). Pure Python: nothing to install.
"""
import struct
import sys
import zlib

SKY = [round(c * 255) for c in (0.52, 0.66, 0.80)]  # render::terrain::SKY_COLOR


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 6), f"{path}: not 8-bit RGBA"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 4
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return width, height, rows


def view(width, height):
    """Sample points of the 3D view: between the side panels, menu and status bar. The panels
    are left out: egui follows the system's light or dark theme, which wine and Xvfb differ in."""
    for y in range(height // 10, height * 9 // 10, 4):
        for x in range(width * 3 // 10, width * 78 // 100, 4):
            yield y, x * 4


def main():
    ww, wh, win = read_png(sys.argv[1])
    lw, lh, lin = read_png(sys.argv[2])
    assert (ww, wh) == (lw, lh), f"sizes differ: {ww}x{wh} and {lw}x{lh}"
    n = terrain = diff = 0
    for y, i in view(ww, wh):
        n += 1
        if any(abs(win[y][i + c] - SKY[c]) > 6 for c in range(3)):
            terrain += 1
        diff += sum(abs(win[y][i + c] - lin[y][i + c]) for c in range(3)) / 3
    share, mean = terrain / n, diff / n
    print(f"windows screenshot: terrain over {share:.2f} of the view, "
          f"mean difference from the Linux build's {mean:.2f} of 255")
    if share < 0.4 or mean > 4:
        sys.exit("windows screenshot: no terrain, or not the Linux build's picture")


main()
