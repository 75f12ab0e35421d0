"""The one font every picture uses: the scalable font that ships inside Pillow.

``ImageFont.load_default(size=...)`` (Pillow >= 10.1, built with FreeType) returns a TrueType
font embedded in Pillow itself, so pictures never depend on the fonts of the machine and the
same view gives the same pixels everywhere the locked Pillow version runs.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont
RGB = tuple[int, int, int]


# lru_cache is safe here: the function is pure in one int, a FreeTypeFont is never mutated
# after loading, and the cache is bounded (a picture uses a handful of sizes).
@lru_cache(maxsize=48)
def font(size: int) -> Font:
    """Pillow's embedded scalable font at ``size`` pixels."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow was built without FreeType: card pictures need it.")
    return loaded


_SUBSTITUTES = {"\u2014": "-", "\u2013": "-", "\u2212": "-", "\u2018": "'", "\u2019": "'"}
_NOT_A_GLYPH = "\uffff"  # never in a font: what FreeType draws for a missing glyph


# Pure in one character, bounded: caching it keeps the glyph test off the hot path.
@lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    probe = font(20)
    mask = probe.getmask(char)
    missing = probe.getmask(_NOT_A_GLYPH)
    return (mask.size, bytes(mask)) != (missing.size, bytes(missing))


def printable(value: str) -> str:
    """``value`` with what the font cannot draw removed (accents dropped, not whole letters),
    so a name never shows as empty boxes; "?" if nothing is left."""
    kept = []
    for original in unicodedata.normalize("NFKD", value):
        char = _SUBSTITUTES.get(original, original)
        if char == " " or _has_glyph(char):
            kept.append(char)
    result = " ".join("".join(kept).split())
    return result or "?"


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    value: str,
    size: int,
    fill: RGB,
    *,
    anchor: str = "mm",
    bold: bool = False,
    outline: RGB | None = None,
) -> None:
    """Draw ``value`` anchored at ``xy``; ``bold`` thickens it with a stroke of its own colour."""
    stroke = max(1, size // 22) if bold or outline is not None else 0
    draw.text(
        xy,
        printable(value),
        font=font(size),
        fill=fill,
        anchor=anchor,
        stroke_width=stroke,
        stroke_fill=outline if outline is not None else fill,
    )


def text_width(value: str, size: int) -> float:
    """Width in pixels of ``value`` at ``size``."""
    return font(size).getlength(printable(value))


def fit(value: str, size: int, width: float) -> int:
    """The largest size up to ``size`` at which ``value`` fits in ``width`` pixels (min 8)."""
    while size > 8 and text_width(value, size) > width:
        size -= 1
    return size


def clip(value: str, size: int, width: float) -> str:
    """``value`` cut short with "..." so that it fits in ``width`` pixels at ``size``."""
    value = printable(value)
    if text_width(value, size) <= width:
        return value
    while value and text_width(value + "...", size) > width:
        value = value[:-1]
    return value + "..."
