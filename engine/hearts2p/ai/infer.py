"""What a 2-Player Hearts seat knows, read from its view only, and deals consistent with it.

Public deductions used:

- every card played this hand is seen (the view's ``played`` list);
- the opening card names dead cards: ``4C`` opens only when ``2C`` is dead, ``6C`` only when
  ``2C`` and ``4C`` are both dead (rules section 3.5);
- a follower who did not follow suit holds no card of the led suit (section 4.2);
- a leader who led a heart while hearts were unbroken held nothing but hearts (section 4.2,
  ruling 9), so from then on holds no club, diamond or spade.

The unseen cards are the opponent's hand plus the dead cards still unknown. A determinization
puts every unseen card the opponent cannot hold among the dead cards, then fills the rest of
the dead slots uniformly at random: this samples uniformly among the deals consistent with
the deductions above.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.base import View
from engine.hearts2p.ai.sim import SUIT_MASK, State, cards_of, mask_of
from engine.hearts2p.cards import CARD_INDEX, HEARTS
from engine.hearts2p.rules import OPENING_CANDIDATES

ALL_CARDS = (1 << 28) - 1
NON_HEART_SUITS = ("C", "D", "S")


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    hand: int  # own cards (mask)
    opponent_size: int
    unseen: int  # cards not seen and not known dead: opponent's hand + unknown dead cards
    unknown_dead: int  # how many dead cards are among ``unseen``
    opponent_cannot_hold: int  # mask of cards the deductions exclude from the other hand
    root: State  # the hand from this seat's side (seat 0 = me), opponent's hand left empty
    totals: tuple[int, int]  # (mine, opponent's)
    trick_no: int


def _suit_mask(suit: str) -> int:
    return SUIT_MASK["CDHS".index(suit)]


def read_view(view: View) -> Knowledge:
    seat = int(view["seat"])
    other = 1 - seat
    hand = mask_of(view["hand"])
    played_cards = [p["card"] for p in view["played"]]
    seen = hand | mask_of(played_cards)
    opening = view["opening_card"]
    known_dead = mask_of(list(OPENING_CANDIDATES[: OPENING_CANDIDATES.index(opening)]))
    unseen = ALL_CARDS & ~seen & ~known_dead
    unknown_dead = 2 - bin(known_dead).count("1")

    cannot = 0
    broken = False
    played = view["played"]
    for i in range(0, len(played), 2):
        lead = played[i]
        lead_suit = lead["card"][-1]
        if lead["seat"] == other and lead_suit == HEARTS and not broken:
            for s in NON_HEART_SUITS:
                cannot |= _suit_mask(s)
        if lead_suit == HEARTS:
            broken = True
        if i + 1 < len(played):
            follow = played[i + 1]
            follow_suit = follow["card"][-1]
            if follow["seat"] == other and follow_suit != lead_suit:
                cannot |= _suit_mask(lead_suit)
            if follow_suit == HEARTS:
                broken = True

    trick = view["trick"]
    leader = 0 if int(view["leader"]) == seat else 1
    lead = CARD_INDEX[trick[0]["card"]] if trick else -1
    taken = view["taken"]
    points = (int(taken[seat]["points"]), int(taken[other]["points"]))
    took = (bool(taken[seat]["point_cards"]), bool(taken[other]["point_cards"]))
    root: State = (
        hand,
        0,
        leader,
        lead,
        bool(view["hearts_broken"]),
        points[0],
        points[1],
        took[0],
        took[1],
    )
    totals = view["totals"]
    return Knowledge(
        seat=seat,
        hand=hand,
        opponent_size=int(view["opponent_hand_size"]),
        unseen=unseen,
        unknown_dead=unknown_dead,
        opponent_cannot_hold=cannot & unseen,
        root=root,
        totals=(int(totals[seat]), int(totals[other])),
        trick_no=int(view["trick_no"]),
    )


def sample_opponent_hand(k: Knowledge, rng: random.Random) -> int:
    """A random opponent hand consistent with everything ``k`` knows."""
    forced_dead = k.opponent_cannot_hold
    free = k.unseen & ~forced_dead
    extra = k.unknown_dead - bin(forced_dead).count("1")
    if extra < 0:  # cannot happen with a true view; stay robust and ignore the deductions
        free, extra = k.unseen, k.unknown_dead
    dead = 0
    if extra > 0:
        for card in rng.sample(cards_of(free), extra):
            dead |= 1 << card
    return free & ~dead
