#!/usr/bin/env python3
"""Regenerates the glyph outlines the server draws on tile faces.

The browser's tile pictures (crates/majiang-server/src/svg.rs) draw every character as an SVG
path so that a tile looks the same on a machine without a CJK font. This script takes those
glyphs once from Debian's Noto CJK fonts (SIL Open Font License 1.1) and writes them to
crates/majiang-server/src/glyphs/tile_glyphs.txt, which svg.rs embeds with include_str!.
Neither the build nor the tests need the fonts or Python; run this only to change the glyphs.

Needs: Debian's `fonts-noto-cjk` (apt-get install fonts-noto-cjk) and fontTools
(pip install fonttools). Usage, from the repository root:

    python3 scripts/tile-glyphs.py

Output format, one glyph a line after `#` comment lines:

    <char> <advance> <path data>

in font units (1000 to the em), with the origin at the left end of the baseline and y pointing
down (SVG's way), so `transform="translate(x y) scale(size/1000)"` sets the glyph at (x, y) as
`<text x y font-size=size>` would. Path data is relative (m l c z) with integer coordinates.
"""

import os
import sys

from fontTools.pens.recordingPen import RecordingPen
from fontTools.ttLib import TTCollection

FONT_DIR = "/usr/share/fonts/opentype/noto"
# Index 2 in Debian's collections is the Simplified Chinese face, the one the tiles asked for
# by name ('Noto Serif CJK SC') before they were drawn as paths.
SC = 2

# Face characters: numerals and 萬 on the characters suit, winds and dragons, flowers and
# seasons. Bold serif, as the faces were.
FACE_FONT = ("NotoSerifCJK-Bold.ttc", SC)
FACE_CHARS = "一二三四五六七八九萬東南西北發中梅蘭菊竹春夏秋冬"
# Corner labels: the tile's notation (`7m`, `3f`) in a plain sans.
LABEL_FONT = ("NotoSansCJK-Regular.ttc", SC)
LABEL_CHARS = "123456789mpszf"

OUT = os.path.join("crates", "majiang-server", "src", "glyphs", "tile_glyphs.txt")


def relative_path(ops):
    """SVG path data for recorded pen operations: relative commands, integer coordinates,
    y flipped to point down."""
    out = []
    cur = (0, 0)  # current point, rounded, SVG orientation
    start = (0, 0)  # start of the current subpath

    def pt(p):
        return (round(p[0]), -round(p[1]))

    def num(v):
        return str(v)

    def join(nums):
        # Separators only where needed: a minus sign separates numbers by itself.
        s = ""
        for i, n in enumerate(nums):
            t = num(n)
            if i > 0 and not t.startswith("-"):
                s += " "
            s += t
        return s

    last_cmd = None
    for op, args in ops:
        if op == "moveTo":
            p = pt(args[0])
            out.append("m" + join([p[0] - cur[0], p[1] - cur[1]]))
            cur = start = p
            last_cmd = "m"
        elif op == "lineTo":
            p = pt(args[0])
            body = join([p[0] - cur[0], p[1] - cur[1]])
            # An implicit repeat of the previous command needs a separator unless the
            # number carries its own minus sign.
            if last_cmd == "l":
                out.append(body if body.startswith("-") else " " + body)
            else:
                out.append("l" + body)
            cur = p
            last_cmd = "l"
        elif op == "curveTo" and len(args) == 3:
            p1, p2, p3 = (pt(a) for a in args)
            body = join(
                [
                    p1[0] - cur[0],
                    p1[1] - cur[1],
                    p2[0] - cur[0],
                    p2[1] - cur[1],
                    p3[0] - cur[0],
                    p3[1] - cur[1],
                ]
            )
            if last_cmd == "c":
                out.append(body if body.startswith("-") else " " + body)
            else:
                out.append("c" + body)
            cur = p3
            last_cmd = "c"
        elif op in ("closePath", "endPath"):
            out.append("z")
            cur = start
            last_cmd = "z"
        else:
            sys.exit(f"tile-glyphs: unexpected outline operation {op} (quadratic outlines?)")
    return "".join(out)


def glyph_lines(font_file, index, chars):
    path = os.path.join(FONT_DIR, font_file)
    if not os.path.exists(path):
        sys.exit(f"tile-glyphs: {path} not found; apt-get install fonts-noto-cjk")
    font = TTCollection(path).fonts[index]
    if font["head"].unitsPerEm != 1000:
        sys.exit(f"tile-glyphs: {font_file} is not 1000 units to the em")
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    hmtx = font["hmtx"]
    lines = []
    for c in chars:
        name = cmap.get(ord(c))
        if name is None:
            sys.exit(f"tile-glyphs: {font_file} has no glyph for {c}")
        pen = RecordingPen()
        glyphs[name].draw(pen)
        advance = hmtx[name][0]
        lines.append(f"{c} {advance} {relative_path(pen.value)}")
    name = font["name"]
    source = f"{name.getDebugName(4)} {name.getDebugName(5).split(';')[0]}, {name.getDebugName(0)}"
    return source, lines


def main():
    face_source, face = glyph_lines(*FACE_FONT, FACE_CHARS)
    label_source, label = glyph_lines(*LABEL_FONT, LABEL_CHARS)
    header = [
        "# Glyph outlines for the tile faces, generated by scripts/tile-glyphs.py; do not edit.",
        f"# Faces: {face_source}",
        f"# Labels: {label_source}",
        "# From Debian's fonts-noto-cjk; SIL Open Font License 1.1 (OFL.txt beside this file).",
        "# <char> <advance> <relative SVG path>, 1000 units to the em, y down, origin on the baseline.",
    ]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("\n".join(header + face + label) + "\n")
    print(f"tile-glyphs: wrote {OUT} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
