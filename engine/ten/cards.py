"""Ten: constants, card ids, the deck per player count and display helpers (rules §2).

Card ids (rules §2.1): number cards ``R1a`` (colour, number, copy), colour wilds ``R#a``,
number wilds ``W1`` … ``W9``, the super wild ``W#`` and currency cards ``C3d``. A card's
*type* is its first two characters (``R1``, ``R#``, ``W3``, ``W#``, ``C3``): copies of one
type are interchangeable, which lets payments name card types instead of copies.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

# ---- configuration values (rules §2.3, §4.2, §6) -------------------------------------------
BUST_LINE: Final = 11  # net N - C >= BUST_LINE is a number bust
CURRENCY_BUST: Final = 11  # C >= CURRENCY_BUST is a currency bust
CURRENCY_TOKENS: Final = 50
CURRENCY_CAP: Final = 10
BUST_TOKENS: Final = 15
BUST_VALUE: Final = 3
START_CURRENCY: Final = 5
FULL_RUN_POINTS: Final = 10  # a 1-9 run scores 10 instead of 9
SOLO_WILD_PRICE: Final = 3
SOLO_SUPER_WILD_PRICE: Final = 5
SOLO_RIVAL_CARDS: Final = 2
SOLO_TARGET: Final = 20

COLOURS: Final = ("R", "B", "O", "G")
GROUPS: Final = ("R", "B", "O", "G", "W")  # the four colours plus the wild suit
COLOUR_NAMES: Final = MappingProxyType(
    {"R": "red", "B": "blue", "O": "orange", "G": "green", "W": "wild", "C": "currency"}
)
# Display colours (RGB) the UI may use for a card's group.
COLOUR_RGB: Final = MappingProxyType(
    {"R": 0xC0392B, "B": 0x2E86DE, "O": 0xE67E22, "G": 0x27AE60, "W": 0x8E44AD, "C": 0x7F8C8D}
)

# Currency copies per value and MIN_PLAYERS tier (rules §2.1 table; ruling 2).
_CURRENCY_TIERS: Final = (
    (1, "abc", "de", "f"),
    (2, "abc", "d", "ef"),
    (3, "abc", "de", "f"),
    (4, "abc", "d", "e"),
    (5, "abc", "", "d"),
)


def _master() -> tuple[tuple[str, int], ...]:
    """Every card of the box with its MIN_PLAYERS marker, in a fixed canonical order."""
    cards: list[tuple[str, int]] = []
    for colour in COLOURS:
        for n in range(1, 10):
            copies = "abc" if n <= 6 else "a"
            for copy, tier in zip(copies, (1, 3, 4), strict=False):
                cards.append((f"{colour}{n}{copy}", tier))
        cards.append((f"{colour}#a", 1))
        cards.append((f"{colour}#b", 3))
    cards.extend((f"W{n}", 1) for n in range(1, 10))
    cards.append(("W#", 1))
    for value, base, three, four in _CURRENCY_TIERS:
        for letters, tier in ((base, 1), (three, 3), (four, 4)):
            cards.extend((f"C{value}{letter}", tier) for letter in letters)
    return tuple(cards)


MASTER: Final = _master()
ALL_CARDS: Final = tuple(card for card, _ in MASTER)
CARD_INDEX: Final = MappingProxyType({card: i for i, card in enumerate(ALL_CARDS)})

# Card types that can sit in a collection, in canonical order (colour groups, then wilds).
COLLECTION_TYPES: Final = tuple(
    [f"{c}{n}" for c in COLOURS for n in [*range(1, 10), "#"]]
    + [f"W{n}" for n in [*range(1, 10), "#"]]
)
TYPE_INDEX: Final = MappingProxyType({t: i for i, t in enumerate(COLLECTION_TYPES)})
# How many copies of each collection type exist in the box (for payment encodings).
TYPE_MAX: Final = MappingProxyType(
    {t: sum(1 for card in ALL_CARDS if card[:2] == t) for t in COLLECTION_TYPES}
)


def deck_for(players: int) -> tuple[str, ...]:
    """The cards in play for ``players`` (rules §2.2), in canonical order."""
    limit = max(players, 2)
    return tuple(card for card, tier in MASTER if tier <= limit)


def sort_cards(cards: tuple[str, ...] | list[str]) -> list[str]:
    """Cards in canonical order."""
    return sorted(cards, key=CARD_INDEX.__getitem__)


# ---- card facts ----------------------------------------------------------------------------
def card_type(card: str) -> str:
    """``R5a`` -> ``R5``; ``R#b`` -> ``R#``; ``W3`` -> ``W3``; ``C4d`` -> ``C4``."""
    return card[:2]


def is_currency(card: str) -> bool:
    return card[0] == "C"


def is_wild(card: str) -> bool:
    return card[0] == "W" or card[1] == "#"


def is_number(card: str) -> bool:
    """A plain number card (fixed colour and number)."""
    return card[0] in COLOURS and card[1] != "#"


def value(card: str) -> int:
    """The number of a number card or number wild, the value of a currency card (else 0)."""
    return int(card[1]) if card[1].isdigit() else 0


def group(card: str) -> str:
    """``R``/``B``/``O``/``G`` for coloured cards, ``W`` for the wild suit, ``C`` for currency."""
    return card[0]


def kind(card: str) -> str:
    """One of ``number``, ``colour_wild``, ``number_wild``, ``super_wild``, ``currency``."""
    if card[0] == "C":
        return "currency"
    if card[0] == "W":
        return "super_wild" if card[1] == "#" else "number_wild"
    return "colour_wild" if card[1] == "#" else "number"


def card_label(card: str) -> str:
    """A short human label: ``Red 5``, ``Red wild``, ``Wild 5``, ``Super wild``, ``5 coins``."""
    k = kind(card)
    if k == "currency":
        return f"{value(card)} coin" + ("s" if value(card) != 1 else "")
    if k == "super_wild":
        return "Super wild"
    if k == "number_wild":
        return f"Wild {value(card)}"
    name = COLOUR_NAMES[card[0]].capitalize()
    return f"{name} wild" if k == "colour_wild" else f"{name} {value(card)}"


def card_colour(card: str) -> str:
    """The colour name of a card's group (``red`` … ``wild``, ``currency``)."""
    return COLOUR_NAMES[group(card)]


def card_rgb(card: str) -> int:
    """An RGB display colour for a card's group."""
    return COLOUR_RGB[group(card)]


def type_label(ctype: str) -> str:
    """Label of a card type (``R5`` -> ``Red 5``)."""
    return card_label(ctype)
