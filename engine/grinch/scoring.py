"""Grinch, Grow Your Heart: scoring a hand in a row (rules/grinch.md section 4)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.grinch.cards import BONUS_OF, CARD_INDEX, HAND_SIZE, RANK_OF, ROWS, SUIT_OF, SUITS

MATCH_POINTS: Final = (0, 0, 0, 10, 20, 30)  # by the largest number of equal ranks
RUN_POINTS: Final = {5: 25, 4: 15}  # by the longest block of consecutive distinct ranks


def _checked(hand: Iterable[str]) -> list[str]:
    cards = list(hand)
    if len(cards) != HAND_SIZE or len(set(cards)) != HAND_SIZE:
        raise ValueError("A scored hand holds exactly five different cards.")
    for card in cards:
        if card not in CARD_INDEX:
            raise ValueError(f"Unknown card {card!r}.")
    return cards


def _longest_block(ranks: set[int]) -> int:
    best = length = 0
    for rank in range(1, 7):
        length = length + 1 if rank in ranks else 0
        best = max(best, length)
    return best


def _base(cards: list[str], row: str) -> int:
    if row in ("wreaths", "noise", "ornaments", "presents"):
        suit = SUITS[ROWS.index(row)]
        return sum(RANK_OF[c] for c in cards if SUIT_OF[c] == suit)
    if row == "rainbow":
        tops: dict[str, int] = {}
        for c in cards:
            tops[SUIT_OF[c]] = max(tops.get(SUIT_OF[c], 0), RANK_OF[c])
        return sum(tops.values())
    if row == "match":
        ranks = [RANK_OF[c] for c in cards]
        return MATCH_POINTS[max(ranks.count(r) for r in ranks)]
    if row == "run":
        return RUN_POINTS.get(_longest_block({RANK_OF[c] for c in cards}), 0)
    raise ValueError(f"Unknown row {row!r}.")


def _bonus(cards: list[str]) -> int:
    total = 0
    for card in cards:
        bonus = BONUS_OF.get(card)
        if bonus is None:
            continue
        # Ruling 17: the bonus card itself never counts toward its own condition.
        others = sum(1 for c in cards if c != card and SUIT_OF[c] == bonus.suit)
        if others >= bonus.need:
            total += bonus.points
    return total


def base(hand: Iterable[str], row: str) -> int:
    """The row's base score for a five-card hand (section 4), without bonuses."""
    return _base(_checked(hand), row)


def bonus(hand: Iterable[str]) -> int:
    """The sum of the hand's met bonuses (section 4)."""
    return _bonus(_checked(hand))


def score(hand: Iterable[str], row: str) -> int:
    """The cell value ``base(row, hand) + bonus(hand)`` of a five-card hand."""
    cards = _checked(hand)
    return _base(cards, row) + _bonus(cards)


def row_values(hand: Iterable[str]) -> dict[str, int]:
    """The cell value of every row for a five-card hand, in row order."""
    cards = _checked(hand)
    extra = _bonus(cards)
    return {row: _base(cards, row) + extra for row in ROWS}
