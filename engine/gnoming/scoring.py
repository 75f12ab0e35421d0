"""Gnoming A Round: scoring a revealed grid (rules §6), the first-out adjustment and winners (§7).

The core works on per-cell kinds and values so the computer player can reuse it with cells it
does not know yet: any kind other than "P", "N", "H", "M" (for instance "U" for unknown) blocks
every line through it and adds nothing (the caller adds its own estimate).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.gnoming.cards import (
    CARD_KINDS,
    CARD_VALUES,
    GRID_CELLS,
    HAZARD_COST,
    IDX_OF_ID,
    LINES,
)

FIRST_OUT_BONUS = 5  # rules §6.4 / R17


@dataclass(frozen=True, slots=True)
class GridScore:
    """How a grid scored: raw score, matched lines as (line index into LINES, value) pairs,
    the cell of the wild mulligan (None without a mulligan) and the number of hazards."""

    raw: int
    lines: tuple[tuple[int, int], ...]
    wild: int | None
    hazards: int


def _score_for_wild(
    kinds: Sequence[str], values: Sequence[int], wild: int | None
) -> tuple[int, tuple[tuple[int, int], ...]]:
    matched: list[tuple[int, int]] = []
    covered = [False] * GRID_CELLS
    for index, line in enumerate(LINES):
        value: int | None = None
        for cell in line:
            if cell == wild:
                continue
            if kinds[cell] != "P" or (value is not None and values[cell] != value):
                break
            value = values[cell]
        else:
            if value is not None:  # only one wild per grid, so two real cards are equal here
                matched.append((index, value))
                for cell in line:
                    covered[cell] = True
    score = -sum(value for _, value in matched)
    for cell in range(GRID_CELLS):
        kind = kinds[cell]
        if kind == "P":
            if not covered[cell]:
                score += values[cell]
        elif kind == "N":
            score += values[cell]
        elif kind == "H":
            score += HAZARD_COST
    return score, tuple(matched)


def score_kinds(kinds: Sequence[str], values: Sequence[int]) -> GridScore:
    """Score 9 cells given by kind ("P", "N", "H", "M", other = blocker) and face value.

    With two or more mulligans each one is tried as the wild card and the lowest score kept
    (the first such cell on a tie); the others are inert and block their lines (R13).
    """
    if len(kinds) != GRID_CELLS or len(values) != GRID_CELLS:
        raise ValueError("A grid has exactly 9 cells.")
    mulligans = [cell for cell in range(GRID_CELLS) if kinds[cell] == "M"]
    hazards = sum(1 for kind in kinds if kind == "H")
    if not mulligans:
        raw, lines = _score_for_wild(kinds, values, None)
        return GridScore(raw, lines, None, hazards)
    best: GridScore | None = None
    for wild in mulligans:
        raw, lines = _score_for_wild(kinds, values, wild)
        if best is None or raw < best.raw:
            best = GridScore(raw, lines, wild, hazards)
    assert best is not None
    return best


def score_cards(cards: Sequence[int]) -> GridScore:
    """Score a revealed grid of 9 card indexes (row by row)."""
    return score_kinds([CARD_KINDS[c] for c in cards], [CARD_VALUES[c] for c in cards])


def score_grid(grid: Sequence[str]) -> int:
    """Raw score of a finished 3x3 grid given as 9 card ids row by row (rules §6.1-6.3)."""
    if len(grid) != GRID_CELLS:
        raise ValueError("A grid has exactly 9 cards.")
    try:
        cards = [IDX_OF_ID[card_id] for card_id in grid]
    except KeyError as exc:
        raise ValueError(f"Unknown card id {exc.args[0]!r}.") from None
    if len(set(cards)) != GRID_CELLS:
        raise ValueError("A grid cannot hold the same card twice.")
    return score_cards(cards).raw


def first_out_adjustments(raw: Sequence[int], first_out: int | None) -> list[int]:
    """Per-seat adjustment: -5 for first_out if no one scored lower (a tie counts as lowest),
    else +5; zero for everyone else and for everyone when nobody went out (stall cap, R17/R20)."""
    adjust = [0] * len(raw)
    if first_out is not None:
        lowest = all(raw[first_out] <= other for other in raw)
        adjust[first_out] = -FIRST_OUT_BONUS if lowest else FIRST_OUT_BONUS
    return adjust


def game_winners(totals: Sequence[int], last_round: Sequence[int]) -> frozenset[int]:
    """Lowest total wins; among tied totals the lowest adjusted round-3 score; else shared (R18)."""
    best = min(totals)
    tied = [seat for seat, total in enumerate(totals) if total == best]
    best_last = min(last_round[seat] for seat in tied)
    return frozenset(seat for seat in tied if last_round[seat] == best_last)
