"""Vocabulary of Grinch, Grow Your Heart: cards (rules/grinch.md section 2), action values
and their text forms, and scoring (section 4).

Everything here is pure data and pure functions over card ids such as ``"W3a"``. The game
module :mod:`engine.grinch` re-exports the public names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, NamedTuple

SUITS: Final = ("W", "N", "O", "P")
SUIT_NAMES: Final = {"W": "Wreaths", "N": "Noise", "O": "Ornaments", "P": "Presents"}
SUIT_COLOURS: Final = {"W": "green", "N": "yellow", "O": "pink", "P": "blue"}
ROWS: Final = ("wreaths", "noise", "ornaments", "presents", "rainbow", "match", "run")
ROW_NAMES: Final = {
    "wreaths": "Wreaths",
    "noise": "Noise",
    "ornaments": "Ornaments",
    "presents": "Presents",
    "rainbow": "Rainbow",
    "match": "Match",
    "run": "Run",
}
HAND_SIZE: Final = 5


class Bonus(NamedTuple):
    """``+points suit``: worth ``points`` if the hand holds ``need`` other cards of ``suit``."""

    points: int
    suit: str
    need: int


# The bonus column of section 2 (the project's own design, ruling 16): card id -> bonus.
_BONUS_TEXT: Final = {
    "W1a": "+10 P",
    "W1b": "+10 O",
    "W2a": "+5 N",
    "W2b": "+5 O",
    "N1a": "+10 W",
    "N1b": "+10 P",
    "N2a": "+5 O",
    "N2b": "+5 P",
    "O1a": "+10 N",
    "O1b": "+10 W",
    "O2a": "+5 P",
    "O2b": "+5 W",
    "P1a": "+10 O",
    "P1b": "+10 N",
    "P2a": "+5 W",
    "P2b": "+5 N",
}
KNOWN_NAMES: Final = {"N1a": "Sing! Sing! Sing!", "O2a": "Cindy-Lou Who"}

# Canonical order: suits W, N, O, P; rank 1..6; copy a, b (index 12*suit + 2*(rank-1) + copy).
CARDS: Final = tuple(f"{s}{r}{c}" for s in SUITS for r in range(1, 7) for c in "ab")
CARD_INDEX: Final = {card: i for i, card in enumerate(CARDS)}
SUIT_OF: Final = {card: card[0] for card in CARDS}
RANK_OF: Final = {card: int(card[1]) for card in CARDS}


def _parse_bonus(text: str) -> Bonus:
    points, suit = text[1:].split()
    return Bonus(int(points), suit, 1 if points == "5" else 3)


BONUS_OF: Final = {card: _parse_bonus(text) for card, text in _BONUS_TEXT.items()}
MATCH_POINTS: Final = (0, 0, 0, 10, 20, 30)  # by the largest number of equal ranks
RUN_POINTS: Final = {5: 25, 4: 15}  # by the longest block of consecutive distinct ranks


def is_card(card: str) -> bool:
    return card in CARD_INDEX


def canonical(cards: Iterable[str]) -> list[str]:
    """The cards sorted in canonical order."""
    return sorted(cards, key=CARD_INDEX.__getitem__)


def card_name(card: str) -> str:
    """Display name: the known name if the card has one, else suit and rank ("Wreaths 3")."""
    return KNOWN_NAMES.get(card) or f"{SUIT_NAMES[SUIT_OF[card]]} {RANK_OF[card]}"


def suit_of(card: str) -> str:
    return SUIT_OF[card]


def rank_of(card: str) -> int:
    return RANK_OF[card]


def bonus_of(card: str) -> Bonus | None:
    return BONUS_OF.get(card)


def bonus_text(card: str) -> str | None:
    """The printed bonus ("+10 P") or None."""
    return _BONUS_TEXT.get(card)


# ---------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Discard:
    """A Who's secret discard, or the Grinch's discard onto his own pile."""

    card: str

    def __str__(self) -> str:
        return f"d.{self.card}"


@dataclass(frozen=True, slots=True)
class Take:
    """A Grinch take: the deck's top card (``pile=None``) or the top of ``pile``'s pile."""

    pile: int | None

    def __str__(self) -> str:
        return "t.deck" if self.pile is None else f"t.p{self.pile}"


@dataclass(frozen=True, slots=True)
class ChooseRow:
    """A secret row choice in SCORING."""

    row: str

    def __str__(self) -> str:
        return f"r.{self.row}"


Action = Discard | Take | ChooseRow
_TAKE_PILE: Final = re.compile(r"t\.p([0-9])")


def parse_action_text(text: str) -> Action | None:
    """The action written as ``text``, or None if it is not a Grinch action text."""
    if text.startswith("d.") and text[2:] in CARD_INDEX:
        return Discard(text[2:])
    if text == "t.deck":
        return Take(None)
    match = _TAKE_PILE.fullmatch(text)
    if match:
        return Take(int(match.group(1)))
    if text.startswith("r.") and text[2:] in ROWS:
        return ChooseRow(text[2:])
    return None


# ---------------------------------------------------------------- scoring


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
