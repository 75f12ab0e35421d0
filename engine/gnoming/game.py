"""Gnoming A Round (a Golf variant), per /rules/gnoming.md: the ``GAME`` object.

The sibling modules hold cards and display helpers (``cards``), scoring (``scoring``),
actions and their text (``actions``, which documents every action form), the state and its
snapshot (``state``), the state machine (``rules``) and the view (``view``, which documents
every view key).

Options: ``{"max_turns_per_player": int}`` (default 30; 0 = no stall cap, R20).

Rulings taken where the rules file leaves room (also in the comments where they apply):

- The rules' ``discard`` + ``pile:X`` steps merge into ``x.A`` / ``nb.A``; a card with only
  one legal destination (a hazard, or exactly one empty pile) is moved without asking.
- Every shuffle uses a fresh ``random.Random`` seeded from (seed, round, shuffle number), so
  the state never has to store RNG internals.
- Hazard flips are resolved in turn order starting after the active player.
"""

from __future__ import annotations

from typing import Any

from engine.base import IllegalAction, Outcome, check_seat
from engine.gnoming.actions import (
    GnomeAction,
    parse_action,
)
from engine.gnoming.rules import deal_round, do_action, legal_actions, to_act, why_illegal
from engine.gnoming.scoring import game_winners
from engine.gnoming.state import DEFAULT_MAX_TURNS, State, state_from_json, state_to_json
from engine.gnoming.view import GnomeView, build_view, seat_view

_OPTION_KEYS = frozenset({"max_turns_per_player"})


class GnomeGame:
    """Gnoming A Round for 3-7 players."""

    name = "gnome"
    title = "Gnoming A Round"
    lowest_wins = True
    min_players = 3
    max_players = 7

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise ValueError("Gnoming A Round needs 3 to 7 players.")
        opts = dict(options or {})
        unknown = set(opts) - _OPTION_KEYS
        if unknown:
            raise ValueError(f"Unknown option(s): {', '.join(sorted(unknown))}.")
        cap = opts.get("max_turns_per_player", DEFAULT_MAX_TURNS)
        if not isinstance(cap, int) or isinstance(cap, bool) or cap < 0:
            raise ValueError("max_turns_per_player must be a whole number, 0 or more.")
        state = State(players=players, seed=int(seed), max_turns=cap)
        state.totals = [0] * players
        deal_round(state)
        return state

    def to_act(self, state: State) -> set[int]:
        return to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[GnomeAction]:
        return legal_actions(state, seat)

    def forced(self, state: State, seat: int) -> GnomeAction | None:
        """Never: the rules already move a card with a single destination by themselves
        (see ``rules``), and every other step is the player's to take."""
        return None

    def apply(self, state: State, seat: int, action: GnomeAction) -> State:
        check_seat(seat, state.players)
        if state.phase == "finished":
            raise IllegalAction("The game is over.")
        if action not in legal_actions(state, seat):
            raise why_illegal(state, seat, action)
        new = state.copy()
        do_action(new, seat, action)
        return new

    def parse_action(self, text: str) -> GnomeAction:
        return parse_action(text)

    def view(self, state: State, seat: int | None) -> GnomeView:
        if seat is not None:
            check_seat(seat, state.players)
        return build_view(state, seat)

    def seat_view(self, state: State, seat: int, public: GnomeView) -> GnomeView:
        """``view(state, seat)`` from the state's public view (see engine.base.seat_view)."""
        check_seat(seat, state.players)
        return seat_view(state, seat, public)

    def to_json(self, state: State) -> str:
        return state_to_json(state)

    def from_json(self, text: str) -> State:
        return state_from_json(text)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "finished":
            return None
        last = state.round_scores[-1]
        return Outcome(
            totals=tuple(state.totals),
            winners=game_winners(state.totals, last),
            details={"round_scores": [list(scores) for scores in state.round_scores]},
        )


GAME = GnomeGame()
