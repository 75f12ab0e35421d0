"""The easy computer player for Gnoming A Round: sensible moves, visible mistakes.

It plays the same steps as the normal player with a shorter sight:

- its grid's value is the real score of the face-up cards plus the unseen cards' average for
  each face-down cell: no credit for a pair that may still become a line, no risk margin;
- it takes a discard top only when that top lowers this value by a whole point at once, and
  never weighs it against what a deck card would bring on average;
- it goes out whenever its cards allow, blind to the others' grids and the +5;
- at each placement it slips to the second-best option with a seeded chance ``SLIP``;
- hazard flips turn up a random face-down cell, and a discard covers a random pile.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.base import View
from engine.gnoming.actions import Bounce, Discard, Draw, Flip, NoBounce, NoFlip, Place
from engine.gnoming.ai.normal import Cell, _cell
from engine.gnoming.cards import CARD_IDS, CARD_VALUES, card_kind
from engine.gnoming.scoring import score_kinds

SLIP = 0.2  # chance of taking the second-best placement instead of the best
TAKE_TOP = -1.0  # a discard top is taken when it improves the grid by at least this much


def _unseen_mean(view: View) -> float:
    """The average value of the cards this seat has not seen."""
    seen = {c["card"] for grid in view["grids"] for c in grid if c["card"]}
    seen |= {pile["top"] for pile in view["discard"].values() if pile["top"]}
    seen |= set(view["removed"])
    held = view["held"]
    if held and held.get("card"):
        seen.add(held["card"])
    values = [CARD_VALUES[i] for i, cid in enumerate(CARD_IDS) if cid not in seen]
    return sum(values) / len(values) if values else 4.0


def myopic(cells: Sequence[Cell], unknown: float) -> float:
    """The face-up cards' real score plus ``unknown`` for each face-down cell."""
    kinds = ["U" if c is None else c[0] for c in cells]
    values = [0 if c is None else c[1] for c in cells]
    return score_kinds(kinds, values).raw + unknown * kinds.count("U")


class EasyPolicy:
    """A myopic, slightly careless player (see the module docstring)."""

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        phase = view["phase"]
        if phase == "hazard_flips":
            flips = [a for a in legal if isinstance(a, Flip)]
            return rng.choice(flips) if flips else next(a for a in legal if isinstance(a, NoFlip))
        if phase not in ("draw", "play", "bounce"):
            return rng.choice(legal)  # opening pair, the pile to cover
        mine = [_cell(c["card"]) for c in view["grids"][view["seat"]]]
        unknown = _unseen_mean(view)
        if phase == "draw":
            return self._draw(view, mine, unknown, legal)
        card = view["held"]["card"] if phase == "play" else view["bounce"]["card"]
        keep = [a for a in legal if isinstance(a, Discard | NoBounce)]
        if card_kind(card) == "H":
            return keep[0]
        base = myopic(mine, unknown)
        options: list[tuple[float, int, Any]] = []
        for index, action in enumerate(legal):
            if isinstance(action, Place | Bounce):
                after = list(mine)
                after[action.cell] = _cell(card)
                options.append((myopic(after, unknown) - base, index, action))
        options.append((0.0, len(legal), rng.choice(keep)))
        options.sort(key=lambda option: option[:2])
        if len(options) > 1 and rng.random() < SLIP:
            return options[1][2]
        return options[0][2]

    def _draw(self, view: View, mine: list[Cell], unknown: float, legal: list[Any]) -> Any:
        base = myopic(mine, unknown)
        has_mulligan = any(c is not None and c[0] == "M" for c in mine)
        best: tuple[float, Any] = (TAKE_TOP, Draw("deck"))
        for action in legal:
            if not isinstance(action, Draw) or action.source == "deck":
                continue
            top = _cell(view["discard"][action.source]["top"])
            if top is None or (top[0] == "M" and has_mulligan):
                continue
            for cell in range(9):
                after = list(mine)
                after[cell] = top
                gain = myopic(after, unknown) - base
                if gain <= best[0]:
                    best = (gain, action)
        return best[1]
