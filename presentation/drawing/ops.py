"""What a picture is made of: the steps a :class:`presentation.drawing.layout.Sheet` records.

A sheet records its steps first and draws them when it is encoded, so the same steps can be
drawn two ways: on a full-colour canvas quantized at the end (:func:`layout.paint`, the
reference), or pasted from parts already reduced to a few colours each onto a palette canvas
(:mod:`presentation.drawing.indexed`, what the bot uses).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PIL import Image

from presentation.drawing.fonts import RGB, Face


@dataclass(frozen=True, slots=True)
class Paste:
    """A card face (or back) with its top-left corner at (x, y)."""

    image: Image.Image
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Shape:
    """A Pillow primitive: ``ImageDraw.<kind>(xy, fill=..., outline=..., width=...)``."""

    kind: Literal["rounded_rectangle", "line"]
    xy: tuple[float, ...]
    fill: RGB | None = None
    outline: RGB | None = None
    width: int = 1
    radius: float = 0
    joint: Literal["curve"] | None = None


@dataclass(frozen=True, slots=True)
class Symbol:
    """One of :data:`presentation.drawing.shapes.SYMBOLS`, centred on (cx, cy)."""

    name: str
    cx: float
    cy: float
    r: float
    colour: RGB


@dataclass(frozen=True, slots=True)
class Text:
    """A line of text already made printable in its typeface; ``ground`` is the colour
    expected under it (what its anti-aliased edges blend into)."""

    x: float
    y: float
    value: str
    size: int
    face: Face
    colour: RGB
    anchor: str
    stroke: int
    ground: RGB


Op = Paste | Shape | Symbol | Text
