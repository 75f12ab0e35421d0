"""Frames of the live table (web/frames.py) on real positions of every game, checked by
tests/web/frames_check.py; and the check catches a frame made wrongly on purpose."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from db.models import GameRow, GameStatus, SeatRow
from engine import GAMES
from presentation.viewing import Views
from service.reports import Loaded
from tests.web.frames_check import Leak, check_frame
from web.frames import table_frame


def position(name: str, moves: int) -> Loaded:
    game = GAMES[name]
    players = max(game.min_players, 2)
    state = game.new_game(players, 7)
    rng = random.Random(name)
    for _ in range(moves):
        due = sorted(game.to_act(state))
        if not due or game.outcome(state) is not None:
            break
        seat = rng.choice(due)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    row = GameRow(1, 1, 2, name, GameStatus.ACTIVE, 10, 7, "{}", game.to_json(state), moves,
                  None, None, None, 0.0, 0.0, None)  # fmt: skip
    seats = [
        SeatRow(1, n, 10 + n, f"p{n}", False, True, 0, None, 0, False, None, None, False)
        for n in range(players)
    ]
    return Loaded(row, seats, state)


def frame_for(loaded: Loaded, seat: int | None) -> dict[str, Any]:
    chosen = None if seat is None else loaded.seats[seat]
    frame: dict[str, Any] = json.loads(json.dumps(table_frame(loaded, chosen, Views(), [])))
    return frame


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("moves", [0, 9])
def test_each_viewer_gets_exactly_their_view(name: str, moves: int) -> None:
    loaded = position(name, moves)
    for seat in [None, *range(len(loaded.seats))]:
        frame = frame_for(loaded, seat)
        check_frame(frame, loaded.state, seat)
        assert frame["version"] == moves and frame["game"] == name


def test_the_check_catches_raw_state_and_another_seats_view() -> None:
    loaded = position("hearts", 3)
    game, state = loaded.game, loaded.state
    frame = frame_for(loaded, 0)
    raw = {**frame, "view": json.loads(game.to_json(state))}  # raw state instead of a view
    with pytest.raises(Leak):
        check_frame(raw, state, 0)
    swapped = {**frame, "view": json.loads(json.dumps(game.view(state, 1)))}
    with pytest.raises(Leak):
        check_frame(swapped, state, 0)
    hand = json.loads(json.dumps(game.view(state, 1)))["hand"]  # bob's hand in a side field
    with pytest.raises(Leak, match="hand"):
        check_frame({**frame, "panels": [{"cards": hand}]}, state, 0)
    check_frame(frame, state, 0)  # the frame as made passes


def test_every_seat_carries_its_running_timer_while_the_game_is_live() -> None:
    loaded = position("grinch", 3)
    seats = [replace(s, deadline=1764760030.0) if s.seat == 1 else s for s in loaded.seats]
    timed = Loaded(loaded.row, seats, loaded.state)
    for viewer in (None, 0, 1):
        shown = frame_for(timed, viewer)["seats"]
        assert [s["deadline"] for s in shown] == [None, 1764760030.0, None][: len(shown)]
    over = Loaded(replace(loaded.row, status=GameStatus.FINISHED), seats, loaded.state)
    assert all(s["deadline"] is None for s in frame_for(over, 0)["seats"])
