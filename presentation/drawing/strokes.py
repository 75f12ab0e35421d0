"""A stroked label's coverage put together from each letter's stroked bitmap, kept per letter.

FreeType's stroker is most of a stroked label's cost, and what it draws for a letter does not
depend on where the letter stands: with the basic layout (:func:`fonts.font`) a letter's pen
position is a whole pixel, the sum of the letters' advances before it, each with its kerning
against the next letter. Pillow lays the letters' bitmaps over one another in order, each
``coverage + under * (255 - coverage) / 255`` rounded, which is what pasting 255 through the
bitmap as a mask computes. So the same pixels come from the kept bitmaps pasted at the same
pens, without stroking the letters again.
"""

from __future__ import annotations

import functools

from PIL import Image

from presentation.drawing.fonts import Face, font


def cover(
    value: str, size: int, face: Face, stroke: int, anchor: str, pad: int
) -> tuple[Image.Image, int, int]:
    """The coverage (mode L) ImageDraw.text draws for ``value`` with a ``stroke`` filled the
    same, at a whole-pixel start, ``pad`` pixels around its box, and where the drawing
    position lies in it."""
    typeface = font(size, face)
    left, top, right, bottom = map(int, typeface.getbbox(value, anchor="ls", stroke_width=stroke))
    canvas = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    pen = 0
    last = len(value) - 1
    for i, char in enumerate(value):
        bitmap, x, y = _letter(size, face, stroke, char)
        if bitmap is not None:
            px = pad + ((pen + 32) >> 6) + x - left
            py = pad + y - top
            width, height = bitmap.size
            canvas.im.paste(255, (px, py, px + width, py + height), bitmap.im)
        if i < last:
            pen += _advance(size, face, char, value[i + 1])
    if anchor != "ls":
        left, top = map(int, typeface.getbbox(value, anchor=anchor, stroke_width=stroke)[:2])
    return canvas, pad - left, pad - top


# Pure in their arguments (a font is never changed once loaded) and bounded: the four games'
# letters at their sizes in both typefaces fit many times over.
@functools.lru_cache(maxsize=8192)
def _letter(size: int, face: Face, stroke: int, char: str) -> tuple[Image.Image | None, int, int]:
    """One letter's stroked bitmap and where it lies from the letter's pen on the baseline."""
    mask, (x, y) = font(size, face).getmask2(
        char, "L", stroke_width=stroke, anchor="ls", ink=255, stroke_filled=True
    )
    if not mask.size[0] or not mask.size[1]:
        return None, x, y
    return Image.Image()._new(mask), x, y


@functools.lru_cache(maxsize=32768)
def _advance(size: int, face: Face, char: str, following: str) -> int:
    """How far (1/64 pixel) the pen moves past ``char`` when ``following`` comes next: its
    advance with their kerning."""
    typeface = font(size, face)
    return round(typeface.getlength(char + following) * 64) - round(
        typeface.getlength(following) * 64
    )
