"""2-Player Hearts faces: a plain white card in a four-colour deck.

Each suit has its own colour (clubs green, diamonds blue, hearts red, spades black) and, as
the cue that needs no colour, its own drawn shape plus its letter. Point cards say so: every
heart shows "1 pt", the queen of spades a gold "13" badge.
"""

from __future__ import annotations

from typing import Final

from PIL import Image

from engine.hearts2p.cards import DECK, QUEEN_OF_SPADES, card_points, rank, suit
from i18n import _
from presentation.drawing import frame
from presentation.drawing.faces import DeckLook
from presentation.drawing.fonts import RGB, fit, text
from presentation.drawing.palette import BLUE, GOLD, INK, PAPER, WHITE, mix
from presentation.drawing.shapes import star, symbol

SUIT_COLOUR: Final[dict[str, RGB]] = {
    "C": (0, 128, 80),
    "D": BLUE,
    "H": (200, 30, 45),
    "S": INK,
}
SUIT_SHAPE: Final[dict[str, str]] = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}


def badge_box(width: int) -> tuple[float, float, float, float]:
    """The box of the Q♠'s "13" star on a card ``width`` wide: in the corner index's column,
    below the suit, so it shows on the strip a hand's fan leaves visible."""
    cx, cy, r = width * 0.22, width * 0.95, width * 0.17
    return cx - r, cy - r, cx + r, cy + r


class HeartsLook(DeckLook):
    game = "hearts"
    title = "Hearts"
    cards = DECK

    def draw(self, key: str, width: int) -> Image.Image:
        s, r = suit(key), rank(key)
        colour = SUIT_COLOUR[s]
        image, draw = frame.blank(width, WHITE)
        height = frame.card_height(width)
        # Corner index, readable when the card is overlapped by its right neighbour.
        left = width * 0.22
        size = round(width * (0.27 if len(r) == 2 else 0.32))
        # Ranks and suit shapes only: a suit letter (C, D, H, S) is an English initial, and a
        # Romanian reads C as caro (diamonds); the shape and the four colours need no words.
        text(draw, (left, width * 0.2), r, size, colour, bold=True)
        symbol(draw, SUIT_SHAPE[s], left, width * 0.5, width * 0.14, colour)
        # The big suit in the middle of the free area, the rank and suit again bottom right.
        symbol(draw, SUIT_SHAPE[s], width * 0.62, height * 0.5, width * 0.24, colour)
        small = width * 0.07
        text(
            draw,
            (width * 0.9 - 2.4 * small, height * 0.95),
            r,
            round(width * 0.14),
            colour,
            anchor="rb",
            bold=True,
        )
        symbol(
            draw, SUIT_SHAPE[s], width * 0.9 - small, height * 0.95 - width * 0.07, small, colour
        )
        points = card_points(key)
        if key == QUEEN_OF_SPADES:
            x0, y0, x1, y1 = badge_box(width)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            star(draw, cx, cy, (x1 - x0) / 2, GOLD)
            text(draw, (cx, cy + width * 0.01), "13", round(width * 0.12), INK, bold=True)
        elif points:
            tag = (width * 0.08, height * 0.86, width * 0.42, height * 0.95)
            draw.rounded_rectangle(tag, max(2, width // 40), fill=mix(colour, WHITE, 0.8))
            # TRANSLATORS: on a heart card: it is worth one point (short: it fits a small tag).
            label = _("1 pt")
            text(
                draw,
                ((tag[0] + tag[2]) / 2, (tag[1] + tag[3]) / 2),
                label,
                fit(label, round(width * 0.1), (tag[2] - tag[0]) * 0.9),
                colour,
                bold=True,
            )
        return image

    def back(self, width: int) -> Image.Image:
        colour = (40, 70, 150)
        shade = mix(colour, WHITE, 0.25)
        image, draw = frame.patterned(width, colour, frame.stripes, shade, max(8, width // 10))
        height = frame.card_height(width)
        symbol(draw, "heart", width / 2, height / 2, width * 0.2, PAPER)
        return image


LOOK: Final = HeartsLook()
