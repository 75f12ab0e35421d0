"""2-Player Hearts: the deal (rules/hearts2p.md section 3) and trick play (section 4).

The pure rule functions work on card ids and plain tuples, so the rules can be checked against
the rules file's test vectors without building a game state; the transitions below them
return a new state and never change the one given. After the 13th trick the hand is scored at
once and, unless the game is over, the next hand is dealt (there is nothing for a player to
confirm between hands).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from engine.base import IllegalAction, Seat
from engine.hearts2p.cards import (
    DECK,
    HEARTS,
    POINT_CARDS,
    SUIT_SYMBOLS,
    card_label,
    rank_value,
    sorted_cards,
    suit,
)
from engine.hearts2p.scoring import game_winner, score_hand
from engine.hearts2p.state import HandRecord, State, pair

PLAYERS = 2
OPENING_CANDIDATES: tuple[str, ...] = ("2C", "4C", "6C")
TRICKS_PER_HAND = 13


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


# --- the state's transitions ----------------------------------------------------------------


def new_hand(
    seed: int, hand_no: int, totals: tuple[int, int], records: tuple[HandRecord, ...]
) -> State:
    dealer = dealer_of(hand_no)
    dealt = deal(shuffled_deck(hand_rng(seed, hand_no)), dealer)
    return State(
        seed=seed,
        hand_no=hand_no,
        dealer=dealer,
        hands=dealt.hands,
        dead=dealt.dead,
        opening_card=dealt.opening_card,
        leader=dealt.opening_seat,
        trick=(),
        trick_no=1,
        hearts_broken=False,
        won=((), ()),
        history=(),
        totals=totals,
        records=records,
        winner=None,
    )


def seat_to_play(state: State) -> Seat | None:
    if state.winner is not None:
        return None
    return state.leader if not state.trick else 1 - state.leader


def legal_plays(state: State, seat: Seat) -> set[str]:
    if seat_to_play(state) != seat:
        return set()
    return legal_cards(
        state.hands[seat],
        [card for _, card in state.trick],
        state.hearts_broken,
        state.trick_no,
        state.opening_card,
    )


def refusal(state: State) -> IllegalAction:
    """Why a card in hand may not be played now (a template and its values, for translation).

    Cards are shown as rank and suit symbol ("2\u2663"), which every language reads alike.
    """
    if not state.trick:
        if state.trick_no == 1:
            return IllegalAction(
                "The first trick must be opened with {card}.",
                card=card_label(state.opening_card),
            )
        return IllegalAction("Hearts are not broken yet: lead another suit.")
    led = suit(state.trick[0][1])
    return IllegalAction("You must follow suit ({suit}).", suit=SUIT_SYMBOLS[led])


def end_hand(state: State) -> State:
    """Score the finished hand (5.1-5.2), check the end (5.3), deal the next hand."""
    score = score_hand(state.won, state.dead)
    totals = (state.totals[0] + score.points[0], state.totals[1] + score.points[1])
    record = HandRecord(
        hand_no=state.hand_no,
        dead=state.dead,
        raw=score.raw,
        points=score.points,
        moon=score.moon,
        totals=totals,
        point_cards=pair(tuple(sorted_cards(c for c in w if c in POINT_CARDS)) for w in state.won),
        last_trick=state.history[-1],
    )
    records = (*state.records, record)
    winner = game_winner(totals)
    if winner is not None:
        # The final hand stays on the table (empty hands, its tricks visible).
        return replace(state, totals=totals, records=records, winner=winner)
    return new_hand(state.seed, state.hand_no + 1, totals, records)


def play(state: State, seat: Seat, card: str) -> State:
    """``seat`` plays ``card``, a legal play (see :func:`legal_plays`): the trick, then the hand."""
    hands = list(state.hands)
    hands[seat] = tuple(c for c in state.hands[seat] if c != card)
    trick = (*state.trick, (seat, card))
    broken = state.hearts_broken or suit(card) == HEARTS
    if len(trick) < 2:
        return replace(state, hands=pair(hands), trick=trick, hearts_broken=broken)
    (leader, led), (_, followed) = trick
    winner = leader if trick_winner(led, followed) == 0 else 1 - leader
    won = list(state.won)
    won[winner] = (*won[winner], led, followed)
    history = (*state.history, (leader, led, followed, winner))
    done = replace(
        state,
        hands=pair(hands),
        trick=(),
        hearts_broken=broken,
        won=pair(won),
        history=history,
    )
    if state.trick_no < TRICKS_PER_HAND:
        return replace(done, trick_no=state.trick_no + 1, leader=winner)
    return end_hand(done)
