"""The fonts pictures draw with: Pillow's embedded font, and DejaVu Sans Condensed for the rest.

``ImageFont.load_default(size=...)`` (Pillow >= 10.1, built with FreeType) returns a TrueType
font embedded in Pillow itself, so pictures never depend on the fonts of the machine and the
same view gives the same pixels everywhere the locked Pillow version runs. That font draws
ASCII only: Romanian ș ț ă â î, Estonian õ ä ö ü š ž and Lithuanian ą č ę ė į ų ū have no glyph
in it. So pictures in those languages, and any text with a letter the embedded font lacks (a
player called Ștefan), use DejaVu Sans Condensed, which ships with the code (``typeface/``,
license beside it): about as wide as the embedded font, and it draws every letter of Latin
Extended-A. English pictures keep the embedded font.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Literal

from PIL import ImageDraw, ImageFont

import i18n

Font = ImageFont.FreeTypeFont
RGB = tuple[int, int, int]
Face = Literal["embedded", "dejavu"]

DEJAVU = Path(__file__).with_name("typeface") / "DejaVuSansCondensed.ttf"
# Languages whose pictures are drawn with DejaVu: their alphabets need it.
FULL_FONT_LANGUAGES = frozenset({"ro", "et", "lt"})


# lru_cache is safe here: the function is pure in its arguments, a FreeTypeFont is never
# mutated after loading, and the cache is bounded (a picture uses a handful of sizes).
@lru_cache(maxsize=96)
def font(size: int, face: Face = "embedded") -> Font:
    """Pillow's embedded scalable font (or the bundled DejaVu) at ``size`` pixels."""
    if face == "dejavu":
        # The basic layout, as the embedded font uses: the same pixels whether or not the
        # machine's Pillow has libraqm (letters are precomposed, nothing needs shaping).
        return ImageFont.truetype(DEJAVU, size, layout_engine=ImageFont.Layout.BASIC)
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow was built without FreeType: card pictures need it.")
    return loaded


_SUBSTITUTES = {"\u2014": "-", "\u2013": "-", "\u2212": "-", "\u2018": "'", "\u2019": "'"}
_NOT_A_GLYPH = "\uffff"  # never in a font: what FreeType draws for a missing glyph


# Pure in its arguments, bounded: caching it keeps the glyph test off the hot path.
@lru_cache(maxsize=8192)
def has_glyph(char: str, face: Face = "embedded") -> bool:
    """Whether ``face`` draws ``char`` (rather than the box of a missing glyph)."""
    probe = font(20, face)
    mask = probe.getmask(char)
    missing = probe.getmask(_NOT_A_GLYPH)
    return (mask.size, bytes(mask)) != (missing.size, bytes(missing))


_ONE_FACE: ContextVar[Face | None] = ContextVar("one_face", default=None)


def face_for(value: str) -> Face:
    """The font ``value`` is drawn with: the one :func:`one_face` chose for the picture being
    drawn, else DejaVu in ro, et and lt, or when the embedded font lacks one of its letters
    (spaces and marks it can do without aside); else the embedded one."""
    chosen = _ONE_FACE.get()
    if chosen is not None:
        return chosen
    if i18n.current() in FULL_FONT_LANGUAGES:
        return "dejavu"
    for char in unicodedata.normalize("NFC", value):
        if char.isalpha() and not has_glyph(char):
            return "dejavu"
    return "embedded"


def chosen_face() -> Face | None:
    """The typeface :func:`one_face` chose for the picture being drawn, if any."""
    return _ONE_FACE.get()


@contextmanager
def one_face(*values: str) -> Iterator[Face]:
    """Draw every text of the block in one typeface: DejaVu if any of ``values`` (the
    picture's words and names) needs it, else the one the language uses. Without it, one
    player's name with a letter the embedded font lacks would be drawn in another typeface
    than the rest of its picture."""
    faces = {face_for(value) for value in values}
    face: Face = "dejavu" if "dejavu" in faces else face_for("")
    with in_face(face):
        yield face


@contextmanager
def in_face(face: Face | None) -> Iterator[None]:
    """Draw every text of the block in ``face``, as :func:`one_face` chose it (None: each
    text in the face it needs); for drawing parts ahead in the typeface a picture chose."""
    token = _ONE_FACE.set(face)
    try:
        yield
    finally:
        _ONE_FACE.reset(token)


def printable(value: str, face: Face | None = None) -> str:
    """``value`` with what the font cannot draw removed (accents dropped, not whole letters),
    so a name never shows as empty boxes; "?" if nothing is left."""
    face = face_for(value) if face is None else face
    kept: list[str] = []
    if face == "embedded":
        for original in unicodedata.normalize("NFKD", value):
            char = _SUBSTITUTES.get(original, original)
            if char == " " or has_glyph(char):
                kept.append(char)
    else:
        for original in unicodedata.normalize("NFC", value):
            if original.isspace() or has_glyph(original, face):
                kept.append(original)
                continue
            for part in unicodedata.normalize("NFKD", _SUBSTITUTES.get(original, original)):
                if has_glyph(part, face):
                    kept.append(part)
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
    face = face_for(value)
    draw.text(
        xy,
        printable(value, face),
        font=font(size, face),
        fill=fill,
        anchor=anchor,
        stroke_width=stroke,
        stroke_fill=outline if outline is not None else fill,
    )


def text_width(value: str, size: int) -> float:
    """Width in pixels of ``value`` at ``size``."""
    return _width(value, size, face_for(value))


# Pure in its arguments and bounded: a picture measures the same words turn after turn.
@lru_cache(maxsize=4096)
def _width(value: str, size: int, face: Face) -> float:
    return font(size, face).getlength(printable(value, face))


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
