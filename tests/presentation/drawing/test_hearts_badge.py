"""The Q♠'s "13" badge shows on the strip of the card a Hearts hand's fan leaves visible."""

from __future__ import annotations

from presentation.hearts2p.look import badge_box
from presentation.hearts2p.picture import HAND_CARD, hand_step


def test_the_queens_badge_lies_in_the_visible_strip_of_a_full_hand() -> None:
    """A full hand (13 cards) overlaps the most: each card but the last shows only its first
    ``hand_step(13)`` pixels. The badge's box lies inside that strip and inside the card."""
    x0, y0, x1, y1 = badge_box(HAND_CARD)
    visible = hand_step(13)
    assert visible < HAND_CARD  # the cards do overlap
    assert x0 >= 0 and x1 <= visible, (x0, x1, visible)
    assert y0 >= 0 and y1 <= HAND_CARD * 1.4
