"""The easy 2-Player Hearts computer player: plain rules of thumb, and visible slips.

It ranks its legal cards by simple rules (duck under the lead, dump the queen of spades
when void, lead low, keep hearts back) and plays the best of them, except that with a
seeded chance it plays the second-best instead: a slightly too high duck, a heart thrown
while void, the wrong low lead. It remembers nothing of the cards played, infers no void
and never thinks of shooting the moon, so a casual player beats it about as often as it
beats them.
"""

from __future__ import annotations

import random
from typing import Any

from engine.base import View
from engine.hearts2p.ai.sim import IS_HEART, QS, RANK_OF, SUIT_OF
from engine.hearts2p.cards import CARD_INDEX

# The chance of playing the second-best card of the ranking instead of the best.
SLIP_CHANCE = 0.3


def rank_score(card: int, lead: int, only_suit: bool) -> int:
    """How good ``card`` looks to the rules of thumb (higher is better).

    ``lead`` is the card led to this trick (-1 when leading); ``only_suit`` says whether
    the legal cards are all of the led suit (the player follows suit).
    """
    rank = RANK_OF[card]
    if lead < 0:  # leading: low plain cards first, then low hearts, the queen last
        if card == QS:
            return 0
        if IS_HEART[card]:
            return 20 - rank
        return 40 - rank
    if only_suit:
        if card < lead:  # a duck: the highest one keeps the hand safest
            return 40 + rank
        if card == QS:  # above the lead the queen would win its own 13 points
            return 0
        return 20 + rank  # taking the trick anyway: shed a high card
    if card == QS:  # void: give the queen away
        return 60
    if IS_HEART[card]:  # void: a heart wins the trick, points and all
        return 10 - rank
    return 40 + rank  # void: shed the highest plain card


class EasyPolicy:
    """Rules of thumb with a ``slip`` chance of the second-best card (module docstring)."""

    def __init__(self, slip: float = SLIP_CHANCE) -> None:
        self.slip = slip

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        trick = view["trick"]
        lead = CARD_INDEX[trick[0]["card"]] if trick else -1
        cards = [CARD_INDEX[a.card] for a in legal]
        only_suit = lead >= 0 and all(SUIT_OF[c] == SUIT_OF[lead] for c in cards)
        ranked = sorted(
            range(len(legal)), key=lambda i: rank_score(cards[i], lead, only_suit), reverse=True
        )
        pick = ranked[1] if rng.random() < self.slip else ranked[0]
        return legal[pick]


EASY_POLICY = EasyPolicy()
