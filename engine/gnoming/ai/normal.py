"""The normal computer player for Gnoming A Round, deciding from its own view only.

It scores its grid with the real scoring rules, counting every face-down cell as the average
of the cards it has not seen (plus a small risk margin), adds a bonus for lines that hold a
pair and can still be completed, and then at each step takes the option that lowers that
estimate most:

- draw: a discard top if it improves the grid more than a deck card would on average;
- play / bounce: the best placement (or bounce), else discard; a hazard is always discarded;
- going out (no face-down cell left at the end of the turn) is judged against the others'
  estimated scores: -5 when it should be lowest, +5 (and a little more) when not;
- discards cover the pile whose top would help the next player most;
- hazard flips: always flip, choosing the cell whose lines tell the most.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from engine.base import View
from engine.gnoming.actions import Bounce, ChoosePile, Discard, Draw, Flip, NoBounce, NoFlip, Place
from engine.gnoming.cards import CARD_IDS, CARD_KINDS, CARD_VALUES, LINES, card_kind, card_value
from engine.gnoming.scoring import score_kinds

Cell = tuple[str, int] | None  # (kind, value) of a face-up card; None = face down

RISK_MARGIN = 0.5  # added to the expected value of one's own face-down cells
LAST_TURN_GAIN = 2.0  # how much an opponent is expected to improve in the final lap
PAIR_OPEN_BONUS = 0.5  # per unit of value: a pair whose third cell is still face down
PAIR_SWAP_BONUS = 0.2  # a pair whose third cell is a different positive card
PILE_MARGIN = 0.3  # a visible discard top must beat the deck's expected gain by this much
OUT_SHORTFALL = 2.0  # extra cost of going out when not expected to be lowest
FIRST_OUT_BONUS = 5


def _cell(card: str | None) -> Cell:
    return None if card is None else (card_kind(card), card_value(card))


def estimate(cells: Sequence[Cell], unknown: float) -> float:
    """Expected-ish score of a grid: real scoring on the known cells, ``unknown`` for each
    face-down cell, and a bonus for pairs that may still become matched lines."""
    kinds = ["U" if c is None else c[0] for c in cells]
    values = [0 if c is None else c[1] for c in cells]
    scored = score_kinds(kinds, values)
    matched = {index for index, _ in scored.lines}
    total = float(scored.raw) + unknown * kinds.count("U")
    for index, line in enumerate(LINES):
        if index in matched:
            continue
        positives = [values[c] for c in line if kinds[c] == "P"]
        if len(positives) < 2:
            continue
        third = [c for c in line if kinds[c] != "P"]
        if len(positives) == 2 and positives[0] == positives[1] and kinds[third[0]] == "U":
            total -= PAIR_OPEN_BONUS * positives[0]
        elif len(positives) == 3:
            distinct = set(positives)
            if len(distinct) == 2:
                pair = max(distinct, key=positives.count)
                total -= PAIR_SWAP_BONUS * pair
    return total


class _Table:
    """What the policy reads from the view, computed once per decision."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.mine: list[Cell] = [_cell(c["card"]) for c in view["grids"][self.seat]]
        seen: list[str] = [c["card"] for grid in view["grids"] for c in grid if c["card"]]
        seen += [pile["top"] for pile in view["discard"].values() if pile["top"]]
        seen += list(view["removed"])
        for extra in (view["held"], view["bounce"], view["pending_discard"]):
            if extra and extra.get("card"):
                seen.append(extra["card"])
        seen_set = set(seen)
        self.unseen = Counter(
            (CARD_KINDS[i], CARD_VALUES[i]) for i, cid in enumerate(CARD_IDS) if cid not in seen_set
        )
        count = sum(self.unseen.values())
        mean = sum(v * k for (_, v), k in self.unseen.items()) / count if count else 4.0
        self.mean = mean
        self.unknown = mean + RISK_MARGIN
        self.base = estimate(self.mine, self.unknown)
        self.going_out_possible = view["final_lap"] is None
        others = [
            estimate([_cell(c["card"]) for c in grid], mean) - LAST_TURN_GAIN
            for seat, grid in enumerate(view["grids"])
            if seat != self.seat
        ]
        self.best_other = min(others) if others else 0.0

    def out_adjust(self, cells: Sequence[Cell]) -> float:
        """Value of ending the turn with ``cells``: the ±5 if that takes us out first."""
        if not self.going_out_possible or any(c is None for c in cells):
            return 0.0
        mine = estimate(cells, self.unknown)
        if mine <= self.best_other:
            return -FIRST_OUT_BONUS
        return FIRST_OUT_BONUS + OUT_SHORTFALL

    def gain(self, cells: list[Cell], cell: int, card: Cell) -> float:
        """Change of the estimate when ``card`` goes to ``cell`` (negative = better)."""
        after = list(cells)
        after[cell] = card
        before = self.base if cells is self.mine else estimate(cells, self.unknown)
        return estimate(after, self.unknown) - before + self.out_adjust(after)

    def best_place(self, card: Cell, places: Sequence[int]) -> tuple[float, int | None]:
        best: tuple[float, int | None] = (0.0, None)
        for cell in places:
            g = self.gain(self.mine, cell, card)
            if g < best[0]:
                best = (g, cell)
        return best

    def deck_gain(self) -> float:
        """Average best gain from a card drawn blind."""
        total = sum(self.unseen.values())
        if not total:
            return 0.0
        has_mulligan = any(c is not None and c[0] == "M" for c in self.mine)
        acc = 0.0
        for card, count in self.unseen.items():
            if card[0] == "H":
                continue  # discarded: gain 0
            places = range(9)
            if card[0] == "M" and has_mulligan:
                places = range(0)  # approximate R13: skip
            acc += count * self.best_place(card, places)[0]
        return acc / total


def _cover_choice(view: View, options: Sequence[Any], rng: random.Random) -> Any:
    """Among pile actions, cover the top that would help the next player most (lowest)."""

    def top_value(action: Any) -> float:
        top = view["discard"][action.pile]["top"]
        if top is None:
            return 99.0
        return float(card_value(top)) if card_kind(top) != "M" else -2.0

    best = min(top_value(a) for a in options)
    return rng.choice([a for a in options if top_value(a) == best])


class GnomePolicy:
    """Greedy one-step policy over an estimate of its own grid's score."""

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        phase = view["phase"]
        if phase == "opening":
            return rng.choice(legal)
        if phase == "hazard_flips":
            return self._flip(view, legal, rng)
        table = _Table(view)
        if phase == "draw":
            return self._draw(table, legal)
        if phase == "play":
            return self._play(table, legal, rng)
        if phase == "bounce":
            return self._bounce(table, legal, rng)
        if phase == "discard":
            return _cover_choice(view, [a for a in legal if isinstance(a, ChoosePile)], rng)
        return rng.choice(legal)

    def _flip(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        flips = [a for a in legal if isinstance(a, Flip)]
        if not flips:
            return next(a for a in legal if isinstance(a, NoFlip))
        grid = view["grids"][view["seat"]]

        def informative(action: Flip) -> int:
            return sum(
                1
                for line in LINES
                if action.cell in line
                for c in line
                if grid[c]["card"] and card_kind(grid[c]["card"]) == "P"
            )

        best = max(informative(a) for a in flips)
        return rng.choice([a for a in flips if informative(a) == best])

    def _draw(self, table: _Table, legal: list[Any]) -> Any:
        deck = next(a for a in legal if isinstance(a, Draw) and a.source == "deck")
        best_action, best_gain = deck, table.deck_gain() - PILE_MARGIN
        for action in legal:
            if not isinstance(action, Draw) or action.source == "deck":
                continue
            top = table.view["discard"][action.source]["top"]
            places = range(9)
            if card_kind(top) == "M" and any(c is not None and c[0] == "M" for c in table.mine):
                places = range(0)
            gain = table.best_place(_cell(top), places)[0]
            if gain < best_gain:
                best_action, best_gain = action, gain
        return best_action

    def _play(self, table: _Table, legal: list[Any], rng: random.Random) -> Any:
        held = table.view["held"]["card"]
        discards = [a for a in legal if isinstance(a, Discard)]
        if card_kind(held) == "H":
            return discards[0]
        places = [a.cell for a in legal if isinstance(a, Place)]
        gain, cell = table.best_place(_cell(held), places)
        if cell is not None and gain < 0:
            return Place(cell)
        return self._cover(table, held, discards, rng)

    def _bounce(self, table: _Table, legal: list[Any], rng: random.Random) -> Any:
        card = table.view["bounce"]["card"]
        targets = [a.cell for a in legal if isinstance(a, Bounce)]
        gain, cell = table.best_place(_cell(card), targets)
        if cell is not None and gain < 0:
            return Bounce(cell)
        return self._cover(table, card, [a for a in legal if isinstance(a, NoBounce)], rng)

    def _cover(self, table: _Table, card: str, options: Sequence[Any], rng: random.Random) -> Any:
        """The pile action to discard ``card`` with (normal: by the piles' tops alone)."""
        return _cover_choice(table.view, options, rng)


POLICY: Final = GnomePolicy()
