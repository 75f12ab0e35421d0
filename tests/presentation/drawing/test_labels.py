"""A label at a whole-pixel start is drawn from the font's own bitmap of it, without measuring
it first: the same coverage, box and position as ImageDraw.text draws at that start."""

from __future__ import annotations

import itertools

import pytest

from presentation.drawing import parts
from presentation.drawing.fonts import Face
from presentation.drawing.ops import Text

WORDS = (
    "Deck 95 · Player B to act",
    "Your score 1 · coins 5 · bust tokens 0 · spending power 6",
    "Ștefan Õun Ąžuolas",
    "gjpqy ÁÉ",
    "W",
    "-",
)
ANCHORS = ("la", "mm", "ls", "rs", "mt", "rb", "ms", "lm")
FACES: tuple[Face, ...] = ("embedded", "dejavu")


@pytest.mark.parametrize(("value", "face"), list(itertools.product(WORDS, FACES)))
@pytest.mark.parametrize("stroke", [0, 2])
def test_whole_pixel_cover_is_imagedraws(value: str, face: Face, stroke: int) -> None:
    for anchor, size in zip(ANCHORS, itertools.cycle((12, 20, 24, 28, 41)), strict=False):
        op = Text(10.0, 20.0, value, size, face, (255, 255, 255), anchor, stroke, (30, 70, 52))
        drawn, ox, oy = parts._cover(op, 0.0, 0.0)
        whole, wx, wy = parts._cover_whole(op)
        assert (whole.mode, whole.size, wx, wy) == (drawn.mode, drawn.size, ox, oy), anchor
        assert whole.tobytes() == drawn.tobytes(), anchor
        assert whole.getbbox() is not None


def test_a_label_at_a_sub_pixel_start_is_drawn_there() -> None:
    """Off a whole pixel the glyphs differ: the label is drawn at its own start."""
    op = Text(10.5, 20.0, "Deck 95", 24, "embedded", (255, 255, 255), "la", 0, (30, 70, 52))
    whole = parts._label(op, 0.0, 0.0)
    half = parts._label(op, 0.5, 0.0)
    assert half.pixels.tobytes() != whole.pixels.tobytes()
