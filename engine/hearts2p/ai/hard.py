"""The hard 2-Player Hearts computer player: exact search over more, better-spread deals.

Like the normal player it deals the unseen cards consistently with its view and solves each
deal exactly (``solve``), playing the card with the best average chance of winning the game.
It differs in four ways:

- **Deals chosen, not only drawn.** Every unseen card the opponent may hold is in its hand
  unless it is one of the few unknown dead cards, so a deal is fixed by which cards are dead.
  When the consistent deals are few they are all searched, each once (an exact average over
  them); otherwise the dead cards of successive deals are spread so that every candidate card
  is dead about equally often, which lowers the variance of the average for the same number
  of deals. A repeated deal is never searched twice.
- **More search.** Its budget is several times the normal player's, so it solves a dozen or
  more deals even from a full hand, where the normal player solves one or two; later in the
  hand it searches every consistent deal.
- **A computed game-win model.** A deal's result is scored by :mod:`equity`, the exact
  chance of winning the game from the totals after the hand (dynamic programming over the
  next hands' results), instead of the normal player's smooth formula, which is much too
  sure of itself near 100 and ignores how lumpy a hand's result is.
- **Deterministic.** The budget counts trick nodes, never seconds: the same view, legal cards
  and rng seed give the same card on any machine, under any load.

It sees only its own view: the deals come from :func:`infer.read_view`'s deductions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from engine.base import View
from engine.hearts2p.ai.equity import equity_utility
from engine.hearts2p.ai.infer import Knowledge
from engine.hearts2p.ai.normal import best_play
from engine.hearts2p.ai.sim import cards_of, play, rollout_state
from engine.hearts2p.ai.solve import Budget, OutOfTime, solve_moves

# Trick nodes shared by one decision's searches, and the most deals one decision searches.
HARD_NODES = 90_000
HARD_DEALS = 120
# The first deal may overrun the shared budget up to this many nodes, so that a decision
# always rests on at least one exact search.
FIRST_DEAL_NODES = 150_000
# Deals played out by the fast heuristic when not even one exact search finishes.
FALLBACK_DEALS = 24


def opponent_hands(k: Knowledge, count: int, rng: random.Random) -> list[tuple[int, int]]:
    """Up to ``count`` distinct opponent hands consistent with ``k``, each with a weight.

    All of them (weight 1 each, in a random order) when there are at most ``count``;
    otherwise ``count`` draws whose dead cards are spread evenly over the candidates, a
    repeated draw adding to the weight of the first.
    """
    forced_dead = k.opponent_cannot_hold
    free = k.unseen & ~forced_dead
    extra = k.unknown_dead - forced_dead.bit_count()
    if extra < 0:  # cannot happen with a true view; stay robust and ignore the deductions
        free, extra = k.unseen, k.unknown_dead
    candidates = cards_of(free)
    if extra == 0:
        return [(free, 1)]
    every = list(combinations(candidates, extra))
    if len(every) <= count:
        rng.shuffle(every)
        return [(_without(free, dead), 1) for dead in every]
    weights: dict[int, int] = {}
    used = dict.fromkeys(candidates, 0)
    for _ in range(count):
        # The least used candidates are dead next; a random key breaks the ties.
        keys = {c: rng.random() for c in candidates}
        ranked = sorted(candidates, key=lambda c: (used[c], keys[c]))
        dead = ranked[:extra]
        for c in dead:
            used[c] += 1
        hand = _without(free, tuple(dead))
        weights[hand] = weights.get(hand, 0) + 1
    return list(weights.items())


def _without(mask: int, cards: tuple[int, ...]) -> int:
    for c in cards:
        mask &= ~(1 << c)
    return mask


@dataclass(eq=False)
class HardPolicy:
    """Exact search of chosen deals within a node budget (see the module docstring)."""

    nodes: int = HARD_NODES
    deals: int = HARD_DEALS
    first_deal_nodes: int = FIRST_DEAL_NODES

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        return best_play(view, legal, lambda k, moves: self.evaluate(k, moves, rng))

    def evaluate(self, k: Knowledge, moves: list[int], rng: random.Random) -> dict[int, float]:
        """Each card's value (a chance of winning the game), weighted over searched deals."""
        utility = equity_utility(k.totals)
        hands = opponent_hands(k, self.deals, rng)
        totals = dict.fromkeys(moves, 0.0)
        searched = 0
        budget = Budget(self.first_deal_nodes)
        for opponent, weight in hands:
            root = (k.hand, opponent, *k.root[2:])
            try:
                values = solve_moves(root, utility, budget=budget)
            except OutOfTime:
                break
            if not searched:  # the rest share what the first left of the normal budget
                budget = Budget(self.nodes - (self.first_deal_nodes - budget.left))
            for card in moves:
                totals[card] += weight * values[card]
            searched += weight
        if searched:
            return totals
        for i in range(FALLBACK_DEALS):
            opponent = hands[i % len(hands)][0]
            root = (k.hand, opponent, *k.root[2:])
            for card in moves:
                totals[card] += utility(*rollout_state(play(root, card)))
        return totals


HARD_POLICY = HardPolicy()
