"""Ten faces: number cards in four colours, colour, number and super wilds, currency.

Each colour has its own shape (red circle, blue square, orange triangle, green diamond),
printed on the band and at the foot, so no card relies on its colour alone (and no letter
needs translating); wilds carry
a star and a "#", currency cards are gold coins (no letter). Copies of one card type share a face.
"""

from __future__ import annotations

from typing import Final

from PIL import Image, ImageDraw

from engine.ten.cards import deck_for, kind
from i18n import ngettext, pgettext
from presentation.drawing import frame
from presentation.drawing.faces import DeckLook
from presentation.drawing.fonts import RGB, fit, text, text_width
from presentation.drawing.palette import (
    BLUE,
    GOLD,
    GREEN,
    INK,
    ORANGE,
    PAPER,
    VERMILION,
    WHITE,
    mix,
)
from presentation.drawing.shapes import symbol

COLOUR: Final[dict[str, RGB]] = {
    "R": VERMILION,
    "B": BLUE,
    "O": ORANGE,
    "G": GREEN,
    "W": (117, 80, 160),
    "C": (150, 120, 40),
}
SHAPE: Final[dict[str, str]] = {
    "R": "circle",
    "B": "square",
    "O": "triangle",
    "G": "diamond",
    "W": "star",
}
# A face's word ("WILD", "COINS") is this share of the card's width high: 18 px on the
# narrowest card of a picture made for a phone (88 px on 720), so 9 px when the phone shows
# the picture 360 px wide (presentation.drawing.layout.READABLE_PX).
LABEL = 0.21
SOFT_HYPHEN = "\u00ad"  # where a translator allows a long word to break ("SUPER\u00adJOKKER")


def label_lines(label: str, size: int, room: float) -> list[str]:
    """``label`` on one line, or on two (at a space or a soft hyphen) when one line would
    not fit ``room`` at ``size``."""
    whole = label.replace(SOFT_HYPHEN, "")
    if text_width(whole, size) <= room:
        return [whole]
    for mark, shown in ((" ", ""), (SOFT_HYPHEN, "-")):
        if mark in label:
            head, tail = label.split(mark, 1)
            return [head.replace(SOFT_HYPHEN, "") + shown, tail.replace(SOFT_HYPHEN, "")]
    return [whole]


def face_word(draw: ImageDraw.ImageDraw, label: str, width: int, centre: float) -> None:
    """A face's word centred at ``centre`` (two lines around it when it must), as large as
    :data:`LABEL` allows, smaller only when a single word is wider than the card."""
    size = round(width * LABEL)
    room = width * 0.88
    lines = label_lines(label, size, room)
    size = min(fit(line, size, room) for line in lines)
    step = size * 1.05
    first = centre - step * (len(lines) - 1) / 2
    for n, line in enumerate(lines):
        text(draw, (width / 2, first + n * step), line, size, INK, bold=True)


def _disc(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    r: float,
    fill: RGB,
    outline: RGB,
    line: int,
) -> None:
    """A filled circle of radius ``r`` with an outline ``line`` pixels wide."""
    cx, cy = centre
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=line)


def mark(draw: ImageDraw.ImageDraw, group: str, cx: float, cy: float, r: float) -> None:
    """A colour's shape, the colour-free cue of a Ten card. A shape needs no language: a
    letter (R, B, O, G) would be an English initial in every language."""
    symbol(draw, SHAPE[group], cx, cy, r * 1.2, COLOUR[group])


class TenLook(DeckLook):
    game = "ten"
    title = "Ten"
    cards = deck_for(5)

    def face(self, card: str) -> str:
        return card[:2]  # the card type: copies are interchangeable

    def draw(self, key: str, width: int) -> Image.Image:
        k = kind(key)
        if k == "currency":
            return self._coin(int(key[1]), width)
        if k == "number":
            return self._number(key[0], key[1], width)
        return self._wild(key, width)

    def _band(self, draw: ImageDraw.ImageDraw, width: int, colour: RGB, corner: str) -> None:
        """The coloured top band with the card's number (or "#") at the left, so it still
        shows when the next card overlaps this one."""
        height = frame.card_height(width)
        band = (width * 0.06, width * 0.06, width * 0.94, height * 0.25)
        draw.rounded_rectangle(band, max(3, width // 20), fill=colour)
        text(
            draw,
            (width * 0.24, (band[1] + band[3]) / 2),
            corner,
            round(width * 0.27),
            on_band(colour),
            bold=True,
        )

    def _number(self, group: str, number: str, width: int) -> Image.Image:
        colour = COLOUR[group]
        image, draw = frame.blank(width, PAPER)
        height = frame.card_height(width)
        self._band(draw, width, colour, number)
        symbol(draw, SHAPE[group], width * 0.5, height * 0.155, width * 0.09, on_band(colour))
        text(
            draw,
            (width * 0.5, height * 0.57),
            number,
            round(width * 0.55),
            colour,
            bold=True,
            outline=mix(colour, INK, 0.5),
        )
        mark(draw, group, width * 0.5, height * 0.88, width * 0.1)
        return image

    def _wild(self, key: str, width: int) -> Image.Image:
        group = key[0]
        colour = COLOUR[group]
        paper, shade = mix(colour, WHITE, 0.75), mix(colour, WHITE, 0.5)
        image, draw = frame.patterned(width, paper, frame.stripes, shade, max(8, width // 8))
        height = frame.card_height(width)
        self._band(draw, width, colour, key[1])
        symbol(draw, "star", width * 0.5, height * 0.155, width * 0.09, WHITE)
        # TRANSLATORS: the words on a Ten wild card, in capitals. A word too long for the card
        # may be split over two lines: put a soft hyphen (U+00AD) where it may break.
        super_wild = pgettext("card face", "SUPER WILD")
        label = super_wild if key == "W#" else pgettext("card face", "WILD")
        two = len(label_lines(label, round(width * LABEL), width * 0.88)) > 1
        middle = height * (0.44 if two else 0.47)  # two lines of words: the disc goes up
        r = width * (0.24 if two else 0.27)
        _disc(draw, (width / 2, middle), r, PAPER, colour, max(1, width // 40))
        if key[1] == "#":
            symbol(draw, "star", width / 2, middle, r * 0.85, colour)
            text(
                draw, (width / 2, middle + width * 0.02), "#", round(width * 0.2), WHITE, bold=True
            )
        else:
            text(draw, (width / 2, middle), key[1], round(width * 0.4), COLOUR["W"], bold=True)
        face_word(draw, label, width, height * (0.77 if two else 0.765))
        if two:
            return image  # the words fill the foot: the star and the "#" say what it fits
        if group == "W":  # fits every colour: show all four marks
            for i, g in enumerate(("R", "B", "O", "G")):
                symbol(
                    draw, SHAPE[g], width * (0.2 + 0.2 * i), height * 0.91, width * 0.06, COLOUR[g]
                )
        else:
            mark(draw, group, width * 0.5, height * 0.91, width * 0.08)
        return image

    def _coin(self, amount: int, width: int) -> Image.Image:
        colour = COLOUR["C"]
        image, draw = frame.blank(width, mix(GOLD, WHITE, 0.7))
        height = frame.card_height(width)
        r = width * 0.36
        cy = height * 0.45
        _disc(draw, (width / 2, cy), r, GOLD, colour, max(2, width // 30))
        text(draw, (width / 2, cy), str(amount), round(width * 0.4), INK, bold=True)
        # TRANSLATORS: under the value of a Ten currency card (a gold coin).
        label = ngettext("COIN", "COINS", amount)
        face_word(draw, label, width, height * 0.85)
        return image

    def back(self, width: int) -> Image.Image:
        colour = (45, 45, 60)
        shade = mix(colour, WHITE, 0.2)
        image, draw = frame.patterned(width, colour, frame.dots, shade, max(8, width // 8))
        height = frame.card_height(width)
        text(draw, (width / 2, height / 2), "10", round(width * 0.4), GOLD, bold=True)
        return image


def on_band(colour: RGB) -> RGB:
    return INK if sum(colour) > 450 else WHITE


LOOK: Final = TenLook()
