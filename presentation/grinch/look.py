"""Grinch card faces: four suits, ranks 1-6, bonus cards marked.

Cues for each suit besides its colour: its own emblem (in a badge and large) (wreath ring,
noise bolt, ornament bauble, present box) and its own background pattern (stripes, dots,
rings, checks). A bonus card carries a gold star and a band naming the bonus ("+10" and the
named suit's emblem and letter); the two named cards also show their name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from PIL import Image, ImageDraw

from engine.grinch.cards import CARDS, bonus_text, rank_of, suit_of
from presentation.drawing import frame
from presentation.drawing.faces import DeckLook
from presentation.drawing.fonts import RGB, fit, text
from presentation.drawing.palette import (
    BLUE,
    GOLD,
    GREEN,
    INK,
    PAPER,
    PURPLE,
    WHITE,
    YELLOW,
    mix,
    on,
)
from presentation.drawing.shapes import circle, star, symbol
from presentation.grinch.text import CARD_NAMES, card_title

Pattern = Callable[[ImageDraw.ImageDraw, tuple[int, int, int, int], RGB, int], None]

SUIT_COLOUR: Final[dict[str, RGB]] = {"W": GREEN, "N": YELLOW, "O": PURPLE, "P": BLUE}
SUIT_EMBLEM: Final[dict[str, str]] = {"W": "ring", "N": "bolt", "O": "bauble", "P": "present"}
SUIT_PATTERN: Final[dict[str, Pattern]] = {
    "W": frame.stripes,
    "N": frame.dots,
    "O": frame.rings,
    "P": frame.checks,
}


def ink(suit: str) -> RGB:
    """A dark shade of the suit colour, readable on the card's light tint."""
    return mix(SUIT_COLOUR[suit], INK, 0.55)


def badge(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, r: float) -> None:
    """The suit's emblem in a disc of the suit colour. An emblem needs no language: the
    suit's letter (W, N, O, P) was an English initial in every language."""
    circle(draw, cx, cy, r / 0.85, SUIT_COLOUR[suit])
    symbol(draw, SUIT_EMBLEM[suit], cx, cy, r * 0.75, on(SUIT_COLOUR[suit]))


class GrinchLook(DeckLook):
    game = "grinch"
    title = "Grinch"
    cards = CARDS

    def face(self, card: str) -> str:
        # Copies a/b differ only by their bonus, so plain ranks 3-6 share one face.
        return card if bonus_text(card) else card[:2]

    def draw(self, key: str, width: int) -> Image.Image:
        card = key if len(key) == 3 else key + "a"
        suit, rank = suit_of(card), rank_of(card)
        colour = SUIT_COLOUR[suit]
        image, draw = frame.blank(width, mix(colour, WHITE, 0.78))
        box = frame.inner_box(width)
        SUIT_PATTERN[suit](draw, box, mix(colour, WHITE, 0.45), max(8, width // 9))
        height = frame.card_height(width)
        # Corner index: rank over the suit badge, top left; again, smaller, bottom right.
        corner = round(width * 0.2)
        draw.rounded_rectangle(
            (box[0], box[1], box[0] + corner * 1.3, box[1] + corner * 2.35),
            max(3, width // 24),
            fill=PAPER,
        )
        text(
            draw,
            (box[0] + corner * 0.65, box[1] + corner * 0.75),
            str(rank),
            round(width * 0.3),
            ink(suit),
            bold=True,
        )
        badge(draw, suit, box[0] + corner * 0.65, box[1] + corner * 1.75, width * 0.085)
        small = width * 0.055
        right, foot = box[2] - width * 0.05, box[3] - width * 0.02
        text(
            draw,
            (right - 2.6 * small, foot),
            str(rank),
            round(width * 0.13),
            ink(suit),
            anchor="rb",
        )
        symbol(draw, SUIT_EMBLEM[suit], right - small, foot - width * 0.065, small, ink(suit))
        # The emblem on a paper disc in the middle.
        cx, cy = width * 0.58, height * 0.45
        radius = width * 0.27
        draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius),
            fill=PAPER,
            outline=ink(suit),
            width=max(1, width // 60),
        )
        symbol(draw, SUIT_EMBLEM[suit], cx, cy, radius * 0.66, colour if suit != "N" else ink(suit))
        bonus = bonus_text(card)
        if bonus is not None:
            self._bonus(draw, card, bonus, width, height)
        return image

    def _bonus(
        self, draw: ImageDraw.ImageDraw, card: str, bonus: str, width: int, height: int
    ) -> None:
        points, target = bonus.split()
        star(draw, width * 0.84, width * 0.16, width * 0.14, INK)  # a bonus card: no letter
        star(draw, width * 0.84, width * 0.16, width * 0.12, GOLD)
        top = height * 0.73
        bottom = height * 0.86
        draw.rounded_rectangle(
            (width * 0.08, top, width * 0.92, bottom),
            max(3, width // 30),
            fill=GOLD,
            outline=INK,
            width=max(1, width // 80),
        )
        mid = (top + bottom) / 2
        size = round((bottom - top) * 0.62)
        text(draw, (width * 0.36, mid), points, size, INK, bold=True)
        badge(draw, target, width * 0.7, mid, (bottom - top) * 0.34)
        if card in CARD_NAMES:  # the cards the rulebook names, in the Grinch screens' words
            name = card_title(card)
            size = fit(name, round(width * 0.1), width * 0.8)
            text(draw, (width * 0.5, height * 0.67), name, size, INK, outline=PAPER)

    def back(self, width: int) -> Image.Image:
        colour = (150, 30, 45)
        shade = mix(colour, INK, 0.25)
        image, draw = frame.patterned(width, colour, frame.checks, shade, max(8, width // 8))
        height = frame.card_height(width)
        symbol(draw, "heart", width / 2, height / 2, width * 0.28, GREEN)
        text(draw, (width / 2, height * 0.5), "G", round(width * 0.22), WHITE, bold=True)
        return image


LOOK: Final = GrinchLook()
