"""Gnoming A Round faces: values 3 to 8, -1 to -4, hazards and mulligans.

The value is the big cue; besides its colour each card also shows its value as a row of
pips (filled for positives, hollow for negatives), a hazard is a striped warning card
saying "+10", a mulligan a star card saying "WILD". Copies of one value share a face.
"""

from __future__ import annotations

from typing import Final

from PIL import Image, ImageDraw

from engine.gnoming.cards import CARD_IDS, card_kind, card_value
from i18n import pgettext
from presentation.drawing import frame
from presentation.drawing.faces import DeckLook
from presentation.drawing.fonts import RGB, fit, text
from presentation.drawing.palette import (
    BLUE,
    GREEN,
    INK,
    ORANGE,
    PAPER,
    PURPLE,
    SKY,
    VERMILION,
    WHITE,
    YELLOW,
    mix,
)
from presentation.drawing.shapes import symbol

POSITIVE: Final[dict[int, RGB]] = {
    3: SKY,
    4: GREEN,
    5: YELLOW,
    6: ORANGE,
    7: VERMILION,
    8: PURPLE,
}
NEGATIVE: Final[RGB] = BLUE
HAZARD: Final[RGB] = (235, 190, 20)
MULLIGAN: Final[RGB] = (110, 70, 160)


class GnomeLook(DeckLook):
    game = "gnome"
    title = "Gnoming"
    cards = CARD_IDS

    def face(self, card: str) -> str:
        return card[:2]  # "P6", "N2", "HZ", "MU": copies look alike

    def draw(self, key: str, width: int) -> Image.Image:
        card = key + "-01"
        kind = card_kind(card)
        if kind == "H":
            return self._hazard(width)
        if kind == "M":
            return self._mulligan(width)
        value = card_value(card)
        colour = POSITIVE[value] if kind == "P" else NEGATIVE
        image, draw = frame.blank(width, mix(colour, WHITE, 0.8 if kind == "P" else 0.86))
        height = frame.card_height(width)
        band = (width * 0.08, height * 0.2, width * 0.92, height * 0.72)
        draw.rounded_rectangle(
            band,
            max(3, width // 20),
            fill=colour if kind == "P" else PAPER,
            outline=mix(colour, INK, 0.4),
            width=max(1, width // 50),
        )
        label = str(value)
        ink = mix(colour, INK, 0.7) if kind == "P" else NEGATIVE
        text(draw, (width * 0.5, height * 0.46), label, round(width * 0.5), ink, bold=True)
        for corner in ((width * 0.2, height * 0.1), (width * 0.8, height * 0.1)):
            text(draw, corner, label, round(width * 0.15), mix(colour, INK, 0.6), bold=True)
        _pips(draw, width, height, abs(value), filled=kind == "P", colour=mix(colour, INK, 0.5))
        return image

    def _hazard(self, width: int) -> Image.Image:
        image, draw = frame.patterned(width, HAZARD, frame.stripes, INK, max(10, width // 6))
        height = frame.card_height(width)
        panel = (width * 0.12, height * 0.2, width * 0.88, height * 0.8)
        draw.rounded_rectangle(
            panel, max(3, width // 20), fill=PAPER, outline=INK, width=max(1, width // 50)
        )
        symbol(draw, "warning", width / 2, height * 0.38, width * 0.2, VERMILION)
        text(draw, (width / 2, height * 0.6), "+10", round(width * 0.22), INK, bold=True)
        label = pgettext("card face", "HAZARD")
        size = fit(label, round(width * 0.11), width * 0.72)
        text(draw, (width / 2, height * 0.73), label, size, INK, bold=True)
        return image

    def _mulligan(self, width: int) -> Image.Image:
        shade = mix(MULLIGAN, WHITE, 0.3)
        image, draw = frame.patterned(width, MULLIGAN, frame.rings, shade, max(10, width // 7))
        height = frame.card_height(width)
        # The star alone marks the wild card: no initial to translate.
        symbol(draw, "star", width / 2, height * 0.42, width * 0.32, YELLOW)
        label = pgettext("card face", "WILD")
        size = fit(label, round(width * 0.17), width * 0.84)
        text(draw, (width / 2, height * 0.75), label, size, WHITE, bold=True)
        return image

    def back(self, width: int) -> Image.Image:
        colour = (70, 52, 40)
        image, draw = frame.blank(width, colour)
        box = frame.inner_box(width)
        step = max(10, width // 6)
        shade = mix(colour, WHITE, 0.18)
        for y in range(box[1] + step, box[3], step):
            for x in range(box[0] + step // 2, box[2], step):
                symbol(draw, "triangle", x, y - step * 0.3, step * 0.35, shade)
        height = frame.card_height(width)
        symbol(draw, "triangle", width / 2, height / 2, width * 0.26, (200, 40, 40))
        draw.ellipse(
            (width * 0.42, height * 0.6, width * 0.58, height * 0.6 + width * 0.16), fill=PAPER
        )
        return image


def _pips(
    draw: ImageDraw.ImageDraw, width: int, height: int, count: int, *, filled: bool, colour: RGB
) -> None:
    """``count`` dots in a row near the bottom: the value again, without colour."""
    r = width * 0.045
    gap = r * 2.5
    start = width / 2 - gap * (count - 1) / 2
    y = height * 0.84
    for i in range(count):
        x = start + i * gap
        box = (x - r, y - r, x + r, y + r)
        if filled:
            draw.ellipse(box, fill=colour)
        else:
            draw.ellipse(box, outline=colour, width=max(1, round(r / 2.5)))


LOOK: Final = GnomeLook()
