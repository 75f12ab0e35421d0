"""A label's sprite: each pixel shows its text's colour blended into the ground by the text's
coverage there, exact where that coverage level fills an area (a major), on the edges' grid
elsewhere; and a label off a whole pixel is drawn at its own start. (That the coverage is
ImageDraw.text's: test_letters.)"""

from __future__ import annotations

import pytest
from PIL import Image

from presentation.drawing import letters, parts
from presentation.drawing.fonts import RGB, Face
from presentation.drawing.ops import Text

LABELS = (
    ("Deck 95 · Player B to act", 22, "embedded", 0, (250, 250, 250), (30, 70, 52)),
    ("Your score 1 · coins 5 · bust tokens 0", 28, "embedded", 1, (20, 20, 20), (240, 230, 200)),
    ("Ștefan Õun Ąžuolas", 41, "dejavu", 2, (200, 40, 40), (255, 255, 255)),
    ("W", 56, "embedded", 0, (10, 90, 200), (250, 240, 120)),
)


def _blend(colour: RGB, ground: RGB, level: int) -> RGB:
    """``colour`` pasted onto ``ground`` through a mask of ``level``, as Pillow pastes it."""
    pixel = Image.new("RGB", (1, 1), ground)
    pixel.paste(colour, (0, 0, 1, 1), Image.new("L", (1, 1), level))
    r, g, b = pixel.getpixel((0, 0))  # type: ignore[misc]
    return r, g, b


def _on_grid(colour: RGB) -> RGB:
    step = parts.EDGE_STEP
    r, g, b = (min(255, (v + step // 2) // step * step) for v in colour)
    return r, g, b


@pytest.mark.parametrize(("value", "size", "face", "stroke", "colour", "ground"), LABELS)
def test_each_pixel_shows_its_coverage_blend(
    value: str, size: int, face: Face, stroke: int, colour: RGB, ground: RGB
) -> None:
    op = Text(10.0, 20.0, value, size, face, colour, "la", stroke, ground)
    sprite = parts._label(op, 0.0, 0.0)
    cover, ox, oy = letters.cover(value, size, face, stroke, "la", parts.PAD)
    assert (sprite.dx, sprite.dy) == (-ox, -oy)
    assert sprite.pixels.size == cover.size
    levels = cover.histogram()
    threshold = max(parts.MAJOR_PIXELS, cover.width * cover.height * parts.MAJOR_SHARE)
    assert any(count >= threshold for count in levels[1:])  # the text has a major of its own
    shades: dict[int, RGB] = {}
    for level, count in enumerate(levels):
        if count:
            blend = _blend(colour, ground, level)
            shades[level] = blend if count >= threshold else _on_grid(blend)
    majors = {shade for level, shade in shades.items() if levels[level] >= threshold}
    assert set(sprite.colours[: sprite.majors]) == majors
    indices = sprite.pixels.tobytes()
    for at, level in enumerate(cover.tobytes()):
        assert sprite.colours[indices[at]] == shades[level], (at, level)
    assert sprite.mask is not None
    assert sprite.mask.tobytes() == bytes(255 if level else 0 for level in cover.tobytes())


def test_a_label_at_a_sub_pixel_start_is_drawn_there() -> None:
    """Off a whole pixel the glyphs differ: the label is drawn at its own start."""
    op = Text(10.5, 20.0, "Deck 95", 24, "embedded", (255, 255, 255), "la", 0, (30, 70, 52))
    whole = parts._label(op, 0.0, 0.0)
    half = parts._label(op, 0.5, 0.0)
    assert half.pixels.tobytes() != whole.pixels.tobytes()
