"""Computer players for 2-Player Hearts.

``POLICY`` is information-set Monte Carlo (perfect-information Monte Carlo sampling): it deals
the unseen cards many times consistently with what its view shows (seen cards, dead cards the
opening card gives away, voids shown by failing to follow, heart leads before hearts broke),
scores every legal card in every deal, and plays the card with the best average. Early in a
hand a deal is scored by playing it out with a fast heuristic for both seats; in the endgame
it is searched exactly (minimax). Scores are estimated chances of winning the *game*, so the
player knows that a hand's points matter more as the totals near 100, and that shooting the
moon is worth as much as taking no point at all.

``RULE_POLICY`` is a plain rule-based player for comparison: void-aware, dumps the queen of
spades on a trick the opponent wins, otherwise plays low to avoid points.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.base import View
from engine.hearts2p.ai.infer import Knowledge, read_view, sample_opponent_hand
from engine.hearts2p.ai.sim import (
    QS,
    SUIT_MASK,
    Utility,
    heuristic_follow,
    heuristic_lead,
    play,
    rollout_state,
)
from engine.hearts2p.ai.solve import Budget, OutOfTime, solve_moves
from engine.hearts2p.cards import CARD_INDEX, DECK
from engine.hearts2p.scoring import MOON_PAYOUT, TARGET

# A rough model of the rest of the game, used to turn final totals into a chance of winning:
# about this many points are added to the leading total per hand, and the score difference
# moves by about this much per hand (standard deviation).
POINTS_PER_HAND = 11.0
SPREAD_PER_HAND = 11.0


def win_chance(mine: int, theirs: int) -> float:
    """Estimated chance of winning the game from these totals at the end of a hand."""
    if max(mine, theirs) >= TARGET and mine != theirs:
        return 1.0 if mine < theirs else 0.0
    hands_left = max(1.0, (TARGET - max(mine, theirs)) / POINTS_PER_HAND)
    spread = SPREAD_PER_HAND * math.sqrt(hands_left)
    return 1.0 / (1.0 + math.exp(-1.7 * (theirs - mine) / spread))


def hand_utility(
    totals: tuple[int, int], chance: Callable[[int, int], float] = win_chance
) -> Utility:
    """utility(points_me, points_opp, took_me, took_opp) for the hand being played: ``chance``
    of the totals after it, a moon scored as section 5.2 says."""
    cache: dict[tuple[int, int, bool, bool], float] = {}

    def utility(p0: int, p1: int, t0: bool, t1: bool) -> float:
        key = (p0, p1, t0, t1)
        value = cache.get(key)
        if value is None:
            if not t1:  # the opponent took no point card: I shot the moon
                p0, p1 = 0, MOON_PAYOUT
            elif not t0:
                p0, p1 = MOON_PAYOUT, 0
            value = chance(totals[0] + p0, totals[1] + p1)
            cache[key] = value
        return value

    return utility


# Deals searched exactly, by the number of cards in the player's hand (index 0-13). The
# full search of a 13-card hand costs about 50 ms here, of a 6-card hand about 1 ms.
EXACT_DEALS: tuple[int, ...] = (1, 1, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30)


@dataclass(eq=False)
class MonteCarloPolicy:
    """Determinize the unseen cards, evaluate each legal card, play the best on average.

    ``exact_deals[n]`` is the most sampled deals searched exactly when the player holds
    ``n`` cards, within ``time_limit`` seconds (a search still running then is dropped).
    With ``nodes`` set, the searches of one decision share that many trick nodes instead of
    a time limit, so the choice depends on (view, legal, rng) only, not on the machine.
    ``deals`` deals are also played out by a fast heuristic first: their averages decide
    when no exact search finished in its budget, or when ``exact_deals[n]`` is 0.
    """

    exact_deals: tuple[int, ...] = EXACT_DEALS
    deals: int = 24
    time_limit: float = 0.12
    margin: float | None = None
    nodes: int | None = None

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        deadline = time.perf_counter() + self.time_limit
        return best_play(view, legal, lambda k, moves: self.evaluate(k, moves, rng, deadline))

    def evaluate(
        self, k: Knowledge, moves: list[int], rng: random.Random, deadline: float
    ) -> dict[int, float]:
        """Each card's value (a chance of winning the game) summed over sampled deals."""
        utility = hand_utility(k.totals)
        played_out = dict.fromkeys(moves, 0.0)
        exact = self.exact_deals[k.hand.bit_count()]
        for _ in range(self.deals):
            root = (k.hand, sample_opponent_hand(k, rng), *k.root[2:])
            for card in moves:
                played_out[card] += utility(*rollout_state(play(root, card)))
        searched = dict.fromkeys(moves, 0.0)
        done = 0
        budget = None if self.nodes is None else Budget(self.nodes)
        clock = None if budget is not None else deadline
        for _ in range(exact):
            root = (k.hand, sample_opponent_hand(k, rng), *k.root[2:])
            try:
                values = solve_moves(root, utility, self.margin, clock, budget)
            except OutOfTime:
                break
            for card in moves:
                searched[card] += values[card]
            done += 1
            if clock is not None and time.perf_counter() > clock:
                break
        return searched if done else played_out


def danger(card: int) -> int:
    """Tie-break between cards of equal value: shed the most dangerous card (QS, then high
    cards), which keeps the hand safest in deals the sampling did not cover."""
    return (100 if card == QS else 0) + card % 7


def best_play(
    view: View, legal: list[Any], evaluate: Callable[[Knowledge, list[int]], dict[int, float]]
) -> Any:
    """The only legal play, else the one whose card ``evaluate`` (what the view tells, the
    cards) values most; the more dangerous card on a tie (:func:`danger`)."""
    if len(legal) == 1:
        return legal[0]
    by_card = {CARD_INDEX[a.card]: a for a in legal}
    scores = evaluate(read_view(view), list(by_card))
    return by_card[max(by_card, key=lambda c: (scores[c], danger(c)))]


class RulePolicy:
    """A simple rule-based player (see the module docstring); uses no sampling."""

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        k = read_view(view)
        hand = 0
        for a in legal:
            hand |= 1 << CARD_INDEX[a.card]
        lead = k.root[3]
        # Following, the legal cards are the led suit if held, else the whole hand: duck under
        # the lead, or when void dump QS (the leader then wins it), else the highest card.
        card = heuristic_follow(hand, lead) if lead >= 0 else _rule_lead(hand, k)
        return next(a for a in legal if a.card == DECK[card])


def _rule_lead(legal: int, k: Knowledge) -> int:
    """Lead low in a suit the opponent can still follow; keep QS and hearts back."""
    safe = legal
    possible = k.unseen & ~k.opponent_cannot_hold  # cards the opponent may hold
    for s in (0, 1, 3):
        if not possible & SUIT_MASK[s]:
            safe &= ~SUIT_MASK[s]  # the opponent is void here: it could dump QS or trump
    return heuristic_lead(safe or legal, broken=True)


# The normal level: a node budget of about what 0.12 s of search gives on an idle machine.
NORMAL_NODES = 15_000
POLICY = MonteCarloPolicy(nodes=NORMAL_NODES)
RULE_POLICY = RulePolicy()
