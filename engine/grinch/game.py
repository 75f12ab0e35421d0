"""Dr. Seuss: Grinch, Grow Your Heart! (rules/grinch.md): the ``GAME`` object.

The sibling modules hold the cards (``cards``), the actions and their texts (``actions``, which
documents every action form), row scoring (``scoring``), the state and its snapshot
(``state``), the round flow (``rules``) and the view (``view``, which documents every key).
ROUND_START and WHO_DRAW are automatic and run inside ``new_game``/``apply``, so ``to_act`` is
never empty while the game runs.
"""

from __future__ import annotations

import json
from typing import Any, Final

from engine.base import BadActionText, IllegalAction, Outcome, Seat, check_seat, winners_of
from engine.grinch.actions import Action, ChooseRow, Discard, Take, parse_action_text
from engine.grinch.cards import ROWS
from engine.grinch.rules import (
    GAME_END,
    GRINCH_DISCARD,
    GRINCH_TAKE,
    PHASES,
    ROUNDS,
    SCORING,
    WHO_DISCARD,
    choose_row,
    grinch_discard,
    grinch_take,
    sheet_totals,
    start_round,
    who_discard,
    whos,
)
from engine.grinch.state import GrinchState, state_from_dict, state_to_dict
from engine.grinch.view import GrinchView, build_view, seat_parts


class GrinchGame:
    name = "grinch"
    title = "Grinch Grow Your Heart"
    lowest_wins = False
    min_players = 2
    max_players = 6

    def new_game(
        self, players: int, seed: int, options: dict[str, Any] | None = None
    ) -> GrinchState:
        if not isinstance(players, int) or not 2 <= players <= 6:
            raise IllegalAction("Grinch is played by 2 to 6 players.")
        empty: tuple[int | None, ...] = (None,) * len(ROWS)
        state = GrinchState(
            players=players,
            key=int(seed),
            round=0,
            grinch=0,
            turn=1,
            phase=WHO_DISCARD,
            deck=(),
            hands=((),) * players,
            piles=((),) * players,
            sheet=(empty,) * players,
            pending=(None,) * players,
            takes=(),
        )
        return start_round(state, 1)

    def to_act(self, state: GrinchState) -> set[Seat]:
        phase = state.phase
        if phase == WHO_DISCARD:
            return {s for s in whos(state) if state.pending[s] is None}
        if phase in (GRINCH_TAKE, GRINCH_DISCARD):
            return {state.grinch}
        if phase == SCORING:
            return {s for s in range(state.players) if state.pending[s] is None}
        return set()

    def legal_actions(self, state: GrinchState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase in (WHO_DISCARD, GRINCH_DISCARD):
            return [Discard(c) for c in state.hands[seat]]
        if phase == GRINCH_TAKE:
            takes: list[Action] = [Take(None)] if state.deck else []
            takes.extend(Take(s) for s in range(state.players) if state.piles[s])
            return takes
        cells = state.sheet[seat]
        return [ChooseRow(row) for i, row in enumerate(ROWS) if cells[i] is None]

    def forced(self, state: GrinchState, seat: Seat) -> Action | None:
        """Only the Grinch's take can come down to one choice (the deck, every pile empty:
        ruling 14 makes both takes compulsory); discards and rows never do."""
        legal = self.legal_actions(state, seat)
        return legal[0] if len(legal) == 1 else None

    def apply(self, state: GrinchState, seat: Seat, action: Action) -> GrinchState:
        if state.phase == GAME_END:
            raise IllegalAction("The game is over.")
        check_seat(seat, state.players)
        if not isinstance(action, Discard | Take | ChooseRow):
            raise IllegalAction("That is not a Grinch move.")
        phase = state.phase
        if phase == WHO_DISCARD:
            return who_discard(state, seat, action)
        if phase == SCORING:
            return choose_row(state, seat, action)
        if seat != state.grinch:
            raise IllegalAction("It is the Grinch's turn.")
        if phase == GRINCH_TAKE:
            return grinch_take(state, action)
        return grinch_discard(state, action)

    def parse_action(self, text: str) -> Action:
        action = parse_action_text(text) if isinstance(text, str) else None
        if action is None:
            raise BadActionText("That is not a Grinch move.")
        return action

    def view(self, state: GrinchState, seat: Seat | None) -> GrinchView:
        if seat is not None:
            check_seat(seat, state.players)
        return build_view(state, seat, self.to_act(state), self.outcome(state))

    def seat_view(self, state: GrinchState, seat: Seat, public: GrinchView) -> GrinchView:
        """``view(state, seat)`` from the state's public view (see engine.base.seat_view)."""
        check_seat(seat, state.players)
        return {**public, **seat_parts(state, seat)}

    def to_json(self, state: GrinchState) -> str:
        data = {"game": self.name, **state_to_dict(state)}
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def from_json(self, text: str) -> GrinchState:
        data = json.loads(text)
        if data.get("game") != self.name or data.get("phase") not in PHASES:
            raise ValueError("Not a Grinch snapshot.")
        return state_from_dict(data)

    def outcome(self, state: GrinchState) -> Outcome | None:
        if state.phase != GAME_END:
            return None
        totals = sheet_totals(state)
        details = {"sheet": [list(c) for c in state.sheet], "rounds": ROUNDS[state.players]}
        return Outcome(totals=totals, winners=winners_of(totals), details=details)


GAME: Final = GrinchGame()
