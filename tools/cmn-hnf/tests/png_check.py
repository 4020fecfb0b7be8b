#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# png_check.py PNG WIDTH HEIGHT COLOR...: the screenshot a browser made of
# a report SVG has the window's size and shows each #rrggbb COLOR (the
# threshold bands, the heat map's cold and hot ends). A small PNG decoder
# (8-bit RGB/RGBA, no interlace) so that no imaging library is needed.
# Prints one line saying what is wrong and exits 1, or exits 0.

import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError(f"unsupported PNG: depth {depth} type {ctype}")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    if w is None:
        raise ValueError("no IHDR")
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def main():
    path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        gw, gh, bpp, rows = decode(path)
    except (OSError, ValueError, zlib.error) as e:
        print(f"{path}: {e}")
        return 1
    if (gw, gh) != (w, h):
        print(f"{path}: {gw}x{gh}, expected {w}x{h}")
        return 1
    seen = set()
    for line in rows:
        for i in range(0, len(line), bpp):
            seen.add(bytes(line[i:i + 3]))
    if len(seen) < 50:
        print(f"{path}: only {len(seen)} colours: nothing was drawn")
        return 1
    for c in sys.argv[4:]:
        want = bytes.fromhex(c.lstrip("#"))
        if want not in seen:
            print(f"{path}: colour {c} is not in the picture")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
