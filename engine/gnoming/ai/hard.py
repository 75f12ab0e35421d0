"""The hard computer player for Gnoming A Round.

It plays normal's steps (see ``normal``) and looks further where normal stops at its own grid:

- tempo: before its last turn each of its own face-down cells costs the unseen mean plus
  ``MARGIN``, a price on the turns a hidden cell keeps it from going out, so that it turns its
  cells up with any fair card and is often the one to end the round;
- going out: it samples the cards it cannot see (the others' face-down cells, drawn from the
  cards it has not seen, consistently with its view), takes off each opponent's expected
  last-turn gain, and weighs the first-out -5 against the +5 by the chance that its exact
  score is the lowest;
- on its last turn (another seat went out) it scores candidates by the expected final score:
  the face-up cards' real score, the unseen mean per face-down cell, less for each line a
  face-down cell could still complete the saving times the chance of the completing card (no
  credit for pairs it will have no turn to use);
- discards: of the two piles, it covers the one that leaves the next player the least help,
  judged by normal's valuation of that player's grid with each top it would see.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.base import View
from engine.gnoming.actions import ChoosePile
from engine.gnoming.ai.normal import (
    FIRST_OUT_BONUS,
    RISK_MARGIN,
    Cell,
    GnomePolicy,
    _cell,
    _cover_choice,
    _Table,
    estimate,
)
from engine.gnoming.cards import LINES, LINES_OF_CELL
from engine.gnoming.scoring import score_kinds

SAMPLES = 48  # sampled deals of the unseen cards when weighing a going out
GOOD_DRAW = 2.0  # a card an opponent would be glad to place on its last turn
MARGIN = 5.0  # added to the unseen mean for each of its own face-down cells before the last turn


def final_value(cells: Sequence[Cell], chance: dict[Cell, float], mean: float) -> float:
    """Expected score of ``cells`` if every face-down cell were revealed now: each counts the
    unseen cards' ``mean``, less what completing a line would save times the chance of the card
    that completes it (``chance`` maps each unseen (kind, value) to its probability)."""
    kinds = ["U" if c is None else c[0] for c in cells]
    values = [0 if c is None else c[1] for c in cells]
    scored = score_kinds(kinds, values)
    covered = {cell for index, _ in scored.lines for cell in LINES[index]}
    mulligans = kinds.count("M")
    total = float(scored.raw) + mean * kinds.count("U")
    for down, kind in enumerate(kinds):
        if kind != "U":
            continue
        for index in LINES_OF_CELL[down]:
            pair = [c for c in LINES[index] if c != down]
            pair_kinds = sorted(kinds[c] for c in pair)
            if "U" in pair_kinds:
                continue
            positives = [values[c] for c in pair if kinds[c] == "P"]
            if len(set(positives)) != 1:
                continue
            v = positives[0]
            uncovered = sum(1 for c in pair if kinds[c] == "P" and c not in covered)
            if pair_kinds == ["P", "P"]:
                total -= chance.get(("P", v), 0.0) * (2 * v + uncovered * v)
                if not mulligans:
                    total -= chance.get(("M", 0), 0.0) * (v + uncovered * v)
            elif pair_kinds == ["M", "P"] and mulligans == 1:
                total -= chance.get(("P", v), 0.0) * (2 * v + uncovered * v)
    return total


class _HardTable(_Table):
    """Normal's table with the final-turn valuation and the sampled going-out chance."""

    def __init__(self, view: View, rng: random.Random) -> None:
        super().__init__(view)
        self.rng = rng
        count = sum(self.unseen.values())
        self.chance: dict[Cell, float] = {
            card: k / count for card, k in self.unseen.items() if count
        }
        self.last_turn = view["final_lap"] is not None
        self.unknown = self.mean + MARGIN
        self.base = self.value(self.mine)
        self._lowest: list[int] | None = None

    def value(self, cells: Sequence[Cell]) -> float:
        if self.last_turn:
            return final_value(cells, self.chance, self.mean)
        return estimate(cells, self.unknown)

    def gain(self, cells: list[Cell], cell: int, card: Cell) -> float:
        after = list(cells)
        after[cell] = card
        before = self.base if cells is self.mine else self.value(cells)
        return self.value(after) - before + self.out_adjust(after)

    def out_adjust(self, cells: Sequence[Cell]) -> float:
        if not self.going_out_possible or any(c is None for c in cells):
            return 0.0
        kinds = [c[0] for c in cells if c is not None]
        values = [c[1] for c in cells if c is not None]
        mine = score_kinds(kinds, values).raw
        lows = self._sampled_lows()
        lowest = sum(1 for low in lows if mine <= low) / len(lows)
        return FIRST_OUT_BONUS * (1.0 - 2.0 * lowest)

    def _sampled_lows(self) -> list[int]:
        """Per sampled deal of the unseen cards, the lowest score an opponent would reach
        after its last turn (its sampled grid less its expected last-turn gain)."""
        if self._lowest is not None:
            return self._lowest
        pool = [card for card, k in sorted(self.unseen.items()) for _ in range(k)]
        grids = [
            [_cell(c["card"]) for c in grid]
            for seat, grid in enumerate(self.view["grids"])
            if seat != self.seat
        ]
        tops = [
            _cell(pile["top"]) for pile in self.view["discard"].values() if pile["top"] is not None
        ]
        gains = [self._last_gain(grid, tops) for grid in grids]
        lows: list[int] = []
        for _ in range(SAMPLES):
            self.rng.shuffle(pool)
            deal = iter(pool)
            best = 10_000
            for grid, gain in zip(grids, gains, strict=True):
                filled = [c if c is not None else next(deal, ("P", 4)) for c in grid]
                raw = score_kinds([c[0] for c in filled], [c[1] for c in filled]).raw
                best = min(best, round(raw - gain))
            lows.append(best)
        self._lowest = lows
        return lows

    def _last_gain(self, grid: list[Cell], tops: list[Cell]) -> float:
        """What an opponent is expected to save on its last turn: its worst cell (a face-down
        one counts the unseen mean) replaced by the best top or a good draw."""
        worst = self.mean if any(c is None for c in grid) else 0.0
        for c in grid:
            if c is not None and c[0] in "PH":
                worst = max(worst, float(c[1]))
        card = GOOD_DRAW
        for top in tops:
            if top is not None and top[0] in "PNM":
                card = min(card, float(top[1]))
        return max(0.0, worst - card)


def _help(table: _Table, grid: list[Cell], tops: Sequence[Cell]) -> float:
    """How much the best of ``tops`` would lower the next player's estimate (normal's
    valuation of its grid; 0 when no top helps)."""
    unknown = table.mean + RISK_MARGIN
    before = estimate(grid, unknown)
    best = 0.0
    for top in tops:
        if top is None or top[0] == "H":
            continue
        for cell in range(9):
            after = list(grid)
            after[cell] = top
            best = min(best, estimate(after, unknown) - before)
    return -best


class HardPolicy(GnomePolicy):
    """Normal's player with the hard table (see the module docstring)."""

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        phase = view["phase"]
        if phase not in ("draw", "play", "bounce", "discard"):
            return super().choose(view, legal, rng)
        table = _HardTable(view, rng)
        if phase == "draw":
            return self._draw(table, legal)
        if phase == "discard":
            card = view["pending_discard"]["card"]
            return self._cover(table, card, [a for a in legal if isinstance(a, ChoosePile)], rng)
        if phase == "play":
            return self._play(table, legal, rng)
        return self._bounce(table, legal, rng)

    def _cover(self, table: _Table, card: str, options: Sequence[Any], rng: random.Random) -> Any:
        """The pile to discard ``card`` on: the one leaving the next player the least help
        from the two tops it will see; normal's rule among equals."""
        view = table.view
        nxt = (table.seat + 1) % view["players"]
        lap = view["final_lap"]
        if len(options) < 2 or (lap is not None and nxt not in lap["remaining"]):
            return _cover_choice(view, options, rng)
        grid = [_cell(c["card"]) for c in view["grids"][nxt]]
        helps: list[tuple[float, Any]] = []
        for action in options:
            tops = [
                _cell(card if name == action.pile else pile["top"])
                for name, pile in view["discard"].items()
            ]
            helps.append((_help(table, grid, tops), action))
        least = min(h for h, _ in helps)
        return _cover_choice(view, [a for h, a in helps if h <= least + 1e-9], rng)
