"""Small vector symbols drawn with Pillow primitives (no glyphs, no artwork files).

Every symbol is drawn centred on ``(cx, cy)`` inside a square of half-side ``r``, so looks
can place suits, colour marks and badges the same way at any card size.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

from PIL import ImageDraw

from presentation.drawing.fonts import RGB

Point = tuple[float, float]
Symbol = Callable[[ImageDraw.ImageDraw, float, float, float, RGB], None]


def heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    lobe = r * 0.52
    top = cy - r * 0.35
    draw.ellipse((cx - 2 * lobe, top - lobe, cx, top + lobe), fill=fill)
    draw.ellipse((cx, top - lobe, cx + 2 * lobe, top + lobe), fill=fill)
    draw.polygon(
        [
            (cx - 2 * lobe + r * 0.03, top + lobe * 0.35),
            (cx + 2 * lobe - r * 0.03, top + lobe * 0.35),
            (cx, cy + r),
        ],
        fill=fill,
    )


def spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    lobe = r * 0.48
    base = cy + r * 0.12
    draw.ellipse((cx - 2 * lobe, base - lobe, cx, base + lobe), fill=fill)
    draw.ellipse((cx, base - lobe, cx + 2 * lobe, base + lobe), fill=fill)
    draw.polygon(
        [
            (cx - 2 * lobe + r * 0.03, base - lobe * 0.3),
            (cx + 2 * lobe - r * 0.03, base - lobe * 0.3),
            (cx, cy - r),
        ],
        fill=fill,
    )
    _stem(draw, cx, cy, r, fill)


def club(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    lobe = r * 0.42
    for dx, dy in ((0.0, -0.5), (-0.5, 0.2), (0.5, 0.2)):
        x, y = cx + dx * r, cy + dy * r
        draw.ellipse((x - lobe, y - lobe, x + lobe, y + lobe), fill=fill)
    draw.rectangle((cx - r * 0.12, cy - r * 0.2, cx + r * 0.12, cy + r * 0.35), fill=fill)
    _stem(draw, cx, cy, r, fill)


def _stem(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    draw.polygon([(cx, cy + r * 0.2), (cx - r * 0.35, cy + r), (cx + r * 0.35, cy + r)], fill=fill)


def diamond(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    draw.polygon([(cx, cy - r), (cx + r * 0.72, cy), (cx, cy + r), (cx - r * 0.72, cy)], fill=fill)


def circle(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    draw.ellipse((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), fill=fill)


def square(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    side = r * 0.78
    draw.rectangle((cx - side, cy - side, cx + side, cy + side), fill=fill)


def triangle(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    draw.polygon(
        [(cx, cy - r), (cx + r * 0.95, cy + r * 0.75), (cx - r * 0.95, cy + r * 0.75)], fill=fill
    )


def star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    points: list[Point] = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    draw.polygon(points, fill=fill)


def ring(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    """A wreath: a thick ring with a small bow at the bottom."""
    width = max(2, round(r * 0.32))
    draw.ellipse(
        (cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), outline=fill, width=width
    )
    bow = r * 0.32
    y = cy + r * 0.8
    draw.polygon([(cx, y), (cx - bow * 1.3, y - bow), (cx - bow * 1.3, y + bow)], fill=fill)
    draw.polygon([(cx, y), (cx + bow * 1.3, y - bow), (cx + bow * 1.3, y + bow)], fill=fill)


def bolt(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    """Noise: a zigzag lightning bolt."""
    draw.polygon(
        [
            (cx + r * 0.25, cy - r),
            (cx - r * 0.6, cy + r * 0.1),
            (cx - r * 0.02, cy + r * 0.1),
            (cx - r * 0.3, cy + r),
            (cx + r * 0.6, cy - r * 0.15),
            (cx + r * 0.05, cy - r * 0.15),
        ],
        fill=fill,
    )


def bauble(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    """Ornament: a ball with a cap and a hook."""
    ball = r * 0.72
    y = cy + r * 0.22
    draw.ellipse((cx - ball, y - ball, cx + ball, y + ball), fill=fill)
    draw.rectangle((cx - r * 0.22, cy - r * 0.72, cx + r * 0.22, cy - r * 0.45), fill=fill)
    width = max(1, round(r * 0.1))
    draw.arc((cx - r * 0.2, cy - r, cx + r * 0.2, cy - r * 0.6), 180, 360, fill=fill, width=width)


def present(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    """Presents: a box with a ribbon (the ribbon is left as gaps, so one colour suffices)."""
    gap = max(1.0, r * 0.14)
    side = r * 0.8
    top = cy - r * 0.5
    for x0, x1 in ((cx - side, cx - gap), (cx + gap, cx + side)):
        for y0, y1 in ((top, cy - gap), (cy + gap, cy + r * 0.85)):
            draw.rectangle((x0, y0, x1, y1), fill=fill)
    loop = r * 0.3
    draw.ellipse((cx - loop * 2, top - loop * 1.6, cx - gap * 0.3, top - gap), fill=fill)
    draw.ellipse((cx + gap * 0.3, top - loop * 1.6, cx + loop * 2, top - gap), fill=fill)


def warning(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    """A hazard sign: a triangle with an exclamation mark cut out."""
    triangle(draw, cx, cy, r, fill)
    hole = (255, 255, 255)
    draw.rectangle((cx - r * 0.09, cy - r * 0.35, cx + r * 0.09, cy + r * 0.3), fill=hole)
    draw.ellipse((cx - r * 0.1, cy + r * 0.42, cx + r * 0.1, cy + r * 0.62), fill=hole)


SYMBOLS: Final[Mapping[str, Symbol]] = MappingProxyType(
    {
        "heart": heart,
        "spade": spade,
        "club": club,
        "diamond": diamond,
        "circle": circle,
        "square": square,
        "triangle": triangle,
        "star": star,
        "ring": ring,
        "bolt": bolt,
        "bauble": bauble,
        "present": present,
        "warning": warning,
    }
)


def symbol(draw: ImageDraw.ImageDraw, name: str, cx: float, cy: float, r: float, fill: RGB) -> None:
    """Draw the symbol called ``name`` (a key of :data:`SYMBOLS`)."""
    SYMBOLS[name](draw, cx, cy, r, fill)
