"""The blank card every look starts from, and the background patterns looks use as a cue.

A face is an RGB image whose rounded corners show the table colour, so compositions paste
faces without a mask (pictures always use the same table colour).
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image, ImageDraw

from presentation.drawing.fonts import RGB
from presentation.drawing.palette import INK, TABLE

RATIO = 1.4  # card height / width

# A background pattern: (draw, box, colour, step); stripes, dots, rings and checks below.
Pattern = Callable[[ImageDraw.ImageDraw, tuple[int, int, int, int], RGB, int], None]


def card_height(width: int) -> int:
    return round(width * RATIO)


def blank(width: int, fill: RGB, border: RGB = INK) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A card-shaped image: rounded rectangle of ``fill`` with a thin ``border``."""
    height = card_height(width)
    image = Image.new("RGB", (width, height), TABLE)
    draw = ImageDraw.Draw(image)
    radius = max(4, width // 12)
    line = max(1, width // 70)
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1), radius, fill=fill, outline=border, width=line
    )
    return image, draw


def patterned(
    width: int, fill: RGB, pattern: Pattern, shade: RGB, step: int
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank card of ``fill`` with ``pattern`` (one of the patterns below) in ``shade``,
    ``step`` pixels apart, over the inner box."""
    image, draw = blank(width, fill)
    pattern(draw, inner_box(width), shade, step)
    return image, draw


def inner_box(width: int) -> tuple[int, int, int, int]:
    """The area inside the border where patterns may go."""
    pad = max(3, width // 16)
    return pad, pad, width - 1 - pad, card_height(width) - 1 - pad


def stripes(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: RGB, step: int
) -> None:
    """Diagonal stripes clipped to ``box``."""
    x0, y0, x1, y1 = box
    width = max(1, step // 4)
    for offset in range(-(y1 - y0), x1 - x0, step):
        start = (x0 + offset, y0)
        end = (x0 + offset + (y1 - y0), y1)
        _clipped_line(draw, start, end, box, colour, width)


def dots(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: RGB, step: int) -> None:
    """A grid of dots, every other row shifted."""
    x0, y0, x1, y1 = box
    r = max(1, step // 6)
    for row, y in enumerate(range(y0 + step // 2, y1 - r, step)):
        shift = step // 2 if row % 2 else 0
        for x in range(x0 + step // 2 + shift, x1 - r, step):
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def rings(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: RGB, step: int
) -> None:
    """Small open circles in a grid."""
    x0, y0, x1, y1 = box
    r = max(2, step // 4)
    for y in range(y0 + step // 2, y1 - r, step):
        for x in range(x0 + step // 2, x1 - r, step):
            draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=max(1, r // 3))


def checks(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: RGB, step: int
) -> None:
    """A checkerboard of small squares."""
    x0, y0, x1, y1 = box
    half = max(2, step // 2)
    for row, y in enumerate(range(y0, y1 - half + 1, half)):
        for col, x in enumerate(range(x0, x1 - half + 1, half)):
            if (row + col) % 2 == 0:
                draw.rectangle((x, y, x + half - 1, y + half - 1), fill=colour)


def _clipped_line(
    draw: ImageDraw.ImageDraw,
    start: tuple[int, int],
    end: tuple[int, int],
    box: tuple[int, int, int, int],
    colour: RGB,
    width: int,
) -> None:
    """A 45-degree line from ``start`` to ``end`` cut to ``box``."""
    x0, _, x1, _ = box
    (sx, sy), (ex, ey) = start, end
    if sx < x0:
        sy += x0 - sx
        sx = x0
    if ex > x1:
        ey -= ex - x1
        ex = x1
    if sx <= ex:
        draw.line((sx, sy, ex, ey), fill=colour, width=width)
