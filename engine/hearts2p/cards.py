"""2-Player Hearts: the 28 cards (rules/hearts2p.md section 2), their points and names.

Everything here works on card ids (``"2C"``, ``"10H"``, ``"QS"``).
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS: tuple[str, ...] = ("2", "4", "6", "8", "10", "Q", "A")
RANK_VALUES: dict[str, int] = {"2": 2, "4": 4, "6": 6, "8": 8, "10": 10, "Q": 12, "A": 14}
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
HEARTS = "H"
QUEEN_OF_SPADES = "QS"

# Canonical deck order (section 2): clubs, diamonds, hearts, spades; ascending rank.
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
CARD_INDEX: dict[str, int] = {card: i for i, card in enumerate(DECK)}
POINT_CARDS: frozenset[str] = frozenset([*(r + HEARTS for r in RANKS), QUEEN_OF_SPADES])

SUIT_SYMBOLS: dict[str, str] = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
SUIT_NAMES: dict[str, str] = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES: dict[str, str] = {
    "2": "2",
    "4": "4",
    "6": "6",
    "8": "8",
    "10": "10",
    "Q": "Queen",
    "A": "Ace",
}


def suit(card: str) -> str:
    """The suit letter of a card id (its last character)."""
    return card[-1]


def rank(card: str) -> str:
    """The rank text of a card id (everything before the suit letter)."""
    return card[:-1]


def rank_value(card: str) -> int:
    """2, 4, 6, 8, 10, 12 (Q) or 14 (A)."""
    return RANK_VALUES[card[:-1]]


def is_card(text: str) -> bool:
    return text in CARD_INDEX


def card_points(card: str) -> int:
    """1 for a heart, 13 for the queen of spades, 0 otherwise."""
    if card == QUEEN_OF_SPADES:
        return 13
    return 1 if card[-1] == HEARTS else 0


def points_of(cards: Iterable[str]) -> int:
    return sum(card_points(c) for c in cards)


def sort_key(card: str) -> int:
    """Sort by suit (clubs, diamonds, hearts, spades), then by ascending rank."""
    return CARD_INDEX[card]


def sorted_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=sort_key)


def suit_symbol(card: str) -> str:
    """The suit symbol of a card id, e.g. ``"\u2665"`` for ``"10H"``."""
    return SUIT_SYMBOLS[suit(card)]


def rank_name(card: str) -> str:
    """ "Queen", "Ace" or the number, for a card id."""
    return RANK_NAMES[rank(card)]


def card_label(card: str) -> str:
    """Short display text: rank then suit symbol, e.g. ``"Q\u2660"``."""
    return rank(card) + suit_symbol(card)


def card_name(card: str) -> str:
    """Long display text, e.g. ``"Queen of spades"``."""
    return f"{rank_name(card)} of {SUIT_NAMES[suit(card)]}"
