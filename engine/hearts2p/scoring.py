"""2-Player Hearts: scoring a hand and the end of the game (rules/hearts2p.md section 5)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.base import Seat
from engine.hearts2p.cards import POINT_CARDS, points_of

DECK_POINTS = 20
MOON_PAYOUT = 20
TARGET = 100


@dataclass(frozen=True, slots=True)
class HandScore:
    raw: tuple[int, int]
    points: tuple[int, int]
    moon: Seat | None


def score_hand(won: Sequence[Iterable[str]], dead: Iterable[str]) -> HandScore:
    """Sections 5.1 and 5.2. ``won`` holds the cards each seat took this hand."""
    piles = [set(w) for w in won]
    live = POINT_CARDS - set(dead)
    raw = (points_of(piles[0]), points_of(piles[1]))
    for seat in (0, 1):
        # A moon is taking every live point card; the payout is always a flat 20 (ruling 17).
        if live and live <= piles[seat]:
            points = (0, MOON_PAYOUT) if seat == 0 else (MOON_PAYOUT, 0)
            return HandScore(raw=raw, points=points, moon=seat)
    return HandScore(raw=raw, points=raw, moon=None)


def game_winner(totals: Sequence[int]) -> Seat | None:
    """Section 5.3, checked after a scored hand: the winning seat, or None to deal again.

    None while both totals are below 100, and also when someone reached 100 but the totals
    are equal (ruling 19: whole hands are played until they differ).
    """
    if max(totals) < TARGET or totals[0] == totals[1]:
        return None
    return 0 if totals[0] < totals[1] else 1
