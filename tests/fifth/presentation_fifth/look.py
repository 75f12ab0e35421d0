"""High card faces: the card's number, large, on white; the back is blue stripes."""

from __future__ import annotations

from typing import Final

from PIL import Image

from presentation.drawing import frame
from presentation.drawing.faces import DeckLook
from presentation.drawing.fonts import text
from presentation.drawing.palette import BLUE, INK, WHITE, mix

DECK: Final = frozenset(str(value) for value in range(1, 13))  # engine/fifth's DECK


class HighCardLook(DeckLook):
    game = "fifth"
    title = "High card"
    cards = tuple(sorted(DECK, key=int))

    def draw(self, key: str, width: int) -> Image.Image:
        image, draw = frame.blank(width, WHITE)
        middle = (width / 2, frame.card_height(width) / 2)
        text(draw, middle, key, round(width * 0.5), INK, bold=True)
        return image

    def back(self, width: int) -> Image.Image:
        image, draw = frame.blank(width, BLUE)
        frame.stripes(draw, frame.inner_box(width), mix(BLUE, WHITE, 0.3), max(8, width // 10))
        return image


LOOK: Final = HighCardLook()
