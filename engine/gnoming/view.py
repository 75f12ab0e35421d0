"""Gnoming A Round: what one seat (or a spectator) may see (rules §8).

Keys of the view dict (cards are text ids, cells are grid positions 0-8 row by row):

- ``game`` "gnome", ``title``, ``players`` (seat count), ``seat`` (the viewer, None =
  spectator), ``phase`` (opening / draw / play / bounce / discard / hazard_flips / finished),
  ``to_act`` (sorted seats that owe an action), ``active`` (whose turn; None once finished).
- ``round`` (1-3), ``rounds`` (3), ``start_seat`` (who started this round).
- ``grids``: per seat, 9 cells ``{"card": id | None, "up": bool}``; a face-down card's id is
  None for everyone, its owner included. ``face_down``: per seat, how many cells are face down.
  ``showing``: per seat, the score of the face-up cards alone (a face-down cell counts 0 and
  completes no line), as the table would show it.
- ``held``: None, or ``{"card": id | None, "from": "deck" | "A" | "B"}``; a card drawn from the
  deck is shown only to the active player (None for everyone else).
- ``discard``: ``{"A": {"top": id | None, "size": int}, "B": {...}}``; ``draw_size``;
  ``removed``: ids of the hazards out of play this round.
- ``locked``: cells filled during the current turn (a bounce cannot target them).
- ``bounce``: None, or ``{"card": id, "targets": [cells], "piles": [piles to decline onto]}``.
- ``pending_discard``: None, or ``{"card": id, "piles": ["A", "B"]}`` while the active player
  picks the pile for the card that ends the turn.
- ``opening``: None, or ``{"waiting": [seats], "mine": [a, b] | None}`` (only one's own pick).
- ``hazard_flips``: None, or ``{"waiting": [seats], "cells": [[cells] per seat (empty for a
  seat that does not owe an answer)], "mine": cell | None}`` (``mine`` = the viewer's own
  answer, given but not revealed yet).
- ``final_lap``: None, or ``{"first_out": seat, "remaining": [seats still to take their turn]}``.
- ``turns``: turns played this round; ``turn_cap``: the stall cap in turns (0 = no cap).
- ``totals``; ``round_scores``: per finished round, per seat adjusted scores.
- ``last_round``: None, or the summary of the last scored round: ``{"round", "first_out",
  "stalled", "seats": [{"grid": [9 ids], "lines": [{"cells": [3 cells], "value": v}],
  "hazards", "wild": cell | None, "raw", "adjust", "score"}]}``.
- ``outcome``: None, or ``{"totals": [...], "winners": [seats]}`` once the game is over.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.base import View
from engine.gnoming.cards import CARD_IDS, CARD_KINDS, CARD_VALUES, GRID_CELLS
from engine.gnoming.rules import bounce_targets, flip_eligible, pile_targets, to_act
from engine.gnoming.scoring import game_winners, score_kinds
from engine.gnoming.state import ROUNDS, State


def _grid_view(state: State, seat: int) -> list[dict[str, Any]]:
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


def _copy_summary(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """A fresh copy, so a caller editing its view cannot reach into the state."""
    if summary is None:
        return None
    copied = dict(summary)
    copied["seats"] = [
        {
            **entry,
            "grid": list(entry["grid"]),
            "lines": [
                {"cells": list(line["cells"]), "value": line["value"]} for line in entry["lines"]
            ],
        }
        for entry in summary["seats"]
    ]
    return copied


def outcome_dict(state: State) -> dict[str, Any] | None:
    if state.phase != "finished":
        return None
    winners = game_winners(state.totals, state.round_scores[-1])
    return {"totals": list(state.totals), "winners": sorted(winners)}


def _seat_parts(state: State, seat: int | None) -> dict[str, Any]:
    """The parts of a view that differ from seat to seat: the held card (one drawn from the
    deck is seen by its drawer alone), and the seat's own opening pair and flip."""
    n = state.players
    phase = state.phase
    held: dict[str, Any] | None = None
    if state.held is not None and phase == "play":
        visible = state.held_from != "deck" or seat == state.active
        held = {"card": CARD_IDS[state.held] if visible else None, "from": state.held_from}
    opening: dict[str, Any] | None = None
    if phase == "opening":
        mine = state.opening[seat] if seat is not None else None
        opening = {
            "waiting": sorted(s for s in range(n) if state.opening[s] is None),
            "mine": None if mine is None else list(mine),
        }
    flips: dict[str, Any] | None = None
    if phase == "hazard_flips":
        answered = seat is not None and flip_eligible(state, seat) and seat not in state.flip_wait
        pick = state.flip_pick[seat] if answered and seat is not None else -1
        flips = {
            "waiting": sorted(state.flip_wait),
            "cells": [state.face_down(s) if s in state.flip_wait else [] for s in range(n)],
            "mine": pick if pick >= 0 else None,
        }
    return {"seat": seat, "held": held, "opening": opening, "hazard_flips": flips}


def seat_view(state: State, seat: int, public: View) -> dict[str, Any]:
    """``build_view(state, seat)`` from ``public`` (``build_view(state, None)``): only the
    seat's parts are made again, the rest is shared."""
    return {**public, **_seat_parts(state, seat)}


def build_view(state: State, seat: int | None) -> dict[str, Any]:
    n = state.players
    phase = state.phase
    bounce: dict[str, Any] | None = None
    pending_discard: dict[str, Any] | None = None
    if phase == "bounce" and state.pending is not None:
        bounce = {
            "card": CARD_IDS[state.pending],
            "targets": bounce_targets(state),
            "piles": list(pile_targets(state)),
        }
    if phase == "discard" and state.pending is not None:
        pending_discard = {"card": CARD_IDS[state.pending], "piles": list(pile_targets(state))}
    final_lap: dict[str, Any] | None = None
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
