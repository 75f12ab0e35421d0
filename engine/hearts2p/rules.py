"""2-Player Hearts: the card vocabulary and the pure rule functions (rules/hearts2p.md).

Everything here works on card ids (``"2C"``, ``"10H"``, ``"QS"``) and plain tuples, so the
rules can be checked against the rules file's test vectors without building a game state.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.base import Seat

RANKS: tuple[str, ...] = ("2", "4", "6", "8", "10", "Q", "A")
RANK_VALUES: dict[str, int] = {"2": 2, "4": 4, "6": 6, "8": 8, "10": 10, "Q": 12, "A": 14}
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
HEARTS = "H"
QUEEN_OF_SPADES = "QS"

# Canonical deck order (section 2): clubs, diamonds, hearts, spades; ascending rank.
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
CARD_INDEX: dict[str, int] = {card: i for i, card in enumerate(DECK)}
OPENING_CANDIDATES: tuple[str, ...] = ("2C", "4C", "6C")
POINT_CARDS: frozenset[str] = frozenset([*(r + HEARTS for r in RANKS), QUEEN_OF_SPADES])
DECK_POINTS = 20
MOON_PAYOUT = 20
TARGET = 100
TRICKS_PER_HAND = 13

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


# --- deal (section 3) ------------------------------------------------------------------------


def shuffled_deck(rng: random.Random) -> list[str]:
    """A uniformly random order of the canonical deck; ``d[0]`` is the top card."""
    deck = list(DECK)
    rng.shuffle(deck)
    return deck


def hand_rng(seed: int, hand_no: int) -> random.Random:
    """The deterministic RNG for hand ``hand_no`` of the game with ``seed``.

    Deriving one RNG per hand from the seed keeps the state small (nothing but the seed
    needs storing) and replay exact; string seeds are hashed with SHA-512 by ``random``, so
    the result does not depend on the interpreter's hash randomisation.
    """
    return random.Random(f"hearts2p/{seed}/{hand_no}")


def dealer_of(hand_no: int) -> Seat:
    """Hand *n* is dealt by seat ``(n - 1) mod 2``."""
    return (hand_no - 1) % 2


@dataclass(frozen=True, slots=True)
class Deal:
    hands: tuple[tuple[str, ...], tuple[str, ...]]  # per seat, canonical order
    dead: tuple[str, str]  # d[0] then d[27]
    opening_card: str
    opening_seat: Seat


def deal(deck: Sequence[str], dealer: Seat) -> Deal:
    """Section 3: dead ``d[0]`` and ``d[27]``; non-dealer gets odd indexes, dealer even."""
    if sorted_cards(deck) != list(DECK):
        raise ValueError("a deal needs exactly the 28 cards of the deck")
    non_dealer = 1 - dealer
    cards: list[list[str]] = [[], []]
    for i in range(1, 27):
        cards[non_dealer if i % 2 == 1 else dealer].append(deck[i])
    dead = (deck[0], deck[27])
    opening = next(c for c in OPENING_CANDIDATES if c not in dead)
    holder = 0 if opening in cards[0] else 1
    hands = (tuple(sorted_cards(cards[0])), tuple(sorted_cards(cards[1])))
    return Deal(hands=hands, dead=dead, opening_card=opening, opening_seat=holder)


# --- trick play (section 4) ------------------------------------------------------------------


def legal_cards(
    hand: Iterable[str],
    trick: Sequence[str],
    hearts_broken: bool,
    trick_no: int,
    opening_card: str,
) -> set[str]:
    """Section 4.2 exactly. ``trick`` holds the card ids already played to this trick."""
    cards = set(hand)
    if not trick:
        if trick_no == 1:
            # The spec returns {opening_card}; its leader always holds it. Intersecting with
            # the hand only matters for a hand without it, which no deal produces.
            return {opening_card} & cards
        if hearts_broken:
            return cards
        non_hearts = {c for c in cards if c[-1] != HEARTS}
        return non_hearts or cards
    led = suit(trick[0])
    same = {c for c in cards if c[-1] == led}
    return same or cards


def trick_winner(led: str, followed: str) -> int:
    """Section 4.4 for two cards: 0 if the leader wins, 1 if the follower wins."""
    led_suit, followed_suit = suit(led), suit(followed)
    if followed_suit == HEARTS and led_suit != HEARTS:
        return 1
    if followed_suit == led_suit and rank_value(followed) > rank_value(led):
        return 1
    return 0


# --- scoring and game end (section 5) --------------------------------------------------------


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
