"""A label's coverage put together from each letter's bitmap, kept per letter.

Rasterising a label's letters is most of what a new label costs (stroking them, for a
stroked one), and what FreeType draws for a letter does not depend on where the letter
stands: Pillow puts each letter's bitmap at its pen rounded to the whole pixel, the pen being
the sum of the letters' advances before it, each with its kerning against the next letter.
Pillow lays the letters' bitmaps over one another in order, each ``coverage + under * (255 -
coverage) / 255`` rounded, which is what pasting 255 through the bitmap as a mask computes.
So the same pixels come from the kept bitmaps pasted at the same pens.

The label's box is Pillow's (``FreeTypeFont.getbbox``): where every pen is a whole pixel (in
the embedded typeface, whose kerning is in whole pixels, every label's), it is the union of
the letters' boxes at their pens and of the pen line, and its anchor is found from the font's
lines and the pen's end as Pillow finds it; else (a kerning of a fraction of a pixel, as
DejaVu has) the font measures it.
"""

from __future__ import annotations

import functools
import operator
from itertools import accumulate
from typing import TYPE_CHECKING

from PIL import Image

from presentation.drawing.fonts import Face, font

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

# A letter: its bitmap (None where it covers nothing) and its box from its pen on the
# baseline (left, top, right, bottom, y down), as Pillow measures a label of it alone.
Letter = tuple["ImagingCore | None", int, int, int, int]
FRACTION = 63  # the bits of a pen position (1/64 pixel) below the whole pixel


def cover(
    value: str, size: int, face: Face, stroke: int, anchor: str, pad: int
) -> tuple[Image.Image, int, int]:
    """The coverage (mode L) ImageDraw.text draws for ``value`` (with a ``stroke`` filled the
    same, if any) at a whole-pixel start, ``pad`` pixels around its box, and where the
    drawing position lies in it."""
    if not value:
        return _measured(value, size, face, stroke, anchor, pad, [], [])
    advances = map(functools.partial(_advance, size, face), value, value[1:])
    pens = list(accumulate(advances, initial=0))
    end = pens[-1] + _alone(size, face, value[-1])
    letters = [_letter(size, face, stroke, char) for char in value]
    if (functools.reduce(operator.or_, pens) | end) & FRACTION:
        return _measured(value, size, face, stroke, anchor, pad, pens, letters)
    left, top, right, bottom = -stroke, -stroke, (end >> 6) + stroke, stroke  # the pen line
    for pen, (_, x0, y0, x1, y1) in zip(pens, letters, strict=True):
        left = min(left, (pen >> 6) + x0)
        top = min(top, y0)
        right = max(right, (pen >> 6) + x1)
        bottom = max(bottom, y1)
    across = _across(anchor[0], end) if len(anchor) == 2 else None
    up = _up(size, face, anchor[1], top + stroke, bottom - stroke) if len(anchor) == 2 else None
    if across is None or up is None:  # not an anchor of a line: Pillow says why
        return _measured(value, size, face, stroke, anchor, pad, pens, letters)
    canvas = _paste(pens, letters, (left, top, right, bottom), pad)
    return canvas, pad - left + across, pad - top - up


def _measured(
    value: str,
    size: int,
    face: Face,
    stroke: int,
    anchor: str,
    pad: int,
    pens: list[int],
    letters: list[Letter],
) -> tuple[Image.Image, int, int]:
    """:func:`cover` with the box and the anchor measured by the font."""
    typeface = font(size, face)
    left, top, right, bottom = map(int, typeface.getbbox(value, anchor="ls", stroke_width=stroke))
    x, y = map(int, typeface.getbbox(value, anchor=anchor, stroke_width=stroke)[:2])
    return _paste(pens, letters, (left, top, right, bottom), pad), pad - x, pad - y


def _paste(
    pens: list[int], letters: list[Letter], box: tuple[int, int, int, int], pad: int
) -> Image.Image:
    """The letters pasted at their pens (rounded as Pillow rounds them) on a canvas of the
    label's box and ``pad`` pixels around it."""
    left, top, right, bottom = box
    canvas = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    paste = canvas.im.paste
    for pen, (bitmap, x0, y0, x1, y1) in zip(pens, letters, strict=True):
        if bitmap is not None:
            x = pad + ((pen + 32) >> 6) + x0 - left
            y = pad + y0 - top
            paste(255, (x, y, x + x1 - x0, y + y1 - y0), bitmap)
    return canvas


def _across(where: str, end: int) -> int | None:
    """How far right of the label's start its anchor lies, from the pen's end (1/64 pixel):
    the pen line's start, its middle or its end, each rounded as Pillow rounds it."""
    if where == "l":
        return 0
    if where == "m":
        return (end // 2 + 32) >> 6
    if where == "r":
        return (end + 32) >> 6
    return None


def _up(size: int, face: Face, where: str, top: int, bottom: int) -> int | None:
    """How far above the baseline the anchor lies; ``top`` and ``bottom``: the label's
    unstroked box, down from the baseline."""
    if where == "s":
        return 0
    if where == "t":
        return -top
    if where == "b":
        return -bottom
    return _line(size, face, where) if where in "adm" else None


@functools.lru_cache(maxsize=256)
def _line(size: int, face: Face, where: str) -> int:
    """How far above the baseline Pillow puts a font's line (a: the ascender, d: the
    descender, m: their middle): the same for every label of that font."""
    typeface = font(size, face)
    return int(typeface.getbbox("x", anchor="l" + where)[1] - typeface.getbbox("x", anchor="ls")[1])


# Pure in their arguments (a font is never changed once loaded) and bounded: the four games'
# letters at their sizes in both typefaces fit many times over.
@functools.lru_cache(maxsize=8192)
def _letter(size: int, face: Face, stroke: int, char: str) -> Letter:
    """One letter's bitmap and box (:data:`Letter`)."""
    mask, (x, y) = font(size, face).getmask2(
        char, "L", stroke_width=stroke, anchor="ls", ink=255, stroke_filled=True
    )
    width, height = mask.size
    return (mask if width and height else None), x, y, x + width, y + height


@functools.lru_cache(maxsize=32768)
def _advance(size: int, face: Face, char: str, following: str) -> int:
    """How far (1/64 pixel) the pen moves past ``char`` when ``following`` comes next: its
    advance with their kerning."""
    return _length(size, face, char + following) - _alone(size, face, following)


@functools.lru_cache(maxsize=8192)
def _alone(size: int, face: Face, char: str) -> int:
    """How far (1/64 pixel) the pen moves past ``char`` when nothing follows it."""
    return _length(size, face, char)


def _length(size: int, face: Face, value: str) -> int:
    return round(font(size, face).getlength(value) * 64)
