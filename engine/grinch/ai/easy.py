"""The easy Grinch player: the normal player's idea with a short memory and a careless hand.

It values a hand by its best cell now, ignoring what a row is worth in later rounds (so it
spends Rainbow or a suit row early on a middling hand), looks at a few sampled completions
only, and now and then plays its second-best option. Every slip comes from the rng it is
given, so a decision is the same for the same view, legal actions and seed.
"""

from __future__ import annotations

import random
from typing import Any, Final

from engine.base import View
from engine.grinch.ai.normal import TURNS, Adjust, best_five, hand_value
from engine.grinch.cards import CARD_INDEX, CARDS, ROWS

SLIP: Final = 0.3  # chance of playing the second-best option in a decision with a choice


def _unseen(view: View) -> list[int]:
    seen = set(view["hand"])
    for pile in view["piles"]:
        seen.update(pile)
    seen.update(t["card"] for t in view["takes"] if t["card"] is not None)
    return [i for i, c in enumerate(CARDS) if c not in seen]


class EasyPolicy:
    """Greedy player: best cell now, few samples, a seeded chance of the second-best move."""

    def __init__(self, samples: int = 3, slip: float = SLIP) -> None:
        self.samples = samples
        self.slip = slip

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        by_text = {str(a): a for a in legal}
        used = view["used_rows"] or []
        greedy: Adjust = tuple((i, 0.0) for i, row in enumerate(ROWS) if row not in used)
        phase = view["phase"]
        if phase == "SCORING":
            hand = [CARD_INDEX[c] for c in view["hand"]]
            scored = {
                f"r.{ROWS[i]}": hand_value(hand, ((i, 0.0),))
                for i, _ in greedy
                if f"r.{ROWS[i]}" in by_text
            }
        elif phase in ("WHO_DISCARD", "GRINCH_DISCARD"):
            scored = self._discards(view, greedy, rng)
        elif phase == "GRINCH_TAKE":
            scored = self._takes(view, list(by_text), greedy, rng)
        else:
            return legal[0]
        ranked = sorted((t for t in scored if t in by_text), key=lambda t: -scored[t])
        if not ranked:
            return legal[0]
        pick = 1 if len(ranked) > 1 and rng.random() < self.slip else 0
        return by_text[ranked[pick]]

    def _discards(self, view: View, adjust: Adjust, rng: random.Random) -> dict[str, float]:
        hand = [CARD_INDEX[c] for c in view["hand"]]
        future = 2 * (TURNS - view["turn"])
        pool = _unseen(view)
        totals = dict.fromkeys(range(len(hand)), 0.0)
        for _ in range(self.samples if future else 1):
            drawn = rng.sample(pool, future)
            for d in totals:
                totals[d] += best_five(hand[:d] + hand[d + 1 :] + drawn, adjust)
        return {f"d.{CARDS[hand[d]]}": v for d, v in totals.items()}

    def _takes(
        self, view: View, texts: list[str], adjust: Adjust, rng: random.Random
    ) -> dict[str, float]:
        hand = [CARD_INDEX[c] for c in view["hand"]]
        draws = (2 - view["takes_done"]) + 2 * (TURNS - view["turn"])
        pool = _unseen(view)
        totals: dict[str, float] = {}
        for _ in range(self.samples):
            drawn = rng.sample(pool, draws)
            for text in texts:
                if text == "t.deck":
                    cards = hand + drawn
                elif text.startswith("t.p"):
                    top = CARD_INDEX[view["piles"][int(text[3:])][-1]]
                    cards = [*hand, top, *drawn[1:]]
                else:
                    continue
                totals[text] = totals.get(text, 0.0) + best_five(cards, adjust)
        return totals
