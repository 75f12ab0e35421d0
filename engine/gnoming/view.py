"""Gnoming A Round: what one seat (or a spectator) may see (rules §8).

:class:`GnomeView` is what ``GAME.view`` returns: a plain JSON-serialisable dict, typed as a
``TypedDict`` so that a reader (a renderer, a test) can use these keys only. Cards
are text ids; cells are grid positions 0-8, row by row. A seat's view differs from the
spectator's in its :class:`GnomeSeatParts` only.
"""

from __future__ import annotations

import functools
from typing import TypedDict

from engine.gnoming.actions import Source
from engine.gnoming.cards import CARD_IDS, CARD_KINDS, CARD_VALUES, GRID_CELLS
from engine.gnoming.rules import bounce_targets, flip_eligible, pile_targets, to_act
from engine.gnoming.scoring import game_winners, score_kinds
from engine.gnoming.state import ROUNDS, GnomeRound, Phase, State


class GnomeCell(TypedDict):
    """One grid cell: a face-down card's id is None for everyone, its owner included."""

    card: str | None
    up: bool


class GnomePile(TypedDict):
    """A discard pile: its top card (None when empty) and size."""

    top: str | None
    size: int


# The card in the active player's hand, and where it came from; a card drawn from the deck is
# shown to the active player only (None for everyone else). ("from" is a keyword: the
# functional form names it.)
GnomeHeld = TypedDict("GnomeHeld", {"card": str | None, "from": Source})


class GnomeBounce(TypedDict):
    """A revealed card that matches and may bounce."""

    card: str
    targets: list[int]  # the cells it may bounce to
    piles: list[str]  # the piles it may be declined onto


class GnomePendingDiscard(TypedDict):
    """The card that ends the turn, while the active player picks its pile."""

    card: str
    piles: list[str]


class GnomeOpening(TypedDict):
    waiting: list[int]  # seats still to pick
    mine: list[int] | None  # the viewer's own two cells, once picked (nobody else's)


class GnomeFlips(TypedDict):
    """The answers owed after a hazard discard."""

    waiting: list[int]  # seats still to answer
    cells: list[list[int]]  # per seat its face-down cells ([] for a seat that owes nothing)
    mine: int | None  # the viewer's own answer, given but not revealed yet


class GnomeFinalLap(TypedDict):
    first_out: int
    remaining: list[int]  # seats still to take their last turn, in order


class GnomeOutcome(TypedDict):
    totals: list[int]
    winners: list[int]


class GnomeSeatParts(TypedDict):
    """The keys that depend on the viewer."""

    seat: int | None  # the viewer; None for a spectator
    held: GnomeHeld | None  # None outside PLAY
    opening: GnomeOpening | None  # None outside OPENING
    hazard_flips: GnomeFlips | None  # None outside HAZARD_FLIPS


class GnomeView(GnomeSeatParts):
    """Everything one seat (or a spectator) may see."""

    game: str  # "gnome"
    title: str
    players: int
    phase: Phase
    to_act: list[int]  # sorted seats that owe an action
    active: int | None  # whose turn; None once finished
    round: int  # 1-3
    rounds: int  # 3
    start_seat: int  # who started this round
    grids: list[list[GnomeCell]]  # per seat, 9 cells
    face_down: list[int]  # per seat, how many cells are face down
    # Per seat, the score of the face-up cards alone (a face-down cell counts 0 and completes
    # no line), as the table would show it.
    showing: list[int]
    discard: dict[str, GnomePile]  # by pile name, "A" and "B"
    draw_size: int
    removed: list[str]  # the hazards out of play this round
    locked: list[int]  # cells filled during the current turn (a bounce cannot target them)
    bounce: GnomeBounce | None
    pending_discard: GnomePendingDiscard | None
    final_lap: GnomeFinalLap | None  # None until a seat goes out
    turns: int  # turns played this round
    turn_cap: int  # the stall cap in turns (0 = no cap)
    totals: list[int]
    round_scores: list[list[int]]  # per finished round, per seat adjusted scores
    last_round: GnomeRound | None  # the summary of the last scored round
    outcome: GnomeOutcome | None  # None while the game runs


def _grid_view(state: State, seat: int) -> list[GnomeCell]:
    grid, up = state.grid[seat], state.up[seat]
    return [
        {"card": CARD_IDS[grid[cell]] if up[cell] else None, "up": up[cell]}
        for cell in range(GRID_CELLS)
    ]


def _showing(state: State, seat: int) -> int:
    return _visible_score(tuple(state.grid[seat]), tuple(state.up[seat]))


# Every view of a state shows every seat's visible score, and a move changes one or two grids:
# a bounded memo of a pure function (no outcome depends on it) scores each grid once.
@functools.lru_cache(maxsize=4096)
def _visible_score(grid: tuple[int, ...], up: tuple[bool, ...]) -> int:
    kinds = [CARD_KINDS[grid[cell]] if up[cell] else "U" for cell in range(GRID_CELLS)]
    values = [CARD_VALUES[grid[cell]] if up[cell] else 0 for cell in range(GRID_CELLS)]
    return score_kinds(kinds, values).raw


def _copy_summary(summary: GnomeRound | None) -> GnomeRound | None:
    """A fresh copy, so a caller editing its view cannot reach into the state."""
    if summary is None:
        return None
    return {
        **summary,
        "seats": [
            {
                **entry,
                "grid": list(entry["grid"]),
                "lines": [
                    {"cells": list(line["cells"]), "value": line["value"]}
                    for line in entry["lines"]
                ],
            }
            for entry in summary["seats"]
        ],
    }


def outcome_dict(state: State) -> GnomeOutcome | None:
    if state.phase != "finished":
        return None
    winners = game_winners(state.totals, state.round_scores[-1])
    return {"totals": list(state.totals), "winners": sorted(winners)}


def _seat_parts(state: State, seat: int | None) -> GnomeSeatParts:
    """The parts of a view that differ from seat to seat: the held card (one drawn from the
    deck is seen by its drawer alone), and the seat's own opening pair and flip."""
    n = state.players
    phase = state.phase
    held: GnomeHeld | None = None
    # held_from is set whenever held is (rules.py sets and clears them together)
    if state.held is not None and state.held_from is not None and phase == "play":
        visible = state.held_from != "deck" or seat == state.active
        held = {"card": CARD_IDS[state.held] if visible else None, "from": state.held_from}
    opening: GnomeOpening | None = None
    if phase == "opening":
        mine = state.opening[seat] if seat is not None else None
        opening = {
            "waiting": sorted(s for s in range(n) if state.opening[s] is None),
            "mine": None if mine is None else list(mine),
        }
    flips: GnomeFlips | None = None
    if phase == "hazard_flips":
        answered = seat is not None and flip_eligible(state, seat) and seat not in state.flip_wait
        pick = state.flip_pick[seat] if answered and seat is not None else -1
        flips = {
            "waiting": sorted(state.flip_wait),
            "cells": [state.face_down(s) if s in state.flip_wait else [] for s in range(n)],
            "mine": pick if pick >= 0 else None,
        }
    return {"seat": seat, "held": held, "opening": opening, "hazard_flips": flips}


def seat_view(state: State, seat: int, public: GnomeView) -> GnomeView:
    """``build_view(state, seat)`` from ``public`` (``build_view(state, None)``): only the
    seat's parts are made again, the rest is shared."""
    return {**public, **_seat_parts(state, seat)}


def build_view(state: State, seat: int | None) -> GnomeView:
    n = state.players
    phase = state.phase
    bounce: GnomeBounce | None = None
    pending_discard: GnomePendingDiscard | None = None
    if phase == "bounce" and state.pending is not None:
        bounce = {
            "card": CARD_IDS[state.pending],
            "targets": bounce_targets(state),
            "piles": list(pile_targets(state)),
        }
    if phase == "discard" and state.pending is not None:
        pending_discard = {"card": CARD_IDS[state.pending], "piles": list(pile_targets(state))}
    final_lap: GnomeFinalLap | None = None
    if state.first_out is not None and phase != "finished":
        final_lap = {"first_out": state.first_out, "remaining": list(state.lap)}
    return {
        "game": "gnome",
        "title": "Gnoming A Round",
        "players": n,
        "phase": phase,
        "to_act": sorted(to_act(state)),
        "active": None if phase == "finished" else state.active,
        "round": state.round,
        "rounds": ROUNDS,
        "start_seat": state.start_seat,
        "grids": [_grid_view(state, s) for s in range(n)],
        "face_down": [len(state.face_down(s)) for s in range(n)],
        "showing": [_showing(state, s) for s in range(n)],
        "discard": {
            name: {"top": CARD_IDS[pile[-1]] if pile else None, "size": len(pile)}
            for name, pile in zip(("A", "B"), state.piles, strict=True)
        },
        "draw_size": len(state.draw),
        "removed": [CARD_IDS[card] for card in state.removed],
        "locked": list(state.locked),
        "bounce": bounce,
        "pending_discard": pending_discard,
        "final_lap": final_lap,
        "turns": state.turns,
        "turn_cap": n * state.max_turns,
        "totals": list(state.totals),
        "round_scores": [list(scores) for scores in state.round_scores],
        "last_round": _copy_summary(state.last_round),
        "outcome": outcome_dict(state),
        **_seat_parts(state, seat),
    }
