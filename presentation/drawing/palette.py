"""Colours shared by every picture.

Suit and player colours come from the Okabe-Ito palette, chosen to stay apart for the common
kinds of colour blindness; every look still adds a second cue (a letter, a shape or a pattern).
"""

from __future__ import annotations

from typing import Final

from presentation.drawing.fonts import RGB

TABLE: Final[RGB] = (30, 70, 52)  # the felt behind every card; faces are drawn on it
TABLE_LIGHT: Final[RGB] = (52, 100, 78)
SLOT: Final[RGB] = (120, 170, 145)  # outline of an empty place for a card
PAPER: Final[RGB] = (250, 248, 240)
INK: Final[RGB] = (28, 28, 30)
SOFT_INK: Final[RGB] = (95, 95, 100)
WHITE: Final[RGB] = (255, 255, 255)
GOLD: Final[RGB] = (232, 181, 40)
HIGHLIGHT: Final[RGB] = (255, 214, 64)

ORANGE: Final[RGB] = (230, 159, 0)
SKY: Final[RGB] = (86, 180, 233)
GREEN: Final[RGB] = (0, 158, 115)
YELLOW: Final[RGB] = (240, 228, 66)
BLUE: Final[RGB] = (0, 114, 178)
VERMILION: Final[RGB] = (213, 94, 0)
PURPLE: Final[RGB] = (204, 121, 167)
GREY: Final[RGB] = (120, 124, 130)

# Line colours for the score chart, one per seat (up to 7 players).
SERIES: Final[tuple[RGB, ...]] = (BLUE, ORANGE, GREEN, VERMILION, PURPLE, SKY, (60, 60, 60))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b`` (0 = a, 1 = b)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour``."""
    luma = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    return INK if luma > 150 else WHITE
