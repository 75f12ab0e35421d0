"""Grinch, Grow Your Heart: the cards (rules/grinch.md section 2).

Everything here is pure data and pure functions over card ids such as ``"W3a"``.
"""

from __future__ import annotations

from collections.abc import Iterable
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
